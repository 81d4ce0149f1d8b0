// A5's register layer run end to end: kernels written in the register-based
// vector API alone (vreg_kernels.cpp), built by ptocc for dav-c310 over
// include/cce/a5, launched through ACL, results checked to the bit against a
// host reference.
#include "acl_fixture.hpp"

#include <ptosim/check.hpp>
#include <ptosim/core.hpp>
#include <ptosim/float16.hpp>
#include <ptosim/nan_rule.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
void launch_vreg_add_f32(float*, float*, float*, uint32_t, void*);
void launch_vreg_unwritten(float*, void*);
void launch_vreg_unset_mask(uint32_t*, uint32_t*, void*);
void launch_vreg_chain_f16(uint16_t*, uint16_t*, uint16_t*, uint32_t, void*);
void launch_vreg_exp_bf16(uint16_t*, uint16_t*, uint16_t*, void*);
void launch_vreg_int32(int32_t*, int32_t*, int32_t*, void*);
void launch_vreg_patterns(float*, float*, void*);
void launch_vreg_reduce(float*, float*, float*, void*);
void launch_vreg_int64(int64_t*, int64_t*, int64_t*, void*);
void launch_vreg_fma_f32(float*, float*, float*, void*);
void launch_vreg_misaligned(float*, void*);
void launch_vreg_convert(uint16_t*, int16_t*, int32_t*, float*, float*, void*);
void launch_vreg_rearrange(int32_t*, uint8_t*, void*);
void launch_vreg_unaligned(float*, float*, void*);
void launch_vreg_gather(float*, uint16_t*, float*, uint8_t*, void*);
void launch_vreg_block_reduce(float*, float*, void*);
void launch_vreg_reduce16(int32_t*, int16_t*, void*);
void launch_vreg_fp4(uint8_t*, uint16_t*, uint16_t*, void*);
void launch_vreg_pack(int16_t*, int32_t*, void*);
void launch_vreg_histogram(uint16_t*, uint8_t*, void*);
void launch_vreg_literals(float*, uint32_t*, int32_t*, float*, void*);
void launch_vreg_dma_loops(float*, float*, void*);
void launch_vreg_atomic_store(int32_t*, int32_t*, void*);
void launch_vreg_blk(float*, uint32_t*, int32_t*, float*, void*);
void launch_vreg_expdif(float*, uint16_t*, uint16_t*, float*, void*);
void launch_vreg_mod(int32_t*, float*, int32_t*, int32_t*, float*, float*, void*);
void launch_vreg_pair_gatherb(float*, float*, uint32_t*, void*);
void launch_vreg_block_store(float*, float*, void*);
void launch_vreg_atomics(int32_t*, int32_t*, float*, uint32_t, void*);
void launch_vreg_store_classes(uint8_t*, uint8_t*, uint8_t*, uint8_t*, void*);
void launch_vreg_squeeze(int32_t*, int32_t*, int16_t*, void*);
void launch_vreg_squeeze_unpaired(int32_t*, void*);
void launch_vreg_light(float*, uint16_t*, int64_t*, float*, float*, void*);
void launch_vreg_light_more(float*, int64_t*, float*, void*);
void launch_vreg_lazy(uint32_t*, int64_t*, float*, void*);
void launch_vreg_nan_whole(float*, int64_t*, float*, float, void*);
void launch_vreg_extremes(uint32_t*, float*, void*);
void launch_vreg_extremes_all(uint32_t*, float*, void*);
}

namespace {

class Vreg : public cce_test::AclFixture {};

template <class T>
uint16_t bits(T v) {
    uint16_t b;
    std::memcpy(&b, &v, 2);
    return b;
}
template <class T>
T from_bits(uint16_t b) {
    T v;
    std::memcpy(&v, &b, 2);
    return v;
}

// vcadd's order (asc-devkit asc_reduce_sum for the 950): the first `active`
// of 64 floats, the rest as +0, adjacent pairs added level by level.
float tree_sum64(const float* v, int active = 64) {
    float t[64];
    for (int i = 0; i < 64; ++i) t[i] = i < active ? v[i] : 0.0f;
    for (int n = 64; n > 1; n /= 2)
        for (int i = 0; i < n / 2; ++i) t[i] = t[2 * i] + t[2 * i + 1];
    return t[0];
}

// 300 floats: four full registers and a tail of 44; the store leaves the
// elements past n as they were in UB (zero at launch), and GM past the
// copy untouched.
// docs/intrinsics/a5-vreg.md, "Registers": what a register holds before it is
// written is ptosim's choice, zero, so that a kernel reading one gives the
// same result on every run.
TEST_F(Vreg, ARegisterNeverWrittenReadsAsZero) {
    float* dout = device(std::vector<float>(64, -3.0f));
    launch_vreg_unwritten(dout, stream);
    EXPECT_EQ(back(dout, 64), std::vector<float>(64, 0.0f));
}

// initcheck (docs/checkers.md): a source register no instruction wrote is
// named with the intrinsic, its operand and the line; the launch fails as
// under every initcheck error. Without initcheck the same kernel runs, the
// register reading as zero, and says so once per site on stderr.
TEST_F(Vreg, InitcheckNamesARegisterReadBeforeAnyWrite) {
    std::vector<uint32_t> a(64);
    for (uint32_t i = 0; i < 64; ++i) a[i] = (i % 3 == 0 ? 0x80000000u : 0u) | (0x3f800000u + i);
    std::vector<uint32_t> want(128, 0);
    for (uint32_t i = 0; i < 64; ++i) want[64 + i] = a[i] & 0x7fffffffu;
    uint32_t* da = device(a);
    uint32_t* dout = device(std::vector<uint32_t>(128, 7));
    testing::internal::CaptureStderr();
    launch_vreg_unset_mask(dout, da, stream);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    const std::string noted = testing::internal::GetCapturedStderr();
    EXPECT_EQ(back(dout, 128), want);
    EXPECT_TRUE(ptosim::check::take_reports().empty());
    testing::internal::CaptureStderr();
    launch_vreg_unset_mask(dout, da, stream);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "");

