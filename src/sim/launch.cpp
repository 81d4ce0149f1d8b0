// Execution of a launch: every simulated core is a fiber. Serially (one host
// thread) a core runs until it finishes, blocks on a flag or reaches a
// synchronisation point, then the ready core with the lowest progress clock
// (the lowest-numbered among equals) continues. In parallel, each host thread
// runs the blocks of its own physical cores the same way, and the threads
// meet only at cross-core flags, so a kernel without data races computes the
// same bytes whatever the thread count (docs/semantics.md, "Host threads").
#include "code_address.hpp"
#include "file_write.hpp"
#include "launch.hpp"
#include <ptosim/peers.hpp>
#include "check.hpp"
#include "timing.hpp"
#include "device_impl.hpp"
#include "fiber_stacks.hpp"
#include "workers.hpp"
#include <dlfcn.h>
#include <sys/auxv.h>
#include <sys/syscall.h>
#if defined(__x86_64__)
#include <asm/prctl.h>
#endif
#include <sys/mman.h>
#include <ucontext.h>
#include <boost/context/detail/fcontext.hpp>
#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <utility>
#include <sstream>
#include <unistd.h>

// AddressSanitizer follows one stack per thread unless told about fiber
// switches; without the annotations it reports false stack overflows once a
// fiber has run, and a faulted launch leaves the redzones of the fibers it
// abandoned poisoned in stacks that are reused.
#if defined(__SANITIZE_ADDRESS__)
#define PTOSIM_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PTOSIM_ASAN 1
#endif
#endif
#ifdef PTOSIM_ASAN
#include <sanitizer/asan_interface.h>
#include <sanitizer/common_interface_defs.h>
#endif
// ThreadSanitizer keeps one shadow call stack and one clock per thread: a
// fiber switch it is not told about corrupts the first, and accesses of
// cores that take turns on one thread would not be ordered by the switches
// between them. Each fiber stack gets a ThreadSanitizer fiber.
#if defined(__SANITIZE_THREAD__)
#define PTOSIM_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define PTOSIM_TSAN 1
#endif
#endif
#ifdef PTOSIM_TSAN
#include <sanitizer/tsan_interface.h>
#include <unordered_map>
#endif

