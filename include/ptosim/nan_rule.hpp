// Which NaN an arithmetic instruction gives when both its operands are NaNs:
// the first operand's, quieted. That is x86's rule for its own operand
// order; the device's is not documented (docs/semantics.md, "Element-wise
// instructions"). Written out because a compiler may swap the operands of
// a commutative `+` or `*`, and then the light and full paths of one
// instruction would keep different payloads.
#pragma once
#include <cstdint>
#include <cstring>

namespace ptosim {

// `r` is `a op b` computed in float: unchanged unless it is a NaN; then a's
// NaN quieted, else b's, else r (a NaN made from numbers: inf - inf, 0 * inf).
[[gnu::always_inline]] inline float first_nan(float r, float a, float b) {
    if (__builtin_expect(r == r, 1)) return r;
    const float n = a != a ? a : b != b ? b : r;
    uint32_t u;
    std::memcpy(&u, &n, 4);
    u |= 0x00400000u;
    float q;
    std::memcpy(&q, &u, 4);
    return q;
}

}  // namespace ptosim
