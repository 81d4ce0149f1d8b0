// A5's 2-D loads from L1 into L0A/L0B (load_cbuf_to_ca/cb with start
// positions and steps, CANN asc_copy_l12l0a/b for the 3510 architecture):
// whole 512-byte fractals, or the region transposed
// (docs/intrinsics/a5-cube.md, "L1 -> L0A/L0B"); and the MX scale loads
// load_cbuf_to_ca_mx/cb_mx into the L0A/L0B scale stores ("MX").
#include "../cube.hpp"

#include <string>

namespace ptosim::cce {
using namespace detail;

void load_2d_a5(const SourceLoc& loc, const char* op, Space dst_space, uint64_t dst, uint64_t src, const Load2dA5& l,
                int elem_bits) {
    Core& c = core();
    const auto fail = [&](const std::string& why) { fault(loc, std::string(op) + ": " + why); };
    const uint64_t bits = static_cast<uint64_t>(elem_bits);
    const uint64_t c0 = 256 / bits;  // elements in a 32-byte fractal row
    const uint64_t ms = l.m_step, ks = l.k_step;
    if (l.transpose) {
        // The transposed region's rows (k) and columns (m) must fill whole
        // 16-row fractals of 32-byte rows: the reference's step constraints
        // (m_step a multiple of 2 for 8-bit, k_step of 2 for 32-bit).
        if ((ms * 16) % c0 != 0)
            fail("transposing " + std::to_string(elem_bits) + "-bit elements needs m_step a multiple of " +
                 std::to_string(c0 / 16) + ", got " + std::to_string(ms));
        if ((ks * c0) % 16 != 0)
            fail("transposing " + std::to_string(elem_bits) + "-bit elements needs k_step a multiple of " +
                 std::to_string(16 / c0) + ", got " + std::to_string(ks));
    }
    const bool any = ms && ks;
    // Source fractals: (k_start + k) * src_stride + m_start + m.
    const uint64_t src_lo = src + (uint64_t(l.k_start) * l.src_stride + l.m_start) * kFractal;
    const uint64_t src_hi = any ? src + ((l.k_start + ks - 1) * l.src_stride + l.m_start + ms) * kFractal : src_lo;
    // Destination fractals: plain, k * dst_stride + m; transposed, the
    // (k_step C0) x (m_step 16) result in column blocks of C0 elements.
    const uint64_t dst_cols = l.transpose ? ms * 16 / c0 : ks, dst_rows = l.transpose ? ks * c0 / 16 : ms;
    const uint64_t dst_hi = any ? dst + ((dst_cols - 1) * l.dst_stride + dst_rows) * kFractal : dst;
    if (any) {
        bounds(c, Space::L1, src_lo, src_hi - src_lo, op, "src (L1)", loc);
        bounds(c, dst_space, dst, dst_hi - dst, op, dst_space == Space::L0A ? "dst (L0A)" : "dst (L0B)", loc);
    }
    OpRecord r = cube_record(op, Pipe::MTE1, loc, ms * ks * kFractal);
    if (any) {
        r.read(Space::L1, src_lo, src_hi - src_lo);
        r.write(dst_space, dst, dst_hi - dst);
    }
    r.elements = ms * ks * kFractal * 8 / bits;
    dispatch(c, r);
    if (!any) return;
    const uint8_t* s = local(c, Space::L1) + src;
    uint8_t* d = local(c, dst_space) + dst;
    if (!l.transpose) {
        for (uint64_t k = 0; k < ks; ++k)
            for (uint64_t m = 0; m < ms; ++m)
                std::memmove(d + (k * l.dst_stride + m) * kFractal,
                             s + ((l.k_start + k) * l.src_stride + l.m_start + m) * kFractal, kFractal);
        return;
    }
    // Source element (row i, column j) of the region; destination element
    // (row j, column i). Offsets in elements of `bits` bits.
    const uint64_t rows = ms * 16, cols = ks * c0, per_fractal = kFractal * 8 / bits;
    if (bits == 8 || bits == 16 || bits == 32) {
        // Whole elements: the same mapping with shifts (c0 and a fractal's
        // element count are powers of two) and moves of a fixed size, where
        // the general loop below divided and called memcpy per element
        // (most of pto-isa's A5 matmuls' L1 -> L0B time). Source and
        // destination are different buffers, so the order does not matter.
        const int c0s = __builtin_ctzll(c0), pfs = __builtin_ctzll(per_fractal);
        const auto move = [&](auto unit) {
            using T = decltype(unit);
            for (uint64_t i = 0; i < rows; ++i) {
                const uint64_t from_i = (l.m_start + (i >> 4)) * per_fractal + ((i & 15) << c0s);
                const uint64_t to_i = ((i >> c0s) * l.dst_stride << pfs) + (i & (c0 - 1));
                for (uint64_t j = 0; j < cols; ++j) {
                    const uint64_t from = ((l.k_start + (j >> c0s)) * l.src_stride << pfs) + from_i + (j & (c0 - 1));
                    const uint64_t to = to_i + ((j >> 4) << pfs) + ((j & 15) << c0s);
                    T v;
                    std::memcpy(&v, s + from * sizeof(T), sizeof(T));
                    std::memcpy(d + to * sizeof(T), &v, sizeof(T));
                }
            }
        };
        if (bits == 8) move(uint8_t{});
        else if (bits == 16) move(uint16_t{});
        else move(uint32_t{});
        return;
    }
    auto get = [&](uint64_t at) -> uint32_t {
        if (bits == 4) return (s[at / 2] >> (4 * (at % 2))) & 0xf;
        uint32_t v = 0;
        std::memcpy(&v, s + at * bits / 8, bits / 8);
        return v;
    };
    auto put = [&](uint64_t at, uint32_t v) {
        if (bits == 4) {
            uint8_t& b = d[at / 2];
            b = static_cast<uint8_t>((b & ~(0xf << (4 * (at % 2)))) | (v << (4 * (at % 2))));
            return;
        }
        std::memcpy(d + at * bits / 8, &v, bits / 8);
    };
    for (uint64_t i = 0; i < rows; ++i)
        for (uint64_t j = 0; j < cols; ++j) {
            const uint64_t from =
                ((l.k_start + j / c0) * l.src_stride + l.m_start + i / 16) * per_fractal + (i % 16) * c0 + j % c0;
            const uint64_t to = ((i / c0) * l.dst_stride + j / 16) * per_fractal + (j % 16) * c0 + i % c0;
            put(to, get(from));
        }
}

// load_cbuf_to_ca_mx / load_cbuf_to_cb_mx: whole 32-byte scale boxes.
void load_mx_scales(const SourceLoc& loc, const char* op, Space dst_space, uint64_t dst, uint64_t src,
                    const LoadMx& l) {
    Core& c = core();
    constexpr uint64_t kBox = 32;
    const uint64_t rows = l.row_step, cols = l.col_step;
    const bool any = rows && cols;
    const uint64_t src_lo = src + (uint64_t(l.row_start) * l.src_stride + l.col_start) * kBox;
    const uint64_t src_bytes = any ? ((rows - 1) * l.src_stride + cols) * kBox : 0;
    const uint64_t dst_bytes = any ? ((rows - 1) * l.dst_stride + cols) * kBox : 0;
    const char* dst_name = dst_space == Space::L0AMX ? "dst (L0A scale store)" : "dst (L0B scale store)";
    if (any) {
        bounds(c, Space::L1, src_lo, src_bytes, op, "src (L1)", loc);
        bounds(c, dst_space, dst, dst_bytes, op, dst_name, loc);
    }
    OpRecord r = cube_record(op, Pipe::MTE1, loc, rows * cols * kBox);
    if (any) {
        r.read(Space::L1, src_lo, src_bytes);
        r.write(dst_space, dst, dst_bytes);
    }
    r.elements = rows * cols * kBox;
    dispatch(c, r);
    if (!any) return;
    const uint8_t* s = local(c, Space::L1) + src_lo;
    uint8_t* d = local(c, dst_space) + dst;
    for (uint64_t i = 0; i < rows; ++i)
        for (uint64_t j = 0; j < cols; ++j)
            std::memmove(d + (i * l.dst_stride + j) * kBox, s + (i * l.src_stride + j) * kBox, kBox);
}

}  // namespace ptosim::cce
