// The A2A3 CCE intrinsic layer run end to end: kernels written on the
// intrinsics alone (vector_kernels.cpp), built by ptocc with clang over
// include/cce, launched through ACL, results checked to the bit.
#include "acl_fixture.hpp"
#include <ptosim/check.hpp>
#include <ptosim/core.hpp>
#include <ptosim/float16.hpp>
#include <ptosim/nan_rule.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <mutex>
#include <string>
#include <vector>

extern "C" {
void launch_counter_add(float*, float*, float*, void*);
void launch_half_rows(void*, void*, void*, void*);
void launch_masked_adds(float*, float*, void*);
void launch_padded_rows(float*, float*, void*);
void launch_rounding(int32_t*, float*, void*);
void launch_scalar_ub(int32_t*, void*);
void launch_scalar_half(void*, void*, void*);
void launch_scalar_bf16(void*, void*, void*);
void launch_element_loops(int32_t*, int32_t*, int, void*);
void launch_axpy_widen(float*, float*, void*, void*);
void launch_madd_half(void*, void*, void*, void*, void*);
void launch_shift_right(int32_t*, int32_t*, void*);
void launch_unsimulated(float*, void*);
void launch_past_ub(float*, void*);
void launch_leave_partial_mask(void*);
void launch_adds_under_incoming_mask(float*, float*, void*);
void launch_exp_in_place_and_shifted(float*, float*, void*);
void launch_float_runs(float*, float*, float*, float*, void*);
void launch_burst_past_allocation(float*, void*);
void launch_counted_row_tails(float*, float*, void*);
void launch_counted_wide_rows(float*, float*, void*);
void launch_light_paths(float*, float*, int64_t*, float*, float*, void*);
}

namespace {

class Cce : public cce_test::AclFixture {};

std::vector<float> iota(size_t n, float from) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i) v[i] = from + static_cast<float>(i);
    return v;
}

TEST_F(Cce, CounterModeAddsExactlyTheCountedElements) {
    float* a = device(iota(128, 0.5f));
    float* b = device(iota(128, 1000.0f));
    float* out = device(std::vector<float>(128, 99.0f));
    launch_counter_add(out, a, b, stream);
    const std::vector<float> r = back(out, 128);
    for (int i = 0; i < 100; ++i) EXPECT_EQ(r[i], (0.5f + i) + (1000.0f + i)) << i;
    for (int i = 100; i < 104; ++i) EXPECT_EQ(r[i], 0.0f) << i;  // stored from UB the vadd never wrote
    for (int i = 104; i < 128; ++i) EXPECT_EQ(r[i], 99.0f) << i;  // past the store
}

// Half vadd, vsub and vmul: each result is the exact sum, difference or
// product rounded once to half (the exact value is a double here, rounded
// through float, which holds more than twice half's 11 bits), subnormals,
// overflow to infinity and ties included; a NaN in gives a NaN out. 200
// elements: runs that end inside a group of eight and of sixteen.
TEST_F(Cce, HalfAddSubMulRoundOnceFromTheExactResult) {
    std::vector<uint16_t> a(200), b(200);
    for (int i = 0; i < 200; ++i) {
        a[i] = static_cast<uint16_t>((i * 2654435761u) >> 16);  // every exponent, NaNs and infinities among them
        b[i] = static_cast<uint16_t>((i * 40503u + 12345u) & 0xffff);
    }
    a[0] = half(65504.0f).bits, b[0] = half(65504.0f).bits;    // the sum overflows
    a[1] = 0x0001, b[1] = 0x0001;                               // smallest subnormals
    a[2] = half(2048.0f).bits, b[2] = half(1.0f).bits;          // 2049: a tie, to even
    a[3] = half(1.0f).bits, b[3] = half(-1.0f).bits;            // +0
    void* out = device(std::vector<uint16_t>(1024, 0xdead));
    launch_half_rows(out, device(a), device(b), stream);
    const std::vector<uint16_t> r = back(static_cast<uint16_t*>(out), 1024);
    const auto value = [](uint16_t h) { return static_cast<double>(static_cast<float>(half::from_bits(h))); };
    const auto expect = [](double exact) { return half(static_cast<float>(exact)).bits; };
    int nans = 0;
    for (int i = 0; i < 200; ++i) {
        const double x = value(a[i]), y = value(b[i]);
        const uint16_t want[4] = {expect(x + y), expect(x - y), expect(x * y), expect(x * y)};
        for (int k = 0; k < 4; ++k) {
            const uint16_t got = r[256 * k + i];
            if (std::isnan(k == 0 ? x + y : k == 1 ? x - y : x * y)) {
                EXPECT_TRUE(std::isnan(value(got))) << "op " << k << " element " << i;
                ++nans;
            } else {
                EXPECT_EQ(got, want[k]) << "op " << k << " element " << i;
            }
        }
    }
    EXPECT_GT(nans, 0);  // the inputs do reach the NaN path
    EXPECT_EQ(r[0], 0x7c00);                   // 65504 + 65504: infinity
    EXPECT_EQ(r[1], 0x0002);                   // 2^-24 + 2^-24
    EXPECT_EQ(r[2], half(2048.0f).bits);       // 2049 rounds to even, 2048
    EXPECT_EQ(r[3], 0x0000);                   // 1 + -1: +0
    EXPECT_EQ(r[200], 0x0000);                 // the count ends the run (UB reads zero at launch)
}

