// The CCU engine (docs/many-devices.md, "The CCU engine"): hcomm's CCU
// kernel interface (include/hcomm/ccu/) recorded as a program of operations
// over the kernel's variables, addresses, CCU buffers and completion events
// (CKEs), and run on the stream of the kernel's thread when launched: it
// waits for its gate CKE, which a kernel on the AI Vector cores sets by
// storing a mask into the CKE's slot (ptosim/ccu.hpp), and moves data over
// the transport URMA uses (the peer's process under shared memory, MPI on
// the dynamic window under the remote transport).
#include <hcomm/ccu/ccu_kernel.h>
#include <hcomm/ccu/hccl_ccu_res.h>
#include <hccl/hccl_res.h>

#include <acl/acl.h>
#include <ptosim/ccu.hpp>
#include <ptosim/cost.hpp>
#include <ptosim/peers.hpp>
#include <ptosim/runtime.hpp>

#include "comm.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <map>
#include <optional>
#include <tuple>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

using hccl_sim::Comm;
using hccl_sim::fail;
using hccl_sim::live;

namespace hcomm {
namespace CcuRep {

// One end of a data move: a CCU buffer, or an address and its token.
struct Ep {
    int buf = -1;
    uint16_t addr = kUnboundId, token = kUnboundId;
};
enum class OpK { Load, Assign, AssignImm, Wait, Record, NotifyRecord, NotifyWait, Write, Read, WriteReduce,
                 ReadReduce, Copy, Reduce, ReduceBufs };
struct Op {
    OpK k;
    uint16_t dst = kUnboundId, src = kUnboundId, len = kUnboundId;
    uint64_t imm = 0;
    uint32_t arg = 0;             // Load: the argument's index
    uint32_t die = 0, cke = 0;    // Wait, Record, and the event a move completes
    uint32_t mask = 0;            // the event's (or notify's) mask
    bool has_event = false;
    ChannelHandle ch = 0;
    uint32_t idx = 0;             // notify register index
    Ep a, b;                      // moves: a the destination, b the source
    HcclDataType dt = HCCL_DATA_TYPE_RESERVED;
    HcclReduceOp op = HCCL_REDUCE_RESERVED;
    std::vector<int> bufs;
    const char* name = "";
};
struct CcuProgram {
    std::vector<Op> ops;
    uint16_t vars = 0;  // variables and addresses share one register file
    int bufs = 0;
    std::vector<std::pair<uint32_t, uint32_t>> ckes;  // (die, id) of the kernel's events
    uint32_t loads = 0;
    std::string error;  // the first recording error
    void note(const std::string& e) {
        if (error.empty()) error = e;
    }
};

CcuRepContext::CcuRepContext() : program_(std::make_shared<CcuProgram>()) {}
CcuRepContext::~CcuRepContext() {
    for (auto [die, id] : program_->ckes) ptosim::ccu::free_cke(die, id);
}
void CcuRepContext::SetDieId(uint32_t dieId) { dieId_ = dieId; }
uint32_t CcuRepContext::GetDieId() const { return dieId_; }
void CcuRepContext::PtolabAssign(uint16_t dst, uint16_t src) {
    Op o{OpK::Assign};
    o.dst = dst;
    o.src = src;
    o.name = "assignment";
    program_->ops.push_back(o);
}
void CcuRepContext::PtolabAssignImm(uint16_t dst, uint64_t imm) {
    Op o{OpK::AssignImm};
    o.dst = dst;
    o.imm = imm;
    o.name = "assignment";
    program_->ops.push_back(o);
}

// GetTokenInfo: ranges of device memory and their tokens, in this process.
namespace {
struct TokenRange {
    uint64_t va, size, token;
};
std::mutex g_tok_mu;
std::vector<TokenRange> g_tokens;
}  // namespace

uint64_t GetTokenInfo(uint64_t va, uint64_t size) {
    // Under the remote transport the peers reach the range over MPI.
    std::string why;
    if (!hccl_sim::attach_ccu(reinterpret_cast<void*>(va), size, why))
        std::fprintf(stderr, "HCCL: rank %d: GetTokenInfo: [0x%llx, +%llu) cannot be reached by the peers: %s\n",
                     ptosim::process_rank(), static_cast<unsigned long long>(va), static_cast<unsigned long long>(size),
                     why.c_str());
    std::lock_guard lk(g_tok_mu);
    for (const TokenRange& t : g_tokens)
        if (t.va == va && t.size == size) return t.token;
    const uint64_t token = 0x7c000000ull | (static_cast<uint64_t>(ptosim::process_rank() & 0xff) << 16) |
                           ((g_tokens.size() + 1) & 0xffff);
    g_tokens.push_back({va, size, token});
    return token;
}

}  // namespace CcuRep

using namespace CcuRep;

namespace {
CcuProgram& prog(CcuKernel* k) { return k->PtolabProgram(); }
bool bound(CcuKernel* k, const CcuVirRes& r, const char* what, const char* op) {
    if (r.Bound() && r.Context() == k) return true;
    prog(k).note(std::string(op) + ": its " + what + (r.Bound() ? " belongs to another kernel" :
                 " was not created by the kernel (CreateVariable, CreateLocalAddr, CreateRemoteAddr, "
                 "CreateCompletedEvent, CreateBlockCcuBuf)"));
    return false;
}
Ep ep_of(CcuKernel* k, const LocalAddr& a, const char* op) {
    Ep e;
    if (bound(k, a.addr, "address", op) && bound(k, a.token, "token", op)) {
        e.addr = a.addr.Id();
        e.token = a.token.Id();
    }
    return e;
}
Ep ep_of(CcuKernel* k, const RemoteAddr& a, const char* op) {
    return ep_of(k, *reinterpret_cast<const LocalAddr*>(&a), op);
}
Ep ep_of(CcuKernel* k, const CcuBuf& b, const char* op) {
    Ep e;
    if (bound(k, b, "CCU buffer", op)) e.buf = b.Id();
    return e;
}
HcclResult move(CcuKernel* k, OpK kind, const char* name, ChannelHandle ch, Ep dst, Ep src, const Variable& len,
                const CompletedEvent& ev, HcclDataType dt = HCCL_DATA_TYPE_RESERVED,
                HcclReduceOp rop = HCCL_REDUCE_RESERVED) {
    Op o{kind};
    o.name = name;
    o.ch = ch;
    o.a = dst;
    o.b = src;
    o.dt = dt;
    o.op = rop;
    if (bound(k, len, "length", name)) o.len = len.Id();
    if (bound(k, ev, "event", name)) {
        o.has_event = true;
        o.die = ev.DieId();
        o.cke = ev.Id();
        o.mask = ev.mask;
    }
    prog(k).ops.push_back(o);
    return prog(k).error.empty() ? HCCL_SUCCESS : HCCL_E_PARA;
}
}  // namespace

CcuKernel::CcuKernel() = default;
CcuKernel::CcuKernel(const CcuKernelArg& arg) : channels_(arg.channels) {}
CcuKernel::~CcuKernel() = default;

Variable CcuKernel::CreateVariable() {
    Variable v(this);
    v.Reset(prog(this).vars++);
    return v;
}
LocalAddr CcuKernel::CreateLocalAddr() {
    Address a(this);
    a.Reset(prog(this).vars++);
    return LocalAddr(a, CreateVariable());
}
RemoteAddr CcuKernel::CreateRemoteAddr() {
    Address a(this);
    a.Reset(prog(this).vars++);
    return RemoteAddr(a, CreateVariable());
}
CompletedEvent CcuKernel::CreateCompletedEvent() {
    CompletedEvent e(this);
    uint32_t id = 0;
    std::string why;
    if (!ptosim::ccu::alloc_cke(GetDieId(), &id, &why)) {
        prog(this).note("CreateCompletedEvent: " + why);
        return CompletedEvent();
    }
    prog(this).ckes.emplace_back(GetDieId(), id);
    e.Reset(static_cast<uint16_t>(id), static_cast<uint16_t>(GetDieId()));
    return e;
}
CcuBuf CcuKernel::CreateCcuBuf() {
    CcuBuf b(this);
    b.Reset(static_cast<uint16_t>(prog(this).bufs++));
    return b;
}
HcclResult CcuKernel::CreateBlockCcuBuf(const uint32_t count, CcuBuf* ccuBufs) {
    if (!ccuBufs && count) return HCCL_E_PTR;
    for (uint32_t i = 0; i < count; ++i) ccuBufs[i] = CreateCcuBuf();
    return HCCL_SUCCESS;
}
HcclResult CcuKernel::CreateBlockCompletedEvent(const uint32_t count, CompletedEvent* ccuEvents) {
    if (!ccuEvents && count) return HCCL_E_PTR;
    for (uint32_t i = 0; i < count; ++i) ccuEvents[i] = CreateCompletedEvent();
    return prog(this).error.empty() ? HCCL_SUCCESS : HCCL_E_UNAVAIL;
}

HcclResult CcuKernel::RecordEvent(CompletedEvent event) {
    if (!bound(this, event, "event", "RecordEvent")) return HCCL_E_PARA;
    Op o{OpK::Record};
    o.name = "RecordEvent";
    o.die = event.DieId();
    o.cke = event.Id();
    o.mask = event.mask;
    prog(this).ops.push_back(o);
    return HCCL_SUCCESS;
}
HcclResult CcuKernel::WaitEvent(CompletedEvent event) {
    if (!bound(this, event, "event", "WaitEvent")) return HCCL_E_PARA;
    Op o{OpK::Wait};
    o.name = "WaitEvent";
    o.die = event.DieId();
    o.cke = event.Id();
    o.mask = event.mask;
    if ((event.mask & 0xffff) == 0) prog(this).note("WaitEvent: the event's mask sets none of the CKE's 16 bits");
    prog(this).ops.push_back(o);
    return HCCL_SUCCESS;
}
HcclResult CcuKernel::NotifyRecord(const ChannelHandle channel, uint32_t remoteNotifyIdx, uint32_t mask) {
    Op o{OpK::NotifyRecord};
    o.name = "NotifyRecord";
    o.ch = channel;
    o.idx = remoteNotifyIdx;
    o.mask = mask;
    prog(this).ops.push_back(o);
    return HCCL_SUCCESS;
}
HcclResult CcuKernel::NotifyWait(const ChannelHandle channel, uint32_t localNotifyIdx, uint32_t mask) {
    Op o{OpK::NotifyWait};
    o.name = "NotifyWait";
    o.ch = channel;
    o.idx = localNotifyIdx;
    o.mask = mask;
    prog(this).ops.push_back(o);
    return HCCL_SUCCESS;
}
HcclResult CcuKernel::WriteNb(const ChannelHandle channel, const RemoteAddr& rem, const LocalAddr& loc,
                              const Variable& len, CompletedEvent event) {
    return move(this, OpK::Write, "WriteNb", channel, ep_of(this, rem, "WriteNb"), ep_of(this, loc, "WriteNb"), len,
                event);
}
HcclResult CcuKernel::WriteNb(const ChannelHandle channel, const RemoteAddr& rem, const CcuBuf& loc,
                              const Variable& len, CompletedEvent event) {
    return move(this, OpK::Write, "WriteNb", channel, ep_of(this, rem, "WriteNb"), ep_of(this, loc, "WriteNb"), len,
                event);
}
HcclResult CcuKernel::ReadNb(const ChannelHandle channel, const LocalAddr& loc, const RemoteAddr& rem,
                             const Variable& len, CompletedEvent event) {
    return move(this, OpK::Read, "ReadNb", channel, ep_of(this, loc, "ReadNb"), ep_of(this, rem, "ReadNb"), len, event);
}
HcclResult CcuKernel::ReadNb(const ChannelHandle channel, const CcuBuf& loc, const RemoteAddr& rem,
                             const Variable& len, CompletedEvent event) {
    return move(this, OpK::Read, "ReadNb", channel, ep_of(this, loc, "ReadNb"), ep_of(this, rem, "ReadNb"), len, event);
}
HcclResult CcuKernel::WriteReduceNb(const ChannelHandle channel, const RemoteAddr& rem, const LocalAddr& loc,
                                    const Variable& len, HcclDataType dataType, HcclReduceOp opType,
                                    CompletedEvent event) {
    return move(this, OpK::WriteReduce, "WriteReduceNb", channel, ep_of(this, rem, "WriteReduceNb"),
                ep_of(this, loc, "WriteReduceNb"), len, event, dataType, opType);
}
HcclResult CcuKernel::ReadReduceNb(const ChannelHandle channel, const LocalAddr& loc, const RemoteAddr& rem,
                                   const Variable& len, HcclDataType dataType, HcclReduceOp opType,
                                   CompletedEvent event) {
    return move(this, OpK::ReadReduce, "ReadReduceNb", channel, ep_of(this, loc, "ReadReduceNb"),
                ep_of(this, rem, "ReadReduceNb"), len, event, dataType, opType);
}
HcclResult CcuKernel::LocalCopyNb(const LocalAddr& dst, const LocalAddr& src, const Variable& len,
                                  CompletedEvent event) {
    return move(this, OpK::Copy, "LocalCopyNb", 0, ep_of(this, dst, "LocalCopyNb"), ep_of(this, src, "LocalCopyNb"),
                len, event);
}
HcclResult CcuKernel::LocalCopyNb(const CcuBuf& dst, const LocalAddr& src, const Variable& len,
                                  CompletedEvent event) {
    return move(this, OpK::Copy, "LocalCopyNb", 0, ep_of(this, dst, "LocalCopyNb"), ep_of(this, src, "LocalCopyNb"),
                len, event);
}
HcclResult CcuKernel::LocalCopyNb(const LocalAddr& dst, const CcuBuf& src, const Variable& len,
                                  CompletedEvent event) {
    return move(this, OpK::Copy, "LocalCopyNb", 0, ep_of(this, dst, "LocalCopyNb"), ep_of(this, src, "LocalCopyNb"),
                len, event);
}
HcclResult CcuKernel::LocalReduceNb(const LocalAddr& dst, const LocalAddr& src, const Variable& len,
                                    HcclDataType dataType, HcclReduceOp opType, CompletedEvent event) {
    return move(this, OpK::Reduce, "LocalReduceNb", 0, ep_of(this, dst, "LocalReduceNb"),
                ep_of(this, src, "LocalReduceNb"), len, event, dataType, opType);
}
HcclResult CcuKernel::LocalReduceNb(const CcuBuf* bufs, uint32_t count, HcclDataType dataType,
                                    HcclDataType outputDataType, HcclReduceOp opType, const Variable& len,
                                    CompletedEvent event) {
    if (!bufs || count == 0) {
        prog(this).note("LocalReduceNb: no CCU buffers (bufs null or count 0)");
        return HCCL_E_PARA;
    }
    if (outputDataType != dataType)
        prog(this).note("LocalReduceNb: output data type " + std::to_string(outputDataType) + " differs from the input's " +
                        std::to_string(dataType) + "; ptolab's CCU reduces without converting");
    Ep none;
    const HcclResult r = move(this, OpK::ReduceBufs, "LocalReduceNb", 0, none, none, len, event, dataType, opType);
    for (uint32_t i = 0; i < count; ++i)
        prog(this).ops.back().bufs.push_back(bound(this, bufs[i], "CCU buffer", "LocalReduceNb") ? bufs[i].Id() : -1);
    return prog(this).error.empty() ? r : HCCL_E_PARA;
}
void CcuKernel::Load(const Variable& var) {
    if (!bound(this, var, "variable", "Load")) return;
    Op o{OpK::Load};
    o.name = "Load";
    o.dst = var.Id();
    o.arg = prog(this).loads++;
    prog(this).ops.push_back(o);
}

}  // namespace hcomm

