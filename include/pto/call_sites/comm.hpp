// Call-site macros of the communication instructions (see pto/call_sites.hpp).
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TPUT(...) TPUT(PTOSIM_HERE, __VA_ARGS__)
#define TGET(...) TGET(PTOSIM_HERE, __VA_ARGS__)
#define TNOTIFY(...) TNOTIFY(PTOSIM_HERE, __VA_ARGS__)
#define TWAIT(...) TWAIT(PTOSIM_HERE, __VA_ARGS__)
#define TTEST(...) TTEST(PTOSIM_HERE, __VA_ARGS__)
#define TBROADCAST(...) TBROADCAST(PTOSIM_HERE, __VA_ARGS__)
#define TGATHER(...) TGATHER(PTOSIM_HERE, __VA_ARGS__)
#define TSCATTER(...) TSCATTER(PTOSIM_HERE, __VA_ARGS__)
#define TREDUCE(...) TREDUCE(PTOSIM_HERE, __VA_ARGS__)
#define TPUT_ASYNC(...) TPUT_ASYNC(PTOSIM_HERE, __VA_ARGS__)
#define TGET_ASYNC(...) TGET_ASYNC(PTOSIM_HERE, __VA_ARGS__)
