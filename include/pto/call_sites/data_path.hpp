// Call-site macros of the data-path instructions (see pto/call_sites.hpp).
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TLOAD(...) TLOAD(PTOSIM_HERE, __VA_ARGS__)
#define TSTORE(...) TSTORE(PTOSIM_HERE, __VA_ARGS__)
#define TMOV(...) TMOV(PTOSIM_HERE, __VA_ARGS__)
#define TEXTRACT(...) TEXTRACT(PTOSIM_HERE, __VA_ARGS__)
#define TINSERT(...) TINSERT(PTOSIM_HERE, __VA_ARGS__)
#define TMATMUL(...) TMATMUL(PTOSIM_HERE, __VA_ARGS__)
#define TMATMUL_ACC(...) TMATMUL_ACC(PTOSIM_HERE, __VA_ARGS__)
#define TMATMUL_BIAS(...) TMATMUL_BIAS(PTOSIM_HERE, __VA_ARGS__)