// ------------------------------------------------------------ registry and launch

namespace {

using hcomm::CcuRep::CcuProgram;
using hcomm::CcuRep::Ep;
using hcomm::CcuRep::Op;
using hcomm::CcuRep::OpK;

struct Kernel {
    std::unique_ptr<hcomm::CcuKernel> k;
    std::string sig;
    bool finished = false, launched = false;
};
struct CcuState {
    std::map<uint64_t, Kernel> kernels;
    std::map<ThreadHandle, aclrtStream> threads;
};
std::mutex g_mu;
std::map<const Comm*, CcuState> g_state;
std::atomic<uint64_t> g_next_kernel{1}, g_next_thread{1};

std::string hex(uint64_t v) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
}
std::string rank_of() { return "rank " + std::to_string(ptosim::process_rank()); }

// A launched program and what it runs with.
struct Run {
    std::shared_ptr<CcuProgram> prog;  // shares the kernel's (the kernel may go first)
    std::vector<Op> ops;
    std::vector<uint64_t> args;
    std::map<ChannelHandle, hccl_sim::CcuChannel> chans;
    std::string who;  // "rank 0, CCU kernel <signature>"
};

struct Cke {
    uint32_t bits = 0;
    double when[16] = {};
};

// Notify counts this process sent, per (channel serial, index, bit), and consumed.
std::mutex g_notify_mu;
std::map<std::tuple<uint64_t, uint32_t, uint32_t>, uint32_t> g_sent, g_seen;

