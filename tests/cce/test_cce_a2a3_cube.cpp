// The A2A3 Cube-side CCE intrinsics run end to end: kernels written on the
// intrinsics alone (cube_kernels.cpp), built by ptocc for dav-c220-cube,
// launched through ACL, results checked to the bit.
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void launch_nd2nz_round_trip(half*, half*, void*);
void launch_fill_l1(float*, void*);
void launch_gemm_f16(half*, half*, half*, void*);
void launch_gemm_s8(int32_t*, int8_t*, int8_t*, int8_t*, void*);
void launch_gemm_bias_nz(float*, half*, half*, half*, void*);
void launch_dequant_columns(half*, int8_t*, int8_t*, uint64_t*, void*);
void launch_bias_table_at_address(float*, half*, half*, half*, float*, void*);
void launch_acc_to_l1_enum_relu(half*, half*, half*, void*);
void launch_scalar_l1(int32_t*, void*);
void launch_past_l0a(half*, void*);
}

namespace {

class CceCube : public cce_test::AclFixture {};

float f(half h) { return static_cast<float>(h); }

TEST_F(CceCube, Nd2NzPlacesRowsInFractalColumnsAndZeroPadsTheLastBlock) {
    std::vector<half> src(20 * 40);
    for (size_t i = 0; i < src.size(); ++i) src[i] = half(static_cast<float>(i % 1000) + 0.5f);
    half* in = device(src);
    half* out = device(std::vector<half>(3 * 32 * 16, half(-1.0f)));
    launch_nd2nz_round_trip(out, in, stream);
    const std::vector<half> r = back(out, 3 * 32 * 16);
    for (int g = 0; g < 3; ++g)
        for (int row = 0; row < 32; ++row)
            for (int c = 0; c < 16; ++c) {
                const int col = g * 16 + c;
                const float want = row < 20 && col < 40 ? f(src[row * 40 + col]) : 0.0f;
                EXPECT_EQ(f(r[(g * 32 + row) * 16 + c]), want) << g << "," << row << "," << c;
            }
}

TEST_F(CceCube, HalfGemmThroughImg2colAndTransposedLoadsMatchesAscendingKSums) {
    std::vector<half> a(20 * 32), b(32 * 32);
    for (int i = 0; i < 20; ++i)
        for (int k = 0; k < 32; ++k) a[i * 32 + k] = half(static_cast<float>((i * 3 + k) % 7 - 3));
    for (int k = 0; k < 32; ++k)
        for (int j = 0; j < 32; ++j) b[k * 32 + j] = half(static_cast<float>((k * 5 + j) % 9 - 4) * 0.5f);
    half* da = device(a);
    half* db = device(b);
    half* dc = device(std::vector<half>(20 * 32, half(99.0f)));
    launch_gemm_f16(dc, da, db, stream);
    const std::vector<half> r = back(dc, 20 * 32);
    int negatives = 0;
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 32; ++j) {
            float s = 0;
            for (int k = 0; k < 32; ++k) s += f(a[i * 32 + k]) * f(b[k * 32 + j]);
            negatives += s < 0;
            EXPECT_EQ(f(r[i * 32 + j]), std::max(s, 0.0f)) << i << "," << j;  // ReLU in the fixpipe
        }
    EXPECT_GT(negatives, 0);  // the ReLU had something to clear
}

