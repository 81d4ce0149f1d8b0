// The ACL subset: success paths, every rejected input with its exact CANN code,
// and the message a user gets from aclGetRecentErrMsg.
#include <acl/acl.h>
#include <runtime/rt_ffts.h>
#include <ptosim/c_api.h>
#include <ptosim/kernel_launch.hpp>
#include <ptosim/runtime.hpp>

#include <gtest/gtest.h>
#include <algorithm>
#include <atomic>
#include <future>
#include <memory>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include <sys/wait.h>
#include <unistd.h>

namespace {

std::string msg() { return aclGetRecentErrMsg(); }

#define EXPECT_MSG_HAS(sub) EXPECT_NE(msg().find(sub), std::string::npos) << "message: " << msg()

// ACL state is process-wide, so every test starts from "not initialised".
class Acl : public ::testing::Test {
protected:
    void SetUp() override {
        (void)aclFinalize();
        unsetenv("PTO_SIM_DEVICE_COUNT");
    }
    void TearDown() override {
        (void)aclFinalize();
        unsetenv("PTO_SIM_DEVICE_COUNT");
    }
};

// Initialised, with device 0 set.
class AclDev : public Acl {
protected:
    void SetUp() override {
        Acl::SetUp();
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    }
};

TEST(AclCodes, MatchCann) {
    EXPECT_EQ(ACL_SUCCESS, 0);
    EXPECT_EQ(ACL_ERROR_INVALID_PARAM, 100000);
    EXPECT_EQ(ACL_ERROR_UNINITIALIZE, 100001);
    EXPECT_EQ(ACL_ERROR_REPEAT_INITIALIZE, 100002);
    EXPECT_EQ(ACL_ERROR_REPEAT_FINALIZE, 100037);
    EXPECT_EQ(ACL_ERROR_BAD_ALLOC, 200000);
    EXPECT_EQ(ACL_ERROR_RT_PARAM_INVALID, 107000);
    EXPECT_EQ(ACL_ERROR_RT_INVALID_DEVICEID, 107001);
    EXPECT_EQ(ACL_ERROR_RT_CONTEXT_NULL, 107002);
    EXPECT_EQ(ACL_ERROR_RT_AICORE_EXCEPTION, 507015);
    EXPECT_EQ(ACL_ERROR_RT_VECTOR_CORE_EXCEPTION, 507035);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_SYNC_TIMEOUT, 507046);
    EXPECT_EQ(ACL_MEMCPY_HOST_TO_HOST, 0);
    EXPECT_EQ(ACL_MEMCPY_HOST_TO_DEVICE, 1);
    EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_HOST, 2);
    EXPECT_EQ(ACL_MEMCPY_DEVICE_TO_DEVICE, 3);
    EXPECT_EQ(ACL_MEM_MALLOC_HUGE_FIRST, 0);
    EXPECT_EQ(ACL_MEM_MALLOC_HUGE_ONLY, 1);
    EXPECT_EQ(ACL_MEM_MALLOC_NORMAL_ONLY, 2);
    EXPECT_EQ(RT_ERROR_NONE, 0);
}

// --- lifecycle -------------------------------------------------------------

TEST_F(Acl, InitFinalize) {
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT_MSG_HAS("already initialised");
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_ERROR_REPEAT_FINALIZE);
    EXPECT_MSG_HAS("aclFinalize");
    EXPECT_EQ(aclInit(""), ACL_SUCCESS);  // empty path means no configuration
}

TEST_F(Acl, InitWithConfigFile) {
    char path[] = "/tmp/ptosim_acl_cfgXXXXXX";
    int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(aclInit(path), ACL_SUCCESS);
    std::remove(path);
}

TEST_F(Acl, InitWithMissingConfigFile) {
    EXPECT_EQ(aclInit("/nonexistent/ptosim/acl.json"), ACL_ERROR_INVALID_FILE);
    EXPECT_MSG_HAS("/nonexistent/ptosim/acl.json");
    aclrtStream s = nullptr;
    EXPECT_EQ(aclrtCreateStream(&s), ACL_ERROR_UNINITIALIZE);  // the failed init left ACL uninitialised
}

TEST_F(Acl, CallsBeforeInit) {
    EXPECT_EQ(aclrtResetDevice(0), ACL_ERROR_UNINITIALIZE);
    EXPECT_MSG_HAS("aclInit");
    int32_t dev = -5;
    EXPECT_EQ(aclrtGetDevice(&dev), ACL_ERROR_UNINITIALIZE);
    aclrtStream s = nullptr;
    EXPECT_EQ(aclrtCreateStream(&s), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_UNINITIALIZE);
    void* p = reinterpret_cast<void*>(1);
    EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(p, nullptr);
    EXPECT_EQ(aclrtMallocHost(&p, 64), ACL_ERROR_UNINITIALIZE);
    char buf[8] = {};
    EXPECT_EQ(aclrtMemcpy(buf, 8, buf, 8, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_UNINITIALIZE);
    EXPECT_EQ(aclrtMemset(buf, 8, 0, 8), ACL_ERROR_UNINITIALIZE);
    EXPECT_MSG_HAS("aclrtMemset");
}

// CANN's runtime starts at the first aclrtSetDevice without aclInit
// (Huawei's mspti samples call aclInit after creating their stream; pto-isa's
// tprefetch_async never calls it): streams and memory work, a later aclInit
// succeeds once, and aclFinalize ends both.
TEST_F(Acl, SetDeviceBeforeAclInitStartsTheRuntime) {
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS) << msg();
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS) << msg();
    void* p = nullptr;
    ASSERT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtMemsetAsync(p, 64, 3, 64, s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclInit(nullptr), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclInit(nullptr), ACL_ERROR_REPEAT_INITIALIZE);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT_EQ(aclFinalize(), ACL_SUCCESS);
    EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
}

TEST_F(Acl, QueriesWorkBeforeInit) {
    uint32_t n = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
    EXPECT_EQ(n, 1u);
    const char* soc = aclrtGetSocName();
    ASSERT_NE(soc, nullptr);
    EXPECT_STREQ(soc, ptosim::Device::get().soc().name);
    EXPECT_NE(ptosim::find_soc(soc), nullptr);
}