namespace ptosim {

namespace {
thread_local Core* t_core = nullptr;
thread_local Launch* t_launch = nullptr;

// A core's fiber stack: a slot of the fiber-stack region (fiber_stacks.hpp),
// its top naming the core that runs on it, a guard page at its bottom.
constexpr size_t kStackBytes = detail::kCoreStackBytes;
constexpr uintptr_t kGuardBytes = detail::kCoreStackBytes - fiber_stack_shape(FiberStackKind::Core).usable;
static_assert(kGuardBytes == 4096);
constexpr uintptr_t kStackSlack = 64u << 10;
thread_local std::vector<void*> t_stack_pool;

#ifdef PTOSIM_ASAN
thread_local const void* t_sched_stack = nullptr;  // the stream thread's stack, where the scheduler runs
thread_local size_t t_sched_stack_size = 0;
inline const void* t_sched_stack_bottom() { return t_sched_stack; }
inline size_t t_sched_stack_bytes() { return t_sched_stack_size; }
#else
inline const void* t_sched_stack_bottom() { return nullptr; }
inline size_t t_sched_stack_bytes() { return 0; }
#endif

#ifdef PTOSIM_TSAN
// Fiber stack -> its ThreadSanitizer fiber. Not per thread: a launch that
// ends abandoned returns its cores' stacks to the pool of the thread that
// destroys it.
std::mutex g_tsan_mu;
std::unordered_map<const void*, void*> g_tsan_fibers;
void* tsan_fiber_of(const void* stack) {
    std::lock_guard lk(g_tsan_mu);
    return g_tsan_fibers.at(stack);
}
#endif
// Right before jumping onto core `s`'s stack, or back from it to the scheduler.
inline void tsan_to_core([[maybe_unused]] CoreSlot& s) {
#ifdef PTOSIM_TSAN
    s.tsan_sched = __tsan_get_current_fiber();
    __tsan_switch_to_fiber(tsan_fiber_of(s.fiber.stack), 0);
#endif
}
inline void tsan_to_scheduler([[maybe_unused]] const CoreSlot& s) {
#ifdef PTOSIM_TSAN
    __tsan_switch_to_fiber(s.tsan_sched, 0);
#endif
}

// Around every context switch: `save` keeps the leaving side's fake stack (null
// when the leaving fiber ends); the arriving side learns where it came from.
inline void switch_begin([[maybe_unused]] void** save, [[maybe_unused]] const void* bottom,
                         [[maybe_unused]] size_t size) {
#ifdef PTOSIM_ASAN
    __sanitizer_start_switch_fiber(save, bottom, size);
#endif
}
inline void switch_end([[maybe_unused]] void* save, [[maybe_unused]] bool from_scheduler) {
#ifdef PTOSIM_ASAN
    if (from_scheduler) __sanitizer_finish_switch_fiber(save, &t_sched_stack, &t_sched_stack_size);
    else __sanitizer_finish_switch_fiber(save, nullptr, nullptr);
#endif
}

void* take_stack() {
    if (!t_stack_pool.empty()) {
        void* s = t_stack_pool.back();
        t_stack_pool.pop_back();
        return s;
    }
    void* s = take_fiber_stack(FiberStackKind::Core);  // guard page: a kernel stack overflow faults
    if (!s) return nullptr;
#ifdef PTOSIM_TSAN
    {
        std::lock_guard lk(g_tsan_mu);
        g_tsan_fibers.emplace(s, __tsan_create_fiber(0));
    }
#endif
    return s;
}
// Core slots are recycled like stacks: a launch of many blocks would
// otherwise allocate and free one per core.
thread_local std::vector<std::unique_ptr<CoreSlot>> t_slot_pool;

std::unique_ptr<CoreSlot> take_slot() {
    if (t_slot_pool.empty()) return std::make_unique<CoreSlot>();
    std::unique_ptr<CoreSlot> s = std::move(t_slot_pool.back());
    t_slot_pool.pop_back();
    return s;
}

// Cleared at once: what its waits captured is released with the core.
void give_slot(std::unique_ptr<CoreSlot> s) {
    if (t_slot_pool.size() >= 256) return;
    std::destroy_at(s.get());
    std::construct_at(s.get());
    t_slot_pool.push_back(std::move(s));
}

void give_stack(void* s) {
    fiber_stack_top_of(FiberStackKind::Core, s).core = nullptr;
#ifdef PTOSIM_ASAN
    // A fiber abandoned mid-run (a fault ended its launch) left redzones.
    __asan_unpoison_memory_region(s, kStackBytes);
#endif
    if (t_stack_pool.size() < 256) {
        t_stack_pool.push_back(s);
        return;
    }
#ifdef PTOSIM_TSAN
    {
        std::lock_guard lk(g_tsan_mu);
        __tsan_destroy_fiber(g_tsan_fibers.at(s));
        g_tsan_fibers.erase(s);
    }
#endif
    release_fiber_stack(FiberStackKind::Core, s);
}

// The address of the instruction that faulted, from the signal's context.
const void* faulting_pc(void* uctx) {
#if defined(__x86_64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(uctx)->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
    return reinterpret_cast<const void*>(static_cast<ucontext_t*>(uctx)->uc_mcontext.pc);
#else
    (void)uctx;
    return nullptr;
#endif
}

// A fault at an address below the size of one of the core's buffers is most
// often a local-memory pointer the kernel dereferenced itself over ptolab's
// own headers: GCC, which builds them, has no address spaces, so a __ubuf__
// pointer there holds its offset in UB and reads the host's page zero.
// Appends that reading, with the faulting line, to the report. Async-signal-safe.
int local_offset_hint(char* buf, size_t n, const Core& c, uintptr_t addr, void* uctx) {
    const char* space = nullptr;
    uint64_t size = 0;
    for (Space s : {Space::UB, Space::L1}) {
        if (addr < c.mem_size[static_cast<int>(s)] && c.mem_size[static_cast<int>(s)] > size) {
            size = c.mem_size[static_cast<int>(s)];
            space = to_string(s);
        }
    }
    if (!space || n == 0) return 0;
    const void* pc = faulting_pc(uctx);
    const SourceLoc at = pc ? caller_loc(static_cast<const uint8_t*>(pc) + 1) : SourceLoc{};
    char line[300] = "";
    if (at.file) std::snprintf(line, sizeof line, " at %s:%d", at.file, at.line);
    const int k = std::snprintf(buf, n,
                                " The faulting access%s is to address %#lx, inside the %llu bytes of this core's %s: "
                                "if it is a __ubuf__ or __cbuf__ pointer the kernel dereferenced itself, over "
                                "ptolab's own headers (built with GCC, which has no local address spaces) such a "
                                "pointer holds its offset in the buffer and cannot be dereferenced; read and write "
                                "tile elements with GetValue/SetValue or an intrinsic, or build the kernel with "
                                "--pto-headers=pto-isa.",
                                line, static_cast<unsigned long>(addr), static_cast<unsigned long long>(size), space);
    return std::max(0, std::min<int>(k, static_cast<int>(n) - 1));
}

// Fixed private addresses (docs/semantics.md, "Fixed private addresses"): an
// unqualified pointer on an AI core addresses the core's private (stack)
// space, and kernels that place data at fixed addresses there (pto-isa's
// t_dhrystone from 0x100000) run on the device. On the host such an address
// is unmapped; the handler maps zeroed memory there, once per process, and
// the access is retried. Below the largest core buffer an address is far
// more often a local-memory offset dereferenced over ptolab's headers (see
// local_offset_hint), so that still faults, as does everything past the end.
constexpr uintptr_t kPrivateSpaceEnd = uintptr_t{16} << 20;
constexpr uintptr_t kPrivateChunk = uintptr_t{64} << 10;

uintptr_t private_space_begin(const Core& c) {
    return std::max(c.mem_size[static_cast<int>(Space::UB)], c.mem_size[static_cast<int>(Space::L1)]);
}

bool in_private_space(const Core& c, uintptr_t addr) {
    return addr >= private_space_begin(c) && addr < kPrivateSpaceEnd;
}

// Async-signal-safe: mmap and atomics only.
bool map_private_page(const Core& c, int sig, const siginfo_t* info, void* uctx) {
    const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
    if (sig != SIGSEGV || info->si_code != SEGV_MAPERR || !in_private_space(c, addr) || strict()) return false;
    const uintptr_t base = std::max(addr & ~(kPrivateChunk - 1), private_space_begin(c));
    void* want = reinterpret_cast<void*>(base & ~(uintptr_t{4095}));
    const size_t bytes = std::min(kPrivateSpaceEnd, (addr & ~(kPrivateChunk - 1)) + kPrivateChunk) -
                         reinterpret_cast<uintptr_t>(want);
    void* got = mmap(want, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
    if (got == MAP_FAILED) return errno == EEXIST;  // another core mapped it first: retry the access
    if (got != want) {  // a kernel without MAP_FIXED_NOREPLACE placed it elsewhere
        munmap(got, bytes);
        return false;
    }
    if (Launch* l = t_launch) l->note_private_page(c.index, addr, faulting_pc(uctx));
    return true;
}

// A kernel that dereferences a bad pointer or overflows its stack still dies,
// as on hardware, but first says which kernel, core and source line it was
// in, and which of the three it was: freed device memory, the core's stack,
// or an address outside every buffer. Only async-signal-safe calls here
// (snprintf of plain values, write), except dladdr, which glibc implements
// without locks once the libraries are loaded.
void on_crash(int sig, siginfo_t* info, void* uctx) {
    if (const Core* c = t_core) {
        if (map_private_page(*c, sig, info, uctx)) return;
        // A plain pointer into a peer's window under the remote transport: the
        // page is fetched over MPI (a synchronous fault in kernel code, which
        // holds none of the transport's locks) and the access retried.
        if (sig == SIGSEGV && remote_windows()) {
            try {
                if (remote_open_plain(*c, reinterpret_cast<uintptr_t>(info->si_addr))) return;
            } catch (const KernelFault& f) {
                (void)!write(2, "ptosim: ", 8);
                (void)!write(2, f.what.data(), f.what.size());
                (void)!write(2, "\n", 1);
            }
        }
        // Device printf text this core collected in a parallel launch: what
        // it printed before dying is not lost.
        if (c->print_buffer && !c->print_buffer->empty())
            (void)!write(1, c->print_buffer->data(), c->print_buffer->size());
        char buf[2048];
        const Launch* l = t_launch;
        const uintptr_t addr = reinterpret_cast<uintptr_t>(info->si_addr);
        const char* kernel = l ? l->spec().kernel.c_str() : "?";
        const char* sub = c->type == CoreType::AIV && c->subblock_dim > 1 ? (c->subblock_id ? " sub 1" : " sub 0") : "";
        char last[320];
        if (c->last_loc.file)
            std::snprintf(last, sizeof last, "last PTO call %s at %s:%d", c->last_op ? c->last_op : "?",
                          c->last_loc.file, c->last_loc.line);
        else
            std::snprintf(last, sizeof last, "no PTO call yet on this core");
        int n;
        const uintptr_t stack = l ? reinterpret_cast<uintptr_t>(l->stack_of(*c)) : 0;
        if (const FreedBlock* f = find_freed(l ? l->device() : Device::get(), addr)) {
            n = std::snprintf(buf, sizeof buf,
                              "ptosim: fatal: kernel '%s' on %s %lld%s accessed freed device memory at %p: it lies in "
                              "the %llu-byte device block at %p, freed by aclrtFree called from %s; %s. Free device "
                              "memory only after the launches using it finished (synchronise the stream first).\n",
                              kernel, to_string(c->type), static_cast<long long>(c->block_idx), sub, info->si_addr,
                              static_cast<unsigned long long>(f->size), reinterpret_cast<void*>(f->base.load()),
                              f->where, last);
        } else if (stack && addr < stack + kGuardBytes && addr + kStackSlack >= stack) {
            // The guard page below the fiber stack, or just beyond it (a frame
            // larger than a page can step over the guard).
            n = std::snprintf(buf, sizeof buf,
                              "ptosim: fatal: kernel '%s' on %s %lld%s overflowed its stack (%zu MiB per simulated "
                              "core; address %p); %s. Deep recursion or large local arrays in the kernel: keep data "
                              "in tiles or global memory (an AI core's scalar stack is far smaller than this).\n",
                              kernel, to_string(c->type), static_cast<long long>(c->block_idx), sub,
                              kStackBytes >> 20, info->si_addr, last);
        } else if (char remote[900]; remote_window_fault(addr, remote, sizeof remote)) {
            // A plain pointer into a peer's window under the remote transport:
            // the kernel's line from the faulting instruction's address.
            const void* pc = faulting_pc(uctx);
            const SourceLoc at = pc ? caller_loc(static_cast<const uint8_t*>(pc) + 1) : SourceLoc{};
            char line[300] = "at an unknown line (no debug line table)";
            if (at.file) std::snprintf(line, sizeof line, "at %s:%d", at.file, at.line);
            n = std::snprintf(buf, sizeof buf, "ptosim: fatal: kernel '%s' on %s %lld%s, %s: %s; %s.\n", kernel,
                              to_string(c->type), static_cast<long long>(c->block_idx), sub, line, remote, last);
        } else {
            const void* pc = faulting_pc(uctx);
            Dl_info here{}, at{};
            const bool in_sim = pc && dladdr(reinterpret_cast<const void*>(&on_crash), &here) &&
                                dladdr(pc, &at) && at.dli_fbase == here.dli_fbase;
            const char* lib = in_sim && at.dli_fname ? std::strrchr(at.dli_fname, '/') : nullptr;
            if (in_sim)
                n = std::snprintf(buf, sizeof buf,
                                  "ptosim: fatal: %s (address %p) inside the simulator's own code (%s+0x%lx%s%s) while kernel "
                                  "'%s' ran on %s %lld%s; %s. This is a ptosim bug unless an operand of that call "
                                  "points outside its memory: check the call's addresses, then report it with the "
                                  "kernel.\n",
                                  sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", info->si_addr,
                                  lib ? lib + 1 : "libptosim.so",
                                  static_cast<unsigned long>(reinterpret_cast<uintptr_t>(pc) -
                                                             reinterpret_cast<uintptr_t>(at.dli_fbase)),
                                  at.dli_sname ? ", in " : "", at.dli_sname ? at.dli_sname : "", kernel, to_string(c->type),
                                  static_cast<long long>(c->block_idx), sub, last);
            else {
                n = std::snprintf(buf, sizeof buf,
                                  "ptosim: fatal: %s (address %p) in kernel '%s' on %s %lld%s; %s. The address lies "
                                  "outside every device allocation and core buffer: a raw pointer in the kernel, or a "
                                  "GlobalTensor built over one, went outside its memory.",
                                  sig == SIGSEGV ? "SIGSEGV" : "SIGBUS", info->si_addr, kernel, to_string(c->type),
                                  static_cast<long long>(c->block_idx), sub, last);
                n = std::max(0, std::min<int>(n, sizeof buf - 1));
                if (in_private_space(*c, addr) && strict())
                    n += std::max(0, std::snprintf(buf + n, sizeof buf - n,
                                                   " It is a fixed private address, which ptosim maps for the kernel "
                                                   "unless PTO_SIM_STRICT is set, as it is now."));
                n = std::max(0, std::min<int>(n, sizeof buf - 1));
                n += local_offset_hint(buf + n, sizeof buf - n, *c, addr, uctx);
                if (n < static_cast<int>(sizeof buf) - 1) buf[n++] = '\n';
            }
        }
        if (n > 0) (void)!write(2, buf, static_cast<size_t>(std::min<int>(n, sizeof buf - 1)));
    }
    std::signal(sig, SIG_DFL);
    std::raise(sig);
}

// "kernel 'K' (launched at f:l) on AIV 3 sub 1; last PTO call TADD at f:l"
// for the reports below. Async-signal-safe.
int describe_kernel_core(char* buf, size_t n, const Core& c) {
    const Launch* l = t_launch;
    const char* sub = c.type == CoreType::AIV && c.subblock_dim > 1 ? (c.subblock_id ? " sub 1" : " sub 0") : "";
    char site[300] = "<unknown location>";
    if (l && l->spec().site.file) std::snprintf(site, sizeof site, "%s:%d", l->spec().site.file, l->spec().site.line);
    char last[320];
    if (c.last_loc.file)
        std::snprintf(last, sizeof last, "last PTO call %s at %s:%d", c.last_op ? c.last_op : "?", c.last_loc.file,
                      c.last_loc.line);
    else
        std::snprintf(last, sizeof last, "no PTO call yet on this core");
    return std::snprintf(buf, n, "kernel '%s' (launched at %s) on %s %lld%s; %s", l ? l->spec().kernel.c_str() : "?",
                         site, to_string(c.type), static_cast<long long>(c.block_idx), sub, last);
}

void write_report(const Core& c, const char* head, const char* tail) {
    if (c.print_buffer && !c.print_buffer->empty()) (void)!write(1, c.print_buffer->data(), c.print_buffer->size());
    char where[800], buf[1400];
    describe_kernel_core(where, sizeof where, c);
    const int n = std::snprintf(buf, sizeof buf, "ptosim: fatal: %s in %s. %s\n", head, where, tail);
    if (n > 0) (void)!write(2, buf, static_cast<size_t>(std::min<int>(n, sizeof buf - 1)));
}

// Signals kernel code raises besides bad accesses: an integer division by
// zero, an illegal instruction, abort() (a failed assert, std::terminate).
// Outside a kernel the handler that was installed before decides, so host
// code (and Python's faulthandler) sees its signals as before.
constexpr int kKernelSignals[] = {SIGFPE, SIGILL, SIGABRT};
struct sigaction g_previous[std::size(kKernelSignals)];

void on_kernel_signal(int sig, siginfo_t* info, void*) {
    size_t i = 0;
    while (kKernelSignals[i] != sig) ++i;
    if (const Core* c = t_core) {
        char head[160];
        if (sig == SIGFPE)
            std::snprintf(head, sizeof head, "SIGFPE (%s at %p)",
                          info->si_code == FPE_INTDIV   ? "integer division by zero"
                          : info->si_code == FPE_INTOVF ? "integer overflow"
                                                        : "arithmetic exception",
                          info->si_addr);
        else if (sig == SIGILL)
            std::snprintf(head, sizeof head, "SIGILL (illegal instruction at %p)", info->si_addr);
        else
            std::snprintf(head, sizeof head, "SIGABRT (abort() called)");
        write_report(*c, head,
                     sig == SIGFPE   ? "Kernel scalar code divided an integer by zero (or INT_MIN by -1): check the "
                                       "divisor before dividing"
                     : sig == SIGILL ? "Kernel code ran an instruction this host cannot execute (or "
                                       "__builtin_trap/__builtin_unreachable): build for this host and remove the trap"
                                     : "A failed assert (its message is above), std::terminate or abort() in kernel "
                                       "code ends the process: fix the condition the kernel checks");
    }
    sigaction(sig, &g_previous[i], nullptr);
    // A fault re-executes its instruction when the handler returns, now
    // with the previous disposition; a sent signal (abort, raise) is sent again.
    if (info->si_code <= 0) raise(sig);
}

// The status a process ends with when kernel code tried to end it: never
// the kernel's own, so that exit(0) cannot pass for success.
constexpr int kExitFromKernelStatus = 1;

[[noreturn]] void report_exit_from_kernel(const Core& c, const char* fn, long code) {
    char head[96];
    if (code < 0 && std::strcmp(fn, "exit") == 0) std::snprintf(head, sizeof head, "exit() called");
    else std::snprintf(head, sizeof head, "%s(%ld) called", fn, code);
    char tail[300];
    std::snprintf(tail, sizeof tail,
                  "Kernel code cannot end the process (a device kernel has no exit): return from the kernel "
                  "instead. The process ends with status %d",
                  kExitFromKernelStatus);
    write_report(c, head, tail);
    syscall(SYS_exit_group, kExitFromKernelStatus);
    __builtin_unreachable();
}

// atexit handler: exit() called by kernel code in a process where
// libptosim's exit does not interpose (loaded with dlopen, as from Python).
void exit_from_kernel_at_exit() {
    if (const Core* c = t_core) report_exit_from_kernel(*c, "exit", -1);
}

void install_crash_report() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction sa {};
        sa.sa_sigaction = on_crash;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGSEGV, &sa, nullptr);
        sigaction(SIGBUS, &sa, nullptr);
        sa.sa_sigaction = on_kernel_signal;
        for (size_t i = 0; i < std::size(kKernelSignals); ++i) sigaction(kKernelSignals[i], &sa, &g_previous[i]);
        std::atexit(exit_from_kernel_at_exit);
    });
    // The handler must run on its own stack: a fiber stack overflow leaves
    // none. An alternate stack already installed on this thread (by a
    // sanitizer runtime or the host program) is kept: its owner frees it
    // when the thread exits, and would free ours instead.
    thread_local bool installed = false;
    if (!installed) {
        installed = true;
        stack_t cur{};
        if (sigaltstack(nullptr, &cur) == 0 && !(cur.ss_flags & SS_DISABLE) && cur.ss_sp) return;
        thread_local std::vector<char> alt(1 << 18);  // room for an MPI transfer (remote_open_plain)
        stack_t ss{};
        ss.ss_sp = alt.data();
        ss.ss_size = alt.size();
        sigaltstack(&ss, nullptr);
    }
}

