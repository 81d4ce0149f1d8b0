// A2A3's VA-register transposes (docs/intrinsics/transpose.md): 16 source
// blocks, each a row, become 16 destination blocks, each a column.
#include "repeat.hpp"

#include <ptosim/transpose.hpp>

#include <string>

namespace ptosim::cce {
using detail::kBlock;

namespace {
// Four 32-bit words in one vector register (GCC's and clang's vector
// extension; plain SSE2 shuffles on x86-64).
using Words4 = uint32_t __attribute__((vector_size(16)));
// w[q][c] becomes w[c][q].
inline void transpose4(Words4 w[4]) {
    const Words4 t0 = __builtin_shufflevector(w[0], w[1], 0, 4, 1, 5), t1 = __builtin_shufflevector(w[0], w[1], 2, 6, 3, 7);
    const Words4 t2 = __builtin_shufflevector(w[2], w[3], 0, 4, 1, 5), t3 = __builtin_shufflevector(w[2], w[3], 2, 6, 3, 7);
    w[0] = __builtin_shufflevector(t0, t2, 0, 1, 4, 5);
    w[1] = __builtin_shufflevector(t0, t2, 2, 3, 6, 7);
    w[2] = __builtin_shufflevector(t1, t3, 0, 1, 4, 5);
    w[3] = __builtin_shufflevector(t1, t3, 2, 3, 6, 7);
}

// The address lists pto-isa's TTRANS builds (include/pto/npu/a2a3/TTrans.hpp
// in pto-isa): 16 source rows a fixed pitch apart and destination blocks
// that make a row-major matrix of their own, so that a repeat is one
// transposition of a 16 x 8 (b32) or 16 x 16 (b16) matrix of elements; with
// the repeats stepping 16 source rows down and the next columns of the
// destination, the whole instruction is one transposition of 16 * repeat
// rows. When the lists have that form and no destination byte is a source
// byte (the instruction's source and destination spans apart), the
// transpositions go through ptosim::transpose (8 x 8 register transposes of
// 4-byte elements on AVX hosts), in repeat order, and give the bytes the
// block loop below gives: every destination block is written once per repeat
// with the same source bytes. False: the block loop runs.
bool regular_transpose(uint8_t* ub, int bits, const uint64_t dst[16], const uint64_t src[16], uint32_t repeat,
                       uint16_t dst_stride, uint16_t src_stride, const uint64_t lo[2], const uint64_t hi[2]) {
    if (bits != 32 && bits != 16) return false;
    if (!(hi[0] <= lo[1] || hi[1] <= lo[0])) return false;
    const uint64_t size = uint64_t(bits) / 8;
    // Source row i at src[0] + i * sp; destination row q (of `cols` elements,
    // two blocks each for b32, one for b16) at dst[0] + q * dp.
    const uint64_t sp = src[1] - src[0];
    const int cols = bits == 32 ? 8 : 16;  // destination rows: the source's columns
    const uint64_t row_bytes = 16 * size;  // a destination row of a repeat: 16 elements
    const uint64_t dp = bits == 32 ? dst[2] - dst[0] : dst[1] - dst[0];
    if (src[1] < src[0] || sp % size != 0 || dst[bits == 32 ? 2 : 1] < dst[0] || dp % size != 0 || dp < row_bytes)
        return false;
    for (int i = 0; i < 16; ++i) {
        if (src[i] != src[0] + uint64_t(i) * sp) return false;
        const uint64_t want = bits == 32 ? dst[0] + uint64_t(i / 2) * dp + uint64_t(i % 2) * kBlock : dst[0] + uint64_t(i) * dp;
        if (dst[i] != want) return false;
    }
    const uint64_t src_step = uint64_t(src_stride) * kBlock, dst_step = uint64_t(dst_stride) * kBlock;
    // Repeat r + 1 continues repeat r: 16 source rows further down, the next
    // 16 elements of every destination row, and the rows do not meet.
    if (repeat > 1 && src_step == 16 * sp && dst_step == row_bytes && dp >= row_bytes * repeat) {
        ptosim::transpose(ub + dst[0], ub + src[0], static_cast<int>(16 * repeat), cols, dp / size, sp / size, bits / 8);
        return true;
    }
    for (uint32_t rr = 0; rr < repeat; ++rr)
        ptosim::transpose(ub + dst[0] + rr * dst_step, ub + src[0] + rr * src_step, 16, cols, dp / size, sp / size, bits / 8);
    return true;
}
}  // namespace

void set_va_reg_sb(const SourceLoc& loc, int reg, const uint64_t addrs[8]) {
    Core& c = core();
    if (reg < 0 || reg > 7) fault(loc, "set_va_reg_sb: VA" + std::to_string(reg) + " does not exist (VA0..VA7)");
    OpRecord r;
    r.op = "set_va_reg_sb";
    r.pipe = Pipe::S;
    r.loc = loc;
    dispatch(c, r);
    for (int i = 0; i < 8; ++i) c.vec.va[reg][i] = addrs[i];
}

void scatter_vnchwconv(const SourceLoc& loc, int bits, int dst_va, int src_va, uint32_t repeat, uint16_t dst_stride,
                       uint16_t src_stride, bool dst_high, bool src_high) {
    Core& c = core();
    const char* op = bits == 8 ? "scatter_vnchwconv_b8" : bits == 16 ? "scatter_vnchwconv_b16" : "scatter_vnchwconv_b32";
    if (dst_va < 0 || dst_va > 6 || src_va < 0 || src_va > 6)
        fault(loc, std::string(op) + ": the address lists are VA pairs starting at VA0..VA6");
    // The 16 addresses of each side: VAn's eight, then VAn+1's.
    uint64_t dst[16], src[16];
    for (int i = 0; i < 16; ++i) {
        dst[i] = c.vec.va[dst_va + i / 8][i % 8];
        src[i] = c.vec.va[src_va + i / 8][i % 8];
    }
    // Bytes each block contributes: b8 a half block (16 bytes), else whole.
    const uint64_t part = bits == 8 ? 16 : kBlock;
    const uint64_t src_part = bits == 8 && src_high ? 16 : 0, dst_part = bits == 8 && dst_high ? 16 : 0;
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::V;
    r.loc = loc;
    r.elements = uint64_t(repeat) * 16 * part * 8 / bits;
    r.bytes = uint64_t(repeat) * 16 * part;
    // Each side is recorded as the one span from its lowest block to its
    // highest: a record holds a few accesses, not 16 per repeat.
    uint64_t lo[2] = {~uint64_t{0}, ~uint64_t{0}}, hi[2] = {0, 0}, last[2] = {0, 0};
    // Each repeat moves every block of a side by the same stride: the lowest
    // block is the lowest of the first repeat, the last-starting one the
    // highest of the last repeat. Worked out from the 16 addresses when no
    // sum can wrap around (addresses below 2^48), else block by block.
    uint64_t top = 0;
    for (int i = 0; i < 16; ++i) top = std::max({top, src[i], dst[i]});
    const bool no_wrap = top < (uint64_t{1} << 48);
    if (repeat && no_wrap) {
        uint64_t first[2] = {~uint64_t{0}, ~uint64_t{0}}, high[2] = {0, 0};
        for (int i = 0; i < 16; ++i) {
            first[0] = std::min(first[0], src[i]), high[0] = std::max(high[0], src[i]);
            first[1] = std::min(first[1], dst[i]), high[1] = std::max(high[1], dst[i]);
        }
        const uint64_t steps = uint64_t(repeat - 1) * kBlock;
        lo[0] = first[0] + src_part, last[0] = high[0] + steps * src_stride + src_part, hi[0] = last[0] + part;
        lo[1] = first[1] + dst_part, last[1] = high[1] + steps * dst_stride + dst_part, hi[1] = last[1] + part;
    }
    for (uint32_t rr = 0; rr < repeat && !no_wrap; ++rr)
        for (int i = 0; i < 16; ++i) {
            const uint64_t s = src[i] + uint64_t(rr) * src_stride * kBlock + src_part;
            const uint64_t d = dst[i] + uint64_t(rr) * dst_stride * kBlock + dst_part;
            lo[0] = std::min(lo[0], s), hi[0] = std::max(hi[0], s + part), last[0] = std::max(last[0], s);
            lo[1] = std::min(lo[1], d), hi[1] = std::max(hi[1], d + part), last[1] = std::max(last[1], d);
        }
    // Every block lies in UB when the last-starting one of each side does;
    // else the block-by-block checks find the first block outside and name
    // it, in the order the repeats visit them (one check per block cost more
    // than the transpose).
    const uint64_t ub_size = c.mem_size[static_cast<int>(Space::UB)];
    const auto inside = [ub_size, part](uint64_t start) { return start <= ub_size && part <= ub_size - start; };
    if (repeat && !(ub_size != 0 && inside(last[0]) && inside(last[1])))
        for (uint32_t rr = 0; rr < repeat; ++rr)
            for (int i = 0; i < 16; ++i) {
                check_local(c, Space::UB, src[i] + uint64_t(rr) * src_stride * kBlock + src_part, part, op, "src", loc);
                check_local(c, Space::UB, dst[i] + uint64_t(rr) * dst_stride * kBlock + dst_part, part, op, "dst", loc);
            }
    if (repeat) {
        r.read(Space::UB, lo[0], hi[0] - lo[0]);
        r.write(Space::UB, lo[1], hi[1] - lo[1]);
    }
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    if (repeat && regular_transpose(ub, bits, dst, src, repeat, dst_stride, src_stride, lo, hi)) return;
    const int size = bits / 8;
    // A block's part as a copy of constant size: whole blocks or halves.
    const auto copy_part = [part](uint8_t* to, const uint8_t* from) {
        if (part == kBlock) std::memcpy(to, from, kBlock);
        else std::memcpy(to, from, 16);
    };
    for (uint32_t rr = 0; rr < repeat; ++rr) {
        // Read every source block before writing: the lists may overlap.
        uint8_t in[16][32], out[16][32];
        for (int i = 0; i < 16; ++i) copy_part(in[i], ub + src[i] + uint64_t(rr) * src_stride * kBlock + src_part);
        if (bits == 32) {
            // 16 rows of 8 words become 8 rows of 16: destination block j holds
            // column j / 2 of source rows (j % 2) * 8 .. + 8. Two 8 x 8
            // transposes, each as four 4 x 4 ones of 16-byte vectors.
            for (int h = 0; h < 2; ++h)
                for (int kg = 0; kg < 2; ++kg)
                    for (int cg = 0; cg < 2; ++cg) {
                        Words4 w[4];
                        for (int q = 0; q < 4; ++q) std::memcpy(&w[q], in[h * 8 + kg * 4 + q] + cg * 16, 16);
                        transpose4(w);
                        for (int q = 0; q < 4; ++q) std::memcpy(out[2 * (cg * 4 + q) + h] + kg * 16, &w[q], 16);
                    }
        } else {
            // A 16 x 16 matrix of bytes (b8) or halves (b16): block j is column j.
            for (int j = 0; j < 16; ++j)
                for (int k = 0; k < 16; ++k) std::memcpy(out[j] + k * size, in[k] + j * size, size);
        }
        for (int j = 0; j < 16; ++j) copy_part(ub + dst[j] + uint64_t(rr) * dst_stride * kBlock + dst_part, out[j]);
    }
}

}  // namespace ptosim::cce
