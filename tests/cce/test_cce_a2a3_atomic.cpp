// The A2A3 scalar GM atomics end to end (atomic_kernels.cpp): sums and
// maxima from several blocks, and a polling loop that lets the others run.
#include <acl/acl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

extern "C" void launch_counter(int32_t*, float*, int32_t*, void*);

namespace {

TEST(CceAtomic, StAtomicSumsAndMaximaAndLdDevPollsUntilEveryBlockHasAdded) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    void *c = nullptr, *f = nullptr, *seen = nullptr;
    ASSERT_EQ(aclrtMalloc(&c, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&f, 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&seen, 16, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int32_t zero = 0;
    const float start = -1.0f;
    ASSERT_EQ(aclrtMemcpy(c, 4, &zero, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(f, 4, &start, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    launch_counter(static_cast<int32_t*>(c), static_cast<float*>(f), static_cast<int32_t*>(seen), stream);
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    int32_t total = 0, got[4] = {};
    float fm = 0;
    ASSERT_EQ(aclrtMemcpy(&total, 4, c, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(&fm, 4, f, 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(got, 16, seen, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(total, 1 + 2 + 3 + 4);
    EXPECT_EQ(fm, 4.5f);
    for (int b = 0; b < 4; ++b) EXPECT_EQ(got[b], 10) << b;
    aclrtFree(c);
    aclrtFree(f);
    aclrtFree(seen);
    aclrtDestroyStream(stream);
}

}  // namespace
