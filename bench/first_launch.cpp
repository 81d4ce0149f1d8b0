// The cost of a process's first launch (stacks, core buffers, host threads
// all created on demand) next to the second, both with 48 empty Vector
// blocks. One process measures one first launch: run it several times.
#include <ptosim/runtime.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {
double launch_us() {
    ptosim::LaunchSpec s;
    s.kernel = "empty";
    s.site = {__FILE__, __LINE__};
    s.target = ptosim::Target::A2A3;
    s.kind = ptosim::KernelKind::Vec;
    s.block_dim = 48;
    s.aiv_body = [] {};
    const auto t0 = std::chrono::steady_clock::now();
    if (!ptosim::run_launch(ptosim::Device::get(), s).ok()) std::abort();
    return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
}
}  // namespace

int main() {
    (void)ptosim::Device::get();  // the device and its SoC, as aclInit would make them
    const double first = launch_us(), second = launch_us();
    std::printf("first 48-block launch %.1f us, second %.1f us (%.1fx)\n", first, second, first / second);
}
