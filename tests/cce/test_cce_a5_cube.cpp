// A5's Cube-side CCE intrinsics run end to end: kernels written on the
// intrinsics alone (a5_cube_kernels.cpp), built by ptocc for dav-c310-cube,
// launched through ACL, results checked to the bit.
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>
#include <ptosim/float8.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

extern "C" {
void launch_a5_gemm_f16(float*, half*, half*, void*);
void launch_a5_gemm_f16_dn_nz(float*, half*, half*, void*);
void launch_a5_gemm_f16_bias(float*, half*, half*, half*, void*);
void launch_a5_gemm_f8(float*, uint8_t*, uint8_t*, void*);
void launch_a5_gemm_s8_nz(int32_t*, int8_t*, int8_t*, void*);
void launch_a5_bias_bf16_to_f8(uint8_t*, half*, half*, uint16_t*, void*);
void launch_a5_s4_transpose(int32_t*, int8_t*, int8_t*, void*);
void launch_a5_img2col(float*, half*, half*, void*);
void launch_a5_gemm_f16_dn_out(float*, half*, half*, void*);
void launch_a5_odd_float_transpose(float*, void*);
void launch_a5_mx_f8(float*, uint8_t*, uint8_t*, uint8_t*, uint8_t*, void*);
void launch_a5_mx_f4_bias(float*, uint8_t*, uint8_t*, uint8_t*, uint8_t*, float*, void*);
void launch_a5_mx_gemv(float*, uint8_t*, uint8_t*, uint8_t*, uint8_t*, void*);
void launch_a5_mx_load_past_store(float*, void*);
}

namespace {

class CceA5Cube : public cce_test::AclFixture {
protected:
    // A[20 x 40], B[40 x 32]: small multiples of 0.5, so every sum is exact.
    void SetUp() override {
        AclFixture::SetUp();
        a.resize(20 * 40);
        b.resize(40 * 32);
        for (int i = 0; i < 20; ++i)
            for (int k = 0; k < 40; ++k) a[i * 40 + k] = half(static_cast<float>((i * 3 + k) % 7 - 3));
        for (int k = 0; k < 40; ++k)
            for (int j = 0; j < 32; ++j) b[k * 32 + j] = half(static_cast<float>((k * 5 + j) % 9 - 4) * 0.5f);
    }
    float product(int i, int j) const {
        float s = 0;
        for (int k = 0; k < 40; ++k) s += static_cast<float>(a[i * 40 + k]) * static_cast<float>(b[k * 32 + j]);
        return s;
    }
    std::vector<half> a, b;
};

TEST_F(CceA5Cube, HalfGemmNdToNzLoadsAndNdStore) {
    float* dc = device(std::vector<float>(20 * 32, 99.0f));
    launch_a5_gemm_f16(dc, device(a), device(b), stream);
    const std::vector<float> r = back(dc, 20 * 32);
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 32; ++j) EXPECT_EQ(r[i * 32 + j], product(i, j)) << i << "," << j;
}

TEST_F(CceA5Cube, DnSourceAndNzStoreWithAnElementStride) {
    std::vector<half> at(40 * 20);
    for (int i = 0; i < 20; ++i)
        for (int k = 0; k < 40; ++k) at[k * 20 + i] = a[i * 40 + k];
    float* dc = device(std::vector<float>(2 * 32 * 16, -7.0f));
    launch_a5_gemm_f16_dn_nz(dc, device(at), device(b), stream);
    const std::vector<float> r = back(dc, 2 * 32 * 16);
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i < 32; ++i)
            for (int c = 0; c < 16; ++c)
                EXPECT_EQ(r[(g * 32 + i) * 16 + c], i < 20 ? product(i, g * 16 + c) : -7.0f) << g << "," << i << "," << c;
}

