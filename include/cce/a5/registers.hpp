// A5's vector-function scopes, register types and the enumerations the
// register intrinsics take (docs/intrinsics/a5-vreg.md). A register's value
// lives in the kernel's variable: 256 bytes for a vector register, one bit a
// byte lane for a predicate (vector_bool, pto-isa's MaskReg).
#pragma once
#include <cce/operands.hpp>
#include <cce/a5/enums.hpp>
#include <cce/low_precision.hpp>
#include <ptosim/cce_a5.hpp>
#include <ptosim/float8.hpp>
#include <ptosim/numerics.hpp>

#include <new>
#if defined(__x86_64__)
#include <immintrin.h>
#endif
#include <type_traits>

// bisheng compiles a vector function's body for the vector unit; on ptosim
// it runs in place, each register intrinsic one call over the register.
#ifndef __VEC_SCOPE__
#define __VEC_SCOPE__
#endif
#ifndef __simd_vf__
#define __simd_vf__
#endif
#ifndef __simd_callee__
#define __simd_callee__
#endif


namespace ptosim_cce {
// A vector register's storage on the kernel side: its 256 bytes and what
// they hold. A register never written reads as zero (a5-vreg.md), and a
// register is often declared where the next instruction writes all of it
// (pto-isa declares them inside its loops), so the bytes are not zeroed
// when it is created: `lazy` says that they read as zero. The index lines
// pto-isa builds for its gathers and scatters (vci, then vmuls, vadds,
// vmins by scalars) are kept as their first element and step, element i
// being first + i * step in the wrapping arithmetic of `width`-byte
// integers, without writing the bytes. The halves of a float <-> half
// conversion (vcvt to half, the UNPK_B16 load) are kept as the 64 halves
// side by side in the first 128 bytes, slot i of 32 bits holding half i in
// its low (part 0) or high (part 1) 16 bits and zero in the others; the
// packing store and the widening vcvt take them from there. The 64 floats
// a widening vcvt makes of such halves, none of them an infinity or NaN,
// are kept as the halves side by side in the first 128 bytes (Widened):
// a NORM store of the whole register converts them straight into UB,
// without writing the register's 256 bytes and copying them. vr() writes the bytes such a
// register stands for before anything reads them, so every instruction
// and the library see the value the register has; vw() gives the bytes of
// a register the instruction writes whole (its sources already read).
struct vreg_store {
    enum Lazy : uint8_t { Bytes = 0, Zero = 1, Line = 2, Halves = 3, Widened = 4 };
    // Mutable: reading a const register may write the bytes it stands for.
    alignas(32) mutable uint8_t raw[ptosim::cce::a5::kVL];  // the value when lazy == Bytes
    mutable uint8_t lazy = Zero;
    mutable uint8_t width = 0;   // Line: the element width in bytes (2 or 4); Halves: 1
                                 // when none is an infinity or NaN (seen as they were
                                 // loaded), 0 when not known
    mutable uint8_t part = 0;    // Halves: 0, the low 16 bits of each slot; 1, the high
    mutable uint64_t first = 0;  // Line: element 0, in the low `width` bytes
    mutable uint64_t step = 0;   // Line: the difference of neighbours, in the low `width` bytes
};
// The bytes of a lazy register (Zero, Line, Halves, Widened), written once
// it is read.
[[gnu::noinline]] inline void vreg_materialize(vreg_store& v) {
    if (v.lazy == vreg_store::Zero) {
        __builtin_memset(v.raw, 0, sizeof(v.raw));
    } else if (v.lazy == vreg_store::Widened) {
        // Finite halves: every conversion of them is exact, so the row
        // conversion gives the bits F16C gives.
        uint8_t h[sizeof(v.raw) / 2];
        __builtin_memcpy(h, v.raw, sizeof(h));
        ptosim::half_row_to_float(h, reinterpret_cast<float*>(v.raw), int(sizeof(h) / 2));
    } else if (v.lazy == vreg_store::Halves) {
        uint16_t h[sizeof(v.raw) / 4];
        __builtin_memcpy(h, v.raw, sizeof(h));
        for (size_t i = 0; i < sizeof(h) / 2; ++i) {
            const uint32_t word = uint32_t(h[i]) << (16 * v.part);
            __builtin_memcpy(v.raw + 4 * i, &word, 4);
        }
    } else {
        const auto line = [&](auto unit) {
            using U = decltype(unit);
            U x = static_cast<U>(v.first);
            const U d = static_cast<U>(v.step);
            for (size_t i = 0; i < sizeof(v.raw) / sizeof(U); ++i) {
                __builtin_memcpy(v.raw + i * sizeof(U), &x, sizeof(U));
                x = static_cast<U>(x + d);
            }
        };
        if (v.width == 4) line(uint32_t{});
        else line(uint16_t{});
    }
    v.lazy = vreg_store::Bytes;
}
// A vector register of elements T. Distinct per element type, as bisheng's
// are, so that overloads and pto-isa's TypeGet can tell them apart; all
// share one layout, so kernels reinterpret them with a cast
// ((vector_u32&)f32_reg), as on the device.
template <class T>
struct vreg : vreg_store {
    using elem = T;
    // User-provided, so that a const register may be declared without an
    // initializer (it reads as zero), as with bytes zeroed on creation.
    vreg() {}
    // (vector_u32)f32_reg: the same bits seen as other elements.
    template <class U>
    explicit vreg(const vreg<U>& o) : vreg_store(o) {}
};
struct preg : ptosim::cce::a5::Pred {};
struct align_reg {
    uint8_t b[32] = {};
};
struct address_reg {
    uint64_t v;
};

// What a register argument is: one of the types above, or a wrapper that
// converts to one (pto-isa's RegTensor<T>, which names it RegType).
template <class R>
concept vreg_like = std::is_base_of_v<vreg_store, std::remove_cvref_t<R>> ||
                    requires { typename std::remove_cvref_t<R>::RegType; };
template <class R>
[[gnu::always_inline]] inline vreg_store& vs(R& r) {
    using B = std::remove_cvref_t<R>;
    if constexpr (std::is_base_of_v<vreg_store, B>) return const_cast<B&>(r);
    else return static_cast<typename B::RegType&>(const_cast<B&>(r));
}
[[gnu::always_inline]] inline ptosim::cce::a5::VReg& vbytes(vreg_store& v) {
    return *std::launder(reinterpret_cast<ptosim::cce::a5::VReg*>(v.raw));
}
// The register's value as the library's VReg, its bytes written first.
template <class R>
[[gnu::always_inline]] inline ptosim::cce::a5::VReg& vr(R& r) {
    vreg_store& v = vs(r);
    if (v.lazy != vreg_store::Bytes) [[unlikely]]
        vreg_materialize(v);
    return vbytes(v);
}
// The bytes of a register the instruction writes whole; call it after its
// sources are read (vr), since the destination may be one of them.
template <class R>
[[gnu::always_inline]] inline ptosim::cce::a5::VReg& vw(R& r) {
    vreg_store& v = vs(r);
    v.lazy = vreg_store::Bytes;
    return vbytes(v);
}
// A source operand still as it was declared: no instruction wrote it, so
// on the device it holds whatever the register last held (ptosim reads it
// as zero). The read is initcheck's unwritten-register (docs/checkers.md,
// "initcheck"), a note on stderr without initcheck. A
// test of its own, before any operand is read: vr() of a destination that
// is also a source writes the register's zeros first. `operand` is the
// register's position in the intrinsic's arguments.
template <class R>
[[gnu::always_inline]] inline void read_src(const where_t& w, const char* op, int operand, R& r) {
    if (vs(r).lazy == vreg_store::Zero) [[unlikely]]
        ptosim::cce::a5::unwritten_register(here(w), op, operand);
}
// The element type of a register argument.
template <class R>
struct elem_of_t {
    using type = typename std::remove_cvref_t<R>::RegType::elem;
};
template <class R>
    requires std::is_base_of_v<vreg_store, std::remove_cvref_t<R>>
struct elem_of_t<R> {
    using type = typename std::remove_cvref_t<R>::elem;
};
template <class R>
using elem_of = typename elem_of_t<R>::type;

// The call site of an instruction on its light path (ptosim/cce_a5.hpp):
// the file and line here() gives, and a code address at the call, which the
// line table's inlining chain leads back from as from here()'s return
// address, without here()'s out-of-line call.
[[gnu::always_inline]] inline ptosim::SourceLoc light_here(const where_t& w) {
#if defined(__x86_64__)
    const void* pc;
    asm volatile("lea 0(%%rip), %0" : "=r"(pc));
    return {w.file, w.line, pc};
#else
    return here(w);
#endif
}
#if defined(__x86_64__)
// A Widened register's 64 halves (none an infinity or NaN) to their floats
// at `to`, which is not the register: vcvtph2ps, the widening vcvt's own
// conversion (convert.hpp, light_widen_words).
__attribute__((target("avx2,f16c"))) inline void light_widen_finite(const uint8_t* from, uint8_t* to) {
    for (int t = 0; t < 8; ++t)
        _mm256_storeu_ps(reinterpret_cast<float*>(to + 32 * t),
                         _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 16 * t))));
    _mm256_zeroupper();
}
#endif
// Up to a register's 256 bytes; a multiple of 16 in 16-byte moves and one
// element (a ONEPT store) in one move, which the compiler keeps inline (it
// calls memcpy for a large copy or one whose size it does not know).
[[gnu::always_inline]] inline void light_copy(void* to, const void* from, size_t bytes) {
    auto* t = static_cast<uint8_t*>(to);
    auto* f = static_cast<const uint8_t*>(from);
    const auto move = [t, f](auto word) {
        __builtin_memcpy(&word, f, sizeof word);
        __builtin_memcpy(t, &word, sizeof word);
    };
    if (bytes % 16 == 0) {
        for (size_t i = 0; i < bytes; i += 16) {
            uint64_t v[2];
            __builtin_memcpy(v, f + i, 16);
            __builtin_memcpy(t + i, v, 16);
        }
    } else if (bytes == 4) {
        move(uint32_t{});
    } else if (bytes == 2) {
        move(uint16_t{});
    } else if (bytes == 8) {
        move(uint64_t{});
    } else {
        __builtin_memcpy(t, f, bytes);
    }
}
#if defined(__x86_64__)
// light_copy of the 64 halves of an UNPK_B16 load (128 bytes), telling
// whether none is an infinity or NaN: checked on the 16-byte vectors as they
// are moved (a check of the register afterwards waited for those stores).
[[gnu::always_inline]] inline bool light_copy_halves_finite(uint8_t* to, const uint8_t* from) {
    const __m128i exp_mask = _mm_set1_epi16(0x7c00);
    __m128i special = _mm_setzero_si128();
    for (int t = 0; t < 8; ++t) {
        const __m128i h = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + 16 * t));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(to + 16 * t), h);
        special = _mm_or_si128(special, _mm_cmpeq_epi16(_mm_and_si128(h, exp_mask), exp_mask));
    }
    return _mm_movemask_epi8(special) == 0;
}
#endif

