// The simulated AI core as PTO instructions and intrinsics see it: its type,
// ids, local buffers, flag state, and the one dispatch point every
// instruction passes (ptosim::dispatch; its subscribers: docs/checkers.md).
#pragma once
#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstddef>
#include <string>
#include <functional>

namespace ptosim {

enum class Target : uint8_t { A2A3, A5 };
enum class CoreType : uint8_t { AIC, AIV };
enum class KernelKind : uint8_t { Vec, Cube, Mix };

// Memory spaces. GM is host memory; the rest are per-core byte arrays.
// L0AMX/L0BMX: the MX scale stores shadowing L0A/L0B at 1/16 of their size
// (A5 GetScaleAddr is the operand address >> 4).
enum class Space : uint8_t { GM, UB, L1, L0A, L0B, L0C, BT, FB, L0AMX, L0BMX, Count };
constexpr int kSpaceCount = static_cast<int>(Space::Count);

// Hardware pipes, numbered as CCE's pipe_t (docs/semantics.md, "Pipes").
enum class Pipe : uint8_t { S = 0, V = 1, M = 2, MTE1 = 3, MTE2 = 4, MTE3 = 5, ALL = 6, MTE4 = 7, MTE5 = 8, V2 = 9, FIX = 10, Count = 11 };
constexpr int kPipeCount = static_cast<int>(Pipe::Count);
constexpr int kEventIds = 8;

const char* to_string(Target);
const char* to_string(CoreType);
const char* to_string(KernelKind);
const char* to_string(Space);
const char* to_string(Pipe);

struct SourceLoc {
    const char* file = nullptr;
    int line = 0;
    // Kernel code of an intrinsic called inside a PTO header (pto-isa's own,
    // executed over the CCE layer): file:line is that header's line, and the
    // line table's inlining chain at `pc` leads back to the user's own call
    // of the PTO instruction.
    const void* pc = nullptr;
    bool known() const { return file != nullptr; }
    // "user.cpp:31 (via <pto-isa>/TAdd.hpp:45)" when pc leads to a line of the
    // user's outside the PTO and CCE headers; else file_line().
    std::string str() const;
    std::string file_line() const;
};

// No default member values: an OpRecord's twelve access slots stay
// unwritten until used (only the first n_reads / n_writes are read), which
// saves zeroing 288 bytes per instruction; build one with all four fields.
struct Access {
    Space space;
    // 0: the access touches every byte of its range; else 1 + the index of
    // the OpRecord's `runs` entry saying which bytes it touches.
    uint8_t runs;
    uint64_t offset;  // byte offset in the core's buffer, or the GM address
    uint64_t bytes;
};

// The bytes a strided access touches (a tile's rows in a larger GM tensor):
// for each index (i0, .., i{dims-1}) below `count`, `run` bytes at the
// access's offset + sum(i_k * pitch[k]).
struct Runs {
    static constexpr int kMaxDims = 4;
    uint8_t dims;
    uint64_t run;
    uint64_t count[kMaxDims];
    uint64_t pitch[kMaxDims];
};

// The synchronisation a record performs, for the checkers (docs/checkers.md):
// intra-core flags, barriers, and the cross-core signals and waits.
enum class SyncOp : uint8_t { None, SetFlag, WaitFlag, PipeBarrier, CrossSignal, CrossWait, SyncAll };

// What one instruction or intrinsic is, recorded before it executes.
struct OpRecord {
    const char* op = "";
    Pipe pipe = Pipe::S;
    // TPARTARGMAX and the 4-list TMRGSORT read four tiles, the NZ TQUANT<MXFP8>
    // writes five.
    static constexpr uint8_t kMaxAccesses = 6;
    Access reads[kMaxAccesses];
    Access writes[kMaxAccesses];
    uint8_t n_reads = 0;
    uint8_t n_writes = 0;
    uint64_t elements = 0;
    uint64_t bytes = 0;
    uint64_t flops = 0;
    const char* dtype = "";  // element type of the destination tile (or of the stored tile)
    // Element type of the first source tile: the Cube's rate depends on its
    // input type, which differs from the accumulator's (docs/cost-model.md).
    const char* src_dtype = "";
    // The shapes of the first source tile and of the destination tile:
    // declared rows and columns and the valid region (all 0 when the
    // instruction names no such tile). The calibrated vector costs
    // (docs/cost-model.md, "Per-instruction calibration") are keyed by them.
    struct Shape {
        uint32_t rows = 0, cols = 0, valid_rows = 0, valid_cols = 0;
    };
    Shape src_shape, dst_shape;
    SourceLoc loc;
    // Synchronisation operands: the flag's pipes and event id (set_flag,
    // wait_flag), or the FFTS / intra-block flag id of a cross-core signal.
    SyncOp sync = SyncOp::None;
    // GM writes that accumulate in hardware (TSTORE with AtomicAdd): several
    // cores may do them to the same bytes without ordering.
    bool atomic = false;
    // An A2A3 vector intrinsic run in counter mode (set_mask_count): its
    // elements are the count, not whole repeats (docs/cost-model.md, "A2A3:
    // the measured vector intrinsics").
    bool counter = false;
    // The unit flag of a phased TMATMUL/TGEMV (AccPhase) or TSTORE from L0C
    // (STPhase): 0 none, 2 partial, 3 final. The Cube and the fixpipe hand
    // the accumulator over through it without set_flag (docs/checkers.md).
    uint8_t unit_flag = 0;
    // Accesses to a buffer the issuing core has none of (A5 TMOV Acc->Vec,
    // TINSERT Vec->Mat, copy_cbuf_to_ubuf) reach its mix group's other core:
    // the Cube core, or the Vector sub-blocks in this mask (bit s: sub-block
    // s; 0 means sub-block 0). Read by the checkers.
    uint8_t peer_subblocks = 0;
    Pipe src = Pipe::S;
    Pipe dst = Pipe::S;
    int32_t event = -1;

