// Call-site macros of the sort instruction family (see pto/call_sites.hpp).
// The multi-list TMRGSORT forms take explicit template arguments and so
// bypass the macro; they report the core's last known location.
#pragma once
#pragma GCC system_header  // errors on these macros' own tokens land at the user's line (docs/ptocc.md)

#define TSORT32(...) TSORT32(PTOSIM_HERE, __VA_ARGS__)
#define TMRGSORT(...) TMRGSORT(PTOSIM_HERE, __VA_ARGS__)
