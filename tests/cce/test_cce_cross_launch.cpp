// A kernel launched from a translation unit of another core type runs on
// its own core type, and two launches on different streams that wait for
// each other in a GM barrier overlap (cross_launch_kernels.cpp;
// docs/ptocc.md, "Kernel type"; docs/semantics.md, "Launches on several streams").
#include <acl/acl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

extern "C" void launch_pair(int32_t*, int32_t*, int32_t*, int32_t*, int32_t*, int32_t, int32_t, void*, void*);
extern "C" void launch_vec(int32_t*, int32_t*, int32_t*, int32_t*, int32_t*, int32_t, void*);
extern "C" void launch_vec_from_mix(int32_t*, int32_t*, int32_t*, int32_t*, int32_t*, int32_t, void*);

namespace {

constexpr int kSlot = 8;

struct Buffers {
    int32_t *in = nullptr, *slots = nullptr, *counter = nullptr, *sums = nullptr, *types = nullptr;
    int total;
    explicit Buffers(int n) : total(n) {
        auto alloc = [](int32_t** p, size_t bytes) {
            ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(p), bytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
            ASSERT_EQ(aclrtMemset(*p, bytes, 0, bytes), ACL_SUCCESS);
        };
        alloc(&in, n * kSlot * 4);
        alloc(&slots, n * kSlot * 4);
        alloc(&counter, 32);
        alloc(&sums, n * 4);
        alloc(&types, n * 4);
        std::vector<int32_t> host(n * kSlot, 0);
        for (int p = 0; p < n; ++p) host[p * kSlot] = 100 + p;
        EXPECT_EQ(aclrtMemcpy(in, host.size() * 4, host.data(), host.size() * 4, ACL_MEMCPY_HOST_TO_DEVICE),
                  ACL_SUCCESS);
    }
    ~Buffers() {
        for (int32_t* p : {in, slots, counter, sums, types}) aclrtFree(p);
    }
    std::vector<int32_t> read(int32_t* p, int n) const {
        std::vector<int32_t> v(n);
        EXPECT_EQ(aclrtMemcpy(v.data(), n * 4, p, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        return v;
    }
    int32_t expected_sum() const { return total * 100 + total * (total - 1) / 2; }
};

class CrossLaunch : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
    void TearDown() override {
        aclrtResetDevice(0);
        aclFinalize();
    }
};

TEST_F(CrossLaunch, VectorKernelLaunchedFromACubeUnitRunsOnVectorCores) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    constexpr int n = 6;
    Buffers b(n);
    launch_vec(b.in, b.slots, b.counter, b.sums, b.types, n, s);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(b.read(b.types, n), std::vector<int32_t>(n, 2));
    EXPECT_EQ(b.read(b.sums, n), std::vector<int32_t>(n, b.expected_sum()));
    EXPECT_EQ(b.read(b.counter, 1)[0], n);
    aclrtDestroyStream(s);
}

// 18 Cube and 18 Vector participants, as in pto-isa's syncall 1:1 case: the
// Cube launch waits in its barrier until the Vector launch of the other
// stream has started and arrived, which it can only do beside it.
TEST_F(CrossLaunch, TwoStreamsMeetInOneGmBarrier) {
    aclrtStream cube = nullptr, vec = nullptr;
    ASSERT_EQ(aclrtCreateStream(&cube), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&vec), ACL_SUCCESS);
    constexpr int nc = 18, nv = 18, n = nc + nv;
    for (int round = 0; round < 3; ++round) {
        Buffers b(n);
        launch_pair(b.in, b.slots, b.counter, b.sums, b.types, nc, nv, cube, vec);
        ASSERT_EQ(aclrtSynchronizeStream(vec), ACL_SUCCESS) << aclGetRecentErrMsg();
        ASSERT_EQ(aclrtSynchronizeStream(cube), ACL_SUCCESS) << aclGetRecentErrMsg();
        std::vector<int32_t> types(n, 1);
        for (int p = nc; p < n; ++p) types[p] = 2;
        EXPECT_EQ(b.read(b.types, n), types) << "round " << round;
        EXPECT_EQ(b.read(b.sums, n), std::vector<int32_t>(n, b.expected_sum())) << "round " << round;
        EXPECT_EQ(b.read(b.counter, 1)[0], n) << "round " << round;
    }
    aclrtDestroyStream(vec);
    aclrtDestroyStream(cube);
}