    // Not initialised: only the entries an Access names are read.
    static constexpr uint8_t kMaxRuns = 2;
    Runs runs[kMaxRuns];
    uint8_t n_runs = 0;

    OpRecord& read(Space s, uint64_t off, uint64_t n) { return add(reads, n_reads, {s, 0, off, n}); }
    OpRecord& write(Space s, uint64_t off, uint64_t n) { return add(writes, n_writes, {s, 0, off, n}); }
    // A strided access; without room for its runs it counts as its whole range.
    OpRecord& read(Access a, const Runs& r) { return add(reads, n_reads, with_runs(a, r)); }
    OpRecord& write(Access a, const Runs& r) { return add(writes, n_writes, with_runs(a, r)); }

  private:
    Access with_runs(Access a, const Runs& r) {
        if (r.dims && n_runs < kMaxRuns) {
            runs[n_runs++] = r;
            a.runs = n_runs;
        }
        return a;
    }
    // More accesses than the record holds is a simulator bug: stop loudly
    // rather than overwrite the fields behind the array.
    OpRecord& add(Access* list, uint8_t& n, Access a) {
        if (n == kMaxAccesses) {
            std::fprintf(stderr, "ptosim: internal error: %s records more than %d reads or writes\n", op, kMaxAccesses);
            std::abort();
        }
        list[n++] = a;
        return *this;
    }
};

// The vector unit's per-core state the intrinsics read: the mask mode and
// the 128-bit mask (set_mask_norm / set_mask_count / set_vector_mask), the
// compare mask vcmp writes and vsel reads, CTRL and the pad value of the
// DMA's padding. At kernel start the mode and mask are what the last kernel
// on the physical core left (Launch::admit), the rest zero
// (docs/intrinsics/README.md, "Start state").
struct VectorState {
    uint64_t mask[2] = {~uint64_t{0}, ~uint64_t{0}};  // [0] = low 64 bits, [1] = high
    bool counter = false;       // set_mask_count: mask[0] counts elements
    bool mode_set = false;      // set_mask_norm or set_mask_count called
    bool mask_set = false;      // set_vector_mask called
    uint64_t cmpmask[2] = {0, 0};
    uint64_t ctrl = 0;
    uint64_t pad_val = 0;       // set_mov_pad_val / set_padding
    uint64_t va[8][8] = {};     // VA registers set by set_va_reg_sb (8 addresses each)
    uint64_t deqscale = 0;
    uint64_t rsvd_cnt = 0;      // elements the last vreducev2 kept (get_rsvd_cnt)
    uint64_t vms4_sr = 0;       // structures vmrgsort4 took from each list, 16 bits each (get_vms4_sr)
    // set_st_atomic_cfg: the scalar st_atomic path's element type (a cce::Dt
    // + 1; 0: unset) and operation (0 sum, 1 max, 2 min).
    uint8_t st_atomic_type = 0;
    uint8_t st_atomic_op = 0;
    // set_atomic_add / set_atomic_none and set_atomic_<type>: MTE3 stores to
    // GM add into it; atomic_type is the element type's cce::Dt + 1 (0: unset).
    bool atomic_add = false;
    uint8_t atomic_type = 0;
};

class Launch;

struct Core {
    CoreType type = CoreType::AIV;
    Target target = Target::A2A3;
    int index = 0;  // position in the launch, used in reports
    int physical = 0;  // physical core slot of this type
    int64_t block_idx = 0;
    int64_t block_num = 1;
    int64_t subblock_id = 0;
    int64_t subblock_dim = 1;
    uint8_t* mem[kSpaceCount] = {};
    uint64_t mem_size[kSpaceCount] = {};
    Launch* launch = nullptr;

