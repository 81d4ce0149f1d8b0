// The ACL subset (acl/acl.h, runtime/rt_ffts.h) as a thin layer over
// ptosim::Device. Every failure returns CANN's code and leaves a message for
// aclGetRecentErrMsg saying what was wrong, with which value, and what to do.
// Behaviour and the deliberate differences from CANN: docs/acl.md.
#include <acl/acl.h>
#include <runtime/rt_ffts.h>
#include <ptosim/check.hpp>
#include <ptosim/float16.hpp>
#include <ptosim/peers.hpp>
#include <ptosim/runtime.hpp>

#include "acl_internal.hpp"
#include "device_impl.hpp"
#include "hex.hpp"
#include "timing.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace ptosim::acl_impl {

using ptosim::Device;
using ptosim::Stream;

// runtime.hpp's err codes are returned to ACL callers unchanged, so the ones
// this file relies on must keep CANN's values.
static_assert(ptosim::err::kInvalidParam == 100000);
static_assert(ptosim::err::kUninitialized == 100001);
static_assert(ptosim::err::kRepeatInitialize == 100002);
static_assert(ptosim::err::kBadAlloc == 200000);
static_assert(ptosim::err::kMemoryFree == ACL_ERROR_RT_MEMORY_FREE);
static_assert(ptosim::err::kInvalidDevice == 107001);
static_assert(ptosim::err::kAiCoreException == 507015);
static_assert(ptosim::err::kVectorCoreException == 507035);

constexpr uint32_t kFftsCtrlBytes = 64;  // size of the control block device.cpp reserves
constexpr int kNoDevice = -1;

struct StreamInfo {
    int32_t id = 0;
    uint32_t flags = 0;
    uint64_t failure_mode = ACL_CONTINUE_ON_FAILURE;
    uint32_t overflow = 0, tag = 0, cache_op = 0;
};

// One context per device: aclrtGetCurrentContext hands out its address.
struct DeviceContext {
    int device;
};
DeviceContext g_contexts[1024];

struct State {
    std::mutex mu;
    bool initialized = false;  // by aclInit, or by an aclrtSetDevice before it
    bool init_called = false;  // aclInit itself
    bool device_active[1024] = {};  // indexed by device id; count is capped below
    int last_set_device = kNoDevice;
    std::map<Stream*, int> acl_streams;  // streams from aclrtCreateStream -> device id
    // What aclrtCreateStreamWithConfig and aclrtSetStreamAttribute set, per
    // created stream; the default stream's is `default_info`.
    std::map<Stream*, StreamInfo> stream_info;
    StreamInfo default_info;
    int32_t next_stream_id = 1;
};

State& state() {
    // Leaked like Device: stream threads may still run during static destruction.
    static State* s = new State();
    return *s;
}

thread_local int t_current_device = kNoDevice;

// fork() copies the runtime's memory but not its threads: a stream's worker
// does not exist in the child, so its first synchronisation would wait the
// whole timeout. A child of a process that called aclInit is refused at its
// first ACL call instead (docs/acl.md, "Processes"). The handler runs in the
// child, where a mutex another thread held at the fork stays locked, so it
// reads an atomic copy of State::initialized.
std::atomic<bool> g_initialized{false};
std::atomic<pid_t> g_forked_from{0};

void on_fork_child() {
    if (g_initialized.load()) g_forked_from.store(getppid());
}

void watch_forks() {
    static std::once_flag once;
    std::call_once(once, [] { pthread_atfork(nullptr, nullptr, on_fork_child); });
}

using ptolab::common::hex;

aclError fail(aclError code, std::string msg) {
    ptosim::set_last_error(std::move(msg));
    return code;
}

// Ranks an MPI launcher started on this host (docs/many-devices.md): each
// rank is one simulated device, so every rank may select the device of any
// rank on its host, as on an 8-device server. 0 outside a launcher.
uint32_t launcher_local_ranks() {
    for (const char* name : {"MPI_LOCALNRANKS", "OMPI_COMM_WORLD_LOCAL_SIZE", "PMI_SIZE", "OMPI_COMM_WORLD_SIZE"}) {
        const char* v = std::getenv(name);
        if (!v || !*v) continue;
        char* end = nullptr;
        const long n = std::strtol(v, &end, 10);
        if (end != v && *end == '\0' && n >= 1 && n <= 1024) return static_cast<uint32_t>(n);
    }
    return 0;
}

uint32_t device_count() {
    const char* v = std::getenv("PTO_SIM_DEVICE_COUNT");
    if (!v || !*v) {
        const uint32_t ranks = launcher_local_ranks();
        return ranks ? ranks : 1;
    }
    char* end = nullptr;
    errno = 0;
    long n = std::strtol(v, &end, 10);
    if (errno == 0 && end != v && *end == '\0' && n >= 1 && n <= 1024) return static_cast<uint32_t>(n);
    static bool warned = false;
    if (!warned) {
        warned = true;
        std::fprintf(stderr, "ptosim: warning: PTO_SIM_DEVICE_COUNT='%s' is not a whole number in 1..1024; using 1\n",
                     v);
    }
    return 1;
}

aclError check_device_id(const char* fn, int32_t id) {
    uint32_t n = device_count();
    if (id < 0 || static_cast<uint32_t>(id) >= n) {
        return fail(ACL_ERROR_RT_INVALID_DEVICEID,
                    std::string(fn) + ": device id " + std::to_string(id) + " does not exist; the simulator has " +
                        std::to_string(n) + " device(s), ids 0.." + std::to_string(n - 1) +
                        (launcher_local_ranks() ? " (one per rank the MPI launcher started on this host; set PTO_SIM_DEVICE_COUNT for more)" : " (set PTO_SIM_DEVICE_COUNT for more)"));
    }
    return ACL_SUCCESS;
}

