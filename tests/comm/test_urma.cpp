// URMA between two ranks (docs/many-devices.md, "URMA"): HCCL's memory
// registration, rank-graph links and AIV channels, the workspace pto-isa's
// UrmaWorkspaceManager fills from them (built here the same way), and
// ptolab's TPUT_ASYNC / TGET_ASYNC over DmaEngine::URMA run by ptosim's UB
// NIC engine: exact bytes, exact simulated time, faults that name the entry.
#include <pto/pto-inst.hpp>
#include <pto/comm/async/urma/urma_async_intrin.hpp>

#include "../sim_test_util.hpp"

#include <acl/acl.h>
#include <hccl/hccl.h>
#include <hccl/hcom.h>
#include <hccl/hccl_rank_graph.h>
#include <hccl/hccl_res.h>
#include <ptosim/cce.hpp>
#include <ptosim/cost.hpp>

#include <gtest/gtest.h>

#include "mpi_ranks.hpp"
#include "comm_windows.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace pto;

namespace {

using namespace comm_test;

uint32_t rd32(const uint8_t* p) {
    uint32_t v;
    std::memcpy(&v, p, 4);
    return v;
}
uint64_t rd64(const uint8_t* p) {
    uint64_t v;
    std::memcpy(&v, p, 8);
    return v;
}
void wr32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
void wr64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

// A registered buffer of `bytes` on every rank, the channel to the other
// rank, and the URMA workspace (pto-isa's UrmaInfo layout: a 56-byte root,
// then per rank a 64-byte send queue row, a 64-byte receive row, two 56-byte
// completion rows and a 40-byte memory row; the EIDs after them).
struct Urma {
    void* buf = nullptr;
    void* ws = nullptr;
    uint64_t bytes = 0;
    uint64_t peer_base = 0;
    ChannelHandle ch = 0;
    std::string error;
    bool init(uint64_t n, const char* tag) {
        bytes = n;
        const int peer = 1 - R();
        if (aclrtMalloc(&buf, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return fail("aclrtMalloc");
        CommMem mem{COMM_MEM_TYPE_DEVICE, buf, n};
        HcclMemHandle h = nullptr;
        if (HcclCommMemReg(g_comm, tag, &mem, &h) != HCCL_SUCCESS) return fail("HcclCommMemReg");
        CommLink* links = nullptr;
        uint32_t nl = 0;
        if (HcclRankGraphGetLinks(g_comm, 0, R(), peer, &links, &nl) != HCCL_SUCCESS || nl != 2)
            return fail("HcclRankGraphGetLinks");
        HcclChannelDesc d;
        HcclChannelDescInit(&d, 1);
        d.remoteRank = peer;
        d.channelProtocol = links[0].linkAttr.linkProtocol;
        d.localEndpoint = links[0].srcEndpointDesc;
        d.remoteEndpoint = links[0].dstEndpointDesc;
        d.memHandles = &h;
        d.memHandleNum = 1;
        if (HcclChannelAcquire(g_comm, COMM_ENGINE_AIV, &d, 1, &ch) != HCCL_SUCCESS) return fail("HcclChannelAcquire");
        // The entity: local and remote buffer lists at 64 and 72, the send and
        // completion contexts at 80 and 88.
        const auto* e = reinterpret_cast<const uint8_t*>(ch);
        const auto* local = reinterpret_cast<const uint8_t*>(rd64(e + 64));
        const auto* remote = reinterpret_cast<const uint8_t*>(rd64(e + 72));
        const auto* sq = reinterpret_cast<const uint8_t*>(rd64(e + 80));
        const auto* cq = reinterpret_cast<const uint8_t*>(rd64(e + 88));
        uint32_t num = 0;
        CommMem* rm = nullptr;
        char** tags = nullptr;
        if (HcclChannelGetRemoteMems(g_comm, ch, &num, &rm, &tags) != HCCL_SUCCESS || num != 1 ||
            std::strcmp(tags[0], tag) != 0)
            return fail("HcclChannelGetRemoteMems");
        peer_base = reinterpret_cast<uint64_t>(rm[0].addr);
        const uint64_t total = 56 + 2 * (64 + 64 + 56 + 56 + 40) + 32;
        if (aclrtMalloc(&ws, total, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) return fail("aclrtMalloc");
        std::vector<uint8_t> w(total, 0);
        const auto base = reinterpret_cast<uint64_t>(ws);
        const uint64_t sq_at = 56, rq_at = sq_at + 128, scq_at = rq_at + 128, rcq_at = scq_at + 112,
                       mem_at = rcq_at + 112, eid_at = mem_at + 80;
        wr32(&w[0], 1);
        wr32(&w[4], rd32(local + 28));  // the local token id
        wr32(&w[8], 2);
        wr64(&w[16], base + sq_at);
        wr64(&w[24], base + rq_at);
        wr64(&w[32], base + scq_at);
        wr64(&w[40], base + rcq_at);
        wr64(&w[48], base + mem_at);
        uint8_t* s = &w[sq_at + 64 * peer];
        wr64(s + 8, rd64(sq + 8));                           // queue
        wr32(s + 16, 6);                                     // 64-byte WQEs
        wr32(s + 20, rd32(sq + 48));                         // depth
        wr64(s + 24, rd64(sq + 16));                         // head
        wr64(s + 32, rd64(sq + 24));                         // tail
        wr64(s + 48, rd64(sq + 32));                         // doorbell
        uint8_t* c = &w[scq_at + 56 * peer];
        wr64(c + 8, rd64(cq + 8));
        wr32(c + 16, 6);
        wr32(c + 20, rd32(cq + 48));
        wr64(c + 24, rd64(cq + 16));
        wr64(c + 32, rd64(cq + 24));
        wr64(c + 48, rd64(cq + 32));
        uint8_t* m = &w[mem_at + 40 * peer];
        m[0] = 1;
        m[1] = 1;
        wr32(m + 4, rd32(sq + 52));     // the path
        wr32(m + 8, rd32(remote + 28));  // the peer's token id and value
        wr32(m + 12, rd32(remote + 32));
        wr32(m + 16, static_cast<uint32_t>(n));
        wr64(m + 24, peer_base);
        wr64(m + 32, base + eid_at + 16 * peer);
        std::memcpy(&w[eid_at + 16 * peer], sq + 56, 16);
        uint8_t* self = &w[mem_at + 40 * R()];
        wr64(self + 24, reinterpret_cast<uint64_t>(buf));
        if (aclrtMemcpy(ws, total, w.data(), total, ACL_MEMCPY_HOST_TO_DEVICE) != ACL_SUCCESS) return fail("aclrtMemcpy");
        return true;
    }
    bool fail(const char* what) {
        error = std::string(what) + ": " + aclGetRecentErrMsg();
        return false;
    }
    ~Urma() {
        if (ws) aclrtFree(ws);
    }
};

template <class T>
auto flat(T* p, int n) {
    using S = Shape<1, 1, 1, 1, DYNAMIC>;
    using St = Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, 1>;
    return GlobalTensor<T, S, St>(p, S(n), St(n, n, n, n));
}

// ------------------------------------------------------------ the resource API

TEST(HcclResources, LinksRegistrationsAndChannels) {
    const uint32_t peer = 1 - R();
    CommLink* links = nullptr;
    uint32_t n = 0;
    ASSERT_EQ(HcclRankGraphGetLinks(g_comm, 0, R(), peer, &links, &n), HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(n, 2u);
    EXPECT_EQ(links[0].linkAttr.linkProtocol, COMM_PROTOCOL_UBC_TP);
    EXPECT_EQ(links[1].linkAttr.linkProtocol, COMM_PROTOCOL_UBC_CTP);
    EXPECT_EQ(links[0].header.magicWord, COMM_LINK_MAGIC_WORD);
    EXPECT_EQ(links[0].dstEndpointDesc.loc.device.devPhyId, peer);
    EXPECT_EQ(HcclRankGraphGetLinks(g_comm, 0, R(), R(), &links, &n), HCCL_SUCCESS);
    EXPECT_EQ(n, 0u);
    EXPECT_EQ(HcclRankGraphGetLinks(g_comm, 1, R(), peer, &links, &n), HCCL_E_PARA);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("net layer 1: ptolab's rank graph has one layer"), std::string::npos)
        << aclGetRecentErrMsg();
    void* buf = nullptr;
    ASSERT_EQ(aclrtMalloc(&buf, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    CommMem mem{COMM_MEM_TYPE_DEVICE, buf, 4096};
    HcclMemHandle h = nullptr, h2 = nullptr;
    ASSERT_EQ(HcclCommMemReg(g_comm, "res_test", &mem, &h), HCCL_SUCCESS);
    EXPECT_NE(h, nullptr);
    EXPECT_EQ(HcclCommMemReg(g_comm, "res_test", &mem, &h2), HCCL_E_PARA);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("tag 'res_test' is already registered"), std::string::npos);
    CommMem host{COMM_MEM_TYPE_HOST, buf, 4096};
    EXPECT_EQ(HcclCommMemReg(g_comm, "host", &host, &h2), HCCL_E_NOT_SUPPORT);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("ptolab registers device memory (COMM_MEM_TYPE_DEVICE, from aclrtMalloc)"), std::string::npos)
        << aclGetRecentErrMsg();
    HcclChannelDesc d;
    ASSERT_EQ(HcclChannelDescInit(&d, 1), HCCL_SUCCESS);
    d.remoteRank = peer;
    d.channelProtocol = COMM_PROTOCOL_UBC_TP;
    d.memHandles = &h;
    d.memHandleNum = 1;
    ChannelHandle ch = 0;
    EXPECT_EQ(HcclChannelAcquire(g_comm, COMM_ENGINE_CPU, &d, 1, &ch), HCCL_E_NOT_SUPPORT);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("CPU and AICPU engines are not simulated"), std::string::npos);
    d.channelProtocol = COMM_PROTOCOL_ROCE;
    EXPECT_EQ(HcclChannelAcquire(g_comm, COMM_ENGINE_AIV, &d, 1, &ch), HCCL_E_NOT_SUPPORT);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("ptolab's AIV channels run over the UB links of its rank graph"), std::string::npos)
        << aclGetRecentErrMsg();
    d.channelProtocol = COMM_PROTOCOL_UBC_TP;
    ASSERT_EQ(HcclChannelAcquire(g_comm, COMM_ENGINE_AIV, &d, 1, &ch), HCCL_SUCCESS) << aclGetRecentErrMsg();
    // The handle is the device address of the channel entity: HCCL's magic
    // word, the AIV engine, one buffer at each end, one send and one
    // completion queue.
    const auto* e = reinterpret_cast<const uint8_t*>(ch);
    EXPECT_EQ(rd32(e + 4), 0x0f0f0f0fu);
    EXPECT_EQ(rd32(e + 16), static_cast<uint32_t>(COMM_ENGINE_AIV));
    EXPECT_EQ(rd32(e + 32), 1u);
    EXPECT_EQ(rd32(e + 36), 1u);
    EXPECT_EQ(rd32(e + 40), 1u);
    EXPECT_EQ(rd32(e + 44), 1u);
    uint32_t num = 0;
    CommMem* rm = nullptr;
    char** tags = nullptr;
    ASSERT_EQ(HcclChannelGetRemoteMems(g_comm, ch, &num, &rm, &tags), HCCL_SUCCESS);
    ASSERT_EQ(num, 1u);
    EXPECT_STREQ(tags[0], "res_test");
    EXPECT_EQ(rm[0].size, 4096u);
    EXPECT_EQ(HcclChannelGetRemoteMems(g_comm, 12345, &num, &rm, &tags), HCCL_E_PARA);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("channel 12345 is not a channel HcclChannelAcquire returned on this communicator"), std::string::npos)
        << aclGetRecentErrMsg();
    barrier();
}

// ------------------------------------------------------------ transfers

TEST(UrmaEngine, PutAndGetMoveExactBytesInExactSimulatedTime) {
    Urma u;
    ASSERT_TRUE(u.init(64 * 1024, "urma_put_get")) << u.error;
    auto* mine = static_cast<int32_t*>(u.buf);
    std::vector<int32_t> init(16 * 1024);
    for (int i = 0; i < 16 * 1024; ++i) init[i] = R() * 100000 + i;
    ASSERT_EQ(aclrtMemcpy(mine, 64 * 1024, init.data(), 64 * 1024, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    barrier();
    // Rank 0 puts its first 4 KiB into rank 1's bytes [16 KiB, 20 KiB) and
    // gets rank 1's first 8 KiB into its own [32 KiB, 40 KiB); each launch
    // timed with made-up figures: 1 GHz, the link and the WQE at 1 byte a
    // cycle, a WQE's start-up 2000 cycles.
    ptosim::cost::Params p;
    p.clock_ghz = 1;
    p.link_gbps = 1;
    p.sdma_gbps = 1;
    p.lat_sdma = 2000;
    p.lat_link = 700;
    p.ranks_per_node = 8;
    ptosim::cost::override_params(&p);
    ptosim::cost::enable(true);
    double put_us = 0, get_us = 0;
    bool put_ok = false, get_ok = false;
    auto put = [&](int elems, bool& ok) {
        return testutil::run_vec([&] {
            comm::AsyncSession s;
            ASSERT_TRUE(comm::BuildAsyncSession<comm::DmaEngine::URMA>(static_cast<__gm__ uint8_t*>(u.ws), 1, s));
            const uint64_t base = comm::urma::UrmaPeerMrBaseAddr(static_cast<__gm__ uint8_t*>(u.ws), 1);
            auto src = flat(mine, elems);
            auto dst = flat(reinterpret_cast<int32_t*>(base + 16 * 1024), elems);
            auto ev = comm::TPUT_ASYNC<comm::DmaEngine::URMA>(dst, src, s);
            ok = ev.valid() && ev.handle == ((1ull << 32) | 1u) ? ev.Wait(s) : false;
        });
    };
    if (R() == 0) {
        ASSERT_TRUE(put(1024, put_ok).ok());
        put_us = ptosim::cost::last_launch_us();
        ASSERT_TRUE(testutil::run_vec([&] {
            comm::AsyncSession s;
            ASSERT_TRUE(comm::BuildAsyncSession<comm::DmaEngine::URMA>(static_cast<__gm__ uint8_t*>(u.ws), 1, s));
            auto src = flat(reinterpret_cast<int32_t*>(u.peer_base), 2048);
            auto dst = flat(mine + 8 * 1024, 2048);
            auto ev = comm::TGET_ASYNC<comm::DmaEngine::URMA>(dst, src, s);
            get_ok = ev.Test(s) && ev.Wait(s);
        }).ok());
        get_us = ptosim::cost::last_launch_us();
    }
    ptosim::cost::enable(false);
    ptosim::cost::override_params(nullptr);
    barrier();
    if (R() == 0) {
        EXPECT_TRUE(put_ok);
        EXPECT_TRUE(get_ok);
        std::vector<int32_t> got(2048);
        ASSERT_EQ(aclrtMemcpy(got.data(), 8192, mine + 8 * 1024, 8192, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        for (int i = 0; i < 2048; ++i) ASSERT_EQ(got[i], 100000 + i) << i;
        // The get moved 4 KiB more than the put at 1 byte a cycle: 4.096 us
        // more (the rest of the two launches is the same instructions).
        EXPECT_NEAR(get_us - put_us, 4.096, 1e-6) << put_us << " " << get_us;
        // A WQE costs its start-up and its bytes: the put launch is at
        // least 2000 + 4096 cycles.
        EXPECT_GE(put_us, 6.096);
    } else {
        std::vector<int32_t> got(1024 + 1);
        ASSERT_EQ(aclrtMemcpy(got.data(), 4100, mine + 4 * 1024, 4100, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        for (int i = 0; i < 1024; ++i) ASSERT_EQ(got[i], i) << i;  // rank 0's values
        EXPECT_EQ(got[1024], 100000 + 5 * 1024);                  // the next word untouched
    }
    barrier();
}

TEST(UrmaEngine, FaultsNameTheChannelTheEntryAndTheRegion) {
    Urma u;
    ASSERT_TRUE(u.init(4096, "urma_faults")) << u.error;
    Urma u2, u3;  // channels of their own for the other faults
    ASSERT_TRUE(u2.init(4096, "urma_faults_2")) << u2.error;
    ASSERT_TRUE(u3.init(4096, "urma_faults_3")) << u3.error;
    barrier();
    if (R() == 0) {
        // 64 bytes at the peer's last 16: outside the registered region.
        int line = 0;
        ptosim::Status st = testutil::run_vec([&] {
            comm::AsyncSession s;
            comm::BuildAsyncSession<comm::DmaEngine::URMA>(static_cast<__gm__ uint8_t*>(u.ws), 1, s);
            auto src = flat(static_cast<int32_t*>(u.buf), 16);
            auto dst = flat(reinterpret_cast<int32_t*>(u.peer_base + 4096 - 16), 16);
            line = __LINE__ + 1;
            comm::TPUT_ASYNC<comm::DmaEngine::URMA>(dst, src, s);
        });
        ASSERT_FALSE(st.ok());
        char want[400];
        std::snprintf(want, sizeof want,
                      "URMA channel to rank 1 (rank 0 of 2), send queue entry 0 (WQE 0 at 0x");
        EXPECT_NE(st.message.find(want), std::string::npos) << st.message;
        std::snprintf(want, sizeof want,
                      ": WRITE of 64 bytes at remote address 0x%lx lies outside rank 1's registered region "
                      "'urma_faults' [0x%lx, 0x%lx): the remote address is outside the memory the peer registered",
                      static_cast<unsigned long>(u.peer_base + 4080), static_cast<unsigned long>(u.peer_base),
                      static_cast<unsigned long>(u.peer_base + 4096));
        EXPECT_NE(st.message.find(want), std::string::npos) << st.message;
        EXPECT_NE(st.message.find("test_urma.cpp:" + std::to_string(line)), std::string::npos) << st.message;
        // An opcode the engine does not run (CAS).
        st = testutil::run_vec([&] {
            ptosim::urma::post({__FILE__, __LINE__}, u2.ws, 1, 0, 7, u2.peer_base, reinterpret_cast<uint64_t>(u2.buf), 8,
                               "CAS");
        });
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.message.find("send queue entry 0 (WQE 0 at"), std::string::npos) << st.message;
        EXPECT_NE(st.message.find(": opcode 7 (CAS) is not simulated: the engine runs WRITE (3), READ (6) and NOP"),
                  std::string::npos)
            << st.message;
        // The doorbell rung through st_dev (as pto-isa's poster rings it)
        // with no WQE written: slot 0's owner bit is still 0.
        const uint64_t sq_row = rd64(static_cast<const uint8_t*>(u3.ws) + 16) + 64 * 1;
        const uint64_t db = rd64(reinterpret_cast<const uint8_t*>(sq_row) + 48);
        st = testutil::run_vec([&] { ptosim::cce::st_dev({__FILE__, __LINE__}, reinterpret_cast<void*>(db), 1, 4); });
        ASSERT_FALSE(st.ok());
        EXPECT_NE(st.message.find("send queue entry 0 (WQE 0 at"), std::string::npos) << st.message;
        EXPECT_NE(st.message.find(": its owner bit is 0, not 1 as an entry written on this pass over the queue has: "
                                  "the doorbell was rung past the entries written"),
                  std::string::npos)
            << st.message;
    }
    barrier();
}

}  // namespace

int main(int argc, char** argv) { return comm_test::run_rank_tests(argc, argv); }