TEST_F(CceCube, Int8GemmAccumulatesAndRequantises) {
    std::vector<int8_t> a(16 * 64), b(64 * 32);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 64; ++k) a[i * 64 + k] = static_cast<int8_t>((i * 7 + k * 3) % 11 - 5);
    for (int k = 0; k < 64; ++k)
        for (int j = 0; j < 32; ++j) b[k * 32 + j] = static_cast<int8_t>((k * 5 + j * 2) % 13 - 6);
    int8_t* da = device(a);
    int8_t* db = device(b);
    int32_t* dc = device(std::vector<int32_t>(16 * 32, -7));
    int8_t* dq = device(std::vector<int8_t>(16 * 32, 0));
    launch_gemm_s8(dc, dq, da, db, stream);
    const std::vector<int32_t> r = back(dc, 16 * 32);
    const std::vector<int8_t> q = back(dq, 16 * 32);
    int saturated = 0, ties = 0;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            int32_t s = 0;
            for (int k = 0; k < 64; ++k) s += int32_t(a[i * 64 + k]) * int32_t(b[k * 32 + j]);
            EXPECT_EQ(r[i * 32 + j], 2 * s) << i << "," << j;
            const float scaled = std::clamp(std::nearbyint(static_cast<float>(2 * s) * 0.75f), -256.0f, 255.0f);
            const int want = static_cast<int>(std::clamp(scaled, -128.0f, 127.0f));
            saturated += want == 127 || want == -128;
            ties += std::fabs(std::fmod(static_cast<float>(2 * s) * 0.75f, 1.0f)) == 0.5f;
            EXPECT_EQ(q[i * 32 + j], want) << i << "," << j;  // one 32-column NZ group: row-major here
        }
    EXPECT_GT(saturated, 0);
    EXPECT_GT(ties, 0);  // nearest even decided some
}

TEST_F(CceCube, BiasTableStartsTheSumAndChannelSplitWritesEightWideGroups) {
    std::vector<half> a(16 * 16), bt(32 * 16), bias(32);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 16; ++k) a[i * 16 + k] = half(static_cast<float>((i + 2 * k) % 5 - 2));
    for (int j = 0; j < 32; ++j)
        for (int k = 0; k < 16; ++k) bt[j * 16 + k] = half(static_cast<float>((3 * j + k) % 7 - 3) * 0.25f);
    for (int j = 0; j < 32; ++j) bias[j] = half(static_cast<float>(j) - 15.5f);
    half* da = device(a);
    half* dbt = device(bt);
    half* dbias = device(bias);
    float* dc = device(std::vector<float>(16 * 32, -99.0f));
    launch_gemm_bias_nz(dc, da, dbt, dbias, stream);
    const std::vector<float> r = back(dc, 16 * 32);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            float s = f(bias[j]);
            for (int k = 0; k < 16; ++k) s += f(a[i * 16 + k]) * f(bt[j * 16 + k]);
            EXPECT_EQ(r[(j / 8) * 16 * 8 + i * 8 + j % 8], s) << i << "," << j;
        }
}

// copy_cbuf_to_bt(uint64_t dst, ...): the documented integer-address form;
// the burst unit 64 source bytes, the source gap in 32-byte blocks, the
// destination gap in 64 bytes (CANN CCE reference).
TEST_F(CceCube, BiasTableIntegerAddressFormWidensAndSkipsBothGaps) {
    std::vector<half> a(16 * 16), bt(80 * 16), bias(96);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 16; ++k) a[i * 16 + k] = half(static_cast<float>((i + 3 * k) % 5 - 2));
    for (int j = 0; j < 80; ++j)
        for (int k = 0; k < 16; ++k) bt[j * 16 + k] = half(static_cast<float>((2 * j + k) % 7 - 3) * 0.5f);
    for (int h = 0; h < 96; ++h) bias[h] = half(static_cast<float>(h) * 0.25f - 7.0f);
    std::vector<float> fill(16);
    for (int j = 0; j < 16; ++j) fill[j] = 1000.0f + static_cast<float>(j);
    half* da = device(a);
    half* dbt = device(bt);
    half* dbias = device(bias);
    float* dfill = device(fill);
    float* dc = device(std::vector<float>(16 * 80, -99.0f));
    launch_bias_table_at_address(dc, da, dbt, dbias, dfill, stream);
    const std::vector<float> r = back(dc, 16 * 80);
    for (int j = 0; j < 80; ++j) {
        // BT 0x100: halves 0..31 widened; 0x180: the 16 floats; 0x1c0: halves 64..95.
        const float b = j < 32 ? f(bias[j]) : j < 48 ? fill[j - 32] : f(bias[64 + j - 48]);
        for (int i = 0; i < 16; ++i) {
            float s = b;
            for (int k = 0; k < 16; ++k) s += f(a[i * 16 + k]) * f(bt[j * 16 + k]);
            EXPECT_EQ(r[i * 80 + j], s) << i << "," << j;
        }
    }
}

