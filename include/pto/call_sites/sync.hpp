// Call-site macros of the sync instruction family (see pto/call_sites.hpp).
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TSYNC(...) TSYNC(PTOSIM_HERE __VA_OPT__(, ) __VA_ARGS__)
#define TPUSH(...) TPUSH(PTOSIM_HERE, __VA_ARGS__)
#define TPOP(...) TPOP(PTOSIM_HERE, __VA_ARGS__)
#define TFREE(...) TFREE(PTOSIM_HERE, __VA_ARGS__)
#define TPRINT(...) TPRINT(PTOSIM_HERE, __VA_ARGS__)
#define TPREFETCH(...) TPREFETCH(PTOSIM_HERE, __VA_ARGS__)
#define TPREFETCH_ASYNC(...) TPREFETCH_ASYNC(PTOSIM_HERE, __VA_ARGS__)