TEST_F(CceA5Cube, NzToDnStoreWritesColumns) {
    float* dc = device(std::vector<float>(20 * 32, 99.0f));
    launch_a5_gemm_f16_dn_out(dc, device(a), device(b), stream);
    const std::vector<float> r = back(dc, 20 * 32);
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 32; ++j) EXPECT_EQ(r[j * 20 + i], product(i, j)) << i << "," << j;
}

TEST_F(CceA5Cube, BiasRowWidenedIntoTheBiasTableStartsTheSums) {
    std::vector<half> bias(32);
    for (int j = 0; j < 32; ++j) bias[j] = half(static_cast<float>(j) - 10.5f);
    float* dc = device(std::vector<float>(20 * 32, 99.0f));
    launch_a5_gemm_f16_bias(dc, device(a), device(b), device(bias), stream);
    const std::vector<float> r = back(dc, 20 * 32);
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 32; ++j) {
            float s = static_cast<float>(bias[j]);
            for (int k = 0; k < 40; ++k) s += static_cast<float>(a[i * 40 + k]) * static_cast<float>(b[k * 32 + j]);
            EXPECT_EQ(r[i * 32 + j], s) << i << "," << j;
        }
}

TEST_F(CceA5Cube, Float8E4M3TimesE5M2IntoFloat) {
    using ptosim::MiniFormat;
    std::vector<uint8_t> qa(16 * 64), qb(64 * 32);
    std::vector<float> fa(16 * 64), fb(64 * 32);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 64; ++k) {
            fa[i * 64 + k] = static_cast<float>((i * 7 + k * 3) % 9 - 4) * 0.5f;
            qa[i * 64 + k] = static_cast<uint8_t>(ptosim::mini_encode(MiniFormat::E4M3, fa[i * 64 + k], ptosim::MiniRound::NearestEven, false));
        }
    for (int k = 0; k < 64; ++k)
        for (int j = 0; j < 32; ++j) {
            fb[k * 32 + j] = static_cast<float>((k + j * 5) % 7 - 3);
            qb[k * 32 + j] = static_cast<uint8_t>(ptosim::mini_encode(MiniFormat::E5M2, fb[k * 32 + j], ptosim::MiniRound::NearestEven, false));
        }
    float* dc = device(std::vector<float>(16 * 32, 99.0f));
    launch_a5_gemm_f8(dc, device(qa), device(qb), stream);
    const std::vector<float> r = back(dc, 16 * 32);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 32; ++j) {
            float s = 0;
            for (int k = 0; k < 64; ++k) s += fa[i * 64 + k] * fb[k * 32 + j];
            EXPECT_EQ(r[i * 32 + j], s) << i << "," << j;
        }
}

TEST_F(CceA5Cube, Int8GemmWithEightBitTransposedLoadAndNzInt32Store) {
    std::vector<int8_t> qa(16 * 32), qb(32 * 32);
    for (int i = 0; i < 16; ++i)
        for (int k = 0; k < 32; ++k) qa[i * 32 + k] = static_cast<int8_t>((i * 7 + k * 3) % 11 - 5);
    for (int k = 0; k < 32; ++k)
        for (int j = 0; j < 32; ++j) qb[k * 32 + j] = static_cast<int8_t>((k * 5 + j * 2) % 13 - 6);
    int32_t* dc = device(std::vector<int32_t>(2 * 16 * 16, -1));
    launch_a5_gemm_s8_nz(dc, device(qa), device(qb), stream);
    const std::vector<int32_t> r = back(dc, 2 * 16 * 16);
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i < 16; ++i)
            for (int c = 0; c < 16; ++c) {
                int32_t s = 0;
                for (int k = 0; k < 32; ++k) s += int32_t(qa[i * 32 + k]) * int32_t(qb[k * 32 + g * 16 + c]);
                EXPECT_EQ(r[(g * 16 + i) * 16 + c], s) << g << "," << i << "," << c;
            }
}