// copy_matrix_cc_to_cbuf with the ReLU mode as a scoped enumeration (the
// older argument form): F322F16 with ReLU into L1 as NZ.
TEST_F(CceCube, AccToL1OlderFormTakesAnEnumReluMode) {
    std::vector<half> a(16 * 16), bt(32 * 16);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 16; ++k) a[i * 16 + k] = half(static_cast<float>((i * 2 + k) % 7 - 3));
    for (int j = 0; j < 32; ++j)
        for (int k = 0; k < 16; ++k) bt[j * 16 + k] = half(static_cast<float>((j + 5 * k) % 9 - 4) * 0.25f);
    half* da = device(a);
    half* dbt = device(bt);
    half* dc = device(std::vector<half>(16 * 32, half(-5.0f)));
    launch_acc_to_l1_enum_relu(dc, da, dbt, stream);
    const std::vector<half> r = back(dc, 16 * 32);
    int negatives = 0;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            float s = 0;
            for (int k = 0; k < 16; ++k) s += f(a[i * 16 + k]) * f(bt[j * 16 + k]);
            negatives += s < 0;
            EXPECT_EQ(f(r[(j / 16) * 256 + i * 16 + j % 16]), std::max(s, 0.0f)) << i << "," << j;
        }
    EXPECT_GT(negatives, 0);
}

TEST_F(CceCube, PerColumnParametersFromFbScaleEachColumn) {
    std::vector<int8_t> a(16 * 32), bt(16 * 32);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 32; ++k) a[i * 32 + k] = static_cast<int8_t>((5 * i + k) % 9 - 4);
    for (int j = 0; j < 16; ++j)
        for (int k = 0; k < 32; ++k) bt[j * 32 + k] = static_cast<int8_t>((j + 3 * k) % 7 - 3);
    // Column j: M1 = +-2^-(j % 4), as float bits in [31:0].
    std::vector<uint64_t> params(16);
    std::vector<float> scale(16);
    for (int j = 0; j < 16; ++j) {
        scale[j] = std::ldexp(j < 8 ? 1.0f : -1.0f, -(j % 4));
        uint32_t bits;
        std::memcpy(&bits, &scale[j], 4);
        params[j] = bits;
    }
    int8_t* da = device(a);
    int8_t* dbt = device(bt);
    uint64_t* dp = device(params);
    half* dc = device(std::vector<half>(16 * 16, half(7.0f)));
    launch_dequant_columns(dc, da, dbt, dp, stream);
    const std::vector<half> r = back(dc, 16 * 16);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            int32_t s = 0;
            for (int k = 0; k < 32; ++k) s += int32_t(a[i * 32 + k]) * int32_t(bt[j * 32 + k]);
            EXPECT_EQ(f(r[i * 16 + j]), static_cast<float>(s) * scale[j]) << i << "," << j;
        }
}

TEST_F(CceCube, CreateCbufMatrixTakesAnIntegerAsTheElementsBits) {
    float* out = device(std::vector<float>(16, -1.0f));
    launch_fill_l1(out, stream);
    const std::vector<float> r = back(out, 16);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(r[i], 3.0f) << i;
    std::vector<uint16_t> h(16);
    std::memcpy(h.data(), r.data() + 8, 32);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(h[i], 0x4100) << i;  // 2.5 as binary16
}

TEST_F(CceCube, ScalarPointersReachTheCubeCoresOwnL1) {
    int32_t* out = device(std::vector<int32_t>(8, -1));
    launch_scalar_l1(out, stream);
    const std::vector<int32_t> r = back(out, 8);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(r[i], 100 + i) << i;
}

TEST_F(CceCube, AnL0aDestinationPastItsEndFaultsNamingTheIntrinsic) {
    half* out = device(std::vector<half>(16, half(0.0f)));
    launch_past_l0a(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("load_cbuf_to_ca dst"), std::string::npos) << m;
    EXPECT_NE(m.find("cube_kernels.cpp:"), std::string::npos) << m;
}

}  // namespace