namespace bctx = boost::context::detail;

// Thrown in a blocked core that is resumed after its launch ended, so the
// frames on its stack are unwound and free what they own.
struct FiberUnwind {};

// A core's fiber starts here, entered from its host thread's scheduler with
// its slot; it ends by jumping back for good (an fcontext entry never returns).
[[noreturn]] void fiber_entry(bctx::transfer_t from) {
    CoreSlot* slot = static_cast<CoreSlot*>(from.data);
    slot->sched = from.fctx;
    switch_end(nullptr, true);
    try {
        (*slot->body)();
        // The kernel's last writes to peers' windows (the remote transport).
        if (remote_windows()) remote_close_all(slot->core);
    } catch (const FiberUnwind&) {
    } catch (const KernelFault& f) {
        t_launch->fault_from(slot->core, f);
    } catch (const std::exception& e) {
        t_launch->fault_from(slot->core, KernelFault{std::string("C++ exception escaped the kernel: ") + e.what(),
                                                slot->core.last_loc});
    }
    // A core that ended (or faulted) in a spin on another rank's memory no
    // longer waits (the ranks' board, docs/many-devices.md).
    if (slot->core.poll_on_board) poll_ended(slot->core);
    if (remote_windows()) {
        try {
            remote_close_all(slot->core);  // after a fault: give the pages back
        } catch (const KernelFault&) {
        }
    }
    slot->state = CoreSlot::State::Done;
    switch_begin(nullptr, t_sched_stack_bottom(), t_sched_stack_bytes());
    tsan_to_scheduler(*slot);
    bctx::jump_fcontext(slot->sched, nullptr);
    __builtin_unreachable();
}
}  // namespace

Core* detail::thread_core() { return t_core; }

void detail::no_core() {
    std::fprintf(stderr,
                 "ptosim: error: a PTO instruction or core intrinsic ran outside a kernel launch; call kernels "
                 "through <<<...>>> (ptocc) or ptosim::run_launch\n");
    std::abort();
}

void fault(const SourceLoc& loc, std::string message) { throw KernelFault{std::move(message), loc}; }

void detail::stop_abandoned(const Core&, const OpRecord& r) {
    throw KernelFault{std::string("stopped before ") + r.op +
                          ": the launch was abandoned after a stream synchronisation timed out",
                      r.loc};
}

std::string SourceLoc::file_line() const {
    if (!file) return "<unknown location>";
    return std::string(file) + ":" + std::to_string(line);
}

std::string SourceLoc::str() const {
    std::string own = file_line();
    if (!file || !pc) return own;
    const std::string user = user_call_line(pc);
    return user.empty() || user == own ? own : user + " (via " + own + ")";
}

std::string Core::name() const {
    std::string s = to_string(type);
    s += " block " + std::to_string(block_idx);
    if (type == CoreType::AIV && subblock_dim > 1) s += " sub " + std::to_string(subblock_id);
    return s;
}

void block_until(Core& c, const SourceLoc& loc, std::unique_lock<std::mutex>& held, const std::function<bool()>& ready,
                 const std::function<std::string()>& describe) {
    c.launch->block_until(c, loc, held, ready, describe);
}

void block_until(Core& c, const SourceLoc& loc, const std::function<bool()>& ready,
                 const std::function<std::string()>& describe) {
    auto held = c.launch->lock();
    block_until(c, loc, held, ready, describe);
}

void yield_core(Core& c, const SourceLoc& loc) {
    auto held = c.launch->lock();
    c.launch->yield_core(c, loc, held);
}

namespace {
std::mutex g_gm_atomic;
}

int device_printf(const char* format, ...) {
    va_list args;
    va_start(args, format);
    const Core* c = t_core;
    int n;
    if (!c || !c->print_buffer) {
        n = std::vprintf(format, args);
    } else {
        va_list again;
        va_copy(again, args);
        n = std::vsnprintf(nullptr, 0, format, args);
        if (n > 0) {
            std::string& b = *c->print_buffer;
            const size_t at = b.size();
            b.resize(at + static_cast<size_t>(n) + 1);
            std::vsnprintf(b.data() + at, static_cast<size_t>(n) + 1, format, again);
            b.resize(at + static_cast<size_t>(n));
        }
        va_end(again);
    }
    va_end(args);
    return n;
}
void gm_atomic_lock() {
    g_gm_atomic.lock();
    shared_atomic_lock();
}
void gm_atomic_unlock() {
    shared_atomic_unlock();
    g_gm_atomic.unlock();
}
bool gm_shared_atomics() { return shared_atomics(); }

void check_local(const Core& c, Space space, uint64_t offset, uint64_t bytes, const char* what,
                 const SourceLoc& loc) {
    uint64_t size = c.mem_size[static_cast<int>(space)];
    if (size == 0) {
        fault(loc, std::string(what) + ": " + c.name() + " has no " + to_string(space) +
                       " buffer (a " + to_string(space) + " tile used on the wrong core type?)");
    }
    if (offset > size || bytes > size - offset) {
        char buf[256];
        std::snprintf(buf, sizeof buf, "%s: bytes [0x%llx, 0x%llx) lie outside %s (%llu bytes on %s)", what,
                      static_cast<unsigned long long>(offset), static_cast<unsigned long long>(offset + bytes),
                      to_string(space), static_cast<unsigned long long>(size), c.launch->soc().name);
        fault(loc, std::string(buf) + "; fix the TASSIGN address or the tile shape");
    }
}

