// A5's low-precision element types under bisheng's names, for ptolab's own
// PTO headers (both targets; the instructions that compute with them reject
// A2A3 at compile time) and A5's register layer. Not in the A2A3 executed
// build, whose pto-isa headers declare their own.
#pragma once
#include <ptosim/float8.hpp>

using float8_e4m3_t = ptosim::float8_e4m3;
using float8_e5m2_t = ptosim::float8_e5m2;
using hifloat8_t = ptosim::hifloat8;
using float8_e8m0_t = ptosim::float8_e8m0;
using float4_e2m1x2_t = ptosim::float4_e2m1x2;
using float4_e1m2x2_t = ptosim::float4_e1m2x2;
