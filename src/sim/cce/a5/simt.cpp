// A5's SIMT vector functions (docs/intrinsics/a5-simt.md): cce::async_invoke
// runs a __simt_vf__ body once per thread of its block on the calling Vector
// core, each thread on a stack of its own: in thread order, each until it
// ends or waits at a block barrier or a warp sum, which release once every
// thread they need has arrived. The whole start is one vector-pipe record.
#include <ptosim/simt.hpp>

#include "records.hpp"
#include "../../fiber_stacks.hpp"

#include <ptosim/runtime.hpp>

#include <sys/mman.h>

#include <boost/context/detail/fcontext.hpp>

#include <algorithm>
#include <cerrno>
#include <exception>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace ptosim::cce {
namespace {

// Ascend C's limit on a SIMT thread block (asc_vf_call, "threadNums": the
// product of the three dimensions is at most 2048).
constexpr uint64_t kMaxThreads = 2048;

using Locked = std::lock_guard<std::mutex>;
namespace bctx = boost::context::detail;

// A warp: 32 threads of consecutive linear index (x fastest), as the
// hardware cuts a block ("线程架构", atlasascendc_10_10065).
constexpr uint32_t kWarp = 32;

struct SimtThread {
    enum class State : uint8_t { Ready, AtBarrier, AtWarpSum, Done };
    State state = State::Ready;
    bctx::fcontext_t ctx = nullptr;  // null until it first runs, and once it ended
    void* stack = nullptr;
    const void* at = nullptr;  // the call of the barrier or warp sum it waits at
    float sum_in = 0, sum_out = 0;
};

struct SimtState {
    uint32_t dims[3] = {};
    uint32_t idx[3] = {};
    // The core's "last PTO call" while a thread runs, so that a crash report
    // (SIGSEGV in the body) names the thread.
    char what[200] = {};
    void (*body)(void*) = nullptr;
    void* ctx = nullptr;
    std::vector<SimtThread> threads;
    uint32_t current = 0;
    bctx::fcontext_t sched = nullptr;  // simt_run, while a thread runs
    bool unwinding = false;            // resumed threads throw ThreadUnwind
    std::exception_ptr fault;          // what the current thread threw
};

// Thrown at a waiting thread's barrier when the start ends without it (a
// fault elsewhere): its frames unwind and its stack is given back.
struct ThreadUnwind {};

// Thread stacks, reused across starts and cores (a core resumes on any host
// thread): slots of the fiber-stack region (fiber_stacks.hpp), 256 KiB and a
// page below the slot's top, which names the core the thread runs for; the
// rest of the slot is a guard below: an overflow faults instead of writing
// into the next stack.
std::mutex g_stack_mu;
std::vector<void*>* g_stacks = new std::vector<void*>;

void* take_stack() {
    {
        Locked l(g_stack_mu);
        if (!g_stacks->empty()) {
            void* p = g_stacks->back();
            g_stacks->pop_back();
            return p;
        }
    }
    return take_fiber_stack(FiberStackKind::Simt);
}

void give_stack(void* p) {
    fiber_stack_top_of(FiberStackKind::Simt, p).core = nullptr;
    Locked l(g_stack_mu);
    g_stacks->push_back(p);
}

[[noreturn]] void thread_entry(bctx::transfer_t from) {
    auto* st = static_cast<SimtState*>(from.data);
    st->sched = from.fctx;
    try {
        st->body(st->ctx);
    } catch (const ThreadUnwind&) {
    } catch (...) {
        st->fault = std::current_exception();
    }
    st->threads[st->current].state = SimtThread::State::Done;
    bctx::jump_fcontext(st->sched, nullptr);
    __builtin_unreachable();
}

// The running thread waits (its state says for what) until simt_run resumes it.
void wait_here(SimtState& st) {
    const bctx::transfer_t back = bctx::jump_fcontext(st.sched, nullptr);
    st.sched = back.fctx;
    if (st.unwinding) throw ThreadUnwind{};
}

// The SIMT body each core is running. A core runs on a fiber that may pause
// inside the body (an atomic lets the other cores run) while another core on
// the same host thread starts its own, so the state is per core, not per
// host thread.
std::mutex g_mu;
std::unordered_map<const Core*, SimtState*>* g_running = new std::unordered_map<const Core*, SimtState*>;
// GM bytes atomics updated while any SIMT body ran (on any core: a body's
// atomic lets the other cores run, whose atomics land in the same tables).
// Their own records cover them; emptied when no body runs.
std::unordered_set<uintptr_t>* g_atomic_bytes = new std::unordered_set<uintptr_t>;

SimtState* running(const Core* c) {
    Locked l(g_mu);
    auto it = g_running->find(c);
    return it == g_running->end() ? nullptr : it->second;
}

// "simt_mgather_row_kernel" from async_invoke's signature
// "void cce::async_invoke(...) [Kernel = &simt_mgather_row_kernel<...>, A = ...]".
std::string function_name(const char* pretty) {
    std::string s = pretty ? pretty : "";
    const auto at = s.find("Kernel = ");
    if (at == std::string::npos) return "a __simt_vf__ function";
    size_t b = at + 9;
    if (b < s.size() && s[b] == '&') ++b;
    size_t e = b;
    int depth = 0;
    while (e < s.size()) {
        const char ch = s[e];
        if (ch == '<' || ch == '(') {
            if (depth == 0 && ch == '<') break;  // the name without its template arguments
            ++depth;
        } else if (ch == '>' || ch == ')') {
            --depth;
        } else if (depth == 0 && (ch == ',' || ch == ']')) {
            break;
        }
        ++e;
    }
    std::string n = s.substr(b, e - b);
    // Kernels usually keep their SIMT bodies in an unnamed namespace.
    for (size_t at = n.find("(anonymous namespace)::"); at != std::string::npos; at = n.find("(anonymous namespace)::"))
        n.erase(at, 23);
    return n;
}

const char* var_name(SimtVar v) {
    switch (v) {
        case SimtVar::ThreadIdx: return "threadIdx";
        case SimtVar::BlockDim: return "blockDim";
        case SimtVar::BlockIdx: return "blockIdx";
        case SimtVar::GridDim: return "gridDim";
    }
    return "?";
}

// A memory region a writable pointer argument may store into, and its
// bytes before the body ran.
struct Region {
    Space space;
    uint64_t lo, hi;  // UB offsets or GM host addresses
    uint32_t elem;
    std::vector<uint8_t> before;
};

// The regions of the writable pointer arguments: a UB pointer's runs to the
// next UB argument above it (or UB's end), a GM pointer's to the end of its
// allocation.
std::vector<Region> writable_regions(const Core& c, const SimtArg* args, int n) {
    std::vector<Region> out;
    const uint64_t ub = c.mem_size[static_cast<int>(Space::UB)];
    const uint8_t* ub_mem = c.mem[static_cast<int>(Space::UB)];
    for (int i = 0; i < n; ++i) {
        const SimtArg& a = args[i];
        if (!a.writable) continue;
        if (a.space == Space::UB && ub_mem && a.at < ub) {
            uint64_t hi = ub;
            for (int k = 0; k < n; ++k)
                if (args[k].space == Space::UB && args[k].at > a.at) hi = std::min(hi, args[k].at);
            out.push_back({Space::UB, a.at, hi, a.elem, {ub_mem + a.at, ub_mem + hi}});
        } else if (a.space == Space::GM) {
            const std::optional<Allocation> al = Device::get().find_reach(reinterpret_cast<const void*>(a.at));
            if (!al) continue;
            const uint64_t hi = al->base + al->asked();
            if (a.at >= hi) continue;
            const auto* p = reinterpret_cast<const uint8_t*>(a.at);
            out.push_back({Space::GM, a.at, hi, a.elem, {p, p + (hi - a.at)}});
        }
    }
    return out;
}

// Each region's write: from its pointer to the end of the last element the
// body changed (a store of the value a byte held is not seen, so the run
// starts at the pointer, not at the first changed byte). GM bytes an atomic
// updated are the atomic's own records.
void record_writes(OpRecord& r, const Core& c, const std::vector<Region>& regions) {
    Locked l(g_mu);
    for (const Region& g : regions) {
        if (r.n_writes == OpRecord::kMaxAccesses) break;
        const uint8_t* now = g.space == Space::UB ? c.mem[static_cast<int>(Space::UB)] + g.lo
                                                  : reinterpret_cast<const uint8_t*>(g.lo);
        uint64_t last = 0;  // one past the last changed byte, from lo
        for (uint64_t i = g.hi - g.lo; i > 0; --i) {
            if (now[i - 1] == g.before[i - 1]) continue;
            if (g.space == Space::GM && g_atomic_bytes->count(g.lo + i - 1)) continue;
            last = i;
            break;
        }
        if (last == 0) continue;
        const uint64_t n = std::min<uint64_t>((last + g.elem - 1) / g.elem * g.elem, g.hi - g.lo);
        r.write(g.space, g.lo, n);
    }
}

// Lets the threads go on whose barrier or warp sum every participant
// reached: each warp whose threads all wait at a warp sum (the sum given to
// each), else the block when every thread waits at a barrier. False when no
// thread can go on.
bool release_waiters(SimtState& st) {
    using S = SimtThread::State;
    bool released = false;
    const uint32_t n = static_cast<uint32_t>(st.threads.size());
    for (uint32_t w = 0; w < n; w += kWarp) {
        const uint32_t end = std::min(n, w + kWarp);
        bool all = true;
        for (uint32_t i = w; i < end && all; ++i) all = st.threads[i].state == S::AtWarpSum;
        if (!all) continue;
        // A butterfly over the 32 lanes (lane i adds lane i ^ k, k = 16, 8,
        // 4, 2, 1), a lane the warp lacks adding 0: every lane ends with the
        // same sum (docs/intrinsics/a5-simt.md, "Warp sums").
        float lane[kWarp] = {};
        for (uint32_t i = w; i < end; ++i) lane[i - w] = st.threads[i].sum_in;
        for (uint32_t k = kWarp / 2; k > 0; k /= 2) {
            float next[kWarp];
            for (uint32_t i = 0; i < kWarp; ++i) next[i] = lane[i] + lane[i ^ k];
            std::copy(next, next + kWarp, lane);
        }
        for (uint32_t i = w; i < end; ++i) {
            st.threads[i].sum_out = lane[i - w];
            st.threads[i].state = S::Ready;
        }
        released = true;
    }
    if (released) return true;
    if (std::all_of(st.threads.begin(), st.threads.end(), [](const SimtThread& t) { return t.state == S::AtBarrier; })) {
        for (SimtThread& t : st.threads) t.state = S::Ready;
        return true;
    }
    return false;
}

// "thread (0, 0, 0) and 30 more wait at __sync_workitems (k.cpp:12); thread
// (5, 1, 0) ended without reaching it" for a deadlock's report.
template <class Coords>
std::string describe_deadlock(const SimtState& st, const Coords& coords) {
    using S = SimtThread::State;
    struct Group {
        S state;
        const void* at;
        uint32_t first, count;
    };
    std::vector<Group> groups;
    for (uint32_t i = 0; i < st.threads.size(); ++i) {
        const SimtThread& t = st.threads[i];
        const void* at = t.state == S::Done ? nullptr : t.at;
        auto g = std::find_if(groups.begin(), groups.end(),
                              [&](const Group& x) { return x.state == t.state && x.at == at; });
        if (g == groups.end()) groups.push_back({t.state, at, i, 1});
        else ++g->count;
    }
    const bool one_wait = std::count_if(groups.begin(), groups.end(), [](const Group& g) { return g.state != S::Done; }) == 1;
    std::string out;
    for (const Group& g : groups) {
        if (!out.empty()) out += "; ";
        out += "thread " + coords(g.first);
        if (g.count > 1) out += " and " + std::to_string(g.count - 1) + " more";
        if (g.state == S::Done) {
            out += one_wait ? " ended without reaching it" : " ended without reaching them";
            continue;
        }
        out += g.count > 1 ? " wait at " : " waits at ";
        out += g.state == S::AtBarrier ? "__sync_workitems" : "__builtin_cce_redux_add_f32";
        const SourceLoc at = caller_loc(g.at);
        if (at.known()) out += " (" + at.str() + ")";
    }
    return out;
}

// The running thread of core c's SIMT body, for a barrier or warp sum at `caller`.
SimtState& waiting_state(const char* name, const void* caller) {
    Core& c = core();
    SimtState* st = running(&c);
    if (!st) {
        SourceLoc at = caller_loc(caller);
        if (!at.known()) at = c.last_loc;
        fault(at, std::string(name) + " outside a SIMT vector function: it synchronises the threads of a "
                                      "__simt_vf__ function started by cce::async_invoke (or asc_vf_call)");
    }
    return *st;
}

}  // namespace

