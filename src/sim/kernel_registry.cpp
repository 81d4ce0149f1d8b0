// Part of libptosim: the registry behind include/ptosim/kernel_launch.hpp.
// Kernel libraries register their build target when they load, which may
// choose the simulated SoC (library_loaded). Secondary core variants arrive
// as shared-object images embedded in kernel libraries; the first mix launch
// that needs one loads it from memory (memfd_create + dlopen, RTLD_LOCAL),
// and its static initialisers register one thunk per launch site here.
// Images and thunks belong to the library that embedded them: two builds of
// one source (an A/B comparison) have the same translation-unit id, and a
// launch must run the secondary variant of its own library.
#include <ptosim/kernel_launch.hpp>

#include "device_impl.hpp"
#include "hex.hpp"
#include "launch_args.hpp"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

namespace ptosim::cc {
namespace {

struct SiteKey {
    uint64_t owner;  // Image::serial of the image the thunk came from
    uint64_t tu;
    uint32_t site, line;
    std::string instance;  // the launch lambda's type: one per template instantiation of the enclosing function
    int core;
    bool operator<(const SiteKey& o) const {
        return std::tie(owner, tu, site, line, instance, core) <
               std::tie(o.owner, o.tu, o.site, o.line, o.instance, o.core);
    }
};

struct SiteEntry {
    ptocc_thunk fn = nullptr;
    const char* signature = nullptr;
    bool ambiguous = false;  // two different thunks for one key (a launch macro expanded twice on one line)
};

struct Image {
    uint64_t serial = 0;  // unique for the life of the process, so a reloaded library never finds stale thunks
    const unsigned char* data = nullptr;
    size_t size = 0;
    std::string origin;
    void* handle = nullptr;
    std::string load_error;
};

// An image's key: the load address of the library that embeds it (which
// dladdr gives for the image bytes and for any address of the launching
// code), its translation unit and core type.
using ImageKey = std::tuple<uintptr_t, uint64_t, int>;

struct Registry {
    std::mutex mu;       // guards the maps
    std::mutex load_mu;  // serialises loading; not held with mu, because loading registers thunks
    std::map<SiteKey, SiteEntry> sites;
    std::map<ImageKey, Image> images;
    uint64_t next_serial = 1;
};

// The image whose static initialisers are running: dlopen runs them on the
// loading thread, so the thunks they register belong to it.
thread_local uint64_t t_loading_serial = 0;

uintptr_t library_base(const void* address) {
    Dl_info info{};
    return dladdr(address, &info) ? reinterpret_cast<uintptr_t>(info.dli_fbase) : 0;
}

Registry& registry() {
    static Registry* r = new Registry();  // leaked: kernels may launch during static destruction
    return *r;
}

// Writes the image to an anonymous file and dlopens it.
void* load_image(const Image& img, int core, std::string& error) {
    std::string name = "ptocc-" + std::string(to_string(static_cast<CoreType>(core))) + "-" + img.origin;
    int fd = static_cast<int>(memfd_create(name.c_str(), MFD_CLOEXEC));
    std::string path;
    if (fd < 0) {
        // Kernels without memfd support (or seccomp filters) still have a temp directory.
        const char* tmp = std::getenv("TMPDIR");
        path = std::string(tmp && *tmp ? tmp : "/tmp") + "/ptocc-variant-XXXXXX";
        fd = mkstemp(path.data());
        if (fd < 0) {
            error = std::string("cannot create a file for the variant image: ") + std::strerror(errno);
            return nullptr;
        }
    } else {
        path = "/proc/self/fd/" + std::to_string(fd);
    }
    size_t off = 0;
    while (off < img.size) {
        ssize_t n = write(fd, img.data + off, img.size - off);
        if (n <= 0) {
            error = std::string("cannot write the variant image: ") + std::strerror(errno);
            close(fd);
            return nullptr;
        }
        off += static_cast<size_t>(n);
    }
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!h) error = std::string("dlopen of the variant image failed: ") + dlerror();
    if (path.rfind("/proc/self/fd/", 0) != 0) {
        close(fd);
        unlink(path.c_str());
    } else if (!h) {
        close(fd);
    }
    // A loaded memfd image keeps its descriptor: the dynamic loader matches
    // objects by path, so a reused /proc/self/fd/N would hand back the
    // previously loaded variant instead of loading this one.
    return h;
}

}  // namespace

