// The A2A3 int4, dequantising and fused relu-conversion intrinsics end to
// end (convert_kernels.cpp): rounding, saturation, nibble order.
#include "acl_fixture.hpp"
#include <ptosim/float16.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <vector>

extern "C" {
void launch_int4(uint8_t*, void*, void*);
void launch_deq(void*, int32_t*, void*);
void launch_reluconv(int8_t*, void*, void*, int16_t*, int16_t*, void*);
void launch_wrap(int8_t*, void*, int32_t*, void*);
void launch_widen(float*, int8_t*, void*);
void launch_widen_rows(float*, int16_t*, void*);
void launch_widen_apart(int32_t*, int64_t*, void*, float*, void*);
}

namespace {

class CceConvert : public cce_test::AclFixture {};

int nibble(const std::vector<uint8_t>& v, size_t at, int i) {
    const int n = (v[at + i / 2] >> (i % 2 * 4)) & 0xf;  // the lower element in the low nibble
    return n >= 8 ? n - 16 : n;
}

TEST_F(CceConvert, HalfToInt4RoundsSaturatesAndPacksLowNibbleFirst) {
    std::vector<uint16_t> h(128);
    std::vector<float> x(128);
    for (int i = 0; i < 128; ++i) {
        x[i] = static_cast<float>(i % 24 - 12) * 0.75f;  // -9 .. 8.25, ties at odd multiples of 1.5
        h[i] = half(x[i]).bits;
    }
    uint8_t* out = device(std::vector<uint8_t>(384, 0));
    launch_int4(out, device(h), stream);
    const std::vector<uint8_t> r = back(out, 384);
    for (int i = 0; i < 128; ++i) {
        const int nearest = std::clamp(static_cast<int>(std::nearbyint(x[i])), -8, 7);  // ties to even
        EXPECT_EQ(nibble(r, 0, i), nearest) << i;
        EXPECT_EQ(nibble(r, 64, i), std::clamp(static_cast<int>(std::trunc(x[i])), -8, 7)) << i;
        uint16_t back16 = static_cast<uint16_t>(r[128 + 2 * i] | r[129 + 2 * i] << 8);
        EXPECT_EQ(back16, half(static_cast<float>(nearest)).bits) << i;
    }
    EXPECT_EQ(nibble(r, 0, 2), -8);  // -7.5: a tie, to even
    EXPECT_EQ(nibble(r, 0, 6), -4);  // -4.5
}

TEST_F(CceConvert, VconvDeqScalesInt32ToHalf) {
    std::vector<int32_t> s(64);
    for (int i = 0; i < 64; ++i) s[i] = i * 1000 - 30001;
    uint16_t* out = device(std::vector<uint16_t>(64, 0));
    launch_deq(out, device(s), stream);
    const std::vector<uint16_t> r = back(out, 64);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[i], half(static_cast<float>(s[i] * 0.5)).bits) << i;
}

TEST_F(CceConvert, AddReluConvAndSubReluConv) {
    std::vector<uint16_t> a(128), b(128);
    std::vector<int16_t> c(128), d(128, -60);
    for (int i = 0; i < 128; ++i) {
        a[i] = half(i * 0.5f - 20.0f).bits;
        b[i] = half(3.25f).bits;
        c[i] = static_cast<int16_t>(i * 3 - 100);
    }
    c[127] = 32767;  // minus -60 saturates in int16 before the conversion
    int8_t* out = device(std::vector<int8_t>(256, 0));
    launch_reluconv(out, device(a), device(b), device(c), device(d), stream);
    const std::vector<int8_t> r = back(out, 256);
    for (int i = 0; i < 128; ++i) {
        EXPECT_EQ(r[i], static_cast<int8_t>(std::nearbyint(std::max(i * 0.5 - 16.75, 0.0)))) << i;
        EXPECT_EQ(r[128 + i], static_cast<int8_t>(std::clamp(i * 3 - 40, 0, 127))) << i;
    }
}

TEST_F(CceConvert, Ctrl59KeepsTheLowBitsInsteadOfSaturating) {
    const std::vector<float> x = {300.0f, -300.0f, 127.0f, -129.0f, 2.5f, INFINITY, -INFINITY, NAN};
    std::vector<uint16_t> h;
    for (float f : x) h.push_back(half(f).bits);
    const std::vector<int32_t> w = {70000, -70000, 32767, 32768, -32769, 65535, 0, -1};
    int8_t* out = device(std::vector<int8_t>(64, 0));
    launch_wrap(out, device(h), device(w), stream);
    const std::vector<int8_t> r = back(out, 64);
    const std::vector<int8_t> wrapped = {44, -44, 127, 127, 2, 0, 0, 0};
    const std::vector<int8_t> saturated = {127, -128, 127, -128, 2, 127, -128, 0};
    for (int i = 0; i < 8; ++i) {
        EXPECT_EQ(r[i], wrapped[i]) << i;
        EXPECT_EQ(r[32 + i], saturated[i]) << i;
        int16_t a, b;
        std::memcpy(&a, &r[8 + 2 * i], 2);
        std::memcpy(&b, &r[40 + 2 * i], 2);
        EXPECT_EQ(a, static_cast<int16_t>(static_cast<uint16_t>(w[i]))) << i;
        EXPECT_EQ(b, static_cast<int16_t>(std::clamp(w[i], -32768, 32767))) << i;
    }
}

TEST_F(CceConvert, WideningInPlaceReadsEachRepeatBeforeWritingIt) {
    std::vector<int8_t> x(128);
    for (int i = 0; i < 128; ++i) x[i] = static_cast<int8_t>(i * 37 - 2000);
    float* out = device(std::vector<float>(128, -1.0f));
    launch_widen(out, device(x), stream);
    const std::vector<float> r = back(out, 128);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r[i], static_cast<float>(x[i])) << i;
}

// Source and destination apart: each run converts straight into the
// destination (convert.cpp), the same values as the staged path.
TEST_F(CceConvert, WideningIntoBytesApartFromTheSource) {
    std::vector<uint16_t> h(128);
    std::vector<float> x(128), f(64);
    for (int i = 0; i < 128; ++i) {
        x[i] = static_cast<float>(i) * 1.25f - 70.5f;  // exact in half; ties at odd multiples of 0.5
        h[i] = half(x[i]).bits;
    }
    for (int i = 0; i < 64; ++i) f[i] = static_cast<float>(i) * -3.75f + 100.25f;
    int32_t* out = device(std::vector<int32_t>(128, -1));
    int64_t* out64 = device(std::vector<int64_t>(64, -1));
    launch_widen_apart(out, out64, device(h), device(f), stream);
    const std::vector<int32_t> r = back(out, 128);
    const std::vector<int64_t> r64 = back(out64, 64);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r[i], static_cast<int32_t>(std::nearbyint(x[i]))) << i;
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r64[i], static_cast<int64_t>(std::trunc(f[i]))) << i;
}

TEST_F(CceConvert, WideningInPlaceOverManyRepeats) {
    std::vector<int16_t> x(272);
    for (int i = 0; i < 272; ++i) x[i] = static_cast<int16_t>(i * 131 - 17000);
    float* out = device(std::vector<float>(272, -1.0f));
    launch_widen_rows(out, device(x), stream);
    const std::vector<float> r = back(out, 272);
    for (int i = 0; i < 272; ++i) EXPECT_EQ(r[i], static_cast<float>(x[i])) << i;
}

}  // namespace