TEST_F(Acl, CallsWithoutDevice) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    aclrtStream s = nullptr;
    EXPECT_EQ(aclrtCreateStream(&s), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_MSG_HAS("aclrtSetDevice");
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
    int32_t dev = -5;
    EXPECT_EQ(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
}

// --- devices ---------------------------------------------------------------

TEST_F(Acl, SetGetResetDevice) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(0), ACL_SUCCESS);  // setting again is allowed
    int32_t dev = -1;
    EXPECT_EQ(aclrtGetDevice(&dev), ACL_SUCCESS);
    EXPECT_EQ(dev, 0);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetDevice(&dev), ACL_ERROR_RT_CONTEXT_NULL);
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);  // resetting an unset device is tolerated
}

TEST_F(Acl, UnknownDeviceId) {
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_MSG_HAS("device id 1");
    EXPECT_MSG_HAS("PTO_SIM_DEVICE_COUNT");
    EXPECT_EQ(aclrtSetDevice(-1), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_MSG_HAS("device id -1");
    EXPECT_EQ(aclrtResetDevice(7), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_MSG_HAS("aclrtResetDevice");
}

TEST_F(Acl, DeviceCountFromEnv) {
    setenv("PTO_SIM_DEVICE_COUNT", "4", 1);
    uint32_t n = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
    EXPECT_EQ(n, 4u);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSetDevice(3), ACL_SUCCESS);
    int32_t dev = -1;
    EXPECT_EQ(aclrtGetDevice(&dev), ACL_SUCCESS);
    EXPECT_EQ(dev, 3);
    EXPECT_EQ(aclrtSetDevice(4), ACL_ERROR_RT_INVALID_DEVICEID);
    EXPECT_MSG_HAS("ids 0..3");
    // All devices share one SoC.
    EXPECT_STREQ(aclrtGetSocName(), ptosim::Device::get().soc().name);
}

TEST_F(Acl, DeviceCountEnvInvalidFallsBackToOne) {
    setenv("PTO_SIM_DEVICE_COUNT", "lots", 1);
    uint32_t n = 0;
    EXPECT_EQ(aclrtGetDeviceCount(&n), ACL_SUCCESS);
    EXPECT_EQ(n, 1u);
}

TEST_F(Acl, NullOutputPointers) {
    EXPECT_EQ(aclrtGetDeviceCount(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("count is null");
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtGetDevice(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("deviceId is null");
}

TEST_F(AclDev, OtherThreadUsesLastSetDevice) {
    aclError r = -1;
    int32_t dev = -1;
    std::thread t([&] {
        r = aclrtGetDevice(&dev);
    });
    t.join();
    EXPECT_EQ(r, ACL_SUCCESS);
    EXPECT_EQ(dev, 0);
}

// --- streams ---------------------------------------------------------------

TEST_F(AclDev, StreamLifecycle) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);  // empty stream
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, 100), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, -1), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("not a live stream");
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("not a live stream");
}

TEST_F(AclDev, DefaultStreamSync) {
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 50), ACL_SUCCESS);
}

TEST_F(AclDev, StreamBadArguments) {
    EXPECT_EQ(aclrtCreateStream(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("stream is null");
    EXPECT_EQ(aclrtDestroyStream(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("default stream cannot be destroyed");
    int not_a_stream = 0;
    EXPECT_EQ(aclrtSynchronizeStream(&not_a_stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyStream(&not_a_stream), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("timeout 0 ms");
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(nullptr, -2), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("-1");
}

TEST_F(AclDev, ResetDeviceReleasesStreams) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtResetDevice");
}

ptosim::LaunchSpec sleeping_launch(int ms) {
    ptosim::LaunchSpec spec;
    spec.kernel = "acl_test_sleep";
    spec.kind = ptosim::KernelKind::Vec;
    spec.target = ptosim::Device::get().soc().target;
    spec.block_dim = 1;
    spec.aiv_body = [ms] { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); };
    return spec;
}

// A timed-out synchronisation abandons the kernel and fails the stream;
// teardown returns at once even though this kernel never reaches a PTO call.
TEST_F(AclDev, SyncTimeoutFailsTheStreamAndTeardownReturns) {
    auto release = std::make_shared<std::atomic<bool>>(false);
    ptosim::LaunchSpec spin = sleeping_launch(0);
    spin.kernel = "acl_test_spin";
    spin.site = {"host.cpp", 9};
    spin.aiv_body = [release] {
        while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(spin).ok());
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    const std::string report =
        "stream synchronisation timed out after 0.05 s: kernel 'acl_test_spin' (launched at host.cpp:9, block_dim 1) "
        "has 0 of 1 blocks finished; unfinished cores:\n  AIV block 0: no PTO call yet";
    EXPECT_MSG_HAS("aclrtSynchronizeStreamWithTimeout: " + report);
    EXPECT_MSG_HAS("raise PTO_SYNC_TIMEOUT_S");
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    EXPECT_MSG_HAS("aclrtSynchronizeStream: the stream failed earlier and accepts no more work");
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, -1), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);

    // aclrtResetDevice releases a stream whose sync timed out without waiting.
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(spin).ok());
    EXPECT_EQ(aclrtSynchronizeStreamWithTimeout(s, 50), ACL_ERROR_RT_STREAM_SYNC_TIMEOUT);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("ptosim: error 507046: " + report), std::string::npos) << err;
    t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);
    release->store(true);
}

TEST_F(AclDev, KernelFaultSurfacesOnSync) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ptosim::LaunchSpec spec = sleeping_launch(0);
    spec.kernel = "acl_test_fault";
    spec.aiv_body = [] { ptosim::fault({}, "deliberate test fault"); };
    static_cast<ptosim::Stream*>(s)->enqueue_launch(std::move(spec));
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    EXPECT_MSG_HAS("deliberate test fault");  // visible on this thread, not just the worker's
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);  // the error is reported once
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// --- memory ----------------------------------------------------------------