void check_local(const Core& c, Space space, uint64_t offset, uint64_t bytes, const char* op, const char* role,
                 const SourceLoc& loc) {
    const uint64_t size = c.mem_size[static_cast<int>(space)];
    if (size != 0 && offset <= size && bytes <= size - offset) return;
    check_local(c, space, offset, bytes, (std::string(op) + " " + role).c_str(), loc);
}

Core& group_core(Core& c, CoreType type, int subblock, const char* op, const SourceLoc& loc) {
    Launch& l = *c.launch;
    if (l.cores_per_group() != 3)
        fault(loc, std::string(op) + " moves data between a Cube core and its Vector sub-blocks; it needs a mix launch "
                                     "(--cce-aicore-arch=dav-c310)");
    return l.group_member(c, type == CoreType::AIC ? 0 : 1 + subblock);
}

Launch::Launch(Device& d, const LaunchSpec& spec, LaunchControl* ctl)
    : dev_(d), spec_(spec), soc_(d.soc()), ctl_(ctl) {}

void Launch::signalled() {
    ++generation_;
    current_idle_ = 0;  // every idle thread has a signal to look at
    if (idle_ > 0) wake_.notify_all();
}

Launch::~Launch() {
    for (int p = 0; placed_ && p < std::min(groups_, capacity_); ++p)
        for (auto& s : placed_[p].member)
            if (s && s->fiber.stack) give_stack(s->fiber.stack);
}

void CoreSet::insert(CoreSlot* s) {
    auto it = std::lower_bound(v_.begin(), v_.end(), s,
                               [](const CoreSlot* a, const CoreSlot* b) { return a->core.index < b->core.index; });
    v_.insert(it, s);
}
void CoreSet::erase(CoreSlot* s) { v_.erase(std::find(v_.begin(), v_.end(), s)); }

CoreType Launch::core_type_of(int index) const {
    if (spec_.kind == KernelKind::Mix) return index % per_group_ == 0 ? CoreType::AIC : CoreType::AIV;
    return spec_.kind == KernelKind::Cube ? CoreType::AIC : CoreType::AIV;
}

std::string Launch::core_name(int index) const {
    const int g = index / per_group_, m = index % per_group_;
    std::string s = to_string(core_type_of(index));
    s += " block " + std::to_string(g);
    if (per_group_ == 3 && m > 0) s += " sub " + std::to_string(m - 1);
    return s;
}

Core& Launch::group_member(const Core& c, int member) { return placed_[phys_of(c)].member[member]->core; }

void Launch::block_until(Core& c, const SourceLoc& loc, std::unique_lock<std::mutex>& held,
                         const std::function<bool()>& ready, const std::function<std::string()>& describe) {
    if (ready()) return;
    CoreSlot& s = slot_of(c);
    s.ready = ready;
    s.describe = describe;
    s.wait_loc = loc;
    s.state = CoreSlot::State::Blocked;
    held.unlock();
    yield_from(s);  // returns once the scheduler found ready() true
    held.lock();
    s.ready = nullptr;
    s.describe = nullptr;
}

void Launch::sync_point(Core& c, std::unique_lock<std::mutex>& held, uint64_t stamp) {
    CoreSlot& s = slot_of(c);
    const uint64_t now = c.ops + s.skew;
    if (stamp > now) s.skew += stamp - now;
    // The core is Runnable while it runs: pick() weighs its clock against
    // the others' and returns it when no ready core is behind it, in which
    // case it goes on without a fiber switch.
    Lane& lane = lane_of(phys_of(c));
    if (pick(lane.active, held) == &s) return;
    held.unlock();
    yield_from(s);  // returns when the scheduler picks it again
    held.lock();
}

void Launch::yield_core(Core& c, const SourceLoc& loc, std::unique_lock<std::mutex>& held) {
    CoreSlot& s = slot_of(c);
    s.ready = [] { return true; };
    s.describe = [] { return std::string("letting the other cores run"); };
    s.wait_loc = loc;
    s.yielded = true;
    s.state = CoreSlot::State::Blocked;
    held.unlock();
    yield_from(s);
    held.lock();
    s.ready = nullptr;
    s.describe = nullptr;
    s.yielded = false;
}

// ------------------------------------------------------------ cross-core flags

namespace {
// The counters of core `index`, allocated for every core on first use.
template <class T>
T& counters_at(std::vector<T>& v, int index, int cores) {
    if (v.empty()) v.assign(cores, {});
    return v[index];
}
template <class T>
auto held_at(const std::vector<T>& v, int index, int flag) -> std::decay_t<decltype(v[0][flag])> {
    return static_cast<size_t>(index) < v.size() ? v[index][flag] : std::decay_t<decltype(v[0][flag])>{};
}
}  // namespace

void Launch::push_stamp(uint64_t key, uint32_t held_before, uint64_t stamp) {
    Stamps& r = stamps_[key];
    r.t[(r.head + held_before) % r.t.size()] = stamp;
}
uint64_t Launch::pop_stamp(uint64_t key) {
    Stamps& r = stamps_[key];
    const uint64_t t = r.t[r.head];
    r.head = (r.head + 1) % r.t.size();
    return t;
}

bool Launch::ffts_add(int to, int flag, const SignalSite& site, uint64_t stamp) {
    uint32_t& n = counters_at(ffts_, to, core_count())[flag];
    if (n >= kFlagCounterMax) return false;
    push_stamp(stamp_key(0, to, flag), n, stamp);
    ++n;
    counters_at(ffts_from_, to, core_count())[flag] = site;
    return true;
}
uint32_t Launch::ffts_held(int core, int flag) const { return held_at(ffts_, core, flag); }
uint64_t Launch::ffts_take(int core, int flag) {
    --counters_at(ffts_, core, core_count())[flag];
    return pop_stamp(stamp_key(0, core, flag));
}

Launch::BarrierArrival Launch::ffts_barrier_add(int mode, int key, const std::vector<int>& members, int from, int flag,
                                                const SignalSite& site, uint64_t stamp) {
    auto [it, fresh] = ffts_barriers_.try_emplace({mode, key});
    FftsBarrier& b = it->second;
    if (fresh) {
        b.members = members;
        b.pending.assign(members.size(), {});
        b.pending_from.assign(members.size(), {});
    }
    BarrierArrival a;
    a.barrier = reinterpret_cast<intptr_t>(&b);
    a.member = 0;
    while (b.members[a.member] != from) ++a.member;
    uint32_t& n = b.pending[a.member][flag];
    if (n >= kFlagCounterMax) {
        a.full = true;
        return a;
    }
    ++n;
    b.pending_from[a.member][flag] = site;
    // One latest stamp per flag, not one per pending signal: a member that
    // runs rounds ahead makes an earlier round's release look later than it
    // was, which only delays the receivers' turn (ptolab approximation).
    b.latest[flag] = std::max(b.latest[flag], stamp);
    for (auto& p : b.pending)
        if (p[flag] == 0) return a;
    for (auto& p : b.pending) --p[flag];
    a.complete = true;
    a.stamp = b.latest[flag];
    b.latest[flag] = 0;
    return a;
}

bool Launch::intra_add(int to, int flag, const SignalSite& site, uint64_t stamp) {
    uint32_t& n = counters_at(intra_, to, core_count())[flag];
    if (n >= kFlagCounterMax) return false;
    push_stamp(stamp_key(1, to, flag), n, stamp);
    ++n;
    counters_at(intra_from_, to, core_count())[flag] = site;
    return true;
}
uint32_t Launch::intra_held(int core, int flag) const { return held_at(intra_, core, flag); }
uint64_t Launch::intra_take(int core, int flag) {
    --counters_at(intra_, core, core_count())[flag];
    return pop_stamp(stamp_key(1, core, flag));
}

bool Launch::syncall_arrive(int kind, int total, uint64_t stamp) {
    SyncAllBarrier& b = syncall_[kind];
    b.latest = std::max(b.latest, stamp);
    if (++b.arrived < total) return false;
    b.arrived = 0;
    ++b.round;
    b.released = b.latest;
    b.latest = 0;
    return true;
}

void Launch::note_signal(const Core& from, std::string s) { last_signals_[from.index] = std::move(s); }

std::vector<Launch::HeldSignals> Launch::held_signals() const {
    std::vector<HeldSignals> out;
    for (int r = 0; r < core_count(); ++r) {
        for (int f = 0; f < kFftsFlags; ++f)
            if (uint32_t n = held_at(ffts_, r, f))
                out.push_back({HeldSignals::Counter::Ffts, r, f, n, held_at(ffts_from_, r, f)});
        for (int f = 0; f < kIntraBlockFlags; ++f)
            if (uint32_t n = held_at(intra_, r, f))
                out.push_back({HeldSignals::Counter::IntraBlock, r, f, n, held_at(intra_from_, r, f)});
    }
    for (const auto& [key, b] : ffts_barriers_)
        for (size_t m = 0; m < b.members.size(); ++m)
            for (int f = 0; f < kFftsFlags; ++f)
                if (uint32_t n = b.pending[m][f])
                    out.push_back({HeldSignals::Counter::FftsBarrier, b.members[m], f, n, b.pending_from[m][f], key.first});
    return out;
}