TEST_F(Cce, NormalModeMaskSelectsTheSlotsOfEveryRepeat) {
    float* src = device(iota(128, 0.0f));
    float* out = device(std::vector<float>(128, 0.0f));
    launch_masked_adds(out, src, stream);
    const std::vector<float> r = back(out, 128);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r[i], i % 2 == 0 ? i + 1.5f : -1.0f) << i;
}

TEST_F(Cce, AlignedCopiesPadTheirRowsAndSkipTheGap) {
    float* src = device(iota(40, 1.0f));
    float* out = device(std::vector<float>(48, -5.0f));
    launch_padded_rows(out, src, stream);
    const std::vector<float> r = back(out, 48);
    for (int row = 0; row < 2; ++row)
        for (int c = 0; c < 24; ++c)
            EXPECT_EQ(r[row * 24 + c], c < 20 ? 1.0f + row * 20 + c : 7.0f) << row << "," << c;
}

// The same copies' records name their bursts (runs), not the span with the
// one-block gap: UB 96 bytes a row 128 apart, GM 80 (in) and 96 (out) bytes
// end to end. The store reads only the rows the load wrote, so initcheck
// has nothing to say (the span took the gap for a read of unwritten bytes).
TEST_F(Cce, AlignedCopyRecordsCarryTheirBurstsAsRuns) {
    cce_test::RecordsSeen copies("copy_");
    const std::vector<ptosim::OpRecord>& seen = copies.seen;
    ASSERT_EQ(ptosim::check::configure("init"), "");
    float* out = device(std::vector<float>(48, -5.0f));
    launch_padded_rows(out, device(iota(40, 1.0f)), stream);
    const aclError rc = aclrtSynchronizeStream(stream);
    const std::vector<ptosim::check::Report> reps = ptosim::check::take_reports();
    ASSERT_EQ(ptosim::check::configure(""), "");
    EXPECT_EQ(rc, ACL_SUCCESS) << aclGetRecentErrMsg();
    for (const auto& r : reps) ADD_FAILURE() << ptosim::check::format_text(r);
    ASSERT_EQ(seen.size(), 2u);
    const auto expect_runs = [](const ptosim::OpRecord& r, const ptosim::Access& a, uint64_t span, uint64_t run,
                                uint64_t pitch) {
        EXPECT_EQ(a.bytes, span) << r.op;
        ASSERT_GT(a.runs, 0) << r.op;
        const ptosim::Runs& x = r.runs[a.runs - 1];
        EXPECT_EQ(x.run, run) << r.op;
        ASSERT_EQ(x.dims, 1) << r.op;
        EXPECT_EQ(x.count[0], 2u) << r.op;
        EXPECT_EQ(x.pitch[0], pitch) << r.op;
    };
    EXPECT_STREQ(seen[0].op, "copy_gm_to_ubuf_align_b32");
    expect_runs(seen[0], seen[0].writes[0], 224, 96, 128);
    expect_runs(seen[0], seen[0].reads[0], 160, 80, 80);
    EXPECT_STREQ(seen[1].op, "copy_ubuf_to_gm_align_b32");
    expect_runs(seen[1], seen[1].reads[0], 224, 96, 128);
    expect_runs(seen[1], seen[1].writes[0], 192, 96, 96);
}