TEST_F(AclDev, MallocFreeAllPolicies) {
    for (aclrtMemMallocPolicy p : {ACL_MEM_MALLOC_HUGE_FIRST, ACL_MEM_MALLOC_HUGE_ONLY, ACL_MEM_MALLOC_NORMAL_ONLY,
                                   ACL_MEM_MALLOC_HUGE_FIRST_P2P, ACL_MEM_MALLOC_NORMAL_ONLY_P2P,
                                   ACL_MEM_MALLOC_HUGE1G_ONLY_P2P}) {
        void* d = nullptr;
        ASSERT_EQ(aclrtMalloc(&d, 1000, p), ACL_SUCCESS) << msg();
        ASSERT_NE(d, nullptr);
        const std::optional<ptosim::Allocation> a = ptosim::Device::get().find(d, 1000);
        ASSERT_TRUE(a.has_value());
        EXPECT_TRUE(a->device);
        EXPECT_EQ(a->size, 1056u);  // rounded up to 32 bytes, plus 32 (CANN's aclrtMalloc)
        EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
    }
    void* d = nullptr;
    auto flagged = static_cast<aclrtMemMallocPolicy>(ACL_MEM_MALLOC_HUGE_FIRST | ACL_MEM_TYPE_HIGH_BAND_WIDTH);
    ASSERT_EQ(aclrtMalloc(&d, 64, flagged), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

// Fresh device memory reads as zero even where the host heap hands back a
// block it used before.
TEST_F(AclDev, FreshDeviceMemoryReadsZero) {
    for (int round = 0; round < 3; ++round) {
        void* d = nullptr;
        ASSERT_EQ(aclrtMalloc(&d, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << msg();
        std::vector<uint8_t> back(4096, 0xee);
        ASSERT_EQ(aclrtMemcpy(back.data(), back.size(), d, 4096, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS) << msg();
        EXPECT_EQ(std::count(back.begin(), back.end(), 0), 4096) << "round " << round;
        std::vector<uint8_t> junk(4096, 0xa5);
        ASSERT_EQ(aclrtMemcpy(d, 4096, junk.data(), junk.size(), ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS) << msg();
        ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
    }
}

// A freed host block keeps its contents (CANN pools pinned host pages), but
// ACL no longer accepts it.
TEST_F(AclDev, FreedHostBlockKeepsItsContentsButIsNoLongerRegistered) {
    void* h = nullptr;
    ASSERT_EQ(aclrtMallocHost(&h, 256), ACL_SUCCESS) << msg();
    std::memset(h, 0x5a, 256);
    ASSERT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
    for (int i = 0; i < 8; ++i) {  // heap churn that would reuse a block returned to malloc
        void* other = std::malloc(256);
        std::memset(other, 0, 256);
        std::free(other);
    }
    const auto* bytes = static_cast<const uint8_t*>(h);
    EXPECT_EQ(std::count(bytes, bytes + 256, 0x5a), 256);
    EXPECT_FALSE(ptosim::Device::get().find(h, 1).has_value());
    EXPECT_NE(aclrtFreeHost(h), ACL_SUCCESS);
}

TEST_F(AclDev, MallocHostFreeHost) {
    void* h = nullptr;
    ASSERT_EQ(aclrtMallocHost(&h, 256), ACL_SUCCESS);
    ASSERT_NE(h, nullptr);
    const std::optional<ptosim::Allocation> a = ptosim::Device::get().find(h, 256);
    ASSERT_TRUE(a.has_value());
    EXPECT_FALSE(a->device);
    EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
}

TEST_F(AclDev, MallocBadArguments) {
    EXPECT_EQ(aclrtMalloc(nullptr, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("devPtr is null");
    void* d = reinterpret_cast<void*>(1);
    EXPECT_EQ(aclrtMalloc(&d, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("size is 0");
    EXPECT_EQ(d, nullptr);
    EXPECT_EQ(aclrtMalloc(&d, 64, static_cast<aclrtMemMallocPolicy>(42)), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("policy 42");
    EXPECT_EQ(aclrtMallocHost(nullptr, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("hostPtr is null");
    EXPECT_EQ(aclrtMallocHost(&d, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMallocHost: size is 0");
}

TEST_F(AclDev, MallocTooLarge) {
    void* d = reinterpret_cast<void*>(1);
    EXPECT_EQ(aclrtMalloc(&d, SIZE_MAX / 2, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_BAD_ALLOC);
    EXPECT_MSG_HAS("aclrtMalloc: size 9223372036854775807 bytes exceeds the 2^47 bytes (128 TiB)");
    EXPECT_EQ(d, nullptr);
}

// Sizes are checked before rounding: SIZE_MAX rounded up to 32 bytes wraps.
TEST_F(AclDev, EveryAllocatorRefusesSizesNearSizeMax) {
    using Alloc = aclError (*)(void**, size_t);
    const std::pair<const char*, Alloc> allocators[] = {
        {"aclrtMalloc", [](void** p, size_t n) { return aclrtMalloc(p, n, ACL_MEM_MALLOC_HUGE_FIRST); }},
        {"aclrtMallocCached", [](void** p, size_t n) { return aclrtMallocCached(p, n, ACL_MEM_MALLOC_HUGE_FIRST); }},
        {"aclrtMallocAlign32", [](void** p, size_t n) { return aclrtMallocAlign32(p, n, ACL_MEM_MALLOC_HUGE_FIRST); }},
        {"aclrtMallocHost", [](void** p, size_t n) { return aclrtMallocHost(p, n); }},
    };
    const size_t sizes[] = {SIZE_MAX,      SIZE_MAX - 1,      SIZE_MAX - 31,      SIZE_MAX - 32,
                            SIZE_MAX - 62, SIZE_MAX - 63,     SIZE_MAX - 64,      size_t(-1) * 2,
                            SIZE_MAX / 2 + 1, (size_t(1) << 47) + 1};
    for (const auto& [name, alloc] : allocators) {
        for (size_t n : sizes) {
            void* p = reinterpret_cast<void*>(1);
            EXPECT_EQ(alloc(&p, n), ACL_ERROR_BAD_ALLOC) << name << "(" << n << ")";
            EXPECT_EQ(p, nullptr) << name << "(" << n << ")";
            EXPECT_MSG_HAS(std::string(name) + ": size " + std::to_string(n) + " bytes exceeds");
        }
    }
}

TEST_F(AclDev, MallocAlign32AndCachedBlockSizes) {
    void *a = nullptr, *c = nullptr;
    ASSERT_EQ(aclrtMallocAlign32(&a, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << msg();
    ASSERT_EQ(aclrtMallocCached(&c, 1000, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS) << msg();
    EXPECT_EQ(ptosim::Device::get().find(a, 1)->size, 1024u);  // rounded up to 32 bytes only
    EXPECT_EQ(ptosim::Device::get().find(c, 1)->size, 1056u);  // as aclrtMalloc
    void* bad = reinterpret_cast<void*>(1);
    EXPECT_EQ(aclrtMallocCached(&bad, 64, static_cast<aclrtMemMallocPolicy>(42)), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMallocCached: policy 42");
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(aclrtMallocAlign32(&bad, 0, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMallocAlign32: size is 0");
    EXPECT_EQ(aclrtFree(a), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(c), ACL_SUCCESS);
}

TEST_F(AclDev, MallocWithCfgTakesAModuleIdAndRefusesAnotherDevice) {
    aclrtMallocAttrValue v{};
    v.moduleId = 3;
    aclrtMallocAttribute attr{ACL_RT_MEM_ATTR_MODULE_ID, v};
    aclrtMallocConfig cfg{&attr, 1};
    void* p = nullptr;
    ASSERT_EQ(aclrtMallocWithCfg(&p, 1000, ACL_MEM_TYPE_HIGH_BAND_WIDTH, &cfg), ACL_SUCCESS) << msg();
    EXPECT_EQ(ptosim::Device::get().find(p, 1)->size, 1056u);  // as aclrtMalloc
    EXPECT_TRUE(ptosim::Device::get().find(p, 1)->device);
    void* q = nullptr;
    ASSERT_EQ(aclrtMallocWithCfg(&q, 64, ACL_MEM_MALLOC_HUGE_FIRST, nullptr), ACL_SUCCESS) << msg();
    aclrtMallocAttrValue dev{};
    dev.deviceId = 1;
    aclrtMallocAttribute attrs[2] = {attr, {ACL_RT_MEM_ATTR_DEVICE_ID, dev}};
    aclrtMallocConfig two{attrs, 2};
    void* bad = reinterpret_cast<void*>(1);
    EXPECT_EQ(aclrtMallocWithCfg(&bad, 64, ACL_MEM_MALLOC_HUGE_FIRST, &two), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMallocWithCfg: attribute 1 asks for device 1; each process simulates one device, 0");
    EXPECT_EQ(bad, nullptr);
    EXPECT_EQ(aclrtFree(p), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(q), ACL_SUCCESS);
}

// --- memory lifetime ---------------------------------------------------------

TEST_F(AclDev, FreeWaitsForAQueuedLaunchThatUsesTheBlock) {
    void *d = nullptr, *other = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&other, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    auto still_allocated = std::make_shared<std::atomic<int>>(-1);
    ptosim::LaunchSpec user = sleeping_launch(0);
    user.kernel = "acl_test_user";
    user.gm_args = {static_cast<char*>(d) + 100};  // a pointer into the block counts
    user.aiv_body = [d, still_allocated] {
        std::this_thread::sleep_for(std::chrono::milliseconds(150));
        *still_allocated = ptosim::Device::get().find(d, 256).has_value();
        static_cast<uint8_t*>(d)[0] = 7;
    };
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(user).ok());
    ptosim::LaunchSpec unrelated = sleeping_launch(300);
    unrelated.gm_args = {other};
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(unrelated).ok());
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS) << msg();
    const double waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_GE(waited, 0.1);
    EXPECT_LT(waited, 0.3) << "aclrtFree waited for the launch that does not use the block";
    EXPECT_EQ(still_allocated->load(), 1);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(other), ACL_SUCCESS);
}

std::string pointer_text(const void* p) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%p", p);
    return buf;
}

// Asynchronous copies and memsets queued behind a slow launch still use their
// blocks: aclrtFree waits for them as for a launch.
TEST_F(AclDev, FreeWaitsForQueuedAsyncCopiesAndMemsets) {
    void *src = nullptr, *dst = nullptr, *filled = nullptr;
    ASSERT_EQ(aclrtMalloc(&src, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&dst, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&filled, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(src, 64, 5, 64), ACL_SUCCESS);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(sleeping_launch(100)).ok());
    ASSERT_EQ(aclrtMemcpyAsync(dst, 64, src, 64, ACL_MEMCPY_DEVICE_TO_DEVICE, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemsetAsync(filled, 64, 9, 64, s), ACL_SUCCESS);
    const auto t0 = std::chrono::steady_clock::now();
    EXPECT_EQ(aclrtFree(src), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtFree(filled), ACL_SUCCESS) << msg();
    EXPECT_GE(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.05);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    std::vector<uint8_t> back(64);
    ASSERT_EQ(aclrtMemcpy(back.data(), 64, dst, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(back, std::vector<uint8_t>(64, 5));
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(dst), ACL_SUCCESS);
}

// aclrtCmoAsync: every cache operation is a task in stream order that
// changes no byte (pto-isa's device test tprefetch_async invalidates, though
// CANN's reference names only the prefetch); a value outside aclrtCmoType is
// refused; the arguments are checked in CANN's order.
TEST_F(AclDev, CmoAsyncOperationsOrderTheStreamChangeNoByteAndRefuseAnUnknownType) {
    void* d = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(d, 256, 7, 256), ACL_SUCCESS);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    for (const aclrtCmoType type : {ACL_RT_CMO_TYPE_PREFETCH, ACL_RT_CMO_TYPE_WRITEBACK, ACL_RT_CMO_TYPE_INVALID,
                                    ACL_RT_CMO_TYPE_FLUSH}) {
        EXPECT_EQ(aclrtCmoAsync(static_cast<uint8_t*>(d) + 64, 128, type, s), ACL_SUCCESS) << type << ": " << msg();
        ASSERT_EQ(aclrtMemsetAsync(static_cast<uint8_t*>(d) + 255, 1, type, 1, s), ACL_SUCCESS);  // ordered after it
    }
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    std::vector<uint8_t> back(256);
    ASSERT_EQ(aclrtMemcpy(back.data(), 256, d, 256, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    std::vector<uint8_t> want(256, 7);
    want[255] = ACL_RT_CMO_TYPE_FLUSH;  // the last memset, after the last operation
    EXPECT_EQ(back, want);

    EXPECT_EQ(aclrtCmoAsync(d, 64, static_cast<aclrtCmoType>(4), s), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(msg(), "aclrtCmoAsync: cmoType 4 is not an aclrtCmoType; pass ACL_RT_CMO_TYPE_PREFETCH (0), "
                     "_WRITEBACK (1), _INVALID (2) or _FLUSH (3)");

    // aclrtMalloc(256) makes a 288-byte block (CANN's rounding: up to a multiple of 32, plus 32).
    EXPECT_EQ(aclrtCmoAsync(static_cast<uint8_t*>(d) + 64, size_t{1} << 30, ACL_RT_CMO_TYPE_PREFETCH, s),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(msg(), "aclrtCmoAsync: src range " + pointer_text(static_cast<uint8_t*>(d) + 64) +
                         " + 1073741824 bytes runs past the end of its aclrtMalloc block (base " + pointer_text(d) +
                         ", 288 bytes, range starts at offset 64); pass a size of at most 224");
    std::vector<uint8_t> host(64);
    EXPECT_EQ(aclrtCmoAsync(host.data(), 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(msg(), "aclrtCmoAsync: src " + pointer_text(host.data()) +
                         " is not device memory; prefetch memory from aclrtMalloc of this device");
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    EXPECT_EQ(aclrtCmoAsync(pinned, 64, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(msg(), "aclrtCmoAsync: src " + pointer_text(pinned) + " is not device memory (it lies in the "
                         "aclrtMallocHost block at " + pointer_text(pinned) +
                         "); prefetch memory from aclrtMalloc of this device");
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
    // The pointer and the size are checked before the type, as CANN's ACL layer does.
    EXPECT_EQ(aclrtCmoAsync(d, 0, ACL_RT_CMO_TYPE_FLUSH, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(msg().find("aclrtCmoAsync: size is 0"), std::string::npos) << msg();
    EXPECT_EQ(aclrtCmoAsync(nullptr, 64, ACL_RT_CMO_TYPE_INVALID, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(msg().find("aclrtCmoAsync: src is null; pass device memory from aclrtMalloc"), std::string::npos)
        << msg();
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

// Work running on a stream cannot wait for a launch queued behind it (or
// for the cores it holds itself): aclrtFree there refuses at once.
TEST_F(AclDev, FreeFromWorkOnAStreamRefusesInsteadOfWaitingForever) {
    void* d = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    auto code = std::make_shared<std::atomic<int>>(-1);
    auto text = std::make_shared<std::string>();
    ptosim::LaunchSpec freer = sleeping_launch(0);
    freer.kernel = "acl_test_freer";
    freer.aiv_body = [d, code, text] {
        *code = aclrtFree(d);
        *text = msg();
    };
    ptosim::LaunchSpec user = sleeping_launch(0);
    user.site = {"user.cpp", 3};
    user.gm_args = {d};
    // The freer must run with `user` already queued behind it: a gate holds
    // the stream until both are in.
    auto open = std::make_shared<std::promise<void>>();
    ptosim::LaunchSpec gate = sleeping_launch(0);
    gate.kernel = "acl_test_gate";
    gate.aiv_body = [f = open->get_future().share()] { f.wait(); };
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(gate).ok());
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(freer).ok());
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(user).ok());
    open->set_value();
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(code->load(), ACL_ERROR_RT_MEMORY_FREE);
    EXPECT_EQ(*text, "aclrtFree: device block " + pointer_text(d) +
                         " (96 bytes) is an argument of kernel 'acl_test_sleep' (launched at user.cpp:3), which has "
                         "not finished, and this call runs on a stream (in a kernel or a stream task), where waiting "
                         "for it could never end; the block is not freed. Free it from host code after "
                         "synchronising the stream");
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// A child forked after aclInit has the parent's streams without their worker
// threads: its first ACL call is refused with the reason instead of a
// synchronisation that waits for the whole timeout.
TEST_F(AclDev, ForkedChildIsRefusedAtItsFirstAclCall) {
    void* d = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    const pid_t parent = getpid();
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
        close(fds[0]);
        std::string report = std::to_string(aclrtSynchronizeStream(nullptr));
        report += "|" + msg();
        report += "|" + std::to_string(aclrtFree(d));
        report += "|" + std::to_string(aclInit(nullptr));
        report += "\n" + std::to_string(getpid());
        (void)!write(fds[1], report.data(), report.size());
        _exit(0);
    }
    close(fds[1]);
    std::string got;
    char buf[1024];
    for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) got.append(buf, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    ASSERT_EQ(waitpid(child, &status, 0), child);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    const std::string cause = " (pid " + std::to_string(child) + ") was forked from pid " + std::to_string(parent) +
                              " after aclInit, and ACL state does not survive fork: the parent's streams have no "
                              "worker thread here and its device memory is a copy. Use ACL in the parent only, fork "
                              "before aclInit, or start the child with exec (Python: multiprocessing's \"spawn\" "
                              "start method)";
    EXPECT_EQ(got, "207000|aclrtSynchronizeStream: this process" + cause + "|207000|207000\n" +
                       std::to_string(child));
    // The parent is unaffected.
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}


// A <<<>>> launch (ptosim::cc::submit) given host memory outside every block,
// once the process has device memory, is refused before any block runs: on
// a device it is an invalid address. Device, one-past-the-end, registered host
// and freed blocks are not refused (a freed one faults at the access instead).
TEST_F(AclDev, PtoccLaunchGivenUnknownHostMemoryFailsWithoutRunning) {
    void *d = nullptr, *pinned = nullptr, *freed = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&freed, 256, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtFree(freed), ACL_SUCCESS);
    ASSERT_EQ(aclrtMallocHost(&pinned, 64), ACL_SUCCESS);
    const auto end = ptosim::Device::get().find(d)->size;
    std::vector<float> host(64);
    auto ran = std::make_shared<std::atomic<int>>(0);
    ptosim::LaunchSpec spec = sleeping_launch(0);
    spec.kernel = "acl_test_host_arg";
    spec.site = {"host_arg.cpp", 12};
    spec.aiv_body = [ran] { ++*ran; };
    spec.gm_args = {d, nullptr, pinned, static_cast<char*>(d) + end, freed, host.data()};
    const std::string want = "kernel 'acl_test_host_arg' launched at host_arg.cpp:12: argument 6 is " +
                             pointer_text(host.data()) +
                             ", host memory in no device block: a device cannot address it. A CPU tensor or host "
                             "buffer passed to the kernel? pass an npu tensor (x.npu()) or aclrtMalloc memory. The "
                             "kernel did not run.";
    testing::internal::CaptureStderr();
    ptosim::cc::submit(spec, nullptr);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "ptosim: error 507035: " + want + "\n");
    EXPECT_EQ(msg(), want);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    EXPECT_EQ(msg(), "aclrtSynchronizeStream: " + want);
    EXPECT_EQ(ran->load(), 0);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << "reported once";

    // A Cube (or mix) kernel's fault is an AI core exception.
    ptosim::LaunchSpec cube = spec;
    cube.kind = ptosim::KernelKind::Cube;
    cube.aic_body = spec.aiv_body;
    cube.aiv_body = nullptr;
    testing::internal::CaptureStderr();
    ptosim::cc::submit(cube, nullptr);
    EXPECT_EQ(testing::internal::GetCapturedStderr(), "ptosim: error 507015: " + want + "\n");
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_AICORE_EXCEPTION);
    EXPECT_EQ(ran->load(), 0);

    spec.gm_args.pop_back();
    ptosim::cc::submit(spec, nullptr);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << msg();
    EXPECT_EQ(ran->load(), 1);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

// A device program's GM access to memory in no allocation (here a host
// buffer whose address reached the kernel outside its pointer arguments, as
// an integer or inside a struct) is the device's access fault, at the access.
// The same body launched from C++ (run_launch) is not a device program and
// runs on host memory, as ptolab's own tests do.
TEST_F(AclDev, DeviceProgramAccessToHostMemoryIsALocatedFault) {
    auto host = std::make_shared<std::vector<float>>(64, 1.0f);
    auto ran = std::make_shared<std::atomic<int>>(0);
    ptosim::LaunchSpec spec = sleeping_launch(0);
    spec.kernel = "acl_test_host_access";
    spec.site = {"host.cpp", 7};
    spec.aiv_body = [host, ran] {
        ptosim::check_gm(host->data() + 8, 64, "TLOAD", {"kernel.cpp", 12});
        ++*ran;
    };
    spec.gm_args = {nullptr};  // an integer argument: invisible to the launch's own check
    EXPECT_TRUE(ptosim::run_launch(ptosim::Device::get(), spec).ok());
    EXPECT_EQ(ran->load(), 1);

    testing::internal::CaptureStderr();
    ptosim::cc::submit(spec, nullptr);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_EQ(msg(), "aclrtSynchronizeStream: kernel 'acl_test_host_access' (launched at host.cpp:7) faulted on AIV "
                     "block 0 at kernel.cpp:12: TLOAD: GM bytes [" + pointer_text(host->data() + 8) + ", " +
                         pointer_text(host->data() + 24) +
                         ") lie in no device allocation, an address the device does not map: host memory "
                         "(malloc/stack/NumPy) is not device memory: allocate it with aclrtMalloc / copy it with "
                         "aclrtMemcpy");
    EXPECT_EQ(ran->load(), 1) << "the access did not happen";

    // Registered host memory counts as mapped for the device (docs/acl.md).
    ASSERT_EQ(ptosim_register_memory(host->data(), host->size() * sizeof(float)), 0);
    ptosim::cc::submit(spec, nullptr);
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << msg();
    EXPECT_EQ(ran->load(), 2);
    EXPECT_EQ(ptosim_unregister_memory(host->data()), 0);
}

TEST_F(AclDev, KernelAccessToFreedDeviceMemoryIsALocatedFault) {
    void* d = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    const int free_line = __LINE__ + 1;
    ASSERT_EQ(aclrtFree(d), ACL_SUCCESS);
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    ptosim::LaunchSpec spec = sleeping_launch(0);
    spec.kernel = "acl_test_stale";
    spec.aiv_body = [d] { ptosim::check_gm(static_cast<char*>(d) + 32, 64, "TLOAD", {"kernel.cpp", 12}); };
    ASSERT_TRUE(static_cast<ptosim::Stream*>(s)->enqueue_launch(spec).ok());
    testing::internal::CaptureStderr();
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_VECTOR_CORE_EXCEPTION);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_MSG_HAS("kernel 'acl_test_stale' (launched at <unknown location>) faulted on AIV block 0 at kernel.cpp:12: "
                   "TLOAD: GM bytes [" + pointer_text(static_cast<char*>(d) + 32) + ", " +
                   pointer_text(static_cast<char*>(d) + 96) + ") lie in the 96-byte device block at " +
                   pointer_text(d) + ", which was freed by aclrtFree called from ");
    // Named by symbol and, with the test's line information, by file and line.
    EXPECT_MSG_HAS("test_acl.cpp:" + std::to_string(free_line) + "; free device memory only after");
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

TEST(AclDeathTest, RawKernelWriteToFreedDeviceMemoryNamesTheBlock) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            (void)aclInit(nullptr);
            (void)aclrtSetDevice(0);
            void* d = nullptr;
            (void)aclrtMalloc(&d, 4000, ACL_MEM_MALLOC_HUGE_FIRST);
            (void)aclrtFree(d);
            ptosim::LaunchSpec spec = sleeping_launch(0);
            spec.kernel = "acl_test_raw";
            spec.aiv_body = [d] { static_cast<volatile uint8_t*>(d)[100] = 1; };
            (void)ptosim::run_launch(ptosim::Device::get(), spec);
        },
        "ptosim: fatal: kernel 'acl_test_raw' on AIV 0 accessed freed device memory at 0x[0-9a-f]+: it lies in the "
        "4032-byte device block at 0x[0-9a-f]+, freed by aclrtFree called from .*test_acl");
}

// Random ACL call sequences, valid and invalid, on several streams and two
// threads (each with its own streams and blocks, so that its transcript is
// its own): every call returns 0 or an ACL error code with a message naming
// the call, device memory holds what the valid calls put there, and a seed
// gives the same transcript every time.
std::mutex g_fuzz_streams;

std::vector<std::string> acl_fuzz(uint32_t seed) {
    std::mt19937 rng(seed);
    struct Block {
        uint8_t* p;
        size_t n;
        std::vector<uint8_t> want;
        aclrtStream owner = nullptr;  // the stream its queued work is on: other streams are not ordered with it
    };
    std::vector<Block> live;
    std::vector<void*> dead;
    std::vector<aclrtStream> streams;
    std::vector<std::string> log;
    auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    auto note = [&](const std::string& call, aclError e) {
        if (e != ACL_SUCCESS) {
            EXPECT_GE(e, 100000) << call;
            EXPECT_LT(e, 600000) << call;
            const std::string m = msg();
            EXPECT_EQ(m.rfind(call.substr(0, call.find(' ')), 0), 0u) << call << ": " << m;
        }
        log.push_back(call + " = " + std::to_string(e));
    };
    auto sync_all = [&] {
        for (aclrtStream st : streams) note("aclrtSynchronizeStream", aclrtSynchronizeStream(st));
        for (Block& b : live) b.owner = nullptr;
    };
    for (int op = 0; op < 400; ++op) {
        switch (rng() % 10) {
        case 0: {
            const size_t n = 64 + pick(2048);
            void* p = nullptr;
            const aclError e = aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST);
            note("aclrtMalloc " + std::to_string(n), e);
            if (e == ACL_SUCCESS) live.push_back({static_cast<uint8_t*>(p), n, std::vector<uint8_t>(n, 0)});
            break;
        }
        case 1: {
            if (live.empty()) break;
            const size_t i = pick(live.size());
            note("aclrtFree", aclrtFree(live[i].p));  // waits for the queued work that uses it
            dead.push_back(live[i].p);
            live.erase(live.begin() + static_cast<long>(i));
            break;
        }
        case 2: {  // invalid frees: twice, inside a block, null
            const int k = static_cast<int>(rng() % 3);
            if (k == 0 && !dead.empty()) note("aclrtFree dead", aclrtFree(dead[pick(dead.size())]));
            if (k == 1 && !live.empty()) note("aclrtFree interior", aclrtFree(live[pick(live.size())].p + 1));
            if (k == 2) note("aclrtFree null", aclrtFree(nullptr));
            break;
        }
        case 3: {
            if (live.empty()) break;
            Block& b = live[pick(live.size())];
            sync_all();
            std::vector<uint8_t> data(b.n);
            for (auto& v : data) v = static_cast<uint8_t>(rng());
            const bool too_long = rng() % 4 == 0;
            const aclError e = aclrtMemcpy(b.p, b.n, data.data(), b.n + (too_long ? 1 : 0), ACL_MEMCPY_HOST_TO_DEVICE);
            note(std::string("aclrtMemcpy h2d") + (too_long ? " too long" : ""), e);
            if (e == ACL_SUCCESS) b.want = data;
            break;
        }
        case 4: {
            if (live.empty() || streams.empty()) break;
            Block& b = live[pick(live.size())];
            aclrtStream st = b.owner ? b.owner : streams[pick(streams.size())];
            b.owner = st;
            ptosim::LaunchSpec spec = sleeping_launch(0);
            spec.kernel = "acl_fuzz_inc";
            spec.site = {"fuzz.cpp", 1};
            spec.gm_args = {b.p};
            spec.aiv_body = [p = b.p, n = b.n] {
                for (size_t i = 0; i < n; ++i) ++p[i];
            };
            ptosim::cc::submit(spec, st);
            for (auto& v : b.want) ++v;
            log.push_back("launch");
            break;
        }
        case 5: {
            if (live.empty() || streams.empty()) break;
            Block& b = live[pick(live.size())];
            aclrtStream st = b.owner ? b.owner : streams[pick(streams.size())];
            b.owner = st;
            const int value = static_cast<int>(rng() % 256);
            const aclError e = aclrtMemsetAsync(b.p, b.n, value, b.n, st);
            note("aclrtMemsetAsync", e);
            if (e == ACL_SUCCESS) b.want.assign(b.n, static_cast<uint8_t>(value));
            break;
        }
        case 6: {
            if (live.empty()) break;
            Block& b = live[pick(live.size())];
            sync_all();
            std::vector<uint8_t> back(b.n);
            note("aclrtMemcpy d2h", aclrtMemcpy(back.data(), b.n, b.p, b.n, ACL_MEMCPY_DEVICE_TO_HOST));
            EXPECT_EQ(back, b.want) << "seed " << seed << " op " << op;
            log.push_back(back == b.want ? "contents ok" : "contents differ");
            break;
        }
        case 7: {
            if (streams.size() >= 3) break;
            std::lock_guard lk(g_fuzz_streams);
            aclrtStream st = nullptr;
            const aclError e = aclrtCreateStream(&st);
            note("aclrtCreateStream", e);
            if (e == ACL_SUCCESS) streams.push_back(st);
            break;
        }
        case 8: {
            if (streams.empty()) break;
            const size_t i = pick(streams.size());
            aclrtStream st = streams[i];
            // A destroyed stream's address may be reused by the next stream
            // created: the calls on it follow at once, with creation held off.
            std::lock_guard lk(g_fuzz_streams);
            note("aclrtDestroyStream", aclrtDestroyStream(st));  // runs its queued work first
            for (Block& b : live)
                if (b.owner == st) b.owner = nullptr;
            streams.erase(streams.begin() + static_cast<long>(i));
            const int k = static_cast<int>(rng() % 3);
            if (k == 0) note("aclrtSynchronizeStream destroyed", aclrtSynchronizeStream(st));
            if (k == 1) note("aclrtDestroyStream destroyed", aclrtDestroyStream(st));
            if (k == 2 && !live.empty()) {
                Block& b = live[pick(live.size())];
                note("aclrtMemsetAsync destroyed", aclrtMemsetAsync(b.p, b.n, 1, b.n, st));
            }
            break;
        }
        case 9: {  // a copy longer than its destination, a size-0 allocation
            if (rng() % 2 && !live.empty()) {
                Block& b = live[pick(live.size())];
                std::vector<uint8_t> back(b.n);
                note("aclrtMemcpy d2h too long", aclrtMemcpy(back.data(), b.n, b.p, b.n + 1, ACL_MEMCPY_DEVICE_TO_HOST));
            } else {
                void* p = nullptr;
                note("aclrtMalloc 0", aclrtMalloc(&p, 0, ACL_MEM_MALLOC_HUGE_FIRST));
            }
            break;
        }
        }
    }
    sync_all();
    for (Block& b : live) {
        std::vector<uint8_t> back(b.n);
        note("aclrtMemcpy d2h", aclrtMemcpy(back.data(), b.n, b.p, b.n, ACL_MEMCPY_DEVICE_TO_HOST));
        EXPECT_EQ(back, b.want) << "seed " << seed << " at the end";
        note("aclrtFree", aclrtFree(b.p));
    }
    for (aclrtStream st : streams) note("aclrtDestroyStream", aclrtDestroyStream(st));
    return log;
}

TEST_F(AclDev, FuzzRandomCallSequencesOnSeveralStreamsAndThreads) {
    for (uint32_t seed : {11u, 12u, 13u}) {
        std::vector<std::string> first[2], again[2];
        for (auto* out : {first, again}) {
            std::thread other([&] { out[1] = acl_fuzz(seed * 1000); });
            out[0] = acl_fuzz(seed);
            other.join();
        }
        EXPECT_EQ(first[0], again[0]) << "seed " << seed << " is not deterministic";
        EXPECT_EQ(first[1], again[1]) << "seed " << seed * 1000 << " is not deterministic";
    }
}

TEST_F(AclDev, FreeErrors) {
    EXPECT_EQ(aclrtFree(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("devPtr is null");
    EXPECT_EQ(aclrtFreeHost(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("hostPtr is null");

    void* d = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 128, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(d), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("free it with aclrtFree");
    EXPECT_EQ(aclrtFree(static_cast<char*>(d) + 16), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("16 bytes into the block");
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("double free");

    void* h = nullptr;
    ASSERT_EQ(aclrtMallocHost(&h, 128), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(h), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("free it with aclrtFreeHost");
    EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(h), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtFreeHost");

    int stack_var = 0;
    EXPECT_EQ(aclrtFree(&stack_var), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("never came from aclrtMalloc");
}

TEST_F(AclDev, MemcpyRoundTrip) {
    constexpr size_t n = 1024;
    std::vector<uint8_t> in(n), out(n, 0);
    for (size_t i = 0; i < n; ++i) in[i] = static_cast<uint8_t>(i * 7 + 3);
    void *d1 = nullptr, *d2 = nullptr;
    ASSERT_EQ(aclrtMalloc(&d1, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&d2, n, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(d1, n, in.data(), n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(d2, n, d1, n, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(out.data(), n, d2, n, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(in, out);

    // Partial copy into the middle of a block, then DEFAULT direction inference.
    EXPECT_EQ(aclrtMemset(d1, n, 0, n), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(static_cast<char*>(d1) + 512, 512, in.data(), 512, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    std::vector<uint8_t> back(n, 0xff);
    EXPECT_EQ(aclrtMemcpy(back.data(), n, d1, n, ACL_MEMCPY_DEFAULT), ACL_SUCCESS);
    for (size_t i = 0; i < 512; ++i) ASSERT_EQ(back[i], 0) << i;
    for (size_t i = 0; i < 512; ++i) ASSERT_EQ(back[512 + i], in[i]) << i;

    void* h = nullptr;
    ASSERT_EQ(aclrtMallocHost(&h, n), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(h, n, in.data(), n, ACL_MEMCPY_HOST_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(std::memcmp(h, in.data(), n), 0);
    EXPECT_EQ(aclrtMemcpy(d2, n, h, n, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);  // pinned host -> device

    EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d1), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d2), ACL_SUCCESS);
}

TEST_F(AclDev, MemcpyBadArguments) {
    char host[64] = {};
    void* d = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);

    EXPECT_EQ(aclrtMemcpy(nullptr, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("dst is null");
    EXPECT_EQ(aclrtMemcpy(d, 64, nullptr, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("src is null");
    EXPECT_EQ(aclrtMemcpy(d, 64, host, 0, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("count is 0");
    EXPECT_EQ(aclrtMemcpy(d, 32, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("count 64 exceeds destMax 32");
    EXPECT_EQ(aclrtMemcpy(d, 64, host, 64, static_cast<aclrtMemcpyKind>(9)), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("kind 9");

    // Wrong direction for where the pointers live.
    char other[64] = {};
    EXPECT_EQ(aclrtMemcpy(other, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("dst");
    EXPECT_MSG_HAS("is not device memory");
    EXPECT_MSG_HAS("ACL_MEMCPY_HOST_TO_DEVICE");
    void* d2 = nullptr;
    ASSERT_EQ(aclrtMalloc(&d2, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(d, 64, d2, 64, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("src");
    EXPECT_MSG_HAS("is device memory");
    EXPECT_EQ(aclrtMemcpy(host, 64, other, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("src");
    EXPECT_MSG_HAS("is not device memory");
    EXPECT_EQ(aclrtMemcpy(d2, 64, d, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("dst");
    EXPECT_EQ(aclrtMemcpy(host, 64, d, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("ACL_MEMCPY_HOST_TO_HOST");
    EXPECT_EQ(aclrtMemcpy(d, 64, host, 64, ACL_MEMCPY_DEVICE_TO_DEVICE), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("ACL_MEMCPY_DEVICE_TO_DEVICE");

    // Ranges running past the end of a block.
    // (a 64-byte request is a 96-byte block: rounded to 32 bytes, plus 32)
    EXPECT_EQ(aclrtMemcpy(static_cast<char*>(d) + 64, 64, host, 64, ACL_MEMCPY_HOST_TO_DEVICE),
              ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("runs past the end");
    EXPECT_MSG_HAS("offset 64");
    char big[128] = {};
    EXPECT_EQ(aclrtMemcpy(big, 128, d, 128, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("runs past the end");
    void* h = nullptr;
    ASSERT_EQ(aclrtMallocHost(&h, 16), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(h, 64, host, 64, ACL_MEMCPY_HOST_TO_HOST), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMallocHost block");

    // A freed device block is no longer device memory.
    ASSERT_EQ(aclrtFree(d2), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(host, 64, d2, 64, ACL_MEMCPY_DEVICE_TO_HOST), ACL_ERROR_INVALID_PARAM);

    EXPECT_EQ(aclrtFreeHost(h), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

TEST_F(AclDev, Memset) {
    void* d = nullptr;
    ASSERT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(d, 64, 0x1AB, 64), ACL_SUCCESS);  // low byte, as memset
    for (int i = 0; i < 64; ++i) ASSERT_EQ(static_cast<uint8_t*>(d)[i], 0xAB);
    EXPECT_EQ(aclrtMemset(static_cast<char*>(d) + 8, 56, 0, 8), ACL_SUCCESS);
    EXPECT_EQ(static_cast<uint8_t*>(d)[8], 0);
    EXPECT_EQ(static_cast<uint8_t*>(d)[16], 0xAB);
    char host[16];
    EXPECT_EQ(aclrtMemset(host, 16, 7, 16), ACL_SUCCESS);  // host memory is accepted too
    EXPECT_EQ(host[15], 7);

    EXPECT_EQ(aclrtMemset(nullptr, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("devPtr is null");
    EXPECT_EQ(aclrtMemset(d, 64, 0, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("count is 0");
    EXPECT_EQ(aclrtMemset(d, 32, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("count 64 exceeds maxCount 32");
    EXPECT_EQ(aclrtMemset(static_cast<char*>(d) + 60, 64, 0, 64), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("runs past the end");
    EXPECT_EQ(aclrtFree(d), ACL_SUCCESS);
}

TEST_F(AclDev, FinalizeThenCallsFail) {
    ASSERT_EQ(aclFinalize(), ACL_SUCCESS);
    void* d = nullptr;
    EXPECT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_UNINITIALIZE);
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);  // re-initialising after finalize is allowed
    EXPECT_EQ(aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_ERROR_RT_CONTEXT_NULL);
}

// --- rt_ffts.h ---------------------------------------------------------------

TEST(AclFfts, C2cCtrlAddr) {
    uint64_t addr = 0;
    uint32_t len = 0;
    EXPECT_EQ(rtGetC2cCtrlAddr(&addr, &len), RT_ERROR_NONE);
    EXPECT_NE(addr, 0u);
    EXPECT_EQ(addr, ptosim::Device::get().ffts_ctrl_addr());
    EXPECT_EQ(len, 64u);
    EXPECT_EQ(rtGetC2cCtrlAddr(nullptr, &len), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_MSG_HAS("addr is null");
    EXPECT_EQ(rtGetC2cCtrlAddr(&addr, nullptr), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_MSG_HAS("len is null");
}

}  // namespace