void Launch::add_tolerated(int core, check::Report r) {
    std::lock_guard lk(tolerated_mu_);
    for (auto& [k, e] : tolerated_)
        if (e.kind == r.kind && e.sites[0].loc.str() == r.sites[0].loc.str()) {
            // The lowest core keeps the report, as the serial schedule would meet it first.
            const uint64_t n = e.count + 1;
            if (core < k) {
                k = core;
                e = std::move(r);
            }
            e.count = n;
            return;
        }
    tolerated_.emplace_back(core, std::move(r));
}

void Launch::note_private_page(int core, uintptr_t addr, const void* pc) {
    const int i = private_pages_n_.fetch_add(1);
    if (i < kPrivatePagesKept) private_pages_[i] = {core, addr, pc};
}

std::vector<std::pair<int, check::Report>> Launch::take_tolerated() {
    const int n = std::min(private_pages_n_.exchange(0), kPrivatePagesKept);
    for (int i = 0; i < n; ++i) {
        const PrivatePage& p = private_pages_[i];
        check::Report r;
        r.tool = "memcheck";
        r.kind = "fixed-private-address";
        r.severity = "warning";  // the documented private space, not a contract the device leaves unchecked
        r.sites = {{p.pc ? caller_loc(static_cast<const uint8_t*>(p.pc) + 1) : SourceLoc{}, "scalar access",
                    Pipe::S, "", core_name(p.core)}};
        char what[320];
        std::snprintf(what, sizeof what,
                      "the kernel accessed the fixed private address %#lx, which no allocation or buffer holds; an "
                      "unqualified pointer addresses the core's private (stack) space, and ptosim mapped zeroed "
                      "memory there, shared by every core of the process",
                      static_cast<unsigned long>(p.addr));
        r.message = what;
        r.fix = "keep the data in a local variable, a tile or global memory if it was not meant to be at a fixed "
                "address; PTO_SIM_STRICT=1 makes the access a fault";
        add_tolerated(p.core, std::move(r));
    }
    std::lock_guard lk(tolerated_mu_);
    return std::exchange(tolerated_, {});
}

void Launch::fault_from(const Core& c, const KernelFault& f) {
    std::lock_guard lk(mu_);
    if (c.index < fault_index_.load(std::memory_order_relaxed)) {
        fault_ = f;
        fault_index_.store(c.index, std::memory_order_relaxed);
        fault_core_ = c.name();
        fault_type_ = c.type;
    }
}

Status Launch::prepare() {
    // Only a launch that fails here pays for the text.
    auto where = [&] { return "kernel '" + spec_.kernel + "' launched at " + spec_.site.str(); };
    if (spec_.block_dim == 0) return {err::kInvalidParam, where() + ": block_dim is 0; launch at least one block"};
    if (spec_.target != soc_.target) {
        const char* fix = spec_.target == Target::A5 ? "Ascend950PR" : "Ascend910B2";
        const char* arch = soc_.target == Target::A5 ? "dav-c310" : "dav-c220";
        return {err::kInvalidParam, where() + ": built for " + to_string(spec_.target) + " but the simulated device is " +
                                        soc_.name + " (" + to_string(soc_.target) + "), " + soc_choice(dev_) +
                                        "; a launch does not change the SoC: set PTO_SIM_SOC=" + fix + " (or another " +
                                        to_string(spec_.target) + " SoC) for the process, or rebuild the kernel for " +
                                        to_string(soc_.target) + " (--cce-aicore-arch=" + arch + "*)"};
    }
    const bool need_aic = spec_.kind != KernelKind::Vec, need_aiv = spec_.kind != KernelKind::Cube;
    if ((need_aic && !spec_.aic_body) || (need_aiv && !spec_.aiv_body))
        return {err::kInvalidParam, where() + ": the " + to_string(spec_.kind) + " kernel lacks its " +
                                        (need_aic && !spec_.aic_body ? "Cube" : "Vector") + " core variant"};
    per_group_ = spec_.kind == KernelKind::Mix ? 3 : 1;
    groups_ = static_cast<int>(spec_.block_dim);
    if (spec_.block_dim > static_cast<uint32_t>(INT32_MAX / 3))
        return {err::kInvalidParam, where() + ": block_dim " + std::to_string(spec_.block_dim) +
                                        " is beyond what any Ascend runtime accepts (at most 65535 blocks)"};
    capacity_ = spec_.kind == KernelKind::Vec ? soc_.aiv : spec_.kind == KernelKind::Cube ? soc_.aic
                                                                                           : std::min(soc_.aic, soc_.aiv / 2);
    if (groups_ > capacity_) {
        auto& impl = dev_.impl();
        std::lock_guard lk(impl.mu);
        if (impl.wave_warned.insert(spec_.kernel).second) {
            std::fprintf(stderr,
                         "ptosim: warning: %s: block_dim %d exceeds the %d %s of %s; blocks run in waves. Persistent "
                         "kernels should launch at most that many blocks and loop inside.\n",
                         where().c_str(), groups_, capacity_,
                         spec_.kind == KernelKind::Vec ? "Vector cores" : spec_.kind == KernelKind::Cube ? "Cube cores"
                                                                                                         : "Cube+2 Vector groups",
                         soc_.name);
        }
    }
    placed_ = std::make_unique<Placed[]>(std::min(groups_, capacity_));
    free_slots_.reserve(capacity_);
    for (int i = capacity_ - 1; i >= 0; --i) free_slots_.push_back(i);
    return {};
}

void Launch::clear_local(int first, int count) {
    auto& impl = dev_.impl();
    if (spec_.kind != KernelKind::Vec) impl.cores(soc_, CoreType::AIC).clear(first, count);
    if (spec_.kind != KernelKind::Cube)
        impl.cores(soc_, CoreType::AIV).clear(first * aiv_per_slot(), count * aiv_per_slot());
}

// On the host thread of physical core `phys`.
Status Launch::admit(int group, int phys) {
    auto& impl = dev_.impl();
    std::array<std::unique_ptr<CoreSlot>, 3> made;
    for (int m = 0; m < per_group_; ++m) {
        std::unique_ptr<CoreSlot> s = take_slot();
        Core& c = s->core;
        c.type = core_type_of(group * per_group_ + m);
        c.target = spec_.target;
        c.index = group * per_group_ + m;
        c.block_idx = group;
        c.block_num = spec_.block_dim;
        c.subblock_id = spec_.kind == KernelKind::Mix && m > 0 ? m - 1 : 0;
        // Only the Vector cores of a mix group see two sub-blocks; the Cube core sees one.
        c.subblock_dim = spec_.kind == KernelKind::Mix && c.type == CoreType::AIV ? 2 : 1;
        c.launch = this;
        c.abandon = ctl_ ? &ctl_->abandon : nullptr;
        if (threads_ > 1) {
            c.parallel = true;
            c.print_buffer = &s->print_text;
        }
        s->group = group;
        s->body = const_cast<std::function<void()>*>(c.type == CoreType::AIC ? &spec_.aic_body : &spec_.aiv_body);
        // mix group p owns Cube core p and Vector cores 2p, 2p+1
        c.physical = c.type == CoreType::AIC ? phys : (per_group_ == 3 ? phys * 2 + (m - 1) : phys);
        auto& arena = impl.cores(soc_, c.type);
        for (int sp = 0; sp < kSpaceCount; ++sp) {
            c.mem[sp] = arena.space(c.physical, sp);
            c.mem_size[sp] = arena.size(sp);
        }
        if (c.type == CoreType::AIV) {
            const auto& m = arena.mask_regs(c.physical);
            c.vec.mask[0] = m.mask[0];
            c.vec.mask[1] = m.mask[1];
            c.vec.counter = m.counter;
        }
        s->fiber.stack = take_stack();
        if (!s->fiber.stack) {
            const int e = errno;
            for (int k = 0; k < m; ++k) give_stack(made[k]->fiber.stack);
            return {err::kBadAlloc, "kernel '" + spec_.kernel + "' (launched at " + spec_.site.str() +
                                        "): cannot allocate the " + std::to_string(kStackBytes >> 20) +
                                        " MiB stack of simulated " + c.name() + ": " + std::strerror(e) +
                                        " (the process is out of memory or of memory mappings, "
                                        "/proc/sys/vm/max_map_count)"};
        }
        // The slot's top names the core: ptosim::core() on this stack finds it there.
        detail::FiberStackTop& top = fiber_stack_top_of(FiberStackKind::Core, s->fiber.stack);
        top.core = &s->core;
        s->fiber.ctx = bctx::make_fcontext(&top, fiber_stack_bytes(FiberStackKind::Core), fiber_entry);
        s->state = CoreSlot::State::Runnable;
        made[m] = std::move(s);
    }
    Lane& lane = lane_of(phys);
    lane.admitted.fetch_add(1, std::memory_order_relaxed);
    std::lock_guard lk(lane.mu);
    for (int m = 0; m < per_group_; ++m) {
        lane.active.insert(made[m].get());
        placed_[phys].member[m] = std::move(made[m]);
    }
    return {};
}

