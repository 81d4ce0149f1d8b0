// A2A3's sorts (docs/intrinsics/sort.md): vbitsort orders 32 scores a repeat
// into (score, index) structures, largest first; vmrgsort4 merges up to four
// such lists; get_vms4_sr reads how much of each list a merge took.
#include "repeat.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace ptosim::cce {
namespace {
using namespace detail;

constexpr uint64_t kStruct = 8;  // a (score, index) structure, whatever the score's width

// The order of scores: their bits read as sign and magnitude, so +NaN ranks
// above +inf and -NaN below -inf (not documented; pto-isa's TSORT32 pads a
// row's tail with -NaN and expects it last), and -0 ties with +0.
int64_t rank(const uint8_t* score, int size) {
    uint32_t bits = 0;
    std::memcpy(&bits, score, size);
    const uint32_t sign = size == 4 ? bits >> 31 : bits >> 15;
    const int64_t magnitude = size == 4 ? bits & 0x7fffffffu : bits & 0x7fffu;
    return sign ? -magnitude : magnitude;
}

OpRecord sort_record(const char* op, Dt d, uint64_t structures, const SourceLoc& loc) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::V;
    r.dtype = to_string(d);
    r.loc = loc;
    r.elements = structures;
    r.bytes = structures * kStruct;
    r.flops = structures;
    return r;
}

}  // namespace

void vbitsort(const SourceLoc& loc, Dt d, uint64_t dst, uint64_t src, uint64_t idx, uint32_t repeat) {
    Core& c = core();
    const int size = size_of(d);
    OpRecord r = sort_record("vbitsort", d, uint64_t(repeat) * 32, loc);
    r.write(Space::UB, dst, record_span(c, repeat, dst, 32 * kStruct, 32 * kStruct, "vbitsort", "dst", loc).bytes);
    r.read(Space::UB, src, record_span(c, repeat, src, 32 * size, 32 * size, "vbitsort", "src", loc).bytes);
    r.read(Space::UB, idx, record_span(c, repeat, idx, 128, 128, "vbitsort", "idx", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    for (uint32_t rr = 0; rr < repeat; ++rr) {
        const uint8_t* s = ub + src + uint64_t(rr) * 32 * size;
        uint32_t order[32];
        for (uint32_t i = 0; i < 32; ++i) order[i] = i;
        // Equal scores keep their input order (the reference: the lower index first).
        std::stable_sort(order, order + 32,
                         [&](uint32_t a, uint32_t b) { return rank(s + a * size, size) > rank(s + b * size, size); });
        uint8_t out[32 * kStruct] = {};  // a 16-bit score's two reserved bytes are zero (not documented)
        for (uint32_t k = 0; k < 32; ++k) {
            std::memcpy(out + k * kStruct, s + order[k] * size, size);
            std::memcpy(out + k * kStruct + 4, ub + idx + uint64_t(rr) * 128 + order[k] * 4, 4);
        }
        std::memcpy(ub + dst + uint64_t(rr) * 32 * kStruct, out, sizeof out);
    }
}

void vmrgsort4(const SourceLoc& loc, Dt d, uint64_t dst, const uint64_t src[4], uint64_t count, uint64_t config) {
    Core& c = core();
    const char* op = "vmrgsort4";
    const int size = size_of(d);
    const uint32_t repeat = config & 0xff, valid = config >> 8 & 0xf;
    const bool stop_when_exhausted = (config >> 12 & 1) != 0;
    uint64_t len[4], total = 0;
    for (int l = 0; l < 4; ++l) {
        len[l] = valid >> l & 1 ? count >> (16 * l) & 0xffff : 0;
        total += len[l];
    }
    // Each further repeat merges the next four lists: every source and the
    // destination step by the structures of one merge.
    const uint64_t step = total * kStruct;
    OpRecord r = sort_record(op, d, uint64_t(repeat) * total, loc);
    r.write(Space::UB, dst, record_span(c, repeat, dst, step, step, op, "dst", loc).bytes);
    for (int l = 0; l < 4; ++l)
        if (len[l]) r.read(Space::UB, src[l], record_span(c, repeat, src[l], step, len[l] * kStruct, op, "src", loc).bytes);
    dispatch(c, r);
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    std::vector<uint8_t> out(step);
    uint64_t taken[4] = {0, 0, 0, 0};
    for (uint32_t rr = 0; rr < repeat; ++rr) {
        std::fill(taken, taken + 4, 0);
        uint64_t n = 0;
        for (;;) {
            int best = -1;
            int64_t best_rank = 0;
            for (int l = 0; l < 4; ++l) {
                if (taken[l] == len[l]) continue;
                const int64_t k = rank(ub + src[l] + rr * step + taken[l] * kStruct, size);
                if (best < 0 || k > best_rank) {  // equal scores: the lower list first (not documented)
                    best = l;
                    best_rank = k;
                }
            }
            if (best < 0) break;
            std::memcpy(out.data() + n++ * kStruct, ub + src[best] + rr * step + taken[best] * kStruct, kStruct);
            if (++taken[best] == len[best] && stop_when_exhausted) break;
        }
        std::memcpy(ub + dst + rr * step, out.data(), n * kStruct);
    }
    c.vec.vms4_sr = taken[0] | taken[1] << 16 | taken[2] << 32 | taken[3] << 48;
}

uint64_t get_vms4_sr() { return core().vec.vms4_sr; }

}  // namespace ptosim::cce