bool simt_running(const Core& c) { return running(&c) != nullptr; }

void simt_note_atomic(const void* gm, int bytes) {
    if (!detail::g_has_subscribers) return;
    Locked l(g_mu);
    if (g_running->empty()) return;
    const auto a = reinterpret_cast<uintptr_t>(gm);
    for (int i = 0; i < bytes; ++i) g_atomic_bytes->insert(a + static_cast<uintptr_t>(i));
}

void simt_run(const void* caller, const char* function, const uint32_t dims[3], const SimtArg* args, int n_args,
              void (*body)(void*), void* ctx) {
    Core& c = core();
    SourceLoc loc = caller_loc(caller);
    if (!loc.known()) loc = c.last_loc;
    const std::string name = function_name(function);
    const std::string shape =
        "dim3{" + std::to_string(dims[0]) + ", " + std::to_string(dims[1]) + ", " + std::to_string(dims[2]) + "}";
    if (c.type != CoreType::AIV)
        fault(loc, "cce::async_invoke<" + name + "> on the Cube core: SIMT vector functions run on the Vector core; "
                   "start it from the Vector side of the kernel (under __DAV_VEC__)");
    const uint64_t threads = uint64_t{dims[0]} * dims[1] * dims[2];
    if (threads == 0)
        fault(loc, "cce::async_invoke<" + name + "> over " + shape +
                       ": a dimension is 0, so no thread would run; every dimension of the thread block is at least 1");
    if (threads > kMaxThreads)
        fault(loc, "cce::async_invoke<" + name + "> over " + shape + " starts " + std::to_string(threads) +
                       " threads; a SIMT thread block holds at most " + std::to_string(kMaxThreads) +
                       " (x * y * z): split the work over more iterations per thread");
    if (running(&c))
        fault(loc, "cce::async_invoke<" + name + "> inside a SIMT body: a SIMT vector function cannot start another");

    // The record: the vector pipe's, as the scalar unit issues a SIMT VF to
    // the same vector-function queue as SIMD VFs and the two run one after
    // the other. Cost: an estimate, one 32-bit lane per thread.
    OpRecord r = a5::vector_record("async_invoke", loc);
    r.elements = threads;
    r.bytes = threads * 4;
    r.dtype = "uint32_t";
    // What the body wrote, by comparison, only when someone listens.
    const bool listened = detail::g_has_subscribers;
    std::vector<Region> regions;
    if (listened) regions = writable_regions(c, args, n_args);

    SimtState st;
    std::copy(dims, dims + 3, st.dims);
    st.body = body;
    st.ctx = ctx;
    st.threads.resize(threads);
    {
        Locked l(g_mu);
        (*g_running)[&c] = &st;
    }
    struct Done {
        Core* c;
        SimtState& st;
        ~Done() {
            if (c->last_op == st.what) c->last_op = "async_invoke";  // the thread's text dies with this frame
            for (SimtThread& t : st.threads)
                if (t.stack) give_stack(t.stack);
            Locked l(g_mu);
            g_running->erase(c);
            if (g_running->empty()) g_atomic_bytes->clear();
        }
    } done{&c, st};
    const auto coords = [&](uint32_t i) {
        return "(" + std::to_string(i % dims[0]) + ", " + std::to_string(i / dims[0] % dims[1]) + ", " +
               std::to_string(i / (dims[0] * dims[1])) + ")";
    };
    // Runs thread i until it ends or waits.
    const auto resume = [&](uint32_t i) {
        SimtThread& t = st.threads[i];
        st.current = i;
        st.idx[0] = i % dims[0];
        st.idx[1] = i / dims[0] % dims[1];
        st.idx[2] = i / (dims[0] * dims[1]);
        std::snprintf(st.what, sizeof st.what, "async_invoke (SIMT thread (%u, %u, %u) of %s)", st.idx[0], st.idx[1],
                      st.idx[2], name.c_str());
        c.last_op = st.what;
        c.last_loc = loc;
        if (!t.ctx) {
            t.stack = take_stack();
            if (!t.stack)
                fault(loc, "cce::async_invoke<" + name + ">: cannot allocate the stack of SIMT thread " + coords(i) +
                               ": " + std::strerror(errno) + " (the process is out of memory or of memory mappings)");
            // The thread's code finds its core (ptosim::core()) from the slot's top.
            detail::FiberStackTop& top = fiber_stack_top_of(FiberStackKind::Simt, t.stack);
            top.core = &c;
            t.ctx = bctx::make_fcontext(&top, fiber_stack_bytes(FiberStackKind::Simt), thread_entry);
        }
        const bctx::transfer_t back = bctx::jump_fcontext(t.ctx, &st);
        t.ctx = back.fctx;
        if (t.state == SimtThread::State::Done) {
            give_stack(t.stack);
            t.stack = nullptr;
            t.ctx = nullptr;
        }
    };
    // Ends every thread still waiting (their frames unwind).
    const auto unwind = [&] {
        st.unwinding = true;
        for (uint32_t i = 0; i < threads; ++i)
            if (st.threads[i].ctx) resume(i);
        st.unwinding = false;
    };
    for (;;) {
        for (uint32_t i = 0; i < threads && !st.fault; ++i)
            if (st.threads[i].state == SimtThread::State::Ready) resume(i);
        if (st.fault) {
            const uint32_t who = st.current;
            std::exception_ptr e = std::exchange(st.fault, nullptr);
            unwind();
            try {
                std::rethrow_exception(e);
            } catch (KernelFault& f) {
                f.what += " (in SIMT thread " + coords(who) + " of " + name + ", started by cce::async_invoke over " +
                          shape + " at " + loc.str() + ")";
                throw;
            }
        }
        if (std::all_of(st.threads.begin(), st.threads.end(),
                        [](const SimtThread& t) { return t.state == SimtThread::State::Done; }))
            break;
        if (!release_waiters(st)) {
            const std::string why = describe_deadlock(st, coords);
            unwind();
            fault(loc, "cce::async_invoke<" + name + "> over " + shape +
                           ": its SIMT threads wait for each other forever: " + why +
                           ". A block barrier goes on once every thread of the block reached it, a warp sum once "
                           "every thread of its warp (32 threads of consecutive index, x fastest) did "
                           "(docs/intrinsics/a5-simt.md)");
        }
    }
    if (listened) record_writes(r, c, regions);
    dispatch(c, r);
}

