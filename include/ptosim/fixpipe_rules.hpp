// The fixpipe's per-element rules on A2A3 and A5, shared by ptolab's own
// quantising moves (pto/inst/fixpipe.hpp) and the executed-pto-isa build's
// copy_matrix_cc_to_* (src/sim/cce/fixpipe.cpp), so that both convert alike
// (docs/isa/fixpipe.md, docs/intrinsics/fixpipe.md).
#pragma once
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace ptosim::fixrule {

// One 64-bit quantisation parameter (QUANT_PRE, or one FB entry): the scale
// M1 is bits [31:13], a float with its 13 low mantissa bits dropped.
inline float quant_scale(uint64_t p) {
    const uint32_t b = static_cast<uint32_t>(p) & 0xffffe000u;
    float f;
    std::memcpy(&f, &b, 4);
    return f;
}

// A scaled value to 8 bits: nearest even, through an int16 step clamped to
// [-256, 255], then the offset of bits [45:37] and the range bit 46 picks
// (signed or unsigned); NaN gives 0. Returns the byte the unit writes
// (pto-isa's tmov_acc2mat and tstore_acc2gm goldens, qf2b8_pre).
inline uint8_t to_b8(float v, uint64_t p, bool relu) {
    const bool sign = (p >> 46) & 1;
    const float offset = static_cast<float>((p >> 37) & 0x1ff);
    const float q = std::clamp(std::nearbyint(v), -256.0f, 255.0f);
    float r = std::isnan(v) ? 0.0f : std::clamp(q + offset, sign ? -128.0f : 0.0f, sign ? 127.0f : 255.0f);
    if (relu) r = std::max(r, 0.0f);
    return static_cast<uint8_t>(static_cast<int>(r));
}

// int32 -> int16: shifted right by bits [35:32] + 1, saturated.
inline int16_t to_s16(int64_t x, uint64_t p, bool relu) {
    const int64_t r = std::clamp<int64_t>(x >> (((p >> 32) & 0xf) + 1), INT16_MIN, INT16_MAX);
    return static_cast<int16_t>(relu ? std::max<int64_t>(r, 0) : r);
}

// A scaled result bound for half saturates to half's range.
inline float saturate_half(float v) { return std::isnan(v) ? v : std::clamp(v, -65504.0f, 65504.0f); }

}  // namespace ptosim::fixrule