TEST_F(CceA5Cube, BfloatBiasWidensAndTheFixpipeScalesIntoE4M3) {
    std::vector<uint16_t> bias(32);
    for (int j = 0; j < 32; ++j) {
        const float v = static_cast<float>(j) * 4.0f - 60.0f;  // exact in bfloat16
        uint32_t bits;
        std::memcpy(&bits, &v, 4);
        bias[j] = static_cast<uint16_t>(bits >> 16);
    }
    uint8_t* dc = device(std::vector<uint8_t>(20 * 32, 0x7f));
    launch_a5_bias_bf16_to_f8(dc, device(a), device(b), device(bias), stream);
    const std::vector<uint8_t> r = back(dc, 20 * 32);
    int rounded = 0;
    for (int i = 0; i < 20; ++i)
        for (int j = 0; j < 32; ++j) {
            const float s = (static_cast<float>(j) * 4.0f - 60.0f + product(i, j)) * 0.25f;
            const unsigned want =
                ptosim::mini_encode(ptosim::MiniFormat::E4M3, s, ptosim::MiniRound::NearestEven, true);
            rounded += ptosim::mini_decode(ptosim::MiniFormat::E4M3, want) != s;
            EXPECT_EQ(unsigned(r[i * 32 + j]), want) << i << "," << j << ": " << s;
        }
    EXPECT_GT(rounded, 0);  // some results needed rounding to E4M3
}

TEST_F(CceA5Cube, FourBitTransposingLoadMovesNibbles) {
    std::vector<int8_t> identity(16 * 32, 0), nibbles(64 * 32);
    for (int i = 0; i < 16; ++i) identity[i * 32 + i] = 1;
    for (int r = 0; r < 64; ++r)
        for (int b = 0; b < 32; ++b) nibbles[r * 32 + b] = static_cast<int8_t>((r * 37 + b * 11 + 5) & 0xff);
    // Element (row r, column q) of the 64 x 64 nibble matrix.
    auto nib = [&](int r, int q) { return (uint8_t(nibbles[r * 32 + q / 2]) >> (4 * (q % 2))) & 0xf; };
    int32_t* dc = device(std::vector<int32_t>(16 * 64, -999));
    launch_a5_s4_transpose(dc, device(identity), device(nibbles), stream);
    const std::vector<int32_t> r = back(dc, 16 * 64);
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 64; ++j) {
            // Byte i of transposed row j: columns 2i and 2i + 1 of row j.
            const int8_t want = static_cast<int8_t>(nib(2 * i, j) | nib(2 * i + 1, j) << 4);
            EXPECT_EQ(r[i * 64 + j], want) << i << "," << j;
        }
}

TEST_F(CceA5Cube, Img2colThroughFmatrixBWritesNzIntoL0A) {
    std::vector<half> fmap(4 * 4 * 16), identity(64 * 64, half(0.0f));
    for (size_t i = 0; i < fmap.size(); ++i) fmap[i] = half(static_cast<float>(i % 97) * 0.5f - 20.0f);
    for (int i = 0; i < 64; ++i) identity[i * 64 + i] = half(1.0f);
    float* dc = device(std::vector<float>(12 * 64, -1.0f));
    launch_a5_img2col(dc, device(fmap), device(identity), stream);
    const std::vector<float> r = back(dc, 12 * 64);
    int padded = 0;
    for (int m = 0; m < 12; ++m)
        for (int k = 0; k < 64; ++k) {
            // Output position (y, x) of the 3 x 4 output; K runs over (ky, kx, c).
            const int y = m / 4, x = m % 4, ci = k % 16, kx = k / 16 % 2, ky = k / 32;
            const int iy = y + ky, ix = x + kx - 1;  // one padding column on the left
            const bool inside = ix >= 0 && ix < 4 && iy < 4;
            padded += !inside;
            const float want = inside ? static_cast<float>(fmap[(iy * 4 + ix) * 16 + ci]) : 7.0f;
            EXPECT_EQ(r[m * 64 + k], want) << m << "," << k;
        }
    EXPECT_GT(padded, 0);
}

