// The GM layouts of MX (microscaling) E8M0 scales: TileShape2D/BaseShape2D
// helpers for Layout::MX_A_ZZ/MX_A_ND/MX_A_DN/MX_B_NN/MX_B_ND/MX_B_DN and the
// map from a scale tile's (row, column) to the GlobalTensor's elements
// (docs/isa/matrix.md, "MX scale layouts").
//
// Rows and columns are the scale tile's: for A (the Left operand's scales)
// row m and column k/32; for B (the Right operand's) row k/32 and column n.
// Every layout keeps the two scales of consecutive 32-k blocks together in
// dimension 4 (size 2), because the cube reads them as one 2-byte pair.
#pragma once
#include <pto/common/tile.hpp>

namespace pto {

namespace ptosim_impl {
constexpr bool is_mx_layout(Layout l) {
    return l == Layout::MX_A_ZZ || l == Layout::MX_A_ND || l == Layout::MX_A_DN || l == Layout::MX_B_NN ||
           l == Layout::MX_B_ND || l == Layout::MX_B_DN;
}
constexpr bool is_mx_a_layout(Layout l) {
    return l == Layout::MX_A_ZZ || l == Layout::MX_A_ND || l == Layout::MX_A_DN;
}
// ZZ and NN are already in the L1 box order: 16 x 2 boxes in dimensions 3, 4.
constexpr bool is_mx_boxed_layout(Layout l) { return l == Layout::MX_A_ZZ || l == Layout::MX_B_NN; }
constexpr int mx_pair = 2;
constexpr int mx_box_rows = 16;
constexpr int64_t div_or_dyn(int64_t a, int64_t b) { return a == DYNAMIC ? DYNAMIC : a / b; }
}  // namespace ptosim_impl

// 2-D helpers: R x C is the scale matrix (A: M x K/32, B: K/32 x N). The
// pair dimension halves K/32, the box dimension 16 divides M (A) or N (B).
#define PTOSIM_MX_SHAPE2D(L, S0, S1, S2, S3, DS0, DS1, DS2, DS3, CHECK)                                      \
    template <typename T, int R, int C>                                                                        \
    struct TileShape2D<T, R, C, Layout::L> : Shape<S0, S1, S2, S3, ptosim_impl::mx_pair> {                   \
        static_assert(CHECK, "TileShape2D<" #L ">: the scale count along k (K/32) must be even; the cube "   \
                             "reads scales in pairs");                                                       \
        using Base = Shape<S0, S1, S2, S3, ptosim_impl::mx_pair>;                                            \
        PTO_INTERNAL TileShape2D() = default;                                                                \
        PTO_INTERNAL TileShape2D(int64_t rows, int64_t cols) : Base(DS0, DS1, DS2, DS3, ptosim_impl::mx_pair) {} \
    };

PTOSIM_MX_SHAPE2D(MX_A_ND, 1, 1, R, ptosim_impl::div_or_dyn(C, 2), 1, 1, rows, cols / 2, C == DYNAMIC || C % 2 == 0)
PTOSIM_MX_SHAPE2D(MX_A_DN, 1, 1, ptosim_impl::div_or_dyn(C, 2), R, 1, 1, cols / 2, rows, C == DYNAMIC || C % 2 == 0)
PTOSIM_MX_SHAPE2D(MX_A_ZZ, 1, ptosim_impl::div_or_dyn(R, 16), ptosim_impl::div_or_dyn(C, 2), 16, 1, rows / 16, cols / 2, 16,
                  C == DYNAMIC || C % 2 == 0)
PTOSIM_MX_SHAPE2D(MX_B_ND, 1, 1, ptosim_impl::div_or_dyn(R, 2), C, 1, 1, rows / 2, cols, R == DYNAMIC || R % 2 == 0)
PTOSIM_MX_SHAPE2D(MX_B_DN, 1, 1, C, ptosim_impl::div_or_dyn(R, 2), 1, 1, cols, rows / 2, R == DYNAMIC || R % 2 == 0)
PTOSIM_MX_SHAPE2D(MX_B_NN, 1, ptosim_impl::div_or_dyn(C, 16), ptosim_impl::div_or_dyn(R, 2), 16, 1, cols / 16, rows / 2, 16,
                  R == DYNAMIC || R % 2 == 0)
#undef PTOSIM_MX_SHAPE2D

// Dense strides of an R x C scale matrix stored in the layout.
#define PTOSIM_MX_STRIDE2D(L, S1, S2, S3, DS1, DS2, DS3)                                                    \
    template <typename T, int R, int C>                                                                        \
    struct BaseShape2D<T, R, C, Layout::L>                                                                    \
        : Stride<ptosim_impl::mul_or_dyn(R, C), S1, S2, S3, 1> {                                              \
        using Base = Stride<ptosim_impl::mul_or_dyn(R, C), S1, S2, S3, 1>;                                    \
        PTO_INTERNAL BaseShape2D() = default;                                                                 \
        PTO_INTERNAL BaseShape2D(int64_t rows, int64_t cols) : Base(rows * cols, DS1, DS2, DS3, 1) {}        \
    };

PTOSIM_MX_STRIDE2D(MX_A_ND, ptosim_impl::mul_or_dyn(R, C), C, 2, rows * cols, cols, 2)
PTOSIM_MX_STRIDE2D(MX_A_DN, ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, 2), 2, rows * cols, rows * 2, 2)
PTOSIM_MX_STRIDE2D(MX_A_ZZ, ptosim_impl::mul_or_dyn(C, 16), 32, 2, cols * 16, 32, 2)
PTOSIM_MX_STRIDE2D(MX_B_ND, ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(C, 2), 2, rows * cols, cols * 2, 2)
PTOSIM_MX_STRIDE2D(MX_B_DN, ptosim_impl::mul_or_dyn(R, C), R, 2, rows * cols, rows, 2)
PTOSIM_MX_STRIDE2D(MX_B_NN, ptosim_impl::mul_or_dyn(R, 16), 32, 2, rows * 16, 32, 2)
#undef PTOSIM_MX_STRIDE2D