    ASSERT_EQ(ptosim::check::configure("init"), "");
    launch_vreg_unset_mask(dout, da, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    launch_vreg_unwritten(reinterpret_cast<float*>(dout), stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::vector<ptosim::check::Report> reps = ptosim::check::take_reports();
    ASSERT_EQ(ptosim::check::configure(""), "");
    EXPECT_EQ(back(dout, 64), std::vector<uint32_t>(64, 0));
    ASSERT_EQ(reps.size(), 2u);
    const struct {
        const char* op;
        int line, operand;
    } expected[] = {{"vand", 72, 3}, {"vsts", 55, 1}};
    for (size_t i = 0; i < 2; ++i) {
        const ptosim::check::Report& r = reps[i];
        ASSERT_EQ(r.sites.size(), 1u);
        const ptosim::SourceLoc& at = r.sites[0].loc;
        EXPECT_EQ(r.tool, "initcheck");
        EXPECT_EQ(r.kind, "unwritten-register");
        EXPECT_EQ(r.severity, "error");
        EXPECT_EQ(r.sites[0].op, expected[i].op);
        EXPECT_EQ(r.sites[0].pipe, ptosim::Pipe::V);
        EXPECT_EQ(r.count, 1u);
        EXPECT_TRUE(std::string(at.file).ends_with("tests/cce/vreg_kernels.cpp")) << at.file;
        EXPECT_EQ(at.line, expected[i].line);
        EXPECT_EQ(r.message, std::string(expected[i].op) + " (PIPE_V) at " + at.str() +
                                 " reads a vector register (operand " + std::to_string(expected[i].operand) +
                                 ") that no instruction wrote since it was declared; ptosim reads it as zero, the "
                                 "device reads whatever the register last held");
        EXPECT_EQ(r.fix, "write the register before " + at.str() +
                             " (vbr or vdup for a constant, vlds, or an instruction that writes it whole); a register "
                             "holds nothing defined when it is declared");
    }
    EXPECT_EQ(noted, "ptosim: initcheck: note: unwritten-register in kernel 'vreg_unset_mask' on AIV block 0: " +
                         reps[0].message +
                         "; the device does not check this, so the launch went on (PTO_SIM_CHECK=init, or ptolab "
                         "check --tool=init, reports it with the fix)\n");
}

// A register load over a tile's tail reads bytes nothing wrote into lanes
// the store then masks off: under initcheck it is judged as the data movers
// are, reported only when nothing at all in what it reads was written
// (docs/checkers.md). The add's last two loads cover 44 written floats and
// 20 unwritten ones each: no report; the launch passes.
TEST_F(Vreg, InitcheckTakesARegisterLoadOverATailAsTheMoversAre) {
    const uint32_t n = 300;
    std::vector<float> a(n, 1.5f), b(n, 2.0f);
    float* dout = device(std::vector<float>(n, 0.0f));
    ASSERT_EQ(ptosim::check::configure("init"), "");
    launch_vreg_add_f32(dout, device(a), device(b), n, stream);
    const aclError rc = aclrtSynchronizeStream(stream);
    const std::vector<ptosim::check::Report> reps = ptosim::check::take_reports();
    ASSERT_EQ(ptosim::check::configure(""), "");
    EXPECT_EQ(rc, ACL_SUCCESS) << aclGetRecentErrMsg();
    for (const auto& r : reps) ADD_FAILURE() << ptosim::check::format_text(r);
    EXPECT_EQ(back(dout, n), std::vector<float>(n, 3.5f));
}

TEST_F(Vreg, F32AddHandlesTheTailWithPlt) {
    const uint32_t n = 300;
    std::vector<float> a(n + 20), b(n + 20);
    for (uint32_t i = 0; i < a.size(); ++i) {
        a[i] = 0.25f * i - 7.0f;
        b[i] = 1000.0f / (i + 1);
    }
    float* da = device(a);
    float* db = device(b);
    float* dout = device(std::vector<float>(n + 20, -3.0f));
    launch_vreg_add_f32(dout, da, db, n, stream);
    const std::vector<float> r = back(dout, n + 20);
    for (uint32_t i = 0; i < n; ++i) EXPECT_EQ(r[i], a[i] + b[i]) << i;
    for (uint32_t i = n; i < n + 20; ++i) EXPECT_EQ(r[i], -3.0f) << i;
}

TEST_F(Vreg, F16ChainWithPostUpdatedPointers) {
    const uint32_t n = 200;
    std::vector<uint16_t> a(n), b(n);
    for (uint32_t i = 0; i < n; ++i) {
        a[i] = bits(half(0.5f * static_cast<float>(i % 37) - 6.0f));
        b[i] = bits(half(0.125f * static_cast<float>(i % 11) - 0.5f));
    }
    uint16_t* da = device(a);
    uint16_t* db = device(b);
    uint16_t* dout = device(std::vector<uint16_t>(n, 0));
    launch_vreg_chain_f16(dout, da, db, n, stream);
    const std::vector<uint16_t> r = back(dout, n);
    for (uint32_t i = 0; i < n; ++i) {
        // Each step rounds to half once: the products and sums of these
        // inputs are exact in float, so float arithmetic rounded to half is
        // the reference.
        const float x = static_cast<float>(from_bits<half>(a[i])), y = static_cast<float>(from_bits<half>(b[i]));
        float t = static_cast<float>(half(x * y));
        t = std::max(t, x);
        t = static_cast<float>(half(t * 0.5f));
        t = static_cast<float>(half(t + 1.0f));
        EXPECT_EQ(r[i], bits(half(t))) << i;
    }
}

TEST_F(Vreg, Bf16ExpThenSubtract) {
    std::vector<uint16_t> a(128), b(128);
    for (int i = 0; i < 128; ++i) {
        a[i] = bits(bfloat16_t(0.0625f * (i - 64)));
        b[i] = bits(bfloat16_t(0.5f * (i % 5)));
    }
    uint16_t* da = device(a);
    uint16_t* db = device(b);
    uint16_t* dout = device(std::vector<uint16_t>(128, 0));
    launch_vreg_exp_bf16(dout, da, db, stream);
    const std::vector<uint16_t> r = back(dout, 128);
    for (int i = 0; i < 128; ++i) {
        const double x = static_cast<float>(from_bits<bfloat16_t>(a[i]));
        // exp rounded to bfloat16 once (through float rounded to odd), then
        // the difference, exact in double, rounded once.
        float e = static_cast<float>(std::exp(x));
        if (static_cast<double>(e) != std::exp(x)) {
            if (std::fabs(static_cast<double>(e)) > std::fabs(std::exp(x))) e = std::nextafter(e, 0.0f);
            uint32_t u;
            std::memcpy(&u, &e, 4);
            u |= 1;
            std::memcpy(&e, &u, 4);
        }
        const float eb = static_cast<float>(bfloat16_t(e));
        const double d = static_cast<double>(eb) - static_cast<float>(from_bits<bfloat16_t>(b[i]));
        EXPECT_EQ(r[i], bits(bfloat16_t(static_cast<float>(d)))) << i;
    }
}

TEST_F(Vreg, Int32WrapsAndMergingKeepsInactiveElements) {
    std::vector<int32_t> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = (i % 2 ? 1 : -1) * (i * 70001);
        b[i] = 40000 + i * 977;
    }
    int32_t* da = device(a);
    int32_t* db = device(b);
    int32_t* dout = device(std::vector<int32_t>(320, 7));
    launch_vreg_int32(dout, da, db, stream);
    const std::vector<int32_t> r = back(dout, 320);
    for (int i = 0; i < 64; ++i) {
        const uint32_t prod = static_cast<uint32_t>(a[i]) * static_cast<uint32_t>(b[i]) + static_cast<uint32_t>(a[i]);
        EXPECT_EQ(r[i], static_cast<int32_t>(prod)) << i;
        EXPECT_EQ(r[64 + i], std::min(std::max(a[i], b[i]), 1000)) << i;
        EXPECT_EQ(r[128 + i], i % 2 == 0 ? b[i] : a[i]) << i;
        EXPECT_EQ(r[192 + i], a[i] < 0 ? -1 : 0) << i;
        EXPECT_EQ(r[256 + i], 0) << i;
    }
}

TEST_F(Vreg, PredicatePatternsAndZeroing) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = static_cast<float>(i);
    float* da = device(a);
    float* dout = device(std::vector<float>(256, -1.0f));
    launch_vreg_patterns(dout, da, stream);
    const std::vector<float> r = back(dout, 256);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], i < 8 ? i + 100.0f : 0.0f) << "VL8 " << i;
        EXPECT_EQ(r[64 + i], i < 32 ? i + 100.0f : 0.0f) << "H " << i;
        EXPECT_EQ(r[128 + i], i % 3 == 0 ? i + 100.0f : 0.0f) << "M3 " << i;
        EXPECT_EQ(r[192 + i], 0.0f) << "ALLF " << i;
    }
}

TEST_F(Vreg, ReductionsCompareSelectAndPredicateSelect) {
    std::vector<float> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = static_cast<float>((i * 37) % 64) - 20.5f;
        b[i] = static_cast<float>(i) - 30.0f;
    }
    float* da = device(a);
    float* db = device(b);
    float* dout = device(std::vector<float>(192, 0.0f));
    launch_vreg_reduce(dout, da, db, stream);
    const std::vector<float> r = back(dout, 192);
    float sum = 0.0f;
    for (float v : a) sum += v;  // exact: multiples of 0.5 far below 2^24
    EXPECT_EQ(r[0], sum);
    EXPECT_EQ(r[1], *std::max_element(a.begin(), a.end()));
    EXPECT_EQ(r[2], *std::min_element(a.begin(), a.end()));
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[64 + i], a[i] < b[i] ? a[i] : b[i]) << i;
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[128 + i], (i < 32 ? a[i] < b[i] : a[i] >= b[i]) ? 0.0f : 1.0f) << i;
}

TEST_F(Vreg, Int64FromHalvesWithTheCarryChained) {
    std::vector<int64_t> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        // Low words that carry and borrow, high words of both signs.
        a[i] = static_cast<int64_t>((uint64_t(0xFFFFFFF0u + i) << 0) | (uint64_t(i * 977) << 32)) * (i % 3 ? 1 : -1);
        b[i] = static_cast<int64_t>(uint64_t(0x20u + 3 * i) | (uint64_t(0x7FFFFFFFu - i) << 32));
    }
    int64_t* da = device(a);
    int64_t* db = device(b);
    int64_t* dout = device(std::vector<int64_t>(192, 0));
    launch_vreg_int64(dout, da, db, stream);
    const std::vector<int64_t> r = back(dout, 192);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], static_cast<int64_t>(uint64_t(a[i]) + uint64_t(b[i]))) << i;
        EXPECT_EQ(r[64 + i], static_cast<int64_t>(uint64_t(a[i]) - uint64_t(b[i]))) << i;
        EXPECT_EQ(uint64_t(r[128 + i]), uint64_t(uint32_t(a[i])) * uint64_t(uint32_t(b[i]))) << i;
    }
}

TEST_F(Vreg, MultiplyAddsTakeTheDestinationWhereEachDocumentsIt) {
    std::vector<float> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = 0.5f * i - 9.0f;
        b[i] = 0.25f * (i % 13) + 3.0f;
    }
    float* da = device(a);
    float* db = device(b);
    float* dout = device(std::vector<float>(192, 0.0f));
    launch_vreg_fma_f32(dout, da, db, stream);
    const std::vector<float> r = back(dout, 192);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], b[i] + a[i] * 2.0f) << i;  // exact: small multiples of 1/4
        EXPECT_EQ(r[64 + i], a[i] * b[i] + a[i]) << i;
        EXPECT_EQ(r[128 + i], a[i] + a[i] * b[i]) << i;
    }
}

// A5's multiply-adds round once (pto-isa's A5 TAXPY golden), where A2A3's
// vector unit rounds the product first: a product that float cannot hold,
// nearly cancelled by the addend, tells the two apart.
TEST_F(Vreg, MultiplyAddsRoundOnce) {
    const float a = 1.0f + std::ldexp(1.0f, -12) + std::ldexp(1.0f, -23);
    const float b = -(1.0f - std::ldexp(1.0f, -12));
    const float once = static_cast<float>(double(a) * double(b) + double(a));
    const float twice = static_cast<float>(double(a * b) + double(a));
    ASSERT_NE(once, twice);
    float* da = device(std::vector<float>(64, a));
    float* db = device(std::vector<float>(64, b));
    float* dout = device(std::vector<float>(192, 0.0f));
    launch_vreg_fma_f32(dout, da, db, stream);
    const std::vector<float> r = back(dout, 192);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[64 + i], once) << i;   // vmadd: a * b + a
        EXPECT_EQ(r[128 + i], once) << i;  // vmula: a + a * b
    }
}