TEST_F(CceA5Cube, FloatTransposeWithAnOddKStepFaultsNamingTheRule) {
    float* out = device(std::vector<float>(8, 0.0f));
    launch_a5_odd_float_transpose(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("load_cbuf_to_cb: transposing 32-bit elements needs k_step a multiple of 2"), std::string::npos)
        << m;
    EXPECT_NE(m.find("a5_cube_kernels.cpp:"), std::string::npos) << m;
}

// E8M0 code e scales by 2^(e - 127).
double e8m0(uint8_t e) { return std::ldexp(1.0, int(e) - 127); }

// B one-hot (B(p, j) = 1 for p = 4j) picks A(i, 4j) times the scales of
// k block j / 8: every result is one scaled element, so each scale box the
// loads moved is checked at its place. A's scales come from boxes
// (1..2, 1..2) of the 4 x 3 source grid (srcStride 3, dstStride 2).
TEST_F(CceA5Cube, MxScaleLoadsCopyBoxesByStartStepAndStride) {
    using ptosim::MiniFormat;
    std::vector<uint8_t> qa(32 * 128), qbt(32 * 128, 0), sa(12 * 32), sb(4 * 32);
    std::vector<float> fa(32 * 128);
    for (int i = 0; i < 32; ++i)
        for (int p = 0; p < 128; ++p) {
            fa[i * 128 + p] = static_cast<float>((i * 5 + p * 3) % 7 - 3);
            qa[i * 128 + p] = static_cast<uint8_t>(
                ptosim::mini_encode(MiniFormat::E4M3, fa[i * 128 + p], ptosim::MiniRound::NearestEven, false));
        }
    const uint8_t one = static_cast<uint8_t>(ptosim::mini_encode(MiniFormat::E4M3, 1.0, ptosim::MiniRound::NearestEven, false));
    for (int j = 0; j < 32; ++j) qbt[j * 128 + 4 * j] = one;  // B^T row j: B's column j
    for (size_t t = 0; t < sa.size(); ++t) sa[t] = static_cast<uint8_t>(120 + (t * 7) % 15);
    for (size_t t = 0; t < sb.size(); ++t) sb[t] = static_cast<uint8_t>(121 + (t * 5) % 13);
    float* dc = device(std::vector<float>(32 * 32, -1.0f));
    launch_a5_mx_f8(dc, device(qa), device(qbt), device(sa), device(sb), stream);
    const std::vector<float> r = back(dc, 32 * 32);
    for (int i = 0; i < 32; ++i)
        for (int j = 0; j < 32; ++j) {
            const int q = j / 8;  // k block of p = 4j
            // Destination box (i / 16, q / 2) came from source box (1 + i / 16, 1 + q / 2).
            const uint8_t ea = sa[((1 + i / 16) * 3 + 1 + q / 2) * 32 + (i % 16) * 2 + q % 2];
            const uint8_t eb = sb[((j / 16) * 2 + q / 2) * 32 + (j % 16) * 2 + q % 2];
            const double want = fa[i * 128 + 4 * j] * e8m0(ea) * e8m0(eb);
            EXPECT_EQ(r[i * 32 + j], static_cast<float>(want)) << i << "," << j;
        }
}