// Same-stream order holds: the pair's launches on one stream cannot meet
// (the Vector launch waits for the Cube one, which waits for it), and the
// synchronisation reports the stuck barrier instead of letting them overlap.
TEST_F(CrossLaunch, OneStreamKeepsItsOrder) {
    setenv("PTO_SYNC_TIMEOUT_S", "1", 1);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    constexpr int nc = 2, nv = 2, n = nc + nv;
    Buffers b(n);
    launch_pair(b.in, b.slots, b.counter, b.sums, b.types, nc, nv, s, s);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, 1000), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(b.read(b.counter, 1)[0], nc);  // the Vector launch never started
    aclrtDestroyStream(s);
    unsetenv("PTO_SYNC_TIMEOUT_S");
}

// A Vector-only kernel launched from a mix translation unit: ptosim runs a
// mix unit's launches on its two variants, so it refuses the launch by name
// and says how to fix it; nothing runs.
TEST_F(CrossLaunch, AKernelLaunchedFromAMixUnitOfAnotherKindIsRefused) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    constexpr int n = 2;
    Buffers b(n);
    launch_vec_from_mix(b.in, b.slots, b.counter, b.sums, b.types, n, s);
    const std::string why = aclGetRecentErrMsg();
    EXPECT_NE(why.find("kernel 'cross_vec' launched at "), std::string::npos) << why;
    EXPECT_NE(why.find("cross_launch_kernels.cpp:"), std::string::npos) << why;
    EXPECT_NE(why.find(": the kernel is defined in a Vector-only translation unit and launched from a mix one; "
                       "ptosim runs a mix kernel's two variants only from the translation unit that defines it: "
                       "launch it from there (a host function in that source), or build both sources for the same "
                       "core type"),
              std::string::npos)
        << why;
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(b.read(b.counter, 1)[0], 0);  // the kernel never ran
    aclrtDestroyStream(s);
}

// A launch that needs a core type a launch in the background holds waits,
// and its stream's timeout names the launches in the background.
TEST_F(CrossLaunch, ALaunchWaitingForACoreTypeHeldInTheBackgroundNamesIt) {
    aclrtStream cube = nullptr, vec = nullptr, third = nullptr;
    ASSERT_EQ(aclrtCreateStream(&cube), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&vec), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&third), ACL_SUCCESS);
    constexpr int nc = 2, nv = 2, n = nc + nv;
    Buffers b(n);
    const int32_t never = -1000;  // the barrier never opens: both launches poll for good
    ASSERT_EQ(aclrtMemcpy(b.counter, 4, &never, 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    launch_pair(b.in, b.slots, b.counter, b.sums, b.types, nc, nv, cube, vec);
    // Once all four have arrived, both launches hold their core types.
    for (int i = 0; i < 5000 && b.read(b.counter, 1)[0] != never + n; ++i) usleep(1000);
    ASSERT_EQ(b.read(b.counter, 1)[0], never + n);
    launch_vec(b.in, b.slots, b.counter, b.sums, b.types, nv, third);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(third, 1000), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    const std::string why = aclGetRecentErrMsg();
    // In name order: which moved to the background first is the host threads' timing.
    EXPECT_NE(why.find(", 'cross_vec' (launched at "), std::string::npos) << why;
    EXPECT_NE(why.find("its next kernel has not started: it waits for the device's cores; kernel 'cross_cube' "
                       "(launched at "),
              std::string::npos)
        << why;
    EXPECT_NE(why.find("from other streams poll GM in the background"), std::string::npos) << why;
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(cube, 200), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(vec, 200), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_EQ(b.read(b.counter, 1)[0], never + n);  // both launches arrived, the third never started
    aclrtDestroyStream(third);
    aclrtDestroyStream(vec);
    aclrtDestroyStream(cube);
}

}  // namespace
