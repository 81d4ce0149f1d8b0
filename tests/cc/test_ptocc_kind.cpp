// The kernel-type inference of sources built without a core-type suffix
// (src/cc/kind.cpp, docs/ptocc.md "Kernel type"): the scan of a
// directives-only preprocessed text and the decision from both variants.
#include "kind.hpp"

#include <gtest/gtest.h>

using namespace ptocc;

namespace {

bool user_file(const std::string& file, bool system) { return !system && file.rfind("/ptolab/include/", 0) != 0; }

KindScan scan(const std::string& text) { return scan_kind(text, user_file); }

// A preprocessed text: the user's kernel between ptolab and system header lines.
std::string tu(const std::string& user) {
    return "# 1 \"k.cpp\"\n"
           "# 1 \"/ptolab/include/pto/pto-inst.hpp\" 1\n"
           "template <class T> void TMATMUL(T&, T&, T&) { TADD(x); __ubuf__ int* p; }\n"
           "# 1 \"/usr/include/c++/12/vector\" 1 3\n"
           "void vadd(int); void mad(int);\n"
           "# 5 \"k.cpp\" 2\n" +
           user;
}


// pto-isa's A5 texpands_mat: the Cube side fills L1 and copies it into each
// Vector sub-block's UB (copy_cbuf_to_ubuf) and signals them with
// set_intra_block; the Vector side only TSTOREs. The cross-core copy and the
// intra-block flags make it mix.
TEST(KindDecide, CrossCoreCopiesAndIntraBlockFlagsMakeItMix) {
    KindScan cube = scan(tu("__global__ void k() {\n  TEXPANDS(m, v);\n"
                            "  copy_cbuf_to_ubuf((__ubuf__ void*)u, (__cbuf__ void*)c, 0, 1, 8, 0, 0);\n"
                            "  set_intra_block(PIPE_MTE1, 0);\n}\n"));
    KindScan vec = scan(tu("__global__ void k() {\n  wait_intra_block(PIPE_MTE3, 0);\n  TSTORE(g, t);\n}\n"));
    EXPECT_EQ(cube.pipe_ops, (std::set<std::string>{"copy_cbuf_to_ubuf", "set_intra_block"}));
    KindDecision d = decide_kind(cube, vec);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Mix);
    EXPECT_EQ(d.why, "Cube-Vector instruction copy_cbuf_to_ubuf in the Cube variant");
    KindScan l0c = scan(tu("__global__ void k() { copy_matrix_cc_to_ub(u, c, 0, 16, 16, 16, 16, 0, 0); }\n"));
    d = decide_kind(l0c, l0c);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Mix);
}
}  // namespace

TEST(KindScan, CountsOnlyTheUsersCalls) {
    KindScan s = scan(tu("__global__ AICORE void k() {\n  pto::TADD(c, a, b); // TMATMUL(x)\n"
                         "  /* mad(1) */ const char* t = \"TMATMUL(\"; TLOAD(a, g);\n}\n"));
    EXPECT_EQ(s.kernels, 1);
    EXPECT_EQ(s.vec_ops, (std::set<std::string>{"TADD"}));
    EXPECT_TRUE(s.cube_ops.empty());
    EXPECT_TRUE(s.vec_tiles.empty());  // the __ubuf__ is in ptolab's header
}

TEST(KindScan, NamesWithoutACallAreNotUses) {
    KindScan s = scan(tu("__global__ void k() { auto f = &TMATMUL; int TADD = 0; }\n"));
    EXPECT_TRUE(s.cube_ops.empty());
    EXPECT_TRUE(s.vec_ops.empty());
}

TEST(KindScan, BuffersAndMarks) {
    KindScan s = scan(tu("__global__ __vector__ void k() { Tile<pto::TileType::Vec, float, 1, 8> t; __cbuf__ int* p; }\n"
                         "__global__ __mix__(1, 2) void m() { KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY); }\n"));
    EXPECT_EQ(s.kernels, 2);
    EXPECT_EQ(s.vec_tiles, (std::set<std::string>{"TileType::Vec"}));
    EXPECT_EQ(s.cube_tiles, (std::set<std::string>{"__cbuf__"}));
    ASSERT_EQ(s.marks.size(), 3u);
    EXPECT_EQ(s.marks[0].first, Kind::Vec);
    EXPECT_EQ(s.marks[1].second, "__mix__(1, 2)");
    EXPECT_EQ(s.marks[1].first, Kind::Mix);
    EXPECT_EQ(s.marks[2].first, Kind::Cube);
}