aclError require_init(const char* fn) {
    if (std::string why = ptosim::forked_child_error(fn); !why.empty())
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, std::move(why));
    std::lock_guard lk(state().mu);
    if (!state().initialized)
        return fail(ACL_ERROR_UNINITIALIZE, std::string(fn) + ": ACL is not initialised; call aclInit(nullptr) first");
    return ACL_SUCCESS;
}

// Starts the runtime: the SoC chosen, fork watching on. Under s.mu.
aclError start_runtime(State& s, const char* fn) {
    (void)Device::get();  // reports a bad PTO_SIM_SOC now rather than at the first launch
    if (ptosim::Status st = ptosim::soc_env_status(); !st.ok()) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": " + st.message);
    s.initialized = true;
    g_initialized.store(true);
    watch_forks();
    return ACL_SUCCESS;
}

// Why the calling thread has no device context ("" when it has one). A
// thread that never set a device uses the device most recently set by any
// thread, so helper threads of a host program keep working.
std::string missing_context(const char* fn) {
    State& s = state();
    std::lock_guard lk(s.mu);
    if (!s.initialized) return std::string(fn) + ": ACL is not initialised; call aclInit(nullptr) first";
    if (t_current_device != kNoDevice && s.device_active[t_current_device]) return "";
    if (s.last_set_device != kNoDevice && s.device_active[s.last_set_device]) return "";
    return std::string(fn) + ": no device is set; call aclrtSetDevice(0) after aclInit and before using streams "
                             "or memory";
}

// Streams and memory need an initialised ACL and a device set by aclrtSetDevice.
aclError require_device(const char* fn) {
    if (std::string why = ptosim::forked_child_error(fn); !why.empty())
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, std::move(why));
    const std::string why = missing_context(fn);
    if (why.empty()) return ACL_SUCCESS;
    return fail(why.find("not initialised") != std::string::npos ? ACL_ERROR_UNINITIALIZE : ACL_ERROR_RT_CONTEXT_NULL, why);
}

// Where a pointer range lives, as far as the allocation registry knows.
struct Where {
    bool registered = false;  // inside some aclrtMalloc/aclrtMallocHost block
    bool device = false;
    uintptr_t base = 0;
    uint64_t size = 0;
};

Where locate(const void* p) {
    Where w;
    if (const std::optional<ptosim::Allocation> a = Device::get().find(p, 1)) {
        w.registered = true;
        w.device = a->device;
        w.base = a->base;
        w.size = a->size;
    }
    return w;
}

const char* kind_name(int kind) {
    switch (kind) {
    case ACL_MEMCPY_HOST_TO_HOST: return "ACL_MEMCPY_HOST_TO_HOST";
    case ACL_MEMCPY_HOST_TO_DEVICE: return "ACL_MEMCPY_HOST_TO_DEVICE";
    case ACL_MEMCPY_DEVICE_TO_HOST: return "ACL_MEMCPY_DEVICE_TO_HOST";
    case ACL_MEMCPY_DEVICE_TO_DEVICE: return "ACL_MEMCPY_DEVICE_TO_DEVICE";
    case ACL_MEMCPY_DEFAULT: return "ACL_MEMCPY_DEFAULT";
    default: return "an unknown kind";
    }
}

// Checks that [p, p+bytes) suits its role: `want_device` says whether the copy
// kind expects device memory there. Unregistered memory counts as host memory.
aclError check_side(const char* fn, const char* arg, const void* p, uint64_t bytes, bool want_device,
                    const char* kind) {
    Where w = locate(p);
    // Under the remote window transport a peer's window is reserved but not
    // mapped in this process (docs/many-devices.md, "Several hosts"): the
    // host's memmove would crash on it, so the call is refused instead.
    if (std::string peer = ptosim::remote_window_host_access(reinterpret_cast<uintptr_t>(p), bytes); !peer.empty()) {
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    std::string(fn) + ": " + arg + " range " + hex(p) + " + " + std::to_string(bytes) +
                        " bytes lies in " + peer + ", which this process (rank " +
                        std::to_string(ptosim::process_rank()) + " of " + std::to_string(ptosim::process_ranks()) +
                        ") does not map under the remote window transport (PTOLAB_HCCL_TRANSPORT=mpi, or ranks on "
                        "several hosts); copy to or from this rank's own window and let a kernel move the bytes "
                        "(TPUT, TGET, ...), use HCCL's host collectives (HcclSend/HcclRecv), or run the ranks on "
                        "one host with PTOLAB_HCCL_TRANSPORT=shm");
    }
    if (want_device && !w.device) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + arg + " " + hex(p) + " is not device memory, but kind is " + kind +
                        "; pass a pointer from aclrtMalloc or change the copy kind");
    }
    if (!want_device && w.device) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + arg + " " + hex(p) + " is device memory (aclrtMalloc block at " +
                        hex(reinterpret_cast<void*>(w.base)) + "), but kind is " + kind +
                        "; use a host buffer or change the copy kind");
    }
    if (w.registered) {
        uint64_t offset = reinterpret_cast<uintptr_t>(p) - w.base;
        if (bytes > w.size - offset) {
            return fail(ACL_ERROR_INVALID_PARAM,
                        std::string(fn) + ": " + arg + " range " + hex(p) + " + " + std::to_string(bytes) +
                            " bytes runs past the end of its " + (w.device ? "aclrtMalloc" : "aclrtMallocHost") +
                            " block (base " + hex(reinterpret_cast<void*>(w.base)) + ", " + std::to_string(w.size) +
                            " bytes, range starts at offset " + std::to_string(offset) +
                            "); reduce the count or allocate more");
        }
    }
    return ACL_SUCCESS;
}

