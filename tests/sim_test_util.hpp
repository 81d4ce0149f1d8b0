// Launch helpers for kernel tests: run a lambda as a vec, cube or mix kernel
// on the simulated device of the compiled target, synchronously.
//
// A kernel test includes the instruction headers it exercises
// (pto/inst/*.hpp) before this one, instead of pto/pto-inst.hpp: editing one
// instruction family then rebuilds only the tests that use it (docs/workflow.md,
// "Setting up"). Here comes the rest of what pto-inst.hpp gives kernels that
// every test uses (tiles, TASSIGN, the CCE intrinsics, TLOAD/TSTORE of vector
// tiles), and last the call-site macros, which must follow every instruction
// header: an instruction header included after this one does not compile.
#pragma once
#include <pto/common/type.hpp>
#include <pto/common/tile.hpp>
#include <pto/common/tassign.hpp>
#include <pto/common/intrinsics.hpp>
#include <pto/common/cce_builtins.hpp>
#include <pto/inst/tload_tstore.hpp>
#include <pto/call_sites.hpp>
#include <pto/common/constants.hpp>
#include <pto/common/debug.h>
#include "test_seed.hpp"
#include <ptosim/runtime.hpp>
#include <cstddef>
#include <functional>
#include <memory>
#include <type_traits>
#include <string>
#include <vector>

namespace testutil {

inline ptosim::Target compiled_target() { return PTOSIM_TARGET_A5 ? ptosim::Target::A5 : ptosim::Target::A2A3; }

inline void select_target_soc() {
    static const bool done = [] {
        auto st = ptosim::Device::get().select_soc(PTOSIM_TARGET_A5 ? "Ascend950PR" : "Ascend910B2");
        return st.ok();
    }();
    (void)done;
}

// Announces bytes a test wrote into the calling core's local buffer behind
// the simulator's back (an accumulator seeded with chosen values, which no
// instruction writes directly): a record of `pipe` writing them, so that the
// checkers judge what the kernel does with them afterwards. Name the pipe
// that reads them next (PIPE_FIX for L0C): the seed then stands for a
// producer that pipe is already ordered after.
inline void announce_seeded(ptosim::Pipe pipe, ptosim::Space space, uint64_t offset, uint64_t bytes,
                            const char* file = __builtin_FILE(), int line = __builtin_LINE()) {
    ptosim::OpRecord r;
    r.op = kSeedOp;
    r.pipe = pipe;
    r.loc = {file, line};
    r.write(space, offset, bytes);
    ptosim::dispatch(ptosim::core(), r);
}

// A kernel body the launch helpers below run and forget: a reference to the
// caller's callable, which outlives the synchronous launch. Taking
// std::function instead instantiated its handler, manager, cloning and
// destruction for every test lambda (a third of a kernel test unit's
// functions at -O0); a reference instantiates one small thunk per lambda
// (docs/testing.md, "Launch helpers take a reference"). An empty
// std::function or null pointer gives an empty reference, as nullptr does.
class body_ref {
public:
    body_ref() = default;
    body_ref(std::nullptr_t) {}
    template <class F>
        requires(!std::is_same_v<std::remove_cvref_t<F>, body_ref> && std::is_invocable_v<F&>)
    body_ref(F&& f) {  // NOLINT: implicit, as std::function's
        if constexpr (std::is_pointer_v<std::remove_cvref_t<F>> ||
                      std::is_same_v<std::remove_cvref_t<F>, std::function<void()>>) {
            if (!f) return;
        }
        using T = std::remove_reference_t<F>;
        if constexpr (std::is_function_v<T>) {
            fn_ = reinterpret_cast<void (*)()>(&f);
            call_ = &call_function<T>;
        } else {
            obj_ = const_cast<void*>(static_cast<const void*>(std::addressof(f)));
            call_ = &call_object<T>;
        }
    }
    explicit operator bool() const { return call_ != nullptr; }
    void operator()() const { call_(*this); }
    // An owning std::function that calls the referenced body (empty if this
    // is): valid while the body lives, which is the launch's duration.
    std::function<void()> function() const {
        if (!call_) return nullptr;
        return [r = *this] { r(); };
    }

private:
    template <class T>
    static void call_object(const body_ref& r) { (*static_cast<T*>(r.obj_))(); }
    template <class T>
    static void call_function(const body_ref& r) { reinterpret_cast<T*>(r.fn_)(); }
    void* obj_ = nullptr;
    void (*fn_)() = nullptr;
    void (*call_)(const body_ref&) = nullptr;
};

// A launch of the bodies as they are: an A2A3 Vector body starts with the
// mask mode and mask the last kernel on its core left.
inline ptosim::Status launch_bare(ptosim::KernelKind kind, uint32_t block_dim, body_ref aic, body_ref aiv,
                                  const char* name = "test_kernel") {
    select_target_soc();
    ptosim::LaunchSpec s;
    s.kernel = name;
    s.site = {__FILE__, __LINE__};
    s.target = compiled_target();
    s.kind = kind;
    s.block_dim = block_dim;
    s.aic_body = aic.function();
    s.aiv_body = aiv.function();
    return ptosim::run_launch(ptosim::Device::get(), s);
}

// The bodies tests launch stand for whole kernels, and an A2A3 vector kernel
// starts with set_mask_norm(); set_vector_mask(-1, -1) (synccheck reports
// one that does not). The state is set without the two calls so that tests
// of records, coverage and cycles see the body's instructions only.
inline std::function<void()> mask_initialised(std::function<void()> aiv) {
    if (!aiv || compiled_target() != ptosim::Target::A2A3) return aiv;
    return [body = std::move(aiv)] {
        ptosim::VectorState& v = ptosim::core().vec;
        v.mask[0] = v.mask[1] = ~uint64_t{0};
        v.counter = false;
        v.mode_set = v.mask_set = true;
        body();
    };
}

inline ptosim::Status launch(ptosim::KernelKind kind, uint32_t block_dim, body_ref aic, body_ref aiv,
                             const char* name = "test_kernel") {
    return launch_bare(kind, block_dim, aic, mask_initialised(aiv.function()), name);
}

inline ptosim::Status run_vec(body_ref body, uint32_t block_dim = 1) {
    return launch(ptosim::KernelKind::Vec, block_dim, nullptr, body);
}
inline ptosim::Status run_cube(body_ref body, uint32_t block_dim = 1) {
    return launch(ptosim::KernelKind::Cube, block_dim, body, nullptr);
}
inline ptosim::Status run_mix(body_ref aic, body_ref aiv, uint32_t block_dim = 1) {
    return launch(ptosim::KernelKind::Mix, block_dim, aic, aiv);
}

// Runs body as a one-block vector kernel that must fault; returns the
// launch's message, for tests that check what an error says.
template <class Body>
std::string fault_of(Body body) {
    ptosim::Status st = run_vec(body);
    if (st.ok()) return "(the kernel did not fail)";
    return st.message;
}

// Deterministic pseudo-random values (xorshift), so failures reproduce.
struct Rng {
    uint64_t s = 0x9e3779b97f4a7c15ull;
    uint64_t next() {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        return s;
    }
    double uniform(double lo, double hi) { return lo + (hi - lo) * static_cast<double>(next() >> 11) / 9007199254740992.0; }
    // A generator whose sequence depends on `salt`: one per operand of a test.
    static Rng salted(uint64_t salt) {
        Rng r;
        r.s ^= salt * 0x9e3779b97f4a7c15ull;
        return r;
    }
};

}  // namespace testutil
