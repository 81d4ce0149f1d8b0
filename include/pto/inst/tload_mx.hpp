// TLOAD of MX E8M0 scales from the GM scale layouts (Layout::MX_*) into L1
// scale tiles: A scales (MX_A_ZZ/MX_A_ND/MX_A_DN) into ZZ tiles, B scales
// (MX_B_NN/MX_B_ND/MX_B_DN) into NN tiles (docs/isa/matrix.md, "MX scale
// layouts"). TLOAD dispatches here for every MX layout.
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/tload_mx.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/mx_layout.hpp>
#include <pto/common/sim_support.hpp>

namespace pto::ptosim_impl {

template <class T, class G>
RecordEvent tload_mx(CallSite cs, T& dst, G& src) {
    constexpr Layout L = G::layout;
    constexpr bool for_a = is_mx_a_layout(L);
    constexpr bool boxed = is_mx_boxed_layout(L);
    static_assert(is_tile_data_v<T> && T::Loc == TileType::Mat && T::SFractalSize == TileConfig::fractalMxSize,
                  "TLOAD from an MX scale layout (Layout::MX_*): the destination is a Mat tile with SFractalSize "
                  "TileConfig::fractalMxSize (32)");
    static_assert(for_a ? (T::isRowMajor && T::SFractal == SLayout::RowMajor)
                        : (!T::isRowMajor && T::SFractal == SLayout::ColMajor),
                  "TLOAD: MX_A_ZZ/MX_A_ND/MX_A_DN scales load into a ZZ tile (BLayout::RowMajor, SLayout::RowMajor), "
                  "MX_B_NN/MX_B_ND/MX_B_DN scales into an NN tile (BLayout::ColMajor, SLayout::ColMajor)");
    static_assert(std::is_same_v<typename T::DType, float8_e8m0_t> &&
                      std::is_same_v<std::remove_cv_t<typename G::RawDType>, float8_e8m0_t>,
                  "TLOAD: MX scale layouts hold float8_e8m0_t, in the GlobalTensor and in the tile");
    static_assert(G::staticShape[4] == DYNAMIC || G::staticShape[4] == mx_pair,
                  "TLOAD: an MX scale GlobalTensor's dimension 4 is the scale pair along k and must be 2");
    static_assert(!boxed || G::staticShape[3] == DYNAMIC || G::staticShape[3] == mx_box_rows,
                  "TLOAD: MX_A_ZZ/MX_B_NN GlobalTensors hold 16 x 2 boxes; dimension 3 must be 16");
    static_assert(boxed || ((G::staticShape[0] == DYNAMIC || G::staticShape[0] == 1) &&
                            (G::staticShape[1] == DYNAMIC || G::staticShape[1] == 1)),
                  "TLOAD: MX_A_ND/MX_A_DN/MX_B_ND/MX_B_DN GlobalTensors are 3-D; dimensions 0 and 1 must be 1");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    uint8_t* base = tile_base(c, dst, "TLOAD", "destination", loc);
    const MxGmView<G> v(src);
    const std::string what = std::string("TLOAD from ") + mx_layout_name(L) + ": ";
    if (v.sh[4] != mx_pair || (boxed && v.sh[3] != mx_box_rows) || (!boxed && (v.sh[0] != 1 || v.sh[1] != 1)))
        ptosim::fault(loc, what + "the GlobalTensor's shape (" + std::to_string(v.sh[0]) + ", " +
                               std::to_string(v.sh[1]) + ", " + std::to_string(v.sh[2]) + ", " + std::to_string(v.sh[3]) +
                               ", " + std::to_string(v.sh[4]) + ") is not an MX scale shape: dimension 4 must be 2" +
                               (boxed ? ", dimension 3 16" : ", dimensions 0 and 1 must be 1"));
    // The boxed layouts move whole boxes, the GlobalTensor's full extent; the
    // ND/DN ones the destination's valid region, as pto-isa's loaders do.
    int64_t rows = dst.GetValidRow(), cols = dst.GetValidCol();
    if constexpr (boxed) {
        rows = v.rows();
        cols = v.cols();
        if (rows > T::Rows || cols > T::Cols)
            ptosim::fault(loc, what + "the GlobalTensor's " + std::to_string(rows) + "x" + std::to_string(cols) +
                                   " scales do not fit the " + std::to_string(T::Rows) + "x" +
                                   std::to_string(T::Cols) + " tile");
    } else {
        if (rows > v.rows() || cols > v.cols())
            ptosim::fault(loc, what + "the tile's valid region " + std::to_string(rows) + "x" + std::to_string(cols) +
                                   " exceeds the GlobalTensor's " + std::to_string(v.rows()) + "x" +
                                   std::to_string(v.cols()) + " scales; shrink the valid shape or fix the shape");
        if ((for_a ? cols : rows) % mx_pair != 0)
            ptosim::fault(loc, what + "the tile's valid " + (for_a ? "column" : "row") + " count " +
                                   std::to_string(for_a ? cols : rows) +
                                   " is odd; scales move in pairs along k, so it must be even");
    }
    if (!src.data()) ptosim::fault(loc, what + "the GlobalTensor has no data pointer; construct it with one or TASSIGN it");
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t col = 0; col < cols; ++col) {
            const int64_t o = v.offset(r, col);
            lo = std::min(lo, o);
            hi = std::max(hi, o);
        }
    const uint8_t* gm = reinterpret_cast<const uint8_t*>(src.data());
    OpRecord rec = make_record("TLOAD", Pipe::MTE2, cs);
    if (rows > 0 && cols > 0) {
        ptosim::check_gm(gm + lo, static_cast<uint64_t>(hi - lo + 1), "TLOAD", loc);
        rec.read(Space::GM, reinterpret_cast<uintptr_t>(gm + lo), static_cast<uint64_t>(hi - lo + 1));
    }
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(rows * cols);
    rec.bytes = rec.elements;
    ptosim::dispatch(c, rec);
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t col = 0; col < cols; ++col) *at<T>(base, r, col) = gm[v.offset(r, col)];
    return {};
}

}  // namespace pto::ptosim_impl
