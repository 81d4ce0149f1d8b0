// How a GlobalTensor's 5-D shape maps onto the rows and columns of a tile
// transfer, per global layout (docs/semantics.md, "Global tensors").
#pragma once
#include <pto/common/sim_support.hpp>

namespace pto::ptosim_impl {

inline const char* layout_name(Layout l) {
    switch (l) {
        case Layout::ND: return "ND";
        case Layout::DN: return "DN";
        case Layout::NZ: return "NZ";
        case Layout::NC1HWC0: return "NC1HWC0";
        case Layout::FRACTAL_Z: return "FRACTAL_Z";
        case Layout::FRACTAL_Z_3D: return "FRACTAL_Z_3D";
        case Layout::NDC1HWC0: return "NDC1HWC0";
        case Layout::NCHW: return "NCHW";
        case Layout::NHWC: return "NHWC";
        case Layout::NCDHW: return "NCDHW";
        default: return "other";
    }
}

// The layouts an accumulator stores to through the fixpipe: ND and NZ on
// both targets, NC1HWC0 on A2A3 (pto-isa npu/a2a3/TStore.hpp,
// TStoreAccNz2NC1HWC0), NHWC, NCHW and NCDHW on A5 (npu/a5/TStore.hpp,
// TStoreAccNHWC and TStoreAccNCHW).
template <class G>
constexpr bool acc_store_layout() {
    constexpr Layout l = G::layout;
    if constexpr (PTOSIM_TARGET_A5) return l == Layout::ND || l == Layout::NZ || l == Layout::NHWC || l == Layout::NCHW || l == Layout::NCDHW;
    else return l == Layout::ND || l == Layout::NZ || l == Layout::NC1HWC0;
}

// A GlobalTensor seen as the rows x columns of a tile transfer. The
// convolution layouts have a view only as accumulator store destinations:
// rows are the output positions, columns the channels, addressed as the
// fixpipe writes them (docs/semantics.md, "Global tensors").
template <class G>
struct GmView {
    static constexpr Layout L = G::layout;
    static_assert(L == Layout::ND || L == Layout::DN || L == Layout::NZ || L == Layout::NC1HWC0 ||
                      L == Layout::NHWC || L == Layout::NCHW || L == Layout::NCDHW,
                  "this transfer takes an ND, DN or NZ GlobalTensor (accumulator stores also NC1HWC0, NHWC, NCHW "
                  "or NCDHW); FRACTAL_Z, FRACTAL_Z_3D and NDC1HWC0 tensors load into a ConvTile");
    const G& g;
    int64_t sh[5], st[5];
    explicit GmView(const G& gt) : g(gt) {
        for (int d = 0; d < 5; ++d) {
            sh[d] = gt.GetShape(d);
            st[d] = gt.GetStride(d);
        }
    }
    int64_t rows() const {
        if constexpr (L == Layout::ND) return sh[0] * sh[1] * sh[2] * sh[3];
        else if constexpr (L == Layout::NHWC) return sh[1] * sh[2] * sh[3];
        else if constexpr (L == Layout::DN) return sh[3];
        else if constexpr (L == Layout::NZ) return sh[2] * sh[3];
        else if constexpr (L == Layout::NC1HWC0) return sh[0] * sh[2] * sh[3];
        else if constexpr (L == Layout::NCHW) return sh[1] * sh[3] * sh[4];
        else return sh[0] * sh[3] * sh[4];
    }
    int64_t cols() const {
        if constexpr (L == Layout::ND || L == Layout::NHWC) return sh[4];
        else if constexpr (L == Layout::DN) return sh[0] * sh[1] * sh[2] * sh[4];
        else if constexpr (L == Layout::NZ) return sh[0] * sh[1] * sh[4];
        else if constexpr (L == Layout::NC1HWC0) return sh[1] * sh[4];
        else if constexpr (L == Layout::NCHW) return sh[2];
        else return sh[1];
    }
    // Element offset of logical (r, c) from data().
    int64_t offset(int64_t r, int64_t c) const {
        if constexpr (L == Layout::ND) {
            // A 2-D tensor (outer shapes 1), the common case, without the divisions.
            if (sh[0] == 1 && sh[1] == 1 && sh[2] == 1 && r < sh[3]) return r * st[3] + c * st[4];
            int64_t d3 = r % sh[3], d2 = (r / sh[3]) % sh[2], d1 = (r / (sh[3] * sh[2])) % sh[1],
                    d0 = r / (sh[3] * sh[2] * sh[1]);
            return d0 * st[0] + d1 * st[1] + d2 * st[2] + d3 * st[3] + c * st[4];
        } else if constexpr (L == Layout::DN) {
            int64_t d4 = c % sh[4], d2 = (c / sh[4]) % sh[2], d1 = (c / (sh[4] * sh[2])) % sh[1],
                    d0 = c / (sh[4] * sh[2] * sh[1]);
            return d0 * st[0] + d1 * st[1] + d2 * st[2] + r * st[3] + d4 * st[4];
        } else if constexpr (L == Layout::NZ) {
            int64_t d3 = r % sh[3], d2 = r / sh[3];
            int64_t d4 = c % sh[4], d1 = (c / sh[4]) % sh[1], d0 = c / (sh[4] * sh[1]);
            return d0 * st[0] + d1 * st[1] + d2 * st[2] + d3 * st[3] + d4 * st[4];
        } else if constexpr (L == Layout::NC1HWC0) {
            // An NZ store: C0-wide column blocks dstStride = shape0 * stride1
            // apart, rows C0 apart (TStoreAccNz2NC1HWC0).
            return (c / sh[4]) * (sh[0] * st[1] / st[3]) * sh[4] + r * sh[4] + c % sh[4];
        } else if constexpr (L == Layout::NHWC) {
            // An NZ -> ND store: rows stride3 apart, channels contiguous.
            return r * st[3] + c;
        } else {
            // An NZ -> DN store: positions contiguous, channels the channel
            // stride apart (stride2 for NCHW, stride1 for NCDHW).
            return r + c * (L == Layout::NCHW ? st[2] : st[1]);
        }
    }
    // Why the hardware cannot address this tensor as the view does, if so.
    std::string unsupported() const {
        if (L == Layout::NHWC && sh[0] != 1)
            return "an NHWC store repeats over shape0 (" + std::to_string(sh[0]) +
                   ") with a column group of the accumulator each, which is not simulated; make shape0 1 and fold "
                   "the batch into shape1";
        return {};
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
        if constexpr (L == Layout::NZ) {
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
// vec_burst: a Vec tile's ND rows (DN columns) move as bursts of the tile's
// valid length at the tensor's row stride (pto-isa npu/a5/TLoad.hpp
// TLoadVecND2ND: lenBurst = validCol, gmStride = gStride3; TLoadVecDN2DN:
// lenBurst = validRow), so a burst longer than Shape4 (Shape3) reads on into
// the following GM bytes; only the allocation bounds them.
// The runs an ND (rows) or DN (columns) access of nr x nc elements touches,
// when they form a box of the view's dimensions; else `a` stays one range.
template <class G>
void gm_runs(const GmView<G>& v, bool nd, int64_t nr, int64_t nc, int64_t lo, int64_t hi, ptosim::Runs& a) {
    const int64_t eb = sizeof(typename G::RawDType);
    const int64_t lines = nd ? nr : nc, len = nd ? nc : nr;  // runs and their length in elements
    const int inner = nd ? 4 : 3, line_dim = nd ? 3 : 4;       // contiguous dimension, innermost line dimension
    if (lines <= 1 || len <= 0 || len > v.sh[inner] || (len > 1 && v.st[inner] != 1)) return;
    // Lines walk dimensions 0, 1, 2 and line_dim, innermost last: either all
    // of them or part of the innermost.
    const int order[4] = {0, 1, 2, line_dim};
    const int64_t all = v.sh[0] * v.sh[1] * v.sh[2] * v.sh[line_dim];
    if (lines != all && lines > v.sh[line_dim]) return;
    int64_t count[4], pitch[4];
    int n = 0;
    for (int k = 0; k < 4; ++k) {
        const int d = order[k];
        const int64_t c = lines == all ? v.sh[d] : (d == line_dim ? lines : 1);
        if (c == 1) continue;
        if (n > 0 && pitch[n - 1] == c * v.st[d]) {  // merges with the dimension inside it
            count[n - 1] *= c;
            pitch[n - 1] = v.st[d];
            continue;
        }
        count[n] = c;
        pitch[n++] = v.st[d];
    }
    int64_t last = len - 1;
    for (int k = 0; k < n; ++k) {
        if (pitch[k] <= 0) return;
        last += (count[k] - 1) * pitch[k];
    }
    if (n == 0 || lo != v.offset(0, 0) * eb || hi != (v.offset(0, 0) + last + 1) * eb) return;
    if (n == 1 && pitch[0] == len) return;  // contiguous after all
    a.dims = static_cast<uint8_t>(n);
    a.run = static_cast<uint64_t>(len * eb);
    for (int k = 0; k < n; ++k) {
        a.count[k] = static_cast<uint64_t>(count[k]);
        a.pitch[k] = static_cast<uint64_t>(pitch[k] * eb);
    }
}

template <class G>
inline void check_gm_operand(const G& g, const GmView<G>& v, int64_t nr, int64_t nc, const char* op, OpRecord& rec,
                             bool write, const SourceLoc& loc, bool vec_burst = false) {
    if (!g.data()) ptosim::fault(loc, std::string(op) + ": the GlobalTensor has no data pointer; construct it with one or TASSIGN it");
    if (const std::string why = v.unsupported(); !why.empty()) ptosim::fault(loc, std::string(op) + ": " + why);
    const bool rows_burst = vec_burst && G::layout == Layout::DN, cols_burst = vec_burst && G::layout == Layout::ND;
    if ((nr > v.rows() && !rows_burst) || (nc > v.cols() && !cols_burst))
        ptosim::fault(loc, std::string(op) + ": the tile's valid region " + std::to_string(nr) + "x" + std::to_string(nc) +
                               " exceeds the global tensor's " + std::to_string(v.rows()) + "x" + std::to_string(v.cols()) +
                               " (" + layout_name(G::layout) + " shape); shrink the valid shape or fix the GlobalTensor shape");
    int64_t lo, hi;
    v.span(nr, nc, lo, hi);
    const uint8_t* base = gm_bytes(g) + lo;
    ptosim::check_gm(base, static_cast<uint64_t>(hi - lo), op, loc);
    const ptosim::Access a{Space::GM, 0, reinterpret_cast<uintptr_t>(base), static_cast<uint64_t>(hi - lo)};
    // Rows (ND) or columns (DN) of a tile in a larger tensor touch only their
    // runs: racecheck must not see neighbouring tiles of other blocks overlap.
    ptosim::Runs runs;
    runs.dims = 0;
    if constexpr ((G::layout == Layout::ND || G::layout == Layout::DN) && !is_fp4<typename G::RawDType>)
        gm_runs(v, G::layout == Layout::ND, nr, nc, lo, hi, runs);
    if (write) rec.write(a, runs);
    else rec.read(a, runs);
}

// A2A3's UB<->GM data movers move each ND row (DN column) as one burst of
// the tile's valid length followed by a gap of Stride3 - Shape4 (Stride4 -
// Shape3) elements (pto-isa npu/a2a3/TLoad.hpp and TStore.hpp, Nd2nd and
// Dn2dn). When the valid length differs from the global shape, which
// pto-isa's PTO_ASSERT forbids but release builds do not check, consecutive
// rows therefore land closer (shorter) or farther (longer) than the stride;
// A5 programs the stride itself.
template <class T, class G>
void apply_a2a3_burst_pitch(GmView<G>& v, int vr, int vc) {
    if constexpr (!PTOSIM_TARGET_A5 && T::Loc == TileType::Vec) {
        if constexpr (G::layout == Layout::ND) v.st[3] -= v.sh[4] - vc;
        else if constexpr (G::layout == Layout::DN) v.st[4] -= v.sh[3] - vr;
    }
}

// ------------------------------------------------------------ ConvTile loads

// The GM -> ConvTile loads: a same-layout copy on both targets (pto-isa
// npu/a2a3/TLoad.hpp TLoad5HD and TLoadFractalZ), and on A5 also the
// conversions from the plain NHWC, NCHW and NCDHW layouts (npu/a5/TLoad.hpp,
// CheckConvTileData and the TLoadN*HW* movers).
template <Layout G, Layout T, int dims>
constexpr bool conv_load_pair() {
    if constexpr (G == Layout::NC1HWC0) return T == Layout::NC1HWC0 && dims == 5;
    else if constexpr (G == Layout::FRACTAL_Z) return T == Layout::FRACTAL_Z && (dims == 5 || dims == 4);
    else if constexpr (!PTOSIM_TARGET_A5) return false;
    else if constexpr (G == Layout::NHWC) return T == Layout::NC1HWC0 && dims == 5;
    else if constexpr (G == Layout::NCHW) return (T == Layout::NC1HWC0 && dims == 5) || (T == Layout::FRACTAL_Z && dims == 4);
    else if constexpr (G == Layout::NCDHW)
        return (T == Layout::NDC1HWC0 && dims == 6) || (T == Layout::FRACTAL_Z_3D && dims == 4);
    else return false;
}

// Where element t (ConvTile coordinates) of a load comes from in a GM tensor
// of shape s: fills g with its GM coordinates, or returns false for the zero
// padding of C up to C1 * C0 and of N up to a multiple of 16. A same-layout
// load maps the tile's dimensions onto the GM tensor's last ones.
template <Layout G, Layout T, int dims>
inline bool conv_source(const int64_t* t, const int64_t* s, int64_t c0, int64_t* g) {
    if constexpr (G == T) {
        for (int i = 0; i < 5 - dims; ++i) g[i] = 0;
        for (int i = 0; i < dims; ++i) g[5 - dims + i] = t[i];
        return true;
    } else if constexpr (G == Layout::NHWC) {  // [1,N,H,W,C] -> [N,C1,H,W,C0]
        g[0] = 0, g[1] = t[0], g[2] = t[2], g[3] = t[3], g[4] = t[1] * c0 + t[4];
        return g[4] < s[4];
    } else if constexpr (G == Layout::NCHW && T == Layout::NC1HWC0) {  // [1,N,C,H,W] -> [N,C1,H,W,C0]
        g[0] = 0, g[1] = t[0], g[2] = t[1] * c0 + t[4], g[3] = t[2], g[4] = t[3];
        return g[2] < s[2];
    } else if constexpr (G == Layout::NCHW) {  // [1,N,C,H,W] -> [C1*H*W, N/16, 16, C0]
        const int64_t hw = s[3] * s[4];
        g[0] = 0, g[1] = t[1] * 16 + t[2], g[2] = t[0] / hw * c0 + t[3], g[3] = t[0] % hw / s[4], g[4] = t[0] % s[4];
        return g[1] < s[1] && g[2] < s[2];
    } else if constexpr (T == Layout::NDC1HWC0) {  // [N,C,D,H,W] -> [N,D,C1,H,W,C0]
        g[0] = t[0], g[1] = t[2] * c0 + t[5], g[2] = t[1], g[3] = t[3], g[4] = t[4];
        return g[1] < s[1];
    } else {  // [N,C,D,H,W] -> [C1*D*H*W, N/16, 16, C0]
        const int64_t dhw = s[2] * s[3] * s[4], i = t[0] % dhw;
        g[0] = t[1] * 16 + t[2], g[1] = t[0] / dhw * c0 + t[3], g[2] = i / (s[3] * s[4]), g[3] = i / s[4] % s[3],
        g[4] = i % s[4];
        return g[0] < s[0] && g[1] < s[1];
    }
}

// The GM shape a ConvTile shape loads from, as pto-isa's PTO_ASSERTs state
// it: empty when t and s agree, else the rule they break.
template <Layout G, Layout T, int dims>
inline std::string conv_shape_rule(const int64_t* t, const int64_t* s, int64_t c0) {
    if constexpr (G == T) {
        bool ok = true;
        for (int i = 0; i < 5 - dims; ++i) ok = ok && s[i] == 1;
        for (int i = 0; i < dims; ++i) ok = ok && s[5 - dims + i] == t[i];
        return ok ? "" : "the GlobalTensor's shape must equal the ConvTile's (leading GM dimensions 1)";
    } else if constexpr (G == Layout::NHWC) {
        const bool ok = s[0] == 1 && s[1] == t[0] && s[2] == t[2] && s[3] == t[3] && s[4] <= t[1] * c0;
        return ok ? "" : "GM [1,N,H,W,C] loads into [N,C1,H,W,C0] with equal N, H, W and C <= C1*C0";
    } else if constexpr (G == Layout::NCHW && T == Layout::NC1HWC0) {
        const bool ok = s[0] == 1 && s[1] == t[0] && s[2] <= t[1] * c0 && s[3] == t[2] && s[4] == t[3];
        return ok ? "" : "GM [1,N,C,H,W] loads into [N,C1,H,W,C0] with equal N, H, W and C <= C1*C0";
    } else if constexpr (G == Layout::NCHW) {
        const int64_t hw = s[3] * s[4];
        const bool ok = s[0] == 1 && hw > 0 && t[0] % hw == 0 && s[2] <= t[0] / hw * c0 && s[1] <= t[1] * t[2];
        return ok ? "" : "GM [1,N,C,H,W] loads into [C1*H*W,N/16,16,C0] with C <= C1*C0 and N <= N/16*16";
    } else if constexpr (T == Layout::NDC1HWC0) {
        const bool ok = s[0] == t[0] && s[1] <= t[2] * c0 && s[2] == t[1] && s[3] == t[3] && s[4] == t[4];
        return ok ? "" : "GM [N,C,D,H,W] loads into [N,D,C1,H,W,C0] with equal N, D, H, W and C <= C1*C0";
    } else {
        const int64_t dhw = s[2] * s[3] * s[4];
        const bool ok = dhw > 0 && t[0] % dhw == 0 && s[1] <= t[0] / dhw * c0 && s[0] <= t[1] * t[2];
        return ok ? "" : "GM [N,C,D,H,W] loads into [C1*D*H*W,N/16,16,C0] with C <= C1*C0 and N <= N/16*16";
    }
}

}  // namespace pto::ptosim_impl
