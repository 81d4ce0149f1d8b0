// ACL graphs (docs/acl.md, "ACL graphs"): capture, replay, task groups and
// their updates, events across streams, capture modes, and every documented
// misuse with its exact CANN code and the message a user gets.
#include <acl/acl.h>
#include <ptosim/c_api.h>
#include <ptosim/cost.hpp>
#include <ptosim/kernel_launch.hpp>
#include <ptosim/peers.hpp>
#include <ptosim/runtime.hpp>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace {

std::string msg() { return aclGetRecentErrMsg(); }

#define EXPECT_MSG_HAS(sub) EXPECT_NE(msg().find(sub), std::string::npos) << "message: " << msg()

class Graph : public ::testing::Test {
protected:
    void SetUp() override {
        (void)aclFinalize();
        ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
        ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
        ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
        x = dev(kN), y = dev(kN), z = dev(kN), w = dev(kN);
        for (int i = 0; i < kN; ++i) x[i] = static_cast<float>(i) * 0.5f, y[i] = 1.0f / static_cast<float>(i + 1);
    }
    void TearDown() override { (void)aclFinalize(); }

    float* dev(int n) {
        void* p = nullptr;
        EXPECT_EQ(aclrtMalloc(&p, n * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        std::memset(p, 0, n * sizeof(float));
        return static_cast<float*>(p);
    }

    static constexpr int kN = 256;
    aclrtStream s = nullptr;
    float *x = nullptr, *y = nullptr, *z = nullptr, *w = nullptr;
};

// A Vector launch as ptocc's <<<>>> queues it, its body on the host: out = a + b.
ptosim::LaunchSpec add_spec(const float* a, const float* b, float* out, std::shared_ptr<std::atomic<int>> runs = {},
                            const char* name = "graph_add") {
    ptosim::LaunchSpec spec;
    spec.kernel = name;
    spec.site = {"graph_test.cpp", 7};
    spec.kind = ptosim::KernelKind::Vec;
    spec.target = ptosim::Device::get().soc().target;
    spec.block_dim = 1;
    spec.aiv_body = [a, b, out, runs] {
        for (int i = 0; i < 256; ++i) out[i] = a[i] + b[i];
        if (runs) ++*runs;
    };
    spec.gm_args = {a, b, out};
    return spec;
}

// out = out * 3 + a: a result that depends on the order of the tasks.
ptosim::LaunchSpec fma_spec(const float* a, float* out) {
    ptosim::LaunchSpec spec = add_spec(a, a, out, {}, "graph_fma");
    spec.aiv_body = [a, out] {
        for (int i = 0; i < 256; ++i) out[i] = out[i] * 3.0f + a[i];
    };
    spec.gm_args = {a, out};
    return spec;
}

ptosim::LaunchSpec sleep_spec(int ms) {
    ptosim::LaunchSpec spec = add_spec(nullptr, nullptr, nullptr, {}, "graph_sleep");
    spec.aiv_body = [ms] { std::this_thread::sleep_for(std::chrono::milliseconds(ms)); };
    spec.gm_args = {};
    return spec;
}

void launch(const ptosim::LaunchSpec& spec, aclrtStream st) { ptosim::cc::submit(spec, st); }

TEST(GraphCodes, MatchCann) {
    EXPECT_EQ(ACL_ERROR_RT_CAPTURE_DEPENDENCY, 107024);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_UNJOINED, 107025);
    EXPECT_EQ(ACL_ERROR_RT_MODEL_CAPTURED, 107026);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURED, 107027);
    EXPECT_EQ(ACL_ERROR_RT_EVENT_CAPTURED, 107028);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_NOT_CAPTURED, 107029);
    EXPECT_EQ(ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT, 107030);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT, 107031);
    EXPECT_EQ(ACL_ERROR_STREAM_CAPTURE_CONFLICT, 107032);
    EXPECT_EQ(ACL_ERROR_STREAM_TASK_GROUP_STATUS, 107033);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED, 107036);
    EXPECT_EQ(ACL_ERROR_RT_MODEL_RUNNING, 107037);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD, 107038);
    EXPECT_EQ(ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED, 507903);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_GLOBAL, 0);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL, 1);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_MODE_RELAXED, 2);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_NONE, 0);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE, 1);
    EXPECT_EQ(ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED, 2);
}