// A finished group returns its physical core and fiber stacks at once, so a
// launch of any block_dim holds at most one wave of them.
// On the host thread of physical group slot `phys`.
void Launch::retire(int phys) {
    std::array<std::unique_ptr<CoreSlot>, 3> gone;
    bool printed = false;
    Lane& lane = lane_of(phys);
    {
        std::lock_guard lk(lane.mu);
        for (int m = 0; m < per_group_; ++m) {
            gone[m] = std::move(placed_[phys].member[m]);
            check::core_done(*this, gone[m]->core);
            cost::core_done(*this, gone[m]->core);
            lane.touched |= gone[m]->core.touched;
            lane.active.erase(gone[m].get());
            printed |= !gone[m]->print_text.empty();
        }
    }
    lane.retired.fetch_add(1, std::memory_order_relaxed);
    const int group = gone[0]->group;
    if (printed) {
        std::lock_guard lk(print_mu_);
        for (int m = 0; m < per_group_; ++m) {
            if (gone[m]->print_text.empty()) continue;
            prints_.emplace(group * per_group_ + m, std::move(gone[m]->print_text));
            prints_waiting_.fetch_add(1);
        }
    }
    for (int m = 0; m < per_group_; ++m) {
        const Core& c = gone[m]->core;
        if (c.type == CoreType::AIV) {
            auto& regs = dev_.impl().cores(soc_, c.type).mask_regs(c.physical);
            regs.mask[0] = c.vec.mask[0];
            regs.mask[1] = c.vec.mask[1];
            regs.counter = c.vec.counter;
        }
        give_stack(gone[m]->fiber.stack);
        give_slot(std::move(gone[m]));
    }
}

// Writes the collected printf text of finished cores in core order, up to
// the lowest-numbered core some host thread has not finished (`all`:
// everything, at the end of the launch).
void Launch::flush_prints(bool all) {
    std::lock_guard lk(print_mu_);
    int low = INT_MAX;
    if (!all)
        for (int l = 0; l < lane_count_; ++l) low = std::min(low, lanes_[l].low.load());
    while (!prints_.empty() && (all || prints_.begin()->first < low)) {
        auto it = prints_.begin();
        std::fwrite(it->second.data(), 1, it->second.size(), stdout);
        prints_.erase(it);
        prints_waiting_.fetch_sub(1);
    }
}

// Kernel code compiled over the CCE layer dereferences local-memory pointers
// (offsets into the core's buffer) through GS: point it at the buffer the
// core's scalar unit reads, UB on a Vector core, L1 on a Cube core
// (docs/intrinsics/README.md, "Local-memory pointers"). With FSGSBASE the
// instruction costs a few cycles; older kernels need the system call.
namespace {
void point_local_window(const Core& c) {
#if defined(__x86_64__)
    static const bool fsgsbase = (getauxval(AT_HWCAP2) & 2) != 0;
    const uint8_t* base = c.mem[static_cast<int>(c.type == CoreType::AIV ? Space::UB : Space::L1)];
    if (fsgsbase) {
        asm volatile("wrgsbase %0" ::"r"(base) : "memory");
    } else {
        syscall(SYS_arch_prctl, ARCH_SET_GS, base);
    }
#else
    (void)c;
#endif
}
}  // namespace

// Runs core `s` on its fiber until it yields, finishes or faults.
void Launch::resume(CoreSlot& s) {
    t_core = &s.core;
    point_local_window(s.core);
    void* fake = nullptr;
    switch_begin(&fake, s.fiber.stack, kStackBytes);
    tsan_to_core(s);
    const bctx::transfer_t back = bctx::jump_fcontext(s.fiber.ctx, &s);
    switch_end(fake, false);
    s.fiber.ctx = back.fctx;  // where it waits (meaningless once it finished)
    t_core = nullptr;
}

namespace {
// Takes the launch lock, polling it a while first: another host thread
// holds it for a flag operation or to look at a blocked core, much shorter
// than the futex sleep and wake-up a blocking lock costs, which on a 2-core
// host takes longer than an empty block.
void lock_polling(std::unique_lock<std::mutex>& lk) {
    // Backing off between attempts keeps the waiting thread from taking the
    // lock's cache line from the holder at every try.
    for (int i = 0; i < 12; ++i) {
        if (lk.try_lock()) return;
        for (int k = 0; k < 4 << i / 2; ++k) {
#if defined(__x86_64__)
            __builtin_ia32_pause();
#endif
        }
    }
    lk.lock();
}
}  // namespace

// The ready core with the lowest progress clock, the lowest-numbered among
// equals (docs/semantics.md, "Which core runs next"). After a fault, only cores
// numbered below the faulting one still run.
CoreSlot* Launch::pick(const CoreSet& cores, std::unique_lock<std::mutex>& lk, bool* round) {
    const int stop = fault_index_.load(std::memory_order_relaxed);
    CoreSlot* yielded = nullptr;  // the first core that gave its turn away
    CoreSlot* best = nullptr;
    uint64_t best_clock = 0;
    auto consider = [&](CoreSlot* s) {
        const uint64_t t = s->core.ops + s->skew;
        if (!best || t < best_clock) {
            best = s;
            best_clock = t;
        }
    };
    for (CoreSlot* s : cores) {
        if (s->core.index >= stop) break;
        if (s->state == CoreSlot::State::Runnable) {
            consider(s);
        } else if (s->state == CoreSlot::State::Blocked) {
            if (!lk.owns_lock()) lock_polling(lk);
            if (s->yielded) {
                if (!yielded) yielded = s;
                continue;
            }
            if (s->ready()) consider(s);
        }
        // Nothing later can be earlier, and ties go to the lower number: a
        // launch of cores that never wait (all at clock 0 until they run)
        // takes the first, without scanning the rest.
        if (best && best_clock == 0) return best;
    }
    if (best) return best;
    if (!lk.owns_lock()) lock_polling(lk);
    // Only cores that gave their turn away are left: every one of them gets
    // its turn back, so the lowest does not take every round.
    if (yielded) {
        for (CoreSlot* s : cores) s->yielded = false;
        if (round) *round = true;
    }
    return yielded;
}

namespace {
// Launches in the background on any device: a launch that starts while one
// runs takes no pool threads (workers.cpp runs one job at a time, and the
// one in the background may hold them until the new launch lets it finish).
std::atomic<int> g_background_launches{0};
}  // namespace

void Launch::count_turn(Lane& lane, const CoreSlot& s) {
    if (s.state == CoreSlot::State::Blocked && s.yielded) return;
    ++lane.progress;
    // Wakes launches in the background that wait for something to change.
    if (g_background_launches.load(std::memory_order_relaxed) > 0) dev_.impl().exec_mu.note_progress();
}

void Launch::round_begins(Lane& lane) {
    if (lane.progress == lane.round_mark) quiet_round();
    lane.round_mark = lane.progress;
}

void Launch::quiet_round() {
    if (!may_background_) return;
    Device::Impl& impl = dev_.impl();
    if (background_.exchange(true)) {
        // Polling again changes nothing while another launch runs alone:
        // let it run until it finishes or polls too, as its cores would run
        // beside these on the device.
        const uint64_t seen = impl.exec_mu.progress();
        while (!impl.exec_mu.wait_foreground_for(std::chrono::milliseconds(20)))
            if (ctl_ && ctl_->abandon.load()) return;
        // Nor while no core of another launch in the background got further
        // since: poll again once one did, or after a while (the host may
        // write GM). Alone, there is nothing to wait for: the polls' own
        // back-off paces them (peers.cpp), so that a bounded polling loop
        // (pto-isa's TTEST tests poll 50000 times) is not 2 ms a poll.
        if (g_background_launches.load(std::memory_order_relaxed) > 1)
            impl.exec_mu.wait_progress_for(seen, std::chrono::milliseconds(2));
        return;
    }
    g_background_launches.fetch_add(1);
    {
        std::lock_guard lk(impl.mu);
        impl.busy = nullptr;
        impl.background.push_back(&spec_);
    }
    impl.exec_mu.to_background(types_);
}

// Every lane held at once: a lane's own thread never takes two, nor the
// launch lock while it holds its lane's.
template <class F>
void Launch::each_active(F what) const {
    std::lock_guard lk(lanes_mu_);
    std::vector<std::unique_lock<std::mutex>> held;
    std::vector<const CoreSlot*> all;
    for (int l = 0; l < lane_count_; ++l) {
        held.emplace_back(lanes_[l].mu);
        all.insert(all.end(), lanes_[l].active.begin(), lanes_[l].active.end());
    }
    std::sort(all.begin(), all.end(), [](auto a, auto b) { return a->core.index < b->core.index; });
    for (const CoreSlot* s : all) what(s->core.index, *s);
}

int Launch::lane_sum(std::atomic<int> Lane::*count) const {
    std::lock_guard lk(lanes_mu_);
    int n = 0;
    for (int l = 0; l < lane_count_; ++l) n += (lanes_[l].*count).load(std::memory_order_relaxed);
    return n;
}

bool Launch::any_blocked() const {
    std::lock_guard lk(lanes_mu_);
    for (int l = 0; l < lane_count_; ++l) {
        std::lock_guard ll(lanes_[l].mu);
        for (const CoreSlot* c : lanes_[l].active)
            if (c->state == CoreSlot::State::Blocked) return true;
    }
    return false;
}

void Launch::yield_from(CoreSlot& s) {
    Core* self = t_core;
    void* fake = nullptr;
#ifdef PTOSIM_ASAN
    switch_begin(&fake, t_sched_stack, t_sched_stack_size);
#endif
    tsan_to_scheduler(s);
    const bctx::transfer_t from = bctx::jump_fcontext(s.sched, nullptr);
    switch_end(fake, true);
    s.sched = from.fctx;  // resumed, perhaps by a later turn of the scheduler
    t_core = self;
    // Not while already unwinding (a destructor that waits): that would terminate.
    if (s.unwind && std::uncaught_exceptions() == 0) throw FiberUnwind{};
}

