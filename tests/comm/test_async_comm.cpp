// The ACL calls pto-isa's SDMA workspace manager makes (streams with config
// and attributes, contexts, aclnn tensors, the runtime's queue ids, the SDMA
// queue query), ptolab's TPUT_ASYNC / TGET_ASYNC, and ptosim's SDMA engine
// rung through a doorbell as pto-isa's own SDMA code rings it, one rank per
// process under mpirun. Results are exact. docs/acl.md, docs/many-devices.md.
#include <pto/pto-inst.hpp>

#include "../sim_test_util.hpp"

#include <acl/acl.h>
#include <aclnn/acl_meta.h>
#include <hccl/hccl.h>
#include <hccl/hcom.h>
#include <hccl/hccl_rank_graph.h>
#include <hccl/hccl_res.h>
#include <runtime/rt.h>
#include <ptosim/cce.hpp>
#include <ptosim/sdma.hpp>

#include <gtest/gtest.h>

#include "mpi_ranks.hpp"
#include "comm_windows.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace pto;

namespace {

using namespace comm_test;

// ------------------------------------------------------------ ACL

TEST(AclStreamConfig, StreamsWithConfigAreRealStreamsWithIdsAndFlags) {
    aclrtStream a = nullptr, b = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&a, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC), ACL_SUCCESS);
    ASSERT_EQ(aclrtCreateStreamWithConfig(&b, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_SUCCESS);
    int32_t ia = -1, ib = -1, id0 = -1;
    ASSERT_EQ(aclrtStreamGetId(a, &ia), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamGetId(b, &ib), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamGetId(nullptr, &id0), ACL_SUCCESS);
    EXPECT_EQ(id0, 0);
    EXPECT_GT(ia, 0);
    EXPECT_EQ(ib, ia + 1);
    uint32_t fa = 0, fb = 0;
    ASSERT_EQ(aclrtStreamGetFlags(a, &fa), ACL_SUCCESS);
    ASSERT_EQ(aclrtStreamGetFlags(b, &fb), ACL_SUCCESS);
    EXPECT_EQ(fa, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC);
    EXPECT_EQ(fb, ACL_STREAM_DEVICE_USE_ONLY);
    // Work queued on it runs in order: two async copies, then a sync.
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 64, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<int32_t> in(16), out(16, -1);
    for (int i = 0; i < 16; ++i) in[i] = 100 * R() + i;
    ASSERT_EQ(aclrtMemcpyAsync(dev, 64, in.data(), 64, ACL_MEMCPY_HOST_TO_DEVICE, a), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpyAsync(out.data(), 64, dev, 64, ACL_MEMCPY_DEVICE_TO_HOST, a), ACL_SUCCESS);
    ASSERT_EQ(aclrtSynchronizeStream(a), ACL_SUCCESS);
    EXPECT_EQ(out, in);
    ASSERT_EQ(aclrtFree(dev), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(a), ACL_SUCCESS);
    ASSERT_EQ(aclrtDestroyStream(b), ACL_SUCCESS);
    EXPECT_EQ(aclrtStreamGetId(a, &ia), ACL_ERROR_INVALID_PARAM);
}

TEST(AclStreamConfig, UnknownAndUnsimulatedFlagsAreRefused) {
    aclrtStream s = reinterpret_cast<aclrtStream>(1);
    EXPECT_EQ(aclrtCreateStreamWithConfig(&s, 0, 0x40), ACL_ERROR_INVALID_PARAM);
    EXPECT_EQ(s, nullptr);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("aclrtCreateStreamWithConfig: flag 0x40 has bits 0x40 that are no "
                                                     "ACL_STREAM_* flag"),
              std::string::npos)
        << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_PERSISTENT), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("ACL_STREAM_PERSISTENT"), std::string::npos);
    EXPECT_EQ(aclrtCreateStreamWithConfig(nullptr, 0, 0), ACL_ERROR_INVALID_PARAM);
}

