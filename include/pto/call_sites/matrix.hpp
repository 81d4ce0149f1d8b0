// Call-site macros of the matrix-vector and block-scaled matmul instructions
// and of TDEQUANT. TQUANT has none: its mode is an explicit template argument,
// and a macro does not expand before "<".
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TGEMV(...) TGEMV(PTOSIM_HERE, __VA_ARGS__)
#define TGEMV_ACC(...) TGEMV_ACC(PTOSIM_HERE, __VA_ARGS__)
#define TGEMV_BIAS(...) TGEMV_BIAS(PTOSIM_HERE, __VA_ARGS__)
#define TMATMUL_MX(...) TMATMUL_MX(PTOSIM_HERE, __VA_ARGS__)
#define TGEMV_MX(...) TGEMV_MX(PTOSIM_HERE, __VA_ARGS__)
#define TGET_SCALE_ADDR(...) TGET_SCALE_ADDR(PTOSIM_HERE, __VA_ARGS__)
#define TDEQUANT(...) TDEQUANT(PTOSIM_HERE, __VA_ARGS__)