aclError release(const char* fn, void* p, bool device, const void* caller) {
    const char* arg = device ? "devPtr" : "hostPtr";
    if (!p) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": " + arg + " is null; pass the pointer to free");
    Where w = locate(p);
    if (!w.registered) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + arg + " " + hex(p) +
                        " is not an allocated block: it was already freed (double free) or never came from " +
                        (device ? "aclrtMalloc" : "aclrtMallocHost"));
    }
    if (w.base != reinterpret_cast<uintptr_t>(p)) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + arg + " " + hex(p) + " points " +
                        std::to_string(reinterpret_cast<uintptr_t>(p) - w.base) + " bytes into the block at " +
                        hex(reinterpret_cast<void*>(w.base)) + "; free the pointer the allocation returned");
    }
    if (w.device != device) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + arg + " " + hex(p) + " was allocated with " +
                        (w.device ? "aclrtMalloc; free it with aclrtFree" : "aclrtMallocHost; free it with aclrtFreeHost"));
    }
    if (device) {
        // A captured model keeps the pointer and would use it at its next replay.
        if (const std::string user = graph_block_user(p, w.size); !user.empty())
            return fail(ACL_ERROR_RT_MEMORY_FREE,
                        std::string(fn) + ": " + arg + " " + hex(p) + " is used by " + user +
                            "; destroy the model first (aclmdlRIDestroy), or free the block after it");
    }
    ptosim::Status st = Device::get().release(p, device, caller);
    if (!st.ok()) return fail(st.code, std::string(fn) + ": " + st.message);
    return ACL_SUCCESS;
}

// How a block's size follows from the request.
enum class Padding { None, Align32, Align32Plus32 };

aclError allocate(const char* fn, const char* arg, void** out, size_t size, bool device, Padding pad) {
    if (!out) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": " + arg + " is null; pass the address of a void* to receive the block");
    *out = nullptr;
    if (size == 0)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": size is 0; request at least one byte");
    // The size is checked before it is rounded: SIZE_MAX rounded up wraps to
    // a tiny block. No host can back more than 2^47 bytes (the user address
    // space of x86-64 and AArch64), so larger requests fail here.
    constexpr size_t kMaxRequest = size_t{1} << 47;
    if (size > kMaxRequest)
        return fail(ACL_ERROR_BAD_ALLOC, std::string(fn) + ": size " + std::to_string(size) +
                                             " bytes exceeds the 2^47 bytes (128 TiB) any simulated block can have; "
                                             "check the size computation for an overflow or a negative value");
    // aclrtMalloc rounds the size up to a multiple of 32 bytes and adds 32
    // (CANN aclrtMallocAlign32 page, which contrasts itself with it): a DMA
    // burst may run into those bytes, and kernels' 32-byte bursts do.
    const size_t bytes = pad == Padding::None ? size : (size + 31) / 32 * 32 + (pad == Padding::Align32Plus32 ? 32 : 0);
    void* p = Device::get().allocate(bytes, device, size);
    if (!p) {
        return fail(ACL_ERROR_BAD_ALLOC, std::string(fn) + ": out of host memory allocating " + std::to_string(size) +
                                             " bytes; the simulator backs " + (device ? "device" : "host") +
                                             " memory with host RAM, so reduce the size");
    }
    *out = p;
    return ACL_SUCCESS;
}

aclError check_policy(const char* fn, aclrtMemMallocPolicy policy) {
    constexpr uint32_t kFlags =
        ACL_MEM_TYPE_LOW_BAND_WIDTH | ACL_MEM_TYPE_HIGH_BAND_WIDTH | ACL_MEM_ACCESS_USER_SPACE_READONLY;
    uint32_t p = static_cast<uint32_t>(policy);
    if ((p & ~kFlags) > ACL_MEM_MALLOC_HUGE1G_ONLY_P2P) {
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": policy " + std::to_string(p) +
                                                 " is not an aclrtMemMallocPolicy; use ACL_MEM_MALLOC_HUGE_FIRST");
    }
    return ACL_SUCCESS;
}

// Translates a synchronisation outcome into an ACL return on this thread
// (launch errors were recorded on the stream's worker thread, not here).
aclError sync_result(const char* fn, const ptosim::Status& st) {
    if (st.ok()) return ACL_SUCCESS;
    aclError code = st.code == ptosim::err::kStreamSyncTimeout ? ACL_ERROR_RT_STREAM_SYNC_TIMEOUT : st.code;
    return fail(code, std::string(fn) + ": " + st.message);
}

aclError resolve_stream(const char* fn, aclrtStream stream, Stream** out) {
    if (!stream) {
        *out = Device::get().default_stream();
        return ACL_SUCCESS;
    }
    auto* s = static_cast<Stream*>(stream);
    if (!Device::get().is_stream(s)) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": stream " + hex(stream) +
                        " is not a live stream (already destroyed, released by aclrtResetDevice, or never created); "
                        "pass a stream from aclrtCreateStream, or nullptr for the default stream");
    }
    *out = s;
    return ACL_SUCCESS;
}