TEST(AclStreamConfig, AttributesAreKeptPerStream) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_FAST_LAUNCH), ACL_SUCCESS);
    aclrtStreamAttrValue v{};
    ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
    EXPECT_EQ(v.failureMode, 0u);  // CANN's default: continue on failure
    v.failureMode = ACL_STOP_ON_FAILURE;
    ASSERT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
    v = {};
    ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
    EXPECT_EQ(v.failureMode, 1u);
    v.failureMode = 2;
    EXPECT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_INVALID_PARAM);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("failureMode 2 is neither"), std::string::npos);
    v.failureMode = 1;
    EXPECT_EQ(aclrtSetStreamAttribute(nullptr, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_ERROR_INVALID_PARAM);
    v = {};
    v.userCustomTag = 77;
    ASSERT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
    v = {};
    v.overflowSwitch = 1;
    ASSERT_EQ(aclrtSetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_SUCCESS);
    v = {};
    ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_USER_CUSTOM_TAG, &v), ACL_SUCCESS);
    EXPECT_EQ(v.userCustomTag, 77u);
    v = {};
    ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK, &v), ACL_SUCCESS);
    EXPECT_EQ(v.overflowSwitch, 1u);
    ASSERT_EQ(aclrtSetStreamFailureMode(s, ACL_CONTINUE_ON_FAILURE), ACL_SUCCESS);
    v = {};
    ASSERT_EQ(aclrtGetStreamAttribute(s, ACL_STREAM_ATTR_FAILURE_MODE, &v), ACL_SUCCESS);
    EXPECT_EQ(v.failureMode, 0u);
    EXPECT_EQ(aclrtSetStreamAttribute(s, static_cast<aclrtStreamAttr>(9), &v), ACL_ERROR_INVALID_PARAM);
    ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

TEST(AclStreamConfig, CurrentContextIsTheDevicesOwn) {
    aclrtContext a = nullptr, b = nullptr;
    ASSERT_EQ(aclrtGetCurrentContext(&a), ACL_SUCCESS);
    ASSERT_EQ(aclrtGetCurrentContext(&b), ACL_SUCCESS);
    EXPECT_NE(a, nullptr);
    EXPECT_EQ(a, b);
    EXPECT_EQ(aclrtGetCurrentContext(nullptr), ACL_ERROR_INVALID_PARAM);
}

TEST(AclnnTensor, DescriptorHoldsShapeStridesDtypeFormatAndData) {
    std::vector<int16_t> storage(8);
    const int64_t view[2] = {2, 3}, strides[2] = {3, 1}, stor[1] = {8};
    aclTensor* t = aclCreateTensor(view, 2, ACL_FLOAT16, strides, 1, ACL_FORMAT_ND, stor, 1, storage.data());
    ASSERT_NE(t, nullptr) << aclGetRecentErrMsg();
    int64_t* dims = nullptr;
    uint64_t n = 0;
    ASSERT_EQ(aclGetViewShape(t, &dims, &n), ACLNN_SUCCESS);
    ASSERT_EQ(n, 2u);
    EXPECT_EQ(dims[0], 2);
    EXPECT_EQ(dims[1], 3);
    delete[] dims;
    ASSERT_EQ(aclGetViewStrides(t, &dims, &n), ACLNN_SUCCESS);
    ASSERT_EQ(n, 2u);
    EXPECT_EQ(dims[0], 3);
    EXPECT_EQ(dims[1], 1);
    delete[] dims;
    ASSERT_EQ(aclGetStorageShape(t, &dims, &n), ACLNN_SUCCESS);
    ASSERT_EQ(n, 1u);
    EXPECT_EQ(dims[0], 8);
    delete[] dims;
    int64_t off = -1;
    ASSERT_EQ(aclGetViewOffset(t, &off), ACLNN_SUCCESS);
    EXPECT_EQ(off, 1);
    aclDataType dt = ACL_DT_UNDEFINED;
    ASSERT_EQ(aclGetDataType(t, &dt), ACLNN_SUCCESS);
    EXPECT_EQ(dt, ACL_FLOAT16);
    aclFormat fmt = ACL_FORMAT_UNDEFINED;
    ASSERT_EQ(aclGetFormat(t, &fmt), ACLNN_SUCCESS);
    EXPECT_EQ(fmt, ACL_FORMAT_ND);
    void* addr = nullptr;
    ASSERT_EQ(aclGetRawTensorAddr(t, &addr), ACLNN_SUCCESS);
    EXPECT_EQ(addr, storage.data());
    ASSERT_EQ(aclDestroyTensor(t), ACLNN_SUCCESS);
    EXPECT_EQ(aclGetDataType(t, &dt), ACLNN_ERR_PARAM_INVALID);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("is not a live tensor"), std::string::npos);
}

