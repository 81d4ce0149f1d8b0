// Intrinsics pto-isa's A5 implementation names that ptosim declares but does
// not execute yet. A kernel compiles against them; reaching one stops the
// launch with a fault naming it (docs/intrinsics/a5-vreg.md, "Not done yet").
// Each family's file takes its names out of this list as it implements them.
#pragma once
#include <cce/operands.hpp>

#define PTOSIM_CCE_PENDING(name)                                                  \
    template <class... A>                                                         \
    [[gnu::noinline]] ptosim_cce::Unsimulated name(A&&...) {                       \
        ptosim::cce::not_simulated(#name, __builtin_return_address(0));           \
    }

// register conversions, interleaves, unaligned and scattered moves, carry
// and widening arithmetic, group reductions, histograms; predicate moves;
// the Cube, fixpipe and L1 DMA side; SIMT atomics.
PTOSIM_CCE_PENDING(copy_matrix_cc_to_ubuf)
#undef PTOSIM_CCE_PENDING
