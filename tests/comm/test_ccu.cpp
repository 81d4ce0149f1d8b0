// The CCU engine between two ranks (docs/many-devices.md, "The CCU
// engine"): a CCU kernel written against hcomm's interface (registered,
// bound to a thread's stream and to CCU channels, launched), triggered by
// ptolab's TREDUCE<CollEngine::CCU> on the AI Vector core through the CKE
// slot rtGetDevResAddress gives; exact results, and faults that name the
// operation.
#include <pto/pto-inst.hpp>

#include "../sim_test_util.hpp"

#include <acl/acl.h>
#include <hccl/hccl.h>
#include <hccl/hcom.h>
#include <hccl/hccl_rank_graph.h>
#include <hccl/hccl_res.h>
#include <hcomm/ccu/ccu_kernel.h>
#include <hcomm/ccu/hccl_ccu_res.h>

#include <gtest/gtest.h>

#include "mpi_ranks.hpp"
#include "comm_windows.hpp"

#include <cstring>
#include <string>
#include <vector>

extern "C" int rtGetDevResAddress(void* in, void* out);

using namespace pto;

namespace {

using namespace comm_test;

struct ResInfo {
    uint32_t dieId;
    int procType;
    int resType;
    uint32_t resId;
    uint32_t flag;
};
struct ResAddr {
    uint64_t* resAddress;
    uint32_t* len;
};

// The kernel's arguments: this rank, the root, and a tag that makes the
// signature unique per registration.
struct ReduceArg : hcomm::CcuKernelArg {
    uint32_t rank = 0, root = 0, tag = 0;
    hcomm::CcuKernelSignature GetKernelSignature() const override {
        hcomm::CcuKernelSignature s;
        s.Append(std::string("test_ccu::Reduce"));
        s.Append(rank);
        s.Append(root);
        s.Append(tag);
        return s;
    }
};
// What a launch passes: both ranks' inputs, the root's output, the length
// in bytes and this rank's token.
struct ReduceTask : hcomm::CcuTaskArg {
    uint64_t in[2] = {}, out = 0, len = 0, token = 0, peer_token = 0;
};

// Root: reads the peer's input into a CCU buffer, copies its own into
// another, sums them (INT32) into the first and copies it to its output;
// then both ranks meet on notify 0. The other rank only meets.
class Reduce : public hcomm::CcuKernel {
public:
    explicit Reduce(const hcomm::CcuKernelArg& a) : CcuKernel(a), arg_(dynamic_cast<const ReduceArg&>(a)) {}
    HcclResult Algorithm() override {
        for (auto& v : in_) v = CreateVariable();
        out_ = CreateVariable();
        len_ = CreateVariable();
        tok_ = CreateVariable();
        peer_tok_ = CreateVariable();
        gate = CreateCompletedEvent();
        ev_ = CreateCompletedEvent();
        auto src = CreateRemoteAddr();
        auto mine = CreateLocalAddr();
        auto dst = CreateLocalAddr();
        hcomm::CcuRep::CcuBuf bufs[2];
        CreateBlockCcuBuf(2, bufs);
        for (auto& v : in_) Load(v);
        Load(out_);
        Load(len_);
        Load(tok_);
        Load(peer_tok_);
        WaitEvent(gate);
        if (arg_.rank == arg_.root) {
            const uint32_t peer = 1 - arg_.rank;
            src.addr = in_[peer];
            src.token = peer_tok_;
            mine.addr = in_[arg_.rank];
            mine.token = tok_;
            dst.addr = out_;
            dst.token = tok_;
            ev_.SetMask(1);
            ReadNb(channels_[0], bufs[0], src, len_, ev_);
            ev_.SetMask(2);
            LocalCopyNb(bufs[1], mine, len_, ev_);
            ev_.SetMask(3);
            WaitEvent(ev_);
            ev_.SetMask(1);
            LocalReduceNb(bufs, 2, HCCL_DATA_TYPE_INT32, HCCL_DATA_TYPE_INT32, HCCL_REDUCE_SUM, len_, ev_);
            WaitEvent(ev_);
            LocalCopyNb(dst, bufs[0], len_, ev_);
            WaitEvent(ev_);
        }
        NotifyRecord(channels_[0], 0, 1);
        NotifyWait(channels_[0], 0, 1);
        return HCCL_SUCCESS;
    }
    std::vector<uint64_t> GeneArgs(const hcomm::CcuTaskArg& a) override {
        const auto& t = dynamic_cast<const ReduceTask&>(a);
        return {t.in[0], t.in[1], t.out, t.len, t.token, t.peer_token};
    }
    hcomm::CcuRep::CompletedEvent gate;

private:
    const ReduceArg& arg_;
    hcomm::CcuRep::Variable in_[2], out_, len_, tok_, peer_tok_;
    hcomm::CcuRep::CompletedEvent ev_;
};

// A kernel of one rank: a gate, then a local copy of `len` bytes.
class Copy : public hcomm::CcuKernel {
public:
    explicit Copy(const hcomm::CcuKernelArg& a) : CcuKernel(a) {}
    HcclResult Algorithm() override {
        auto d = CreateLocalAddr(), s = CreateLocalAddr();
        auto len = CreateVariable();
        gate = CreateCompletedEvent();
        auto ev = CreateCompletedEvent();
        Load(d.addr);
        Load(s.addr);
        Load(len);
        Load(d.token);
        Load(s.token);
        WaitEvent(gate);
        LocalCopyNb(d, s, len, ev);
        WaitEvent(ev);
        return HCCL_SUCCESS;
    }
    std::vector<uint64_t> GeneArgs(const hcomm::CcuTaskArg& a) override {
        const auto& t = dynamic_cast<const ReduceTask&>(a);
        return {t.out, t.in[0], t.len, t.token, t.token};
    }
    hcomm::CcuRep::CompletedEvent gate;
};

// A gate, then a wait for a notify the peer never sends.
class WaitForever : public hcomm::CcuKernel {
public:
    explicit WaitForever(const hcomm::CcuKernelArg& a) : CcuKernel(a) {}
    HcclResult Algorithm() override {
        gate = CreateCompletedEvent();
        WaitEvent(gate);
        NotifyWait(channels_[0], 2, 1u << 5);
        return HCCL_SUCCESS;
    }
    std::vector<uint64_t> GeneArgs(const hcomm::CcuTaskArg&) override { return {}; }
    hcomm::CcuRep::CompletedEvent gate;
};

uint64_t slot_of(const hcomm::CcuRep::CompletedEvent& e) {
    uint64_t addr = 0;
    uint32_t len = 0;
    ResInfo in{e.DieId(), 0, 3, e.Id(), 0};
    ResAddr out{&addr, &len};
    EXPECT_EQ(rtGetDevResAddress(&in, &out), 0) << aclGetRecentErrMsg();
    EXPECT_EQ(len, 8u);
    return addr;
}

// The AI Vector core's trigger: ptolab's TREDUCE<CollEngine::CCU>.
ptosim::Status trigger(uint64_t slot, uint32_t mask) {
    return testutil::run_vec([&] {
        using G = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 64>, Stride<64, 64, 64, 64, 1>>;
        using T = Tile<TileType::Vec, int32_t, 1, 64, BLayout::RowMajor, -1, -1>;
        G dst, tensors[1];
        T acc(1, 64), recv(1, 64);
        comm::ParallelGroup<G> group(tensors, 1, 0);
        comm::CcuTriggerContext ctx{slot, mask};
        comm::TREDUCE<comm::CollEngine::CCU>(group, dst, acc, recv, comm::ReduceOp::Sum, ctx);
    });
}

ChannelHandle ccu_channel() {
    const uint32_t peer = 1 - R();
    CommLink* links = nullptr;
    uint32_t n = 0;
    EXPECT_EQ(HcclRankGraphGetLinks(g_comm, 0, R(), peer, &links, &n), HCCL_SUCCESS);
    EXPECT_EQ(n, 2u);
    HcclChannelDesc d;
    HcclChannelDescInit(&d, 1);
    d.remoteRank = peer;
    d.notifyNum = 4;
    d.channelProtocol = links[1].linkAttr.linkProtocol;
    d.localEndpoint = links[1].srcEndpointDesc;
    d.remoteEndpoint = links[1].dstEndpointDesc;
    ChannelHandle ch = 0;
    EXPECT_EQ(d.channelProtocol, COMM_PROTOCOL_UBC_CTP);
    EXPECT_EQ(HcclChannelAcquire(g_comm, COMM_ENGINE_CCU, &d, 1, &ch), HCCL_SUCCESS) << aclGetRecentErrMsg();
    return ch;
}

TEST(CcuEngine, ReduceOfTwoRanksIsExact) {
    constexpr int n = 1024;
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ThreadHandle thread = 0;
    ASSERT_EQ(HcclThreadAcquireWithStream(g_comm, COMM_ENGINE_CCU, stream, 1, &thread), HCCL_SUCCESS)
        << aclGetRecentErrMsg();
    const ChannelHandle ch = ccu_channel();
    void *in = nullptr, *out = nullptr;
    ASSERT_EQ(aclrtMalloc(&in, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(&out, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    std::vector<int32_t> x(n), zero(n, 0);
    for (int i = 0; i < n; ++i) x[i] = (R() + 1) * 100000 + i * (R() ? -3 : 7);
    ASSERT_EQ(aclrtMemcpy(in, n * 4, x.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(out, n * 4, zero.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
    ReduceTask task;
    uint64_t mine[2] = {reinterpret_cast<uint64_t>(in), 0}, all[4] = {};
    const uint64_t lo = std::min(reinterpret_cast<uint64_t>(in), reinterpret_cast<uint64_t>(out));
    const uint64_t hi = std::max(reinterpret_cast<uint64_t>(in), reinterpret_cast<uint64_t>(out)) + n * 4;
    mine[1] = hcomm::CcuRep::GetTokenInfo(lo, hi - lo);
    allgather(mine, all, sizeof mine);
    task.in[0] = all[0];
    task.in[1] = all[2];
    task.token = mine[1];
    task.peer_token = all[2 * (1 - R()) + 1];
    task.out = reinterpret_cast<uint64_t>(out);
    task.len = n * 4;
    ReduceArg arg;
    arg.rank = R();
    arg.root = 0;
    arg.tag = 1;
    arg.channels = {ch};
    Reduce* made = nullptr;
    hcomm::KernelCreator creator = [&](const hcomm::CcuKernelArg& a) {
        auto k = std::make_unique<Reduce>(a);
        made = k.get();
        return k;
    };
    CcuKernelHandle k = 0;
    ASSERT_EQ(HcclCcuKernelRegister(g_comm, &k, &creator, &arg), HCCL_SUCCESS) << aclGetRecentErrMsg();
    CcuKernelHandle again = 0;
    EXPECT_EQ(HcclCcuKernelRegister(g_comm, &again, &creator, &arg), HCCL_E_PARA);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("is already registered on this communicator"), std::string::npos)
        << aclGetRecentErrMsg();
    EXPECT_EQ(HcclCcuKernelLaunch(g_comm, thread, k, &task), HCCL_E_PARA);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("call HcclCcuKernelRegisterFinish first"), std::string::npos)
        << aclGetRecentErrMsg();
    ASSERT_EQ(HcclCcuKernelRegisterFinish(g_comm), HCCL_SUCCESS);
    ASSERT_EQ(HcclCcuKernelLaunch(g_comm, thread, k, &task), HCCL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(HcclCcuKernelLaunch(g_comm, thread, k, &task), HCCL_E_PARA);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("was launched already; a CCU kernel handle launches once"),
              std::string::npos)
        << aclGetRecentErrMsg();
    ASSERT_NE(made, nullptr);
    ASSERT_TRUE(trigger(slot_of(made->gate), 1).ok());
    ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    if (R() == 0) {
        std::vector<int32_t> got(n);
        ASSERT_EQ(aclrtMemcpy(got.data(), n * 4, out, n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        for (int i = 0; i < n; ++i) ASSERT_EQ(got[i], 100000 + 7 * i + 200000 - 3 * i) << "element " << i;
    }
    barrier();
    aclrtFree(in);
    aclrtFree(out);
    aclrtDestroyStream(stream);
}

TEST(CcuEngine, FaultsNameTheOperationTheSlotAndTheKernel) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ThreadHandle thread = 0;
    ASSERT_EQ(HcclThreadAcquireWithStream(g_comm, COMM_ENGINE_CCU, stream, 1, &thread), HCCL_SUCCESS);
    ReduceTask task;
    EXPECT_EQ(HcclCcuKernelLaunch(g_comm, thread, 987654, &task), HCCL_E_PARA);
    EXPECT_NE(std::string(aclGetRecentErrMsg())
                  .find("kernel handle 987654 is not a kernel HcclCcuKernelRegister registered on this communicator"),
              std::string::npos)
        << aclGetRecentErrMsg();
    // rtGetDevResAddress of a CKE that does not exist.
    uint64_t addr = 1;
    uint32_t len = 1;
    ResInfo bad{5, 0, 3, 0, 0};
    ResAddr out{&addr, &len};
    EXPECT_NE(rtGetDevResAddress(&bad, &out), 0);
    EXPECT_EQ(addr, 0u);
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find("there is no CKE 0 on die 5 (dies 0..1, CKEs 0..1023)"),
              std::string::npos)
        << aclGetRecentErrMsg();
    // A trigger into memory that is no CKE slot.
    void* dev = nullptr;
    ASSERT_EQ(aclrtMalloc(&dev, 4096, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ptosim::Status st = trigger(reinterpret_cast<uint64_t>(dev), 1);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TREDUCE<CCU>: the CKE slot address 0x"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("is not a CKE slot of this device's CCU"), std::string::npos) << st.message;
    // A copy whose source is host memory: the stream's error names the
    // kernel, the operation and the address.
    std::vector<int32_t> host(16, 5);
    task.in[0] = reinterpret_cast<uint64_t>(host.data());
    task.out = reinterpret_cast<uint64_t>(dev);
    task.len = 64;
    task.token = hcomm::CcuRep::GetTokenInfo(reinterpret_cast<uint64_t>(dev), 4096);
    ReduceArg arg;
    arg.rank = R();
    arg.tag = 2;
    Copy* made = nullptr;
    hcomm::KernelCreator creator = [&](const hcomm::CcuKernelArg& a) {
        auto k = std::make_unique<Copy>(a);
        made = k.get();
        return k;
    };
    CcuKernelHandle k = 0;
    ASSERT_EQ(HcclCcuKernelRegister(g_comm, &k, &creator, &arg), HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(HcclCcuKernelRegisterFinish(g_comm), HCCL_SUCCESS);
    ASSERT_EQ(HcclCcuKernelLaunch(g_comm, thread, k, &task), HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_TRUE(trigger(slot_of(made->gate), 1).ok());
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string msg = aclGetRecentErrMsg();
    char want[160];
    std::snprintf(want, sizeof want, "operation 6 (LocalCopyNb): source address 0x%llx (64 bytes) is not device memory of rank %d",
                  static_cast<unsigned long long>(task.in[0]), R());
    EXPECT_NE(msg.find("CCU engine: rank " + std::to_string(R()) + ", CCU kernel 's:test_ccu::Reduce"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find(want), std::string::npos) << msg;
    aclrtFree(dev);
    aclrtDestroyStream(stream);
    barrier();
}

// Both ranks' programs wait for a notify neither sends: the board's
// cross-rank deadlock report ends the wait (PTO_COMM_DEADLOCK_S, 2 s), and
// the stream's error names the wait.
TEST(CcuEngine, AWaitNobodySatisfiesEndsInTheDeadlockReport) {
    aclrtStream stream = nullptr;
    ASSERT_EQ(aclrtCreateStream(&stream), ACL_SUCCESS);
    ThreadHandle thread = 0;
    ASSERT_EQ(HcclThreadAcquireWithStream(g_comm, COMM_ENGINE_CCU, stream, 1, &thread), HCCL_SUCCESS);
    ReduceArg arg;
    arg.rank = R();
    arg.tag = 3;
    arg.channels = {ccu_channel()};
    WaitForever* made = nullptr;
    hcomm::KernelCreator creator = [&](const hcomm::CcuKernelArg& a) {
        auto k = std::make_unique<WaitForever>(a);
        made = k.get();
        return k;
    };
    CcuKernelHandle k = 0;
    ASSERT_EQ(HcclCcuKernelRegister(g_comm, &k, &creator, &arg), HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_EQ(HcclCcuKernelRegisterFinish(g_comm), HCCL_SUCCESS);
    ReduceTask task;
    ASSERT_EQ(HcclCcuKernelLaunch(g_comm, thread, k, &task), HCCL_SUCCESS) << aclGetRecentErrMsg();
    ASSERT_TRUE(trigger(slot_of(made->gate), 1).ok());
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find("operation 1 (NotifyWait on the channel to rank " + std::to_string(1 - R()) + ")"),
              std::string::npos)
        << msg;
    EXPECT_NE(msg.find("deadlock across ranks: every core of every rank waits on another rank"), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("notify register 2 bit 5 (notify 1 from that rank)"), std::string::npos) << msg;
    aclrtDestroyStream(stream);
    barrier();
}

}  // namespace

int main(int argc, char** argv) { return comm_test::run_rank_tests(argc, argv); }
