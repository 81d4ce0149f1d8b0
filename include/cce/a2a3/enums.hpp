// The enumerations and scalar helpers CCE declares for A2A3 intrinsics'
// operands (docs/intrinsics/README.md, "Operand enumerations"). Where the
// public documents give no numeric value, the value is ptosim's own and only
// ptosim's intrinsics interpret it; each such list says so.
#pragma once
#include <cstdint>

typedef float float32_t;

// VA registers set_va_reg_sb fills and the scatter/transpose intrinsics read.
enum ub_addr8_t : int { VA0 = 0, VA1, VA2, VA3, VA4, VA5, VA6, VA7 };

// What vcmax/vcmin write per repeat: value and index, index and value, value
// only, index only; the values are the reference's 2-bit order field
// (docs/intrinsics/reduce.md).
enum Order_t : int { VALUE_INDEX = 0, INDEX_VALUE = 1, ONLY_VALUE = 2, ONLY_INDEX = 3 };

// Fixpipe quantisation modes (copy_matrix_cc_to_*): ptosim's numbering.
enum QuantMode_t : int {
    NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, DEQS16, VDEQS16, REQ8, VREQ8, SHIFTS322S16, VSHIFTS322S16,
    QF322B8_PRE, VQF322B8_PRE, QF322F16_PRE, VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE, QF322F32_PRE,
    VQF322F32_PRE, QF322FP8_PRE, VQF322FP8_PRE, QF322HIF8_PRE, VQF322HIF8_PRE, QS322BF16_PRE, VQS322BF16_PRE,
    QF162B8_PRE, VQF162B8_PRE, QF162S16_PRE, VQF162S16_PRE
};

// Padding mode of copy_gm_to_cbuf; atomic element type and operation of the
// scalar st_atomic path (set_st_atomic_cfg). ptosim's numbering.
enum pad_t : int { PAD_NONE = 0, PAD_MODE1, PAD_MODE2, PAD_MODE3, PAD_MODE4, PAD_MODE5, PAD_MODE6, PAD_MODE7, PAD_MODE8 };
enum atomic_type_t : int { ATOMIC_NONE = -1, ATOMIC_F32 = 0, ATOMIC_F16, ATOMIC_S16, ATOMIC_S32, ATOMIC_S8, ATOMIC_BF16 };
enum atomic_op_t : int { ATOMIC_SUM = 0, ATOMIC_MAX, ATOMIC_MIN };

// The value of an immediate operand: the scalar itself on the simulator.
inline int64_t get_imm(int64_t v) { return v; }
