// A5's histograms over a register of bytes (docs/intrinsics/a5-vreg.md,
// "Histograms"): chistv2 (cumulative) and dhistv2 (frequency) add counts
// into 128 uint16 bins, BIN_N0 for the values 0..127, BIN_N1 for 128..255
// (cumulative: every value up to the bin's, the lower half included).
#include <ptosim/cce_a5.hpp>

#include "../repeat.hpp"
#include "records.hpp"

#include <cstring>

namespace ptosim::cce::a5 {

void vhistogram(const SourceLoc& loc, const char* op, bool cumulative, bool upper, VReg& dst, const VReg& src,
                const Pred& mask) {
    OpRecord r = vector_record(op, loc);
    r.bytes = kVL;
    dispatch(core(), r);
    const int lo = upper ? 128 : 0;
    uint32_t freq[128] = {};
    // The cumulative upper half continues the prefix of the whole byte
    // range: BIN_N1's bin n counts the bytes <= 128 + n, those below 128
    // included (pto-isa's THISTOGRAM adds the two halves into one 256-bin
    // cumulative histogram, as its golden computes it).
    uint32_t below = 0;
    for (int j = 0; j < kVL; ++j) {
        if (!mask.lane(j)) continue;
        if (src.b[j] >= lo && src.b[j] < lo + 128) ++freq[src.b[j] - lo];
        else if (src.b[j] < lo) ++below;
    }
    VReg out;
    uint32_t run = cumulative ? below : 0;
    for (int n = 0; n < 128; ++n) {
        run += freq[n];
        uint16_t v;
        std::memcpy(&v, dst.b + 2 * n, 2);
        // The counts add to what the bins held (documented), modulo 2^16.
        v = static_cast<uint16_t>(v + (cumulative ? run : freq[n]));
        std::memcpy(out.b + 2 * n, &v, 2);
    }
    dst = out;
}

}  // namespace ptosim::cce::a5
