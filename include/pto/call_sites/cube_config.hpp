// Call-site macros of the fixpipe quantisation and img2col instructions
// instructions (see pto/call_sites.hpp). SET_QUANT_SCALAR always takes its
// output type as a template argument, so it has no macro.
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define SET_QUANT_VECTOR(...) SET_QUANT_VECTOR(PTOSIM_HERE, __VA_ARGS__)
#define TSTORE_FP(...) TSTORE_FP(PTOSIM_HERE, __VA_ARGS__)
#define TMOV_FP(...) TMOV_FP(PTOSIM_HERE, __VA_ARGS__)
#define TEXTRACT_FP(...) TEXTRACT_FP(PTOSIM_HERE, __VA_ARGS__)
#define TINSERT_FP(...) TINSERT_FP(PTOSIM_HERE, __VA_ARGS__)
#define TSETFMATRIX(...) TSETFMATRIX(PTOSIM_HERE, __VA_ARGS__)
#define TSET_IMG2COL_RPT(...) TSET_IMG2COL_RPT(PTOSIM_HERE, __VA_ARGS__)
#define TSET_IMG2COL_PADDING(...) TSET_IMG2COL_PADDING(PTOSIM_HERE, __VA_ARGS__)
#define TIMG2COL(...) TIMG2COL(PTOSIM_HERE, __VA_ARGS__)