// Releases what aclrtResetDevice/aclFinalize free on hardware: the streams
// created on that device. Called without the state lock held, because a
// stream's destructor waits for its queued launches.
void destroy_streams(const std::vector<Stream*>& streams) {
    for (Stream* s : streams) {
        graph_stream_released(s);
        sdma_stream_released(s);
        {
            State& st = state();
            std::lock_guard lk(st.mu);
            st.stream_info.erase(s);
        }
        (void)Device::get().destroy_stream(s);
    }
}

std::vector<Stream*> take_streams_locked(State& s, int device) {
    std::vector<Stream*> out;
    for (auto it = s.acl_streams.begin(); it != s.acl_streams.end();) {
        if (device == kNoDevice || it->second == device) {
            out.push_back(it->first);
            it = s.acl_streams.erase(it);
        } else {
            ++it;
        }
    }
    return out;
}

int current_device_locked(const State& s) {
    if (t_current_device != kNoDevice && s.device_active[t_current_device]) return t_current_device;
    if (s.last_set_device != kNoDevice && s.device_active[s.last_set_device]) return s.last_set_device;
    return kNoDevice;
}

// The checks aclrtMemcpy and aclrtMemcpyAsync share; `dst_dev` tells
// whether dst is device memory (initcheck learns what a copy wrote).
aclError check_copy(const char* fn, void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                    bool* dst_dev_out) {
    if (!dst) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": dst is null; pass the destination buffer");
    if (!src) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": src is null; pass the source buffer");
    if (count == 0)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": count is 0; pass the number of bytes to copy (at least 1)");
    if (count > destMax) {
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": count " + std::to_string(count) + " exceeds destMax " +
                                                 std::to_string(destMax) +
                                                 "; the copy would overrun dst, so pass dst's real capacity as "
                                                 "destMax or copy fewer bytes");
    }
    int k = static_cast<int>(kind);
    bool dst_dev = false, src_dev = false;
    switch (k) {
    case ACL_MEMCPY_HOST_TO_HOST: break;
    case ACL_MEMCPY_HOST_TO_DEVICE: dst_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_HOST: src_dev = true; break;
    case ACL_MEMCPY_DEVICE_TO_DEVICE: dst_dev = src_dev = true; break;
    case ACL_MEMCPY_DEFAULT:
        dst_dev = locate(dst).device;
        src_dev = locate(src).device;
        break;
    default:
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": kind " + std::to_string(k) +
                                                 " is not supported; use ACL_MEMCPY_HOST_TO_HOST (0), "
                                                 "HOST_TO_DEVICE (1), DEVICE_TO_HOST (2), DEVICE_TO_DEVICE (3) or "
                                                 "DEFAULT (4)");
    }
    if (aclError e = check_side(fn, "dst", dst, count, dst_dev, kind_name(k))) return e;
    if (aclError e = check_side(fn, "src", src, count, src_dev, kind_name(k))) return e;
    *dst_dev_out = dst_dev;
    return ACL_SUCCESS;
}

// The checks aclrtMemset and aclrtMemsetAsync share.
aclError check_fill(const char* fn, void* devPtr, size_t maxCount, size_t count, bool* is_dev_out) {
    if (!devPtr) return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": devPtr is null; pass the buffer to fill");
    if (count == 0)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": count is 0; pass the number of bytes to set (at least 1)");
    if (count > maxCount) {
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": count " + std::to_string(count) + " exceeds maxCount " +
                                                 std::to_string(maxCount) +
                                                 "; pass the buffer's real capacity as maxCount or set fewer bytes");
    }
    // ACL accepts host or device memory here; only the range is checked.
    bool is_dev = locate(devPtr).device;
    if (aclError e = check_side(fn, "devPtr", devPtr, count, is_dev, is_dev ? "device memory" : "host memory"))
        return e;
    *is_dev_out = is_dev;
    return ACL_SUCCESS;
}

}  // namespace ptosim::acl_impl

using namespace ptosim::acl_impl;

namespace ptosim {
std::string default_stream_context_error() {
    if (std::string why = forked_child_error("a launch on the default stream"); !why.empty()) return why;
    return missing_context("a launch on the default stream");
}

std::string forked_child_error(const char* fn) {
    const pid_t parent = acl_impl::g_forked_from.load();
    if (!parent) return "";
    return std::string(fn) + ": this process (pid " + std::to_string(getpid()) + ") was forked from pid " +
           std::to_string(parent) +
           " after aclInit, and ACL state does not survive fork: the parent's streams have no worker thread here "
           "and its device memory is a copy. Use ACL in the parent only, fork before aclInit, or start the child "
           "with exec (Python: multiprocessing's \"spawn\" start method)";
}
}  // namespace ptosim

extern "C" {

const char* aclGetRecentErrMsg(void) { return ptosim::last_error(); }

float aclFloat16ToFloat(aclFloat16 value) { return ptosim::half_bits_to_float(value); }
aclFloat16 aclFloatToFloat16(float value) { return ptosim::float_to_half_bits(value); }

aclError aclInit(const char* configPath) {
    if (std::string why = ptosim::forked_child_error("aclInit"); !why.empty())
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, std::move(why));
    State& s = state();
    std::lock_guard lk(s.mu);
    if (s.init_called)
        return fail(ACL_ERROR_REPEAT_INITIALIZE,
                    "aclInit: ACL is already initialised; call aclInit once per process (or aclFinalize first)");
    if (configPath && *configPath) {
        // The contents are not interpreted, but a missing file is a mistake CANN reports too.
        std::FILE* f = std::fopen(configPath, "rb");
        if (!f) {
            return fail(ACL_ERROR_INVALID_FILE, std::string("aclInit: cannot read configPath '") + configPath +
                                                    "': " + std::strerror(errno) +
                                                    "; pass an existing JSON file, or nullptr for no configuration");
        }
        std::fclose(f);
    }
    if (!s.initialized)
        if (aclError e = start_runtime(s, "aclInit")) return e;
    s.init_called = true;
    return ACL_SUCCESS;
}