// Zeroes up to a register's 256 bytes, in 16-byte stores for a multiple
// of 16 (the compiler calls memset for a large one otherwise).
[[gnu::always_inline]] inline void light_zero(void* to, size_t bytes) {
    auto* t = static_cast<uint8_t*>(to);
    if (bytes % 16 == 0) {
        const uint64_t z[2] = {0, 0};
        for (size_t i = 0; i < bytes; i += 16) __builtin_memcpy(t + i, z, 16);
    } else {
        __builtin_memset(t, 0, bytes);
    }
}

// The CCE element type of T; the 8- and 4-bit float codecs move as bytes.
template <class T>
constexpr ptosim::cce::Dt dt() {
    if constexpr (sizeof(T) == 1 && !std::is_integral_v<T>) return ptosim::cce::Dt::U8;
    else return ptosim::cce::dt_of<T>();
}
}  // namespace ptosim_cce

using vector_bool = ptosim_cce::preg;
using vector_align = ptosim_cce::align_reg;
using vector_address = ptosim_cce::address_reg;
using vector_s8 = ptosim_cce::vreg<int8_t>;
using vector_u8 = ptosim_cce::vreg<uint8_t>;
using vector_s16 = ptosim_cce::vreg<int16_t>;
using vector_u16 = ptosim_cce::vreg<uint16_t>;
using vector_s32 = ptosim_cce::vreg<int32_t>;
using vector_u32 = ptosim_cce::vreg<uint32_t>;
using vector_s64 = ptosim_cce::vreg<int64_t>;
using vector_u64 = ptosim_cce::vreg<uint64_t>;
using vector_f16 = ptosim_cce::vreg<half>;
using vector_bf16 = ptosim_cce::vreg<bfloat16_t>;
using vector_f32 = ptosim_cce::vreg<float>;
using vector_f8e4m3 = ptosim_cce::vreg<float8_e4m3_t>;
using vector_f8e5m2 = ptosim_cce::vreg<float8_e5m2_t>;
using vector_hif8 = ptosim_cce::vreg<hifloat8_t>;
using vector_f8e8m0 = ptosim_cce::vreg<float8_e8m0_t>;
using vector_f4e2m1x2 = ptosim_cce::vreg<float4_e2m1x2_t>;
using vector_f4e1m2x2 = ptosim_cce::vreg<float4_e1m2x2_t>;
// The asc-devkit C API's spellings of the same registers.
using vector_int8_t = vector_s8;
using vector_uint8_t = vector_u8;
using vector_int16_t = vector_s16;
using vector_uint16_t = vector_u16;
using vector_int32_t = vector_s32;
using vector_uint32_t = vector_u32;
using vector_int64_t = vector_s64;
using vector_uint64_t = vector_u64;
using vector_half = vector_f16;
using vector_bfloat16_t = vector_bf16;
using vector_float = vector_f32;

