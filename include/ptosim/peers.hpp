// Many devices (docs/many-devices.md): what the simulator knows about the
// other ranks of a multi-rank program. Each rank is a process with one
// simulated device; libhccl maps the communicator's windows (HCCL's
// windowsIn/windowsOut) and registers them here, so that kernels may address
// a peer's window and the memory checks know whose memory an address is.
#pragma once
#include <ptosim/runtime.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace ptosim {

// This process's rank and the number of ranks, once a communicator exists
// (set by libhccl; rank 0 of 1 before). Reports of a multi-rank run start
// with rank_prefix(): "rank 3: ".
void set_process_rank(int rank, int ranks);
int process_rank();
int process_ranks();
std::string rank_prefix();

// A communicator window of rank `rank` mapped at [base, base + bytes) in this
// process: device memory the kernels of this rank may read and write
// (`rank` == process_rank()) or a peer's window. `kind` names it in reports
// ("windowsIn", "windowsOut"). Windows are not aclrtFree-able.
void register_window(void* base, uint64_t bytes, int rank, const char* kind);
void unregister_window(void* base);
// The address range every window of the communicator lies in (windows with
// unmapped gaps between them): an access there outside a window is a fault
// that names the nearest window and its rank.
void set_window_span(uintptr_t lo, uintptr_t hi);
void clear_window_span();
// "" when address a is not in the window span; else why an access to
// [a, a + bytes) is outside every window, naming the rank's window it missed.
std::string window_miss(uintptr_t a, uint64_t bytes);
// The rank whose window holds address a, or -1.
int window_rank(uintptr_t a);
// Whether a lies in the windows' span (no lock: the cost model asks for
// every GM access); the peer rank whose window holds a, or -1 when a is in
// no window or in this rank's own.
bool in_window_span(uintptr_t a);
int remote_peer(uintptr_t a);

// Simulated time across ranks (docs/cost-model.md, "Across ranks"): a table
// in the windows' shared header where a small write into a window (a
// signal, counter or flag: at most 64 bytes) leaves the simulated time, on
// the ranks' shared axis (us), at which it reached the window's memory; a
// core that observed such a value (a wait that ended, a spin that ended)
// does not go on before it. Per 4-byte word, the latest time wins. libhccl
// sets it under the shared memory transport (null clears).
void set_time_stamps(void* base, uint64_t bytes);
bool time_stamps();
void post_stamp(uintptr_t a, uint64_t bytes, double us);
// The latest time posted for a word of [a, a + bytes) (at most 64 words
// read), or -1 when none.
double read_stamp(uintptr_t a, uint64_t bytes);
// The cost model's side of it (no-ops without timing): a poll of GM by core
// c (poll_gm) starts a spin on that word, which ends at the core's next
// record that is not a poll, its time then held to the word's stamp;
// dsb after a dcci stamps the word (a plain store's flush); a wait that
// saw the words [gm, gm + bytes) it waited for (TWAIT, a true TTEST) holds
// the core to their stamp at once.
void timing_poll(Core& c, const void* gm);
void timing_publish(Core& c);
void timing_observed(Core& c, const void* gm, uint64_t bytes, const char* op, const SourceLoc& loc);

// Atomic GM updates (TSTORE with AtomicAdd, st_atomic, TNOTIFY) on memory
// shared between processes take this lock word too (it lives in the
// windows' shared mapping): ranks' atomic updates are never interleaved.
void set_shared_atomic_word(uint32_t* word);
bool shared_atomics();
void shared_atomic_lock();
void shared_atomic_unlock();

// The ranks' board: a slot per rank in the windows' shared header, where
// each rank says whether it runs, how many of its cores wait on another
// rank and on what, or that it left. A waiting core reads it to report a
// peer that died (its process is gone without leaving), a deadlock across
// ranks (every rank's every core waits, and nothing changed for
// PTO_COMM_DEADLOCK_S, default 2 s), and, in a timeout report, what every
// rank waits on. libhccl sets it when it maps the windows (`bytes` at
// `base`, room for 64 slots) and leaves it before unmapping.
void set_rank_board(void* base, uint64_t bytes, int rank, int ranks);
// The cores of the launches running in this process (run_launch adds a
// launch's cores when it starts and takes them away when it ends): a rank
// counts as all waiting only when every one of them waits, so a Cube launch
// waiting for a Vector launch that runs beside it is not a deadlock.
void note_running_cores(int delta);
void leave_rank_board();