// vcvt's rounding modes, saturation (the instruction's RS_* and CTRL[60]/[59]
// over it), parts and predicate; vtrc; a widening. Expected values worked
// out by hand from the rounding rules (asc-devkit "rounding_mode.md").
TEST_F(Vreg, ConversionsRoundSaturateAndSelectTheirPart) {
    const float v[16] = {1.5f,  2.5f,  -2.5f, -1.25f, 70000.0f, -70000.0f, 40000.7f, INFINITY,
                         -INFINITY, NAN, 3e9f, -3e9f, 0.1f, 65519.0f, 1.00048828125f, -0.75f};
    // f32 -> f16 toward zero (no overflow to infinity), not saturating.
    const uint16_t rz[16] = {0x3e00, 0x4100, 0xc100, 0xbd00, 0x7bff, 0xfbff, 0x78e2, 0x7c00,
                             0xfc00, 0x7e00, 0x7bff, 0xfbff, 0x2e66, 0x7bff, 0x3c00, 0xba00};
    // Ties away, saturating: infinities and overflows to +-65504, NaN to 0.
    const uint16_t ra_sat[16] = {0x3e00, 0x4100, 0xc100, 0xbd00, 0x7bff, 0xfbff, 0x78e2, 0x7bff,
                                 0xfbff, 0x0000, 0x7bff, 0xfbff, 0x2e66, 0x7bff, 0x3c01, 0xba00};
    const int16_t s16_r_sat[16] = {2, 2, -2, -1, 32767, -32768, 32767, 32767, -32768, 0, 32767, -32768, 0, 32767, 1, -1};
    // Not saturating: the low 16 bits; infinities give the limits, NaN 0.
    const int16_t s16_f_wrap[16] = {1, 2, -3, -2, 4464, -4464, -25536, 32767, -32768, 0, 24064, -24064, 0, -17, 1, -1};
    const int32_t s32_c_wrap[16] = {2,          3,          -2, -1, 70000, -70000, 40001, 2147483647,
                                    INT32_MIN, 0, -1294967296, 1294967296, 1, 65519, 2, 0};
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = v[i % 16];
    float* da = device(a);
    uint16_t* dh = device(std::vector<uint16_t>(256, 0xAAAA));
    int16_t* d16 = device(std::vector<int16_t>(384, 0x5555));
    int32_t* d32 = device(std::vector<int32_t>(64, 0x5555));
    float* df = device(std::vector<float>(128, -1.0f));
    launch_vreg_convert(dh, d16, d32, df, da, stream);
    const std::vector<uint16_t> h = back(dh, 256);
    const std::vector<int16_t> s = back(d16, 384);
    const std::vector<int32_t> w = back(d32, 64);
    const std::vector<float> f = back(df, 128);
    for (int i = 0; i < 64; ++i) {
        const int k = i % 16;
        // PART_ODD writes the odd halves, the even ones become zero; PART_EVEN the reverse.
        EXPECT_EQ(h[2 * i], 0) << i;
        if (k == 9) EXPECT_EQ(h[2 * i + 1] & 0x7c00, 0x7c00) << i;  // a NaN
        if (k == 9) EXPECT_NE(h[2 * i + 1] & 0x03ff, 0) << i;
        if (k != 9) EXPECT_EQ(h[2 * i + 1], rz[k]) << i;
        EXPECT_EQ(h[128 + 2 * i], ra_sat[k]) << i;
        EXPECT_EQ(h[128 + 2 * i + 1], 0) << i;
        // 40 active elements: the rest zero.
        EXPECT_EQ(s[2 * i], i < 40 ? s16_r_sat[k] : 0) << i;
        EXPECT_EQ(s[2 * i + 1], 0) << i;
        EXPECT_EQ(s[128 + 2 * i], s16_f_wrap[k]) << i;
        EXPECT_EQ(s[256 + 2 * i], s16_f_wrap[k]) << i;  // CTRL[60]+[59] over RS_ENABLE
        EXPECT_EQ(w[i], s32_c_wrap[k]) << i;
        // vtrc floor, 32 active.
        if (i >= 32) EXPECT_EQ(f[i], 0.0f) << i;
        else if (k == 9) EXPECT_TRUE(std::isnan(f[i])) << i;
        else EXPECT_EQ(f[i], std::floor(v[k])) << i;
        // The odd halves back to float.
        if (k == 9) EXPECT_TRUE(std::isnan(f[64 + i])) << i;
        else EXPECT_EQ(f[64 + i], static_cast<float>(from_bits<half>(rz[k]))) << i;
    }
}

TEST_F(Vreg, InterleavesAndPredicateMoves) {
    int32_t* dout = device(std::vector<int32_t>(320, -7));
    uint8_t* dbits = device(std::vector<uint8_t>(160, 0xEE));
    launch_vreg_rearrange(dout, dbits, stream);
    const std::vector<int32_t> r = back(dout, 320);
    const std::vector<uint8_t> b = back(dbits, 160);
    for (int i = 0; i < 32; ++i) {
        EXPECT_EQ(r[2 * i], i) << i;
        EXPECT_EQ(r[2 * i + 1], 100 + i) << i;
        EXPECT_EQ(r[64 + 2 * i], 32 + i) << i;
        EXPECT_EQ(r[64 + 2 * i + 1], 132 + i) << i;
    }
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[128 + i], i) << i;        // vdintlv undoes vintlv
        EXPECT_EQ(r[192 + i], 100 + i) << i;
        EXPECT_EQ(r[256 + i], i < 5 ? i : 100 + i) << i;  // psts/ppack/plds US/punpack round trip
    }
    // plt_b32(5): bits 0..19; PK keeps the even bits (0..9); two ppacks one bit an element.
    const uint8_t norm[3] = {0xff, 0xff, 0x0f};
    for (int i = 0; i < 32; ++i) EXPECT_EQ(b[i], i < 3 ? norm[i] : 0) << i;
    for (int i = 0; i < 16; ++i) EXPECT_EQ(b[32 + i], i == 0 ? 0xff : i == 1 ? 0x03 : 0) << i;
    for (int i = 0; i < 32; ++i) EXPECT_EQ(b[64 + i], i == 0 ? 0x1f : 0) << i;
    // pdintlv_b8(plt_b32(3), all): the even bits of bits 0..11 then of all ones.
    for (int i = 0; i < 32; ++i) EXPECT_EQ(b[96 + i], i == 0 ? 0x3f : i < 16 ? 0 : 0xff) << i;
    // pintlv_b16(p, all): the second half pairs p's empty upper groups with all's.
    for (int i = 0; i < 32; ++i) EXPECT_EQ(b[128 + i], 0xcc) << i;
}

// vldus from an element offset of 3, two vstus continuing each other at an
// offset of 1, vselr by index 3i (wrapping past the register).
TEST_F(Vreg, UnalignedMovesAndSelectByIndex) {
    std::vector<float> a(80);
    for (int i = 0; i < 80; ++i) a[i] = 0.5f * i + 1.0f;
    float* da = device(a);
    float* dout = device(std::vector<float>(128, -1.0f));
    launch_vreg_unaligned(dout, da, stream);
    const std::vector<float> r = back(dout, 128);
    EXPECT_EQ(r[0], 0.0f);  // UB as the launch left it
    for (int i = 0; i < 5; ++i) EXPECT_EQ(r[1 + i], a[3 + i]) << i;
    for (int i = 0; i < 7; ++i) EXPECT_EQ(r[6 + i], a[3 + i]) << i;
    for (int i = 13; i < 64; ++i) EXPECT_EQ(r[i], 0.0f) << i;
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[64 + i], a[3 + (3 * i) % 64]) << i;
}

// vmod: the remainder takes the divisor's sign (pto-isa's A5 TREM golden,
// NumPy's %); by zero, zero.
TEST_F(Vreg, ModTakesTheDivisorsSign) {
    const int32_t ia[8] = {7, -7, 7, -7, 0, 2147483647, -2147483647 - 1, 5};
    const int32_t ib[8] = {3, 3, -3, -3, 5, 10, 7, 0};
    const int32_t im[8] = {1, 2, -2, -1, 0, 7, 5, 0};
    const float fa[8] = {7.5f, -7.5f, 7.5f, -7.5f, 1.0f, 5.25f, -0.5f, 6.0f};
    const float fb[8] = {2.0f, 2.0f, -2.0f, -2.0f, 4.0f, 0.5f, 4.0f, 3.0f};
    const float fm[8] = {1.5f, 0.5f, -0.5f, -1.5f, 1.0f, 0.25f, 3.5f, 0.0f};
    std::vector<int32_t> a(64), b(64);
    std::vector<float> x(64), y(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = ia[i % 8];
        b[i] = ib[i % 8];
        x[i] = fa[i % 8];
        y[i] = fb[i % 8];
    }
    int32_t* dout = device(std::vector<int32_t>(64, 99));
    float* dfout = device(std::vector<float>(64, 99.0f));
    launch_vreg_mod(dout, dfout, device(a), device(b), device(x), device(y), stream);
    const std::vector<int32_t> r = back(dout, 64);
    const std::vector<float> f = back(dfout, 64);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], im[i % 8]) << i;
        EXPECT_EQ(f[i], fm[i % 8]) << i;
    }
}

// vgather2 by indices 63 - i under a 60-element predicate, vscatter back by
// the same indices, and an 8-bit gather zero-extended into 16-bit slots.
TEST_F(Vreg, GatherAndScatterByIndex) {
    std::vector<float> a(64);
    std::vector<uint8_t> b(256);
    for (int i = 0; i < 64; ++i) a[i] = 0.25f * i - 3.0f;
    for (int i = 0; i < 256; ++i) b[i] = static_cast<uint8_t>(255 - i);
    float* dout = device(std::vector<float>(128, -1.0f));
    uint16_t* d16 = device(std::vector<uint16_t>(128, 0xAAAA));
    launch_vreg_gather(dout, d16, device(a), device(b), stream);
    const std::vector<float> r = back(dout, 128);
    const std::vector<uint16_t> r16 = back(d16, 128);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[64 + i], i < 60 ? a[63 - i] : 0.0f) << i;  // gathered, inactive zero
        EXPECT_EQ(r[i], i > 3 ? a[i] : 0.0f) << i;  // scattered back: x's inactive zeros land at 0..3
    }
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r16[i], b[2 * i]) << i;
}

// vcgadd/vcgmax/vcgmin: one result per 32-byte block in elements 0..7, the
// rest zero; the last block has 4 of its 8 elements active.
TEST_F(Vreg, BlockReductionsOnePerBlock) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = static_cast<float>((i * 29) % 64) - 31.5f;
    // Block 0's sum depends on the order: the block's binary tree gives
    // (1e8 + 1) + (-1e8 + 1) = 0 and then the other four; in turn, 1 more.
    a[0] = 1.0e8f, a[1] = 1.0f, a[2] = -1.0e8f, a[3] = 1.0f;
    float* dout = device(std::vector<float>(192, -1.0f));
    launch_vreg_block_reduce(dout, device(a), stream);
    const std::vector<float> r = back(dout, 192);
    for (int k = 0; k < 8; ++k) {
        float t[8], mx = -INFINITY, mn = INFINITY;
        for (int j = 0; j < 8; ++j) {
            const int i = 8 * k + j;
            t[j] = i < 60 ? a[i] : 0.0f;
            if (i >= 60) continue;
            mx = std::max(mx, a[i]);
            mn = std::min(mn, a[i]);
        }
        const float sum = ((t[0] + t[1]) + (t[2] + t[3])) + ((t[4] + t[5]) + (t[6] + t[7]));
        EXPECT_EQ(r[k], sum) << k;
        EXPECT_EQ(r[64 + k], mx) << k;
        EXPECT_EQ(r[128 + k], mn) << k;
    }
    for (int i = 8; i < 64; ++i) {
        EXPECT_EQ(r[i], 0.0f) << i;
        EXPECT_EQ(r[64 + i], 0.0f) << i;
        EXPECT_EQ(r[128 + i], 0.0f) << i;
    }
}

