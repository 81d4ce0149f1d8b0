// Host-side simulator API: SoC profiles, the device, streams, launches and
// registered GM allocations. The ACL shim (acl/acl.h) is a thin C layer over it.
#pragma once
#include <ptosim/core.hpp>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptosim {

struct SocProfile {
    const char* name;
    Target target;
    int aic;  // Cube cores
    int aiv;  // Vector cores
    uint64_t ub, l1, l0a, l0b, l0c, bt, fb;  // local buffer bytes
    double clock_ghz;
    double gm_gbps;
    const char* source;
};

const std::vector<SocProfile>& soc_profiles();
// A profile by its name or by a CANN SoC name of the alias table (e.g.
// Ascend910_9599 -> Ascend950PR); nullptr when neither.
const SocProfile* find_soc(std::string_view name);

// CANN SoC names (bisheng's --cce-soc-version, tools/simulator/<SoC>) and the
// profile each selects (docs/drop-in.md, "SoC names").
struct SocAlias {
    const char* cann_name;
    const char* profile;
};
const std::vector<SocAlias>& soc_aliases();

// True once the process's SoC was chosen explicitly (PTO_SIM_SOC, or a
// loaded libruntime_camodel.so of the CANN-shaped root); a kernel library
// loaded later then does not choose it (docs/soc-profiles.md).
bool soc_pinned();
void pin_soc();

// Outcome of a launch or a synchronisation; code 0 is success.
struct Status {
    int code = 0;
    std::string message;
    bool ok() const { return code == 0; }
};

// Error codes shared with the ACL shim (values of CANN's acl_base.h).
namespace err {
constexpr int kInvalidParam = 100000;
constexpr int kUninitialized = 100001;
constexpr int kRepeatInitialize = 100002;
constexpr int kBadAlloc = 200000;
constexpr int kMemoryFree = 207002;  // a device block that cannot be freed yet
constexpr int kInvalidDevice = 107001;
constexpr int kContextNull = 107002;
constexpr int kStreamSyncTimeout = 507046;
constexpr int kAiCoreException = 507015;
constexpr int kVectorCoreException = 507035;
constexpr int kKernelDeadlock = 507016;  // reported as an AI core trap exception
}  // namespace err

struct LaunchSpec {
    std::string kernel;
    SourceLoc site;
    Target target = Target::A2A3;
    KernelKind kind = KernelKind::Vec;
    uint32_t block_dim = 1;
    std::function<void()> aic_body;  // Cube/Mix kernels
    std::function<void()> aiv_body;  // Vec/Mix kernels
    // The pointer arguments of the launch (ptocc's <<<>>> fills them in, one
    // entry per kernel argument, null for arguments that are not object
    // pointers): aclrtFree of a block one of them points into waits for the
    // launch, and ptocc launches refuse host memory (Stream::enqueue_error).
    std::vector<const void*> gm_args;
    // Made as a program for the device makes it (<<<>>>, and so ACL graph
    // replays and the simulated torch_npu): its GM can only be memory the
    // device maps, so an access to memory in no allocation faults (check_gm).
    // Launches built in C++ (run_launch with LaunchSpec bodies) run kernels on
    // plain host memory by design and are not judged so.
    bool device_program = false;
    // Set when the launch is a task of an ACL graph replay (aclmdlRIExecuteAsync):
    // "replay R of aclmdlRI 0x..., task i of n", named by the cost model's
    // trace and summary. A replay pays the fixed launch overhead once, on its
    // first kernel: the later ones have replay_tail set (docs/cost-model.md).
    std::string replay_note;
    uint64_t replay = 0;  // 1-based number of the replay in the process; 0 for a direct launch
    bool replay_tail = false;
};

class Stream;

struct Allocation {
    uintptr_t base;
    uint64_t size;    // the block, rounded as CANN rounds it (aclrtMalloc: to 32 bytes, plus 32)
    bool device;      // aclrtMalloc (true) or aclrtMallocHost (false)
    uint64_t requested = 0;  // the bytes the program asked for (<= size); 0: size
    // Bytes from base a kernel can reach without leaving ptosim's own memory:
    // a device block's mapping runs on past its end (docs/semantics.md,
    // "Faults and reports"); host and registered memory stop at size. 0: size.
    uint64_t reach = 0;
    // A communicator window of this rank (the rank) or of a peer mapped
    // here (docs/many-devices.md); -1: an ordinary block.
    int window_rank = -1;
    uint64_t asked() const { return requested ? requested : size; }
    uint64_t extent() const { return reach ? reach : size; }
};