aclError aclFinalize(void) {
    if (std::string why = ptosim::forked_child_error("aclFinalize"); !why.empty())
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, std::move(why));
    State& s = state();
    std::vector<Stream*> doomed;
    {
        std::lock_guard lk(s.mu);
        if (!s.initialized)
            return fail(ACL_ERROR_REPEAT_FINALIZE,
                        "aclFinalize: ACL is not initialised (never initialised, or already finalised); call "
                        "aclFinalize once after a successful aclInit");
        doomed = take_streams_locked(s, kNoDevice);
        for (bool& a : s.device_active) a = false;
        s.last_set_device = kNoDevice;
        s.initialized = false;
        s.init_called = false;
        g_initialized.store(false);
    }
    t_current_device = kNoDevice;
    destroy_streams(doomed);
    ptosim::check::gm_finalize();
    ptosim::cost::drop_all_from_l2();
    return ACL_SUCCESS;
}

// The device is the judge: CANN's runtime starts at the first aclrtSetDevice
// without aclInit (Huawei's MindStudio mspti samples set the device, create
// a context and a stream, and only then call aclInit; pto-isa's
// tprefetch_async testcase never calls it), so this one starts it too
// (docs/acl.md, "aclInit").
aclError aclrtSetDevice(int32_t deviceId) {
    if (std::string why = ptosim::forked_child_error("aclrtSetDevice"); !why.empty())
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, std::move(why));
    if (aclError e = check_device_id("aclrtSetDevice", deviceId)) return e;
    State& s = state();
    std::lock_guard lk(s.mu);
    if (!s.initialized)
        if (aclError e = start_runtime(s, "aclrtSetDevice")) return e;
    s.device_active[deviceId] = true;
    s.last_set_device = deviceId;
    t_current_device = deviceId;
    return ACL_SUCCESS;
}

aclError aclrtResetDevice(int32_t deviceId) {
    if (aclError e = require_init("aclrtResetDevice")) return e;
    if (aclError e = check_device_id("aclrtResetDevice", deviceId)) return e;
    State& s = state();
    std::vector<Stream*> doomed;
    {
        std::lock_guard lk(s.mu);
        if (!s.device_active[deviceId]) return ACL_SUCCESS;  // CANN tolerates resetting an unset device
        s.device_active[deviceId] = false;
        doomed = take_streams_locked(s, deviceId);
        if (s.last_set_device == deviceId) s.last_set_device = kNoDevice;
    }
    if (t_current_device == deviceId) t_current_device = kNoDevice;
    destroy_streams(doomed);
    ptosim::cost::drop_all_from_l2();
    // A default stream failed by a sync timeout is replaced, as a reset
    // gives the device a fresh default stream.
    Device& d = Device::get();
    if (Stream* def = d.default_stream(); def->failed()) (void)d.destroy_stream(def);
    return ACL_SUCCESS;
}

aclError aclrtGetDevice(int32_t* deviceId) {
    if (!deviceId)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDevice: deviceId is null; pass the address of an int32_t");
    if (aclError e = require_init("aclrtGetDevice")) return e;
    State& s = state();
    std::lock_guard lk(s.mu);
    int d = current_device_locked(s);
    if (d == kNoDevice)
        return fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetDevice: no device is set; call aclrtSetDevice first");
    *deviceId = d;
    return ACL_SUCCESS;
}

aclError aclrtGetDeviceCount(uint32_t* count) {
    if (!count)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetDeviceCount: count is null; pass the address of a uint32_t");
    *count = device_count();
    return ACL_SUCCESS;
}

const char* aclrtGetSocName(void) { return Device::get().soc().name; }

}  // extern "C"

namespace ptosim::acl_impl {
aclError create_stream(const char* fn, aclrtStream* stream, uint32_t flags) {
    if (!stream)
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": stream is null; pass the address of an aclrtStream to receive the handle");
    *stream = nullptr;
    if (aclError e = require_device(fn)) return e;
    Stream* st = Device::get().create_stream();
    State& s = state();
    {
        std::lock_guard lk(s.mu);
        s.acl_streams[st] = current_device_locked(s);
        StreamInfo info;
        info.id = s.next_stream_id++;
        info.flags = flags;
        s.stream_info[st] = info;
    }
    *stream = st;
    return ACL_SUCCESS;
}

// The info of a live stream (nullptr: the default stream), under the lock.
aclError stream_info(const char* fn, aclrtStream stream, const std::function<void(StreamInfo&)>& f,
                     bool allow_default = true) {
    if (aclError e = require_device(fn)) return e;
    Stream* st = nullptr;
    if (aclError e = resolve_stream(fn, stream, &st)) return e;
    State& s = state();
    std::lock_guard lk(s.mu);
    if (!stream) {
        if (!allow_default)
            return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": the default stream (nullptr) takes no failure "
                                                               "mode, as in CANN; create a stream with "
                                                               "aclrtCreateStream or aclrtCreateStreamWithConfig");
        f(s.default_info);
        return ACL_SUCCESS;
    }
    auto it = s.stream_info.find(st);
    if (it == s.stream_info.end())
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": stream " + hex(stream) +
                                                 " is not a stream of ACL (aclrtCreateStream, "
                                                 "aclrtCreateStreamWithConfig)");
    f(it->second);
    return ACL_SUCCESS;
}
}  // namespace ptosim::acl_impl

