// Call-site macros of the gather/scatter family (see pto/call_sites.hpp).
// The mask-pattern and compare TGATHER forms and the MGATHER/MSCATTER forms
// with mode arguments take explicit template arguments, which bypass these
// macros.
#pragma once

#define MGATHER(...) MGATHER(PTOSIM_HERE, __VA_ARGS__)
#define MSCATTER(...) MSCATTER(PTOSIM_HERE, __VA_ARGS__)
