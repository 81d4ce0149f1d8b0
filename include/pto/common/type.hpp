// Qualifiers, enums and constants of the PTO-ISA API (docs/api.md lists the
// public header each name mirrors).
#pragma once
#include <cstdint>
#include <cstddef>
#include <cce/low_precision.hpp>
#include <cce/types.hpp>
#include <ptosim/float16.hpp>
#include <ptosim/float8.hpp>

// Memory-space qualifiers and entry attributes are bisheng keywords; on the
// simulator every address is a host address or a local-buffer offset.
#ifndef __gm__
#define __gm__
#endif
#ifndef __ubuf__
#define __ubuf__
#endif
#ifndef __cbuf__
#define __cbuf__
#endif
#ifndef __ca__
#define __ca__
#endif
#ifndef __cb__
#define __cb__
#endif
#ifndef __cc__
#define __cc__
#endif
#ifndef __fbuf__
#define __fbuf__
#endif
#ifndef __biasbuf__
#define __biasbuf__
#endif
#ifndef __global__
#define __global__
#endif
#ifndef __aicore__
#define __aicore__
#endif
#ifndef AICORE
#define AICORE
#endif
// Kernel-type attributes (CANN: __vector__, __cube__, __mix__(cube, vec));
// ptocc reads them to choose the cores a kernel built without a core-type
// suffix runs on (docs/ptocc.md, "Kernel type"). They compute nothing.
#ifndef __vector__
#define __vector__
#endif
#ifndef __cube__
#define __cube__
#endif
#ifndef __mix__
#define __mix__(cube, vec)
#endif
#ifndef KERNEL_TASK_TYPE_DEFAULT
// Ascend C's kernel-type setting (KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY)).
enum KernelMetaType {
    KERNEL_TYPE_AIV_ONLY,
    KERNEL_TYPE_AIC_ONLY,
    KERNEL_TYPE_MIX_AIV_1_0,
    KERNEL_TYPE_MIX_AIC_1_0,
    KERNEL_TYPE_MIX_AIC_1_1,
    KERNEL_TYPE_MIX_AIC_1_2,
    KERNEL_TYPE_AICORE,
    KERNEL_TYPE_VECTORCORE,
    KERNEL_TYPE_MIX_AICORE,
    KERNEL_TYPE_MIX_VECTOR_CORE,
    KERNEL_TYPE_MAX
};
#define KERNEL_TASK_TYPE_DEFAULT(value) ((void)(value))
#endif
#ifndef GM_ADDR
#define GM_ADDR __gm__ uint8_t*
#endif
#define PTO_INLINE inline
#define PTO_INST AICORE PTO_INLINE
// The overloads only a call with explicit template arguments reaches: their
// call site is their return address (CallSite::caller).
#define PTO_INST_CALLER AICORE PTO_INLINE __attribute__((noinline))
#define PTOSIM_CALLER ::pto::CallSite{nullptr, 0, __builtin_return_address(0)}
#define PTO_INTERNAL AICORE PTO_INLINE
// bisheng's vector-function naming attributes: hints for its code generator.
#define OP_NAME(Name)
#define OP_TYPE(TypeName)

// pto-isa's assertion macros (pto/common/type.hpp): PTO_STATIC_ASSERT(cond)
// or PTO_STATIC_ASSERT(cond, "message"), and PTO_CPU_ASSERT, which only
// pto-isa's CPU build checks.
#define PTO_DETAIL_STR_(x) #x
#define PTO_DETAIL_STR(x) PTO_DETAIL_STR_(x)
#define PTO_STATIC_ASSERT_1(cond) static_assert((cond), "[PTO][SA] Constraint violated. Condition: " #cond)
#define PTO_STATIC_ASSERT_2(cond, msg) static_assert((cond), "[PTO][SA] " msg " Condition: " #cond)
#define PTO_DETAIL_GET_MACRO(_1, _2, NAME, ...) NAME
#define PTO_STATIC_ASSERT(...) \
    PTO_DETAIL_GET_MACRO(__VA_ARGS__, PTO_STATIC_ASSERT_2, PTO_STATIC_ASSERT_1)(__VA_ARGS__)
#define PTO_CPU_ASSERT(...) ((void)0)

// Which target the translation unit is compiled for, read once here. ptocc
// sets the bisheng macros from --cce-aicore-arch; see docs/semantics.md
// "Target selection". Everything else tests the values, never whether the
// macros exist: PTOSIM_DEVICE is 1 in kernel code, PTOSIM_TARGET_A5 is 1 on A5.
// Without a target the translation unit is host code (an ACL main, a test
// harness): it sees the types and constants, and the instructions stay
// device-only, as with pto-isa's headers.
#if (defined(__CCE_AICORE__) && __CCE_AICORE__ == 310) || (defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510) || \
    defined(__DAV_C310__)
#define PTOSIM_DEVICE 1
#define PTOSIM_TARGET_A5 1
#ifndef PTO_NPU_ARCH_A5
#define PTO_NPU_ARCH_A5
#endif
// Ascend950's URMA (the UB NIC, ptosim/urma.hpp): TPUT_ASYNC/TGET_ASYNC over
// DmaEngine::URMA, as pto-isa defines the macro for __NPU_ARCH__ 3510.
#ifndef PTO_URMA_SUPPORTED
#define PTO_URMA_SUPPORTED
#endif
#elif (defined(__CCE_AICORE__) && __CCE_AICORE__ == 220) || (defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201) || \
    defined(__DAV_C220__)