void report_cross_kind_launch(const char* kernel, const char* file, uint32_t line, int defined, int launching) {
    auto kind = [](int k) { return k == 2 ? "mix" : k == 0 ? "Vector-only" : "Cube-only"; };
    report_launch_error(kernel, file, line,
                        std::string("the kernel is defined in a ") + kind(defined) +
                            " translation unit and launched from a " + kind(launching) +
                            " one; ptosim runs a mix kernel's two variants only from the translation unit that "
                            "defines it: launch it from there (a host function in that source), or build both "
                            "sources for the same core type");
}

Status find_variant(const void* library, uint64_t tu, uint32_t site, uint32_t line, const char* instance,
                    CoreType core, const char* signature, ptocc_thunk* out) {
    Registry& r = registry();
    const ImageKey ikey{library_base(library), tu, static_cast<int>(core)};
    const char* variant = core == CoreType::AIV ? "Vector" : "Cube";
    for (int attempt = 0; attempt < 2; ++attempt) {
        Image img;
        {
            std::lock_guard lk(r.mu);
            auto im = r.images.find(ikey);
            if (im == r.images.end())
                return {err::kInvalidParam,
                        std::string("the ") + variant + " core variant of this mix kernel is not loaded (translation unit " +
                            ptolab::common::hex16(tu) +
                            "); build the library with ptocc from the objects ptocc produced, and do not strip the "
                            ".rodata.ptocc section"};
            const SiteKey key{im->second.serial, tu, site, line, instance, static_cast<int>(core)};
            auto it = r.sites.find(key);
            if (it != r.sites.end()) {
                if (it->second.ambiguous)
                    return {err::kInvalidParam,
                            "two launches expand to one site (a macro with a launch used twice on one line); put "
                            "each expansion on its own line"};
                if (std::strcmp(it->second.signature, signature) != 0)
                    return {err::kInvalidParam, std::string("the ") + variant +
                                                    " variant packs the arguments differently (" +
                                                    it->second.signature + " vs " + signature +
                                                    "); argument types must not depend on __DAV_CUBE__/__DAV_VEC__"};
                *out = it->second.fn;
                return {};
            }
            if (im->second.handle || !im->second.load_error.empty()) {
                if (!im->second.load_error.empty()) return {err::kInvalidParam, im->second.load_error};
                break;  // loaded, yet the site is missing
            }
            img = im->second;
        }
        std::lock_guard load(r.load_mu);
        std::string error;
        void* h = nullptr;
        {
            std::lock_guard lk(r.mu);
            auto im = r.images.find(ikey);
            if (im == r.images.end() || im->second.serial != img.serial || im->second.handle) continue;
        }
        t_loading_serial = img.serial;
        h = load_image(img, std::get<2>(ikey), error);
        t_loading_serial = 0;
        std::lock_guard lk(r.mu);
        auto im = r.images.find(ikey);
        if (im != r.images.end() && im->second.serial == img.serial) {
            im->second.handle = h;
            if (!h) im->second.load_error = "cannot load the " + std::string(variant) + " variant of " + img.origin + ": " + error;
        }
    }
    return {err::kInvalidParam,
            std::string("the ") + variant + " variant has no launch site #" + std::to_string(site) + " at line " +
                std::to_string(line) +
                "; both variants must contain the same launches, so keep launch sites outside "
                "#if __DAV_CUBE__/__DAV_VEC__ sections"};
}

