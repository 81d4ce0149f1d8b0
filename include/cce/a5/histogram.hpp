// A5's histograms (docs/intrinsics/a5-vreg.md, "Histograms"):
// chistv2(bins, bytes, mask, Bin_N0|Bin_N1) adds the cumulative counts of
// the byte values 0..127 (Bin_N0) or 128..255 (Bin_N1) into 128 uint16
// bins; dhistv2 the frequencies.
#pragma once
#include <cce/a5/enums.hpp>
#include <cce/a5/registers.hpp>

#define PTOSIM_CCE_HIST(name, cumulative)                                                                        \
    template <class D, class S>                                                                                 \
        requires(ptosim_cce::vreg_like<D> && ptosim_cce::vreg_like<S>)                                          \
    inline void name(D&& dst, S&& src, const vector_bool& m, HistBin bin,                                       \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                  \
        ptosim_cce::read_src(w, #name, 1, dst);                                                                 \
        ptosim_cce::read_src(w, #name, 2, src);                                                                 \
        ptosim::cce::a5::vhistogram(ptosim_cce::here(w), #name, cumulative, bin == Bin_N1, ptosim_cce::vr(dst), \
                                    ptosim_cce::vr(src), m);                                                    \
    }
PTOSIM_CCE_HIST(chistv2, true)
PTOSIM_CCE_HIST(dhistv2, false)
#undef PTOSIM_CCE_HIST
