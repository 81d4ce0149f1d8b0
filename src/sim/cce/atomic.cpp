// A2A3's scalar GM atomics (docs/intrinsics/atomic.md): set_st_atomic_cfg,
// st_atomic and ld_dev, which pto-isa's soft SyncAll and TNOTIFY build
// their cross-core counters on.
#include "repeat.hpp"

#include <ptosim/simt.hpp>
#include <ptosim/urma.hpp>

#include <string>

namespace ptosim::cce {
namespace {
using namespace detail;

OpRecord scalar_gm(const char* op, const SourceLoc& loc, const void* gm, int bytes, bool write) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::S;
    r.loc = loc;
    r.bytes = bytes;
    if (write) r.write(Space::GM, reinterpret_cast<uintptr_t>(gm), bytes);
    else r.read(Space::GM, reinterpret_cast<uintptr_t>(gm), bytes);
    r.atomic = true;
    return r;
}
}  // namespace

void set_st_atomic_cfg(const SourceLoc& loc, Dt d, int op) {
    Core& c = core();
    if (op < 0 || op > 2) fault(loc, "set_st_atomic_cfg: operation " + std::to_string(op) + " is not sum, max or min");
    OpRecord r;
    r.op = "set_st_atomic_cfg";
    r.pipe = Pipe::S;
    r.loc = loc;
    dispatch(c, r);
    c.vec.st_atomic_type = static_cast<uint8_t>(static_cast<int>(d) + 1);
    c.vec.st_atomic_op = static_cast<uint8_t>(op);
}

void st_atomic(const SourceLoc& loc, void* gm, uint64_t value_bits, int bytes) {
    Core& c = core();
    if (c.vec.st_atomic_type == 0) fault(loc, "st_atomic before set_st_atomic_cfg: no element type or operation set");
    const Dt d = static_cast<Dt>(c.vec.st_atomic_type - 1);
    if (size_of(d) != bytes)
        fault(loc, std::string("st_atomic: a ") + std::to_string(bytes) + "-byte value under set_st_atomic_cfg's " +
                       to_string(d));
    check_gm(gm, bytes, "st_atomic", loc);
    dispatch(c, scalar_gm("st_atomic", loc, gm, bytes, true));
    auto* p = static_cast<uint8_t*>(gm);
    // One lock serialises every atomic GM update of the launch's host threads.
    GmAtomicScope scope(c, true);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T v, old;
        std::memcpy(&v, &value_bits, sizeof(T));
        std::memcpy(&old, p, sizeof(T));
        const double a = to_double(old), b = to_double(v);
        T out = c.vec.st_atomic_op == 0 ? from_double<T>(a + b) : (c.vec.st_atomic_op == 1) == (b > a) ? v : old;
        std::memcpy(p, &out, sizeof(T));
    });
}

uint64_t ld_dev(const SourceLoc& loc, const void* gm, int bytes) {
    Core& c = core();
    check_gm(gm, bytes, "ld_dev", loc);
    dispatch(c, scalar_gm("ld_dev", loc, gm, bytes, false));
    // Let the other cores run before the read: kernels poll a counter with
    // ld_dev, and on one host thread a loop that never yields would starve
    // the cores that are to move it.
    yield_core(c, loc);
    uint64_t v = 0;
    GmAtomicScope scope(c, true);
    std::memcpy(&v, gm, bytes);
    return v;
}

// st_dev: a scalar store to GM that bypasses the data cache (pto-isa's URMA
// code rings doorbells and updates queue indices with it). A store to a URMA
// doorbell runs the channel's work queue entries (ptosim/urma.hpp).
void st_dev(const SourceLoc& loc, void* gm, uint64_t value_bits, int bytes) {
    Core& c = core();
    check_gm(gm, bytes, "st_dev", loc);
    dispatch(c, scalar_gm("st_dev", loc, gm, bytes, true));
    {
        GmAtomicScope scope(c, true);
        std::memcpy(gm, &value_bits, bytes);
    }
    urma::on_gm_store(c, loc, gm, bytes);
}

uint64_t atomic_rmw(const SourceLoc& loc, const char* name, void* gm, Dt d, uint64_t value_bits, int op) {
    Core& c = core();
    const int bytes = size_of(d);
    check_gm(gm, bytes, name, loc);
    OpRecord r = scalar_gm(name, loc, gm, bytes, true);
    // Inside a SIMT body the atomic is the vector pipe's, as the body is
    // (docs/intrinsics/a5-simt.md, "Records").
    if (simt_running(c)) r.pipe = Pipe::V;
    simt_note_atomic(gm, bytes);
    dispatch(c, r);
    yield_core(c, loc);
    auto* p = static_cast<uint8_t*>(gm);
    uint64_t old_bits = 0;
    GmAtomicScope scope(c, true);
    std::memcpy(&old_bits, p, bytes);
    with_type(d, [&](auto t) {
        using T = decltype(t);
        T v, old;
        std::memcpy(&v, &value_bits, sizeof(T));
        std::memcpy(&old, p, sizeof(T));
        T out;
        if constexpr (std::is_integral_v<T>) {
            // Integers wrap (an exact sum, then the element's width).
            out = op == 0 ? T(old + v) : op == 1 ? (v > old ? v : old) : (v < old ? v : old);
        } else {
            const double a = to_double(old), b = to_double(v);
            out = op == 0 ? from_double<T>(a + b) : (op == 1) == (b > a) ? v : old;
        }
        std::memcpy(p, &out, sizeof(T));
    });
    return old_bits;
}

}  // namespace ptosim::cce