// vcadd and vcgadd of 16-bit integers sum in 32 bits into 32-bit elements
// (asc-devkit asc_reduce_sum / asc_reduce_sum_datablock: int16_t -> int32_t,
// uint16_t -> uint32_t): sums past int16's range and negative ones come out
// whole, not wrapped to 16 bits.
TEST_F(Vreg, SixteenBitIntegerSumsWidenTo32Bits) {
    std::vector<int16_t> a(128);
    for (int i = 0; i < 128; ++i) a[i] = static_cast<int16_t>(i % 3 == 0 ? 30000 - 7 * i : -(i * 211) % 32000);
    int32_t all = 0, first100 = 0;
    uint32_t as_unsigned = 0;
    int32_t blocks[8] = {};
    for (int i = 0; i < 128; ++i) {
        all += a[i];
        if (i < 100) first100 += a[i];
        as_unsigned += static_cast<uint16_t>(a[i]);
        blocks[i / 16] += a[i];
    }
    ASSERT_TRUE(all > 32767 || all < -32768) << "the sum must not fit in 16 bits: " << all;
    int32_t* dout = device(std::vector<int32_t>(256, -9));
    launch_vreg_reduce16(dout, device(a), stream);
    const std::vector<int32_t> r = back(dout, 256);
    EXPECT_EQ(r[0], all);
    EXPECT_EQ(r[64], first100);
    EXPECT_EQ(static_cast<uint32_t>(r[128]), as_unsigned);
    for (int i = 1; i < 64; ++i) {
        EXPECT_EQ(r[i], 0) << i;
        EXPECT_EQ(r[64 + i], 0) << i;
        EXPECT_EQ(r[128 + i], 0) << i;
    }
    for (int k = 0; k < 8; ++k) EXPECT_EQ(r[192 + k], blocks[k]) << k;
    for (int i = 8; i < 64; ++i) EXPECT_EQ(r[192 + i], 0) << i;
}

// bfloat16 -> fp4 E2M1 in pairs (nearest even, saturating: the format has
// no infinity), the pair's byte at 4i with PART_P0, the other bytes zero;
// and back to bfloat16.
TEST_F(Vreg, Fp4ConvertsInPairsIntoEveryFourthByte) {
    const float v[8] = {0.5f, 1.5f, 2.5f, 5.0f, 7.0f, -1.0f, 0.25f, -6.0f};
    // E2M1 codes: 0 0.5 1 1.5 2 3 4 6 (sign bit 8); 2.5 and 5 tie to the
    // even code (2, 4), 7 saturates to 6, 0.25 ties to 0.
    const uint8_t code[8] = {0x1, 0x3, 0x4, 0x6, 0x7, 0xa, 0x0, 0xf};
    const float back_v[8] = {0.5f, 1.5f, 2.0f, 4.0f, 6.0f, -1.0f, 0.0f, -6.0f};
    std::vector<uint16_t> a(128);
    for (int i = 0; i < 128; ++i) a[i] = bits(bfloat16_t(v[i % 8]));
    uint8_t* dout = device(std::vector<uint8_t>(256, 0xEE));
    uint16_t* dback = device(std::vector<uint16_t>(128, 0xEEEE));
    launch_vreg_fp4(dout, dback, device(a), stream);
    const std::vector<uint8_t> r = back(dout, 256);
    const std::vector<uint16_t> b = back(dback, 128);
    for (int i = 0; i < 64; ++i) {
        const int k = (2 * i) % 8;
        EXPECT_EQ(r[4 * i], code[k] | (code[k + 1] << 4)) << i;
        for (int j = 1; j < 4; ++j) EXPECT_EQ(r[4 * i + j], 0) << i;
    }
    for (int i = 0; i < 128; ++i) EXPECT_EQ(static_cast<float>(from_bits<bfloat16_t>(b[i])), back_v[i % 8]) << i;
}

// vpack keeps each element's low half, into the lower or the higher half of
// the register (the other half zero); vunpack widens back, sign-extending a
// signed type, zero-extending an unsigned one.
TEST_F(Vreg, PackAndUnpackHalves) {
    int16_t* d16 = device(std::vector<int16_t>(256, 0x5555));
    int32_t* d32 = device(std::vector<int32_t>(192, 0x5555));
    launch_vreg_pack(d16, d32, stream);
    const std::vector<int16_t> p = back(d16, 256);
    const std::vector<int32_t> u = back(d32, 192);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(p[i], i - 32) << i;
        EXPECT_EQ(p[64 + i], 0) << i;
        EXPECT_EQ(p[128 + i], 0) << i;
        EXPECT_EQ(p[192 + i], i - 32) << i;
        EXPECT_EQ(u[i], i - 32) << i;
        EXPECT_EQ(u[64 + i], i - 32) << i;
        EXPECT_EQ(u[128 + i], (i - 32) & 0xffff) << i;
    }
}

// chistv2 counts the active bytes at most n (Bin_N0) or 128 + n (Bin_N1:
// the prefix over the whole byte range, the bytes below 128 included);
// dhistv2 the bytes equal to n or 128 + n; both add to the bins' values.
TEST_F(Vreg, HistogramsAddCountsToTheBins) {
    std::vector<uint8_t> a(256);
    for (int i = 0; i < 256; ++i) a[i] = static_cast<uint8_t>((i * 73 + 11) % 256);
    uint16_t* dout = device(std::vector<uint16_t>(512, 0));
    launch_vreg_histogram(dout, device(a), stream);
    const std::vector<uint16_t> r = back(dout, 512);
    for (int n = 0; n < 128; ++n) {
        int c0 = 0, c1 = 0, f0 = 0, f1 = 0;
        for (int i = 0; i < 200; ++i) {
            c0 += a[i] <= n;
            c1 += a[i] <= 128 + n;
            f0 += a[i] == n;
            f1 += a[i] == 128 + n;
        }
        EXPECT_EQ(r[n], 1 + c0) << n;
        EXPECT_EQ(r[128 + n], 1 + c1) << n;
        EXPECT_EQ(r[256 + n], 1 + f0) << n;
        EXPECT_EQ(r[384 + n], 1 + f1) << n;
    }
    EXPECT_EQ(r[128], 1 + 97);  // Bin_N1's first bin: the 97 active bytes up to 128 (none equals 128)
    EXPECT_EQ(r[255], 1 + 200);  // its last: every active byte
}

// pto-isa builds operands from the constants' types (decltype(BRC_B32){},
// decltype(ROUND_Z)()): each must name its own value, not the enumeration's
// zero. vcmax/vcmin put the extreme's index in element 1 (the lowest of
// equal ones); int16 -> uint32 clamps negatives to zero.
TEST_F(Vreg, ConstantsKeepTheirValueThroughTheirTypeAndReductionsGiveTheIndex) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = 0.75f * static_cast<float>((i * 37) % 61) - 20.0f;
    a[20] = a[7] = 100.5f;  // a tie for the maximum: index 7
    a[61] = 500.0f;         // beyond the 60 active elements
    float* dout = device(std::vector<float>(128, -1.0f));
    uint32_t* didx = device(std::vector<uint32_t>(128, 7777));
    int32_t* du = device(std::vector<int32_t>(64, 7777));
    launch_vreg_literals(dout, didx, du, device(a), stream);
    const std::vector<float> r = back(dout, 128);
    const std::vector<uint32_t> ix = back(didx, 128);
    const std::vector<int32_t> u = back(du, 64);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], a[8]) << i;
        EXPECT_EQ(r[64 + i], std::trunc(a[i])) << i;
    }
    int mn = 0;
    for (int i = 1; i < 60; ++i)
        if (a[i] < a[mn]) mn = i;
    float mx_bits_v;
    std::memcpy(&mx_bits_v, &ix[0], 4);
    EXPECT_EQ(mx_bits_v, 100.5f);
    EXPECT_EQ(ix[1], 7u);
    float mn_v;
    std::memcpy(&mn_v, &ix[64], 4);
    EXPECT_EQ(mn_v, a[mn]);
    EXPECT_EQ(ix[65], uint32_t(mn));
    for (int i = 2; i < 64; ++i) {
        EXPECT_EQ(ix[i], 0u) << i;
        EXPECT_EQ(ix[64 + i], 0u) << i;
    }
    // Even int16 elements -64, -62, ... widened: negatives clamp to zero.
    for (int i = 0; i < 64; ++i) EXPECT_EQ(u[i], std::max(0, -64 + 2 * i)) << i;
}

// Loop 1's GM stride sits in the low 40 bits of its register and its UB
// stride above them; with the data select bit a burst of 10 floats is
// padded with set_mov_pad_val's value to its 32-byte boundary.
// The loop's two bursts as the record's runs: 40 bytes of GM 64 apart, each
// padded to 64 bytes of UB 128 apart, so the checkers and the cost model
// see the bytes moved, not the span with its gaps. initcheck then names the
// first gap the contiguous store reads, UB [0x40, 0x80) (the span named the
// tail past the second burst instead).
TEST_F(Vreg, DmaLoopRecordsCarryTheirBurstsAsRuns) {
    cce_test::RecordsSeen copies("copy_");
    const std::vector<ptosim::OpRecord>& seen = copies.seen;
    ASSERT_EQ(ptosim::check::configure("init"), "");
    float* dout = device(std::vector<float>(64, -1.0f));
    launch_vreg_dma_loops(dout, device(std::vector<float>(64, 1.0f)), stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::vector<ptosim::check::Report> reps = ptosim::check::take_reports();
    ASSERT_EQ(ptosim::check::configure(""), "");
    ASSERT_EQ(seen.size(), 2u);
    const ptosim::OpRecord& load = seen[0];
    EXPECT_STREQ(load.op, "copy_gm_to_ubuf_align_v2");
    ASSERT_EQ(load.n_writes, 1);
    ASSERT_EQ(load.n_reads, 1);
    const auto runs_of = [](const ptosim::OpRecord& r, const ptosim::Access& a) {
        EXPECT_GT(a.runs, 0);
        return a.runs ? r.runs[a.runs - 1] : ptosim::Runs{};
    };
    const ptosim::Runs ub = runs_of(load, load.writes[0]), gm = runs_of(load, load.reads[0]);
    EXPECT_EQ(load.writes[0].offset, 0u);
    EXPECT_EQ(load.writes[0].bytes, 192u);
    EXPECT_EQ(ub.run, 64u);
    ASSERT_EQ(ub.dims, 1);
    EXPECT_EQ(ub.count[0], 2u);
    EXPECT_EQ(ub.pitch[0], 128u);
    EXPECT_EQ(load.reads[0].bytes, 104u);
    EXPECT_EQ(gm.run, 40u);
    ASSERT_EQ(gm.dims, 1);
    EXPECT_EQ(gm.count[0], 2u);
    EXPECT_EQ(gm.pitch[0], 64u);
    const ptosim::OpRecord& store = seen[1];
    EXPECT_STREQ(store.op, "copy_ubuf_to_gm_align_v2");
    EXPECT_EQ(store.reads[0].runs, 0);  // one burst: the whole range
    ASSERT_EQ(reps.size(), 1u);
    EXPECT_EQ(reps[0].kind, "uninitialized-read");
    EXPECT_EQ(reps[0].buffer, "UB");
    EXPECT_EQ(reps[0].lo, 0x40u);
    EXPECT_EQ(reps[0].hi, 0x80u);
}

TEST_F(Vreg, DmaLoopsTakeEachStrideFromItsFieldAndPadToTheBlock) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = static_cast<float>(i) + 0.5f;
    float* dout = device(std::vector<float>(64, -1.0f));
    launch_vreg_dma_loops(dout, device(a), stream);
    const std::vector<float> r = back(dout, 64);
    const float big = std::numeric_limits<float>::max();
    for (int i = 0; i < 64; ++i) {
        float want;
        if (i < 10) want = a[i];
        else if (i < 16) want = big;
        else if (i < 32) want = 0.0f;  // UB as the launch left it
        else if (i < 42) want = a[16 + (i - 32)];
        else if (i < 48) want = big;
        else want = 0.0f;
        EXPECT_EQ(r[i], want) << i;
    }
}