// Predicate patterns (asc-devkit c_api/reg_compute/reg_vector.h, Pat).
enum Pat : int { PAT_ALL = 0, PAT_VL1, PAT_VL2, PAT_VL3, PAT_VL4, PAT_VL8, PAT_VL16, PAT_VL32, PAT_VL64, PAT_VL128,
                 PAT_M3, PAT_M4, PAT_H, PAT_Q, PAT_ALLF = 15 };
// What an operation does with the destination's inactive elements.
enum Mode : int { MODE_ZEROING = 0, MODE_MERGING = 1, MODE_STORED = 2 };
// The address update of a load, store or predicate count.
enum PostUpdate : int { POST_UPDATE = 1 };
// vlds distributions (CANN "LoadAlign"). pto-isa names them both ways:
// the short constants in calls (NORM, BRC_B32...), the enumerators where it
// builds a std::integral_constant<::Dist, Dist::DIST_US>.
enum Dist : int { DIST_NORM = 0, DIST_BRC_B8, DIST_BRC_B16, DIST_BRC_B32, DIST_US_B8, DIST_US_B16, DIST_DS_B8,
                  DIST_DS_B16, DIST_UNPK_B8, DIST_UNPK_B16, DIST_UNPK_B32, DIST_DINTLV_B8, DIST_DINTLV_B16,
                  DIST_DINTLV_B32, DIST_E2B_B16, DIST_E2B_B32, DIST_BLK, DIST_UNPK4_B8, DIST_US, DIST_DS };