void report_launch_error(const char* kernel, const char* file, uint32_t line, const std::string& message) {
    std::string m = "kernel '" + std::string(kernel) + "' launched at " + (file ? file : "?") + ":" +
                    std::to_string(line) + ": " + message;
    std::fprintf(stderr, "ptosim: error: %s\n", m.c_str());
    set_last_error(m);
}

// A library built for A5 runs without the user knowing SoC names: unless the
// SoC was chosen explicitly, the first kernel library loaded chooses its
// target's default profile. Later libraries and launches never change it; a
// launch for the other target is reported (Launch::prepare).
namespace {
void library_loaded(Target target, const std::string& library) {
    if (soc_pinned()) return;  // PTO_SIM_SOC (also an invalid one) or runtime_camodel
    (void)select_soc(Device::get(), target == Target::A5 ? "Ascend950PR" : "Ascend910B2",
                     "chosen for " + library + ", the first kernel library loaded (built for " + to_string(target) + ")",
                     true);
}
}  // namespace

void submit(LaunchSpec spec, void* stream) {
    Device& d = Device::get();
    if (!stream) {
        if (const std::string why = default_stream_context_error(); !why.empty()) {
            report_launch_error(spec.kernel.c_str(), spec.site.file, static_cast<uint32_t>(spec.site.line),
                                why + " (a device context is needed, as on CANN). The launch was not queued.");
            return;
        }
    }
    if (const std::string why = forked_child_error("a launch"); !why.empty()) {
        report_launch_error(spec.kernel.c_str(), spec.site.file, static_cast<uint32_t>(spec.site.line),
                            why + ". The launch was not queued.");
        return;
    }
    Stream* s = stream ? static_cast<Stream*>(stream) : d.default_stream();
    if (stream && !d.is_stream(s)) {
        char hex[32];
        std::snprintf(hex, sizeof hex, "%p", stream);
        report_launch_error(spec.kernel.c_str(), spec.site.file, static_cast<uint32_t>(spec.site.line),
                            std::string("stream ") + hex +
                                " is not a live stream (destroyed, released by aclrtResetDevice, or not an "
                                "aclrtStream); pass a stream from aclrtCreateStream, or nullptr for the default "
                                "stream. The launch was not queued.");
        return;
    }
    const std::string kernel = spec.kernel;
    const SourceLoc site = spec.site;
    // Checked at the launch, where the host pointer is still the caller's
    // argument: on a device the kernel would start and fault at the access.
    // The refusal still goes through the stream, so the synchronisation that
    // would have reported the fault reports it, in order.
    if (Status bad = check_launch_pointers(d, spec); !bad.ok()) {
        std::fprintf(stderr, "ptosim: error %d: %s\n", bad.code, bad.message.c_str());
        set_last_error(bad.message);
        if (Status st = s->enqueue_error(std::move(bad)); !st.ok())
            report_launch_error(kernel.c_str(), site.file, static_cast<uint32_t>(site.line),
                                st.message + " The launch was not queued.");
        return;
    }
    spec.device_program = true;
    if (Status st = s->enqueue_launch(std::move(spec)); !st.ok())
        report_launch_error(kernel.c_str(), site.file, static_cast<uint32_t>(site.line),
                            st.message + " The launch was not queued.");
}

}  // namespace ptosim::cc

