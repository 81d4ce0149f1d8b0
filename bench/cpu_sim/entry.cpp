// The timing entry point of one side of bench/pto_isa_cpu_sim_speed.sh,
// compiled into each side's shared library next to the kernel sources:
// without PTOBENCH_PTOSIM (pto-isa's CPU simulation) the kernel function is
// called directly, as pto-isa's CPU tests call it; with PTOBENCH_PTOSIM=1 it
// is called inside one launch on one simulated core (ptosim::run_launch).
// Either way only the kernel calls are timed, each on its own.
#include <chrono>
#include <cstdint>
#include <cstring>
#if PTOBENCH_PTOSIM
#include <ptosim/runtime.hpp>
#endif

extern "C" {
void ptobench_row_softmax(uint8_t* out, uint8_t* in);
void ptobench_tadd(uint8_t* out, uint8_t* x, uint8_t* y);
void ptobench_texp(uint8_t* out, uint8_t* x);
void ptobench_matmul128(uint8_t* out, uint8_t* a, uint8_t* b);
void ptobench_matmul256_ksplit(uint8_t* out, uint8_t* a, uint8_t* b);
void ptobench_ttrans(uint8_t* out, uint8_t* x);
void ptobench_tcvt(uint8_t* out, uint8_t* x);
void ptobench_tcolsum(uint8_t* out, uint8_t* x);
void ptobench_tmuls(uint8_t* out, uint8_t* x);
}

namespace {

struct Kernel {
    const char* name;
    bool cube;
    void (*call)(uint8_t* out, uint8_t* in0, uint8_t* in1);
    uint64_t out_bytes, in_bytes;  // each input's (in1 absent for one-input kernels)
};

constexpr uint64_t kTile = 64 * 128 * 4;  // a 64 x 128 float tile
const Kernel kKernels[] = {
    {"row_softmax", false, [](uint8_t* o, uint8_t* x, uint8_t*) { ptobench_row_softmax(o, x); }, kTile, kTile},
    {"tadd", false, [](uint8_t* o, uint8_t* x, uint8_t* y) { ptobench_tadd(o, x, y); }, kTile, kTile},
    {"texp", false, [](uint8_t* o, uint8_t* x, uint8_t*) { ptobench_texp(o, x); }, kTile, kTile},
    {"ttrans", false, [](uint8_t* o, uint8_t* x, uint8_t*) { ptobench_ttrans(o, x); }, kTile, kTile},
    {"tcvt", false, [](uint8_t* o, uint8_t* x, uint8_t*) { ptobench_tcvt(o, x); }, kTile, kTile},
    {"tcolsum", false, [](uint8_t* o, uint8_t* x, uint8_t*) { ptobench_tcolsum(o, x); }, 128 * 4, kTile},
    {"tmuls", false, [](uint8_t* o, uint8_t* x, uint8_t*) { ptobench_tmuls(o, x); }, kTile, kTile},
    {"matmul128", true, [](uint8_t* o, uint8_t* a, uint8_t* b) { ptobench_matmul128(o, a, b); }, 128 * 128 * 4,
     128 * 128 * 2},
    {"matmul256_ksplit", true, [](uint8_t* o, uint8_t* a, uint8_t* b) { ptobench_matmul256_ksplit(o, a, b); },
     256 * 256 * 4, 256 * 256 * 2},
};

void timed_calls(const Kernel& k, uint8_t* out, uint8_t* in0, uint8_t* in1, int calls, double* ns) {
    for (int i = 0; i < calls; ++i) {
        const auto t0 = std::chrono::steady_clock::now();
        k.call(out, in0, in1);
        ns[i] = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    }
}

}  // namespace

// Calls kernel `name` `calls` times on the same buffers and writes each
// call's host wall time (ns) to ns[i]. Returns 0, or 1 for an unknown kernel,
// 2 when the simulator refused the launch.
extern "C" __attribute__((visibility("default"))) int ptobench_time(const char* name, uint8_t* out, uint8_t* in0,
                                                                    uint8_t* in1, int calls, double* ns) {
    for (const Kernel& k : kKernels) {
        if (std::strcmp(k.name, name) != 0) continue;
#if PTOBENCH_PTOSIM
        // The kernel's GM is device memory, as an ACL program's is (ptosim
        // checks a DMA's bursts against its allocation); the caller's
        // buffers are copied in before the calls and the output back after.
        ptosim::Device& dev = ptosim::Device::get();
        auto* d_out = static_cast<uint8_t*>(dev.allocate(k.out_bytes, true));
        auto* d_in0 = static_cast<uint8_t*>(dev.allocate(k.in_bytes, true));
        auto* d_in1 = in1 ? static_cast<uint8_t*>(dev.allocate(k.in_bytes, true)) : nullptr;
        std::memcpy(d_out, out, k.out_bytes);
        std::memcpy(d_in0, in0, k.in_bytes);
        if (in1) std::memcpy(d_in1, in1, k.in_bytes);
        ptosim::LaunchSpec s;
        s.kernel = k.name;
        s.site = {__FILE__, __LINE__};
        s.target = ptosim::Target::A2A3;
        s.kind = k.cube ? ptosim::KernelKind::Cube : ptosim::KernelKind::Vec;
        s.block_dim = 1;
        (k.cube ? s.aic_body : s.aiv_body) = [&] { timed_calls(k, d_out, d_in0, d_in1, calls, ns); };
        const bool ok = ptosim::run_launch(dev, s).ok();
        std::memcpy(out, d_out, k.out_bytes);
        for (uint8_t* p : {d_out, d_in0, d_in1})
            if (p) dev.release(p, true);
        return ok ? 0 : 2;
#else
        timed_calls(k, out, in0, in1, calls, ns);
        return 0;
#endif
    }
    return 1;
}
