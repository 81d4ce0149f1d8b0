// What the Cube-side intrinsic files share: a record, the bytes of a local
// buffer, element loads and stores, and the bounds check that names the
// intrinsic and its operand (docs/intrinsics/dma-cube.md).
#pragma once
#include <ptosim/cce_cube.hpp>
#include <ptosim/core.hpp>

#include <cstring>
#include <string>

namespace ptosim::cce::detail {

inline OpRecord cube_record(const char* op, Pipe pipe, const SourceLoc& loc, uint64_t bytes) {
    OpRecord r;
    r.op = op;
    r.pipe = pipe;
    r.loc = loc;
    r.bytes = bytes;
    return r;
}

inline uint8_t* local(Core& c, Space s) { return c.mem[static_cast<int>(s)]; }

// Faults unless [off, off + bytes) lies in the core's `s`; the message names
// the intrinsic and the operand ("load_cbuf_to_ca dst").
inline void bounds(const Core& c, Space s, uint64_t off, uint64_t bytes, const char* op, const char* role,
                   const SourceLoc& loc) {
    check_local(c, s, off, bytes, op, role, loc);  // the message is put together only when it faults
}

template <class T>
inline T ld(const uint8_t* p) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
}
template <class T>
inline void st(uint8_t* p, T v) {
    std::memcpy(p, &v, sizeof(T));
}

constexpr uint64_t kFractal = 512;  // bytes in an L0A/L0B fractal

// A5's MTE2_NZ_PARA, CHANNEL_PARA and the FMATRIX_B side's repeat and
// padding registers of a core (reset 0), kept beside the Core as A5's DMA
// loop registers are (src/sim/cce/a5/cube_dma.cpp).
void set_a5_cube_reg(const Core&, CubeReg, uint64_t);
uint64_t a5_cube_reg(const Core&, CubeReg);

}  // namespace ptosim::cce::detail
