// ACL host program of the drop-in project: copies inputs with securec's
// memcpy_s, launches the kernel library, checks z = x + y, prints the SoC.
#include <acl/acl.h>
#include <securec.h>

#include <cstdio>
#include <vector>

extern "C" void launch_add(uint32_t blocks, void* stream, uint8_t* x, uint8_t* y, uint8_t* z);

#define CHECK(call)                                                               \
    do {                                                                          \
        if ((call) != ACL_SUCCESS) {                                              \
            std::printf("FAIL %s: %s\n", #call, aclGetRecentErrMsg());            \
            return 1;                                                             \
        }                                                                         \
    } while (0)

int main() {
    constexpr int kBlocks = 4, kElems = kBlocks * 16 * 64;
    constexpr size_t kBytes = kElems * sizeof(float);
    CHECK(aclInit(nullptr));
    CHECK(aclrtSetDevice(0));
    aclrtStream stream = nullptr;
    CHECK(aclrtCreateStream(&stream));
    std::vector<float> x(kElems), y(kElems), z(kElems), staging(kElems);
    for (int i = 0; i < kElems; ++i) x[i] = 0.25f * i, y[i] = 3.0f - i;
    if (memcpy_s(staging.data(), kBytes, x.data(), kBytes) != EOK) return 1;
    void *dx = nullptr, *dy = nullptr, *dz = nullptr;
    CHECK(aclrtMalloc(&dx, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dy, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMalloc(&dz, kBytes, ACL_MEM_MALLOC_HUGE_FIRST));
    CHECK(aclrtMemcpy(dx, kBytes, staging.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    CHECK(aclrtMemcpy(dy, kBytes, y.data(), kBytes, ACL_MEMCPY_HOST_TO_DEVICE));
    launch_add(kBlocks, stream, static_cast<uint8_t*>(dx), static_cast<uint8_t*>(dy), static_cast<uint8_t*>(dz));
    CHECK(aclrtSynchronizeStream(stream));
    CHECK(aclrtMemcpy(z.data(), kBytes, dz, kBytes, ACL_MEMCPY_DEVICE_TO_HOST));
    int bad = 0;
    for (int i = 0; i < kElems; ++i) bad += z[i] != x[i] + y[i];
    CHECK(aclrtFree(dx));
    CHECK(aclrtFree(dy));
    CHECK(aclrtFree(dz));
    CHECK(aclrtDestroyStream(stream));
    const char* soc = aclrtGetSocName();
    CHECK(aclrtResetDevice(0));
    CHECK(aclFinalize());
    char line[96];
    if (sprintf_s(line, sizeof line, "%s dropin add %d elements on %s", bad ? "FAIL" : "PASS", kElems, soc) < 0) return 1;
    std::printf("%s\n", line);
    return bad ? 1 : 0;
}