TEST(AclnnTensor, InvalidDescriptorsAreRefusedWithAMessage) {
    const int64_t view[2] = {2, 4}, strides[2] = {4, 1}, stor[1] = {7};
    EXPECT_EQ(aclCreateTensor(view, 2, ACL_FLOAT, strides, 0, ACL_FORMAT_ND, stor, 1, nullptr), nullptr);
    EXPECT_NE(std::string(aclGetRecentErrMsg())
                  .find("aclCreateTensor: the view reaches element 7 (offset 0 plus (dim - 1) * stride per dimension) "
                        "but the storage holds 7 elements"),
              std::string::npos)
        << aclGetRecentErrMsg();
    const int64_t stor8[1] = {8};
    EXPECT_EQ(aclCreateTensor(view, 2, static_cast<aclDataType>(5), strides, 0, ACL_FORMAT_ND, stor8, 1, nullptr),
              nullptr);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("dataType 5 is no aclDataType"), std::string::npos);
    EXPECT_EQ(aclCreateTensor(view, 2, ACL_FLOAT, strides, 0, static_cast<aclFormat>(5), stor8, 1, nullptr), nullptr);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("format 5 is no aclFormat"), std::string::npos);
    EXPECT_EQ(aclDataTypeSize(ACL_FLOAT16), 2u);
    EXPECT_EQ(aclDataTypeSize(ACL_BF16), 2u);
    EXPECT_EQ(aclDataTypeSize(ACL_UINT64), 8u);
    EXPECT_EQ(aclDataTypeSize(ACL_COMPLEX128), 16u);
    EXPECT_EQ(aclDataTypeSize(ACL_INT4), 0u);
}

TEST(AclRuntime, QueueIdsAreStreamIdsAndTheDieIsZero) {
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStreamWithConfig(&s, 0, ACL_STREAM_DEVICE_USE_ONLY), ACL_SUCCESS);
    int32_t id = -1;
    ASSERT_EQ(aclrtStreamGetId(s, &id), ACL_SUCCESS);
    uint32_t sq = 0, cq = 0, lcq = 0;
    ASSERT_EQ(rtStreamGetSqid(s, &sq), 0);
    ASSERT_EQ(rtStreamGetCqid(s, &cq, &lcq), 0);
    EXPECT_EQ(sq, static_cast<uint32_t>(id));
    EXPECT_EQ(cq, static_cast<uint32_t>(id));
    EXPECT_EQ(lcq, static_cast<uint32_t>(id));
    int64_t die = -1;
    ASSERT_EQ(rtGetDeviceInfo(static_cast<uint32_t>(R()), 0, 19, &die), 0);
    EXPECT_EQ(die, 0);
    EXPECT_EQ(rtGetDeviceInfo(static_cast<uint32_t>(R()), 0, 3, &die), ACL_ERROR_RT_FEATURE_NOT_SUPPORT);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("info type 3 is not simulated"), std::string::npos);
    ASSERT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// ------------------------------------------------------------ the SDMA workspace

// What pto-isa's SdmaWorkspaceManager::Init does, step by step.
struct Sdma {
    std::vector<aclrtStream> streams;
    void* workspace = nullptr;
    void* list = nullptr;
    void* res = nullptr;
    std::string error;