Status Launch::run() {
    if (Status st = prepare(); !st.ok()) return st;
    std::string bad_threads;
    int threads = sim_threads(&bad_threads);
    if (threads == 0) return {err::kInvalidParam, "kernel '" + spec_.kernel + "' launched at " + spec_.site.str() + ": " + bad_threads};
    // The checkers, the cost model and subscribers that log records follow
    // one global order of events: they run the serial schedule.
    if (check_ || timing_ || detail::has_ordered_subscribers()) threads = 1;
    // The checkers' findings need one launch at a time, so under them a
    // launch never moves to the background. Under the cost model and
    // subscribers it may: a launch only gets there when it would otherwise
    // spin until its synchronisation times out. One that starts beside a
    // launch in the background runs on its own thread (docs/semantics.md,
    // "Launches on several streams").
    may_background_ = !check_;
    if (overlapping_ || g_background_launches.load() > 0) threads = 1;
    threads = std::min({threads, groups_, capacity_});
    {
        std::lock_guard lk(lanes_mu_);
        lanes_ = std::make_unique<Lane[]>(threads);
        lane_count_ = threads;
    }
    {
        std::lock_guard lk(dev_.impl().mu);
        dev_.impl().launched = true;
    }
    // Local memory reads as zero when the launch first uses a physical core:
    // its blocks run on the physical group slots [0, used), which the
    // schedule clears before it runs them (each host thread its own).
    const int used = std::min(groups_, capacity_);
    Device::Impl::CoreArena* arenas[2] = {spec_.kind != KernelKind::Vec ? &dev_.impl().cores(soc_, CoreType::AIC) : nullptr,
                                          spec_.kind != KernelKind::Cube ? &dev_.impl().cores(soc_, CoreType::AIV) : nullptr};
    Launch* prev_launch = t_launch;
    Core* prev_core = t_core;
    // A launch run from kernel code schedules on that core's stack with no
    // running core between its own cores' turns, as the thread-local pointer
    // says: the stack's top names none meanwhile.
    detail::FiberStackTop* own_top = detail::fiber_stack_top(detail::stack_pointer());
    Core* own_core = own_top ? own_top->core : nullptr;
    if (own_top) own_top->core = nullptr;
    Status result = threads > 1 ? run_parallel(threads) : run_serial();
    if (own_top) own_top->core = own_core;
    t_launch = prev_launch;
    t_core = prev_core;
    // An arena whose every core was cleared has nothing to clear until a
    // launch writes it again.
    if (arenas[0] && used == arenas[0]->core_count()) arenas[0]->mark_cleared();
    if (arenas[1] && used * aiv_per_slot() == arenas[1]->core_count()) arenas[1]->mark_cleared();
    // Local memory is written by kernel code that reached its core through
    // ptosim::core(): a launch whose cores all finished without doing so
    // (an empty kernel) leaves the pages as they were, and the next launch
    // need not look at them. One that did not finish is not asked.
    bool touched = false;
    for (int l = 0; l < lane_count_; ++l) touched |= lanes_[l].touched;
    if (touched || !result.ok() || fault_) {
        // Not through cores(), which maps an arena on first use: the other
        // core type may belong to a launch of another stream now.
        dev_.impl().aic_cores.mark_written();
        dev_.impl().aiv_cores.mark_written();
    }
    if (ctl_ && ctl_->abandon.load()) {
        std::string at;
        if (fault_) at = "; " + fault_core_ + " stopped at " + fault_->loc.str();
        result = {err::kStreamSyncTimeout, "kernel '" + spec_.kernel + "' (launched at " + spec_.site.str() +
                                               ") was abandoned after a stream synchronisation timed out" + at};
    } else if (fault_) {
        result = {fault_type_ == CoreType::AIV ? err::kVectorCoreException : err::kAiCoreException,
                  "kernel '" + spec_.kernel + "' (launched at " + spec_.site.str() + ") faulted on " + fault_core_ +
                      " at " + fault_->loc.str() + ": " + fault_->what};
    }
    return result;
}

// Cores left blocked by a deadlock, a fault elsewhere or an abandoned launch
// are resumed once to unwind: what their frames own (a kernel's std::vector,
// a wait's std::function) is freed, not leaked with the stack.
Status Launch::run_serial() {
    t_launch = this;
    Status result;
    Lane& lane = lanes_[0];
    const CoreSet& active = lane.active;
    auto admit_next = [&] {
        const int phys = free_slots_.back();
        Status st = admit(lane.admitted.load(std::memory_order_relaxed), phys);
        if (st.ok()) free_slots_.pop_back();
        return st;
    };
    auto more = [&] { return lane.admitted.load(std::memory_order_relaxed) < groups_; };
    clear_local(0, std::min(groups_, capacity_));
    while (result.ok() && more() && !free_slots_.empty()) result = admit_next();
    while (result.ok()) {
        if (ctl_ && ctl_->abandon.load(std::memory_order_relaxed)) break;
        CoreSlot* s;
        bool round = false;
        {
            std::unique_lock lk(mu_, std::defer_lock);
            s = pick(active, lk, &round);
        }
        if (!s) {
            if (any_blocked()) result = {err::kKernelDeadlock, deadlock_report()};
            break;
        }
        if (round) round_begins(lane);
        s->state = CoreSlot::State::Runnable;
        resume(*s);
        count_turn(lane, *s);
        if (fault_) break;
        if (s->state == CoreSlot::State::Done) {
            const int phys = phys_of(s->core);
            if (group_done(phys)) {
                free_slots_.push_back(phys);
                retire(phys);
                if (more()) result = admit_next();
            }
        }
    }
    for (CoreSlot* s : active) {
        if (s->state != CoreSlot::State::Blocked) continue;
        s->unwind = true;
        resume(*s);
    }
    return result;
}

// Block g runs on physical core g % capacity once the block before it there
// finished (the order the serial schedule gives cores that do not wait for
// each other); host thread w runs the physical cores w, w + threads, ...
Status Launch::run_parallel(int threads) {
    threads_ = threads;
    run_on_workers(threads, [&](int w) { work(w, threads); });
    flush_prints(true);
    std::fflush(stdout);
    if (!admit_error_.ok()) return admit_error_;
    if (!deadlock_.empty() && !fault_) return {err::kKernelDeadlock, deadlock_};
    return {};
}

void Launch::work(int w, int threads) {
    install_crash_report();
    t_launch = this;
    Lane& lane = lanes_[w];
    const CoreSet& mine = lane.active;
    // The launch lock is taken only for cross-core state: a blocked core's
    // wait, a failed admission, and the idle and deadlock bookkeeping below.
    std::unique_lock lk(mu_, std::defer_lock);
    auto admit_block = [&](int g) {
        if (g >= groups_ || g * per_group_ >= fault_index_.load(std::memory_order_relaxed) ||
            admit_failed_.load(std::memory_order_relaxed))
            return;
        if (Status st = admit(g, g % capacity_); !st.ok()) {
            if (!lk.owns_lock()) lock_polling(lk);
            if (admit_error_.ok()) admit_error_ = st;
            admit_failed_.store(true);
            signalled();
        }
    };
    // Published after the next block on the same physical core was admitted,
    // so it never runs ahead of a core still to run.
    auto publish_low = [&] {
        lane.low.store(mine.empty() ? INT_MAX : (*mine.begin())->core.index);
        if (prints_waiting_.load() > 0) flush_prints(false);
    };
    for (int p = w; p < std::min(groups_, capacity_); p += threads) clear_local(p, 1);
    for (int p = w; p < std::min(groups_, capacity_); p += threads) admit_block(p);
    publish_low();
    for (;;) {
        if ((ctl_ && ctl_->abandon.load(std::memory_order_relaxed)) || admit_failed_.load(std::memory_order_relaxed))
            break;
        bool round = false;
        if (CoreSlot* s = pick(mine, lk, &round)) {
            s->state = CoreSlot::State::Runnable;
            if (lk.owns_lock()) lk.unlock();
            if (round) round_begins(lane);
            resume(*s);
            count_turn(lane, *s);
            if (s->state == CoreSlot::State::Done) {
                const int phys = phys_of(s->core), g = s->group;
                if (group_done(phys)) {
                    retire(phys);
                    admit_block(g + capacity_);
                    publish_low();
                }
            }
            continue;
        }
        // pick() returned with the launch lock held.
        if (mine.empty()) {
            ++finished_;
            if (current_idle_ > 0 && current_idle_ + finished_ == threads) {
                stuck_ = true;
                wake_.notify_all();
            }
            break;
        }
        // Nothing of ours can run: wait for a signal from another thread's
        // core. When every thread waits having seen the latest signal (or
        // finished), no core can progress.
        ++idle_;
        ++current_idle_;
        if (current_idle_ + finished_ == threads) {
            stuck_ = true;
            wake_.notify_all();
        }
        const uint64_t seen = generation_;
        while (!stuck_ && generation_ == seen && !admit_failed_.load() && !(ctl_ && ctl_->abandon.load()))
            wake_.wait_for(lk, std::chrono::milliseconds(20));
        if (stuck_) {
            // The first thread to get here describes the deadlock while
            // every core stands still.
            if (deadlock_.empty() && !fault_ && any_blocked()) deadlock_ = deadlock_report();
            --idle_;
            break;
        }
        --idle_;
    }
    if (lk.owns_lock()) lk.unlock();
    // Unwind this thread's cores that never finished (the others were never started).
    for (CoreSlot* s : mine) {
        if (s->state != CoreSlot::State::Blocked) continue;
        s->unwind = true;
        resume(*s);
    }
    if (w > 0) t_launch = nullptr;
}

