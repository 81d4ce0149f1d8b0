// libFuzzer entry point for one target of targets.hpp, chosen at build time
// with -DPTOLAB_FUZZ_TARGET=<name> (tests/fuzz/CMakeLists.txt).
#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    ptolab_fuzz::PTOLAB_FUZZ_TARGET(data, size);
    return 0;
}
