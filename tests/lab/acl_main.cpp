// The seed's ACL C++ launch path against the simulator: a host program that
// dlopens a kernel library built by ptocc (or bisheng), moves data with the
// ACL shim, launches through the library's C entry point and judges the
// result with ptolab_core, the engine behind ptolab.assert_close.
//
//   ptocc -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE add.cpp -o libadd.so
//   ./acl_main ./libadd.so [n] [block_dim]
#include <acl/acl.h>
#include <ptolab/compare.hpp>

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

namespace {

using CallAdd = void (*)(uint32_t, void*, uint8_t*, uint8_t*, uint8_t*, int64_t);

int fail(const char* what, aclError e) {
    std::fprintf(stderr, "FAIL acl_main: %s returned %d: %s\n", what, e, aclGetRecentErrMsg());
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s LIBRARY.so [n] [block_dim]\n", argv[0]);
        return 2;
    }
    const int64_t n = argc > 2 ? std::atoll(argv[2]) : 1000;
    const uint32_t block_dim = argc > 3 ? static_cast<uint32_t>(std::atoi(argv[3])) : 4;
    void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        std::fprintf(stderr, "FAIL acl_main: cannot load %s: %s; build it with ptocc (see the top of this file)\n",
                     argv[1], dlerror());
        return 1;
    }
    auto call_add = reinterpret_cast<CallAdd>(dlsym(lib, "call_add"));
    if (!call_add) {
        std::fprintf(stderr, "FAIL acl_main: %s has no call_add entry point\n", argv[1]);
        return 1;
    }
    if (aclError e = aclInit(nullptr)) return fail("aclInit", e);
    if (aclError e = aclrtSetDevice(0)) return fail("aclrtSetDevice", e);
    aclrtStream stream = nullptr;
    if (aclError e = aclrtCreateStream(&stream)) return fail("aclrtCreateStream", e);

    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1, 1);
    std::vector<float> x1(n), x2(n), y(n), ref(n);
    for (int64_t i = 0; i < n; ++i) x1[i] = dist(rng), x2[i] = dist(rng), ref[i] = x1[i] + x2[i];
    const size_t bytes = n * sizeof(float);
    void *d1, *d2, *dy;
    for (void** p : {&d1, &d2, &dy})
        if (aclError e = aclrtMalloc(p, bytes, ACL_MEM_MALLOC_HUGE_FIRST)) return fail("aclrtMalloc", e);
    if (aclError e = aclrtMemcpy(d1, bytes, x1.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE)) return fail("aclrtMemcpy", e);
    if (aclError e = aclrtMemcpy(d2, bytes, x2.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE)) return fail("aclrtMemcpy", e);
    call_add(block_dim, stream, static_cast<uint8_t*>(dy), static_cast<uint8_t*>(d1), static_cast<uint8_t*>(d2), n);
    if (aclError e = aclrtSynchronizeStreamWithTimeout(stream, 60000)) return fail("aclrtSynchronizeStreamWithTimeout", e);
    if (aclError e = aclrtMemcpy(y.data(), bytes, dy, bytes, ACL_MEMCPY_DEVICE_TO_HOST)) return fail("aclrtMemcpy", e);

    const ptolab::Report r = ptolab::compare({y.data(), ptolab::DType::Float32, {n}}, {ref.data(), ptolab::DType::Float32, {n}});
    const std::string label = "acl_main add n=" + std::to_string(n) + " block_dim=" + std::to_string(block_dim);
    std::printf("%s\n", (r.passed ? ptolab::summary_line(r, label) : ptolab::format_report(r, label)).c_str());

    for (void* p : {d1, d2, dy}) aclrtFree(p);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    return r.passed ? 0 : 1;
}
