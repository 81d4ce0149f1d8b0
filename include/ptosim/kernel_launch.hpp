// The runtime side of `kernel<<<block_dim, l2ctrl, stream>>>(args)` in
// sources built by ptocc. ptocc rewrites each launch site into
//   ::ptosim::cc::launch<PTOCC_TU_ID, site, __LINE__>("kernel", __FILE__,
//       [](auto&&... a) { kernel(a...); }, ::ptosim::cc::config(block_dim, l2ctrl, stream), args...)
// and compiles the translation unit once per core variant. The variant that
// runs host code (the primary) packs the arguments into a std::tuple and runs
// its own thunk on its cores; a mix launch fetches the other variant's thunk
// for the same site from the registry in libptosim, which loads that variant
// from the image embedded in the library on first use.
// Format and rules: docs/kernel-library-format.md.
#pragma once
#include <ptosim/runtime.hpp>
#include <ptosim/core.hpp>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <typeinfo>
#include <utility>

extern "C" {
// Stable C entry points, so variant objects never depend on C++ name mangling
// of the registry. `core` is a ptosim::CoreType value.
typedef void (*ptocc_thunk)(const void* packed_args);
void ptocc_register_thunk(uint64_t tu, uint32_t site, uint32_t line, const char* instance, int core, ptocc_thunk fn,
                          const char* signature);
void ptocc_register_image(uint64_t tu, int core, const unsigned char* data, size_t size, const char* origin);
void ptocc_unregister_image(uint64_t tu, int core, const unsigned char* data);
// Called when a translation unit ptocc built loads: its target (0 A2A3, 1 A5)
// and an address in it, which names its library. The first kernel library
// loaded may choose the simulated SoC (docs/soc-profiles.md, "Choosing the SoC").
void ptocc_register_library(int target, const void* address);
// A kernel defined in a translation unit ptocc built (the primary variant):
// its name, its unit's kind (__PTOCC_KIND__: 0 Vector-only, 1 Cube-only,
// 2 mix) and an address in its library. A launch from another translation
// unit runs the kernel on its own core type (docs/ptocc.md, "Kernel type").
void ptocc_register_kernel(const char* name, int kind, const void* address);
void ptocc_unregister_kernel(const char* name, int kind, const void* address);
// The kind of the kernel `name` (unqualified, no template arguments): the
// one defined in the library holding `address`, else the only one loaded;
// -1 when none is known or definitions of different kinds are.
int ptocc_kernel_kind(const char* name, const void* address);
}

#if defined(__PTOCC_KIND__) && __PTOCC_VARIANT__ == 0
namespace {
// Runs when the library (or program) holding this translation unit loads,
// before any of its launches. One per translation unit; the secondary variant,
// loaded at a mix kernel's first launch, does not register.
[[maybe_unused]] const bool ptocc_library_registered =
    (ptocc_register_library(__PTOCC_TARGET__, &ptocc_library_registered), true);
}  // namespace
#endif