TEST_F(Cce, ConversionsRoundAsTheirSuffixSays) {
    const std::vector<float> v = {2.5f, -2.5f, 1.5f, -0.5f, 2.7f, -2.7f, 3.5f, 3e9f};
    float* src = device(v);
    int32_t* out = device(std::vector<int32_t>(40, 0));
    launch_rounding(out, src, stream);
    const std::vector<int32_t> r = back(out, 40);
    const int32_t big = 2147483647;  // saturated
    const std::vector<int32_t> want = {2,  -2, 2, 0,  3, -3, 4, big,  // r: nearest, ties to even
                                       3,  -3, 2, -1, 3, -3, 4, big,  // a: nearest, ties away
                                       2,  -3, 1, -1, 2, -3, 3, big,  // f: floor
                                       3,  -2, 2, 0,  3, -2, 4, big,  // c: ceil
                                       2,  -2, 1, 0,  2, -2, 3, big}; // z: toward zero
    EXPECT_EQ(r, want);
}

TEST_F(Cce, ScalarPointersReachTheRunningCoresOwnUb) {
    int32_t* out = device(std::vector<int32_t>(16, -1));
    launch_scalar_ub(out, stream);
    const std::vector<int32_t> r = back(out, 16);
    EXPECT_EQ(r[0], 0);
    EXPECT_EQ(r[1], 1);
    EXPECT_EQ(r[8], 10);
    EXPECT_EQ(r[9], 11);
}

TEST_F(Cce, ScalarHalvesStoreThroughUbAndGmPointersAndPassByValue) {
    const std::vector<uint16_t> in = {0x3e00, 0x4280};  // 1.5, 3.25
    uint16_t* out = device(std::vector<uint16_t>(16, 0xffff));
    launch_scalar_half(out, device(in), stream);
    const std::vector<uint16_t> r = back(out, 16);
    EXPECT_EQ(r[0], 0x3e00);   // 1.5, copied
    EXPECT_EQ(r[1], 0x4680);   // 6.5 = 3.25 * 2
    EXPECT_EQ(r[2], 0x2e66);   // 0.1 to nearest
    EXPECT_EQ(r[3], 0x4800);   // 8 = 1.5 + 6.5
    EXPECT_EQ(r[4], 0x7c00);   // 65520 is the tie between 65504 and 65536: to even, Inf
    EXPECT_EQ(r[5], 0xae66);   // -0.1
    EXPECT_EQ(r[15], 0x4800);  // the scalar GM store
    EXPECT_EQ(r[8], 0xffff);   // past the DMA's 16 bytes
}

TEST_F(Cce, ScalarBfloat16StoresThroughUbAndGmPointersRoundToNearestEven) {
    const std::vector<uint16_t> in = {0x4040};  // 3.0
    uint16_t* out = device(std::vector<uint16_t>(16, 0xffff));
    launch_scalar_bf16(out, device(in), stream);
    const std::vector<uint16_t> r = back(out, 16);
    EXPECT_EQ(r[0], 0x4040);   // 3.0 from GM
    EXPECT_EQ(r[1], 0x4040);   // from the UB element
    EXPECT_EQ(r[2], 0x3dcd);   // 0.1 (float 0x3dcccccd) rounds up
    EXPECT_EQ(r[3], 0x0000);   // 0
    EXPECT_EQ(r[4], 0x3f80);   // 1 + 2^-8, the tie between 0x3f80 and 0x3f81: to even
    EXPECT_EQ(r[5], 0x40e0);   // the int 7
    EXPECT_EQ(r[6], 0x3f82);   // 1 + 3 * 2^-8, the tie between 0x3f81 and 0x3f82: to even
    EXPECT_EQ(r[7], 0xc000);   // -2 through *q
    EXPECT_EQ(r[15], 0x3f82);  // the scalar GM store of p[6]
    EXPECT_EQ(r[8], 0xffff);   // past the DMA's 16 bytes
}

