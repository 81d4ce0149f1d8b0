// A5's gathers and scatters between UB and a vector register
// (docs/intrinsics/a5-vreg.md, "Gathers and scatters"): vgather2 reads
// element index[i] of a UB array into element i, vscatter writes element i
// to element index[i]. One call moves the whole register.
#include <ptosim/cce_a5.hpp>

#include "../repeat.hpp"
#include "fast_paths.hpp"
#include "records.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace ptosim::cce::a5 {
namespace {
uint64_t index_at(const VReg& idx, int i, int width) {
    uint64_t k = 0;
    std::memcpy(&k, idx.b + i * width, width);
    return k;
}

// The record of one gather or scatter: the UB span its active indices touch,
// checked against UB and read or written as a whole.
void dispatch_indexed(Core& c, const SourceLoc& loc, const char* op, bool writes, uint64_t ub, int elem,
                      const VReg& idx, int idx_width, const Pred& mask) {
    uint64_t lo = UINT64_MAX, hi = 0;
    with_width(idx_width, [&](auto w) {
        const int prefix = active_prefix(mask, w);
        if (prefix >= 0) {
            if (prefix == 0) return;
            uint64_t min_i = UINT64_MAX, max_i = 0;
            for (int i = 0; i < prefix; ++i) {
                const uint64_t k = index_at(idx, i, w);
                min_i = std::min(min_i, k);
                max_i = std::max(max_i, k);
            }
            lo = ub + min_i * uint64_t(elem);
            hi = ub + max_i * uint64_t(elem) + elem;
            return;
        }
        for (int i = 0; i < kVL / w; ++i)
            if (mask.lane(i * w)) {
                const uint64_t at = ub + index_at(idx, i, w) * uint64_t(elem);
                lo = std::min(lo, at);
                hi = std::max(hi, at + elem);
            }
    });
    if (hi > 0) check_local(c, Space::UB, lo, hi - lo, op, writes ? "dst" : "src", loc);
    dispatch(c, op, loc, [&] {
        OpRecord r = vector_record(op, loc);
        if (hi > 0) {
            r.bytes = hi - lo;
            if (writes) r.write(Space::UB, lo, hi - lo);
            else r.read(Space::UB, lo, hi - lo);
        }
        return r;
    });
}
}  // namespace

void vgather(const SourceLoc& loc, VReg& dst, uint64_t ub, int elem, const VReg& idx, int idx_width, const Pred& mask) {
    Core& c = core();
    const int n = kVL / idx_width;  // one element slot per index
    dispatch_indexed(c, loc, "vgather2", false, ub, elem, idx, idx_width, mask);
    const uint8_t* mem = c.mem[static_cast<int>(Space::UB)];
    VReg out;
    std::memset(out.b, 0, kVL);
    // An 8-bit element lands in the low byte of its 16-bit slot, the high
    // byte zero (documented); inactive slots are zero.
    with_width(idx_width, [&](auto w) {
        with_width(std::min(elem, idx_width), [&](auto e) {
            // An active prefix: its elements without testing each one's lane.
            if (const int prefix = active_prefix(mask, w); prefix >= 0) {
                for (int i = 0; i < prefix; ++i)
                    std::memcpy(out.b + i * w, mem + ub + index_at(idx, i, w) * uint64_t(elem), e);
                return;
            }
            for (int i = 0; i < n; ++i)
                if (mask.lane(i * w)) std::memcpy(out.b + i * w, mem + ub + index_at(idx, i, w) * uint64_t(elem), e);
        });
    });
    dst = out;
}

void vscatter(const SourceLoc& loc, const VReg& src, uint64_t ub, int elem, const VReg& idx, int idx_width,
              const Pred& mask) {
    Core& c = core();
    if (ub % 32 != 0)
        fault(loc, "vscatter to UB offset " + std::to_string(ub) + ", which is not 32-byte aligned (the base must be)");
    const int n = kVL / idx_width;
    dispatch_indexed(c, loc, "vscatter", true, ub, elem, idx, idx_width, mask);
    uint8_t* mem = c.mem[static_cast<int>(Space::UB)];
    // In element order: of repeated indices the last active element stays
    // (the documents leave it open; chosen). 8-bit elements come from the
    // even bytes (the low byte of each 16-bit slot, documented).
    with_width(idx_width, [&](auto w) {
        with_width(std::min(elem, idx_width), [&](auto e) {
            if (const int prefix = active_prefix(mask, w); prefix >= 0) {
                for (int i = 0; i < prefix; ++i)
                    std::memcpy(mem + ub + index_at(idx, i, w) * uint64_t(elem), src.b + i * w, e);
                return;
            }
            for (int i = 0; i < n; ++i)
                if (mask.lane(i * w)) std::memcpy(mem + ub + index_at(idx, i, w) * uint64_t(elem), src.b + i * w, e);
        });
    });
}

// vgatherb: 32-byte block k of the register from UB at ub + index[k] bytes
// (asc-devkit "GatherB": indices in bytes, 32-byte aligned, uint32); an
// element the mask leaves out is zero (chosen), a block with none active is
// not read.
void vgatherb(const SourceLoc& loc, VReg& dst, uint64_t ub, int elem, const VReg& idx, const Pred& mask) {
    Core& c = core();
    const char* op = "vgatherb";
    if (ub % 32 != 0)
        fault(loc, std::string(op) + " from UB offset " + std::to_string(ub) + ", which is not 32-byte aligned (the base must be)");
    uint64_t lo = UINT64_MAX, hi = 0;
    bool used[kVL / 32] = {};
    for (int k = 0; k < kVL / 32; ++k) {
        for (int j = 0; j < 32 && !used[k]; j += elem) used[k] = mask.lane(k * 32 + j);
        if (!used[k]) continue;
        const uint64_t off = index_at(idx, k, 4);
        if (off % 32 != 0)
            fault(loc, std::string(op) + ": index " + std::to_string(k) + " is " + std::to_string(off) +
                           " bytes, not a multiple of 32 (each index names a 32-byte block)");
        lo = std::min(lo, ub + off);
        hi = std::max(hi, ub + off + 32);
    }
    OpRecord r = vector_record(op, loc);
    if (hi > 0) {
        check_local(c, Space::UB, lo, hi - lo, op, "src", loc);
        r.bytes = hi - lo;
        r.read(Space::UB, lo, hi - lo);
    }
    dispatch(c, r);
    const uint8_t* mem = c.mem[static_cast<int>(Space::UB)];
    VReg out;
    std::memset(out.b, 0, kVL);
    for (int k = 0; k < kVL / 32; ++k) {
        if (!used[k]) continue;
        const uint8_t* from = mem + ub + index_at(idx, k, 4);
        for (int j = 0; j < 32; j += elem)
            if (mask.lane(k * 32 + j)) std::memcpy(out.b + k * 32 + j, from + j, elem);
    }
    dst = out;
}

}  // namespace ptosim::cce::a5