extern "C" {

void ptocc_register_thunk(uint64_t tu, uint32_t site, uint32_t line, const char* instance, int core, ptocc_thunk fn,
                          const char* signature) {
    auto& r = ptosim::cc::registry();
    std::lock_guard lk(r.mu);
    auto [it, fresh] = r.sites.try_emplace({ptosim::cc::t_loading_serial, tu, site, line, instance, core});
    if (fresh) {
        it->second.fn = fn;
        it->second.signature = signature;
    } else if (it->second.fn != fn) {
        it->second.ambiguous = true;
    }
}

void ptocc_register_image(uint64_t tu, int core, const unsigned char* data, size_t size, const char* origin) {
    const uintptr_t base = ptosim::cc::library_base(data);
    auto& r = ptosim::cc::registry();
    std::lock_guard lk(r.mu);
    auto& img = r.images[{base, tu, core}];
    if (img.data == data && img.serial) return;  // the same library's constructor again
    img = {};
    img.serial = r.next_serial++;
    img.data = data;
    img.size = size;
    img.origin = origin ? origin : "?";
}

void ptocc_register_library(int target, const void* address) {
    Dl_info info{};
    std::string library = dladdr(address, &info) && info.dli_fname && *info.dli_fname ? info.dli_fname
                                                                                        : "a kernel library";
    ptosim::cc::library_loaded(target == 1 ? ptosim::Target::A5 : ptosim::Target::A2A3, library);
}

// Kernel definitions by name: (library base, kind) of each, counted, since
// one source built twice into one library registers twice.
namespace {
struct KernelDefinitions {
    std::mutex mu;
    std::map<std::string, std::map<std::pair<uintptr_t, int>, int>, std::less<>> by_name;
};
KernelDefinitions& kernel_definitions() {
    static KernelDefinitions* d = new KernelDefinitions();  // leaked: libraries unload during static destruction
    return *d;
}
}  // namespace

void ptocc_register_kernel(const char* name, int kind, const void* address) {
    if (!name) return;
    auto& d = kernel_definitions();
    std::lock_guard lk(d.mu);
    ++d.by_name[name][{ptosim::cc::library_base(address), kind}];
}

void ptocc_unregister_kernel(const char* name, int kind, const void* address) {
    if (!name) return;
    auto& d = kernel_definitions();
    std::lock_guard lk(d.mu);
    auto it = d.by_name.find(std::string_view(name));
    if (it == d.by_name.end()) return;
    auto e = it->second.find({ptosim::cc::library_base(address), kind});
    if (e != it->second.end() && --e->second == 0) it->second.erase(e);
    if (it->second.empty()) d.by_name.erase(it);
}

int ptocc_kernel_kind(const char* name, const void* address) {
    if (!name) return -1;
    auto& d = kernel_definitions();
    std::lock_guard lk(d.mu);
    auto it = d.by_name.find(std::string_view(name));
    if (it == d.by_name.end()) return -1;
    // One kind among the given definitions, else -1.
    auto only = [](auto first, auto last, auto keep) {
        int kind = -1;
        for (auto e = first; e != last; ++e) {
            if (!keep(e->first)) continue;
            if (kind >= 0 && kind != e->first.second) return -2;
            kind = e->first.second;
        }
        return kind;
    };
    const uintptr_t base = ptosim::cc::library_base(address);
    const auto& defs = it->second;
    int kind = only(defs.begin(), defs.end(), [base](const auto& k) { return k.first == base; });
    if (kind == -1) kind = only(defs.begin(), defs.end(), [](const auto&) { return true; });
    return kind < 0 ? -1 : kind;
}

void ptocc_unregister_image(uint64_t tu, int core, const unsigned char* data) {
    const uintptr_t base = ptosim::cc::library_base(data);
    auto& r = ptosim::cc::registry();
    std::lock_guard lk(r.mu);
    auto it = r.images.find({base, tu, core});
    if (it == r.images.end() || it->second.data != data) return;
    // The library is unloading: another may be mapped at its address next,
    // so its image and thunks are forgotten. A loaded secondary stays mapped
    // (with its descriptor, see load_image): a launch still queued from the
    // library may hold its thunks, and dlclose would let a later image
    // reuse the descriptor's path.
    const uint64_t serial = it->second.serial;
    r.images.erase(it);
    std::erase_if(r.sites, [serial](const auto& e) { return e.first.owner == serial; });
}

}  // extern "C"