TEST_F(Graph, CaptureRecordsLaunchesAndEachReplayRunsThem) {
    auto runs = std::make_shared<std::atomic<int>>(0);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    aclmdlRICaptureStatus st = ACL_MODEL_RI_CAPTURE_STATUS_NONE;
    aclmdlRI during = nullptr;
    ASSERT_EQ(aclmdlRICaptureGetInfo(s, &st, &during), ACL_SUCCESS);
    EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE);
    EXPECT_NE(during, nullptr);
    launch(add_spec(x, y, z, runs), s);
    // Recorded, not run: a synchronisation has nothing to wait for and says so.
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_MSG_HAS("aclrtSynchronizeStream: the stream is capturing (aclmdlRICaptureBegin)");
    EXPECT_EQ(runs->load(), 0);
    EXPECT_EQ(z[3], 0.0f);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS) << msg();
    EXPECT_EQ(m, during) << "GetInfo names the model the capture ends in";
    ASSERT_EQ(aclmdlRICaptureGetInfo(s, &st, &during), ACL_SUCCESS);
    EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE);
    EXPECT_EQ(during, nullptr);
    EXPECT_EQ(runs->load(), 0);
    for (int r = 0; r < 3; ++r) ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS) << msg();
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(runs->load(), 3);
    for (int i = 0; i < kN; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << i;
    ASSERT_EQ(aclmdlRIExecute(m, 1000), ACL_SUCCESS) << msg();
    EXPECT_EQ(runs->load(), 4);
    ASSERT_EQ(aclmdlRIExecute(m, -1), ACL_SUCCESS) << msg();
    EXPECT_EQ(runs->load(), 5);
    EXPECT_EQ(aclmdlRIExecute(m, 0), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRIExecute(m, -2), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

// A replay is the captured work in order: the same bytes as issuing it directly.
TEST_F(Graph, ReplayIsBitIdenticalToDirectIssue) {
    void* pinned = nullptr;
    ASSERT_EQ(aclrtMallocHost(&pinned, kN * sizeof(float)), ACL_SUCCESS);
    auto issue = [&](aclrtStream st, float* out) {
        EXPECT_EQ(aclrtMemsetAsync(out, kN * sizeof(float), 0, kN * sizeof(float), st), ACL_SUCCESS) << msg();
        launch(add_spec(x, y, out), st);
        launch(fma_spec(y, out), st);
        launch(fma_spec(x, out), st);
        EXPECT_EQ(aclrtMemcpyAsync(pinned, kN * sizeof(float), out, kN * sizeof(float), ACL_MEMCPY_DEVICE_TO_HOST, st),
                  ACL_SUCCESS)
            << msg();
    };
    issue(s, w);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    std::vector<float> direct(w, w + kN);
    ASSERT_EQ(std::memcmp(pinned, direct.data(), sizeof(float) * kN), 0);
    std::memset(pinned, 0, sizeof(float) * kN);

    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    issue(s, z);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS) << msg();
    EXPECT_EQ(z[0], 0.0f);
    for (int r = 0; r < 2; ++r) {
        std::memset(z, 0x7f, sizeof(float) * kN);  // the captured memset clears it at every replay
        ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS) << msg();
        ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
        EXPECT_EQ(std::memcmp(z, direct.data(), sizeof(float) * kN), 0) << "replay " << r;
        EXPECT_EQ(std::memcmp(pinned, direct.data(), sizeof(float) * kN), 0) << "replay " << r;
    }
    // The tasks read the inputs at the replay, not at the capture.
    x[5] += 1.0f;
    ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_NE(z[5], direct[5]);
    EXPECT_EQ(z[6], direct[6]);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
    EXPECT_EQ(aclrtFreeHost(pinned), ACL_SUCCESS);
}