#define PTOSIM_DEVICE 1
#define PTOSIM_TARGET_A5 0
#ifndef PTO_NPU_ARCH_A2A3
#define PTO_NPU_ARCH_A2A3
#endif
#else
#define PTOSIM_DEVICE 0
#define PTOSIM_TARGET_A5 0
#endif

typedef int8_t int4b_t;  // placeholder name some kernels spell; no 4-bit arithmetic is simulated
typedef half float16_t;
// CANN's acl_base.h declares aclFloat16 as the raw 16-bit pattern; kernels
// and host code that include both headers must see one type, or launchers
// instantiated on aclFloat16 would not link across the two sides.
typedef uint16_t aclFloat16;



namespace pto {

enum class TileType { Vec, Mat, Left, Right, Acc, Bias, Scaling, ScaleLeft, ScaleRight };
enum class BLayout { RowMajor = 0, ColMajor = 1 };
enum class SLayout { NoneBox = 0, RowMajor = 1, ColMajor = 2 };
enum class PadValue : uint64_t { Null = 0, Zero = 1, Max = 2, Min = 3 };
enum class CompactMode { Null, Normal };
enum class Layout { ND, DN, NZ, SCALE, MX_A_ND, MX_A_DN, MX_A_ZZ, MX_B_ND, MX_B_DN, MX_B_NN, NC1HWC0, C1HWNC0, NCHW,
                    NHWC, NDC1HWC0, NCDHW, FRACTAL_Z, FRACTAL_Z_S16S8, FRACTAL_Z_3D, MAX };
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT = 1, CAST_ROUND = 2, CAST_FLOOR = 3, CAST_CEIL = 4,
                                 CAST_TRUNC = 5, CAST_ODD = 6 };
enum class SaturationMode : uint8_t { ON = 0, OFF = 1 };
enum class AccToVecMode : uint8_t { SingleModeVec0 = 0, SingleModeVec1 = 1, DualModeSplitM = 2, DualModeSplitN = 3 };
enum class ReluPreMode : uint8_t { NoRelu = 0, NormalRelu = 1 };
enum class AtomicType : uint8_t { AtomicNone = 0, AtomicAdd = 1 };
enum class AccPhase : uint8_t { Unspecified = 0x0, Unknown = Unspecified, Partial = 0x2, Final = 0x3 };
enum class STPhase : uint8_t { Unspecified = 0x0, Partial = 0x2, Final = 0x3 };
enum class CmpMode : uint8_t { EQ = 0, NE, LT, LE, GT, GE };
enum class TCopyMode : uint8_t { SHALLOW_COPY = 0, DEEP_COPY = 1 };
enum VFImplKind : unsigned { VFIMPL_DEFAULT = 0, VFIMPL_1D_NO_POST_UPDATE = 1, VFIMPL_2D_NO_POST_UPDATE = 2,
                             VFIMPL_1D_POST_UPDATE = 3, VFIMPL_2D_POST_UPDATE = 4 };

constexpr int DYNAMIC = -1;

namespace GlobalTensorDim {
constexpr int DIM_0 = 0, DIM_1 = 1, DIM_2 = 2, DIM_3 = 3, DIM_4 = 4, TOTAL_DIM = 5;
}

namespace TileConfig {
constexpr int alignedSize = 32;
constexpr int fixedRowSize = 16;
constexpr int fixedColSize = 16;
constexpr int fractalABSize = 512;
constexpr int fractalCSize = 1024;
constexpr int fractalMxSize = 32;
}  // namespace TileConfig

constexpr int BLOCK_BYTE_SIZE = 32;
constexpr int C0_SIZE_BYTE = 32;
constexpr int FRACTAL_NZ_ROW = 16;
constexpr int CUBE_BLOCK_SIZE = 512;

// Enums pto-isa's type.hpp declares for host code too (host programs name
// them in test parameters), with the same values and underlying types.
enum class MaskPattern : uint8_t { P0101 = 1, P1010 = 2, P0001 = 3, P0010 = 4, P0100 = 5, P1000 = 6, P1111 = 7 };
enum class SetFmatrixMode : uint8_t { FMATRIX_A_AUTO = 0, FMATRIX_B_AUTO = 1, FMATRIX_A_MANUAL = 2, FMATRIX_B_MANUAL = 3 };
enum class TileLayoutCustom : uint8_t { ND, DN, NZ, ZN, ZZ, NONE };

// Instructions return a record the real API uses for event chaining.
struct RecordEvent {};

// Where an instruction was called from. The instruction macros fill in the
// file and line; a call with explicit template arguments (TLOAD<...>(...),
// TMATMUL<AccPhase::Final>(...)) is not a macro invocation, so its overloads
// are not inlined and record their return address, which the runtime turns
// into the line through the kernel's debug line table.
struct CallSite {
    const char* file = nullptr;
    int line = 0;
    const void* caller = nullptr;
};

}  // namespace pto
