// A2A3's VA-register transposes (docs/intrinsics/transpose.md): 16 source
// blocks, each a row, become 16 destination blocks, each a column.
#include "repeat.hpp"

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
    for (uint32_t rr = 0; rr < repeat; ++rr)
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
