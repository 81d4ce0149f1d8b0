// Call-site macros of the gather/scatter and rearrangement families (see
// pto/call_sites.hpp). The mask-pattern and compare TGATHER forms and the
// MGATHER/MSCATTER forms with mode arguments take explicit template
// arguments, which bypass these macros.
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TGATHERB(...) TGATHERB(PTOSIM_HERE, __VA_ARGS__)
#define TSCATTER(...) TSCATTER(PTOSIM_HERE, __VA_ARGS__)
#define MGATHER(...) MGATHER(PTOSIM_HERE, __VA_ARGS__)
#define MSCATTER(...) MSCATTER(PTOSIM_HERE, __VA_ARGS__)
#define TCONCAT(...) TCONCAT(PTOSIM_HERE, __VA_ARGS__)
#define TInterleave(...) TInterleave(PTOSIM_HERE, __VA_ARGS__)
#define TDeInterleave(...) TDeInterleave(PTOSIM_HERE, __VA_ARGS__)
#define TINTERLEAVE(...) TINTERLEAVE(PTOSIM_HERE, __VA_ARGS__)
#define TDEINTERLEAVE(...) TDEINTERLEAVE(PTOSIM_HERE, __VA_ARGS__)
#define TSUBVIEW(...) TSUBVIEW(PTOSIM_HERE, __VA_ARGS__)
