// A5's SIMT vector functions (docs/intrinsics/a5-simt.md): cce::async_invoke
// runs a __simt_vf__ body once per thread of its block, thread after thread,
// on the calling Vector core, and records the whole start as one
// vector-pipe instruction.
#include <ptosim/simt.hpp>

#include "records.hpp"

#include <ptosim/runtime.hpp>

#include <algorithm>
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

struct SimtState {
    uint32_t dims[3];
    uint32_t idx[3];
    // The core's "last PTO call" while a thread runs, so that a crash report
    // (SIGSEGV in the body) names the thread.
    char what[200];
};

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

using Locked = std::lock_guard<std::mutex>;

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

    SimtState st{{dims[0], dims[1], dims[2]}, {0, 0, 0}, {}};
    {
        Locked l(g_mu);
        (*g_running)[&c] = &st;
    }
    struct Done {
        Core* c;
        const char* what;
        ~Done() {
            if (c->last_op == what) c->last_op = "async_invoke";  // the thread's text dies with this frame
            Locked l(g_mu);
            g_running->erase(c);
            if (g_running->empty()) g_atomic_bytes->clear();
        }
    } done{&c, st.what};
    for (uint32_t z = 0; z < dims[2]; ++z)
        for (uint32_t y = 0; y < dims[1]; ++y)
            for (uint32_t x = 0; x < dims[0]; ++x) {
                st.idx[0] = x;
                st.idx[1] = y;
                st.idx[2] = z;
                std::snprintf(st.what, sizeof st.what, "async_invoke (SIMT thread (%u, %u, %u) of %s)", x, y, z,
                              name.c_str());
                c.last_op = st.what;
                c.last_loc = loc;
                try {
                    body(ctx);
                } catch (KernelFault& f) {
                    f.what += " (in SIMT thread (" + std::to_string(x) + ", " + std::to_string(y) + ", " +
                              std::to_string(z) + ") of " + name + ", started by cce::async_invoke over " + shape +
                              " at " + loc.str() + ")";
                    throw;
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

void simt_unsimulated(const char* name, const char* why, const void* caller) {
    Core& c = core();
    SourceLoc at = caller_loc(caller);
    if (!at.known()) at = c.last_loc;
    fault(at, std::string(name) + " is " + why +
                  ": every thread must reach it before any goes on, and ptosim runs a SIMT body one thread after "
                  "another, so it is not simulated (docs/intrinsics/a5-simt.md); build the kernel with bisheng for "
                  "the device or CANN's simulator");
}

}  // namespace ptosim::cce