// copy_ubuf_to_gm_align_v2 under set_atomic_add/set_atomic_s32 adds into
// GM (pto-isa's A5 TPUT<AtomicAdd> stores this way); set_atomic_none stores.
TEST_F(Vreg, AtomicAddStoreAddsInt32IntoGm) {
    std::vector<int32_t> a(64), init(128);
    for (int i = 0; i < 64; ++i) a[i] = 3 * i - 50;
    for (int i = 0; i < 128; ++i) init[i] = 1000 + i;
    int32_t* dout = device(init);
    launch_vreg_atomic_store(dout, device(a), stream);
    const std::vector<int32_t> r = back(dout, 128);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[i], 1000 + i + 3 * i - 50) << i;
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[64 + i], 3 * i - 50) << i;
}

// BLK: one 32-byte block in every block; UNPK4_B8: byte i into the low byte
// of 32-bit slot i; vci DEC_ORDER counts down to its start.
TEST_F(Vreg, BlockBroadcastUnpack4AndDecreasingIndex) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = 1.5f * i - 7.0f;
    float* dout = device(std::vector<float>(64, -1.0f));
    uint32_t* d4 = device(std::vector<uint32_t>(64, 7777));
    int32_t* di = device(std::vector<int32_t>(64, 7777));
    launch_vreg_blk(dout, d4, di, device(a), stream);
    const std::vector<float> r = back(dout, 64);
    const std::vector<uint32_t> u = back(d4, 64);
    const std::vector<int32_t> ix = back(di, 64);
    uint8_t bytes[256];
    std::memcpy(bytes, a.data(), 256);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], a[8 + i % 8]) << i;
        EXPECT_EQ(u[i], uint32_t(bytes[i])) << i;
        EXPECT_EQ(ix[i], 100 + 63 - i) << i;
    }
}

// vexpdif: e^(a - b) into floats, from half sources' odd elements
// (PART_ODD) or float sources; the difference in float, e^ rounded once.
TEST_F(Vreg, ExpOfTheDifferenceFromAPart) {
    std::vector<uint16_t> a(128), b(128);
    for (int i = 0; i < 128; ++i) {
        a[i] = bits(half(0.125f * static_cast<float>(i % 17) - 1.0f));
        b[i] = bits(half(0.25f * static_cast<float>(i % 5)));
    }
    std::vector<float> fa(64, 3.0f);
    float* dout = device(std::vector<float>(128, -1.0f));
    launch_vreg_expdif(dout, device(a), device(b), device(fa), stream);
    const std::vector<float> r = back(dout, 128);
    for (int i = 0; i < 64; ++i) {
        const float x = static_cast<float>(from_bits<half>(a[2 * i + 1])), y = static_cast<float>(from_bits<half>(b[2 * i + 1]));
        EXPECT_EQ(r[i], static_cast<float>(std::exp(static_cast<double>(x - y)))) << i;
        EXPECT_EQ(r[64 + i], 1.0f) << i;  // e^0
    }
}

// vcpadd sums adjacent pairs into the low half (an inactive element counts
// 0, the high half is 0); vgatherb gathers 32-byte blocks at byte offsets
// (masked-off elements 0); E2B_B32 broadcasts element k to block k; A5's
// copy_ubuf_to_ubuf moves 32-byte blocks with gaps, in A5's form and in the
// older one with A2A3's sid first (March 2026 pto-isa's TMRGSORT, TSORT32).
TEST_F(Vreg, PairSumsBlockGatherAndUbCopy) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = 0.5f * static_cast<float>(i) - 7.25f;
    const std::vector<uint32_t> offsets = {224, 0, 64, 32, 96, 192, 160, 128};
    float* dout = device(std::vector<float>(240, -1.0f));
    launch_vreg_pair_gatherb(dout, device(a), device(offsets), stream);
    const std::vector<float> r = back(dout, 240);
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 8; ++j) EXPECT_EQ(r[160 + k * 8 + j], a[8 + k]) << "E2B " << k << "," << j;
    for (int i = 0; i < 32; ++i) {
        const float want = i < 30 ? a[2 * i] + a[2 * i + 1] : i == 30 ? a[60] : 0.0f;
        EXPECT_EQ(r[i], want) << i;
        EXPECT_EQ(r[32 + i], 0.0f) << i;
    }
    for (int k = 0; k < 8; ++k)
        for (int j = 0; j < 8; ++j)
            EXPECT_EQ(r[64 + k * 8 + j], k * 8 + j < 60 ? a[offsets[k] / 4 + j] : 0.0f) << k << "," << j;
    // Block 0 of the source to block 0, block 2 (one gap block) to block 3
    // (two gap blocks); the gap blocks are not written.
    for (int j = 0; j < 8; ++j) {
        EXPECT_EQ(r[128 + j], a[j]) << j;
        EXPECT_EQ(r[128 + 24 + j], a[16 + j]) << j;
    }
    // The sid form: blocks 4 and 5 of the source, one burst.
    for (int j = 0; j < 16; ++j) EXPECT_EQ(r[224 + j], a[32 + j]) << j;
}

// vsstb stores 32-byte blocks `stride` blocks apart (inactive elements not
// written) and, with POST_UPDATE, advances the pointer; vsts PK4_B32 packs
// the low bytes of 32-bit elements.
TEST_F(Vreg, BlockStridedStoreAndPostUpdate) {
    std::vector<float> a(64);
    for (int i = 0; i < 64; ++i) a[i] = static_cast<float>(i) * 1.1f + 0.37f;  // low mantissa bytes not zero
    float* dout = device(std::vector<float>(400, -1.0f));
    launch_vreg_block_store(dout, device(a), stream);
    const std::vector<float> r = back(dout, 400);
    for (int i = 0; i < 192; ++i) {
        const int block = i / 8, j = i % 8;
        const bool lands = block % 3 == 0 && block / 3 < 8 && (block / 3) * 8 + j < 60;
        EXPECT_EQ(r[i], lands ? a[(block / 3) * 8 + j] : 0.0f) << i;
    }
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r[256 + i], a[i % 64]) << i;
    // PK4_B32 (elements 0..59 active): byte i is the low byte of a[i]'s bits.
    uint8_t packed[64];
    std::memcpy(packed, r.data() + 384, 64);
    int nonzero = 0;
    for (int i = 0; i < 60; ++i) {
        uint32_t bits;
        std::memcpy(&bits, &a[i], 4);
        nonzero += (bits & 0xff) != 0;
        EXPECT_EQ(packed[i], bits & 0xff) << i;
    }
    EXPECT_GT(nonzero, 30);
}

// atomicAdd/atomicMax/atomicMin return the old value; a block polling a
// counter with atomicAdd(p, 0) lets the others run, so four blocks meet.
TEST_F(Vreg, GmAtomicsReturnTheOldValueAndPollingBlocksMeet) {
    int32_t* seen = device(std::vector<int32_t>(7, -1));
    int32_t* counter = device(std::vector<int32_t>{0, 5, 9});
    float* f = device(std::vector<float>{1.5f, 0.0f});
    launch_vreg_atomics(seen, counter, f, 4, stream);
    const std::vector<int32_t> r = back(seen, 7);
    std::vector<int32_t> arrivals(r.begin(), r.begin() + 4);
    std::sort(arrivals.begin(), arrivals.end());
    EXPECT_EQ(arrivals, (std::vector<int32_t>{0, 1, 2, 3}));
    EXPECT_EQ(r[4], 5);      // atomicMax's old value
    EXPECT_EQ(r[5], 9);      // atomicMin's old value
    EXPECT_EQ(r[6], 6);      // 1.5 * 4
    EXPECT_EQ(back(counter, 3), (std::vector<int32_t>{4, 17, -3}));
    EXPECT_EQ(back(f, 1)[0], 1.75f);
}

// Element stores of the one-byte float classes through UB and GM pointers
// copy their bits (pto-isa's scalar TEXTRACT/TINSERT paths store them so).
TEST_F(Vreg, OneByteFloatClassesStoreThroughUbAndGm) {
    uint8_t* out8 = device(std::vector<uint8_t>{0, 0});
    uint8_t* out4 = device(std::vector<uint8_t>{0});
    launch_vreg_store_classes(out8, device(std::vector<uint8_t>{0x3a, 0xc5}), out4, device(std::vector<uint8_t>{0x7e}),
                              stream);
    EXPECT_EQ(back(out8, 2), (std::vector<uint8_t>{0x3a, 0xc5}));
    EXPECT_EQ(back(out4, 1), (std::vector<uint8_t>{0x7e}));
}

TEST_F(Vreg, AnAlignedLoadFromAMisalignedAddressFaultsAtItsLine) {
    float* out = device(std::vector<float>(8, 0.0f));
    launch_vreg_misaligned(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("vreg_kernels.cpp:"), std::string::npos) << m;
    EXPECT_NE(m.find("vlds NORM from UB offset 12, which is not 32-byte aligned"), std::string::npos) << m;
}

