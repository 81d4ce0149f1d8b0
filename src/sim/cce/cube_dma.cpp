// A2A3's DMA into and out of L1: GM <-> L1 bursts, GM -> L1 with the ND -> NZ
// conversion, and L1 -> the bias table and the fixpipe buffer
// (docs/intrinsics/dma-cube.md).
#include "cube.hpp"

#include <algorithm>

namespace ptosim::cce {
using namespace detail;

namespace {
constexpr uint64_t kBlock = 32;

struct Pitches {
    uint64_t len, src, dst;
    uint64_t src_bytes(uint32_t n) const { return n ? (n - 1) * src + len : 0; }
    uint64_t dst_bytes(uint32_t n) const { return n ? (n - 1) * dst + len : 0; }
};
Pitches pitches(const Burst& b, uint64_t unit) {
    const uint64_t len = uint64_t(b.len) * unit;
    return {len, len + uint64_t(b.src_gap) * unit, len + uint64_t(b.dst_gap) * unit};
}
}  // namespace

void copy_gm_to_l1(const SourceLoc& loc, const char* op, uint64_t l1, const void* gm, const Burst& b) {
    Core& c = core();
    const Pitches p = pitches(b, kBlock);
    bounds(c, Space::L1, l1, p.dst_bytes(b.n), op, "dst", loc);
    const auto* src = static_cast<const uint8_t*>(gm);
    check_gm_bursts(src, b.n, p.src, p.len, op, loc);
    OpRecord r = cube_record(op, Pipe::MTE2, loc, uint64_t(b.n) * p.len);
    r.write(Space::L1, l1, p.dst_bytes(b.n));
    r.read(Space::GM, reinterpret_cast<uintptr_t>(gm), p.src_bytes(b.n));
    dispatch(c, r);
    uint8_t* dst = local(c, Space::L1) + l1;
    for (uint32_t i = 0; i < b.n; ++i) std::memcpy(dst + i * p.dst, src + i * p.src, p.len);
}

void copy_l1_to_gm(const SourceLoc& loc, const char* op, void* gm, uint64_t l1, const Burst& b) {
    Core& c = core();
    const Pitches p = pitches(b, kBlock);
    bounds(c, Space::L1, l1, p.src_bytes(b.n), op, "src", loc);
    auto* dst = static_cast<uint8_t*>(gm);
    check_gm_bursts(dst, b.n, p.dst, p.len, op, loc);
    OpRecord r = cube_record(op, Pipe::MTE3, loc, uint64_t(b.n) * p.len);
    r.read(Space::L1, l1, p.src_bytes(b.n));
    r.write(Space::GM, reinterpret_cast<uintptr_t>(gm), p.dst_bytes(b.n));
    dispatch(c, r);
    const uint8_t* src = local(c, Space::L1) + l1;
    for (uint32_t i = 0; i < b.n; ++i) std::memcpy(dst + i * p.dst, src + i * p.src, p.len);
}

void copy_gm_to_l1_nd2nz(const SourceLoc& loc, const char* op, uint64_t l1, const void* gm, const Nd2Nz& z,
                         int elem_bytes) {
    Core& c = core();
    const uint64_t e = static_cast<uint64_t>(elem_bytes);
    const uint64_t row = uint64_t(z.d) * e;                 // bytes of one GM row
    const uint64_t blocks = (row + kBlock - 1) / kBlock;    // C0 blocks it fills
    const bool any = z.nd_num && z.n && z.d;
    // Every stride is unsigned, so the last block of the last row of the last
    // matrix ends each side's span.
    const uint64_t dst_bytes = any ? (z.nd_num - 1) * z.dst_nd_stride * e + (z.n - 1) * z.dst_n_stride * kBlock +
                                         (blocks - 1) * z.dst_c0_stride * kBlock + kBlock
                                   : 0;
    const uint64_t src_bytes = any ? (z.nd_num - 1) * z.src_nd_stride * e + (z.n - 1) * z.src_d * e + row : 0;
    bounds(c, Space::L1, l1, dst_bytes, op, "dst", loc);
    const auto* src = static_cast<const uint8_t*>(gm);
    if (any)
        for (uint32_t i = 0; i < z.nd_num; ++i)
            check_gm(src + i * z.src_nd_stride * e, (z.n - 1) * z.src_d * e + row, op, loc);
    OpRecord r = cube_record(op, Pipe::MTE2, loc, any ? uint64_t(z.nd_num) * z.n * row : 0);
    r.write(Space::L1, l1, dst_bytes);
    r.read(Space::GM, reinterpret_cast<uintptr_t>(gm), src_bytes);
    r.elements = any ? uint64_t(z.nd_num) * z.n * z.d : 0;
    dispatch(c, r);
    if (!any) return;
    uint8_t* base = local(c, Space::L1) + l1;
    for (uint32_t i = 0; i < z.nd_num; ++i)
        for (uint32_t j = 0; j < z.n; ++j) {
            const uint8_t* s = src + i * z.src_nd_stride * e + uint64_t(j) * z.src_d * e;
            uint8_t* d = base + i * z.dst_nd_stride * e + uint64_t(j) * z.dst_n_stride * kBlock;
            for (uint64_t k = 0; k < blocks; ++k) {
                uint8_t* blk = d + k * z.dst_c0_stride * kBlock;
                const uint64_t n = std::min(kBlock, row - k * kBlock);
                std::memcpy(blk, s + k * kBlock, n);
                // A row that ends inside a C0 block is padded with zeros to
                // its end (CANN's copy_gm_to_cbuf_multi_nd2nz reference).
                std::memset(blk + n, 0, kBlock - n);
            }
        }
}

void fill_l1(const SourceLoc& loc, const char* op, uint64_t l1, uint64_t config, uint64_t value, int elem_bytes) {
    Core& c = core();
    const uint64_t repeat = config & 0x7fff, blocks = (config >> 16) & 0x7fff, gap = (config >> 32) & 0x7fff;
    const uint64_t len = blocks * kBlock, pitch = len + gap * kBlock;
    const uint64_t span = repeat && blocks ? (repeat - 1) * pitch + len : 0;
    bounds(c, Space::L1, l1, span, op, "dst", loc);
    OpRecord r = cube_record(op, Pipe::MTE2, loc, repeat * len);
    r.write(Space::L1, l1, span);
    r.elements = repeat * len / elem_bytes;
    dispatch(c, r);
    uint8_t* base = local(c, Space::L1) + l1;
    for (uint64_t i = 0; i < repeat; ++i)
        for (uint64_t e = 0; e < len; e += elem_bytes) std::memcpy(base + i * pitch + e, &value, elem_bytes);
}

void copy_l1_to_bt(const SourceLoc& loc, const char* op, uint64_t bt, uint64_t l1, const Burst& b, BtWiden widen_as,
                   const L1MoveUnits& u) {
    Core& c = core();
    // The source's burst and gap in bytes; widening doubles the burst on the
    // bias table side.
    const Pitches p{uint64_t(b.len) * u.len, uint64_t(b.len) * u.len + uint64_t(b.src_gap) * u.src_gap, 0};
    const uint64_t widen = widen_as == BtWiden::None ? 1 : 2;
    const Pitches q{p.len * widen, p.src, p.len * widen + uint64_t(b.dst_gap) * u.dst_gap};
    bounds(c, Space::L1, l1, p.src_bytes(b.n), op, "src", loc);
    bounds(c, Space::BT, bt, q.dst_bytes(b.n), op, "dst", loc);
    OpRecord r = cube_record(op, Pipe::MTE1, loc, uint64_t(b.n) * p.len);
    r.read(Space::L1, l1, p.src_bytes(b.n));
    r.write(Space::BT, bt, q.dst_bytes(b.n));
    dispatch(c, r);
    const uint8_t* src = local(c, Space::L1) + l1;
    uint8_t* dst = local(c, Space::BT) + bt;
    for (uint32_t i = 0; i < b.n; ++i) {
        const uint8_t* s = src + i * p.src;
        uint8_t* d = dst + i * q.dst;
        if (widen_as == BtWiden::None) {
            std::memcpy(d, s, p.len);
            continue;
        }
        for (uint64_t k = 0; k < p.len / 2; ++k) {
            const uint16_t h = ld<uint16_t>(s + 2 * k);
            if (widen_as == BtWiden::F16) st<float>(d + 4 * k, half_bits_to_float(h));
            else st<uint32_t>(d + 4 * k, uint32_t(h) << 16);  // bfloat16 widens exactly
        }
    }
}

void copy_l1_to_fb(const SourceLoc& loc, const char* op, uint64_t fb, uint64_t l1, const Burst& b,
                   const L1MoveUnits& u) {
    Core& c = core();
    const Pitches p{uint64_t(b.len) * u.len, uint64_t(b.len) * u.len + uint64_t(b.src_gap) * u.src_gap,
                    uint64_t(b.len) * u.len + uint64_t(b.dst_gap) * u.dst_gap};
    bounds(c, Space::L1, l1, p.src_bytes(b.n), op, "src", loc);
    bounds(c, Space::FB, fb, p.dst_bytes(b.n), op, "dst", loc);
    OpRecord r = cube_record(op, Pipe::FIX, loc, uint64_t(b.n) * p.len);
    r.read(Space::L1, l1, p.src_bytes(b.n));
    r.write(Space::FB, fb, p.dst_bytes(b.n));
    dispatch(c, r);
    const uint8_t* src = local(c, Space::L1) + l1;
    uint8_t* dst = local(c, Space::FB) + fb;
    for (uint32_t i = 0; i < b.n; ++i) std::memcpy(dst + i * p.dst, src + i * p.src, p.len);
}

}  // namespace ptosim::cce