TEST_F(Cce, ElementLoopsOnUbZeroCopyAndShift) {
    std::vector<int32_t> a(64);
    for (int i = 0; i < 64; ++i) a[i] = 100 + i;
    int32_t* out = device(std::vector<int32_t>(64, -1));
    launch_element_loops(out, device(a), 8, stream);
    const std::vector<int32_t> r = back(out, 64);
    for (int i = 0; i < 8; ++i) EXPECT_EQ(r[i], 0) << i;             // zeroed
    for (int i = 8; i < 16; ++i) EXPECT_EQ(r[i], 100 + i - 8) << i;  // a[0..8)
    for (int i = 16; i < 32; ++i) EXPECT_EQ(r[i], 100 + i) << i;     // as loaded
    for (int i = 32; i < 63; ++i) EXPECT_EQ(r[i], 101 + i) << i;     // shifted down by one
    EXPECT_EQ(r[63], 163);
}

TEST_F(Cce, MixedAxpyAddsHalfTimesScalarIntoFloat) {
    std::vector<float> d(128);
    std::vector<uint16_t> x(128);
    for (int i = 0; i < 128; ++i) {
        d[i] = i * 0.25f - 7.0f;
        x[i] = half(static_cast<float>(i - 64) * 1.5f).bits;
    }
    float* out = device(std::vector<float>(128, 0.0f));
    launch_axpy_widen(out, device(d), device(x), stream);
    const std::vector<float> r = back(out, 128);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r[i], d[i] - (i - 64) * 0.75f) << i;
}

TEST_F(Cce, MultiplyAddRoundsTheProductBeforeTheSum) {
    // (1 + 2^-10)^2 = 1 + 2^-9 + 2^-20 rounds to 1 + 2^-9 in half; minus
    // 1 + 2^-9 it gives 0, where a fused multiply-add would keep 2^-20.
    const std::vector<uint16_t> a(128, 0x3c01), d(128, 0x3c01), b(128, 0xbc02);
    uint16_t* out = device(std::vector<uint16_t>(128, 0xffff));
    launch_madd_half(out, device(a), device(b), device(d), stream);
    const std::vector<uint16_t> r = back(out, 128);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r[i], 0x0000) << i;
}

TEST_F(Cce, ShiftRightWithRoundingOffShiftsSignedArithmeticallyUnsignedLogically) {
    std::vector<int32_t> x(64);
    for (int i = 0; i < 64; ++i) x[i] = (i - 32) * 1001;
    int32_t* out = device(std::vector<int32_t>(128, 0));
    launch_shift_right(out, device(x), stream);
    const std::vector<int32_t> r = back(out, 128);
    for (int i = 0; i < 64; ++i) {
        EXPECT_EQ(r[i], x[i] >> 3) << i;
        EXPECT_EQ(static_cast<uint32_t>(r[64 + i]), static_cast<uint32_t>(x[i]) >> 3) << i;
    }
}

TEST_F(Cce, AnUnsimulatedIntrinsicStopsTheLaunchNamingIt) {
    float* out = device(std::vector<float>(8, 0.0f));
    launch_unsimulated(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("vector_kernels.cpp:77: the CCE intrinsic copy_sram_to_neighbor_sram is declared but not simulated by ptosim yet"),
              std::string::npos)
        << m;
}