extern "C" {

aclError aclrtCreateStream(aclrtStream* stream) { return create_stream("aclrtCreateStream", stream, 0); }

aclError aclrtCreateStreamWithConfig(aclrtStream* stream, uint32_t /*priority: reserved in CANN*/, uint32_t flag) {
    const char* fn = "aclrtCreateStreamWithConfig";
    constexpr uint32_t known = ACL_STREAM_FAST_LAUNCH | ACL_STREAM_FAST_SYNC | ACL_STREAM_PERSISTENT | ACL_STREAM_HUGE |
                               ACL_STREAM_CPU_SCHEDULE | ACL_STREAM_DEVICE_USE_ONLY;
    if (stream) *stream = nullptr;
    if (flag & ~known) {
        char buf[160];
        std::snprintf(buf, sizeof buf, "flag 0x%x has bits 0x%x that are no ACL_STREAM_* flag", flag, flag & ~known);
        return fail(ACL_ERROR_INVALID_PARAM,
                    std::string(fn) + ": " + buf + "; or together ACL_STREAM_FAST_LAUNCH, ACL_STREAM_FAST_SYNC, "
                                                   "ACL_STREAM_HUGE, ACL_STREAM_DEVICE_USE_ONLY");
    }
    if (flag & (ACL_STREAM_PERSISTENT | ACL_STREAM_CPU_SCHEDULE))
        return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT,
                    std::string(fn) + ": " +
                        ((flag & ACL_STREAM_PERSISTENT) ? "ACL_STREAM_PERSISTENT (a stream bound to a model with "
                                                          "aclmdlRIBindStream)"
                                                        : "ACL_STREAM_CPU_SCHEDULE (AI CPU scheduling of queue models)") +
                        " is not simulated; capture the stream's work with aclmdlRICaptureBegin instead "
                        "(docs/acl.md)");
    return create_stream(fn, stream, flag);
}

aclError aclrtStreamGetId(aclrtStream stream, int32_t* streamId) {
    if (!streamId)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamGetId: streamId is null; pass the address of an int32_t");
    return stream_info("aclrtStreamGetId", stream, [&](StreamInfo& i) { *streamId = i.id; });
}

aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t* flags) {
    if (!flags) return fail(ACL_ERROR_INVALID_PARAM, "aclrtStreamGetFlags: flags is null; pass the address of a uint32_t");
    return stream_info("aclrtStreamGetFlags", stream, [&](StreamInfo& i) { *flags = i.flags; });
}

aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr attr, aclrtStreamAttrValue* value) {
    const char* fn = "aclrtSetStreamAttribute";
    if (!value)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": value is null; pass an aclrtStreamAttrValue");
    switch (attr) {
    case ACL_STREAM_ATTR_FAILURE_MODE:
        if (value->failureMode > ACL_STOP_ON_FAILURE)
            return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": failureMode " +
                                                     std::to_string(value->failureMode) +
                                                     " is neither ACL_CONTINUE_ON_FAILURE (0) nor ACL_STOP_ON_FAILURE (1)");
        return stream_info(fn, stream, [&](StreamInfo& i) { i.failure_mode = value->failureMode; }, false);
    case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK:
    case ACL_STREAM_ATTR_CACHE_OP_INFO: {
        const uint32_t v = attr == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK ? value->overflowSwitch : value->cacheOpInfoSwitch;
        if (v > 1)
            return fail(ACL_ERROR_INVALID_PARAM,
                        std::string(fn) + ": " +
                            (attr == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK ? "overflowSwitch " : "cacheOpInfoSwitch ") +
                            std::to_string(v) + " is neither 0 (off) nor 1 (on)");
        return stream_info(fn, stream, [&](StreamInfo& i) {
            (attr == ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK ? i.overflow : i.cache_op) = v;
        });
    }
    case ACL_STREAM_ATTR_USER_CUSTOM_TAG:
        return stream_info(fn, stream, [&](StreamInfo& i) { i.tag = value->userCustomTag; });
    }
    return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": attribute " + std::to_string(static_cast<int>(attr)) +
                                             " is no aclrtStreamAttr (ACL_STREAM_ATTR_FAILURE_MODE 1 .. "
                                             "ACL_STREAM_ATTR_CACHE_OP_INFO 4)");
}

aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr attr, aclrtStreamAttrValue* value) {
    const char* fn = "aclrtGetStreamAttribute";
    if (!value)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": value is null; pass an aclrtStreamAttrValue to fill");
    if (attr < ACL_STREAM_ATTR_FAILURE_MODE || attr > ACL_STREAM_ATTR_CACHE_OP_INFO)
        return fail(ACL_ERROR_INVALID_PARAM, std::string(fn) + ": attribute " + std::to_string(static_cast<int>(attr)) +
                                                 " is no aclrtStreamAttr (ACL_STREAM_ATTR_FAILURE_MODE 1 .. "
                                                 "ACL_STREAM_ATTR_CACHE_OP_INFO 4)");
    *value = aclrtStreamAttrValue{};
    return stream_info(fn, stream, [&](StreamInfo& i) {
        switch (attr) {
        case ACL_STREAM_ATTR_FAILURE_MODE: value->failureMode = i.failure_mode; break;
        case ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK: value->overflowSwitch = i.overflow; break;
        case ACL_STREAM_ATTR_USER_CUSTOM_TAG: value->userCustomTag = i.tag; break;
        case ACL_STREAM_ATTR_CACHE_OP_INFO: value->cacheOpInfoSwitch = i.cache_op; break;
        }
    });
}

aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode) {
    if (mode > ACL_STOP_ON_FAILURE)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtSetStreamFailureMode: mode " + std::to_string(mode) +
                                                 " is neither ACL_CONTINUE_ON_FAILURE (0) nor ACL_STOP_ON_FAILURE (1)");
    return stream_info("aclrtSetStreamFailureMode", stream, [&](StreamInfo& i) { i.failure_mode = mode; }, false);
}

aclError aclrtGetCurrentContext(aclrtContext* context) {
    if (!context)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtGetCurrentContext: context is null; pass the address of an aclrtContext");
    *context = nullptr;
    if (aclError e = require_device("aclrtGetCurrentContext")) return e;
    State& s = state();
    std::lock_guard lk(s.mu);
    const int d = current_device_locked(s);
    if (d == kNoDevice)
        return fail(ACL_ERROR_RT_CONTEXT_NULL, "aclrtGetCurrentContext: no device is set; call aclrtSetDevice first");
    g_contexts[d].device = d;
    *context = &g_contexts[d];
    return ACL_SUCCESS;
}

aclError aclrtDestroyStream(aclrtStream stream) {
    if (!stream)
        return fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtDestroyStream: stream is null; the default stream cannot be destroyed, pass a stream from "
                    "aclrtCreateStream");
    if (aclError e = require_device("aclrtDestroyStream")) return e;
    auto* st = static_cast<Stream*>(stream);
    Device& d = Device::get();
    if (!d.is_stream(st) || st == d.default_stream()) {
        return fail(ACL_ERROR_INVALID_PARAM,
                    "aclrtDestroyStream: stream " + hex(stream) +
                        " is not a live stream from aclrtCreateStream (already destroyed, released by "
                        "aclrtResetDevice, or never created)");
    }
    {
        State& s = state();
        std::lock_guard lk(s.mu);
        s.acl_streams.erase(st);
        s.stream_info.erase(st);
    }
    sdma_stream_released(st);
    ptosim::Status r = d.destroy_stream(st);
    if (!r.ok()) return fail(r.code, "aclrtDestroyStream: " + r.message);
    return ACL_SUCCESS;
}

aclError aclrtSynchronizeStream(aclrtStream stream) {
    if (aclError e = require_device("aclrtSynchronizeStream")) return e;
    Stream* st = nullptr;
    if (aclError e = resolve_stream("aclrtSynchronizeStream", stream, &st)) return e;
    return sync_result("aclrtSynchronizeStream", st->synchronize(ptosim::default_sync_timeout_s()));
}

aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout) {
    if (aclError e = require_device("aclrtSynchronizeStreamWithTimeout")) return e;
    if (timeout == 0 || timeout < -1) {
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtSynchronizeStreamWithTimeout: timeout " + std::to_string(timeout) +
                                                 " ms is invalid; pass a positive number of milliseconds, or -1 to "
                                                 "wait without limit");
    }
    Stream* st = nullptr;
    if (aclError e = resolve_stream("aclrtSynchronizeStreamWithTimeout", stream, &st)) return e;
    if (timeout > 0)
        return sync_result("aclrtSynchronizeStreamWithTimeout", st->synchronize(timeout / 1000.0));
    // Waiting in bounded slices keeps the deadline arithmetic far from overflow.
    for (;;) {
        ptosim::Status r = st->synchronize(3600.0, Stream::OnTimeout::KeepQuietly);
        if (r.code != ptosim::err::kStreamSyncTimeout || st->failed())
            return sync_result("aclrtSynchronizeStreamWithTimeout", r);
    }
}

aclError aclrtMalloc(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    if (devPtr) *devPtr = nullptr;
    if (aclError e = require_device("aclrtMalloc")) return e;
    if (aclError e = check_policy("aclrtMalloc", policy)) return e;
    const aclError e = allocate("aclrtMalloc", "devPtr", devPtr, size, true, Padding::Align32Plus32);
    if (e == ACL_SUCCESS) ptosim::check::gm_allocated(*devPtr, size, __builtin_extract_return_addr(__builtin_return_address(0)));
    return e;
}

aclError aclrtMallocAlign32(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    if (devPtr) *devPtr = nullptr;
    if (aclError e = require_device("aclrtMallocAlign32")) return e;
    if (aclError e = check_policy("aclrtMallocAlign32", policy)) return e;
    const aclError e = allocate("aclrtMallocAlign32", "devPtr", devPtr, size, true, Padding::Align32);
    if (e == ACL_SUCCESS) ptosim::check::gm_allocated(*devPtr, size, __builtin_extract_return_addr(__builtin_return_address(0)));
    return e;
}

