// A2A3's loads into L0A/L0B: the 2-D fractal load (load_cbuf_to_ca/cb,
// load_gm_to_ca/cb), the transposing 2-D load (load_cbuf_to_*_transpose)
// and img2col (img2colv2_cbuf_to_ca/cb), with the FMATRIX and repeat
// registers they read (docs/intrinsics/load.md).
#include "cube.hpp"

#include <algorithm>
#include <vector>

namespace ptosim::cce {
using namespace detail;

namespace {

// Lowest and highest byte a list of equal-sized pieces touches.
struct Span {
    uint64_t lo = ~uint64_t{0}, hi = 0;
    void add(uint64_t at, uint64_t bytes) {
        lo = std::min(lo, at);
        hi = std::max(hi, at + bytes);
    }
    uint64_t bytes() const { return hi > lo ? hi - lo : 0; }
};

Pipe load_pipe(Space src) { return src == Space::GM ? Pipe::MTE2 : Pipe::MTE1; }

}  // namespace

void load_2d(const SourceLoc& loc, const char* op, Space dst_space, uint64_t dst, Space src_space, uint64_t src,
             const Load2d& l, int elem_bytes) {
    Core& c = core();
    if (l.transpose && elem_bytes != 2)
        fault(loc, std::string(op) + ": transpose = true transposes 16x16 fractals of 16-bit elements only; " +
                       std::to_string(elem_bytes * 8) + "-bit data takes the _transpose intrinsic");
    // dec walks the source fractals backwards from `start` (CANN's
    // addr_cal_mode_t; not documented further, chosen).
    auto src_at = [&](uint32_t r) -> int64_t {
        const int64_t step = int64_t(r) * l.src_stride;
        return (int64_t(l.start) + (l.dec ? -step : step)) * int64_t(kFractal);
    };
    Span s, d;
    for (uint32_t r = 0; r < l.repeat; ++r) {
        const int64_t at = src_at(r);
        if (at < 0) fault(loc, std::string(op) + ": repeat " + std::to_string(r) + " reads before the source start");
        s.add(src + uint64_t(at), kFractal);
        d.add(dst + uint64_t(r) * (l.dst_gap + 1) * kFractal, kFractal);
    }
    if (l.repeat) {
        if (src_space == Space::GM) {
            check_gm(reinterpret_cast<const void*>(s.lo), s.bytes(), op, loc);
        } else {
            bounds(c, src_space, s.lo, s.bytes(), op, "src", loc);
        }
        bounds(c, dst_space, d.lo, d.bytes(), op, "dst", loc);
    }
    OpRecord r = cube_record(op, load_pipe(src_space), loc, uint64_t(l.repeat) * kFractal);
    r.read(src_space, l.repeat ? s.lo : src, s.bytes());
    r.write(dst_space, l.repeat ? d.lo : dst, d.bytes());
    r.elements = uint64_t(l.repeat) * kFractal / elem_bytes;
    dispatch(c, r);
    const uint8_t* sb = src_space == Space::GM ? nullptr : local(c, src_space);
    uint8_t* db = local(c, dst_space);
    for (uint32_t i = 0; i < l.repeat; ++i) {
        const uint8_t* from = src_space == Space::GM ? reinterpret_cast<const uint8_t*>(src + uint64_t(src_at(i)))
                                                     : sb + src + uint64_t(src_at(i));
        uint8_t* to = db + dst + uint64_t(i) * (l.dst_gap + 1) * kFractal;
        if (!l.transpose) {
            std::memmove(to, from, kFractal);
            continue;
        }
        uint16_t t[256];
        for (int a = 0; a < 16; ++a)
            for (int b = 0; b < 16; ++b) t[b * 16 + a] = ld<uint16_t>(from + 2 * (a * 16 + b));
        std::memcpy(to, t, kFractal);
    }
}

void load_2d_transpose(const SourceLoc& loc, const char* op, Space dst_space, uint64_t dst, uint64_t src,
                       const Load2dT& l, int elem_bytes) {
    Core& c = core();
    // The unit is a square of n x n elements: 32 for 8-bit data (two
    // fractals), 16 for 16-bit (one) and 32-bit (two).
    const uint64_t n = elem_bytes == 1 ? 32 : 16;
    const uint64_t sq = n * n * uint64_t(elem_bytes);
    const uint64_t halves = sq / kFractal;
    Span s, d;
    for (uint32_t r = 0; r < l.repeat; ++r) {
        s.add(src + (uint64_t(l.index) + uint64_t(r) * l.src_stride) * sq, sq);
        const uint64_t first = dst + uint64_t(r) * (l.dst_gap + 1) * kFractal;
        d.add(first, kFractal);
        if (halves == 2) d.add(first + (uint64_t(l.dst_frac_gap) + 1) * kFractal, kFractal);
    }
    if (l.repeat) {
        bounds(c, Space::L1, s.lo, s.bytes(), op, "src", loc);
        bounds(c, dst_space, d.lo, d.bytes(), op, "dst", loc);
    }
    OpRecord r = cube_record(op, Pipe::MTE1, loc, uint64_t(l.repeat) * sq);
    r.read(Space::L1, l.repeat ? s.lo : src, s.bytes());
    r.write(dst_space, l.repeat ? d.lo : dst, d.bytes());
    r.elements = uint64_t(l.repeat) * n * n;
    dispatch(c, r);
    const uint8_t* sb = local(c, Space::L1);
    uint8_t* db = local(c, dst_space);
    std::vector<uint8_t> t(sq);
    const uint64_t e = uint64_t(elem_bytes), row = n * e;
    for (uint32_t i = 0; i < l.repeat; ++i) {
        const uint8_t* from = sb + src + (uint64_t(l.index) + uint64_t(i) * l.src_stride) * sq;
        // The square read row-major and written transposed, row-major: its
        // first 512 bytes form the first destination fractal.
        for (uint64_t a = 0; a < n; ++a)
            for (uint64_t b = 0; b < n; ++b) std::memcpy(&t[b * row + a * e], from + a * row + b * e, e);
        uint8_t* first = db + dst + uint64_t(i) * (l.dst_gap + 1) * kFractal;
        std::memcpy(first, t.data(), kFractal);
        if (halves == 2) std::memcpy(first + (uint64_t(l.dst_frac_gap) + 1) * kFractal, t.data() + kFractal, kFractal);
    }
}

void img2col(const SourceLoc& loc, const char* op, Space dst_space, uint64_t dst, uint64_t src, const Img2col& g,
             int elem_bytes) {
    Core& c = core();
    const int64_t e = elem_bytes, c0 = 32 / elem_bytes;
    const uint64_t fm = g.fmatrix_b ? c.fmatrix_b : c.fmatrix;
    const int64_t w = fm & 0xffff, h = (fm >> 16) & 0xffff;
    const int64_t pad_l = (fm >> 32) & 0xff, pad_r = (fm >> 40) & 0xff, pad_t = (fm >> 48) & 0xff, pad_b = fm >> 56;
    const int64_t kw = g.kw, kh = g.kh, dw = g.dil_w, dh = g.dil_h, sw = g.stride_w, sh = g.stride_h;
    auto fail = [&](const std::string& why) { fault(loc, std::string(op) + ": " + why); };
    if (w < 1 || h < 1) fail("FMATRIX holds no feature map (set_fmatrix" + std::string(g.fmatrix_b ? "_b" : "") + " first)");
    if (kw < 1 || kh < 1 || dw < 1 || dh < 1 || sw < 1 || sh < 1)
        fail("filter, dilation and stride must all be at least 1");
    const bool side_b = g.a5 && g.fmatrix_b;
    const uint64_t rpt = side_b ? a5_cube_reg(c, CubeReg::L3dRptB) : c.img2col_rpt;
    if (((rpt >> 16) & 0xff) > 1)
        fail(std::string(side_b ? "set_l3d_rpt_b" : "set_l3d_rpt") + " asks for " + std::to_string((rpt >> 16) & 0xff) +
             " repeats; ptosim simulates one (docs/intrinsics/load.md)");
    const int64_t oh = (h + pad_t + pad_b - dh * (kh - 1) - 1) / sh + 1;
    const int64_t ow = (w + pad_l + pad_r - dw * (kw - 1) - 1) / sw + 1;
    if (oh < 1 || ow < 1) fail("the filter does not fit the padded feature map");
    const int64_t channels = g.channels, c1 = (channels + c0 - 1) / c0;
    // The written matrix: the img2col matrix (step_m x step_k) or, with
    // transpose, its transpose; rows and columns rounded to whole fractals of
    // the destination's layout (L0A: 16 x C0 row-major; L0B: C0 x 16
    // column-major), fractals in row-major order.
    const bool l0a = dst_space == Space::L0A;
    const int64_t rows = g.transpose ? g.step_k : g.step_m, cols = g.transpose ? g.step_m : g.step_k;
    const int64_t fr = l0a ? 16 : c0, fc = l0a ? c0 : 16;
    const int64_t prow = (rows + fr - 1) / fr * fr, pcol = (cols + fc - 1) / fc * fc;
    const uint64_t out_bytes = uint64_t(prow * pcol * e);
    const uint64_t fmap_bytes = uint64_t(c1 * h * w * c0 * e);
    bounds(c, dst_space, dst, out_bytes, op, "dst", loc);
    bounds(c, Space::L1, src, fmap_bytes, op, "src", loc);
    OpRecord r = cube_record(op, Pipe::MTE1, loc, out_bytes);
    r.read(Space::L1, src, fmap_bytes);
    r.write(dst_space, dst, out_bytes);
    r.elements = uint64_t(prow * pcol);
    dispatch(c, r);
    const uint8_t* fmap = local(c, Space::L1) + src;
    uint8_t* out = local(c, dst_space) + dst;
    const uint64_t pad = side_b ? a5_cube_reg(c, CubeReg::PaddingB) : c.vec.pad_val;  // set_padding(_b)
    // M runs over output positions (oh, ow); K over (c1, kh, kw, c0), the
    // order of FRACTAL_Z weights (as ptolab's TIMG2COL). Both the source and
    // the destination offset of element (i, j) split into a part of the M
    // index and a part of the K index, and the destination's into a part of
    // i and a part of j: each part is worked out once per index, so the
    // element loop only adds and compares.
    struct MPart {
        int64_t iy, ix;  // the window's top-left in the padded map, less the padding
        bool image;      // the first image (the only one an img2col of one repeat reads)
    };
    struct KPart {
        int64_t dy, dx, src;  // the filter tap's offsets; the channel part of the source offset
        bool channel;         // a real channel, not C1 x C0's padding
    };
    thread_local std::vector<MPart> ms;
    thread_local std::vector<KPart> ks;
    thread_local std::vector<int64_t> row_off, col_off;
    const int64_t n_m = g.transpose ? pcol : prow, n_k = g.transpose ? prow : pcol;
    ms.resize(size_t(n_m));
    ks.resize(size_t(n_k));
    for (int64_t t = 0; t < n_m; ++t) {
        const int64_t mm = g.pos_m + t, y = mm % (oh * ow) / ow, x = mm % ow;
        ms[size_t(t)] = {y * sh - pad_t, x * sw - pad_l, mm / (oh * ow) == 0};
    }
    for (int64_t t = 0; t < n_k; ++t) {
        const int64_t kk = g.pos_k + t;
        const int64_t ci0 = kk % c0, kx = kk / c0 % kw, ky = kk / c0 / kw % kh, ci1 = kk / c0 / kw / kh;
        ks[size_t(t)] = {ky * dh, kx * dw, ci1 * h * w * c0 + ci0, ci1 < c1 && ci1 * c0 + ci0 < channels};
    }
    // The destination: fractals of fr x fc, each 512 bytes, in row-major
    // order (A5's L0A: column-major, Nz); L0A's fractals are row-major
    // inside, L0B's column-major.
    const int64_t frac_elems = 512 / e;
    row_off.resize(size_t(prow));
    col_off.resize(size_t(pcol));
    for (int64_t i = 0; i < prow; ++i)
        row_off[size_t(i)] = !l0a  ? (i / c0) * (pcol / 16) * frac_elems + i % c0
                             : g.a5 ? (i / 16) * frac_elems + (i % 16) * c0
                                    : (i / 16) * (pcol / c0) * frac_elems + (i % 16) * c0;
    for (int64_t j = 0; j < pcol; ++j)
        col_off[size_t(j)] = !l0a  ? (j / 16) * frac_elems + (j % 16) * c0
                             : g.a5 ? (j / c0) * (prow / 16) * frac_elems + j % c0
                                    : (j / c0) * frac_elems + j % c0;
    // The K index runs along a destination row without transpose and down
    // a destination column with it. Consecutive K indices of one filter tap
    // and real channels are consecutive in the feature map; where their
    // destination offsets are consecutive too (L0A's C0-wide fractal rows,
    // L0B's C0-tall fractal columns) the stretch is one copy or one padding.
    // run[t]: how many K indices from t on form such a stretch (1: none).
    const int64_t* const k_off = g.transpose ? row_off.data() : col_off.data();
    thread_local std::vector<int32_t> runs;
    runs.assign(size_t(n_k), 1);
    for (int64_t t = n_k - 2; t >= 0; --t) {
        const KPart &a = ks[size_t(t)], &b = ks[size_t(t + 1)];
        if (a.channel && b.channel && a.dy == b.dy && a.dx == b.dx && b.src == a.src + 1 && k_off[t + 1] == k_off[t] + 1)
            runs[size_t(t)] = runs[size_t(t + 1)] + 1;
    }
    // The tables by address, found once: a thread_local's address costs a
    // call in a shared library.
    const MPart* const mp = ms.data();
    const KPart* const kp = ks.data();
    const int32_t* const run = runs.data();
    const int64_t* const m_off = g.transpose ? col_off.data() : row_off.data();
    const auto fill = [&](auto elem) {
        using E = decltype(elem);
        E pad_e;
        std::memcpy(&pad_e, &pad, sizeof(E));
        // Element (M index u, K index t); the destinations of distinct
        // elements are distinct and the source is another buffer, so the
        // order of the writes does not matter: M outer, K inner.
        for (int64_t u = 0; u < n_m; ++u) {
            const MPart& m = mp[u];
            uint8_t* const row = out + m_off[u] * e;
            for (int64_t t = 0; t < n_k; ++t) {
                const KPart& k = kp[t];
                const int64_t iy = m.iy + k.dy, ix = m.ix + k.dx;
                const bool inside = m.image && iy >= 0 && iy < h && ix >= 0 && ix < w;
                uint8_t* const to = row + k_off[t] * e;
                if (const int64_t n = run[t]; n > 1) {
                    if (inside) std::memcpy(to, fmap + ((iy * w + ix) * c0 + k.src) * e, size_t(n * e));
                    else
                        for (int64_t q = 0; q < n; ++q) std::memcpy(to + q * e, &pad_e, sizeof(E));
                    t += n - 1;
                    continue;
                }
                E v = pad_e;
                if (inside && k.channel) std::memcpy(&v, fmap + ((iy * w + ix) * c0 + k.src) * e, sizeof(E));
                std::memcpy(to, &v, sizeof(E));
            }
        }
    };
    if (e == 1) fill(uint8_t{});
    else if (e == 2) fill(uint16_t{});
    else fill(uint32_t{});
}

void set_cube_reg(const SourceLoc& loc, const char* op, CubeReg reg, uint64_t v) {
    Core& c = core();
    dispatch(c, cube_record(op, Pipe::S, loc, 0));
    switch (reg) {
    case CubeReg::Fmatrix: c.fmatrix = v; break;
    case CubeReg::FmatrixB: c.fmatrix_b = v; break;
    case CubeReg::L3dRpt: c.img2col_rpt = v; break;
    case CubeReg::QuantPre: c.quant_pre = v; break;
    case CubeReg::Fpc: c.fpc = v; break;
    case CubeReg::NdPara: c.nd_para = v; break;
    case CubeReg::Mte2NzPara: case CubeReg::ChannelPara: case CubeReg::L3dRptB: case CubeReg::PaddingB:
        set_a5_cube_reg(c, reg, v);
        break;
    }
}

}  // namespace ptosim::cce
