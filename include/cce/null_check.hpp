// Null-pointer comparisons in the executed-pto-isa build (docs/ptocc.md,
// "Local-memory addresses are never null").
//
// On the device a UB (or L1) pointer is an address in the core's local
// buffer, and address 0 is its first byte: pto-isa's kernels place tiles
// there (`TASSIGN(scratchTile, 0x0)` in every TPUT_ASYNC/TGET_ASYNC system
// test) and pto-isa's own code then checks the pointer against nullptr
// (`IsValidTmpBuffer`: `tmpBuf.addr != nullptr`) and expects it to pass.
// Over ptosim's CCE layer a local pointer is an offset in a GS-relative
// x86 address space whose null pointer is offset 0, so the same comparison
// would call the first byte of UB null.
//
// ptocc therefore rewrites `X == nullptr` and `X != nullptr` in the user's
// pto-isa headers to `::ptosim_cce::is_null(X)` and its negation
// (src/cc/bisheng_dialect.cpp). For every pointer outside local memory, and
// every other type comparable with nullptr, is_null is that comparison; a
// local-memory pointer is never null, since every value it can hold is an
// address of the buffer.
#pragma once

namespace ptosim_cce {

template <class T>
constexpr bool is_null(const T& value) {
    return value == nullptr;
}

// __ubuf__ and __cbuf__ (address space 256, cce/bisheng.hpp): an offset into
// the running core's local buffer, offset 0 included.
template <class T>
constexpr bool is_null(__attribute__((address_space(256))) T*) {
    return false;
}

}  // namespace ptosim_cce