TEST_F(Graph, DebugPrintListsTheTasks) {
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    launch(add_spec(x, y, z), s);
    ASSERT_EQ(aclrtMemsetAsync(w, 16, 1, 16, s), ACL_SUCCESS);
    aclmdlRI m = nullptr;
    EXPECT_EQ(aclmdlRIDebugPrint(nullptr), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(aclmdlRICaptureGetInfo(s, nullptr, &m), ACL_ERROR_INVALID_PARAM);
    aclmdlRICaptureStatus st;
    ASSERT_EQ(aclmdlRICaptureGetInfo(s, &st, &m), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDebugPrint(m), ACL_ERROR_RT_MODEL_CAPTURED);
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    testing::internal::CaptureStdout();
    ASSERT_EQ(aclmdlRIDebugPrint(m), ACL_SUCCESS);
    const std::string out = testing::internal::GetCapturedStdout();
    char head[64];
    std::snprintf(head, sizeof head, "aclmdlRI %p: 2 task(s) captured on 1 stream(s)", m);
    EXPECT_EQ(out.rfind(head, 0), 0u) << out;
    EXPECT_NE(out.find("task 0: kernel 'graph_add' (launched at graph_test.cpp:7, block_dim 1)"), std::string::npos) << out;
    EXPECT_NE(out.find("task 1: aclrtMemsetAsync("), std::string::npos) << out;
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

// aclrtCmoAsync is a task of a capture like a memset, and replays.
TEST_F(Graph, CaptureRecordsACacheOperationAndReplaysIt) {
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(aclrtCmoAsync(w, 16, ACL_RT_CMO_TYPE_PREFETCH, s), ACL_SUCCESS) << msg();
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    testing::internal::CaptureStdout();
    ASSERT_EQ(aclmdlRIDebugPrint(m), ACL_SUCCESS);
    const std::string out = testing::internal::GetCapturedStdout();
    char task[96];
    std::snprintf(task, sizeof task, "task 0: aclrtCmoAsync(%p, 16 bytes, ACL_RT_CMO_TYPE_PREFETCH)", w);
    EXPECT_NE(out.find(task), std::string::npos) << out;
    EXPECT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

// --- capture modes and unsafe calls ------------------------------------------

TEST_F(Graph, GlobalModeRefusesSynchronousCopiesToEveryThread) {
    std::vector<float> host(kN, 2.0f);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(z, kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    EXPECT_MSG_HAS("aclrtMemcpy: this thread is capturing a stream (aclmdlRICaptureBegin in mode GLOBAL or THREAD_LOCAL)");
    EXPECT_EQ(z[0], 0.0f) << "refused, not copied";
    EXPECT_EQ(aclrtMemset(z, kN * 4, 1, kN * 4), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    // A pageable host buffer in an asynchronous copy is unsafe as well; pinned memory is captured.
    EXPECT_EQ(aclrtMemcpyAsync(z, kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE, s),
              ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    int other = -1, other_relaxed = -1, other_thread_local = -1;
    std::string other_msg;
    std::thread([&] {
        other = aclrtMemcpy(z, kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE);
        other_msg = aclGetRecentErrMsg();
        aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL;
        EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
        EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL) << "threads start in GLOBAL";
        other_thread_local = aclrtMemset(w, 16, 0, 16);
        mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
        EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
        EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL);
        other_relaxed = aclrtMemset(w, 16, 0, 16);
    }).join();
    EXPECT_EQ(other, ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    EXPECT_NE(other_msg.find("1 capture(s) in ACL_MODEL_RI_CAPTURE_MODE_GLOBAL are active"), std::string::npos) << other_msg;
    EXPECT_EQ(other_thread_local, ACL_SUCCESS);
    EXPECT_EQ(other_relaxed, ACL_SUCCESS);
    // The capturing thread itself may switch to RELAXED.
    aclmdlRICaptureMode mode = ACL_MODEL_RI_CAPTURE_MODE_RELAXED;
    ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(z, kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    EXPECT_EQ(z[0], 2.0f);
    ASSERT_EQ(aclmdlRICaptureThreadExchangeMode(&mode), ACL_SUCCESS);
    EXPECT_EQ(mode, ACL_MODEL_RI_CAPTURE_MODE_RELAXED);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemcpy(z, kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS) << "capture over";
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

TEST_F(Graph, ThreadLocalModeRefusesOnlyTheCapturingThread) {
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_THREAD_LOCAL), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(z, 16, 0, 16), ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT);
    int other = -1;
    std::thread([&] { other = aclrtMemset(z, 16, 0, 16); }).join();
    EXPECT_EQ(other, ACL_SUCCESS);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

TEST_F(Graph, RelaxedModeAllowsUnsafeCalls) {
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(z, 16, 0, 16), ACL_SUCCESS);
    aclmdlRI m = nullptr;
    // RELAXED captures may end on another thread.
    int ended = -1;
    std::thread([&] { ended = aclmdlRICaptureEnd(s, &m); }).join();
    EXPECT_EQ(ended, ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

TEST_F(Graph, ExchangeModeRejectsBadArguments) {
    EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(nullptr), ACL_ERROR_INVALID_PARAM);
    auto bad = static_cast<aclmdlRICaptureMode>(7);
    EXPECT_EQ(aclmdlRICaptureThreadExchangeMode(&bad), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("*mode 7 is not an aclmdlRICaptureMode");
    EXPECT_EQ(static_cast<int>(bad), 7) << "unchanged on failure";
}

// --- misuse ----------------------------------------------------------------

TEST_F(Graph, BeginAndEndMisuse) {
    aclmdlRI m = reinterpret_cast<aclmdlRI>(1);
    EXPECT_EQ(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    EXPECT_EQ(m, nullptr);
    EXPECT_MSG_HAS("is not capturing; call aclmdlRICaptureBegin on it first");
    EXPECT_EQ(aclmdlRICaptureEnd(s, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRICaptureBegin(nullptr, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
    EXPECT_MSG_HAS("the default stream (nullptr) cannot be captured");
    EXPECT_EQ(aclmdlRICaptureBegin(s, static_cast<aclmdlRICaptureMode>(3)), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRICaptureBegin(reinterpret_cast<aclrtStream>(0x1234), ACL_MODEL_RI_CAPTURE_MODE_GLOBAL),
              ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_MSG_HAS("is already capturing");
    aclrtStream other = nullptr;
    ASSERT_EQ(aclrtCreateStream(&other), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureEnd(other, &m), ACL_ERROR_RT_STREAM_NOT_CAPTURED) << "a different stream";
    int wrong_thread = -1;
    std::string wrong_msg;
    std::thread([&] {
        aclmdlRI mm = nullptr;
        wrong_thread = aclmdlRICaptureEnd(s, &mm);
        wrong_msg = aclGetRecentErrMsg();
    }).join();
    EXPECT_EQ(wrong_thread, ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD);
    EXPECT_NE(wrong_msg.find("end it on the thread that began it"), std::string::npos) << wrong_msg;
    // Destroying the capturing stream is refused; the capture goes on.
    EXPECT_EQ(aclrtDestroyStream(s), ACL_ERROR_RT_STREAM_CAPTURED);
    EXPECT_MSG_HAS("end the capture (aclmdlRICaptureEnd)");
    EXPECT_EQ(aclmdlRIExecuteAsync(nullptr, other), ACL_ERROR_RT_PARAM_INVALID);
    aclmdlRICaptureStatus st;
    aclmdlRI during = nullptr;
    ASSERT_EQ(aclmdlRICaptureGetInfo(s, &st, &during), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIExecuteAsync(during, other), ACL_ERROR_RT_MODEL_CAPTURED);
    EXPECT_EQ(aclmdlRIDestroy(during), ACL_ERROR_RT_MODEL_CAPTURED);
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
    s = nullptr;
    EXPECT_EQ(aclmdlRIExecuteAsync(m, other), ACL_SUCCESS) << "an empty model replays as nothing";
    EXPECT_EQ(aclrtSynchronizeStream(other), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
    // Replay and destroy after destroy.
    EXPECT_EQ(aclmdlRIExecuteAsync(m, other), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_MSG_HAS("is not a live model runtime instance (destroyed with aclmdlRIDestroy");
    EXPECT_EQ(aclmdlRIExecute(m, 100), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclmdlRIDebugPrint(m), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_EQ(aclrtDestroyStream(other), ACL_SUCCESS);
}

TEST_F(Graph, ReplayIntoACapturingStreamIsRefused) {
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    launch(add_spec(x, y, z), s);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIExecuteAsync(m, s), ACL_ERROR_RT_STREAM_CAPTURED);
    aclmdlRI m2 = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m2), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m2), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

TEST_F(Graph, DestroyWhileAReplayRunsIsRefused) {
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    launch(sleep_spec(300), s);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_ERROR_RT_MODEL_RUNNING);
    EXPECT_MSG_HAS("replay(s) queued or running; synchronize the stream first");
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

TEST_F(Graph, FreeingMemoryACapturedTaskUsesIsRefused) {
    float* own = dev(kN);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    launch(add_spec(x, y, own), s);
    ASSERT_EQ(aclrtMemsetAsync(w, 64, 0, 64, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(own), ACL_ERROR_RT_MEMORY_FREE) << "during the capture too";
    EXPECT_MSG_HAS("(still capturing)");
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(own), ACL_ERROR_RT_MEMORY_FREE);
    char want[200];
    std::snprintf(want, sizeof want, "is used by task 0 (kernel 'graph_add' (launched at graph_test.cpp:7, block_dim 1)) of aclmdlRI %p", m);
    EXPECT_MSG_HAS(want);
    EXPECT_MSG_HAS("destroy the model first (aclmdlRIDestroy)");
    EXPECT_EQ(aclrtFree(w), ACL_ERROR_RT_MEMORY_FREE) << "a memset's range";
    ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(own[9], x[9] + y[9]) << "the block stayed valid";
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
    EXPECT_EQ(aclrtFree(own), ACL_SUCCESS);
}

TEST_F(Graph, ARefusedLaunchInvalidatesTheCapture) {
    std::vector<float> host(kN);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    testing::internal::CaptureStderr();
    launch(add_spec(x, y, host.data()), s);
    (void)testing::internal::GetCapturedStderr();
    aclmdlRICaptureStatus st;
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureGetInfo(s, &st, &m), ACL_SUCCESS);
    EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_INVALIDATED);
    EXPECT_EQ(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED);
    EXPECT_EQ(m, nullptr);
    EXPECT_MSG_HAS("the capture was invalidated and is discarded: a launch on stream");
    EXPECT_MSG_HAS("host memory in no device block");
    // The stream works again.
    launch(add_spec(x, y, z), s);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(z[1], x[1] + y[1]);
}

TEST_F(Graph, ResetDeviceDropsACapture) {
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    launch(add_spec(x, y, z), s);
    ASSERT_EQ(aclrtResetDevice(0), ACL_SUCCESS);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    EXPECT_EQ(aclrtMemset(z, 16, 0, 16), ACL_SUCCESS) << "no capture is left to forbid it";
    EXPECT_EQ(aclmdlRICaptureEnd(s, nullptr), ACL_ERROR_INVALID_PARAM);
}

// --- events and streams joined by them ---------------------------------------

TEST_F(Graph, EventsOrderStreams) {
    aclrtStream s2 = nullptr;
    aclrtEvent e = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&e), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateEvent(nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtStreamWaitEvent(s2, e), ACL_SUCCESS) << "never recorded: nothing to wait for";
    launch(sleep_spec(200), s);
    launch(add_spec(x, y, z), s);
    ASSERT_EQ(aclrtRecordEvent(e, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(s2, e), ACL_SUCCESS);
    launch(fma_spec(x, z), s2);  // must see the add's result
    ASSERT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS) << msg();
    for (int i = 0; i < kN; ++i) ASSERT_EQ(z[i], (x[i] + y[i]) * 3.0f + x[i]) << i;
    EXPECT_EQ(aclrtSynchronizeEvent(e), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(e), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("is not a live event");
    EXPECT_EQ(aclrtRecordEvent(e, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtStreamWaitEvent(s, e), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtSynchronizeEvent(e), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

TEST_F(Graph, StreamsJoinedByEventsAreCapturedAndReplayedInOrder) {
    aclrtStream s2 = nullptr;
    aclrtEvent fork = nullptr, join = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&join), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    launch(add_spec(x, y, z), s);
    ASSERT_EQ(aclrtRecordEvent(fork, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEvent(fork), ACL_ERROR_RT_EVENT_CAPTURED);
    EXPECT_EQ(aclrtDestroyEvent(fork), ACL_ERROR_RT_EVENT_CAPTURED);
    ASSERT_EQ(aclrtStreamWaitEvent(s2, fork), ACL_SUCCESS) << msg();
    aclmdlRICaptureStatus st;
    aclmdlRI m1 = nullptr, m2 = nullptr;
    ASSERT_EQ(aclmdlRICaptureGetInfo(s, &st, &m1), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureGetInfo(s2, &st, &m2), ACL_SUCCESS);
    EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_ACTIVE) << "s2 joined the capture";
    EXPECT_EQ(m1, m2);
    launch(fma_spec(x, z), s2);
    ASSERT_EQ(aclrtRecordEvent(join, s2), ACL_SUCCESS);
    aclmdlRI m = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(s2, &m), ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED);
    EXPECT_MSG_HAS("end the capture on the stream it began on");
    ASSERT_EQ(aclrtStreamWaitEvent(s, join), ACL_SUCCESS);
    launch(fma_spec(y, z), s);
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS) << msg();
    ASSERT_EQ(aclmdlRICaptureGetInfo(s2, &st, &m2), ACL_SUCCESS);
    EXPECT_EQ(st, ACL_MODEL_RI_CAPTURE_STATUS_NONE) << "the joined stream left the capture with it";
    EXPECT_EQ(z[2], 0.0f);
    aclrtStream s3 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s3), ACL_SUCCESS);
    for (int r = 0; r < 2; ++r) ASSERT_EQ(aclmdlRIExecuteAsync(m, s3), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s3), ACL_SUCCESS) << msg();
    for (int i = 0; i < kN; ++i) ASSERT_EQ(z[i], ((x[i] + y[i]) * 3.0f + x[i]) * 3.0f + y[i]) << i;
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
    for (aclrtStream t : {s2, s3}) EXPECT_EQ(aclrtDestroyStream(t), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(fork), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(join), ACL_SUCCESS);
}

TEST_F(Graph, AJoinedStreamThatNeverRejoinsFailsTheEnd) {
    aclrtStream s2 = nullptr;
    aclrtEvent fork = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&fork), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(fork, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamWaitEvent(s2, fork), ACL_SUCCESS);
    launch(add_spec(x, y, z), s2);
    aclmdlRI m = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(s, &m), ACL_ERROR_RT_STREAM_UNJOINED);
    EXPECT_EQ(m, nullptr);
    EXPECT_MSG_HAS("never rejoined the origin stream: its last task must be an aclrtRecordEvent");
    // Both streams left the capture; s2 runs its work again.
    launch(add_spec(x, y, z), s2);
    EXPECT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS) << msg();
    EXPECT_EQ(z[4], x[4] + y[4]);
    EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyEvent(fork), ACL_SUCCESS);
}

TEST_F(Graph, WaitsAcrossCapturesAreRefused) {
    aclrtStream s2 = nullptr;
    aclrtEvent e1 = nullptr, outside = nullptr, never = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    for (aclrtEvent* e : {&e1, &outside, &never}) ASSERT_EQ(aclrtCreateEvent(e), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(outside, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(s2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(e1, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamWaitEvent(s2, e1), ACL_ERROR_STREAM_CAPTURE_CONFLICT);
    EXPECT_MSG_HAS("was recorded in another capture");
    EXPECT_EQ(aclrtStreamWaitEvent(s2, outside), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    EXPECT_MSG_HAS("was last recorded outside the capture");
    EXPECT_EQ(aclrtStreamWaitEvent(s2, never), ACL_ERROR_RT_CAPTURE_DEPENDENCY);
    EXPECT_MSG_HAS("was never recorded");
    EXPECT_EQ(aclrtStreamWaitEvent(nullptr, e1), ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT);
    aclmdlRI m = nullptr, m2 = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s2, &m2), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m2), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeEvent(e1), ACL_SUCCESS) << "the capture's record never ran: nothing to wait for";
    EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
    for (aclrtEvent e : {e1, outside, never}) EXPECT_EQ(aclrtDestroyEvent(e), ACL_SUCCESS);
}

// --- task groups and updates -------------------------------------------------

TEST_F(Graph, TaskGroupUpdatesReplaceArgumentsBetweenReplays) {
    float* a2 = dev(kN);
    float* out2 = dev(kN);
    for (int i = 0; i < kN; ++i) a2[i] = 100.0f + static_cast<float>(i);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    launch(add_spec(x, x, w), s);  // outside the group: never updated
    ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS) << msg();
    launch(add_spec(x, y, z), s);
    launch(fma_spec(y, z), s);
    aclrtTaskGrp grp = nullptr;
    ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_SUCCESS);
    ASSERT_NE(grp, nullptr);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);

    ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    for (int i = 0; i < kN; ++i) ASSERT_EQ(z[i], (x[i] + y[i]) * 3.0f + y[i]);

    aclrtStream up = nullptr;
    ASSERT_EQ(aclrtCreateStream(&up), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(up, grp), ACL_SUCCESS) << msg();
    launch(add_spec(a2, y, out2), up);
    launch(fma_spec(a2, out2), up);
    EXPECT_EQ(aclrtSynchronizeStream(up), ACL_ERROR_RT_STREAM_CAPTURED) << "updating: nothing runs";
    ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(up), ACL_SUCCESS) << msg();
    EXPECT_EQ(out2[0], 0.0f) << "the update's launches did not run";
    std::memset(w, 0, sizeof(float) * kN);
    for (int r = 0; r < 2; ++r) ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    for (int i = 0; i < kN; ++i) {
        ASSERT_EQ(out2[i], (a2[i] + y[i]) * 3.0f + a2[i]) << i;
        ASSERT_EQ(w[i], x[i] + x[i]) << "the task outside the group still runs";
    }
    // A count that differs from the group's is refused and the group keeps its tasks.
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(up, grp), ACL_SUCCESS);
    launch(add_spec(x, y, z), up);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(up), ACL_ERROR_RT_PARAM_INVALID);
    EXPECT_MSG_HAS("1 task(s) were issued between aclmdlRICaptureTaskUpdateBegin and End, but task group 1 of");
    std::memset(out2, 0, sizeof(float) * kN);
    ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(out2[3], (a2[3] + y[3]) * 3.0f + a2[3]);
    EXPECT_EQ(aclrtDestroyStream(up), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(s, grp), ACL_ERROR_RT_PARAM_INVALID) << "the group died with its model";
}