inline constexpr cce_literal<Dist, DIST_NORM> NORM{};
inline constexpr cce_literal<Dist, DIST_BRC_B8> BRC_B8{};
inline constexpr cce_literal<Dist, DIST_BRC_B16> BRC_B16{};
inline constexpr cce_literal<Dist, DIST_BRC_B32> BRC_B32{};
inline constexpr cce_literal<Dist, DIST_US_B8> US_B8{};
inline constexpr cce_literal<Dist, DIST_US_B16> US_B16{};
inline constexpr cce_literal<Dist, DIST_DS_B8> DS_B8{};
inline constexpr cce_literal<Dist, DIST_DS_B16> DS_B16{};
inline constexpr cce_literal<Dist, DIST_UNPK_B8> UNPK_B8{};
inline constexpr cce_literal<Dist, DIST_UNPK_B16> UNPK_B16{};
inline constexpr cce_literal<Dist, DIST_UNPK_B32> UNPK_B32{};
inline constexpr cce_literal<Dist, DIST_DINTLV_B8> DINTLV_B8{};
inline constexpr cce_literal<Dist, DIST_DINTLV_B16> DINTLV_B16{};
inline constexpr cce_literal<Dist, DIST_DINTLV_B32> DINTLV_B32{};
inline constexpr cce_literal<Dist, DIST_E2B_B16> E2B_B16{};
inline constexpr cce_literal<Dist, DIST_E2B_B32> E2B_B32{};
inline constexpr cce_literal<Dist, DIST_BLK> BLK{};
inline constexpr cce_literal<Dist, DIST_UNPK4_B8> UNPK4_B8{};
inline constexpr cce_literal<Dist, DIST_US> US{};
// vsts distributions. pto-isa converts its own pto::DistVST to this type
// with static_cast, so the order is the one its enumeration declares. The
// short names are values of their own types, as the vlds ones above: the
// March 2026 pto-isa snapshot's A5 TPACK (cannmirror defdb75f) picks its
// store with std::conditional_t<..., decltype(PK_B32), ...> and stores with
// a value of that type, which as a plain enumerator would be the
// enumeration's zero (NORM_B8).
enum DistVST : int { VST_NORM_B8 = 0, VST_NORM_B16, VST_NORM_B32, VST_ONEPT_B8, VST_ONEPT_B16, VST_ONEPT_B32,
                     VST_PK_B16, VST_PK_B32, VST_INTLV_B8, VST_INTLV_B16, VST_PK_B64, VST_INTLV_B32, VST_PK4_B32,
                     VST_MRG4CHN_B8, VST_MRG2CHN_B8, VST_MRG2CHN_B16 };
