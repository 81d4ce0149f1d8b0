// The operand enumerations and constants A5's intrinsics take beyond the
// register layer's own (registers.hpp). Where the public documents give no
// numeric value the value is ptosim's own, read only by ptosim's intrinsics
// (docs/intrinsics/a5-vreg.md, "Operand enumerations").
#pragma once
#include <cce/builtins.hpp>

#include <cstdint>

// Elements of one vector register (VL = 256 bytes) and VL itself.
#ifndef CCE_VL
#define CCE_VL 256
#endif
constexpr uint32_t ELE_CNT_B8 = 256, ELE_CNT_B16 = 128, ELE_CNT_B32 = 64;

// A local memory pointer qualifier of A5's scalar side buffer; only the
// (not yet simulated) FIFO instructions use it.
#define __ssbuf__ __attribute__((address_space(8)))

// vcvt's rounding, saturation and part selectors (CANN "Cast" in
// "Reg矢量计算"); the type-tag forms (RoundRType()...) live in __cce_simd.
// Named apart from pto-isa's own pto::RoundMode (TCVT's operand), which kernels
// see through `using namespace pto`.
enum cce_round_mode : int { ROUND_R = 0, ROUND_A, ROUND_F, ROUND_C, ROUND_Z, ROUND_O, ROUND_H };
enum SatMode : int { RS_DISABLE = 0, RS_ENABLE = 1, SAT_PART = 2, SAT_ROUND = 3 };
enum PartMode : int { PART_EVEN = 0, PART_ODD = 1, PART_P0 = 0x10, PART_P1, PART_P2, PART_P3 };
namespace __cce_simd {
struct RoundRType {};
struct RoundAType {};
struct RoundFType {};
struct RoundCType {};
struct RoundZType {};
struct RoundOType {};
}  // namespace __cce_simd

// ppack/punpack halves, predicate load/store distributions, the histogram
// bins of chistv2, and the special-purpose registers.
enum PackHalf : int { LOWER = 0, HIGHER = 1 };
enum PredStoreDist : int { PK = 0 };
enum HistBin : int { Bin_N0 = 0, Bin_N1 = 1 };
enum Spr : int { SPR_AR = 74 };

// pto-isa's SyncAll waits on a flag with its pipe named, A2A3's form without.
inline void wait_flag_dev(pipe_t, int64_t flag, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::intr::wait_flag_dev(ptosim_cce::here(w), flag);
}

// mem_bar's orderings between vector and scalar loads and stores
// (asc-devkit c_api/reg_compute/reg_vector.h, MEM_TYPE).
enum MemType : int { VV_ALL = 0, VST_VLD, VLD_VST, VST_VST, VS_ALL, VST_LD, VLD_ST, VST_ST, SV_ALL, ST_VLD, LD_VST,
                     ST_VST, SS_ALL, ST_LD, LD_ST, ST_ST };
// ptosim runs a vector function's instructions one after another in program
// order, so every ordering a barrier asks for already holds.
inline void mem_bar(MemType) {}
