// A system-counter read in a header found through -I, as public benchmark
// headers write it (pto-isa's tget_bandwidth/benchmark_common.hpp).
#pragma once
#include <cstdint>

__aicore__ inline uint64_t bench_cycles() {
    uint64_t c = 0;
    asm volatile("MOV %0, SYS_CNT\n" : "+l"(c));
    return c;
}
