// ptolab's HCCL (docs/many-devices.md) under mpirun: every rank runs every
// test in the same order, so the collectives of a test meet. Exact values
// and messages; the reductions' results must be bit-identical on all ranks.
#include <acl/acl.h>
#include <hccl/hccl.h>
#include <hccl/hcom.h>

#include <gtest/gtest.h>

#include "mpi_ranks.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

namespace {

using comm_test::mpi_ranks;

HcclComm g_comm = nullptr;
int R() { return mpi_ranks().rank; }
int N() { return mpi_ranks().size; }
std::string prefix() { return N() > 1 ? "rank " + std::to_string(R()) + ": " : ""; }

// A device buffer holding `v`, and reading one back.
template <class T>
void* dev(const std::vector<T>& v) {
    void* p = nullptr;
    EXPECT_EQ(aclrtMalloc(&p, v.size() * sizeof(T) + 32, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    aclrtMemcpy(p, v.size() * sizeof(T), v.data(), v.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE);
    return p;
}
template <class T>
std::vector<T> host(void* p, size_t n) {
    std::vector<T> v(n);
    aclrtMemcpy(v.data(), n * sizeof(T), p, n * sizeof(T), ACL_MEMCPY_DEVICE_TO_HOST);
    return v;
}

TEST(Hccl, RankSizeAndDevices) {
    uint32_t rank = 99, size = 99, devices = 0;
    ASSERT_EQ(HcclGetRankId(g_comm, &rank), HCCL_SUCCESS);
    ASSERT_EQ(HcclGetRankSize(g_comm, &size), HCCL_SUCCESS);
    EXPECT_EQ(rank, static_cast<uint32_t>(R()));
    EXPECT_EQ(size, static_cast<uint32_t>(N()));
    // One simulated device per rank the launcher started on this host.
    ASSERT_EQ(aclrtGetDeviceCount(&devices), ACL_SUCCESS);
    EXPECT_EQ(devices, static_cast<uint32_t>(N()));
    int32_t d = -1;
    ASSERT_EQ(aclrtGetDevice(&d), ACL_SUCCESS);
    EXPECT_EQ(d, R());
}

TEST(Hccl, NameHandleAndTopology) {
    char name[MAX_GROUP_NAME] = {};
    ASSERT_EQ(HcclGetCommName(g_comm, name), HCCL_SUCCESS);
    EXPECT_EQ(std::string(name).rfind("ptolab_hccl_", 0), 0u) << name;
    // Every rank names the communicator alike.
    std::vector<char> all(static_cast<size_t>(N()) * MAX_GROUP_NAME);
    comm_test::allgather(name, all.data(), MAX_GROUP_NAME);
    for (int r = 0; r < N(); ++r) EXPECT_STREQ(all.data() + r * MAX_GROUP_NAME, name);
    HcclComm h = nullptr;
    ASSERT_EQ(HcomGetCommHandleByGroup(name, &h), HCCL_SUCCESS);
    EXPECT_EQ(h, g_comm);
    uint32_t topo = 0;
    ASSERT_EQ(HcomGetL0TopoTypeEx(name, &topo, 0), HCCL_SUCCESS);
    EXPECT_EQ(topo, 1u);
    EXPECT_EQ(HcomGetCommHandleByGroup("no_such_group", &h), HCCL_E_NOT_FOUND);
    EXPECT_STREQ(aclGetRecentErrMsg(),
                 (prefix() + "HcomGetCommHandleByGroup: no live communicator is named 'no_such_group' in this process "
                             "(HcclGetCommName gives the name)")
                     .c_str());
}

TEST(Hccl, AllReduceInt32EveryOp) {
    const std::vector<int32_t> mine = {R() + 1, -(R() + 1), 3 * R(), 7};
    void* s = dev(mine);
    void* d = dev(std::vector<int32_t>(4, 0));
    int32_t sum = 0, prod = 1, mx = INT32_MIN, mn = INT32_MAX;
    for (int r = 0; r < N(); ++r) sum += r + 1, prod *= r + 1, mx = std::max(mx, 3 * r), mn = std::min(mn, -(r + 1));
    ASSERT_EQ(HcclAllReduce(s, d, 4, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, g_comm, nullptr), HCCL_SUCCESS);
    EXPECT_EQ(host<int32_t>(d, 4), (std::vector<int32_t>{sum, -sum, 3 * N() * (N() - 1) / 2, 7 * N()}));
    ASSERT_EQ(HcclAllReduce(s, d, 1, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_PROD, g_comm, nullptr), HCCL_SUCCESS);
    EXPECT_EQ(host<int32_t>(d, 1)[0], prod);
    ASSERT_EQ(HcclAllReduce(s, d, 3, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MAX, g_comm, nullptr), HCCL_SUCCESS);
    EXPECT_EQ(host<int32_t>(d, 3)[2], mx);
    ASSERT_EQ(HcclAllReduce(s, d, 2, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_MIN, g_comm, nullptr), HCCL_SUCCESS);
    EXPECT_EQ(host<int32_t>(d, 2)[1], mn);
    aclrtFree(s);
    aclrtFree(d);
}

TEST(Hccl, AllReduceFloatIsRankOrderedOnEveryRank) {
    // 2^24 on rank 0 and 1 elsewhere: in rank order every +1 rounds away
    // (ties to even), so the sum is exactly 2^24 on every rank; any other
    // order that adds the ones first would give more.
    const std::vector<float> mine = {R() == 0 ? 16777216.0f : 1.0f, 0.1f * static_cast<float>(R() + 1)};
    void* s = dev(mine);
    void* d = dev(std::vector<float>(2, 0));
    ASSERT_EQ(HcclAllReduce(s, d, 2, HCCL_DATA_TYPE_FP32, HCCL_REDUCE_SUM, g_comm, nullptr), HCCL_SUCCESS);
    const auto got = host<float>(d, 2);
    EXPECT_EQ(got[0], 16777216.0f);
    float expect = 0.1f;
    for (int r = 1; r < N(); ++r) expect += 0.1f * static_cast<float>(r + 1);
    EXPECT_EQ(got[1], expect);
    // Bit-identical on every rank.
    std::vector<float> all(2 * static_cast<size_t>(N()));
    comm_test::allgather(got.data(), all.data(), 2 * sizeof(float));
    for (int r = 0; r < N(); ++r) EXPECT_EQ(std::memcmp(&all[2 * r], got.data(), 8), 0) << "rank " << r;
    aclrtFree(s);
    aclrtFree(d);
}

TEST(Hccl, AllReduceHalfAndBfloat16RoundEachStep) {
    // fp16 1.0 + 0.0004 per rank: each step rounds to fp16 (ulp 2^-10 at 1).
    _Float16 one = static_cast<_Float16>(R() == 0 ? 1.0f : 0.0004f);
    void* s = dev(std::vector<_Float16>{one});
    void* d = dev(std::vector<_Float16>{0});
    ASSERT_EQ(HcclAllReduce(s, d, 1, HCCL_DATA_TYPE_FP16, HCCL_REDUCE_SUM, g_comm, nullptr), HCCL_SUCCESS);
    _Float16 expect = static_cast<_Float16>(1.0f);
    for (int r = 1; r < N(); ++r) expect = static_cast<_Float16>(expect + static_cast<_Float16>(0.0004f));
    EXPECT_EQ(static_cast<float>(host<_Float16>(d, 1)[0]), static_cast<float>(expect));
    // bf16: 2.0 (0x4000) max against rank values 1.5 (0x3fc0).
    void* bs = dev(std::vector<uint16_t>{static_cast<uint16_t>(R() == N() - 1 ? 0x4000 : 0x3fc0)});
    void* bd = dev(std::vector<uint16_t>{0});
    ASSERT_EQ(HcclAllReduce(bs, bd, 1, HCCL_DATA_TYPE_BFP16, HCCL_REDUCE_MAX, g_comm, nullptr), HCCL_SUCCESS);
    EXPECT_EQ(host<uint16_t>(bd, 1)[0], 0x4000);
    for (void* p : {s, d, bs, bd}) aclrtFree(p);
}

TEST(Hccl, AllGatherAndReduceScatter) {
    std::vector<int64_t> mine(3);
    for (int i = 0; i < 3; ++i) mine[i] = 100 * R() + i;
    void* s = dev(mine);
    void* d = dev(std::vector<int64_t>(3 * N(), -1));
    ASSERT_EQ(HcclAllGather(s, d, 3, HCCL_DATA_TYPE_INT64, g_comm, nullptr), HCCL_SUCCESS);
    const auto got = host<int64_t>(d, 3 * N());
    for (int r = 0; r < N(); ++r)
        for (int i = 0; i < 3; ++i) EXPECT_EQ(got[3 * r + i], 100 * r + i);
    // ReduceScatter: rank r's block r of the sum of every rank's N blocks.
    std::vector<uint16_t> blocks(2 * N());
    for (int b = 0; b < N(); ++b) blocks[2 * b] = static_cast<uint16_t>(b + R()), blocks[2 * b + 1] = 1;
    void* rs = dev(blocks);
    void* rd = dev(std::vector<uint16_t>(2, 0));
    ASSERT_EQ(HcclReduceScatter(rs, rd, 2, HCCL_DATA_TYPE_UINT16, HCCL_REDUCE_SUM, g_comm, nullptr), HCCL_SUCCESS);
    EXPECT_EQ(host<uint16_t>(rd, 2), (std::vector<uint16_t>{static_cast<uint16_t>(N() * R() + N() * (N() - 1) / 2),
                                                            static_cast<uint16_t>(N())}));
    for (void* p : {s, d, rs, rd}) aclrtFree(p);
}

TEST(Hccl, BroadcastFromLastRank) {
    const uint32_t root = static_cast<uint32_t>(N() - 1);
    void* b = dev(std::vector<double>{R() == N() - 1 ? 2.5 : 0.0, static_cast<double>(R())});
    ASSERT_EQ(HcclBroadcast(b, 2, HCCL_DATA_TYPE_FP64, root, g_comm, nullptr), HCCL_SUCCESS);
    EXPECT_EQ(host<double>(b, 2), (std::vector<double>{2.5, static_cast<double>(N() - 1)}));
    EXPECT_EQ(HcclBroadcast(b, 2, HCCL_DATA_TYPE_FP64, static_cast<uint32_t>(N()), g_comm, nullptr), HCCL_E_PARA);
    EXPECT_STREQ(aclGetRecentErrMsg(), (prefix() + "HcclBroadcast: root " + std::to_string(N()) +
                                        " is not a rank of the " + std::to_string(N()) + "-rank communicator")
                                           .c_str());
    aclrtFree(b);
}

TEST(Hccl, SendRecvRing) {
    if (N() < 2) GTEST_SKIP() << "needs 2 ranks";
    const uint32_t next = static_cast<uint32_t>((R() + 1) % N()), prev = static_cast<uint32_t>((R() + N() - 1) % N());
    void* s = dev(std::vector<uint8_t>{static_cast<uint8_t>(R()), 0xab});
    void* d = dev(std::vector<uint8_t>{0, 0});
    // Even ranks send first, odd ranks receive first: no rank waits on a
    // rank that waits on it.
    if (R() % 2 == 0) {
        ASSERT_EQ(HcclSend(s, 2, HCCL_DATA_TYPE_UINT8, next, g_comm, nullptr), HCCL_SUCCESS);
        ASSERT_EQ(HcclRecv(d, 2, HCCL_DATA_TYPE_UINT8, prev, g_comm, nullptr), HCCL_SUCCESS);
    } else {
        ASSERT_EQ(HcclRecv(d, 2, HCCL_DATA_TYPE_UINT8, prev, g_comm, nullptr), HCCL_SUCCESS);
        ASSERT_EQ(HcclSend(s, 2, HCCL_DATA_TYPE_UINT8, next, g_comm, nullptr), HCCL_SUCCESS);
    }
    EXPECT_EQ(host<uint8_t>(d, 2), (std::vector<uint8_t>{static_cast<uint8_t>(prev), 0xab}));
    EXPECT_EQ(HcclSend(s, 2, HCCL_DATA_TYPE_UINT8, static_cast<uint32_t>(R()), g_comm, nullptr), HCCL_E_PARA);
    EXPECT_STREQ(aclGetRecentErrMsg(), (prefix() + "HcclSend: destRank " + std::to_string(R()) + " is this rank").c_str());
    aclrtFree(s);
    aclrtFree(d);
}

TEST(Hccl, Barrier) { EXPECT_EQ(HcclBarrier(g_comm, nullptr), HCCL_SUCCESS); }

TEST(Hccl, ArgumentErrors) {
    int32_t x = 0;
    EXPECT_EQ(HcclAllReduce(&x, &x, 1, static_cast<HcclDataType>(99), HCCL_REDUCE_SUM, g_comm, nullptr), HCCL_E_PARA);
    EXPECT_STREQ(aclGetRecentErrMsg(),
                 (prefix() + "HcclAllReduce: dataType 99 is not an HcclDataType (HCCL_DATA_TYPE_INT8 .. "
                             "HCCL_DATA_TYPE_INT128)")
                     .c_str());
    EXPECT_EQ(HcclAllReduce(&x, &x, 1, HCCL_DATA_TYPE_INT32, static_cast<HcclReduceOp>(7), g_comm, nullptr),
              HCCL_E_PARA);
    EXPECT_STREQ(aclGetRecentErrMsg(),
                 (prefix() + "HcclAllReduce: op 7 is not an HcclReduceOp (HCCL_REDUCE_SUM, _PROD, _MAX, _MIN)").c_str());
    EXPECT_EQ(HcclAllGather(&x, &x, 1, HCCL_DATA_TYPE_INT32, nullptr, nullptr), HCCL_E_PTR);
    EXPECT_STREQ(aclGetRecentErrMsg(),
                 (prefix() + "HcclAllGather: comm is NULL; pass the communicator HcclCommInitRootInfo returned").c_str());
    int bogus = 0;
    EXPECT_EQ(HcclBarrier(&bogus, nullptr), HCCL_E_PARA);
    EXPECT_STREQ(aclGetRecentErrMsg(),
                 (prefix() + "HcclBarrier: comm is not a live communicator (destroyed, or not from "
                             "HcclCommInitRootInfo)")
                     .c_str());
    HcclRootInfo junk{};
    HcclComm c = nullptr;
    EXPECT_EQ(HcclCommInitRootInfo(2, &junk, 0, &c), HCCL_E_PARA);
    EXPECT_STREQ(aclGetRecentErrMsg(),
                 (prefix() + "HcclCommInitRootInfo: rootInfo was not made by HcclGetRootInfo, or not all of it reached "
                             "this rank (share all HCCL_ROOT_INFO_BYTES bytes, e.g. with MPI_Bcast)")
                     .c_str());
    EXPECT_EQ(HcclCommInitRootInfo(4, &junk, 4, &c), HCCL_E_PARA);
    EXPECT_STREQ(aclGetRecentErrMsg(), (prefix() + "HcclCommInitRootInfo: rank 4 is not below nRanks 4").c_str());
    EXPECT_STREQ(HcclGetErrorString(HCCL_E_PARA), "parameter error");
    EXPECT_STREQ(HcclGetErrorString(HCCL_SUCCESS), "success");
    // Zero elements: nothing moves, nothing waits.
    EXPECT_EQ(HcclAllReduce(nullptr, nullptr, 0, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, g_comm, nullptr), HCCL_SUCCESS);
}

struct DeviceContext {  // the leading fields kernels read (hccl_context.h of pto-isa's tests)
    uint64_t workSpace, workSpaceSize;
    uint32_t rankId, rankNum;
    uint64_t winSize;
    uint64_t windowsIn[64], windowsOut[64];
};

TEST(Hccl, DeviceContextWindowsAreSharedAtOneAddress) {
    char name[MAX_GROUP_NAME];
    ASSERT_EQ(HcclGetCommName(g_comm, name), HCCL_SUCCESS);
    char tiling[512] = {};
    void* ctx = nullptr;
    ASSERT_EQ(HcclAllocComResourceByTiling(g_comm, nullptr, tiling, &ctx), HCCL_SUCCESS);
    DeviceContext h{};
    ASSERT_EQ(aclrtMemcpy(&h, sizeof h, ctx, sizeof h, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(h.rankId, static_cast<uint32_t>(R()));
    EXPECT_EQ(h.rankNum, static_cast<uint32_t>(N()));
    EXPECT_EQ(h.winSize, uint64_t{2} << 20);  // HCCL_BUFFSIZE=2 in the test's environment
    EXPECT_EQ(h.workSpaceSize, uint64_t{1} << 20);
    // Every rank sees every window at the same address.
    std::vector<uint64_t> all(64 * static_cast<size_t>(N()));
    comm_test::allgather(h.windowsIn, all.data(), 64 * sizeof(uint64_t));
    for (int r = 0; r < N(); ++r) EXPECT_EQ(std::memcmp(&all[64 * r], h.windowsIn, 64 * 8), 0) << "rank " << r;
    // A rank writes its own window; after a barrier every peer reads it there.
    auto* mine = reinterpret_cast<int32_t*>(h.windowsIn[R()]);
    mine[0] = 1000 + R();
    reinterpret_cast<int32_t*>(h.windowsOut[R()])[5] = 2000 + R();
    ASSERT_EQ(HcclBarrier(g_comm, nullptr), HCCL_SUCCESS);
    // Under the remote transport (PTOLAB_HCCL_TRANSPORT=mpi) only this
    // rank's windows are memory of this process; kernels reach the others.
    const char* transport = std::getenv("PTOLAB_HCCL_TRANSPORT");
    const bool remote = transport && std::string(transport) == "mpi";
    for (int r = 0; r < N(); ++r) {
        if (remote && r != R()) continue;
        EXPECT_EQ(reinterpret_cast<int32_t*>(h.windowsIn[r])[0], 1000 + r);
        EXPECT_EQ(reinterpret_cast<int32_t*>(h.windowsOut[r])[5], 2000 + r);
    }
    // Windows are device memory for ACL, but not aclrtFree's.
    const int other = remote ? R() : 0;
    int32_t back = 0;
    EXPECT_EQ(aclrtMemcpy(&back, 4, reinterpret_cast<void*>(h.windowsIn[other]), 4, ACL_MEMCPY_DEVICE_TO_HOST),
              ACL_SUCCESS);
    EXPECT_EQ(back, 1000 + other);
    // Host copies of a peer's window: the peer's bytes under shared memory; a
    // refusal naming the window under the remote transport (its pages are not
    // mapped here, so a host memmove would crash the rank).
    const int peer = (R() + 1) % N();
    int32_t value = 77;
    const aclError to_peer = aclrtMemcpy(reinterpret_cast<void*>(h.windowsIn[peer] + 256), 8, &value, 4,
                                         ACL_MEMCPY_HOST_TO_DEVICE);
    if (remote) {
        char expect[900];
        std::snprintf(expect, sizeof expect,
                      "aclrtMemcpy: dst range 0x%llx + 4 bytes lies in rank %d's windowsIn [0x%llx, 0x%llx) (bytes "
                      "256..259 of the window), which this process (rank %d of %d) does not map under the remote "
                      "window transport (PTOLAB_HCCL_TRANSPORT=mpi, or ranks on several hosts); copy to or from this "
                      "rank's own window and let a kernel move the bytes (TPUT, TGET, ...), use HCCL's host "
                      "collectives (HcclSend/HcclRecv), or run the ranks on one host with PTOLAB_HCCL_TRANSPORT=shm",
                      static_cast<unsigned long long>(h.windowsIn[peer] + 256), peer,
                      static_cast<unsigned long long>(h.windowsIn[peer]),
                      static_cast<unsigned long long>(h.windowsIn[peer] + h.winSize), R(), N());
        EXPECT_EQ(to_peer, ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_EQ(std::string(aclGetRecentErrMsg()), expect);
        // So is a device-to-host copy whose source starts in the peer's
        // windowsOut and runs past its end, and a memset of a peer's window.
        EXPECT_EQ(aclrtMemcpy(&back, 4, reinterpret_cast<void*>(h.windowsOut[peer] + h.winSize - 2), 4,
                              ACL_MEMCPY_DEVICE_TO_HOST),
                  ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtMemcpy: src range 0x"), std::string::npos)
            << aclGetRecentErrMsg();
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("windowsOut"), std::string::npos) << aclGetRecentErrMsg();
        EXPECT_EQ(aclrtMemset(reinterpret_cast<void*>(h.windowsIn[peer]), 16, 0, 16), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
        EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtMemset: devPtr range 0x"), std::string::npos)
            << aclGetRecentErrMsg();
    } else {
        EXPECT_EQ(to_peer, ACL_SUCCESS);
        ASSERT_EQ(HcclBarrier(g_comm, nullptr), HCCL_SUCCESS);
        // The rank before this one wrote 77 into this rank's window.
        EXPECT_EQ(reinterpret_cast<int32_t*>(h.windowsIn[R()])[64], 77);
    }
    EXPECT_NE(aclrtFree(reinterpret_cast<void*>(h.windowsIn[R()])), ACL_SUCCESS);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("communicator window, which HcclCommDestroy releases"),
              std::string::npos)
        << aclGetRecentErrMsg();
    // The same context on a second request.
    void* again = nullptr;
    ASSERT_EQ(HcclAllocComResourceByTiling(g_comm, nullptr, tiling, &again), HCCL_SUCCESS);
    EXPECT_EQ(again, ctx);
    ASSERT_EQ(HcclBarrier(g_comm, nullptr), HCCL_SUCCESS);
}

}  // namespace

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    g_comm = comm_test::start_rank();
    if (!g_comm) return 1;
    const int rc = RUN_ALL_TESTS();
    return comm_test::finish_rank(rc, g_comm);
}
