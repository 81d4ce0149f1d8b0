// Call-site macros of the layout instruction family (see pto/call_sites.hpp).
// TCI and TTRI are always called with explicit template arguments, which
// bypass these macros; they are defined for uniformity.
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TCMP(...) TCMP(PTOSIM_HERE, __VA_ARGS__)
#define TCMPS(...) TCMPS(PTOSIM_HERE, __VA_ARGS__)
#define TSEL(...) TSEL(PTOSIM_HERE, __VA_ARGS__)
#define TSELS(...) TSELS(PTOSIM_HERE, __VA_ARGS__)
#define TFILLPAD(...) TFILLPAD(PTOSIM_HERE, __VA_ARGS__)
#define TFILLPAD_INPLACE(...) TFILLPAD_INPLACE(PTOSIM_HERE, __VA_ARGS__)
#define TFILLPAD_EXPAND(...) TFILLPAD_EXPAND(PTOSIM_HERE, __VA_ARGS__)
#define TRESHAPE(...) TRESHAPE(PTOSIM_HERE, __VA_ARGS__)
#define TTRANS(...) TTRANS(PTOSIM_HERE, __VA_ARGS__)
#define TGATHER(...) TGATHER(PTOSIM_HERE, __VA_ARGS__)
#define TCI(...) TCI(PTOSIM_HERE, __VA_ARGS__)
#define TTRI(...) TTRI(PTOSIM_HERE, __VA_ARGS__)