// The remote window transport (docs/many-devices.md, "Several hosts"):
// each rank's windows are its own memory and a peer's window range is
// reserved but not mapped in this process. libhccl installs the operations
// that reach a peer (over MPI one-sided communication); while they are set,
// a checked GM access (check_gm, check_gm_bursts) to a peer's window
// fetches those bytes into a private page at the same address for the
// instruction, and the bytes the instruction changed go back to the peer
// before the core's next instruction, wait, atomic unlock or kernel end.
// A plain pointer into a peer's window faults on the unmapped page; the
// crash handler opens the page for it (remote_open_plain) or, when that
// fails, reports it (remote_window_fault).
struct RemoteOps {
    // Bytes [addr, addr + bytes) of rank `rank`'s window, read or written
    // and complete at the target when the call returns. False on failure.
    bool (*get)(int rank, uintptr_t addr, void* dst, uint64_t bytes);
    bool (*put)(int rank, uintptr_t addr, const void* src, uint64_t bytes);
    // The lock of atomic updates, held by one rank at a time.
    void (*lock)();
    void (*unlock)();
    // Lets MPI make progress on the peers' accesses to this rank's windows
    // (called by waits and polls).
    void (*progress)();
    // This rank's board slot (`bytes` at `slot`) written into every peer's board.
    void (*push_slot)(const void* slot, uint64_t bytes);
};
void set_remote_ops(const RemoteOps* ops);  // null: windows shared (or none)
bool remote_windows();
// check_gm found [a, a + bytes) in peer `rank`'s window: its bytes are
// fetched for the calling core's instruction (a fault at `loc` names the
// transport's failure).
void remote_open(const Core& c, uintptr_t a, uint64_t bytes, int rank, const SourceLoc& loc);
// Before any checked GM access of core c: the ranges earlier instructions
// opened go back first, so their writes reach the peers before whatever
// this access writes (a flag in this rank's own window, say).
void remote_settle(const Core& c);
// The pending ranges of the calling core go back to their peers (the
// instruction that opened them is over).
void remote_close_all(const Core& c);
// The crash handler's message when `addr` lies in a peer's window under the
// remote transport (`buf` filled, true); false otherwise.
bool remote_window_fault(uintptr_t addr, char* buf, size_t n);
// A plain pointer of core c's kernel touched `addr` in a peer's window under
// the remote transport (the crash handler, on the faulting access): the page
// is fetched and open until the core's next record or checked access, as a
// checked access's bytes are; true when `addr` is such an address. A failed
// transfer throws KernelFault.
bool remote_open_plain(const Core& c, uintptr_t addr);
// Host code's access to [a, a + bytes) (aclrtMemcpy, aclrtMemset): "" when
// it touches no peer's window under the remote transport; else which peer
// window and which of its bytes it touches, e.g. "rank 1's windowsIn
// [0x..., 0x...) (bytes 256..511 of the window)". Such memory is not mapped
// in this process, so the host cannot copy it.
std::string remote_window_host_access(uintptr_t a, uint64_t bytes);

// Waits on GM another rank writes (TWAIT, a spin with dcci): lets the other
// cores of the launch run, then backs off with short sleeps. Returns when
// ready() holds; faults at `loc` with describe() after the communication
// timeout (comm_timeout_s) naming the rank and core.
void wait_remote(Core& c, const SourceLoc& loc, const std::function<bool()>& ready,
                 const std::function<std::string()>& describe);
// The same wait outside a kernel (libhccl's CCU engine on a stream's
// worker): `who` names the waiter ("rank 0, CCU kernel ..."). Returns "" when
// ready() holds, else the report: the cross-rank deadlock (every rank
// waiting, nothing changing for PTO_COMM_DEADLOCK_S), a peer gone, or the
// communication timeout. `progress` (may be empty) runs between checks.
std::string wait_cross_rank(const std::string& who, const std::function<bool()>& ready,
                            const std::function<std::string()>& describe, const std::function<void()>& progress);
// Seconds a cross-rank wait may take: PTO_COMM_TIMEOUT_S, else half of
// PTO_SYNC_TIMEOUT_S (so that the wait's own report comes before the
// stream's synchronisation timeout).
double comm_timeout_s();

// A poll of GM another rank writes: dcci on GM (executed pto-isa code
// issues one before each volatile read of a signal) and a false TTEST. Lets
// the other cores run, backs off as a spin lasts, and reports a spin (polls
// with at most a few instructions between them) that outlasts
// comm_timeout_s; `how` says what polled ("a dcci before each read").
void poll_gm(const SourceLoc& loc, const void* gm, const char* how);
// The spin of core `c` ended with its kernel (launch.cpp).
void poll_ended(Core& c);

}  // namespace ptosim