class Device {
public:
    // The process's simulated device; its SoC: docs/soc-profiles.md.
    static Device& get();
    const SocProfile& soc() const { return *soc_; }
    Status select_soc(std::string_view name);  // only before the first launch

    Stream* default_stream();
    Stream* create_stream();
    Status destroy_stream(Stream* s);
    bool is_stream(const Stream* s) const;

    // `requested` (0: bytes) is what the program asked for, before rounding.
    void* allocate(uint64_t bytes, bool device, uint64_t requested = 0);
    // The allocation whose reach (Allocation::extent) holds address p, if any.
    std::optional<Allocation> find_reach(const void* p) const;
    // Releasing a device block first waits (up to the sync timeout) for
    // queued launches whose pointer arguments point into it. `caller` is the
    // code address that asked, named in later use-after-free reports.
    Status release(void* p, bool device, const void* caller = nullptr);
    // The allocation containing [p, p+bytes), if any.
    std::optional<Allocation> find(const void* p, uint64_t bytes = 1) const;

    // FFTS control block address handed out by rtGetC2cCtrlAddr.
    uint64_t ffts_ctrl_addr() const;

    struct Impl;
    Impl& impl() { return *impl_; }
    ~Device();

private:
    Device();
    const SocProfile* soc_;
    std::unique_ptr<Impl> impl_;
};

class Stream {
public:
    explicit Stream(Device& d);
    ~Stream();
    // Fails (nothing queued) once the stream has failed.
    Status enqueue_launch(LaunchSpec spec);
    // Queues a launch refused before it could run: in its turn it becomes
    // the stream's error, as if the launch had failed with `error`, so the
    // next synchronisation reports it after the errors of earlier launches.
    Status enqueue_error(Status error);
    // Queues host-side work (an asynchronous copy or memset, an event record
    // or wait) that runs on the stream's worker in order with its launches;
    // its error becomes the stream's like a launch's. `keep` lives until the
    // item ran or was dropped. `uses` are pointers into the device blocks the
    // work reads or writes: aclrtFree of such a block waits for it.
    Status enqueue_host(std::string what, std::function<Status()> fn, std::shared_ptr<void> keep = {},
                        std::vector<const void*> uses = {});
    // A launch queued with `keep` held until it ran or was dropped (a replay's
    // tasks keep their model's in-flight count).
    Status enqueue_launch(LaunchSpec spec, std::shared_ptr<void> keep);
    // One unit of work as a capture receives it instead of the queue.
    struct Work {
        LaunchSpec spec;             // a launch, when host is empty and refused is ok
        Status refused;              // a launch refused at its call (enqueue_error)
        std::string what;            // host work: what it is, for reports
        std::function<Status()> host;
    };
    // While set, the stream's work goes to `sink` (an ACL capture or task
    // update) instead of running; synchronize() is refused meanwhile.
    // `why` names the state for that refusal. Cleared with an empty sink.
    void divert(std::function<void(Work)> sink, std::string why);
    bool diverted() const;
    // What a timed-out synchronisation does besides returning the timeout
    // with a progress report: abandon the running kernel and fail the stream
    // (ACL, docs/acl.md), or leave it running (ptosim's C API, where a later
    // synchronisation may still wait for it), reporting on stderr or not.
    enum class OnTimeout { Abandon, Keep, KeepQuietly };
    // Waits until all queued work ran; returns the first error since the last
    // synchronisation, or a timeout status after timeout_s seconds.
    Status synchronize(double timeout_s, OnTimeout on_timeout = OnTimeout::Abandon);
    bool failed() const;
    struct Impl;

private:
    std::unique_ptr<Impl> impl_;
};

// Runs one launch synchronously on the calling thread (streams use this),
// its simulated cores spread over the host threads sim_threads allows.
Status run_launch(Device& d, const LaunchSpec& spec);

// Host threads a launch may run its cores on, overriding PTO_SIM_THREADS;
// 1 is the serial schedule, 0 returns to PTO_SIM_THREADS or the host's cores.
void set_sim_threads(int n);

// Seconds a synchronisation waits by default: PTO_SYNC_TIMEOUT_S, else 60.
double default_sync_timeout_s();

// Last error message of this thread, for aclGetRecentErrMsg.
void set_last_error(std::string msg);
const char* last_error();

}  // namespace ptosim