    // intra-core flags: set_flag(src, dst, id) -> wait_flag(src, dst, id);
    // bit id of flags[src][dst] (one bit each, as on hardware).
    static_assert(kEventIds <= 8, "a flag word holds eight event ids");
    uint8_t flags[kPipeCount][kPipeCount] = {};
    bool flag_set(Pipe src, Pipe dst, int ev) const {
        return (flags[static_cast<int>(src)][static_cast<int>(dst)] >> ev & 1) != 0;
    }
    bool vector_mask_set = false;
    bool mask_norm_set = false;
    // The CCE layer's vector registers (the executed-pto-isa build).
    VectorState vec;
    uint64_t ffts_base = 0;
    SourceLoc ffts_base_loc;  // the set_ffts_base_addr that set it
    // Cube configuration registers, per core as on hardware: QUANT_PRE (the
    // scalar fixpipe quantisation parameter), FPC (where in FB the per-column
    // parameters lie), FMATRIX A/B, img2col repeat and padding value (A5
    // keeps a second repeat and padding register for the B FMATRIX).
    uint64_t quant_pre = 0;
    uint64_t fpc = 0;
    uint64_t nd_para = 0;  // ND_PARA of the raw copy_matrix_cc_to_gm (set_nd_para)
    uint64_t fmatrix = 0;
    uint64_t fmatrix_b = 0;
    uint64_t img2col_rpt = 0;
    uint64_t img2col_pad = 0;
    uint64_t img2col_rpt_b = 0;
    uint64_t img2col_pad_b = 0;
    // The MAD_MODE control bits Tile::SetMadTF32Mode sets: float TMATMUL
    // operands rounded to TF32 (0 off, 1 ties away from zero, 2 ties to even).
    uint8_t mad_tf32 = 0;
    // Next automatic event id per (src, dst) pipe pair (pto-isa's
    // EventIdCounter): core state, so launches and cores never share it.
    uint8_t event_ids[kPipeCount][kPipeCount] = {};
    uint64_t ops = 0;
    // A spin on GM another rank writes (ptosim::poll_gm): since when, how
    // many polls, the instruction count at the last one and its address.
    uint64_t poll_count = 0, poll_ops = 0;
    double poll_since = 0;
    uintptr_t poll_addr = 0;
    bool poll_on_board = false;  // the spin is on the ranks' board as a wait
    // Kernel code asked for this core (ptosim::core()): it may have written
    // local memory, through an instruction or directly through `mem`.
    bool touched = false;
    SourceLoc last_loc;
    const char* last_op = nullptr;  // name of the last PTO call, for timeout reports
    // Set when the launch is abandoned (a synchronisation timed out): the
    // core stops at its next PTO call.
    const std::atomic<bool>* abandon = nullptr;
    // Set when the launch runs its cores on several host threads: device
    // printf text collects here (written out in core order), and GM
    // read-modify-writes (atomic stores) take the launch's atomic lock.
    std::string* print_buffer = nullptr;
    bool parallel = false;