// Packed E2M1 x E1M2 with per-block scales and a bias row: values are
// multiples of 1/4 up to 6, scales 2^-2..2^2, so every sum is exact.
TEST_F(CceA5Cube, MxFp4MatmulReadsNibblesAndBias) {
    using ptosim::MiniFormat;
    std::vector<uint8_t> qa(16 * 32), qbt(16 * 32), sa(32), sb(32);
    for (size_t t = 0; t < qa.size(); ++t) qa[t] = static_cast<uint8_t>((t * 37 + 11) & 0xff);
    for (size_t t = 0; t < qbt.size(); ++t) qbt[t] = static_cast<uint8_t>((t * 53 + 7) & 0xff);
    for (int t = 0; t < 32; ++t) {
        sa[t] = static_cast<uint8_t>(125 + t % 5);
        sb[t] = static_cast<uint8_t>(125 + (t * 3) % 5);
    }
    std::vector<float> bias(16);
    for (int j = 0; j < 16; ++j) bias[j] = static_cast<float>(j) - 7.5f;
    // Element q of a row of 64 nibbles: the even element in the low nibble.
    auto nib = [](const std::vector<uint8_t>& v, int row, int q) { return (v[row * 32 + q / 2] >> (4 * (q % 2))) & 0xf; };
    float* dc = device(std::vector<float>(16 * 16, -1.0f));
    launch_a5_mx_f4_bias(dc, device(qa), device(qbt), device(sa), device(sb), device(bias), stream);
    const std::vector<float> r = back(dc, 16 * 16);
    int nonzero = 0;
    for (int i = 0; i < 16; ++i)
        for (int j = 0; j < 16; ++j) {
            double want = bias[j];
            for (int p = 0; p < 64; ++p) {
                // Scale box byte (row or column % 16) * 2 + k block.
                const double x = ptosim::mini_decode(MiniFormat::E2M1, nib(qa, i, p)) * e8m0(sa[i * 2 + p / 32]);
                const double y = ptosim::mini_decode(MiniFormat::E1M2, nib(qbt, j, p)) * e8m0(sb[j * 2 + p / 32]);
                want += x * y;
            }
            nonzero += want != bias[j];
            EXPECT_EQ(r[i * 16 + j], static_cast<float>(want)) << i << "," << j;
        }
    EXPECT_GT(nonzero, 200);
}

// GEMV: the one-row A and its scales are runs (scale q of k block q at
// byte q); B's scales in their box, byte (j % 16) * 2 + q.
TEST_F(CceA5Cube, MxGemvReadsTheRowAndItsScalesAsRuns) {
    using ptosim::MiniFormat;
    std::vector<uint8_t> qa(512, 0), qbt(16 * 64), sa(32, 0), sb(32);
    std::vector<double> fa(64), fbt(16 * 64);
    for (int p = 0; p < 64; ++p) {
        fa[p] = (p % 9 - 4) * 0.5;
        qa[p] = static_cast<uint8_t>(ptosim::mini_encode(MiniFormat::E4M3, fa[p], ptosim::MiniRound::NearestEven, false));
    }
    for (int t = 0; t < 16 * 64; ++t) {
        fbt[t] = t % 7 - 3;
        qbt[t] = static_cast<uint8_t>(ptosim::mini_encode(MiniFormat::E5M2, fbt[t], ptosim::MiniRound::NearestEven, false));
    }
    sa[0] = 126;
    sa[1] = 129;
    for (int t = 0; t < 32; ++t) sb[t] = static_cast<uint8_t>(125 + t % 5);
    float* dc = device(std::vector<float>(16, -1.0f));
    launch_a5_mx_gemv(dc, device(qa), device(qbt), device(sa), device(sb), stream);
    const std::vector<float> r = back(dc, 16);
    for (int j = 0; j < 16; ++j) {
        double want = 0;
        for (int p = 0; p < 64; ++p)
            want += fa[p] * e8m0(sa[p / 32]) * fbt[j * 64 + p] * e8m0(sb[j * 2 + p / 32]);
        EXPECT_EQ(r[j], static_cast<float>(want)) << j;
    }
}

TEST_F(CceA5Cube, MxScaleLoadPastTheScaleStoreFaultsNamingIt) {
    float* out = device(std::vector<float>(8, 0.0f));
    launch_a5_mx_load_past_store(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("load_cbuf_to_ca_mx dst (L0A scale store)"), std::string::npos) << m;
    EXPECT_NE(m.find("a5_cube_kernels.cpp:"), std::string::npos) << m;
}

}  // namespace