    bool init(int queues, uint32_t flags = ACL_STREAM_DEVICE_USE_ONLY) {
        struct HostStreamInfo {
            uint64_t stream, ctx;
            int32_t stream_id;
            uint32_t sq_id, cq_id, logic_cq_id;
            uint64_t cqe_addr;
            int32_t dev_id;
            uint8_t reserved[20];
        };
        struct OpResInfo {
            uint64_t size, streams_addr, workspace_addr;
            uint8_t reserved[40];
        };
        std::vector<HostStreamInfo> infos(queues);
        for (int i = 0; i < queues; ++i) {
            aclrtStream s = nullptr;
            if (aclrtCreateStreamWithConfig(&s, 0, flags) != ACL_SUCCESS) return false;
            streams.push_back(s);
            infos[i] = {};
            infos[i].stream = reinterpret_cast<uint64_t>(s);
            aclrtStreamGetId(s, &infos[i].stream_id);
            rtStreamGetSqid(s, &infos[i].sq_id);
            rtStreamGetCqid(s, &infos[i].cq_id, &infos[i].logic_cq_id);
        }
        aclrtMalloc(&workspace, ptosim::sdma::kWorkspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemset(workspace, ptosim::sdma::kWorkspaceBytes, 0, ptosim::sdma::kWorkspaceBytes);
        aclrtMalloc(&list, infos.size() * sizeof(HostStreamInfo), ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(list, infos.size() * sizeof(HostStreamInfo), infos.data(), infos.size() * sizeof(HostStreamInfo),
                    ACL_MEMCPY_HOST_TO_DEVICE);
        OpResInfo r{};
        r.size = infos.size();
        r.streams_addr = reinterpret_cast<uint64_t>(list);
        r.workspace_addr = reinterpret_cast<uint64_t>(workspace);
        aclrtMalloc(&res, sizeof r, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMemcpy(res, sizeof r, &r, sizeof r, ACL_MEMCPY_HOST_TO_DEVICE);
        // The query's tensors: in = {res, workspace}, out = {count}.
        void *in_dev = nullptr, *out_dev = nullptr;
        aclrtMalloc(&in_dev, 16, ACL_MEM_MALLOC_HUGE_FIRST);
        aclrtMalloc(&out_dev, 8, ACL_MEM_MALLOC_HUGE_FIRST);
        const uint64_t in_host[2] = {reinterpret_cast<uint64_t>(res), reinterpret_cast<uint64_t>(workspace)};
        aclrtMemcpy(in_dev, 16, in_host, 16, ACL_MEMCPY_HOST_TO_DEVICE);
        const int64_t two[1] = {2}, one[1] = {1}, unit[1] = {1};
        aclTensor* in = aclCreateTensor(two, 1, ACL_UINT64, unit, 0, ACL_FORMAT_ND, two, 1, in_dev);
        aclTensor* out = aclCreateTensor(one, 1, ACL_UINT64, unit, 0, ACL_FORMAT_ND, one, 1, out_dev);
        uint64_t ws = 1;
        aclOpExecutor* ex = nullptr;
        bool ok = aclnnShmemSdmaStarsQueryGetWorkspaceSize(in, out, &ws, &ex) == ACLNN_SUCCESS && ws == 0;
        aclrtStream q = nullptr;
        ok = ok && aclrtCreateStreamWithConfig(&q, 0, ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC) == ACL_SUCCESS;
        ok = ok && aclnnShmemSdmaStarsQuery(nullptr, 0, ex, q) == ACLNN_SUCCESS;
        if (ok && aclrtSynchronizeStream(q) != ACL_SUCCESS) {
            error = aclGetRecentErrMsg();
            ok = false;
        }
        uint64_t count = 0;
        aclrtMemcpy(&count, 8, out_dev, 8, ACL_MEMCPY_DEVICE_TO_HOST);
        ok = ok && count == static_cast<uint64_t>(queues);
        if (q) aclrtDestroyStream(q);
        aclDestroyTensor(in);
        aclDestroyTensor(out);
        aclrtFree(in_dev);
        aclrtFree(out_dev);
        return ok;
    }
    ptosim::sdma::ChannelInfo channel(int i) const {
        ptosim::sdma::ChannelInfo c;
        std::memcpy(&c, static_cast<uint8_t*>(workspace) + 64 + 64 * i, sizeof c);
        return c;
    }
    ~Sdma() {
        for (void* p : {workspace, list, res})
            if (p) aclrtFree(p);
        for (aclrtStream s : streams) aclrtDestroyStream(s);
    }
};

TEST(SdmaQuery, DescribesAQueuePerStreamInTheWorkspace) {
    Sdma s;
    ASSERT_TRUE(s.init(4)) << s.error;
    ptosim::sdma::FlagInfo fi;
    std::memcpy(&fi, s.workspace, sizeof fi);
    EXPECT_EQ(fi.flag, ptosim::sdma::kFlagInfoMagic);
    EXPECT_EQ(fi.total_queues, 4u);
    for (int i = 0; i < 4; ++i) {
        const auto c = s.channel(i);
        int32_t id = -1;
        aclrtStreamGetId(s.streams[i], &id);
        EXPECT_EQ(c.sq_id, static_cast<uint32_t>(id));
        EXPECT_EQ(c.stream_id, static_cast<uint32_t>(id));
        EXPECT_EQ(c.sq_depth, 2048u);
        EXPECT_EQ(c.sq_head, 0u);
        EXPECT_EQ(c.sq_tail, 0u);
        EXPECT_NE(c.sq_base, 0u);
        EXPECT_NE(c.sq_reg_base, 0u);
        if (i) EXPECT_NE(c.sq_base, s.channel(i - 1).sq_base);
    }
}

TEST(SdmaQuery, AStreamWithoutDeviceUseOnlyIsRefused) {
    Sdma s;
    EXPECT_FALSE(s.init(2, ACL_STREAM_FAST_LAUNCH));
    EXPECT_NE(s.error.find("aclnnShmemSdmaStarsQuery: stream 0 of the list"), std::string::npos) << s.error;
    EXPECT_NE(s.error.find("ACL_STREAM_DEVICE_USE_ONLY"), std::string::npos) << s.error;
}

// ------------------------------------------------------------ TPUT_ASYNC, TGET_ASYNC

using Dyn = Shape<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
using DynS = Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
template <class T>
using G1 = GlobalTensor<T, Dyn, DynS, Layout::ND>;
template <class T>
G1<T> flat(T* p, int n) {
    return G1<T>(p, Dyn(1, 1, 1, 1, n), DynS(n, n, n, n, 1));
}
using Scratch = Tile<TileType::Vec, uint8_t, 1, comm::sdma::UB_ALIGN_SIZE>;

TEST(AsyncComm, TputAsyncRingTwoPostsOneWait) {
    clear_windows();
    Sdma s;
    ASSERT_TRUE(s.init(48)) << s.error;
    int32_t* src = win<int32_t>(R(), 0);
    int32_t* recv = win<int32_t>(R(), 65536);
    for (int i = 0; i < 2000; ++i) src[i] = R() * 100000 + i;
    barrier();
    const int next = (R() + 1) % N(), prev = (R() + N() - 1) % N();
    bool waited = false, first_valid = false, second_valid = false, a5 = false;
    ASSERT_TRUE(testutil::run_vec([&] {
        a5 = ptosim::core().target == ptosim::Target::A5;
        Scratch scratch;
        TASSIGN(scratch, 0x0);
        comm::AsyncSession session;
        ASSERT_TRUE(comm::BuildAsyncSession(scratch, static_cast<__gm__ uint8_t*>(s.workspace), session));
        auto a_src = flat(src, 1000), b_src = flat(src + 1000, 1000);
        auto a_dst = flat(remote(recv, next), 1000), b_dst = flat(remote(recv, next) + 1000, 1000);
        comm::AsyncEvent a = comm::TPUT_ASYNC(a_dst, a_src, session);
        comm::AsyncEvent b = comm::TPUT_ASYNC(b_dst, b_src, session);
        first_valid = a.valid();
        second_valid = b.valid();
        waited = b.Wait(session);  // quiet: one wait drains both
    }).ok());
    // A2A3: two SDMA transfers, two events; A5: pto-isa's MTE fallback through
    // the scratch tile, done at return, the invalid event (nothing to wait for).
    EXPECT_EQ(first_valid, !a5);
    EXPECT_EQ(second_valid, !a5);
    EXPECT_TRUE(waited);
    barrier();
    for (int i = 0; i < 2000; ++i) ASSERT_EQ(recv[i], prev * 100000 + i) << i;
    EXPECT_EQ(recv[2000], 0);
    barrier();
}

TEST(AsyncComm, TgetAsyncWithACommBlockOffset) {
    clear_windows();
    Sdma s;
    ASSERT_TRUE(s.init(48)) << s.error;
    float* mine = win<float>(R(), 0);
    for (int i = 0; i < 512; ++i) mine[i] = static_cast<float>(R() * 1000 + i);
    barrier();
    std::vector<float> out(512, -1.0f);
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 512 * sizeof(float), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(dev, 2048, out.data(), 2048, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    const int next = (R() + 1) % N();
    bool done = false;
    ASSERT_TRUE(testutil::run_vec([&] {
        Scratch scratch;
        TASSIGN(scratch, 0x0);
        comm::AsyncSession session;
        // 256 floats, both addresses moved on by 128 floats (512 bytes).
        const comm::sdma::SdmaBaseConfig cfg{4096, 512, 2};
        ASSERT_TRUE(comm::BuildAsyncSession(scratch, static_cast<__gm__ uint8_t*>(s.workspace), session, 3, cfg));
        auto from = flat(remote(mine, next), 256);
        auto to = flat(static_cast<float*>(dev), 256);
        comm::AsyncEvent e = comm::TGET_ASYNC(to, from, session);
        done = e.Test(session);
    }).ok());
    EXPECT_TRUE(done);
    ASSERT_EQ(aclrtMemcpy(out.data(), 2048, dev, 2048, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    for (int i = 0; i < 128; ++i) ASSERT_EQ(out[i], -1.0f) << i;
    for (int i = 128; i < 384; ++i) ASSERT_EQ(out[i], static_cast<float>(next * 1000 + i)) << i;
    for (int i = 384; i < 512; ++i) ASSERT_EQ(out[i], -1.0f) << i;
    aclrtFree(dev);
    barrier();
}

TEST(AsyncComm, NonFlatTensorsAndInvalidSessionsGiveTheInvalidEvent) {
    clear_windows();
    Sdma s;
    ASSERT_TRUE(s.init(48)) << s.error;
    int32_t* src = win<int32_t>(R(), 0);
    int32_t* dst = win<int32_t>(R(), 8192);
    for (int i = 0; i < 64; ++i) src[i] = i + 1;
    bool two_d_valid = true, bad_sync = true, bad_queues = true, unbuilt_valid = true;
    ASSERT_TRUE(testutil::run_vec([&] {
        Scratch scratch;
        TASSIGN(scratch, 0x0);
        comm::AsyncSession session;
        auto* ws = static_cast<__gm__ uint8_t*>(s.workspace);
        bad_sync = comm::BuildAsyncSession(scratch, ws, session, 8);
        bad_queues = comm::BuildAsyncSession(scratch, ws, session, 0, comm::sdma::SdmaBaseConfig{4096, 0, 0});
        auto a = flat(src, 64), b = flat(dst, 64);
        unbuilt_valid = comm::TPUT_ASYNC(b, a, session).valid();
        ASSERT_TRUE(comm::BuildAsyncSession(scratch, ws, session));
        // 4 rows of 8 with a row pitch of 16: not one contiguous line.
        G1<int32_t> rows(src, Dyn(1, 1, 1, 4, 8), DynS(64, 64, 64, 16, 1));
        G1<int32_t> rows_dst(dst, Dyn(1, 1, 1, 4, 8), DynS(64, 64, 64, 16, 1));
        two_d_valid = comm::TPUT_ASYNC(rows_dst, rows, session).valid();
    }).ok());
    EXPECT_FALSE(bad_sync);
    EXPECT_FALSE(bad_queues);
    EXPECT_FALSE(unbuilt_valid);
    EXPECT_FALSE(two_d_valid);
    for (int i = 0; i < 64; ++i) ASSERT_EQ(dst[i], 0) << i;
    barrier();
}

TEST(AsyncComm, ARemoteAddressOutsideThePeersWindowFaults) {
    clear_windows();
    Sdma s;
    ASSERT_TRUE(s.init(48)) << s.error;
    const int next = (R() + 1) % N();
    int32_t* src = win<int32_t>(R(), 0);
    int32_t* past = reinterpret_cast<int32_t*>(g_ctx.windowsIn[next] + g_ctx.winSize - 64);
    int line = 0;
    const ptosim::Status st = testutil::run_vec([&] {
        Scratch scratch;
        TASSIGN(scratch, 0x0);
        comm::AsyncSession session;
        ASSERT_TRUE(comm::BuildAsyncSession(scratch, static_cast<__gm__ uint8_t*>(s.workspace), session));
        auto a = flat(src, 64), b = flat(past, 64);
        line = __LINE__ + 1;
        comm::TPUT_ASYNC(b, a, session);
    });
    ASSERT_FALSE(st.ok());
    char want[300];
    std::snprintf(want, sizeof want,
                  "TPUT_ASYNC destination (rank %d of %d): GM bytes [0x%lx, 0x%lx) run 192 bytes past the end of "
                  "rank %d's 2097152-byte communicator window",
                  R(), N(), reinterpret_cast<unsigned long>(past), reinterpret_cast<unsigned long>(past) + 256, next);
    EXPECT_NE(st.message.find(want), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_async_comm.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    barrier();
}

TEST(AsyncComm, AWorkspaceTheQueryDidNotPrepareFaultsAtTheTransfer) {
    void* ws = nullptr;
    ASSERT_EQ(aclrtMalloc(&ws, ptosim::sdma::kWorkspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemset(ws, ptosim::sdma::kWorkspaceBytes, 0, ptosim::sdma::kWorkspaceBytes), ACL_SUCCESS);
    std::vector<int32_t> a(64, 1), b(64, 0);
    bool built = false;
    int line = 0;
    const ptosim::Status st = testutil::run_vec([&] {
        Scratch scratch;
        TASSIGN(scratch, 0x0);
        comm::AsyncSession session;
        built = comm::BuildAsyncSession(scratch, static_cast<__gm__ uint8_t*>(ws), session);
        auto from = flat(a.data(), 64), to = flat(b.data(), 64);
        line = __LINE__ + 1;
        comm::TGET_ASYNC(to, from, session);
    });
    EXPECT_TRUE(built);  // the queues are the transfers' concern
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TGET_ASYNC: the session's SDMA workspace at "), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("holds no queues; build the session on the workspace of SdmaWorkspaceManager::Init"),
              std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("test_async_comm.cpp:" + std::to_string(line)), std::string::npos) << st.message;
    EXPECT_EQ(b[0], 0);
    aclrtFree(ws);
}

// ------------------------------------------------------------ the SDMA engine (pto-isa's own SDMA code)

// Writes one entry at `index` of a queue, in the target's layout: a copy, or
// the operation `opcode` names (6: a prefetch of the source into L2).
void write_entry(const ptosim::sdma::ChannelInfo& c, uint32_t index, const void* src, void* dst, uint32_t len,
                 uint8_t opcode = 0) {
    uint8_t* e = reinterpret_cast<uint8_t*>(c.sq_base) + 64 * index;
    std::memset(e, 0, 64);
    e[0] = 11;  // an SDMA entry
    e[16] = opcode;
    const uint64_t s = reinterpret_cast<uint64_t>(src), d = reinterpret_cast<uint64_t>(dst);
    const uint32_t w[4] = {static_cast<uint32_t>(s), static_cast<uint32_t>(s >> 32), static_cast<uint32_t>(d),
                           static_cast<uint32_t>(d >> 32)};
    std::memcpy(e + 32, w, 16);
    std::memcpy(e + (ptosim::core().target == ptosim::Target::A5 ? 48 : 28), &len, 4);
}
// Stores the tail through the doorbell with an MTE3 copy, as pto-isa's RingDoorbell does.
void ring(const ptosim::sdma::ChannelInfo& c, uint32_t tail) {
    ptosim::Core& core = ptosim::core();
    std::memcpy(core.mem[static_cast<int>(ptosim::Space::UB)] + 0x100, &tail, 4);
    void* at = reinterpret_cast<uint8_t*>(c.sq_reg_base) + (core.target == ptosim::Target::A5 ? 0 : 8);
    ptosim::cce::copy_ub_to_gm({__FILE__, __LINE__}, "copy_ubuf_to_gm_align_b32", at, 0x100, {1, 4, 0, 0}, 4, true);
}

TEST(SdmaEngine, ADoorbellRunsTheQueuedEntriesInOrder) {
    clear_windows();
    Sdma s;
    ASSERT_TRUE(s.init(2)) << s.error;
    const int next = (R() + 1) % N(), prev = (R() + N() - 1) % N();
    uint8_t* src = win<uint8_t>(R(), 0);
    uint8_t* recv = win<uint8_t>(R(), 4096);
    for (int i = 0; i < 300; ++i) src[i] = static_cast<uint8_t>(R() * 31 + i);
    barrier();
    const auto c = s.channel(1);
    bool before_ring = true;
    ASSERT_TRUE(testutil::run_vec([&] {
        // Two entries: 256 bytes to the next rank, then 44 more after them.
        write_entry(c, 0, src, remote(recv, next), 256);
        write_entry(c, 1, src + 256, remote(recv, next) + 256, 44);
        // A plain look at the peer's window: memory of this process only
        // when the windows are shared.
        before_ring = !remote_transport() && (remote(recv, next)[0] != 0 || remote(recv, next)[299] != 0);
        ring(c, 2);
    }).ok());
    EXPECT_FALSE(before_ring);  // nothing moves before the doorbell (fresh windows read 0)
    barrier();
    for (int i = 0; i < 300; ++i) ASSERT_EQ(recv[i], static_cast<uint8_t>(prev * 31 + i)) << i;
    EXPECT_EQ(recv[300], 0);
    barrier();
}

TEST(SdmaEngine, AnEntryOutsideThePeersWindowFaultsNamingQueueAndEntry) {
    clear_windows();
    Sdma s;
    ASSERT_TRUE(s.init(1)) << s.error;
    const int next = (R() + 1) % N();
    const auto c = s.channel(0);
    uint8_t* past = reinterpret_cast<uint8_t*>(g_ctx.windowsIn[next] + g_ctx.winSize - 16);
    const ptosim::Status st = testutil::run_vec([&] {
        write_entry(c, 0, win<uint8_t>(R(), 0), past, 64);
        ring(c, 1);
    });
    ASSERT_FALSE(st.ok());
    char want[300];
    std::snprintf(want, sizeof want,
                  "SDMA queue %u entry 0 (rank %d of %d) destination: GM bytes [0x%lx, 0x%lx) run 48 bytes past the "
                  "end of rank %d's",
                  c.sq_id, R(), N(), reinterpret_cast<unsigned long>(past), reinterpret_cast<unsigned long>(past) + 64,
                  next);
    EXPECT_NE(st.message.find(want), std::string::npos) << st.message;
    barrier();
}

// Opcode 6, pto-isa's TPREFETCH_ASYNC (an L2 prefetch), moves no byte and
// runs in queue order with the copies; any other opcode faults naming it.
TEST(SdmaEngine, APrefetchEntryMovesNoByteAndAnUnknownOpcodeFaults) {
    clear_windows();
    Sdma s;
    ASSERT_TRUE(s.init(1)) << s.error;
    const auto c = s.channel(0);
    uint8_t* src = win<uint8_t>(R(), 0);
    uint8_t* dst = win<uint8_t>(R(), 4096);
    for (int i = 0; i < 64; ++i) src[i] = static_cast<uint8_t>(i + 1);
    ASSERT_TRUE(testutil::run_vec([&] {
        write_entry(c, 0, src, dst, 64, 6);
        write_entry(c, 1, src, dst + 128, 16);
        ring(c, 2);
    }).ok());
    for (int i = 0; i < 64; ++i) ASSERT_EQ(dst[i], 0) << i;
    for (int i = 0; i < 16; ++i) ASSERT_EQ(dst[128 + i], i + 1) << i;
    const ptosim::Status st = testutil::run_vec([&] {
        write_entry(c, 2, src, dst, 64, 9);
        ring(c, 3);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("SDMA queue " + std::to_string(c.sq_id) + " entry 2"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find(": opcode 9 is not simulated (0, a copy, and 6, a prefetch into L2)"), std::string::npos)
        << st.message;
    barrier();
}

}  // namespace

int main(int argc, char** argv) { return comm_test::run_rank_tests(argc, argv); }