// vsqz packs the active elements low and zeroes the rest; a stored squeeze's
// bytes go to base + AR through vstur, POST_UPDATE adds them to AR (bytes:
// 4 an int32, 2 an int16), sprsts stores AR as 32 bits, sprclr zeroes it.
TEST_F(Vreg, SqueezeStoresThroughTheArStream) {
    std::vector<int32_t> a(128);
    std::vector<int16_t> h(128);
    for (int i = 0; i < 128; ++i) {
        a[i] = (i * 37) % 101;
        h[i] = static_cast<int16_t>(1000 - 3 * i);
    }
    int32_t* dout = device(std::vector<int32_t>(768, -1));
    launch_vreg_squeeze(dout, device(a), device(h), stream);
    const std::vector<int32_t> r = back(dout, 768);
    std::vector<int32_t> kept, kept0;
    for (int i = 0; i < 128; ++i)
        if (a[i] > 50) (i < 64 ? kept0 : kept).push_back(a[i]);
    kept.insert(kept.begin(), kept0.begin(), kept0.end());
    ASSERT_EQ(kept.size(), 62u);  // the inputs' count above 50, so the stores below have known lengths
    ASSERT_EQ(kept0.size(), 31u);
    for (size_t i = 0; i < 128; ++i) EXPECT_EQ(r[i], i < kept.size() ? kept[i] : 0) << i;
    for (size_t i = 0; i < 64; ++i) EXPECT_EQ(r[128 + i], i < kept0.size() ? kept0[i] : 0) << i;
    EXPECT_EQ(r[256], 62 * 4);
    EXPECT_EQ(r[257], 62 * 4);  // vstur without POST_UPDATE left AR
    EXPECT_EQ(r[258], 5 * 2);
    for (size_t i = 0; i < 128; ++i) EXPECT_EQ(r[512 + i], i >= 62 && i < 62 + 31 ? kept0[i - 62] : 0) << i;
    int16_t h16[16];
    std::memcpy(h16, &r[640], sizeof h16);
    for (int i = 0; i < 16; ++i) EXPECT_EQ(h16[i], i < 5 ? h[i] : 0) << i;
}

TEST_F(Vreg, VsturWithoutAStoredSqueezeFaults) {
    int32_t* out = device(std::vector<int32_t>(64, 0));
    launch_vreg_squeeze_unpaired(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("vreg_kernels.cpp:"), std::string::npos) << m;
    EXPECT_NE(m.find("vstur without a count to store: vstur writes the bytes the last vsqz with MODE_STORED counted; "
                     "issue vsqz(dst, src, mask, MODE_STORED) before each vstur"),
              std::string::npos)
        << m;
}

}  // namespace

namespace {
// docs/intrinsics/a5-vreg.md, "Speed": with nothing subscribed to the
// dispatch point the most frequent forms take a light path in the kernel's
// own code. The same kernel run with a subscriber (every instruction takes
// the full path and passes a record) and without gives the same bits, and
// the core counts the same instructions either way: one a vector record.
// Subscribes a counter of the vector instructions' records into `n`
// (the flags around a vector function are V records too, and not counted).
int count_vector_records(std::mutex& mu, int64_t& n) {
    return ptosim::subscribe(
        [&mu, &n](const ptosim::Core&, const ptosim::OpRecord& rec) {
            std::lock_guard lk(mu);
            const std::string op = rec.op;
            n += rec.pipe == ptosim::Pipe::V && op != "set_flag" && op != "wait_flag";
        },
        false);
}

struct LightRun {
    std::vector<uint32_t> out;
    std::vector<uint16_t> out16;
    int64_t ops = 0;
};
}  // namespace

// The sum's order is the device's binary tree, not the elements in turn:
// (1e8 + 1) + (-1e8 + 1) is 1e8 - 1e8 = 0 in float, where a running sum
// ends at 1. Both paths: with nothing subscribed (the light path in the
// kernel's code) and with a subscriber (the full path).
TEST_F(Vreg, VcaddSumsAsTheDocumentedBinaryTree) {
    std::vector<float> a(64, 0.0f), b(64, 1.0f);
    a[0] = 1.0e8f, a[1] = 1.0f, a[2] = -1.0e8f, a[3] = 1.0f;
    for (int i = 4; i < 64; ++i) a[i] = (i % 2 ? -0.5f : 0.5f) * float(i / 2);  // pairs that cancel
    float running = a[0];
    for (int i = 1; i < 64; ++i) running += a[i];
    ASSERT_EQ(tree_sum64(a.data()), 0.0f);
    ASSERT_EQ(running, 1.0f);
    for (const bool subscribed : {false, true}) {
        std::mutex mu;
        int64_t records = 0;
        const int id = subscribed ? count_vector_records(mu, records) : -1;
        float* dout = device(std::vector<float>(192, -7.0f));
        launch_vreg_reduce(dout, device(a), device(b), stream);
        const std::vector<float> r = back(dout, 192);
        if (subscribed) {
            ptosim::unsubscribe(id);
            EXPECT_GT(records, 0);
        }
        EXPECT_EQ(std::bit_cast<uint32_t>(r[0]), 0u) << "subscribed " << subscribed;
    }
}

TEST_F(Vreg, LightPathsGiveTheFullPathsBitsAndInstructionCount) {
    std::vector<float> a(128), b(128);
    for (int i = 0; i < 128; ++i) {
        a[i] = 0.37f * static_cast<float>(i * i % 97) - 11.0f;
        b[i] = 1.0e30f / static_cast<float>(i + 1) - 3.0f * static_cast<float>(i % 5);
    }
    const float nan1 = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    a[3] = nan1;
    b[4] = nan1;
    a[5] = -0.0f, b[5] = 0.0f;
    a[6] = 0.0f, b[6] = -0.0f;
    a[7] = inf, b[7] = inf;
    a[8] = 1.0e-40f, b[8] = -1.0e-41f;  // subnormal
    a[70] = nan1, b[71] = -inf;
    b[9] = 0.0f;                         // a division by zero
    const auto run = [&](bool subscribed) {
        LightRun r;
        std::mutex mu;
        int64_t vector_records = 0;
        const int id = subscribed ? count_vector_records(mu, vector_records) : -1;
        float* out = device(std::vector<float>(1792, -5.0f));
        uint16_t* out16 = device(std::vector<uint16_t>(640, 7));
        int64_t* ops = device(std::vector<int64_t>(1, -1));
        launch_vreg_light(out, out16, ops, device(a), device(b), stream);
        const std::vector<float> f = back(out, 1792);
        r.out.resize(1792);
        std::memcpy(r.out.data(), f.data(), 4 * 1792);
        r.out16 = back(out16, 640);
        r.ops = back(ops, 1)[0];
        if (subscribed) {
            ptosim::unsubscribe(id);
            EXPECT_EQ(vector_records, r.ops) << "every instruction between the two counter reads is one vector record";
        }
        return r;
    };
    const LightRun light = run(false), full = run(true);
    EXPECT_GT(light.ops, 60);
    EXPECT_EQ(light.ops, full.ops);
    for (int i = 0; i < 1792; ++i) EXPECT_EQ(light.out[i], full.out[i]) << "32-bit result " << i;
    for (int i = 0; i < 640; ++i) EXPECT_EQ(light.out16[i], full.out16[i]) << "16-bit result " << i;
    // And the full path's bits are the arithmetic's: the sum, a NaN kept.
    for (int i = 0; i < 64; ++i) {
        const float s = a[i] + b[i];
        uint32_t want;
        std::memcpy(&want, &s, 4);
        EXPECT_EQ(full.out[i], want) << i;
    }
    // The broadcasts: element 5, and elements 8..15 in every block.
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(full.out[1152 + i], std::bit_cast<uint32_t>(a[5])) << i;
        EXPECT_EQ(full.out[1216 + i], std::bit_cast<uint32_t>(a[8 + i % 8])) << i;
    }
    // The conversions: the odd halves, the even ones zero; back to float.
    for (int i = 0; i < 64; ++i) {
        const uint16_t h = ptosim::float_to_half_bits(a[64 + i]);
        EXPECT_EQ(full.out[1280 + i], uint32_t(h) << 16) << i;
        EXPECT_EQ(full.out[1344 + i], std::bit_cast<uint32_t>(ptosim::half_bits_to_float(h))) << i;
    }
    // The packing store wrote its 36 halves and nothing past them.
    EXPECT_EQ(full.out16[291], uint16_t(std::bit_cast<uint32_t>(a[17]) >> 16));  // half 35 of a
    EXPECT_EQ(full.out16[292], 0);  // UB as the launch left it
    // The gathers: a reversed under a prefix of 36, the rest zero; the
    // scatter of repeated indices: the last of them stays.
    for (int i = 0; i < 64; ++i)
        EXPECT_EQ(full.out[1536 + i], i < 36 ? std::bit_cast<uint32_t>(a[63 - i]) : 0u) << i;
    for (int i = 0; i < 21; ++i) EXPECT_EQ(full.out[1664 + i], std::bit_cast<uint32_t>(a[64 + (i < 20 ? i : 63)])) << i;
}