    std::string name() const;  // e.g. "AIV block 3 sub 1"
};

// Held around a GM read-modify-write (TSTORE with AtomicAdd): one core's
// atomic update of an element is never interleaved with another's, as the
// hardware's atomic store guarantees. Free when the launch runs serially.
// With windows shared between rank processes (docs/many-devices.md) the
// lock also holds a lock word in the shared mapping, so ranks' updates are
// not interleaved either.
void gm_atomic_lock();
void gm_atomic_unlock();
// The SYS_CNT counter a kernel reads (get_sys_cnt, asm "MOV %0, SYS_CNT"):
// under the cost model the core's simulated time at the profile's counter
// rate (50 MHz on A2A3, 1 GHz on A5; docs/cost-model.md), else the core's
// instruction count.
uint64_t sys_cnt(Core& c);
bool gm_shared_atomics();
struct GmAtomicScope {
    GmAtomicScope(const Core& c, bool atomic) : held(atomic && (c.parallel || gm_shared_atomics())) {
        if (held) gm_atomic_lock();
    }
    ~GmAtomicScope() {
        if (held) gm_atomic_unlock();
    }
    GmAtomicScope(const GmAtomicScope&) = delete;
    GmAtomicScope& operator=(const GmAtomicScope&) = delete;
    bool held;
};

// printf from kernel code (cce::printf, TPRINT): to stdout at once, or,
// when the launch runs on several host threads, into the core's buffer,
// written out in core order (docs/semantics.md, "Host threads").
[[gnu::format(printf, 1, 2)]] int device_printf(const char* format, ...);

// The running core, found from the stack pointer (docs/speed.md, "The
// running core's lookup"). Every simulated core runs on a fiber stack of its
// own, and so does every A5 SIMT thread; those stacks are carved from one
// reserved region, each slot aligned to its power-of-two size, and the last
// bytes of a slot (above the stack, which grows down from below them) name
// the core that runs on it. One range check against the region and a load
// replace the thread-local lookup (libptosim is loaded with dlopen, so its
// thread-local variables are dynamic TLS: a call to __tls_get_addr each).
// A stack outside the region (the host thread, the scheduler, the crash
// handler's alternate stack, a stack made when the region was full) falls
// back to the thread-local pointer, as does a slot whose name is cleared.
namespace detail {
inline constexpr uintptr_t kCoreStackBytes = uintptr_t{8} << 20;   // a core's fiber stack slot
inline constexpr uintptr_t kCoreStackSlots = 1024;
inline constexpr uintptr_t kSimtStackBytes = uintptr_t{512} << 10;  // an A5 SIMT thread's stack slot
inline constexpr uintptr_t kSimtStackSlots = 8192;
inline constexpr uintptr_t kCoreStackArea = kCoreStackBytes * kCoreStackSlots;
inline constexpr uintptr_t kFiberStackArea = kCoreStackArea + kSimtStackBytes * kSimtStackSlots;
// The region's first byte; until it is reserved (or when it cannot be), an
// address in the kernel half of the address space, where no user stack lies.
inline constexpr uintptr_t kNoFiberStacks = ~uintptr_t{0} - kFiberStackArea;
extern uintptr_t g_fiber_stack_base;
// The last bytes of a slot.
struct alignas(64) FiberStackTop {
    Core* core = nullptr;  // the core whose code runs on this stack, or nullptr
};
inline uintptr_t stack_pointer() {
    uintptr_t sp;
#if defined(__x86_64__)
    asm("mov %%rsp, %0" : "=r"(sp));
#elif defined(__aarch64__)
    asm("mov %0, sp" : "=r"(sp));
#else
    sp = reinterpret_cast<uintptr_t>(__builtin_frame_address(0));
#endif
    return sp;
}
// The slot top of the fiber stack holding `sp`, or nullptr outside the region.
inline FiberStackTop* fiber_stack_top(uintptr_t sp) {
    const uintptr_t off = sp - g_fiber_stack_base;
    if (off < kCoreStackArea) [[likely]]
        return reinterpret_cast<FiberStackTop*>((sp | (kCoreStackBytes - 1)) + 1 - sizeof(FiberStackTop));
    if (off < kFiberStackArea)
        return reinterpret_cast<FiberStackTop*>((sp | (kSimtStackBytes - 1)) + 1 - sizeof(FiberStackTop));
    return nullptr;
}
inline Core* fiber_core() {
    const FiberStackTop* top = fiber_stack_top(stack_pointer());
    return top ? top->core : nullptr;
}
Core* thread_core();  // the thread-local pointer: nullptr outside a kernel
[[noreturn]] void no_core();
}  // namespace detail

// The core the calling kernel code runs on; aborts outside a launch.
inline Core& core() {
    Core* c = detail::fiber_core();
    if (!c) [[unlikely]] {
        c = detail::thread_core();
        if (!c) detail::no_core();
    }
    c->touched = true;
    return *c;
}
// The same, or nullptr outside a launch.
inline Core* current_core_or_null() {
    Core* c = detail::fiber_core();
    if (!c) [[unlikely]]
        c = detail::thread_core();
    if (c) c->touched = true;
    return c;
}

// The source line of a call whose return address is `caller` (an
// instruction called with explicit template arguments, pto::CallSite), from
// the kernel's debug line table; unknown without one.
SourceLoc caller_loc(const void* caller);

// Raised by instructions and intrinsics; the launch stops and reports it.
struct KernelFault {
    std::string what;
    SourceLoc loc;
};
[[noreturn]] void fault(const SourceLoc& loc, std::string message);

// A rule the device does not enforce (a pto-isa debug-only PTO_ASSERT, a GM
// access past the bytes an allocation asked for): the kernel goes on as it
// would on the device, and the finding becomes a memcheck report of `kind`
// at `loc` (docs/semantics.md, "Faults and reports"). With PTO_SIM_STRICT=1
// (or check::set_strict) it is a fault at `loc` instead. `buffer` and
// [lo, hi) name the memory involved ("" for none).
struct Tolerated {
    const char* op;
    const char* kind;
    std::string message;  // what happened and what the device does with it
    std::string fix;
    const char* buffer = "";
    uint64_t lo = 0, hi = 0;
    bool write = false;
    Pipe pipe = Pipe::S;
};
void tolerate(const SourceLoc& loc, Tolerated t);
// PTO_SIM_STRICT, read once (check::set_strict overrides it).
bool strict();

// Dispatch: subscribers (checkers, cost model, tracer) see every record.
using Subscriber = std::function<void(const Core&, const OpRecord&)>;
// Calls are serialised. A subscriber that needs the records in one
// deterministic order (a trace, a log; the default) makes launches run on the
// serial schedule while it is subscribed; one that only counts may pass
// ordered = false and leave launches on every host thread.
int subscribe(Subscriber s, bool ordered = true);
void unsubscribe(int id);
namespace detail {
extern bool g_has_subscribers;
bool has_ordered_subscribers();
void notify(const Core&, const OpRecord&);
[[noreturn]] void stop_abandoned(const Core&, const OpRecord&);
}
inline void dispatch(Core& c, const OpRecord& r) {
    if (c.abandon && c.abandon->load(std::memory_order_relaxed)) detail::stop_abandoned(c, r);
    ++c.ops;
    c.last_loc = r.loc;
    c.last_op = r.op;
    if (detail::g_has_subscribers) detail::notify(c, r);
}
// The same dispatch, its record built by make() only when something reads
// it (a subscriber, or the stop of an abandoned launch): an instruction that
// passes with nobody subscribed costs no OpRecord. make() returns the record
// dispatch(c, make()) would pass; its op and loc are `op` and `loc`.
template <class Make>
inline void dispatch(Core& c, const char* op, const SourceLoc& loc, Make&& make) {
    if (c.abandon && c.abandon->load(std::memory_order_relaxed)) detail::stop_abandoned(c, make());
    ++c.ops;
    c.last_loc = loc;
    c.last_op = op;
    if (detail::g_has_subscribers) detail::notify(c, make());
}

// Blocks the calling core until ready() holds; describe() explains the wait
// in a deadlock report. Returns immediately when ready() already holds.
void block_until(Core& c, const SourceLoc& loc, const std::function<bool()>& ready,
                 const std::function<std::string()>& describe);

// Lets every other core that can run do so before the calling core goes on
// (a polling read such as ld_dev; docs/intrinsics/atomic.md).
void yield_core(Core& c, const SourceLoc& loc);

// Checks that [offset, offset+bytes) lies inside the core's buffer of `space`.
void check_local(const Core& c, Space space, uint64_t offset, uint64_t bytes, const char* what,
                 const SourceLoc& loc);
// The same, its message naming "<op> <role>" ("vadd dst"): put together only
// when it faults, so an instruction's checks cost no string.
void check_local(const Core& c, Space space, uint64_t offset, uint64_t bytes, const char* op, const char* role,
                 const SourceLoc& loc);

// Faults when [p, p+bytes) starts inside a registered allocation but runs past
// its end; unregistered host pointers cannot be checked.
void check_gm(const void* p, uint64_t bytes, const char* what, const SourceLoc& loc);
// check_gm of each of n bursts of `len` bytes, `pitch` apart from p: one look
// up when all of them lie in one allocation (a DMA instruction's usual case),
// else each burst on its own, so a fault names the burst's bytes.
void check_gm_bursts(const void* p, uint32_t n, uint64_t pitch, uint64_t len, const char* what, const SourceLoc& loc);

// The core of the caller's mix group with the given type and sub-block
// (A5 TMOV Acc->Vec and TINSERT Vec->Mat cross between Cube and Vector cores).
Core& group_core(Core& c, CoreType type, int subblock, const char* op, const SourceLoc& loc);

}  // namespace ptosim
