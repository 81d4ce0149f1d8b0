// The index form of TGATHER (docs/isa/layout.md) against the scalar reference
// written here: every element type of the compiled target, valid rows, the
// rows past them left alone, and the fault naming an index outside the source.
// Apart from test_isa_layout.cpp because it builds its out-of-range indices
// with TEXPANDS, an element-wise instruction.
#include <pto/inst/elementwise_ops.hpp>
#include "test_isa_layout_util.hpp"

namespace {

// ------------------------------------------------------------ TGATHER

#if PTOSIM_TARGET_A5
using GatherTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
#else
using GatherTypes = ::testing::Types<int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
#endif

TYPED_SUITE(TGATHER_Types, GatherTypes);
TYPED_TEST(TGATHER_Types, IndexFormValidRows) {
    using T = TypeParam;
    using Dst = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, kC>;
    for (int vr : {1, 7, kR}) {
        SCOPED_TRACE("valid rows " + std::to_string(vr));
        auto src = values<T>(kR * kC, 20), sentinel = values<T>(kR * kC, 21), out = sentinel;
        for (size_t i = 0; i < src.size(); ++i) src[i] = pattern<T>(i, 5);
        std::vector<int32_t> idx(kR * kC);
        for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int32_t>((i * 389 + 17) % (kR * kC));
        idx[0] = kR * kC - 1;
        auto st = run_vec([&] {
            Full<T> fs, fd;
            Dst d(vr);
            Full<int32_t> fi, tmp;
            TASSIGN(fs, 0);
            TASSIGN(fd, 0x4000);
            TASSIGN(d, 0x4000);
            TASSIGN(fi, 0x8000);
            TASSIGN(tmp, 0xC000);
            load(fs, src, kR, kC);
            load(fd, sentinel, kR, kC);
            load(fi, idx, kR, kC);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            TGATHER(d, fs, fi, tmp);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            store(out, fd, kR, kC);
        });
        ASSERT_TRUE(st.ok()) << st.message;
        expect_region(out, sentinel, kC, [&](int r, int c, T& w) {
            if (r < vr) w = src[idx[r * kC + c]];
        });
    }
}

TEST(TGATHER_Faults, IndexOutsideTheSource) {
    auto msg = fault_of([] {
        Full<float> s, d;
        Full<int32_t> idx, tmp;
        TASSIGN(s, 0);
        TASSIGN(d, 0x4000);
        TASSIGN(idx, 0x8000);
        TASSIGN(tmp, 0xC000);
        TEXPANDS(idx, int32_t{kR * kC});
        TGATHER(d, s, idx, tmp);
    });
    EXPECT_NE(msg.find("TGATHER: index 1024 at (0, 0) is outside src0's 1024 elements"), std::string::npos) << msg;
}

}  // namespace
