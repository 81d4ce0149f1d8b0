// An ACL host program built with `ptocc host_main.cpp -o main`: allocates
// device memory, launches the vec_add library's entry point, checks z = x + y.
#include <acl/acl.h>
#include <cstdio>
#include <vector>

extern "C" void call_vec_add(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z);

int main() {
    constexpr int kBlocks = 3, kElems = kBlocks * 32 * 64;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 2;
    aclrtStream stream = nullptr;
    if (aclrtCreateStream(&stream) != ACL_SUCCESS) return 2;
    std::vector<float> x(kElems), y(kElems), z(kElems);
    for (int i = 0; i < kElems; ++i) x[i] = i * 0.5f, y[i] = 1000.0f - i;
    void *dx, *dy, *dz;
    const size_t bytes = kElems * sizeof(float);
    aclrtMalloc(&dx, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dy, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMalloc(&dz, bytes, ACL_MEM_MALLOC_HUGE_FIRST);
    aclrtMemcpy(dx, bytes, x.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    aclrtMemcpy(dy, bytes, y.data(), bytes, ACL_MEMCPY_HOST_TO_DEVICE);
    call_vec_add(kBlocks, stream, static_cast<uint8_t*>(dx), static_cast<uint8_t*>(dy), static_cast<uint8_t*>(dz));
    if (aclrtSynchronizeStream(stream) != ACL_SUCCESS) {
        std::printf("FAIL sync: %s\n", aclGetRecentErrMsg());
        return 1;
    }
    aclrtMemcpy(z.data(), bytes, dz, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
    for (int i = 0; i < kElems; ++i)
        if (z[i] != x[i] + y[i]) {
            std::printf("FAIL z[%d] = %g, expected %g\n", i, z[i], x[i] + y[i]);
            return 1;
        }
    aclrtFree(dx), aclrtFree(dy), aclrtFree(dz);
    aclrtDestroyStream(stream);
    aclrtResetDevice(0);
    aclFinalize();
    std::printf("PASS host_main vec_add %d elements\n", kElems);
    return 0;
}
