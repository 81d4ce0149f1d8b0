// How a GlobalTensor's 5-D shape maps onto the rows and columns of a tile
// transfer, per global layout (docs/semantics.md, "Global tensors").
#pragma once
#include <pto/common/sim_support.hpp>

namespace pto::ptosim_impl {

template <class G>
struct GmView {
    const G& g;
    int64_t sh[5], st[5];
    explicit GmView(const G& gt) : g(gt) {
        for (int d = 0; d < 5; ++d) {
            sh[d] = gt.GetShape(d);
            st[d] = gt.GetStride(d);
        }
    }
    int64_t rows() const {
        if constexpr (G::layout == Layout::ND) return sh[0] * sh[1] * sh[2] * sh[3];
        else if constexpr (G::layout == Layout::DN) return sh[3];
        else return sh[2] * sh[3];
    }
    int64_t cols() const {
        if constexpr (G::layout == Layout::ND) return sh[4];
        else if constexpr (G::layout == Layout::DN) return sh[0] * sh[1] * sh[2] * sh[4];
        else return sh[0] * sh[1] * sh[4];
    }
    // Element offset of logical (r, c) from data().
    int64_t offset(int64_t r, int64_t c) const {
        if constexpr (G::layout == Layout::ND) {
            int64_t d3 = r % sh[3], d2 = (r / sh[3]) % sh[2], d1 = (r / (sh[3] * sh[2])) % sh[1],
                    d0 = r / (sh[3] * sh[2] * sh[1]);
            return d0 * st[0] + d1 * st[1] + d2 * st[2] + d3 * st[3] + c * st[4];
        } else if constexpr (G::layout == Layout::DN) {
            int64_t d4 = c % sh[4], d2 = (c / sh[4]) % sh[2], d1 = (c / (sh[4] * sh[2])) % sh[1],
                    d0 = c / (sh[4] * sh[2] * sh[1]);
            return d0 * st[0] + d1 * st[1] + d2 * st[2] + r * st[3] + d4 * st[4];
        } else {
            int64_t d3 = r % sh[3], d2 = r / sh[3];
            int64_t d4 = c % sh[4], d1 = (c / sh[4]) % sh[1], d0 = c / (sh[4] * sh[1]);
            return d0 * st[0] + d1 * st[1] + d2 * st[2] + d3 * st[3] + d4 * st[4];
        }
    }
    // Smallest and one-past-largest byte touched by a rows x cols transfer.
    void span(int64_t nr, int64_t nc, int64_t& lo, int64_t& hi) const {
        lo = 0;
        hi = 0;
        if (nr <= 0 || nc <= 0) return;
        lo = INT64_MAX;
        hi = INT64_MIN;
        const int64_t rs[2] = {0, nr - 1}, cs[2] = {0, nc - 1};
        // Offsets are monotone in each coordinate for non-negative strides, so
        // the extremes sit at the corners of every fractal row; scan rows for NZ.
        for (int64_t r : rs)
            for (int64_t c : cs) {
                int64_t o = offset(r, c);
                lo = std::min(lo, o);
                hi = std::max(hi, o);
            }
        if constexpr (G::layout != Layout::ND && G::layout != Layout::DN) {
            for (int64_t r = 0; r < nr; r += 1)
                for (int64_t c : cs) {
                    int64_t o = offset(r, c);
                    lo = std::min(lo, o);
                    hi = std::max(hi, o);
                }
        }
        if constexpr (is_fp4<typename G::RawDType>) {
            lo /= 2;
            hi = hi / 2 + 1;
        } else {
            constexpr int64_t es = sizeof(typename G::RawDType);
            lo *= es;
            hi = (hi + 1) * es;
        }
    }
};

template <class G>
inline uint8_t* gm_bytes(const G& g) {
    return reinterpret_cast<uint8_t*>(const_cast<typename G::RawDType*>(g.data()));
}

// Validates a GM operand for a rows x cols transfer and records its span.
template <class G>
inline void check_gm_operand(const G& g, const GmView<G>& v, int64_t nr, int64_t nc, const char* op, OpRecord& rec,
                             bool write, const SourceLoc& loc) {
    if (!g.data()) ptosim::fault(loc, std::string(op) + ": the GlobalTensor has no data pointer; construct it with one or TASSIGN it");
    if (nr > v.rows() || nc > v.cols())
        ptosim::fault(loc, std::string(op) + ": the tile's valid region " + std::to_string(nr) + "x" + std::to_string(nc) +
                               " exceeds the global tensor's " + std::to_string(v.rows()) + "x" + std::to_string(v.cols()) +
                               " (" + (G::layout == Layout::ND ? "ND" : G::layout == Layout::DN ? "DN" : "NZ") +
                               " shape); shrink the valid shape or fix the GlobalTensor shape");
    int64_t lo, hi;
    v.span(nr, nc, lo, hi);
    const uint8_t* base = gm_bytes(g) + lo;
    ptosim::check_gm(base, static_cast<uint64_t>(hi - lo), op, loc);
    if (write) rec.write(Space::GM, reinterpret_cast<uintptr_t>(base), static_cast<uint64_t>(hi - lo));
    else rec.read(Space::GM, reinterpret_cast<uintptr_t>(base), static_cast<uint64_t>(hi - lo));
}

// A2A3's UB<->GM data movers move each ND row (DN column) as one burst of
// the tile's valid length followed by a gap of Stride3 - Shape4 (Stride4 -
// Shape3) elements (pto-isa npu/a2a3/TLoad.hpp and TStore.hpp, Nd2nd and
// Dn2dn). When the valid length is shorter than the global shape, which
// pto-isa's PTO_ASSERT forbids but release builds do not check, consecutive
// rows therefore land closer than the stride; A5 programs the stride itself.
template <class T, class G>
void apply_a2a3_burst_pitch(GmView<G>& v, int vr, int vc) {
    if constexpr (!PTOSIM_TARGET_A5 && T::Loc == TileType::Vec) {
        if constexpr (G::layout == Layout::ND) {
            if (vc < v.sh[4]) v.st[3] -= v.sh[4] - vc;
        } else if constexpr (G::layout == Layout::DN) {
            if (vr < v.sh[3]) v.st[4] -= v.sh[3] - vr;
        }
    }
}

}  // namespace pto::ptosim_impl