namespace ptosim_impl {

// A scale GlobalTensor seen as a rows x cols scale matrix. The ZZ and NN
// layouts stack dimension 0 along the boxed direction (A: rows, B: columns),
// as pto-isa's loaders place each dimension-0 slice after the previous one.
template <class G>
struct MxGmView {
    static constexpr Layout L = G::layout;
    static_assert(is_mx_layout(L), "MxGmView: not an MX scale layout");
    int64_t sh[5], st[5];
    explicit MxGmView(const G& g) {
        for (int d = 0; d < 5; ++d) {
            sh[d] = g.GetShape(d);
            st[d] = g.GetStride(d);
        }
    }
    int64_t rows() const {
        if constexpr (L == Layout::MX_A_ND) return sh[2];
        else if constexpr (L == Layout::MX_A_DN) return sh[3];
        else if constexpr (L == Layout::MX_A_ZZ) return sh[0] * sh[1] * sh[3];
        else if constexpr (L == Layout::MX_B_ND || L == Layout::MX_B_NN) return sh[2] * sh[4];
        else return sh[3] * sh[4];  // MX_B_DN
    }
    int64_t cols() const {
        if constexpr (L == Layout::MX_A_ND) return sh[3] * sh[4];
        else if constexpr (L == Layout::MX_A_DN || L == Layout::MX_A_ZZ) return sh[2] * sh[4];
        else if constexpr (L == Layout::MX_B_ND) return sh[3];
        else if constexpr (L == Layout::MX_B_DN) return sh[2];
        else return sh[0] * sh[1] * sh[3];  // MX_B_NN
    }
    // Element offset of scale (r, c) from data().
    int64_t offset(int64_t r, int64_t c) const {
        if constexpr (L == Layout::MX_A_ND) return r * st[2] + (c / sh[4]) * st[3] + (c % sh[4]) * st[4];
        else if constexpr (L == Layout::MX_A_DN) return (c / sh[4]) * st[2] + r * st[3] + (c % sh[4]) * st[4];
        else if constexpr (L == Layout::MX_B_ND) return (r / sh[4]) * st[2] + c * st[3] + (r % sh[4]) * st[4];
        else if constexpr (L == Layout::MX_B_DN) return c * st[2] + (r / sh[4]) * st[3] + (r % sh[4]) * st[4];
        else {
            // ZZ boxes r (A) or c (B) into (dim 0, dim 1, dim 3); the pair
            // direction splits into (dim 2, dim 4).
            const int64_t boxed = L == Layout::MX_A_ZZ ? r : c, paired = L == Layout::MX_A_ZZ ? c : r;
            const int64_t i3 = boxed % sh[3], i1 = (boxed / sh[3]) % sh[1], i0 = boxed / (sh[3] * sh[1]);
            return i0 * st[0] + i1 * st[1] + (paired / sh[4]) * st[2] + i3 * st[3] + (paired % sh[4]) * st[4];
        }
    }
};

constexpr const char* mx_layout_name(Layout l) {
    return l == Layout::MX_A_ZZ   ? "MX_A_ZZ"
           : l == Layout::MX_A_ND ? "MX_A_ND"
           : l == Layout::MX_A_DN ? "MX_A_DN"
           : l == Layout::MX_B_NN ? "MX_B_NN"
           : l == Layout::MX_B_ND ? "MX_B_ND"
                                  : "MX_B_DN";
}

}  // namespace ptosim_impl
}  // namespace pto
