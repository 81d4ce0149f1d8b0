// A5's unaligned moves between UB and vector registers
// (docs/intrinsics/a5-vreg.md, "Unaligned loads and stores"): vldus reads a
// register's 256 bytes from any UB byte address (after vldas primes the
// alignment register), vstus writes the first `count` elements at any
// address (vstas flushes the alignment register's tail).
#include <ptosim/cce_a5.hpp>

#include "../repeat.hpp"
#include "records.hpp"

#include <cstring>
#include <string>

namespace ptosim::cce::a5 {
namespace {
OpRecord record(const char* op, const SourceLoc& loc) {
    OpRecord r = vector_record(op, loc);
    return r;
}
}  // namespace

void vload_unaligned(const SourceLoc& loc, VReg& dst, uint64_t ub) {
    Core& c = core();
    check_local(c, Space::UB, ub, kVL, "vldus src", loc);
    OpRecord r = record("vldus", loc);
    r.bytes = kVL;
    r.read(Space::UB, ub, kVL);
    dispatch(c, r);
    std::memcpy(dst.b, c.mem[static_cast<int>(Space::UB)] + ub, kVL);
}

void vstore_unaligned(const SourceLoc& loc, const VReg& src, uint64_t ub, uint64_t bytes) {
    Core& c = core();
    if (bytes > uint64_t(kVL))
        fault(loc, "vstus of " + std::to_string(bytes) + " bytes: a register holds " + std::to_string(kVL));
    OpRecord r = record("vstus", loc);
    if (bytes > 0) {
        check_local(c, Space::UB, ub, bytes, "vstus dst", loc);
        r.bytes = bytes;
        r.write(Space::UB, ub, bytes);
    }
    dispatch(c, r);
    if (bytes > 0) std::memcpy(c.mem[static_cast<int>(Space::UB)] + ub, src.b, bytes);
}

void unaligned_step(const SourceLoc& loc, const char* op) { dispatch(core(), record(op, loc)); }

}  // namespace ptosim::cce::a5