inline constexpr cce_literal<DistVST, VST_NORM_B8> NORM_B8{};
inline constexpr cce_literal<DistVST, VST_NORM_B16> NORM_B16{};
inline constexpr cce_literal<DistVST, VST_NORM_B32> NORM_B32{};
inline constexpr cce_literal<DistVST, VST_ONEPT_B8> ONEPT_B8{};
inline constexpr cce_literal<DistVST, VST_ONEPT_B16> ONEPT_B16{};
inline constexpr cce_literal<DistVST, VST_ONEPT_B32> ONEPT_B32{};
inline constexpr cce_literal<DistVST, VST_PK_B16> PK_B16{};
inline constexpr cce_literal<DistVST, VST_PK_B32> PK_B32{};
inline constexpr cce_literal<DistVST, VST_INTLV_B8> INTLV_B8{};
inline constexpr cce_literal<DistVST, VST_INTLV_B16> INTLV_B16{};
inline constexpr cce_literal<DistVST, VST_PK_B64> PK_B64{};
inline constexpr cce_literal<DistVST, VST_INTLV_B32> INTLV_B32{};
inline constexpr cce_literal<DistVST, VST_PK4_B32> PK4_B32{};
inline constexpr cce_literal<DistVST, VST_MRG4CHN_B8> MRG4CHN_B8{};
inline constexpr cce_literal<DistVST, VST_MRG2CHN_B8> MRG2CHN_B8{};
inline constexpr cce_literal<DistVST, VST_MRG2CHN_B16> MRG2CHN_B16{};
// vci's order, vdup's lane choice.
enum IndexOrder : int { INC_ORDER = 0, DEC_ORDER = 1 };
enum DupPos : int { POS_LOWEST = 0, POS_HIGHEST = 1 };
