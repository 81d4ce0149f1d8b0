// Call-site macros of the elementwise instruction family (see pto/call_sites.hpp).
#pragma once

#define TADD(...) TADD(PTOSIM_HERE, __VA_ARGS__)
#define TADDS(...) TADDS(PTOSIM_HERE, __VA_ARGS__)
#define TMULS(...) TMULS(PTOSIM_HERE, __VA_ARGS__)
#define TCVT(...) TCVT(PTOSIM_HERE, __VA_ARGS__)
