// Partial ops (TPART*), the shape faults of the family and the dispatch
// record (docs/isa/reduce.md) against the scalar references of
// test_isa_reduce_util.hpp: every element type of the compiled target, edge
// valid shapes, untouched elements outside the valid region, NaN/Inf/signed
// zeros.
#include "test_isa_reduce_util.hpp"

namespace {

// ------------------------------------------------------------ partial ops

struct PartShape {
    int vr, vc, r0, c0, r1, c1;
};
const PartShape kPartShapes[] = {
    {16, 64, 16, 64, 16, 64}, {7, 13, 7, 13, 7, 13}, {16, 64, 16, 64, 5, 64}, {16, 64, 16, 64, 16, 20},
    {9, 40, 3, 17, 9, 40},    {9, 40, 9, 40, 0, 0},  {1, 1, 1, 1, 1, 1},      {12, 50, 12, 7, 12, 50},
};

// A5 TPARTMAX/TPARTMIN fill dst with the type's lowest/highest value first
// (+-inf for floats), so both sources may be smaller than dst.
const PartShape kA5MinMaxShapes[] = {{16, 64, 10, 64, 16, 50}, {9, 40, 3, 17, 5, 33}, {7, 13, 7, 12, 6, 13}};

template <class T>
T extreme(bool highest) {
    if constexpr (is_half<T>) return half_from_bits(highest ? 0x7c00 : 0xfc00);
    else if constexpr (is_bf16<T>) return bf16_from_bits(highest ? 0x7f80 : 0xff80);
    else if constexpr (std::is_floating_point_v<T>) return highest ? INFINITY : -INFINITY;
    else return highest ? std::numeric_limits<T>::max() : std::numeric_limits<T>::lowest();
}

template <class T, class Call>
void check_part(Bop op, Call call, const PartShape& p) {
    SCOPED_TRACE(shape(p.vr, p.vc) + " <- " + shape(p.r0, p.c0) + ", " + shape(p.r1, p.c1));
    auto a = input<T>(kR * kC, 31), b = input<T>(kR * kC, 32), sentinel = input<T>(kR * kC, 33, Vals::Plain);
    auto out = sentinel;
    auto st = run_vec([&] {
        Full<T> afull, bfull, dfull;
        Dyn<T> s0(p.r0, p.c0), s1(p.r1, p.c1), d(p.vr, p.vc);
        TASSIGN(afull, 0);
        TASSIGN(s0, 0);
        TASSIGN(bfull, 0x4000);
        TASSIGN(s1, 0x4000);
        TASSIGN(dfull, 0x8000);
        TASSIGN(d, 0x8000);
        load(afull, a, kR, kC);
        load(bfull, b, kR, kC);
        load(dfull, sentinel, kR, kC);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        call(d, s0, s1);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        store(out, dfull, kR, kC);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
        if (r >= p.vr || c >= p.vc) return;
        const int i = r * kC + c;
        const bool in0 = r < p.r0 && c < p.c0, in1 = r < p.r1 && c < p.c1;
        w = in0 && in1 ? ref_bin(op, a[i], b[i]) : in0 ? a[i] : in1 ? b[i] : extreme<T>(op == Bop::Min);
    });
}

#define PART_SUITE(NAME, OP)                                                              \
    TYPED_SUITE(NAME##_Types, ArithTypes);                                                \
    TYPED_TEST(NAME##_Types, SupportedValidPatterns) {                                    \
        for (const PartShape& p : kPartShapes)                                            \
            check_part<TypeParam>(OP, [](auto&... a) { NAME(a...); }, p);                \
    }

PART_SUITE(TPARTADD, Bop::Add)
PART_SUITE(TPARTMUL, Bop::Mul)
PART_SUITE(TPARTMAX, Bop::Max)
PART_SUITE(TPARTMIN, Bop::Min)

#if PTOSIM_TARGET_A5
TYPED_TEST(TPARTMAX_Types, A5BothSourcesSmallerPadWithLowest) {
    for (const PartShape& p : kA5MinMaxShapes) check_part<TypeParam>(Bop::Max, [](auto&... a) { TPARTMAX(a...); }, p);
}
TYPED_TEST(TPARTMIN_Types, A5BothSourcesSmallerPadWithHighest) {
    for (const PartShape& p : kA5MinMaxShapes) check_part<TypeParam>(Bop::Min, [](auto&... a) { TPARTMIN(a...); }, p);
}

// Outside the patterns each target runs its release build, a report
// (tests/checkers/test_device_tolerates.cpp); on A5 that reads the bigger
// source over dst's valid columns, which faults past its storage.
TEST(TPARTMAX_Faults, A5BigSourceReadPastItsStorage) {
    auto msg = fault_of([] {
        Dyn<float> s0(8, 64), d(8, 64);
        Tile<TileType::Vec, float, 16, 16, BLayout::RowMajor, DYNAMIC, DYNAMIC> s1(16, 10);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TPARTMAX(d, s0, s1);
    });
    EXPECT_NE(msg.find("TPARTMAX: source valid shapes 8x64 and 16x10 do not fit the destination's 8x64: neither "
                       "source may exceed it; pto-isa's release build reads src1 over 8x64, past its 16x16 storage, "
                       "which ptosim does not model"),
              std::string::npos)
        << msg;
}
#endif

// ------------------------------------------------------------ faults

// A dst of fewer valid rows is pto-isa's debug-only rule (tests/checkers/
// test_device_tolerates.cpp); past dst's storage the write would leave the tile.
TEST(TROWSUM_Faults, SourceRowsPastTheDestinationsStorage) {
    auto msg = fault_of([] {
        Dyn<float> s(16, 64);
        Full<float> tmp;
        Tile<TileType::Vec, float, 8, 1, BLayout::ColMajor, DYNAMIC, 1> d(7);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x4000);
        TASSIGN(d, 0x8000);
        TROWSUM(d, s, tmp);
    });
    EXPECT_NE(msg.find("TROWSUM: dst's valid shape 7x1 differs from 16x1 (the source's valid rows); pto-isa's release "
                       "build writes dst over 16x1, past its 8x1 storage, which ptosim does not model: set dst's valid "
                       "shape to 16x1"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("test_isa_reduce_part.cpp"), std::string::npos) << msg;
}

TEST(TCOLSUM_Faults, SourceColumnsPastTheDestinationsStorage) {
    auto msg = fault_of([] {
        Dyn<float> s(8, 64);
        Tile<TileType::Vec, float, 1, 32, BLayout::RowMajor, 1, DYNAMIC> d(10);
        TASSIGN(s, 0);
        TASSIGN(d, 0x8000);
        TCOLSUM(d, s);
    });
    EXPECT_NE(msg.find("TCOLSUM: dst's valid shape 1x10 differs from 1x64 (the source's valid columns); pto-isa's "
                       "release build writes dst over 1x64, past its 1x32 storage, which ptosim does not model: set "
                       "dst's valid shape to 1x64"),
              std::string::npos)
        << msg;
}

#if PTOSIM_TARGET_A5
// Both sources taller than dst: A5's release build writes dst down to the
// sources' common rows, here past dst's storage.
TEST(TPARTADD_Faults, A5DstWrittenPastItsStorage) {
    auto msg = fault_of([] {
        Dyn<float> s0(16, 64), s1(12, 64);
        Tile<TileType::Vec, float, 8, 64, BLayout::RowMajor, DYNAMIC, DYNAMIC> d(8, 64);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TPARTADD(d, s0, s1);
    });
    EXPECT_NE(msg.find("TPARTADD: source valid shapes 16x64 and 12x64 do not fit the destination's 8x64: one source "
                       "must match it and the other must not exceed it; pto-isa's release build writes dst over "
                       "12x64, past its 8x64 storage, which ptosim does not model"),
              std::string::npos)
        << msg;
}
#endif

// A per-row operand of fewer valid rows is a debug-only contract
// (test_device_tolerates.cpp); past its storage rows it still faults.
TEST(TROWEXPANDMUL_Faults, PerRowOperandPastItsStorageRows) {
    auto msg = fault_of([] {
        Dyn<float> s0(16, 64), d(16, 64);
        Tile<TileType::Vec, float, 8, 1, BLayout::ColMajor, DYNAMIC, 1> s1(4);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TROWEXPANDMUL(d, s0, s1);
    });
    EXPECT_NE(msg.find("TROWEXPANDMUL: src1's valid shape 4x1 differs from 16x1 (dst's valid rows, one value per "
                       "row); pto-isa's release build reads src1 over 16x1, past its 8x1 storage, which ptosim does "
                       "not model: set src1's valid shape to 16x1"),
              std::string::npos)
        << msg;
}

// A per-column operand short of dst's valid columns is a report
// (tests/checkers/test_device_tolerates.cpp); past its storage the release
// build's read leaves the tile, which stays a fault.
TEST(TCOLEXPANDADD_Faults, PerColumnOperandPastItsStorage) {
    auto msg = fault_of([] {
        Dyn<int32_t> s0(16, 64), d(16, 64);
        Tile<TileType::Vec, int32_t, 1, 32, BLayout::RowMajor, 1, DYNAMIC> s1(8);
        TASSIGN(s0, 0);
        TASSIGN(s1, 0x4000);
        TASSIGN(d, 0x8000);
        TCOLEXPANDADD(d, s0, s1);
    });
    EXPECT_NE(msg.find("TCOLEXPANDADD: src1's valid shape 1x8 differs from 1x64 (dst's valid columns, one value per "
                       "column); pto-isa's release build reads src1 over 1x64, past its 1x32 storage, which ptosim "
                       "does not model: set src1's valid shape to 1x64"),
              std::string::npos)
        << msg;
}

// ------------------------------------------------------------ dispatch record

TEST(TROWSUM_Record, PipeOperandsAndTmpScratch) {
    std::vector<ptosim::OpRecord> recs;
    std::mutex mu;
    const int id = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        std::lock_guard<std::mutex> lock(mu);
        if (std::string(r.op).rfind("TROW", 0) == 0 || std::string(r.op).rfind("TCOL", 0) == 0) recs.push_back(r);
    });
    auto st = run_vec([] {
        Dyn<half> s(5, 33);
        Full<half> tmp;
        RowVecDN<half> d(5);
        ColVec<half> c(33);
        TASSIGN(s, 0);
        TASSIGN(tmp, 0x4000);
        TASSIGN(d, 0x8000);
        TASSIGN(c, 0x9000);
        TROWSUM(d, s, tmp);
        TCOLMAX(c, s);
    });
    ptosim::unsubscribe(id);
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(recs.size(), 2u);
    const auto& r = recs[0];
    EXPECT_STREQ(r.op, "TROWSUM");
    EXPECT_EQ(r.pipe, ptosim::Pipe::V);
    EXPECT_STREQ(r.dtype, "half");
    EXPECT_EQ(r.elements, 5u * 33u);
    ASSERT_EQ(r.n_reads, 1);
    EXPECT_EQ(r.reads[0].offset, 0u);
    // The A2A3 implementation overwrites tmp; A5 ignores it.
    ASSERT_EQ(r.n_writes, PTOSIM_TARGET_A5 ? 1 : 2);
    EXPECT_EQ(r.writes[r.n_writes - 1].offset, 0x8000u);
    EXPECT_STREQ(recs[1].op, "TCOLMAX");
    EXPECT_EQ(recs[1].n_writes, 1);
}

}  // namespace
