// The operand enumerations and constants A5's intrinsics take beyond the
// register layer's own (registers.hpp). Where the public documents give no
// numeric value the value is ptosim's own, read only by ptosim's intrinsics
// (docs/intrinsics/a5-vreg.md, "Operand enumerations").
#pragma once
#include <cce/operands.hpp>

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
enum cce_round_mode : int { CCE_ROUND_R = 0, CCE_ROUND_A, CCE_ROUND_F, CCE_ROUND_C, CCE_ROUND_Z, CCE_ROUND_O,
                            CCE_ROUND_H };
// Each constant is a value of a type of its own that converts to its
// enumeration, as bisheng's are: pto-isa builds operands from the types
// (`constexpr decltype(BRC_B16) v{};`, `decltype(ROUND_Z)()`), which with
// plain enumerators would value-initialise to the enumeration's zero.
template <class E, E V>
struct cce_literal {
    constexpr operator E() const { return V; }
};
inline constexpr cce_literal<cce_round_mode, CCE_ROUND_R> ROUND_R{};
inline constexpr cce_literal<cce_round_mode, CCE_ROUND_A> ROUND_A{};
inline constexpr cce_literal<cce_round_mode, CCE_ROUND_F> ROUND_F{};
inline constexpr cce_literal<cce_round_mode, CCE_ROUND_C> ROUND_C{};
inline constexpr cce_literal<cce_round_mode, CCE_ROUND_Z> ROUND_Z{};
inline constexpr cce_literal<cce_round_mode, CCE_ROUND_O> ROUND_O{};
inline constexpr cce_literal<cce_round_mode, CCE_ROUND_H> ROUND_H{};
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
enum PredStoreDist : int { PRED_DIST_PK = 0 };
inline constexpr cce_literal<PredStoreDist, PRED_DIST_PK> PK{};
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
