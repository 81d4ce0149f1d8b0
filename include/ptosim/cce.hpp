// The runtime side of the CCE intrinsic layer: what bisheng's builtins and
// intrinsics do on a simulated core (the executed-pto-isa build; the kernel
// side is include/cce/). Each family's semantics live in one file under
// src/sim/cce/ and are written down, with their sources, in docs/intrinsics/.
// Local-memory operands are byte offsets into the calling core's buffer, GM
// operands host addresses, exactly the values the kernel's pointers hold.
#pragma once
#include <ptosim/core.hpp>
#include <ptosim/float16.hpp>
#include <ptosim/float8.hpp>

#include <cstdint>
#include <type_traits>

namespace ptosim::cce {

// Element types the intrinsics name by their suffix (f32, f16, s32, ...).
// F8E4M3, F8E5M2, HiF8: A5's 8-bit floats (the fixpipe's destinations).
enum class Dt : uint8_t { F32, F16, BF16, S32, U32, S16, U16, S8, U8, S64, U64, F8E4M3, F8E5M2, HiF8 };
const char* to_string(Dt);
constexpr int size_of(Dt d) {
    switch (d) {
    case Dt::F32: case Dt::S32: case Dt::U32: return 4;
    case Dt::F16: case Dt::BF16: case Dt::S16: case Dt::U16: return 2;
    case Dt::S8: case Dt::U8: case Dt::F8E4M3: case Dt::F8E5M2: case Dt::HiF8: return 1;
    default: return 8;
    }
}


// A repeat-addressed vector instruction's shape: `repeat` iterations over
// eight 32-byte blocks; strides count 32-byte blocks (CANN's Ascend C
// reference, "通用参数说明": repeatTimes, dstBlkStride, dstRepStride...).
struct Shape {
    uint32_t repeat;
    uint16_t dst_blk, src0_blk, src1_blk;
    uint16_t dst_rep, src0_rep, src1_rep;
};

enum class Bin : uint8_t { Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu, SubRelu, MulAddDst, MulAdd, MulAddRelu, Prelu, Shl, Shr, Xor, Mod };
enum class Una : uint8_t { Exp, Ln, Abs, Sqrt, Rsqrt, Rec, Relu, Not, Copy, Neg };
enum class Sca : uint8_t { Add, Mul, Max, Min, Lrelu, Shl, Shr, Axpy, Dup };

void vbinary(const SourceLoc&, const char* op, Bin, Dt, uint64_t dst, uint64_t s0, uint64_t s1, const Shape&);
void vunary(const SourceLoc&, const char* op, Una, Dt, uint64_t dst, uint64_t src, const Shape&);
// `scalar` holds the scalar operand's bytes as the element type (low bytes).
void vscalar(const SourceLoc&, const char* op, Sca, Dt, uint64_t dst, uint64_t src, uint64_t scalar, const Shape&);
// vaxpy with a half source and scalar into a float destination:
// dst = src * scalar + dst, 64 elements a repeat.
void vaxpy_widen(const SourceLoc&, uint64_t dst, uint64_t src, uint64_t scalar_half_bits, const Shape&);

// Rounding of vconv_<src>2<dst><r>: none (the conversion's default), r
// (to nearest even), a (away from zero), f (floor), c (ceil), z (toward
// zero), o (to odd).
enum class Round : uint8_t { None, Rint, Away, Floor, Ceil, Trunc, Odd };
void vconv(const SourceLoc&, const char* op, Dt from, Dt to, Round, uint64_t dst, uint64_t src, const Shape&);
// Half to packed int4 (to_s4) in rounding `r`, or int4 to half; two int4 a
// byte, the lower element in the low nibble; strides count 32-byte blocks.
void vconv_s4(const SourceLoc&, const char* op, bool to_s4, Round, uint64_t dst, uint64_t src, const Shape&);
// vconv_deq: int32 to half, times the scale set_deqscale set (half bits).
void vconv_deq(const SourceLoc&, uint64_t dst, uint64_t src, const Shape&);
void set_deqscale(const SourceLoc&, uint16_t half_bits);
// vaddreluconv_* / vsubreluconv_*: src0 +/- src1 in the source type, ReLU,
// then converted to the destination type (nearest even, saturating).
void vreluconv(const SourceLoc&, const char* op, bool sub, Dt from, Dt to, uint64_t dst, uint64_t s0, uint64_t s1,
               const Shape&, bool high_half);

// Compares (docs/intrinsics/compare.md). vcmp_* writes the compare mask
// register under the vector mask; vcmpv_*/vcmpvs_* write one bit per element
// into UB, every slot of every repeat. vcmpvs's `scalar` holds the scalar's
// bytes as the element type.
enum class Cmp : uint8_t { Eq, Ne, Lt, Le, Gt, Ge };
void vcmp(const SourceLoc&, const char* op, Cmp, Dt, uint64_t s0, uint64_t s1, const Shape&);
void vcmpv(const SourceLoc&, const char* op, Cmp, Dt, uint64_t dst, uint64_t s0, uint64_t s1, const Shape&);
void vcmpvs(const SourceLoc&, const char* op, Cmp, Dt, uint64_t dst, uint64_t s0, uint64_t scalar, const Shape&);
// vsel in select mode 0 (the compare mask register's bits), 1 (bits at src1
// in UB; the constant from the register) or 2 (bits at the UB address the
// register holds).
void vsel(const SourceLoc&, Dt, uint64_t dst, uint64_t s0, uint64_t s1, const Shape&, int mode);
// set_cmpmask: the compare mask register from 16 bytes of UB.
void set_cmpmask(const SourceLoc&, uint64_t src);

// Reductions (docs/intrinsics/reduce.md). `order` is vcmax/vcmin's Order_t
// (0 value+index, 1 index+value, 2 value, 3 index); -1 for vcadd.
enum class Red : uint8_t { Add, Max, Min };
struct ReduceShape {
    uint32_t repeat;
    uint16_t dst_rep, src_blk, src_rep;
};
void vreduce(const SourceLoc&, const char* op, Red, Dt, uint64_t dst, uint64_t src, const ReduceShape&, int order);
void vgreduce(const SourceLoc&, const char* op, Red, Dt, uint64_t dst, uint64_t src, const ReduceShape&);
void vcpadd(const SourceLoc&, Dt, uint64_t dst, uint64_t src, const ReduceShape&);
// vbrcb: eight elements a repeat, each broadcast over one 32-byte block.
void vbrcb(const SourceLoc&, Dt, uint64_t dst, uint64_t src, uint16_t dst_blk, uint16_t dst_rep, uint32_t repeat);

// Sorts (docs/intrinsics/sort.md) of (score, index) structures, 8 bytes
// each: vbitsort sorts 32 scores a repeat; vmrgsort4 merges up to four
// sorted lists (`src` their UB offsets; `count` four 16-bit lengths;
// `config` repeat [7:0], valid lists [11:8], stop when one is exhausted [12]).
void vbitsort(const SourceLoc&, Dt, uint64_t dst, uint64_t src, uint64_t idx, uint32_t repeat);
void vmrgsort4(const SourceLoc&, Dt, uint64_t dst, const uint64_t src[4], uint64_t count, uint64_t config);
uint64_t get_vms4_sr();

// Gathers (docs/intrinsics/gather.md). vgather: element j of repeat r from
// UB byte `base + offsets[r * N + j]` (N elements of `d` a repeat), under the
// mask. vreducev2: the elements a pattern (1-7) or src1's bits (pattern 0)
// keep, packed at dst; get_rsvd_cnt reads how many.
void vgather(const SourceLoc&, Dt, uint64_t dst, uint64_t offsets, uint64_t base, uint16_t dst_rep, uint32_t repeat);
void vreducev2(const SourceLoc&, Dt, uint64_t dst, uint64_t s0, uint64_t s1, uint32_t repeat, uint16_t s0_blk,
               int pattern, uint16_t s0_rep, uint16_t s1_rep);
uint64_t get_rsvd_cnt();
// vgatherb: per repeat, eight 32-byte blocks from UB `base + offsets[r*8 + b]`
// to dst's blocks `dst_blk` apart, repeats `dst_rep` blocks apart.
void vgatherb(const SourceLoc&, Dt, uint64_t dst, uint64_t offsets, uint64_t base, uint16_t dst_rep, uint16_t dst_blk,
              uint32_t repeat);

// Transposes through the VA registers (docs/intrinsics/transpose.md):
// set_va_reg_sb loads eight UB addresses into VA`reg`; scatter_vnchwconv_b<8,
// 16, 32> transposes the 16 blocks VA`src`,VA`src+1` name into the 16 blocks
// VA`dst`,VA`dst+1` name, `repeat` times, the addresses stepping by the
// strides (32-byte blocks). b8 reads and writes one half of each block.
void set_va_reg_sb(const SourceLoc&, int reg, const uint64_t addrs[8]);
void scatter_vnchwconv(const SourceLoc&, int bits, int dst_va, int src_va, uint32_t repeat, uint16_t dst_stride,
                       uint16_t src_stride, bool dst_high, bool src_high);

// The scalar GM atomics (docs/intrinsics/atomic.md): set_st_atomic_cfg sets
// the element type (a Dt) and operation (0 sum, 1 max, 2 min) st_atomic
// applies to the `bytes` at `gm`; ld_dev reads GM, letting the other cores
// run first (a polling loop over it makes progress).
void set_st_atomic_cfg(const SourceLoc&, Dt, int op);
void st_atomic(const SourceLoc&, void* gm, uint64_t value_bits, int bytes);
uint64_t ld_dev(const SourceLoc&, const void* gm, int bytes);
// st_dev stores `bytes` of value_bits at gm, past the data cache; a store to
// a URMA doorbell rings it (ptosim/urma.hpp).
void st_dev(const SourceLoc&, void* gm, uint64_t value_bits, int bytes);
// A5's atomicAdd/atomicMax/atomicMin on one GM element (op 0 sum, 1 max,
// 2 min): the other cores run first (a kernel polls with atomicAdd(p, 0)),
// then the update happens under the launch's GM atomic lock; returns the old
// value's bits.
uint64_t atomic_rmw(const SourceLoc&, const char* name, void* gm, Dt, uint64_t value_bits, int op);

// DMA between GM and UB (copy_gm_to_ubuf*, copy_ubuf_to_gm*, copy_ubuf_to_ubuf).
struct Burst {
    uint32_t n;       // bursts
    uint32_t len;     // bytes per burst (the _align forms) or 32-byte blocks
    uint32_t src_gap; // between bursts on the source side
    uint32_t dst_gap; // between bursts on the destination side
    uint32_t left_pad = 0, right_pad = 0;  // elements, the _align forms' UB side
};
void copy_gm_to_ub(const SourceLoc&, const char* op, uint64_t ub, const void* gm, const Burst&, int elem_bytes, bool align_form);
void copy_ub_to_gm(const SourceLoc&, const char* op, void* gm, uint64_t ub, const Burst&, int elem_bytes, bool align_form);
// set_atomic_add (add 1) / set_atomic_none (add 0) / set_atomic_<type>:
// MTE3 stores then add into GM as `type` (a Dt; -1 leaves a field as it is).
// Without a type, an atomic store adds as float (the reset type; not documented).
void set_atomic(const SourceLoc&, const char* op, int add, int type);
void copy_ub_to_ub(const SourceLoc&, const char* op, uint64_t dst, uint64_t src, const Burst&);

// An intrinsic kernel code reached that ptosim declares but does not execute;
// `caller` is the call's return address (named through the line table).
[[noreturn]] void not_simulated(const char* name, const void* caller);

// Mask and control registers.
void set_mask_count(const SourceLoc&);
void set_ctrl(const SourceLoc&, uint64_t v);
uint64_t get_ctrl();
void set_mov_pad_val(const SourceLoc&, uint64_t v);

template <class T>
constexpr Dt dt_of() {
    if constexpr (std::is_same_v<T, float>) return Dt::F32;
    else if constexpr (std::is_same_v<T, ::half>) return Dt::F16;
    else if constexpr (std::is_same_v<T, ::bfloat16_t>) return Dt::BF16;
    else if constexpr (std::is_same_v<T, int32_t>) return Dt::S32;
    else if constexpr (std::is_same_v<T, uint32_t>) return Dt::U32;
    else if constexpr (std::is_same_v<T, int16_t>) return Dt::S16;
    else if constexpr (std::is_same_v<T, uint16_t>) return Dt::U16;
    else if constexpr (std::is_same_v<T, int8_t>) return Dt::S8;
    else if constexpr (std::is_same_v<T, uint8_t>) return Dt::U8;
    else if constexpr (std::is_same_v<T, int64_t>) return Dt::S64;
    else if constexpr (std::is_same_v<T, uint64_t>) return Dt::U64;
    else if constexpr (std::is_same_v<T, ::ptosim::float8_e4m3>) return Dt::F8E4M3;
    else if constexpr (std::is_same_v<T, ::ptosim::float8_e5m2>) return Dt::F8E5M2;
    else if constexpr (std::is_same_v<T, ::ptosim::hifloat8>) return Dt::HiF8;
    else static_assert(sizeof(T) == 0, "ptosim: no CCE element type for this C++ type");
}

}  // namespace ptosim::cce