TEST_F(Cce, AVectorDestinationPastUbFaultsAtItsLine) {
    float* out = device(std::vector<float>(8, 0.0f));
    launch_past_ub(out, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    EXPECT_NE(m.find("vector_dup dst"), std::string::npos) << m;
    EXPECT_NE(m.find("vector_kernels.cpp:"), std::string::npos) << m;
}

// A Vector core's mask outlives the kernel that set it (InitSocState's
// reason to exist): the next kernel on the core computes under it.
TEST_F(Cce, AKernelStartsWithTheMaskTheLastKernelOnItsCoreLeft) {
    float* src = device(iota(64, 1.0f));
    float* out = device(std::vector<float>(64, -5.0f));
    launch_leave_partial_mask(stream);
    launch_adds_under_incoming_mask(out, src, stream);
    const std::vector<float> r = back(out, 64);
    for (int i = 0; i < 64; ++i) EXPECT_EQ(r[i], i < 4 ? 2.0f + i : 0.0f) << i;  // the rest: UB the vadds never wrote
    // Leaves normal mode and the full mask behind for the kernels after it.
    float* wide = device(std::vector<float>(128, 0.0f));
    float* in = device(iota(128, 0.0f));
    launch_counter_add(wide, in, in, stream);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS);
}

// A DMA's bursts are checked against the allocation as a whole, and burst by
// burst when they leave it: the fault names the burst that does.
TEST_F(Cce, ADmaBurstOutsideTheAllocationFaultsNamingItsBytes) {
    float* src = device(std::vector<float>(64, 1.0f));
    launch_burst_past_allocation(src, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string m = aclGetRecentErrMsg();
    char second[64];
    std::snprintf(second, sizeof second, "GM bytes [%p, %p)", static_cast<void*>(reinterpret_cast<char*>(src) + (2 << 20) + 32),
                  static_cast<void*>(reinterpret_cast<char*>(src) + (2 << 20) + 64));
    EXPECT_NE(m.find("copy_gm_to_ubuf_align_b32"), std::string::npos) << m;
    EXPECT_NE(m.find(second), std::string::npos) << m;
    EXPECT_NE(m.find("vector_kernels.cpp:"), std::string::npos) << m;
}

// vexp gives (float)exp((double)x) per element whether its run goes through
// the row routine (in place) or element by element (a destination shifted
// against its source, where each element reads the one written before it).
TEST_F(Cce, ExpInPlaceAndShiftedKeepsEachElementsValueAndOrder) {
    std::vector<float> x(136, 0.0f);
    for (int i = 0; i < 128; ++i) x[i] = -6.0f + 0.1f * static_cast<float>(i);
    float* src = device(x);
    float* out = device(std::vector<float>(136, 0.0f));
    launch_exp_in_place_and_shifted(out, src, stream);
    const std::vector<float> r = back(out, 136);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(r[i], static_cast<float>(std::exp(static_cast<double>(x[i])))) << i;
    // out[128] is 0 (UB beyond the load reads as zero at launch): 1, e, e^e, ...
    std::vector<float> chain(8, 0.0f);
    for (int i = 1; i < 7; ++i) chain[i] = static_cast<float>(std::exp(static_cast<double>(chain[i - 1])));
    for (int i = 0; i < 8; ++i) EXPECT_EQ(r[128 + i], i < 7 ? chain[i] : 0.0f) << i;
    EXPECT_EQ(r[129], 1.0f);
    EXPECT_EQ(r[131], static_cast<float>(std::exp(static_cast<double>(std::exp(1.0f)))));
}

// docs/intrinsics/vector.md: float add, max, min, div and the scalar forms
// go a run at a time in float arithmetic; each result is still the double
// result rounded once to float, and max/min keep the first operand when it
// is NaN. A destination shifted against its source keeps the element order.
TEST_F(Cce, FloatRunsRoundAsTheDoubleResultAndKeepTheOrderOfAShiftedDestination) {
    const float inf = INFINITY, nan = NAN, sub = 1e-45f, big = 3e38f;
    const float specials[] = {nan, inf, -inf, 0.0f, -0.0f, sub, -sub, 1e-40f, big, -big, 1.0f, -2.5f, 0.1f};
    constexpr int n = 13;
    std::vector<float> a(64), b(64);
    for (int i = 0; i < 64; ++i) {
        a[i] = specials[i % n];
        b[i] = specials[(i / n + i * 3) % n];
    }
    float* da = device(a);
    float* db = device(b);
    float* dc = device(iota(64, 1.0f));
    float* out = device(std::vector<float>(448, -1.0f));
    launch_float_runs(out, da, db, dc, stream);
    const std::vector<float> r = back(out, 448);
    const auto same = [](float x, float y) { return std::memcmp(&x, &y, 4) == 0; };
    const auto once = [](double v) { return static_cast<float>(v); };
    for (int i = 0; i < 64; ++i) {
        const double x = a[i], y = b[i];
        EXPECT_TRUE(same(r[i], once(x + y))) << "vadd " << i << ": " << r[i];
        EXPECT_TRUE(same(r[64 + i], std::isnan(x) || x > y ? a[i] : b[i])) << "vmax " << i << ": " << r[64 + i];
        EXPECT_TRUE(same(r[128 + i], std::isnan(x) || x < y ? a[i] : b[i])) << "vmin " << i << ": " << r[128 + i];
        EXPECT_TRUE(same(r[192 + i], once(x / y))) << "vdiv " << i << ": " << r[192 + i];
        EXPECT_TRUE(same(r[256 + i], once(x * 3.0))) << "vmuls " << i << ": " << r[256 + i];
        EXPECT_TRUE(same(r[320 + i], std::isnan(x) || x > 0.5 ? a[i] : 0.5f)) << "vmaxs " << i << ": " << r[320 + i];
    }
    // c = 1, 2, 3, ...: element k + 1 becomes twice the element k just
    // written, 2^(k+1); read before any write, it would be 2 * (k + 1).
    for (int k = 0; k <= 20; ++k) EXPECT_EQ(r[384 + k], std::ldexp(1.0f, k)) << k;
    for (int k = 21; k < 64; ++k) EXPECT_EQ(r[384 + k], 1.0f + k) << k;
}

// docs/intrinsics/vector.md, "vcopy in counter mode".
TEST_F(Cce, VcopyInCounterModeCopiesTheCountInEveryRepeat) {
    float* src = device(iota(64, 1.0f));
    float* out = device(std::vector<float>(128, -1.0f));
    launch_counted_row_tails(out, src, stream);
    const std::vector<float> r = back(out, 128);
    for (int row = 0; row < 4; ++row)
        for (int c = 0; c < 32; ++c)  // the rest of each row is UB never written: zero at launch
            EXPECT_EQ(r[row * 32 + c], c < 5 ? 1.0f + row * 16 + c : 0.0f) << row << "," << c;
}

TEST_F(Cce, VcopyInCounterModeContinuesAWideCountWithinTheRepeat) {
    float* src = device(iota(240, 0.0f));
    float* out = device(std::vector<float>(288, -1.0f));
    launch_counted_wide_rows(out, src, stream);
    const std::vector<float> r = back(out, 288);
    for (int row = 0; row < 3; ++row)
        for (int c = 0; c < 96; ++c)
            EXPECT_EQ(r[row * 96 + c], c < 80 ? static_cast<float>(row * 80 + c) : 0.0f) << row << "," << c;
}

// The light paths (docs/speed.md, "pto-isa's headers executed"): with
// nothing subscribed, float vadd/vsub/vmul/vdiv/vmax/vmin over one
// contiguous run and vconv between float and half skip the per-instruction
// machinery. With a subscriber every instruction takes the general path: the
// same bits, the same instruction count, one vector record per instruction;
// and both give the arithmetic's bits.
uint32_t bits_of(float f) { return std::bit_cast<uint32_t>(f); }

TEST_F(Cce, LightPathsGiveTheGeneralPathsBitsAndInstructionCount) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    std::vector<float> a(256), b(256);
    for (int i = 0; i < 256; ++i) {
        a[i] = 0.37f * static_cast<float>(i * i % 97) - 11.0f + 1.0e-3f * static_cast<float>(i);
        b[i] = 3.0e4f / static_cast<float>(i + 1) - 3.0f * static_cast<float>(i % 5);
    }
    a[3] = nan, b[4] = std::bit_cast<float>(0x7fc00042u);
    a[5] = -0.0f, b[5] = 0.0f;
    a[6] = 0.0f, b[6] = -0.0f;
    a[7] = inf, b[7] = inf;
    a[8] = 1.0e-40f, b[8] = -1.0e-41f;  // subnormal
    a[9] = 70000.0f;                    // past half's range
    a[10] = 1.0f + 1.0f / 2048.0f;      // a tie in half: to even
    b[11] = 0.0f;                       // a division by zero
    a[200] = nan, b[201] = -inf;
    // Two NaNs: the first operand's, quieted (ptosim/nan_rule.hpp); 140's is
    // signalling.
    a[12] = std::bit_cast<float>(0x7fc00011u), b[12] = std::bit_cast<float>(0xffc00022u);
    a[140] = std::bit_cast<float>(0x7f800033u), b[140] = std::bit_cast<float>(0x7fc00044u);
    struct Run {
        std::vector<float> out, out2;
        int64_t ops = 0;
    };
    const auto run = [&](bool subscribed) {
        std::mutex mu;
        int64_t vector_records = 0;
        const int id = subscribed ? ptosim::subscribe(
                                        [&](const ptosim::Core&, const ptosim::OpRecord& rec) {
                                            std::lock_guard lk(mu);
                                            const std::string op = rec.op;
                                            vector_records += rec.pipe == ptosim::Pipe::V && op != "set_flag" &&
                                                              op != "wait_flag" && op != "pipe_barrier";
                                        },
                                        false)
                                  : -1;
        float* out = device(std::vector<float>(1024, -5.0f));
        float* out2 = device(std::vector<float>(1280, -5.0f));
        int64_t* ops = device(std::vector<int64_t>(1, -1));
        launch_light_paths(out, out2, ops, device(a), device(b), stream);
        Run r{back(out, 1024), back(out2, 1280), back(ops, 1)[0]};
        if (subscribed) {
            ptosim::unsubscribe(id);
            EXPECT_EQ(vector_records, 12) << "four vadds, four other binaries, two vconvs, the row-expand vsub";
        }
        return r;
    };
    const Run light = run(false), full = run(true);
    EXPECT_EQ(light.ops, full.ops);
    EXPECT_EQ(light.ops, 21);  // the 12 vector instructions, 4 barriers, 5 mask settings
    for (int i = 0; i < 1024; ++i) EXPECT_EQ(bits_of(light.out[i]), bits_of(full.out[i])) << "out " << i;
    for (int i = 0; i < 1280; ++i) EXPECT_EQ(bits_of(light.out2[i]), bits_of(full.out2[i])) << "out2 " << i;
    const std::vector<float>& o = light.out;
    for (int j = 0; j < 128; ++j) {
        const float s1 = ptosim::first_nan(a[j] + a[128 + j], a[j], a[128 + j]),
                    s2 = ptosim::first_nan(s1 + b[j], s1, b[j]);
        EXPECT_EQ(bits_of(o[j]), bits_of(ptosim::first_nan(s2 + b[128 + j], s2, b[128 + j]))) << j;
        EXPECT_EQ(bits_of(o[128 + j]), bits_of(static_cast<float>(half(a[j])))) << j;
        EXPECT_EQ(bits_of(o[256 + j]), bits_of(a[j] - b[8 * (j / 64) + j % 8])) << j;
    }
    // The shifted destination: each sum reads the one before. From b[12] on
    // both operands are NaNs, and the result is the first one's (ptolab's
    // rule, docs/semantics.md): the host's own `+` returns whichever operand
    // the compiler put first (GCC at -O0 gives b's), so the rule is written out.
    float prefix = 0.0f;
    for (int j = 0; j < 128; ++j) {
        prefix = ptosim::first_nan(prefix + b[j], prefix, b[j]);
        EXPECT_EQ(bits_of(o[385 + j]), bits_of(prefix)) << j;
    }
    for (int i = 0; i < 256; ++i) {
        const float x = a[i], y = b[i];
        const float want[5] = {ptosim::first_nan(x - y, x, y), ptosim::first_nan(x * y, x, y),
                               ptosim::first_nan(x / y, x, y),
                               (x != x) | (x > y) ? x : y, (x != x) | (x < y) ? x : y};
        for (int k = 0; k < 5; ++k) EXPECT_EQ(bits_of(light.out2[256 * k + i]), bits_of(want[k])) << k << ", " << i;
    }
}

}  // namespace