ptosim::Status run_program(Run& r, double& clock) {
    std::vector<uint64_t> v(r.prog->vars, 0);
    std::vector<std::vector<uint8_t>> bufs(static_cast<size_t>(r.prog->bufs));
    std::map<std::pair<uint32_t, uint32_t>, Cke> ckes;
    double t = clock;
    size_t i = 0;
    auto where = [&](const Op& o) {
        std::string s = r.who + ", operation " + std::to_string(i) + " (" + o.name;
        if (o.ch) {
            auto it = r.chans.find(o.ch);
            s += it != r.chans.end() ? " on the channel to rank " + std::to_string(it->second.peer)
                                     : " on channel " + hex(o.ch);
        }
        return s + ")";
    };
    auto bad = [&](const Op& o, const std::string& msg) -> ptosim::Status {
        const std::string m = "CCU engine: " + where(o) + ": " + msg;
        std::fprintf(stderr, "HCCL: %s: %s\n", rank_of().c_str(), m.c_str());
        clock = t;
        return {ACL_ERROR_RT_PARAM_INVALID, m};
    };
    auto complete = [&](const Op& o, double done) {
        if (!o.has_event) return;
        Cke& c = ckes[{o.die, o.cke}];
        for (int b = 0; b < 16; ++b)
            if (o.mask & (1u << b)) {
                c.bits |= 1u << b;
                c.when[b] = std::max(c.when[b], done);
            }
    };
    // A local end of a move: [p, p + n) in a CCU buffer (grown to n) or in
    // this rank's device memory under the address's token.
    auto local = [&](const Op& o, const Ep& e, uint64_t n, bool write, uint8_t** p, std::string* why) {
        if (e.buf >= 0) {
            auto& b = bufs[static_cast<size_t>(e.buf)];
            if (b.size() < n) b.resize(n, 0);
            *p = b.data();
            return true;
        }
        const uint64_t a = v[e.addr], tok = v[e.token];
        (void)o;
        const auto blk = a ? ptosim::Device::get().find(reinterpret_cast<const void*>(a), n ? n : 1)
                           : std::optional<ptosim::Allocation>();
        if (!blk || !blk->device) {
            *why = std::string(write ? "destination" : "source") + " address " + hex(a) + " (" + std::to_string(n) +
                   " bytes) is not device memory of " + rank_of() +
                   (a == 0 ? ": it is 0, as the launch argument it came from was (GeneArgs' vector): fill the task "
                             "argument's addresses before HcclCcuKernelLaunch"
                           : ": pass addresses from aclrtMalloc in the launch arguments (GeneArgs)");
            return false;
        }
        bool covered = false, known = false;
        {
            std::lock_guard lk(hcomm::CcuRep::g_tok_mu);
            for (const auto& tr : hcomm::CcuRep::g_tokens)
                if (tr.token == tok) {
                    known = true;
                    if (a >= tr.va && a - tr.va <= tr.size && n <= tr.size - (a - tr.va)) covered = true;
                }
        }
        if (!covered) {
            *why = std::string(write ? "destination" : "source") + " address " + hex(a) + " (" + std::to_string(n) +
                   " bytes): its token " + hex(tok) +
                   (known ? " does not cover that memory" : " is not one GetTokenInfo returned on " + rank_of()) +
                   " (get the token of the range with hcomm::CcuRep::GetTokenInfo)";
            return false;
        }
        *p = reinterpret_cast<uint8_t*>(a);
        return true;
    };
    for (i = 0; i < r.ops.size(); ++i) {
        const Op& o = r.ops[i];
        switch (o.k) {
            case OpK::Load:
                if (o.arg >= r.args.size())
                    return bad(o, "Load of argument " + std::to_string(o.arg) + ", but GeneArgs gave " +
                                      std::to_string(r.args.size()));
                v[o.dst] = r.args[o.arg];
                break;
            case OpK::Assign: v[o.dst] = v[o.src]; break;
            case OpK::AssignImm: v[o.dst] = o.imm; break;
            case OpK::Record: {
                Cke& c = ckes[{o.die, o.cke}];
                for (int b = 0; b < 16; ++b)
                    if (o.mask & (1u << b)) {
                        c.bits |= 1u << b;
                        c.when[b] = std::max(c.when[b], t);
                    }
                break;
            }
            case OpK::Wait: {
                Cke& c = ckes[{o.die, o.cke}];
                uint64_t* slot = ptosim::ccu::cke_slot(o.die, o.cke, nullptr);
                const uint32_t want = o.mask & 0xffff;
                auto absorb = [&] {
                    const uint64_t w = __atomic_exchange_n(slot, 0, __ATOMIC_ACQ_REL);
                    if (w & ptosim::ccu::kValidBit) {
                        // A trigger store: its bits are set from now on (the
                        // trigger's own time is not tracked).
                        const double at = std::max(t, ptosim::cost::simulated_clock_us());
                        for (int b = 0; b < 16; ++b)
                            if (w & (1u << b)) {
                                c.bits |= 1u << b;
                                c.when[b] = std::max(c.when[b], at);
                            }
                    }
                    return (c.bits & want) == want;
                };
                if (!absorb()) {
                    const std::string err = ptosim::wait_cross_rank(
                        r.who, absorb,
                        [&] {
                            return "WaitEvent on CKE " + std::to_string(o.cke) + " of die " + std::to_string(o.die) +
                                   " for mask " + hex(want) + " (set so far: " + hex(c.bits & 0xffff) +
                                   "); a gate is set by a kernel's trigger store into the CKE slot";
                        },
                        {});
                    if (!err.empty()) return bad(o, err);
                }
                for (int b = 0; b < 16; ++b)
                    if (want & (1u << b)) t = std::max(t, c.when[b]);
                c.bits &= ~want;
                break;
            }
            case OpK::NotifyRecord:
            case OpK::NotifyWait: {
                auto it = r.chans.find(o.ch);
                const hccl_sim::CcuChannel& ch = it->second;
                if (o.idx >= ch.notify_num)
                    return bad(o, "notify register " + std::to_string(o.idx) + ", but the channel has " +
                                      std::to_string(ch.notify_num) + " (HcclChannelDesc::notifyNum)");
                for (uint32_t b = 0; b < 16; ++b) {
                    if (!(o.mask & (1u << b))) continue;
                    // Per channel, not per handle: a later communicator's
                    // channel may get the same address, and starts from 0.
                    const auto key = std::make_tuple(ch.serial, o.idx, b);
                    if (o.k == OpK::NotifyRecord) {
                        uint32_t n;
                        {
                            std::lock_guard lk(g_notify_mu);
                            n = ++g_sent[key];
                        }
                        std::string why;
                        const uint64_t at = ch.remote_notify + (uint64_t(o.idx) * 16 + b) * 4;
                        if (!hccl_sim::peer_move(static_cast<int>(ch.peer), at, &n, 4, true, &why))
                            return bad(o, "the notify to rank " + std::to_string(ch.peer) + " failed over " +
                                              hccl_sim::peer_transport_name() + ": " + why);
                        t += ptosim::cost::ccu_transfer_us(static_cast<int>(ch.peer), 4);
                    } else {
                        uint32_t want;
                        {
                            std::lock_guard lk(g_notify_mu);
                            want = g_seen[key] + 1;
                        }
                        uint32_t* word = ch.local_notify + uint64_t(o.idx) * 16 + b;
                        auto ready = [&] { return static_cast<int32_t>(__atomic_load_n(word, __ATOMIC_ACQUIRE) - want) >= 0; };
                        if (!ready()) {
                            const std::string err = ptosim::wait_cross_rank(
                                r.who, ready,
                                [&] {
                                    return "NotifyWait on the channel to rank " + std::to_string(ch.peer) +
                                           ", notify register " + std::to_string(o.idx) + " bit " + std::to_string(b) +
                                           " (notify " + std::to_string(want) + " from that rank)";
                                },
                                {});
                            if (!err.empty()) return bad(o, err);
                        }
                        std::lock_guard lk(g_notify_mu);
                        g_seen[key] = want;
                    }
                }
                break;
            }
            case OpK::Write:
            case OpK::Read:
            case OpK::WriteReduce:
            case OpK::ReadReduce: {
                const hccl_sim::CcuChannel& ch = r.chans.find(o.ch)->second;
                const uint64_t n = v[o.len];
                const bool write = o.k == OpK::Write || o.k == OpK::WriteReduce;
                const Ep& loc = write ? o.b : o.a;
                const Ep& rem = write ? o.a : o.b;
                uint8_t* p = nullptr;
                std::string why;
                if (!local(o, loc, n, !write, &p, &why)) return bad(o, why);
                const uint64_t ra = v[rem.addr];
                if (ra == 0)
                    return bad(o, std::string("the remote ") + (write ? "destination" : "source") + " address on rank " +
                                      std::to_string(ch.peer) + " is 0, as the launch argument it came from was "
                                      "(GeneArgs' vector): fill the task argument's peer addresses before "
                                      "HcclCcuKernelLaunch");
                const bool reduce = o.k == OpK::WriteReduce || o.k == OpK::ReadReduce;
                const int es = reduce ? hccl_sim::type_bytes(o.dt) : 1;
                if (reduce && (es == 0 || n % es))
                    return bad(o, "length " + std::to_string(n) + " is not a whole number of elements of data type " +
                                      std::to_string(o.dt));
                std::vector<uint8_t> tmp;
                bool ok;
                if (o.k == OpK::Write) {
                    ok = hccl_sim::peer_move(static_cast<int>(ch.peer), ra, p, n, true, &why);
                } else if (o.k == OpK::Read) {
                    ok = hccl_sim::peer_move(static_cast<int>(ch.peer), ra, p, n, false, &why);
                } else {
                    tmp.resize(n);
                    ok = hccl_sim::peer_move(static_cast<int>(ch.peer), ra, tmp.data(), n, false, &why);
                    if (ok && o.k == OpK::ReadReduce) {
                        hccl_sim::reduce_into(p, tmp.data(), n / es, o.dt, o.op);
                    } else if (ok) {
                        hccl_sim::reduce_into(tmp.data(), p, n / es, o.dt, o.op);
                        ok = hccl_sim::peer_move(static_cast<int>(ch.peer), ra, tmp.data(), n, true, &why);
                    }
                }
                if (!ok)
                    return bad(o, std::string(write ? "writing " : "reading ") + std::to_string(n) + " bytes " +
                                      (write ? "to" : "from") + " rank " + std::to_string(ch.peer) + " at " + hex(ra) +
                                      " failed over " + hccl_sim::peer_transport_name() + ": " + why);
                complete(o, t + ptosim::cost::ccu_transfer_us(static_cast<int>(ch.peer), n));
                break;
            }
            case OpK::Copy:
            case OpK::Reduce: {
                const uint64_t n = v[o.len];
                uint8_t *d = nullptr, *s = nullptr;
                std::string why;
                if (!local(o, o.a, n, true, &d, &why) || !local(o, o.b, n, false, &s, &why)) return bad(o, why);
                if (o.k == OpK::Copy) {
                    std::memmove(d, s, n);
                } else {
                    const int es = hccl_sim::type_bytes(o.dt);
                    if (es == 0 || n % es)
                        return bad(o, "length " + std::to_string(n) +
                                          " is not a whole number of elements of data type " + std::to_string(o.dt));
                    hccl_sim::reduce_into(d, s, n / es, o.dt, o.op);
                }
                complete(o, t + ptosim::cost::ccu_transfer_us(-1, n));
                break;
            }
            case OpK::ReduceBufs: {
                const uint64_t n = v[o.len];
                const int es = hccl_sim::type_bytes(o.dt);
                if (es == 0 || n % es)
                    return bad(o, "length " + std::to_string(n) + " is not a whole number of elements of data type " +
                                      std::to_string(o.dt));
                for (int b : o.bufs)
                    if (bufs[static_cast<size_t>(b)].size() < n)
                        return bad(o, "CCU buffer " + std::to_string(b) + " holds " +
                                          std::to_string(bufs[static_cast<size_t>(b)].size()) +
                                          " bytes, fewer than the " + std::to_string(n) +
                                          " reduced: fill it with a move first");
                // Buffer order, rounding to the type after each step.
                for (size_t k = 1; k < o.bufs.size(); ++k)
                    hccl_sim::reduce_into(bufs[static_cast<size_t>(o.bufs[0])].data(),
                                          bufs[static_cast<size_t>(o.bufs[k])].data(), n / es, o.dt, o.op);
                complete(o, t + ptosim::cost::ccu_transfer_us(-1, n * o.bufs.size()));
                break;
            }
        }
    }
    clock = t;
    return {};
}

}  // namespace