uint32_t simt_builtin(SimtVar v, int axis, const void* caller) {
    Core& c = core();
    const SimtState* st = running(&c);
    if (!st) {
        SourceLoc at = caller_loc(caller);
        if (!at.known()) at = c.last_loc;
        fault(at, std::string(var_name(v)) + "." + "xyz"[axis] +
                      " read outside a SIMT vector function: the built-in variables exist only in a __simt_vf__ "
                      "function started by cce::async_invoke (or asc_vf_call) and the __simt_callee__ functions it "
                      "calls");
    }
    switch (v) {
        case SimtVar::ThreadIdx: return st->idx[axis];
        case SimtVar::BlockDim: return st->dims[axis];
        // The grid is the launch's Vector cores (Ascend C, SIMD and SIMT
        // mixed programming: gridDim is the number of AIV cores started),
        // one-dimensional.
        case SimtVar::BlockIdx:
            return axis == 0 ? static_cast<uint32_t>(c.block_idx * c.subblock_dim + c.subblock_id) : 0;
        case SimtVar::GridDim: return axis == 0 ? static_cast<uint32_t>(c.block_num * c.subblock_dim) : 1;
    }
    return 0;
}

void simt_barrier(const void* caller) {
    SimtState& st = waiting_state("__sync_workitems", caller);
    SimtThread& t = st.threads[st.current];
    t.state = SimtThread::State::AtBarrier;
    t.at = caller;
    wait_here(st);
}

float simt_warp_sum(float v, const void* caller) {
    SimtState& st = waiting_state("__builtin_cce_redux_add_f32", caller);
    SimtThread& t = st.threads[st.current];
    t.state = SimtThread::State::AtWarpSum;
    t.at = caller;
    t.sum_in = v;
    wait_here(st);
    return st.threads[st.current].sum_out;
}

}  // namespace ptosim::cce