// The light paths of pto-isa's TTRANS, TCVT and row softmax: scatters and
// gathers whose indices step by a constant, and the forms beside them that
// take the other paths, give the full path's bits with the same
// instruction count.
TEST_F(Vreg, LightPathsOfTransposeConversionAndReductionGiveTheFullPathsBits) {
    std::vector<float> a(256);
    for (int i = 0; i < 256; ++i) a[i] = 0.73f * static_cast<float>((i * 37) % 101) - 29.0f + 1.0f / float(i + 3);
    const float inf = std::numeric_limits<float>::infinity();
    a[128 + 5] = std::bit_cast<float>(0x7fc01234u);  // z0: two NaNs of other payloads, infinities, a subnormal
    a[128 + 22] = std::bit_cast<float>(0xffc00777u);
    a[128 + 12] = inf, a[128 + 13] = -inf;
    a[128 + 3] = 1.0e-40f;
    a[128 + 7] = 3.0e-6f;                              // a half subnormal
    a[128 + 8] = 70000.0f;                             // past half's range
    a[128 + 9] = std::bit_cast<float>(0x7f800001u);    // a signalling NaN
    a[128 + 10] = -0.0f;
    a[128 + 63] = std::bit_cast<float>(0x7f812345u);  // vdup's POS_HIGHEST: a signalling NaN's bits
    for (int i = 192; i < 256; ++i) a[i] = -1.0f - static_cast<float>(i % 7);  // z1: negatives and zeros
    a[192 + 8] = -0.0f, a[192 + 18] = 0.0f, a[192 + 28] = -0.0f;
    const auto run = [&](bool subscribed) {
        LightRun r;
        std::mutex mu;
        int64_t vector_records = 0;
        const int id = subscribed ? count_vector_records(mu, vector_records) : -1;
        float* out = device(std::vector<float>(3200, -5.0f));
        int64_t* ops = device(std::vector<int64_t>(1, -1));
        launch_vreg_light_more(out, ops, device(a), stream);
        const std::vector<float> f = back(out, 3200);
        r.out.resize(3200);
        std::memcpy(r.out.data(), f.data(), 4 * 3200);
        r.ops = back(ops, 1)[0];
        if (subscribed) {
            ptosim::unsubscribe(id);
            EXPECT_EQ(vector_records, r.ops) << "every instruction between the two counter reads is one vector record";
        }
        return r;
    };
    const LightRun light = run(false), full = run(true);
    EXPECT_GT(light.ops, 30);
    EXPECT_EQ(light.ops, full.ops);
    for (int i = 0; i < 3200; ++i) EXPECT_EQ(light.out[i], full.out[i]) << "result " << i;
    const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    // And the full path's bits are the moves: 5i + 2 and the bent line.
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(full.out[5 * i + 2], bits(a[i])) << i;
        if (i < 60) EXPECT_EQ(full.out[896 + 5 * i + 2], bits(a[i])) << i;
    }
    EXPECT_EQ(full.out[896 + 300], bits(a[63]));  // 60..63 all clamped to 300: the last stays
    EXPECT_EQ(full.out[896 + 302], 0u);           // UB as the launch left it
    for (int i = 0; i < 64; ++i) EXPECT_EQ(full.out[320 + 3 * i + 1], i < 36 ? bits(a[64 + i]) : 0u) << i;
    EXPECT_EQ(full.out[512 + 7], bits(a[63]));
    for (int i = 0; i < 64; ++i) EXPECT_EQ(full.out[576 + 300 - 4 * i], bits(a[64 + i])) << i;
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(full.out[1408 + i], bits(a[3 * i + 1])) << i;
        EXPECT_EQ(full.out[1472 + i], i < 36 ? bits(a[3 * i + 1]) : 0u) << i;
    }
    // The reductions: the sum as a binary tree; the maximum of z1 +0 at the
    // first zero's index; z0's first NaN and its index.
    const float sum = tree_sum64(a.data());
    EXPECT_EQ(full.out[1600], bits(sum));
    EXPECT_EQ(full.out[1601], 0u);
    EXPECT_EQ(full.out[2240], bits(sum));
    // z0's sum meets its second NaN (0xffc00777) in the subtree right of the
    // first's: the first operand's NaN stays (ptosim/nan_rule.hpp).
    EXPECT_EQ(full.out[1664], 0x7fc01234u);
    EXPECT_EQ(full.out[1984], bits(0.0f));
    EXPECT_EQ(full.out[1985], 8u);
    EXPECT_EQ(full.out[1920], 0x7fc01234u);
    EXPECT_EQ(full.out[1921], 5u);
    for (int i = 2; i < 64; ++i) EXPECT_EQ(full.out[1920 + i], 0u) << i;
    // The conversions: the halves in the even or odd half of each slot.
    for (int i = 0; i < 64; ++i) {
        const uint16_t hx = ptosim::float_to_half_bits(a[i]), hz = ptosim::float_to_half_bits(a[128 + i]);
        EXPECT_EQ(full.out[2496 + i], uint32_t(hx)) << i;
        EXPECT_EQ(full.out[2560 + i], uint32_t(hz) << 16) << i;
        EXPECT_EQ(full.out[2624 + i], bits(ptosim::half_bits_to_float(hx))) << i;
        EXPECT_EQ(full.out[2688 + i], bits(ptosim::half_bits_to_float(hz))) << i;
        EXPECT_EQ(full.out[2752 + i], bits(ptosim::half_bits_to_float(ptosim::float_to_half_bits(a[192 + i])))) << i;
    }
    // The broadcasts.
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(full.out[2816 + i], 0xff800000u) << i;
        EXPECT_EQ(full.out[2880 + i], i < 36 ? bits(2.5f) : 0u) << i;
        EXPECT_EQ(full.out[2944 + i], i < 36 ? bits(-0.0f) : bits(a[i])) << i;
        EXPECT_EQ(full.out[3008 + i], 0x7f812345u) << i;
        EXPECT_EQ(full.out[3072 + i], 0xabcdabcdu) << i;
    }
    // ONEPT: element 0 only where it is active.
    EXPECT_EQ(full.out[3136], bits(a[0]));
    EXPECT_EQ(full.out[3137], 0u);
    EXPECT_EQ(full.out[3138], 0u);
    uint16_t h[512], scattered[384], gathered[128];
    std::memcpy(h, a.data(), sizeof h);
    std::memcpy(scattered, full.out.data() + 1216, sizeof scattered);
    std::memcpy(gathered, full.out.data() + 1536, sizeof gathered);
    for (int i = 0; i < 128; ++i) {
        EXPECT_EQ(scattered[3 * i + 1], h[i]) << i;
        EXPECT_EQ(gathered[i], h[2 * i + 1]) << i;
    }
    uint16_t onept[2];
    std::memcpy(onept, full.out.data() + 3139, sizeof onept);
    EXPECT_EQ(onept[0], 0);
    EXPECT_EQ(onept[1], h[0]);
}

// Registers whose bytes are written only when read (include/cce/a5/registers.hpp):
// a register never written and the index lines of vci and the scalar
// arithmetic after it give, read by every kind of instruction, the bits
// the full path gives, which writes them at once; the same instruction
// count.
TEST_F(Vreg, LazyRegistersGiveTheFullPathsBitsAndInstructionCount) {
    std::vector<float> a(256);
    for (int i = 0; i < 256; ++i) a[i] = 0.61f * static_cast<float>((i * 41) % 89) - 17.0f;
    a[9] = -0.0f;
    a[11] = std::bit_cast<float>(0x7fc04321u);
    // As halves: a signalling NaN (0xfc01: F16C would quiet it, so a light
    // path that took it for finite would give other bits), an infinity (0x7c00).
    a[128 + 3] = std::bit_cast<float>(0x7c00fc01u);
    const auto run = [&](bool subscribed) {
        LightRun r;
        std::mutex mu;
        int64_t vector_records = 0;
        const int id = subscribed ? count_vector_records(mu, vector_records) : -1;
        uint32_t* out = device(std::vector<uint32_t>(2016, 0xdeadbeefu));
        int64_t* ops = device(std::vector<int64_t>(1, -1));
        launch_vreg_lazy(out, ops, device(a), stream);
        r.out = back(out, 2016);
        r.ops = back(ops, 1)[0];
        if (subscribed) {
            ptosim::unsubscribe(id);
            EXPECT_EQ(vector_records, r.ops) << "every instruction between the two counter reads is one vector record";
        }
        return r;
    };
    const LightRun light = run(false), full = run(true);
    EXPECT_GT(light.ops, 40);
    EXPECT_EQ(light.ops, full.ops);
    for (int i = 0; i < 2016; ++i) EXPECT_EQ(light.out[i], full.out[i]) << "result " << i;
    const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    const std::vector<uint32_t>& o = full.out;
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(o[i], 0u) << i;
        EXPECT_EQ(o[64 + i], bits(a[i] + 0.0f)) << i;
        EXPECT_EQ(o[128 + i], i < 36 ? bits(a[i] + a[i]) : 0u) << i;
        EXPECT_EQ(o[192 + i], 0u) << i;
        EXPECT_EQ(o[256 + i], uint32_t(3 * (5 + i))) << i;
        EXPECT_EQ(o[320 + i], uint32_t(73 - i)) << i;
        const uint32_t lo = (65533u + 2 * i) & 0xffffu, hi = (65533u + 2 * i + 1) & 0xffffu;
        EXPECT_EQ(o[384 + i], lo | hi << 16) << i;
        const uint32_t w = 0x10002u + i;
        EXPECT_EQ(o[448 + i], ((w & 0xffffu) + 1) | (((w >> 16) + 1) & 0xffffu) << 16) << i;
        EXPECT_EQ(o[512 + i], uint32_t(2 * i)) << i;
        EXPECT_EQ(o[576 + i], bits(a[i])) << i;
        EXPECT_EQ(o[640 + i], uint32_t(206 - 2 * i)) << i;
        EXPECT_EQ(o[704 + i], uint32_t(std::min(206 - 2 * i, 100))) << i;
        EXPECT_EQ(o[768 + i], bits(a[2 * i])) << i;
        EXPECT_EQ(o[832 + i], bits(a[i])) << i;
        EXPECT_EQ(o[896 + i], uint32_t(4 * i)) << i;
        EXPECT_EQ(o[960 + i], i < 36 ? uint32_t(1 + i) : 0u) << i;
        EXPECT_EQ(o[1024 + i], i < 36 ? uint32_t(7 + i) : bits(a[i])) << i;
    }
    // The halves: packed, whole, widened; the halves of a as loaded.
    uint16_t packed[64], packed36[36], as_halves[512];
    std::memcpy(packed, o.data() + 1088, sizeof packed);
    std::memcpy(packed36, o.data() + 1120, sizeof packed36);
    std::memcpy(as_halves, a.data(), sizeof as_halves);
    for (int i = 0; i < 64; ++i) {
        const uint16_t h = ptosim::float_to_half_bits(a[i]);
        EXPECT_EQ(packed[i], h) << i;
        if (i < 36) EXPECT_EQ(packed36[i], h) << i;
        EXPECT_EQ(o[1152 + i], uint32_t(h) << 16) << i;
        EXPECT_EQ(o[1216 + i], bits(ptosim::half_bits_to_float(h))) << i;
        EXPECT_EQ(o[1280 + i], 0u) << i;
        EXPECT_EQ(o[1344 + i], bits(ptosim::half_bits_to_float(as_halves[256 + i]))) << i;
        EXPECT_EQ(o[1408 + i], bits(ptosim::half_bits_to_float(as_halves[i]))) << i;
        EXPECT_EQ(o[1504 + i], uint32_t(as_halves[i])) << i;
        EXPECT_EQ(o[1568 + i], bits(ptosim::half_bits_to_float(as_halves[i]))) << i;
        EXPECT_EQ(o[1632 + i], 2u * h) << i;
        EXPECT_EQ(o[1696 + i], 0u) << i;
        EXPECT_EQ(o[1760 + i], uint32_t(2 * (5 + i) + 3)) << i;
    }
    EXPECT_EQ(o[1138], 0u);  // past the 36 packed halves: UB as the launch left it
    std::memcpy(packed, o.data() + 1472, sizeof packed);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(packed[i], as_halves[i]) << i;
    EXPECT_EQ(o[1344 + 7], bits(ptosim::half_bits_to_float(0x7c00))) << "an infinity among the loaded halves";
    EXPECT_EQ(o[1344 + 6], bits(ptosim::half_bits_to_float(0xfc01))) << "a signalling NaN among the loaded halves, its payload kept";
    for (int i = 0; i < 64; ++i) {
        const float f = ptosim::half_bits_to_float(static_cast<uint16_t>(1 + 0x1f3 * i));
        EXPECT_EQ(o[1824 + i], i < 36 ? bits(f) : 0u) << i;
        EXPECT_EQ(o[1888 + i], bits(f + f)) << i;
        EXPECT_EQ(o[1952 + i], bits(f)) << i;
    }
}

