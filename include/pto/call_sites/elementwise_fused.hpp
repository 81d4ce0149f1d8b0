// Call-site macros of the fused element-wise instructions (see pto/call_sites.hpp).
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TPOW(...) TPOW(PTOSIM_HERE, __VA_ARGS__)
#define TPOWS(...) TPOWS(PTOSIM_HERE, __VA_ARGS__)
#define TMULADDDST(...) TMULADDDST(PTOSIM_HERE, __VA_ARGS__)
#define TFUSEDMULADD(...) TFUSEDMULADD(PTOSIM_HERE, __VA_ARGS__)
#define TFUSEDMULADDRELU(...) TFUSEDMULADDRELU(PTOSIM_HERE, __VA_ARGS__)
#define TSUBRELU(...) TSUBRELU(PTOSIM_HERE, __VA_ARGS__)
#define TPAIRREDUCESUM(...) TPAIRREDUCESUM(PTOSIM_HERE, __VA_ARGS__)
#define TRANDOM(...) TRANDOM(PTOSIM_HERE, __VA_ARGS__)