// aclrtMallocWithCfg: aclrtMalloc with attributes. The module id is
// recorded by CANN for its accounting and ignored here; a device id must be
// the current device's (ptosim simulates one device per process).
aclError aclrtMallocWithCfg(void** devPtr, size_t size, aclrtMemMallocPolicy policy, aclrtMallocConfig* cfg) {
    if (devPtr) *devPtr = nullptr;
    if (aclError e = require_device("aclrtMallocWithCfg")) return e;
    if (aclError e = check_policy("aclrtMallocWithCfg", policy)) return e;
    if (cfg && cfg->numAttrs && !cfg->attrs)
        return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocWithCfg: cfg names " + std::to_string(cfg->numAttrs) +
                                                 " attributes but cfg->attrs is null");
    for (size_t i = 0; cfg && i < cfg->numAttrs; ++i) {
        const aclrtMallocAttribute& a = cfg->attrs[i];
        if (a.attr == ACL_RT_MEM_ATTR_DEVICE_ID && a.value.deviceId != 0)
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocWithCfg: attribute " + std::to_string(i) + " asks for device " +
                                                     std::to_string(a.value.deviceId) +
                                                     "; each process simulates one device, 0");
        if (a.attr != ACL_RT_MEM_ATTR_MODULE_ID && a.attr != ACL_RT_MEM_ATTR_DEVICE_ID &&
            a.attr != ACL_RT_MEM_ATTR_RSV)
            return fail(ACL_ERROR_INVALID_PARAM, "aclrtMallocWithCfg: attribute " + std::to_string(i) + " has type " +
                                                     std::to_string(static_cast<int>(a.attr)) +
                                                     ", which ptolab does not know (module id, device id)");
    }
    const aclError e = allocate("aclrtMallocWithCfg", "devPtr", devPtr, size, true, Padding::Align32Plus32);
    if (e == ACL_SUCCESS) ptosim::check::gm_allocated(*devPtr, size, __builtin_extract_return_addr(__builtin_return_address(0)));
    return e;
}

aclError aclrtMallocCached(void** devPtr, size_t size, aclrtMemMallocPolicy policy) {
    if (devPtr) *devPtr = nullptr;
    if (aclError e = require_device("aclrtMallocCached")) return e;
    if (aclError e = check_policy("aclrtMallocCached", policy)) return e;
    const aclError e = allocate("aclrtMallocCached", "devPtr", devPtr, size, true, Padding::Align32Plus32);
    if (e == ACL_SUCCESS) ptosim::check::gm_allocated(*devPtr, size, __builtin_extract_return_addr(__builtin_return_address(0)));
    return e;
}

aclError aclrtMallocHost(void** hostPtr, size_t size) {
    if (hostPtr) *hostPtr = nullptr;
    if (aclError e = require_device("aclrtMallocHost")) return e;
    return allocate("aclrtMallocHost", "hostPtr", hostPtr, size, false, Padding::None);
}

aclError aclrtFree(void* devPtr) {
    if (aclError e = require_device("aclrtFree")) return e;
    const Where w = devPtr ? locate(devPtr) : Where{};
    const aclError e = release("aclrtFree", devPtr, true, __builtin_extract_return_addr(__builtin_return_address(0)));
    if (e == ACL_SUCCESS) {
        ptosim::check::gm_freed(devPtr);
        ptosim::cost::drop_from_l2(w.base, w.size);  // what a prefetch left of the block (docs/cost-model.md)
    }
    return e;
}

aclError aclrtFreeHost(void* hostPtr) {
    if (aclError e = require_device("aclrtFreeHost")) return e;
    return release("aclrtFreeHost", hostPtr, false, nullptr);
}

aclError aclrtMemcpy(void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind) {
    const char* fn = "aclrtMemcpy";
    if (aclError e = require_device(fn)) return e;
    if (aclError e = graph_unsafe_call(fn)) return e;
    bool dst_dev = false;
    if (aclError e = check_copy(fn, dst, destMax, src, count, kind, &dst_dev)) return e;
    std::memmove(dst, src, count);  // memmove: a DEVICE_TO_DEVICE copy may overlap within one block
    if (dst_dev) ptosim::check::gm_host_write(dst, count);
    return ACL_SUCCESS;
}

aclError aclrtMemset(void* devPtr, size_t maxCount, int32_t value, size_t count) {
    const char* fn = "aclrtMemset";
    if (aclError e = require_device(fn)) return e;
    if (aclError e = graph_unsafe_call(fn)) return e;
    bool is_dev = false;
    if (aclError e = check_fill(fn, devPtr, maxCount, count, &is_dev)) return e;
    std::memset(devPtr, static_cast<unsigned char>(value), count);
    if (is_dev) ptosim::check::gm_host_write(devPtr, count);
    return ACL_SUCCESS;
}

rtError_t rtGetC2cCtrlAddr(uint64_t* addr, uint32_t* len) {
    if (!addr || !len) {
        return fail(ACL_ERROR_RT_PARAM_INVALID, std::string("rtGetC2cCtrlAddr: ") + (!addr ? "addr" : "len") +
                                                    " is null; pass the address of a uint64_t for addr and of a "
                                                    "uint32_t for len");
    }
    *addr = Device::get().ffts_ctrl_addr();
    *len = kFftsCtrlBytes;
    return RT_ERROR_NONE;
}

// The runtime's device and stream calls pto-isa's comm tests make (they
// declare them themselves): the ACL calls underneath, ACL's codes.
rtError_t rtSetDevice(int32_t device) { return aclrtSetDevice(device); }
rtError_t rtStreamCreate(void** stream, int32_t /*priority*/) { return aclrtCreateStream(stream); }
rtError_t rtStreamDestroy(void* stream) { return aclrtDestroyStream(stream); }

}  // extern "C"