// Whole float registers into a destination that is neither operand (four
// lanes at a time straight into it) and in place: NaNs keep the rule for
// two NaN operands (ptosim/nan_rule.hpp), with and without a subscriber;
// a signalling NaN comes out quieted on both.
TEST_F(Vreg, WholeRegisterFloatArithmeticKeepsTheFirstNaNOnEveryPath) {
    std::vector<float> a(128);
    for (int i = 0; i < 128; ++i) a[i] = 0.53f * static_cast<float>((i * 23) % 71) - 13.0f;
    const float inf = std::numeric_limits<float>::infinity();
    const auto nan = [](uint32_t u) { return std::bit_cast<float>(u); };
    a[1] = nan(0x7fc01234u), a[64 + 1] = nan(0xffc00777u);  // two quiet NaNs
    a[2] = nan(0x7fc00001u), a[64 + 2] = nan(0xffc00005u);  // two quiet NaNs, the signs apart
    a[3] = 2.0f, a[64 + 3] = nan(0xffc12345u);              // a NaN second only
    a[4] = nan(0x7fd00000u), a[64 + 4] = 1.0f;
    a[5] = inf, a[64 + 5] = inf;                            // inf - inf, inf / inf
    a[6] = 0.0f, a[64 + 6] = -inf;                          // 0 * inf
    a[7] = 0.0f, a[64 + 7] = 0.0f;                          // 0 / 0
    a[40] = -0.0f, a[64 + 40] = 0.0f;
    a[11] = nan(0x7f800011u), a[64 + 11] = 1.0f;             // a signalling NaN first
    a[12] = 3.0f, a[64 + 12] = nan(0xff800022u);             // a signalling NaN second
    a[13] = nan(0x7f800033u), a[64 + 13] = nan(0x7fc00044u);  // two NaNs, the first signalling
    a[63] = 1.0e-40f, a[64 + 63] = -3.0e-41f;
    const float s = nan(0x7fd00042u);  // a NaN scalar
    struct Run {
        std::vector<uint32_t> out;
        int64_t ops;
    };
    const auto run = [&](bool subscribed) {
        Run r;
        const int id =
            subscribed ? ptosim::subscribe([](const ptosim::Core&, const ptosim::OpRecord&) {}, false) : -1;
        float* out = device(std::vector<float>(448, -5.0f));
        int64_t* ops = device(std::vector<int64_t>(1, -1));
        launch_vreg_nan_whole(out, ops, device(a), s, stream);
        const std::vector<float> f = back(out, 448);
        r.out.resize(448);
        std::memcpy(r.out.data(), f.data(), 4 * 448);
        r.ops = back(ops, 1)[0];
        if (subscribed) ptosim::unsubscribe(id);
        return r;
    };
    const Run light = run(false), full = run(true);
    EXPECT_EQ(light.ops, full.ops);
    const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    for (int i = 0; i < 64; ++i) {
        const float x = a[i], y = a[64 + i];
        const uint32_t want[7] = {bits(ptosim::first_nan(x + y, x, y)), bits(ptosim::first_nan(x - y, x, y)),
                                  bits(ptosim::first_nan(x * y, x, y)), bits(ptosim::first_nan(x / y, x, y)),
                                  bits(ptosim::first_nan(x + s, x, s)), bits(ptosim::first_nan(x * s, x, s)),
                                  bits(ptosim::first_nan(x + y, x, y))};
        for (int k = 0; k < 7; ++k) {
            EXPECT_EQ(light.out[64 * k + i], full.out[64 * k + i]) << "result " << k << ", element " << i;
            EXPECT_EQ(full.out[64 * k + i], want[k]) << "result " << k << ", element " << i;
        }
    }
    EXPECT_EQ(full.out[1], 0x7fc01234u) << "two NaNs: the first operand's";
    EXPECT_EQ(full.out[2], 0x7fc00001u) << "two NaNs: the first operand's";
    EXPECT_EQ(full.out[64 + 3], 0xffc12345u) << "the second operand's NaN when only it is one";
    EXPECT_EQ(full.out[64 * 4 + 10], 0x7fd00042u) << "the scalar's NaN";
    EXPECT_EQ(full.out[11], 0x7fc00011u) << "a signalling NaN, quieted";
    EXPECT_EQ(full.out[64 * 2 + 12], 0xffc00022u) << "a signalling NaN second, quieted";
    EXPECT_EQ(full.out[64 * 3 + 13], 0x7fc00033u) << "two NaNs, the first signalling: it, quieted";
}

// vcmax/vcmin over an active prefix (a5-vreg.md, "Arithmetic", reduce): the
// first NaN wins with its index; otherwise the extreme value at its first
// index, and a maximum of zero is +0 when any of the zeros is +0. Register
// 0: a tie and a NaN past the prefix; 1: NaNs at 9 and 30; 2: zeros of both
// signs as the maximum (-0 first); 3: only -0 and negatives, -0 twice.
TEST_F(Vreg, ReductionsOfAPrefixKeepTheFirstNaNAndTheZerosSign) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> a(256);
    for (int i = 0; i < 256; ++i) a[i] = -1.0f - 0.25f * static_cast<float>((i * 29) % 53);
    a[12] = a[40] = 7.5f;
    a[2] = a[50] = -40.0f;
    a[61] = nan;
    a[64 + 9] = nan;
    a[64 + 30] = -nan;
    a[128 + 5] = -0.0f, a[128 + 17] = 0.0f, a[128 + 33] = -0.0f;
    a[192 + 8] = -0.0f, a[192 + 44] = -0.0f;
    uint32_t* out = device(std::vector<uint32_t>(512, 0xdead));
    launch_vreg_extremes(out, device(a), stream);
    const std::vector<uint32_t> r = back(out, 512);
    const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    EXPECT_EQ(r[0], bits(7.5f));
    EXPECT_EQ(r[1], 12u);
    EXPECT_EQ(r[64], bits(-40.0f));
    EXPECT_EQ(r[65], 2u);
    EXPECT_EQ(r[128], bits(a[64 + 9]));
    EXPECT_EQ(r[129], 9u);
    EXPECT_EQ(r[128 + 64], bits(a[64 + 9]));
    EXPECT_EQ(r[128 + 65], 9u);
    EXPECT_EQ(r[256], bits(0.0f));  // +0 although -0 came first
    EXPECT_EQ(r[257], 5u);
    EXPECT_EQ(r[384], bits(-0.0f));
    EXPECT_EQ(r[385], 8u);
    for (int k = 0; k < 4; ++k)
        for (int i = 2; i < 64; ++i) EXPECT_EQ(r[128 * k + i], 0u) << k << " " << i;
}

// The same rules over whole registers (every element active, which takes
// vreduce's four-lane pass). Register 0: a NaN at 61 past the ties; 1: NaNs
// at 9 and 30; 2: zeros of both signs as the maximum (-0 first) and a tie
// for the minimum at 7 and 60; 3: only -0 and negatives, -0 twice, the
// minimum last.
TEST_F(Vreg, ReductionsOfAWholeRegisterKeepTheFirstNaNAndTheZerosSign) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> a(256);
    for (int i = 0; i < 256; ++i) a[i] = -1.0f - 0.25f * static_cast<float>((i * 29) % 53);
    a[12] = a[40] = 7.5f;
    a[2] = a[50] = -40.0f;
    a[61] = nan;
    a[64 + 9] = nan;
    a[64 + 30] = -nan;
    a[128 + 5] = -0.0f, a[128 + 17] = 0.0f, a[128 + 33] = -0.0f;
    a[128 + 7] = a[128 + 60] = -50.0f;
    a[192 + 8] = -0.0f, a[192 + 44] = -0.0f;
    a[192 + 63] = -60.0f;
    uint32_t* out = device(std::vector<uint32_t>(512, 0xdead));
    launch_vreg_extremes_all(out, device(a), stream);
    const std::vector<uint32_t> r = back(out, 512);
    const auto bits = [](float f) { return std::bit_cast<uint32_t>(f); };
    EXPECT_EQ(r[0], bits(a[61]));
    EXPECT_EQ(r[1], 61u);
    EXPECT_EQ(r[64], bits(a[61]));
    EXPECT_EQ(r[65], 61u);
    EXPECT_EQ(r[128], bits(a[64 + 9]));
    EXPECT_EQ(r[129], 9u);
    EXPECT_EQ(r[128 + 64], bits(a[64 + 9]));
    EXPECT_EQ(r[128 + 65], 9u);
    EXPECT_EQ(r[256], bits(0.0f));  // +0 although -0 came first
    EXPECT_EQ(r[257], 5u);
    EXPECT_EQ(r[256 + 64], bits(-50.0f));
    EXPECT_EQ(r[256 + 65], 7u);
    EXPECT_EQ(r[384], bits(-0.0f));
    EXPECT_EQ(r[385], 8u);
    EXPECT_EQ(r[384 + 64], bits(-60.0f));
    EXPECT_EQ(r[384 + 65], 63u);
    for (int k = 0; k < 4; ++k)
        for (int i = 2; i < 64; ++i) EXPECT_EQ(r[128 * k + i], 0u) << k << " " << i;
}