TEST(KindDecide, VectorOnlyCubeOnlyAndMix) {
    // An unguarded Vector kernel: its vector calls are in both variants.
    KindScan vec_in_both = scan(tu("__global__ void k() { TLOAD(a, g); TADDS(a, a, 1); TSTORE(g, a); }\n"));
    KindDecision d = decide_kind(vec_in_both, vec_in_both);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Vec);
    EXPECT_EQ(d.why, "Vector instruction TADDS in the Vector variant");

    KindScan cube = scan(tu("__global__ void k() { TMOV(l, m); TMATMUL(c, l, r); }\n"));
    d = decide_kind(cube, cube);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Cube);

    // Guarded mix: the Cube variant has the matmul, the Vector variant the add.
    KindScan cube_side = scan(tu("__global__ void k() { TMATMUL(c, l, r); }\n"));
    KindScan vec_side = scan(tu("__global__ void k() { TADD(o, w, d); }\n"));
    d = decide_kind(cube_side, vec_side);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Mix);
    EXPECT_EQ(d.why, "Cube instruction TMATMUL in the Cube variant, Vector instruction TADD in the Vector variant");

    // A Vector instruction only in the Cube variant is not a Vector side.
    KindScan empty = scan(tu("__global__ void k() { }\n"));
    d = decide_kind(vec_side, empty);
    EXPECT_FALSE(d.kind);
}

TEST(KindDecide, DataMovementOnlyIsTypedByItsBuffers) {
    KindScan ub = scan(tu("__global__ void k() { Tile<TileType::Vec, float, 1, 8> t; TLOAD(t, g); TSTORE(g, t); }\n"));
    KindDecision d = decide_kind(ub, ub);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Vec);
    EXPECT_EQ(d.why, "Vector buffer TileType::Vec in the Vector variant");
}

TEST(KindDecide, ScalarOnlyIsAnErrorAndNoKernelStaysMix) {
    KindScan scalar = scan(tu("__global__ AICORE void k(int* p) { p[0] = 1; }\n"));
    KindDecision d = decide_kind(scalar, scalar);
    EXPECT_FALSE(d.kind);
    EXPECT_NE(d.error.find("cannot tell the kernel type"), std::string::npos);
    KindScan host = scan(tu("void call() { k<<<1, nullptr, nullptr>>>(0); }\n"));
    d = decide_kind(host, host);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Mix);
    EXPECT_TRUE(d.no_kernel);
}

TEST(KindDecide, MarksWinConflictsAndUnsupportedRatiosAreErrors) {
    KindScan marked = scan(tu("__global__ __cube__ void k() { TADD(a, b, c); }\n"));
    KindDecision d = decide_kind(marked, marked);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Cube);
    EXPECT_EQ(d.why, "marked __cube__");
    KindScan two = scan(tu("__global__ __cube__ void k() {}\n__global__ __vector__ void v() {}\n"));
    d = decide_kind(two, two);
    EXPECT_FALSE(d.kind);
    EXPECT_NE(d.error.find("both __cube__ and __vector__"), std::string::npos);
    KindScan one_one = scan(tu("__global__ __mix__(1, 1) void k() {}\n"));
    d = decide_kind(one_one, one_one);
    EXPECT_FALSE(d.kind);
    EXPECT_NE(d.error.find("__mix__(1, 1)"), std::string::npos);
}

// pto-isa's tpushpop_mixed_tile_size: its sides are chosen by `if constexpr`,
// so both variants hold both; the Cube side has TMATMUL, the Vector side only
// TLOAD and TPUSH of Vec tiles. A TPUSH or TPOP makes it mix.
TEST(KindDecide, ATilePipeBetweenTheCoresMakesItMix) {
    KindScan both = scan(tu("__global__ void k() {\n  if constexpr (DAV_VEC) { TLOAD(a, g); TPUSH<Pipe, VecTile>(p, a); }\n"
                            "  if constexpr (DAV_CUBE) { TPOP<Pipe, MatTile>(p, m); TMATMUL(c, l, r); }\n}\n"));
    EXPECT_EQ(both.pipe_ops, (std::set<std::string>{"TPOP", "TPUSH"}));
    KindDecision d = decide_kind(both, both);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Mix);
    EXPECT_EQ(d.why, "Cube-Vector instruction TPOP in the Cube variant");

    // Named without a call (a declaration, a comment's word) it tells nothing.
    KindScan named = scan(tu("__global__ void k() { auto f = &TPUSH; TMATMUL(c, l, r); }\n"));
    EXPECT_TRUE(named.pipe_ops.empty());
    d = decide_kind(named, named);
    ASSERT_TRUE(d.kind);
    EXPECT_EQ(*d.kind, Kind::Cube);
}