namespace ptosim::cc {

// A GNU asm statement of kernel code, as ptocc rewrites it (docs/ptocc.md,
// "Device assembly"): CCE assembly cannot run on the host, so the idioms
// public kernels use are emulated and anything else stops the kernel with
// the statement's text and line rather than being skipped silently.
template <class... Out>
void device_asm(const char* file, int line, const char* text, Out&... outs) {
    std::string_view t(text);
    while (!t.empty() && (t.front() == ' ' || t.front() == '\t' || t.front() == '\n')) t.remove_prefix(1);
    while (!t.empty() && (t.back() == ' ' || t.back() == '\t' || t.back() == '\n' || t.back() == ';')) t.remove_suffix(1);
    if (t.empty() || t == "nop" || t == "NOP") return;
    if constexpr (sizeof...(Out) == 1) {
        if (t == "MOV %0, SYS_CNT") {
            ((outs = static_cast<std::remove_reference_t<Out>>(ptosim::sys_cnt(ptosim::core()))), ...);
            return;
        }
        if (t == "MOV %0, PC") {
            ((outs = std::remove_reference_t<Out>{}), ...);
            return;
        }
    }
    ptosim::fault(SourceLoc{file, line}, "device assembly is not simulated: asm(\"" + std::string(t) +
                                             "\"); ptosim runs 'nop', 'MOV %0, SYS_CNT' and 'MOV %0, PC' only. "
                                             "Use the PTO instructions or CCE intrinsics instead");
}

// Made by ptocc after each kernel definition (docs/ptocc.md, "Kernel
// type"): registers the kernel's name with its translation unit's kind while
// the library is loaded. The kind is a template argument, so that units of
// different kinds linked into one library do not share one definition.
template <int Kind>
struct KernelDefinition {
    const char* name;
    const void* library;
    KernelDefinition(const char* n, const void* lib) : name(n), library(lib) {
        ptocc_register_kernel(name, Kind, library);
    }
    ~KernelDefinition() { ptocc_unregister_kernel(name, Kind, library); }
};
#if defined(__PTOCC_KIND__) && __PTOCC_VARIANT__ == 0
#define PTOCC_KERNEL_DEFINITION(var, name)                                                       \
    [[maybe_unused]] static const ::ptosim::cc::KernelDefinition<__PTOCC_KIND__> var{name, \
                                                                                       &::ptocc_library_registered};
#else
#define PTOCC_KERNEL_DEFINITION(var, name)
#endif

// The name a launch site gives, without `::` qualification; empty when it
// has template arguments or is built by a macro (then the launching
// translation unit's kind stands).
inline std::string bare_kernel_name(std::string_view launched) {
    const size_t q = launched.rfind("::");
    if (q != std::string_view::npos) launched.remove_prefix(q + 2);
    for (char c : launched)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return {};
    return std::string(launched);
}

struct Config {
    uint32_t block_dim;
    const void* l2ctrl;  // accepted for source compatibility; the simulator has no L2 control
    void* stream;        // aclrtStream; null means the default stream
};
inline Config config(uint32_t block_dim, const void* l2ctrl, void* stream) { return {block_dim, l2ctrl, stream}; }
// A5 kernels that start SIMT vector functions pass the launch's dynamic UB
// bytes there instead (pto-isa's MSCATTER tests: `<<<1, (uint32_t)bytes,
// stream>>>`; CANN's aclrtFunctionGetAvailDynUbufPerBlock bounds it).
// ptosim gives every kernel its core's whole UB, so the count changes
// nothing; a template, so that a literal 0 stays unambiguous.
template <class D, std::enable_if_t<std::is_integral_v<D>, int> = 0>
inline Config config(uint32_t block_dim, D /*dyn_ubuf_bytes*/, void* stream) {
    return {block_dim, nullptr, stream};
}

// The other variant's thunk for a launch site, loading that variant if needed.
// `instance` is typeid(lambda).name(): a launch in a function template is one
// site with a lambda per instantiation, named alike in both variants.
// `signature` is typeid(packed tuple).name(); a mismatch is an error.
// `library` is an address in the launching library: the variant comes from
// the image that library embeds, never from another build of the same source.
Status find_variant(const void* library, uint64_t tu, uint32_t site, uint32_t line, const char* instance,
                    CoreType core, const char* signature, ptocc_thunk* out);
// Queues a rewritten launch on `stream`; errors go to stderr and aclGetRecentErrMsg.
void submit(LaunchSpec spec, void* stream);
void report_launch_error(const char* kernel, const char* file, uint32_t line, const std::string& message);
// A launch of a kernel defined in a translation unit of another kind that
// ptosim cannot run (a mix unit on either side): `defined` and `launching`
// are __PTOCC_KIND__ values. Out of line: the message is built in libptosim.
void report_cross_kind_launch(const char* kernel, const char* file, uint32_t line, int defined, int launching);

#if defined(PTOSIM_CCE)
// Over the CCE layer a kernel's GM parameters are __gm__ pointers, another
// address space than the host's: a host pointer argument converts to
// whichever pointer type the parameter has, as bisheng's launch passes it.
template <class P>
struct GmArgument {
    P* p;
    template <class U>
    operator U*() const { return (U*)p; }
};
template <class T>
decltype(auto) kernel_argument(const T& a) {
    if constexpr (std::is_pointer_v<T>) return GmArgument<std::remove_pointer_t<T>>{a};
    else return (a);
}
template <class F, class Tuple>
void thunk(const void* packed) {
    std::apply([](const auto&... a) { F{}(kernel_argument(a)...); }, *static_cast<const Tuple*>(packed));
}
#else
template <class F, class Tuple>
void thunk(const void* packed) {
    std::apply(F{}, *static_cast<const Tuple*>(packed));
}
#endif

// Registers a secondary variant's thunk while its shared object loads.
template <uint64_t Tu, uint32_t Site, uint32_t Line, CoreType Core, class F, class Tuple>
struct Registration {
    static inline const bool done = (ptocc_register_thunk(Tu, Site, Line, typeid(F).name(), static_cast<int>(Core),
                                                          &thunk<F, Tuple>, typeid(Tuple).name()),
                                     true);
};

#if defined(__PTOCC_KIND__)
inline constexpr KernelKind kBuildKind = __PTOCC_KIND__ == 0 ? KernelKind::Vec
                                         : __PTOCC_KIND__ == 1 ? KernelKind::Cube
                                                               : KernelKind::Mix;
inline constexpr Target kBuildTarget = __PTOCC_TARGET__ == 1 ? Target::A5 : Target::A2A3;
inline constexpr bool kSecondaryVariant = __PTOCC_VARIANT__ == 1;
#endif

template <uint64_t Tu, uint32_t Site, uint32_t Line, class F, class... A>
void launch(const char* name, const char* file, F, Config cfg, A&&... args) {
#if !defined(__PTOCC_KIND__)
    static_assert(sizeof(F) == 0, "kernel launch syntax needs a device build: pass --cce-aicore-arch to ptocc");
#else
    using Tuple = std::tuple<std::decay_t<A>...>;
    if constexpr (kSecondaryVariant) {
        // This variant's host code never runs; it only provides its thunk.
        (void)Registration<Tu, Site, Line, CoreType::AIV, F, Tuple>::done;
        (void)name, (void)file, (void)cfg, ((void)args, ...);
    } else {
        auto packed = std::make_shared<const Tuple>(std::forward<A>(args)...);
        LaunchSpec spec;
        spec.kernel = name;
        spec.site = SourceLoc{file, static_cast<int>(Line)};
        spec.target = kBuildTarget;
        spec.kind = kBuildKind;
#if __PTOCC_VARIANT__ == 0
        // A kernel defined in a translation unit of another kind (a
        // Vector-only kernel launched from a Cube-only unit) runs on its own
        // core type: its code was compiled for it.
        if (const std::string bare = bare_kernel_name(name); !bare.empty()) {
            const int defined = ptocc_kernel_kind(bare.c_str(), &::ptocc_library_registered);
            if (defined >= 0 && defined != __PTOCC_KIND__) {
                if (defined == 2 || kBuildKind == KernelKind::Mix) {
                    report_cross_kind_launch(name, file, Line, defined, __PTOCC_KIND__);
                    return;
                }
                spec.kind = defined == 0 ? KernelKind::Vec : KernelKind::Cube;
            }
        }
#endif
        spec.block_dim = cfg.block_dim;
        // Pointer arguments name the device blocks the launch uses, so that
        // aclrtFree of one waits for it, and let the launch refuse host
        // memory. Other arguments hold a null entry so that an entry's index
        // is the argument's position, which error messages name. void*
        // counts: a torch extension passes tensor.data_ptr().
        auto note_pointer = [&spec](const auto& a) {
            using P = std::decay_t<decltype(a)>;
            if constexpr (std::is_pointer_v<P> && !std::is_function_v<std::remove_pointer_t<P>>)
                // A C-style cast: it also leaves the __gm__ address space a
                // host launch of pto-isa's kernels may pass (tinsert_vec).
                spec.gm_args.push_back((const void*)(a));
            else
                spec.gm_args.push_back(nullptr);
        };
        std::apply([&](const auto&... a) { (note_pointer(a), ...); }, *packed);
        ptocc_thunk own = &thunk<F, Tuple>;
        std::function<void()> body = [own, packed] { own(packed.get()); };
        if (spec.kind == KernelKind::Vec) {
            spec.aiv_body = std::move(body);
        } else {
            spec.aic_body = std::move(body);
        }
#if __PTOCC_VARIANT__ == 0
        if constexpr (kBuildKind == KernelKind::Mix) {
            ptocc_thunk vec = nullptr;
            // An object with internal linkage in this translation unit, so
            // its address names the library this launch was built into.
            Status st = find_variant(&::ptocc_library_registered, Tu, Site, Line, typeid(F).name(), CoreType::AIV,
                                     typeid(Tuple).name(), &vec);
            if (!st.ok()) {
                report_launch_error(name, file, Line, st.message);
                return;
            }
            spec.aiv_body = [vec, packed] { vec(packed.get()); };
        }
#endif
        submit(std::move(spec), cfg.stream);
    }
#endif
}

}  // namespace ptosim::cc