// One line per run of consecutive cores in the same state, so a 48-core
// launch stuck at one call reads as one line: "  AIV block 0 .. AIV block 47<sep><what>".
std::string Launch::grouped_lines(const std::vector<std::pair<int, std::string>>& states, const char* sep) const {
    std::string out;
    size_t k = 0;
    while (k < states.size()) {
        size_t end = k + 1;
        while (end < states.size() && states[end].second == states[k].second &&
               states[end].first == states[end - 1].first + 1)
            ++end;
        std::string who = core_name(states[k].first);
        if (end - 1 > k) who += " .. " + core_name(states[end - 1].first);
        out += "\n  " + who + sep + states[k].second;
        k = end;
    }
    return out;
}

std::string Launch::progress() const {
    std::vector<std::pair<int, std::string>> states;
    each_active([&](int i, const CoreSlot& s) {
        if (s.state == CoreSlot::State::Done) return;
        const Core& c = s.core;
        std::string w;
        if (s.state == CoreSlot::State::Blocked) w = "blocked at " + s.wait_loc.str() + "; ";
        w += c.last_op ? std::string("last PTO call ") + c.last_op + " at " + c.last_loc.str()
                       : std::string("no PTO call yet");
        states.emplace_back(i, std::move(w));
    });
    std::ostringstream o;
    o << "kernel '" << spec_.kernel << "' (launched at " << spec_.site.str() << ", block_dim " << spec_.block_dim
      << ") has " << lane_sum(&Lane::retired) << " of " << groups_ << " blocks finished";
    if (const int admitted = lane_sum(&Lane::admitted); admitted < groups_) o << ", " << groups_ - admitted << " not started";
    o << "; unfinished cores:" << grouped_lines(states, ": ");
    return o.str();
}

std::string Launch::deadlock_report() const {
    std::ostringstream o;
    int64_t done = static_cast<int64_t>(lane_sum(&Lane::retired)) * per_group_, blocked = 0;
    const int64_t pending = static_cast<int64_t>(groups_ - lane_sum(&Lane::admitted)) * per_group_;
    std::vector<std::pair<int, std::string>> states;
    each_active([&](int i, const CoreSlot& s) {
        done += s.state == CoreSlot::State::Done;
        blocked += s.state == CoreSlot::State::Blocked;
        if (s.state == CoreSlot::State::Blocked) states.emplace_back(i, "waits at " + s.wait_loc.str() + ": " + s.describe());
    });
    o << "deadlock in kernel '" << spec_.kernel << "' (launched at " << spec_.site.str() << ", block_dim "
      << spec_.block_dim << ", " << soc_.name << "): no core can make progress; " << blocked << " blocked, " << done
      << " finished";
    if (pending) o << ", " << pending << " not started (waiting for a free core: blocks beyond the core count run in waves)";
    o << grouped_lines(states, " ") << "\n";
    if (!last_signals_.empty()) {
        // The last signal of each sending core, in core order (at most 8).
        o << "  last cross-core signal of each core that sent one:";
        int shown = 0;
        for (auto& [from, r] : last_signals_) {
            if (shown++ == 8) {
                o << "\n    ... and " << last_signals_.size() - 8 << " more cores";
                break;
            }
            o << "\n    " << r;
        }
        o << "\n";
    } else {
        o << "  no cross-core signal was sent in this launch\n";
    }
    o << "  fix: every wait needs a matching set on the producing pipe/core (set_flag/wait_flag, "
         "ffts_cross_core_sync/wait_flag_dev, set_intra_block/wait_intra_block)";
    return o.str();
}

Status run_launch(Device& d, const LaunchSpec& spec) { return run_launch(d, spec, nullptr); }

std::string launch_progress(LaunchControl& ctl) {
    std::lock_guard lk(ctl.mu);
    return ctl.live ? ctl.live->progress() : std::string();
}

namespace {

// PTO_SIM_DIGEST=<file>: after every launch, one line with a digest of the
// device memory (every aclrtMalloc block's bytes), to compare runs byte for
// byte, e.g. the serial schedule with several host threads. Blocks are
// hashed one by one (FNV-1a) and the (size, hash) pairs sorted, so the
// digest does not depend on where the host placed them.
void append_digest(Device& d, const LaunchSpec& spec, const Status& st) {
    static const char* path = std::getenv("PTO_SIM_DIGEST");
    if (!path || !*path) return;
    std::vector<std::pair<uint64_t, uint64_t>> blocks;
    {
        std::lock_guard lk(d.impl().mu);
        for (const auto& [base, a] : d.impl().allocations) {
            if (!a.device) continue;
            uint64_t h = 1469598103934665603ull;
            const auto* p = reinterpret_cast<const uint8_t*>(base);
            for (uint64_t i = 0; i < a.size; ++i) h = (h ^ p[i]) * 1099511628211ull;
            blocks.emplace_back(a.size, h);
        }
    }
    std::sort(blocks.begin(), blocks.end());
    uint64_t all = 1469598103934665603ull;
    for (auto [size, h] : blocks) all = ((all ^ size) * 1099511628211ull ^ h) * 1099511628211ull;
    static std::mutex mu;
    static uint64_t launches = 0;
    static bool failed = false;  // said once: the launches keep their status
    std::lock_guard lk(mu);
    char digest[17];
    std::snprintf(digest, sizeof digest, "%016llx", static_cast<unsigned long long>(all));
    const std::string line = "launch " + std::to_string(++launches) + " kernel '" + spec.kernel + "' status " +
                             std::to_string(st.code) + " device blocks " + std::to_string(blocks.size()) +
                             " digest " + digest + "\n";
    try {
        ptolab::common::append_file(path, line);
    } catch (const ptolab::common::WriteError& e) {
        if (!failed) std::fprintf(stderr, "ptosim: error: PTO_SIM_DIGEST: %s; later launches are not recorded\n", e.what());
        failed = true;
    }
}

}  // namespace

// A launch holds the device's cores alone until they all poll GM; then it
// moves to the background with its core types, and a launch of another
// stream on other core types may start (docs/semantics.md, "Launches on
// several streams"). Two launches never share a core type, so they never
// see each other's UB/L1/L0; each stream keeps its own order.
Status run_launch(Device& d, const LaunchSpec& spec, LaunchControl* ctl) {
    install_crash_report();
    Device::Impl& impl = d.impl();
    const unsigned types = spec.kind == KernelKind::Vec    ? ExecGate::kAiv
                           : spec.kind == KernelKind::Cube ? ExecGate::kAic
                                                           : ExecGate::kAic | ExecGate::kAiv;
    bool overlapping = false;
    auto dropped = [&]() -> Status {
        return {err::kStreamSyncTimeout,
                "kernel '" + spec.kernel + "' (launched at " + spec.site.str() + ") was dropped before it started"};
    };
    while (!impl.exec_mu.acquire_for(types, std::chrono::milliseconds(20), &overlapping))
        if (ctl && ctl->abandon.load()) return dropped();
    // Abandoned while it waited, and the cores came free just then: it never starts.
    if (ctl && ctl->abandon.load()) {
        impl.exec_mu.release(types, false);
        return dropped();
    }
    {
        std::lock_guard lk(impl.mu);
        impl.busy = &spec;
    }
    Status st;
    bool background = false;
    {
        Launch l(d, spec, ctl);
        l.set_device_share(types, overlapping);
        note_running_cores(l.core_count());
        if (ctl) {
            std::lock_guard lk(ctl->mu);
            ctl->live = &l;
        }
        st = check::begin(l);
        if (st.ok()) {
            cost::begin(l);
            st = check::end(l, l.run());
            cost::end(l, st);
        }
        if (ctl) {
            std::lock_guard lk(ctl->mu);
            ctl->live = nullptr;
        }
        note_running_cores(-l.core_count());
        background = l.in_background();
        if (background) {
            std::lock_guard lk(impl.mu);
            std::erase(impl.background, &l.spec());
        }
    }
    if (background) g_background_launches.fetch_sub(1);
    {
        std::lock_guard lk(impl.mu);
        if (impl.busy == &spec) impl.busy = nullptr;
    }
    append_digest(d, spec, st);
    impl.exec_mu.release(types, background);
    if (!st.ok()) {
        std::fprintf(stderr, "ptosim: error %d: %s\n", st.code, st.message.c_str());
        set_last_error(st.message);
    }
    return st;
}

}  // namespace ptosim

// exit, _exit, _Exit and quick_exit for every caller that binds to
// libptosim ahead of the C library (programs linked with -lptosim, and the
// kernel libraries they load): called from kernel code they report the
// kernel and end the process with a failure status; from host code they do
// what the C library does.
namespace {
template <class Fn>
Fn next_definition(const char* name) {
    return reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}
}  // namespace

extern "C" {
[[noreturn]] void exit(int status) noexcept {
    if (const ptosim::Core* c = ptosim::t_core) ptosim::report_exit_from_kernel(*c, "exit", status);
    static const auto real = next_definition<void (*)(int)>("exit");
    real(status);
    __builtin_unreachable();
}
[[noreturn]] void _exit(int status) noexcept {
    if (const ptosim::Core* c = ptosim::t_core) ptosim::report_exit_from_kernel(*c, "_exit", status);
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}
[[noreturn]] void _Exit(int status) noexcept {
    if (const ptosim::Core* c = ptosim::t_core) ptosim::report_exit_from_kernel(*c, "_Exit", status);
    syscall(SYS_exit_group, status);
    __builtin_unreachable();
}
[[noreturn]] void quick_exit(int status) noexcept {
    if (const ptosim::Core* c = ptosim::t_core) ptosim::report_exit_from_kernel(*c, "quick_exit", status);
    static const auto real = next_definition<void (*)(int)>("quick_exit");
    real(status);
    __builtin_unreachable();
}
}
