// The published per-instruction cost formulas as rows (the figures and their
// source are in cost_calibration_a2a3.inc and cost_calibration_a5.inc), shared
// by the simulator's cost model and bench/cost_calibration.cpp, which checks
// the model against them.
#pragma once
#include <cstdint>

namespace ptosim::cost::calibration {

// Element types the published tables name.
enum class Dt : uint8_t { None, Any, F32, F16, BF16, I8, HiF8, E4M3, E5M2, E1M2, E2M1, Other };

// A2A3: cycles = slope x valid elements + bias, per op, type and column class.
struct A2A3Row {
    const char* op;
    Dt dt;
    uint32_t cols;  // 0: any
    double slope, bias;
};
inline constexpr A2A3Row kA2A3[] = {
#include "cost_calibration_a2a3.inc"
};

// A5: per op, source and destination type, 1-D or 2-D run and variant.
enum class Kind : uint8_t { Linear, Nested };
struct A5Row {
    const char* op;
    Dt src, dst;
    bool two_d;
    const char* variant;
    Kind kind;
    double p0, p1, p2;
};
inline constexpr A5Row kA5[] = {
#include "cost_calibration_a5.inc"
};

}  // namespace ptosim::cost::calibration