namespace hccl_sim {
void release_ccu(Comm& c) {
    std::map<uint64_t, Kernel> doomed;
    {
        std::lock_guard lk(g_mu);
        auto it = g_state.find(&c);
        if (it == g_state.end()) return;
        doomed.swap(it->second.kernels);
        g_state.erase(it);
    }
}
}  // namespace hccl_sim

extern "C" {

HcclResult HcclThreadAcquireWithStream(HcclComm comm, CommEngine engine, aclrtStream stream, uint32_t notifyNum,
                                       ThreadHandle* thread) {
    Comm* c = live(comm, "HcclThreadAcquireWithStream");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    if (!thread) return fail(HCCL_E_PTR, "HcclThreadAcquireWithStream: thread is NULL");
    *thread = 0;
    if (engine != COMM_ENGINE_CCU)
        return fail(HCCL_E_NOT_SUPPORT, "HcclThreadAcquireWithStream: engine " + std::to_string(engine) +
                                            ": ptolab binds threads of the CCU engine (COMM_ENGINE_CCU) to streams");
    (void)notifyNum;
    std::lock_guard lk(g_mu);
    const ThreadHandle h = g_next_thread++;
    g_state[c].threads[h] = stream;
    *thread = h;
    return HCCL_SUCCESS;
}

HcclResult HcclCcuKernelRegister(HcclComm comm, CcuKernelHandle* kernelHandle, void* kernelCreator, void* kernelArg) {
    Comm* c = live(comm, "HcclCcuKernelRegister");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    if (!kernelHandle || !kernelCreator || !kernelArg)
        return fail(HCCL_E_PTR, std::string("HcclCcuKernelRegister: ") +
                                    (!kernelHandle ? "kernelHandle" : !kernelCreator ? "kernelCreator" : "kernelArg") +
                                    " is NULL");
    *kernelHandle = 0;
    auto& creator = *static_cast<hcomm::KernelCreator*>(kernelCreator);
    const auto& arg = *static_cast<const hcomm::CcuKernelArg*>(kernelArg);
    if (!creator) return fail(HCCL_E_PARA, "HcclCcuKernelRegister: the kernel creator is empty");
    const std::string sig = arg.GetKernelSignature().GetData();
    {
        std::lock_guard lk(g_mu);
        for (auto& [h, k] : g_state[c].kernels)
            if (k.sig == sig)
                return fail(HCCL_E_PARA, "HcclCcuKernelRegister: a kernel with signature '" + sig +
                                             "' is already registered on this communicator (handle " +
                                             std::to_string(h) + "); make the kernel argument's signature unique");
    }
    for (ChannelHandle ch : arg.channels) {
        hccl_sim::CcuChannel cc;
        if (!hccl_sim::ccu_channel(*c, ch, &cc))
            return fail(HCCL_E_PARA, "HcclCcuKernelRegister: the kernel argument's channel " + hex(ch) +
                                         " is not a CCU channel of this communicator (HcclChannelAcquire with "
                                         "COMM_ENGINE_CCU)");
    }
    std::unique_ptr<hcomm::CcuKernel> k = creator(arg);
    if (!k) return fail(HCCL_E_PARA, "HcclCcuKernelRegister: the kernel creator returned no kernel");
    const HcclResult rc = k->Algorithm();
    CcuProgram& p = k->PtolabProgram();
    if (!p.error.empty())
        return fail(HCCL_E_PARA, "HcclCcuKernelRegister: kernel '" + sig + "': " + p.error);
    if (rc != HCCL_SUCCESS)
        return fail(rc, "HcclCcuKernelRegister: kernel '" + sig + "': its Algorithm() returned " + std::to_string(rc));
    for (const Op& o : p.ops)
        if (o.ch) {
            hccl_sim::CcuChannel cc;
            if (!hccl_sim::ccu_channel(*c, o.ch, &cc))
                return fail(HCCL_E_PARA, "HcclCcuKernelRegister: kernel '" + sig + "': " + o.name + " names channel " +
                                             hex(o.ch) + ", which is not a CCU channel of this communicator");
        }
    std::lock_guard lk(g_mu);
    const uint64_t h = g_next_kernel++;
    g_state[c].kernels[h] = Kernel{std::move(k), sig};
    *kernelHandle = h;
    return HCCL_SUCCESS;
}

HcclResult HcclCcuKernelRegisterFinish(HcclComm comm) {
    Comm* c = live(comm, "HcclCcuKernelRegisterFinish");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    std::lock_guard lk(g_mu);
    for (auto& [h, k] : g_state[c].kernels) k.finished = true;
    return HCCL_SUCCESS;
}

HcclResult HcclCcuKernelLaunch(HcclComm comm, const ThreadHandle threadHandle, const CcuKernelHandle kernelHandle,
                               void* taskArgs) {
    Comm* c = live(comm, "HcclCcuKernelLaunch");
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    if (!taskArgs) return fail(HCCL_E_PTR, "HcclCcuKernelLaunch: taskArgs is NULL");
    hcomm::CcuKernel* k = nullptr;
    aclrtStream stream = nullptr;
    std::string sig;
    {
        std::lock_guard lk(g_mu);
        CcuState& s = g_state[c];
        auto t = s.threads.find(threadHandle);
        if (t == s.threads.end())
            return fail(HCCL_E_PARA, "HcclCcuKernelLaunch: thread " + std::to_string(threadHandle) +
                                         " is not one HcclThreadAcquireWithStream gave on this communicator");
        auto it = s.kernels.find(kernelHandle);
        if (it == s.kernels.end())
            return fail(HCCL_E_PARA, "HcclCcuKernelLaunch: kernel handle " + std::to_string(kernelHandle) +
                                         " is not a kernel HcclCcuKernelRegister registered on this communicator");
        if (!it->second.finished)
            return fail(HCCL_E_PARA, "HcclCcuKernelLaunch: kernel " + std::to_string(kernelHandle) +
                                         " is registered but its registration was not finished: call "
                                         "HcclCcuKernelRegisterFinish first");
        if (it->second.launched)
            return fail(HCCL_E_PARA, "HcclCcuKernelLaunch: kernel " + std::to_string(kernelHandle) +
                                         " was launched already; a CCU kernel handle launches once (register "
                                         "another)");
        it->second.launched = true;
        k = it->second.k.get();
        stream = t->second;
        sig = it->second.sig;
    }
    auto run = std::make_shared<Run>();
    run->args = k->GeneArgs(*static_cast<const hcomm::CcuTaskArg*>(taskArgs));
    CcuProgram& p = k->PtolabProgram();
    if (run->args.size() < p.loads)
        return fail(HCCL_E_PARA, "HcclCcuKernelLaunch: kernel '" + sig + "': GeneArgs gave " +
                                     std::to_string(run->args.size()) + " arguments, but its program Loads " +
                                     std::to_string(p.loads));
    run->ops = p.ops;
    run->prog = std::make_shared<CcuProgram>();
    run->prog->vars = p.vars;
    run->prog->bufs = p.bufs;
    for (const Op& o : p.ops)
        if (o.ch && !run->chans.count(o.ch)) {
            hccl_sim::CcuChannel cc;
            if (!hccl_sim::ccu_channel(*c, o.ch, &cc))
                return fail(HCCL_E_PARA, "HcclCcuKernelLaunch: channel " + hex(o.ch) + " is gone");
            run->chans[o.ch] = cc;
        }
    run->who = rank_of() + ", CCU kernel '" + sig + "'";
    const ptosim::Status st = ptosim::ccu::enqueue_stream_work(
        stream, "HcclCcuKernelLaunch", "CCU kernel '" + sig + "'",
        [run](double& clock) { return run_program(*run, clock); });
    if (!st.ok()) return fail(HCCL_E_RUNTIME, "HcclCcuKernelLaunch: " + st.message);
    return HCCL_SUCCESS;
}

}  // extern "C"