TEST_F(Graph, TaskGroupMisuse) {
    aclrtTaskGrp grp = nullptr;
    EXPECT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    EXPECT_EQ(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_ERROR_RT_STREAM_NOT_CAPTURED);
    EXPECT_EQ(aclmdlRICaptureTaskGrpEnd(s, nullptr), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateEnd(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(s, reinterpret_cast<aclrtTaskGrp>(0x10)), ACL_ERROR_RT_PARAM_INVALID);
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    ASSERT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskGrpBegin(s), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_EQ(aclrtMemsetAsync(z, 16, 0, 16, s), 507009) << "a task group holds kernel launches only";
    launch(add_spec(x, y, z), s);
    aclmdlRI m = nullptr;
    EXPECT_EQ(aclmdlRICaptureEnd(s, &m), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_MSG_HAS("has a task group open; close it with aclmdlRICaptureTaskGrpEnd");
    ASSERT_EQ(aclmdlRICaptureTaskGrpEnd(s, &grp), ACL_SUCCESS);
    aclrtStream up = nullptr, up2 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&up), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStream(&up2), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(up, grp), ACL_ERROR_RT_MODEL_CAPTURED) << "the capture goes on";
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureBegin(up2, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(up2, grp), ACL_ERROR_RT_STREAM_CAPTURED);
    aclmdlRI m2 = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(up2, &m2), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateBegin(up, grp), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(up, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_EQ(aclmdlRICaptureTaskUpdateBegin(up2, grp), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_MSG_HAS("is already being updated on stream");
    EXPECT_EQ(aclmdlRICaptureBegin(up, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_EQ(aclrtMemsetAsync(z, 16, 0, 16, up), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_ERROR_STREAM_TASK_GROUP_STATUS);
    EXPECT_EQ(aclrtDestroyStream(up), ACL_ERROR_RT_STREAM_CAPTURED) << "updating";
    launch(add_spec(x, y, z), up);
    ASSERT_EQ(aclmdlRICaptureTaskUpdateEnd(up), ACL_SUCCESS) << msg();
    for (aclrtStream t : {up, up2}) EXPECT_EQ(aclrtDestroyStream(t), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
    EXPECT_EQ(aclmdlRIDestroy(m2), ACL_SUCCESS);
}

// --- asynchronous copies outside captures --------------------------------------

TEST_F(Graph, AsyncCopiesRunInStreamOrderAndCheckLikeTheSynchronousOnes) {
    std::vector<float> host(kN, 4.0f), back(kN, 0.0f);
    launch(sleep_spec(100), s);
    ASSERT_EQ(aclrtMemcpyAsync(z, kN * 4, host.data(), kN * 4, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_SUCCESS);
    EXPECT_EQ(z[0], 0.0f) << "queued behind the launch";
    ASSERT_EQ(aclrtMemsetAsync(w, kN * 4, 0, kN * 4, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(back.data(), kN * 4, z, kN * 4, ACL_MEMCPY_DEVICE_TO_HOST, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    EXPECT_EQ(back[7], 4.0f);
    EXPECT_EQ(aclrtMemcpyAsync(z, 4, host.data(), 8, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMemcpyAsync: count 8 exceeds destMax 4");
    EXPECT_EQ(aclrtMemcpyAsync(host.data(), kN * 4, z, kN * 4, ACL_MEMCPY_HOST_TO_DEVICE, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMemcpyAsync: dst");
    EXPECT_EQ(aclrtMemsetAsync(nullptr, 4, 0, 4, s), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtMemsetAsync: devPtr is null");
    EXPECT_EQ(aclrtMemsetAsync(z, 4, 0, 4, reinterpret_cast<aclrtStream>(0x99)), ACL_ERROR_INVALID_PARAM);
}

// --- launches of different streams on different kinds of core ------------------

// A launch whose blocks poll a GM flag, as pto-isa's TWAIT does (a dcci, then
// a volatile read): each block waits until *flag reaches `want` or `give_up_ms`
// of wall time passed, then writes what it saw to seen[block].
ptosim::LaunchSpec poll_spec(ptosim::KernelKind kind, int32_t* flag, int32_t want, int32_t* seen,
                             std::atomic<int>* started, int give_up_ms, const char* name) {
    ptosim::LaunchSpec spec;
    spec.kernel = name;
    spec.site = {"graph_test.cpp", 30};
    spec.kind = kind;
    spec.target = ptosim::Device::get().soc().target;
    spec.block_dim = 2;
    auto body = [flag, want, seen, started, give_up_ms] {
        ++*started;
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(give_up_ms);
        int32_t v = __atomic_load_n(flag, __ATOMIC_ACQUIRE);
        while (v < want && std::chrono::steady_clock::now() < until) {
            ptosim::poll_gm({"graph_test.cpp", 31}, flag, "a test's poll");
            v = __atomic_load_n(flag, __ATOMIC_ACQUIRE);
        }
        seen[ptosim::core().block_idx] = v;
    };
    if (kind == ptosim::KernelKind::Cube) spec.aic_body = body;
    else spec.aiv_body = body;
    spec.gm_args = {flag, seen};
    return spec;
}

// Each block adds 1 to *flag.
ptosim::LaunchSpec bump_spec(ptosim::KernelKind kind, int32_t* flag) {
    ptosim::LaunchSpec spec;
    spec.kernel = "graph_bump";
    spec.site = {"graph_test.cpp", 40};
    spec.kind = kind;
    spec.target = ptosim::Device::get().soc().target;
    spec.block_dim = 2;
    auto body = [flag] { __atomic_fetch_add(flag, 1, __ATOMIC_ACQ_REL); };
    if (kind == ptosim::KernelKind::Cube) spec.aic_body = body;
    else spec.aiv_body = body;
    spec.gm_args = {flag};
    return spec;
}

// pto-isa's allgather_gemm in small: the GEMM kernel (Cube cores, one stream)
// waits for counters the communication kernel (Vector cores, another stream)
// bumps. On the device they run at once on their own cores; when ptosim ran
// one launch at a time, a Cube launch that took the device first polled
// forever while the Vector launch waited behind it (the 8-rank run's hang).
// A Cube launch on stream `s` polls a GM counter that a Vector launch of a
// second stream, issued once the Cube launch has started, bumps twice.
// `flag` and `seen` are device memory, zeroed.
void expect_cube_launch_sees_the_vector_launch(aclrtStream s, int32_t* flag, int32_t* seen, const char* name) {
    aclrtStream s2 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    std::atomic<int> started{0};
    launch(poll_spec(ptosim::KernelKind::Cube, flag, 2, seen, &started, 10000, name), s);
    while (started.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    launch(bump_spec(ptosim::KernelKind::Vec, flag), s2);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS) << msg();
    EXPECT_EQ(*flag, 2);
    EXPECT_EQ(seen[0], 2) << "block 0 of the Cube launch gave up: the Vector launch did not run beside it";
    EXPECT_EQ(seen[1], 2) << "block 1 of the Cube launch gave up: the Vector launch did not run beside it";
    EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

TEST_F(Graph, ACubeLaunchWaitingForAVectorLaunchOfAnotherStreamRunsBesideIt) {
    expect_cube_launch_sees_the_vector_launch(s, reinterpret_cast<int32_t*>(dev(8)), reinterpret_cast<int32_t*>(dev(8)),
                                              "graph_wait_cube");
}

// The same under the cost model (PTO_SIM_TIME, as pto-isa's allgather_gemm
// runs to time itself): a launch that only polls still moves to the
// background, so the Vector launch runs beside it and both finish.
TEST_F(Graph, UnderTheCostModelALaunchWaitingForAnotherStreamStillRunsBesideIt) {
    const bool was = ptosim::cost::enabled();
    ptosim::cost::enable(true);
    expect_cube_launch_sees_the_vector_launch(s, reinterpret_cast<int32_t*>(dev(8)), reinterpret_cast<int32_t*>(dev(8)),
                                              "graph_wait_cube_timed");
    ptosim::cost::enable(was);
}

// The same with the roles swapped: a Vector launch waits for a Cube launch.
TEST_F(Graph, AVectorLaunchWaitingForACubeLaunchOfAnotherStreamRunsBesideIt) {
    aclrtStream s2 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    auto* flag = reinterpret_cast<int32_t*>(dev(8));
    auto* seen = reinterpret_cast<int32_t*>(dev(8));
    std::atomic<int> started{0};
    launch(poll_spec(ptosim::KernelKind::Vec, flag, 2, seen, &started, 10000, "graph_wait_vec"), s);
    while (started.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    launch(bump_spec(ptosim::KernelKind::Cube, flag), s2);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS) << msg();
    EXPECT_EQ(seen[0], 2);
    EXPECT_EQ(seen[1], 2);
    EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

// Launches that need the same cores still run one after another: a Vector
// launch waiting for another stream's Vector launch sees nothing until it
// gives up, and the second runs after it.
TEST_F(Graph, LaunchesOnTheSameKindOfCoreRunOneAfterAnother) {
    aclrtStream s2 = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s2), ACL_SUCCESS);
    auto* flag = reinterpret_cast<int32_t*>(dev(8));
    auto* seen = reinterpret_cast<int32_t*>(dev(8));
    std::atomic<int> started{0};
    launch(poll_spec(ptosim::KernelKind::Vec, flag, 2, seen, &started, 300, "graph_wait_vec"), s);
    while (started.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    launch(bump_spec(ptosim::KernelKind::Vec, flag), s2);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtSynchronizeStream(s2), ACL_SUCCESS) << msg();
    EXPECT_EQ(seen[0], 0);
    EXPECT_EQ(seen[1], 0);
    EXPECT_EQ(*flag, 2) << "the second launch ran after the first";
    EXPECT_EQ(aclrtDestroyStream(s2), ACL_SUCCESS);
}

// --- event timing ---------------------------------------------------------------

// aclrtEventElapsedTime: the simulated device time between two records, in
// milliseconds; the codes of CANN's runtime for events without a timestamp.
TEST_F(Graph, ElapsedTimeIsTheSimulatedTimeBetweenTwoRecords) {
    EXPECT_EQ(ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID, 107006);
    EXPECT_EQ(ACL_ERROR_RT_INTERNAL_ERROR, 507000);
    aclrtEvent a = nullptr, b = nullptr;
    ASSERT_EQ(aclrtCreateEvent(&a), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateEvent(&b), ACL_SUCCESS);
    float ms = -1.0f;
    EXPECT_EQ(aclrtEventElapsedTime(nullptr, a, b), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("aclrtEventElapsedTime: ms is null");
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
    EXPECT_MSG_HAS("startEvent ");
    EXPECT_MSG_HAS(" was never recorded; record both events");
    EXPECT_EQ(ms, -1.0f) << "a failed call leaves ms alone";

    ptosim_enable_timing(1);
    ASSERT_EQ(aclrtRecordEvent(a, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_INTERNAL_ERROR);
    EXPECT_MSG_HAS("endEvent ");
    const double t0 = ptosim_simulated_time_us();
    for (int i = 0; i < 3; ++i) launch(add_spec(x, y, z), s);
    ASSERT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    const double us = ptosim_simulated_time_us() - t0;
    ASSERT_GT(us, 0.0);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS) << msg();
    EXPECT_EQ(ms, static_cast<float>(us / 1000.0)) << "three launches: " << us << " us simulated";
    EXPECT_EQ(aclrtEventElapsedTime(&ms, b, a), ACL_SUCCESS) << msg();
    EXPECT_EQ(ms, static_cast<float>(-us / 1000.0)) << "end before start: negative, as CANN's runtime computes it";
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, a), ACL_SUCCESS) << msg();
    EXPECT_EQ(ms, 0.0f);

    // The latest record counts: b again, behind a launch still running.
    launch(sleep_spec(300), s);
    ASSERT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
    ms = -1.0f;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
    EXPECT_MSG_HAS("the latest record of endEvent ");
    EXPECT_MSG_HAS(" has not run yet");
    EXPECT_EQ(ms, -1.0f);
    EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_SUCCESS) << msg();
    EXPECT_GT(ms, static_cast<float>(us / 1000.0)) << "the sleep's launch is timed too";

    // Records while the cost model is off carry no simulated time.
    ptosim_enable_timing(0);
    if (!ptosim::cost::enabled()) {  // else PTO_SIM_TIME or a trace keeps it on for the whole process
        ASSERT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
        EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
        EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID);
        EXPECT_MSG_HAS(" was recorded while the simulated clock was off");
        EXPECT_MSG_HAS("PTO_SIM_TIME=1");
    }

    // A record inside a capture runs at each replay, not now.
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_RELAXED), ACL_SUCCESS);
    ASSERT_EQ(aclrtRecordEvent(b, s), ACL_SUCCESS);
    ms = -1.0f;
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_RT_EVENT_CAPTURED);
    EXPECT_MSG_HAS("aclrtEventElapsedTime: endEvent ");
    EXPECT_MSG_HAS(" is recorded in the capture of ");
    EXPECT_MSG_HAS("the record runs at a replay, not now; end the capture first");
    EXPECT_EQ(ms, -1.0f);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS) << msg();
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);

    EXPECT_EQ(aclrtDestroyEvent(b), ACL_SUCCESS);
    EXPECT_EQ(aclrtEventElapsedTime(&ms, a, b), ACL_ERROR_INVALID_PARAM);
    EXPECT_MSG_HAS("is not a live event");
    EXPECT_EQ(aclrtDestroyEvent(a), ACL_SUCCESS);
}

// --- the cost model sees replays -----------------------------------------------

// A replay of n kernels pays the fixed launch overhead once: n-1 overheads
// less than the same kernels launched one by one (docs/cost-model.md).
TEST_F(Graph, AReplayPaysTheLaunchOverheadOnce) {
    ptosim_enable_timing(1);
    auto run3 = [&](auto&& issue) {
        const double t0 = ptosim_simulated_time_us();
        issue();
        EXPECT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << msg();
        return ptosim_simulated_time_us() - t0;
    };
    const double direct = run3([&] {
        for (int i = 0; i < 3; ++i) launch(add_spec(x, y, z), s);
    });
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    for (int i = 0; i < 3; ++i) launch(add_spec(x, y, z), s);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    const double replay = run3([&] { EXPECT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS); });
    ptosim_enable_timing(0);
    const double overhead = ptosim::cost::params_for(ptosim::Device::get().soc()).launch_us;
    ASSERT_GT(overhead, 0.0);
    EXPECT_NEAR(direct - replay, 2 * overhead, 1e-6) << "direct " << direct << " us, replay " << replay << " us";
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

// Run by ctest with PTO_SIM_TRACE set (acl_graph_trace): a replay is a group
// on its own track of the trace, and its launches say which replay they are.
TEST_F(Graph, TraceShowsReplaysAsGroups) {
    const char* path = std::getenv("PTO_SIM_TRACE");
    if (!path || !*path) GTEST_SKIP() << "needs PTO_SIM_TRACE";
    ASSERT_EQ(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), ACL_SUCCESS);
    launch(add_spec(x, y, z), s);
    launch(fma_spec(x, z), s);
    aclmdlRI m = nullptr;
    ASSERT_EQ(aclmdlRICaptureEnd(s, &m), ACL_SUCCESS);
    ASSERT_EQ(aclmdlRIExecuteAsync(m, s), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS);
    std::ifstream f(path);
    std::stringstream ss;
    ss << f.rdbuf();
    const std::string t = ss.str();
    char note[160];
    std::snprintf(note, sizeof note, "launch 2: graph_fma (replay 1 of aclmdlRI %p, kernel 2 of 2)", m);
    EXPECT_NE(t.find(note), std::string::npos) << t.substr(0, 2000);
    EXPECT_NE(t.find("\"name\":\"ACL graph replays\""), std::string::npos);
    EXPECT_NE(t.find("\"name\":\"replay 1\",\"cat\":\"graph\""), std::string::npos);
    EXPECT_EQ(aclmdlRIDestroy(m), ACL_SUCCESS);
}

}  // namespace
