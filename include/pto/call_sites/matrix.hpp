// Call-site macros of the matrix-vector and block-scaled matmul instructions.
#pragma once

#define TGEMV(...) TGEMV(PTOSIM_HERE, __VA_ARGS__)
#define TGEMV_ACC(...) TGEMV_ACC(PTOSIM_HERE, __VA_ARGS__)
#define TGEMV_BIAS(...) TGEMV_BIAS(PTOSIM_HERE, __VA_ARGS__)
