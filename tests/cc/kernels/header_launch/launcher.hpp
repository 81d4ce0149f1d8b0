// A template kernel and the host helper that launches it, in a header beside
// the kernel source (pto-isa's tget_bandwidth/benchmark_device_baseline.hpp
// launches its kernels so).
#pragma once
#include <bench_cycles.hpp>

template <class T>
__global__ __aicore__ void fill_and_time(__gm__ T* out, __gm__ uint64_t* cycles, T v) {
    const uint64_t start = bench_cycles();
    out[get_block_idx()] = v;
    cycles[get_block_idx()] = bench_cycles() - start;
}

template <class T>
void launch_fill_and_time(T* out, uint64_t* cycles, T v, void* stream) {
    fill_and_time<T><<<4, nullptr, stream>>>(out, cycles, v);
}
