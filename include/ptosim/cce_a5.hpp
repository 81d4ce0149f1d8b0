// The runtime side of A5's register layer (include/cce/a5/, the kernel side):
// vector registers, predicate (mask) registers, loads and stores between UB
// and registers, register arithmetic, and A5's GM<->UB DMA. A register is
// 256 bytes (VL); its value lives in the kernel's own variable and every
// operation is one call over the whole register. Semantics and their
// sources: docs/intrinsics/a5-vreg.md.
#pragma once
#include <ptosim/cce.hpp>

#include <cstdint>

namespace ptosim::cce::a5 {

constexpr int kVL = 256;  // bytes in a vector register

struct VReg {
    alignas(32) uint8_t b[kVL] = {};  // a register never written reads as zero (docs/intrinsics/a5-vreg.md)
};
// A predicate holds one bit per byte lane of a vector register; an element
// of `n` bytes is active when the bit of its first byte is set.
struct Pred {
    alignas(8) uint8_t b[kVL / 8] = {};
    bool lane(int byte) const { return (b[byte >> 3] >> (byte & 7) & 1) != 0; }
};

// Predicates whose byte lanes are a prefix, [0, lanes) on and the rest off:
// pset's PAT_ALL/PAT_VLn and plt make them, and they are by far the most
// frequent masks, so the register families take a whole-register path for
// them (the same elements in the same order, the same results).
// The 32 bytes are built in two 16-byte vector registers and stored whole:
// byte j is 0xFF below lanes / 8, the partial byte's low lanes % 8 bits at
// lanes / 8, zero above. Writing them as a variable-length memset and a
// byte made every later whole-register read of the predicate (its copies,
// active_prefix) wait for a store forward that cannot happen.
inline void set_prefix(Pred& p, int lanes) {
    typedef uint8_t bytes16 __attribute__((vector_size(16)));
    const bytes16 low = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15};
    const bytes16 high = low + 16;
    // Named uint8_t values: under -fsanitize=undefined GCC 12 sees the
    // casts' operands as int and refuses the truncating broadcast.
    const uint8_t whole = static_cast<uint8_t>(lanes >> 3), partial = static_cast<uint8_t>((1u << (lanes & 7)) - 1);
    const bytes16 full = bytes16{} + whole;
    const bytes16 part = bytes16{} + partial;
    const bytes16 lo = reinterpret_cast<bytes16>(low < full) | (reinterpret_cast<bytes16>(low == full) & part);
    const bytes16 hi = reinterpret_cast<bytes16>(high < full) | (reinterpret_cast<bytes16>(high == full) & part);
    __builtin_memcpy(p.b, &lo, 16);
    __builtin_memcpy(p.b + 16, &hi, 16);
}

// k when exactly the elements [0, k) of `elem` bytes are active, else -1.
// An element is active by its first lane, so a prefix of `lanes` lanes
// covers ceil(lanes / elem) elements.
inline int active_prefix(const Pred& p, int elem) {
    // Every lane on (most predicates pto-isa's loops use): the two 16-byte
    // halves as set_prefix stores them, ANDed in a vector register. Copying
    // the predicate into four words on the stack first and testing the
    // first word was a fifth of pto-isa's TADD (the word loads waited on
    // the 16-byte stores).
    typedef uint64_t words2 __attribute__((vector_size(16)));
    words2 lo, hi;
    static_assert(sizeof(lo) + sizeof(hi) == sizeof(p.b));
    __builtin_memcpy(&lo, p.b, 16);
    __builtin_memcpy(&hi, p.b + 16, 16);
    const words2 both = lo & hi;
    if ((both[0] & both[1]) == ~uint64_t(0)) [[likely]]
        return (kVL + elem - 1) / elem;
    const uint64_t w[4] = {lo[0], lo[1], hi[0], hi[1]};
    int lanes = 0, i = 0;
    while (i < 4 && w[i] == ~uint64_t(0)) lanes += 64, ++i;
    if (i < 4) {
        const uint64_t v = w[i];
        const int ones = __builtin_ctzll(~v);
        if ((v >> ones) != 0) return -1;
        lanes += ones;
        for (++i; i < 4; ++i)
            if (w[i] != 0) return -1;
    }
    return (lanes + elem - 1) / elem;
}

// The light path of a register instruction (docs/intrinsics/a5-vreg.md,
// "Speed"). With nothing subscribed to the dispatch point (no checker, cost
// model, trace or profile), the record an instruction would pass is read by
// nobody: the kernel-side code of the most frequent forms (NORM loads and
// stores, plt/pset, float arithmetic under a prefix predicate) passes the
// dispatch point as ptosim::dispatch does, counting the instruction and
// naming it as the core's last call, without building a record, and
// computes in place. light_core() is the core, or nullptr when the full path
// must run (a subscriber, or an abandoned launch, whose stop it raises).
inline Core* light_core() {
    if (detail::g_has_subscribers) return nullptr;
    Core& c = core();
    if (c.abandon && c.abandon->load(std::memory_order_relaxed)) return nullptr;
    return &c;
}
inline void light_pass(Core& c, const char* op, const SourceLoc& loc) {
    ++c.ops;
    c.last_loc = loc;
    c.last_op = op;
}
// [ub, ub + bytes) inside the core's UB: what check_local lets pass.
inline bool light_in_ub(const Core& c, uint64_t ub, uint64_t bytes) {
    const uint64_t size = c.mem_size[static_cast<int>(Space::UB)];
    return size != 0 && ub <= size && bytes <= size - ub;
}
inline uint8_t* light_ub(Core& c, uint64_t ub) { return c.mem[static_cast<int>(Space::UB)] + ub; }

// An instruction read a vector register no instruction wrote since it was
// declared (operand `operand` of `op`): initcheck's unwritten-register
// report when initcheck is on, else a note on stderr once per site.
void unwritten_register(const SourceLoc&, const char* op, int operand);

// pset_b<8,16,32>: the documented patterns (PAT_ALL, PAT_VL1..VL128, PAT_M3,
// PAT_M4, PAT_H, PAT_Q, PAT_ALLF) over elements of `elem` bytes.
void pset(const SourceLoc&, const char* op, Pred& out, int elem, int pattern);
// plt_b<8,16,32>: the first min(count, VL/elem) elements; with `post_update`
// count drops by that many.
void plt(const SourceLoc&, const char* op, Pred& out, int elem, uint32_t& count, bool post_update);
// Predicate logic: pand/por/pxor/pnot/pmov under a governing predicate;
// psel: a where the third predicate is set, b elsewhere.
enum class PLogic : uint8_t { And, Or, Xor, Not, Mov, Sel };
void plogic(const SourceLoc&, const char* op, PLogic, Pred& out, const Pred& a, const Pred& b, const Pred& g);

// vlds distributions (CANN "LoadAlign" dist): NORM loads VL bytes; BRC_B*
// broadcasts one element; US_B* doubles every element (upsample), DS_B*
// keeps every other (downsample); UNPK_B* widens each element to twice its
// size (zero-filled high half).
// BLK broadcasts one 32-byte block to every block; UNPK4_B8 widens 64 bytes
// into the low bytes of 32-bit slots.
// E2B_B16/B32 loads VL/32 elements and broadcasts each to its own 32-byte
// block.
enum class Ld : uint8_t { Norm, Brc, Us, Ds, Unpk, Blk, Unpk4, E2b, Unsupported };
void vload(const SourceLoc&, const char* op, VReg& dst, uint64_t ub, Ld, int elem);
// vsts distributions (::DistVST): NORM stores the active elements; ONEPT
// stores element 0; PK stores the low half of every element (narrowing);
// PK4 the low quarter (PK4_B32: the low byte of each 32-bit element).
enum class St : uint8_t { Norm, OnePt, Pk, Pk4, Unsupported };
void vstore(const SourceLoc&, const char* op, const VReg& src, uint64_t ub, St, int elem, const Pred& mask);
// vsstb: 32-byte block k of the register to ub + k * block_stride * 32, the
// active elements only (asc-devkit StoreAlign, DataBlock mode).
void vstore_blocks(const SourceLoc&, const VReg& src, uint64_t ub, uint32_t block_stride, int elem, const Pred& mask);

// The two-register forms: vlds DINTLV_B* splits 2*VL bytes into the even
// elements (lo) and the odd ones (hi); vsts INTLV_B* writes them back
// interleaved, pair i where element i of the mask is active.
void vload2(const SourceLoc&, const char* op, VReg& lo, VReg& hi, uint64_t ub, int elem);
void vstore2(const SourceLoc&, const char* op, const VReg& lo, const VReg& hi, uint64_t ub, int elem, const Pred& mask);

// Element-wise operations on registers; `merging` keeps the destination's
// inactive elements (MODE_MERGING), otherwise they become zero (MODE_ZEROING).
void vbinary(const SourceLoc&, const char* op, Bin, Dt, VReg& dst, const VReg& a, const VReg& b, const Pred& mask,
             bool merging);
void vunary(const SourceLoc&, const char* op, Una, Dt, VReg& dst, const VReg& a, const Pred& mask, bool merging);
// `scalar` holds the scalar's bytes as the element type (low bytes).
void vscalar(const SourceLoc&, const char* op, Sca, Dt, VReg& dst, const VReg& a, uint64_t scalar, const Pred& mask,
             bool merging);
// Carry arithmetic on 32-bit elements (vaddc/vaddcs, vsubc/vsubcs): dst =
// a + b (+ carry_in), carry = the unsigned carry out; subtraction: dst = a -
// b (- not carry_in), carry = no borrow (a >= b unsigned, with the borrow
// in). `carry_in` is null for the forms without one.
void vcarry(const SourceLoc&, const char* op, bool sub, Pred& carry, VReg& dst, const VReg& a, const VReg& b,
            const Pred* carry_in, const Pred& mask);
// vmull: the full product of 32-bit elements, low words to lo, high to hi
// (`is_signed`: the elements are int32); vmula: dst += a * b, wrapping.
void vmull(const SourceLoc&, bool is_signed, VReg& lo, VReg& hi, const VReg& a, const VReg& b, const Pred& mask);

// Compare into a predicate (active elements only; inactive bits clear) and
// select by one (vsel: a where the predicate is set, else b).
void vcompare(const SourceLoc&, const char* op, Cmp, Dt, Pred& dst, const VReg& a, const VReg& b, const Pred& mask);
void vcompare_scalar(const SourceLoc&, const char* op, Cmp, Dt, Pred& dst, const VReg& a, uint64_t scalar,
                     const Pred& mask);
void vselect(const SourceLoc&, Dt, VReg& dst, const VReg& a, const VReg& b, const Pred& sel);
// Whole-register reductions (vcadd, vcmax, vcmin): the result in element 0,
// the rest of the register zero.
void vreduce(const SourceLoc&, const char* op, Red, Dt, VReg& dst, const VReg& a, const Pred& mask);
// Per 32-byte block (vcgadd, vcgmax, vcgmin): block k's result in element k,
// the rest of the register zero; inactive elements count as the identity
// (-inf for max, +inf for min, 0 for the sum).
void vreduce_blocks(const SourceLoc&, const char* op, Red, Dt, VReg& dst, const VReg& a, const Pred& mask);
// vcpadd: element i of the low half is the sum of elements 2i and 2i + 1, an
// inactive one counting as 0; the high half is 0 (asc-devkit
// PairReduceElem).
void vpair_add(const SourceLoc&, Dt, VReg& dst, const VReg& a, const Pred& mask);
// vcvt (docs/intrinsics/a5-vreg.md, "Conversions"): the element types it
// names are Dt's and A5's 8-bit and packed 4-bit floats.
enum class Ct : uint8_t { F32, F16, BF16, S32, U32, S16, U16, S8, U8, S64, U64, E4M3, E5M2, HiF8, E8M0, E2M1, E1M2 };
struct Cvt {
    Ct from, to;
    Round round;   // Round::None: nearest, ties to even (HiFloat8: ties away)
    bool sat;      // RS_ENABLE (CTRL[60] with CTRL[59] overrides it for integer results)
    int part;      // the part of the wider register: PART_EVEN/P0 0, PART_ODD/P1 1, P2 2, P3 3
    bool merging;  // MODE_MERGING: inactive destination elements keep their value
};
// Element i of the narrower-count side pairs with element i * k + part of
// the other (k: the ratio of the element counts); the destination elements
// of the other parts become zero.
void vconvert(const SourceLoc&, const Cvt&, VReg& dst, const VReg& src, const Pred& mask);
// vtrc: each active float element rounded to an integral value of its own type.
void vtruncate(const SourceLoc&, Dt, Round, VReg& dst, const VReg& src, const Pred& mask, bool merging);
// Interleaves (vintlv, vdintlv): the 2*VL bytes of s0 then s1. vintlv
// puts element i of s0 and of s1 side by side (d0 the first VL bytes of the
// result, d1 the rest); vdintlv sends the even elements to d0, the odd ones
// to d1. Over predicates (pintlv_b*, pdintlv_b*) the elements are groups of
// `elem` bits.
void vinterleave(const SourceLoc&, const char* op, bool deinterleave, int elem, VReg& d0, VReg& d1, const VReg& s0,
                 const VReg& s1);
void pinterleave(const SourceLoc&, const char* op, bool deinterleave, int elem, Pred& d0, Pred& d1, const Pred& s0,
                 const Pred& s1);
// Predicate loads and stores (plds, psts) at a UB byte offset: NORM moves
// the 32 bytes; the upsampling load (US) reads 16 bytes and doubles each
// bit, the downsampling one (DS) reads 64 and keeps the even bits; the
// packing store (PK) writes the even bits, 16 bytes.
enum class PDist : uint8_t { Norm, Us, Ds, Pk };
void pload(const SourceLoc&, Pred& dst, uint64_t ub, PDist);
void pstore(const SourceLoc&, const Pred& src, uint64_t ub, PDist);
// ppack: the even bits of src into the lower (or higher) half of dst, the
// other half zero; punpack: each bit of src's lower (or higher) half twice.
void ppack(const SourceLoc&, const char* op, bool unpack, bool higher, Pred& dst, const Pred& src);
// vselr: element i of dst is element idx[i] of src (elements of `elem`
// bytes; idx holds unsigned integers of the same width).
void vselect_index(const SourceLoc&, int elem, VReg& dst, const VReg& src, const VReg& idx);
// Unaligned moves (vldas/vldus, vstus/vstas): vldus loads VL bytes from any
// UB byte address, vstus stores `bytes` bytes at any; vldas and vstas (the
// alignment register's priming and flush) only pass the dispatch point.
void vload_unaligned(const SourceLoc&, VReg& dst, uint64_t ub);
void vstore_unaligned(const SourceLoc&, const VReg& src, uint64_t ub, uint64_t bytes);
void unaligned_step(const SourceLoc&, const char* op);
// The squeeze and its AR stream (docs/intrinsics/a5-squeeze.md): vsqz packs
// the active elements of `elem` bytes into the low end of dst, the rest zero;
// `store` (MODE_STORED) leaves their byte count for the next vstur, which
// writes that many bytes at ub + AR and, with `post_update`, adds them to AR.
// sprclr zeroes AR; sprsts stores it (32 bits) at a UB byte address.
void vsqueeze(const SourceLoc&, VReg& dst, const VReg& src, int elem, const Pred& mask, bool store);
void vstore_squeezed(const SourceLoc&, const VReg& src, uint64_t ub, bool post_update);
void spr_clear(const SourceLoc&, int spr);
void spr_store(const SourceLoc&, int spr, uint64_t ub);
// vgather2 / vscatter: element i from / to UB at `ub + index[i] * elem`
// for the active elements; the indices are unsigned integers of
// `idx_width` bytes, one a slot of that width in the register (8-bit data in
// 16-bit slots, low byte).
void vgather(const SourceLoc&, VReg& dst, uint64_t ub, int elem, const VReg& idx, int idx_width, const Pred& mask);
// vgatherb: 32-byte block k from UB at `ub + idx[k]` bytes (uint32 indices).
void vgatherb(const SourceLoc&, VReg& dst, uint64_t ub, int elem, const VReg& idx, const Pred& mask);
void vscatter(const SourceLoc&, const VReg& src, uint64_t ub, int elem, const VReg& idx, int idx_width,
              const Pred& mask);
// vpack: the low half of each element of `src_elem` bytes into dst's lower
// (or higher) half, the other half zero; vunpack: the elements of src's
// lower (or higher) half widened to twice their size, sign-extended when
// `is_signed`.
void vpack(const SourceLoc&, const char* op, bool unpack, bool higher, int src_elem, bool is_signed, VReg& dst,
           const VReg& src);
// chistv2 (cumulative) / dhistv2 (frequency): bin n of the 128 uint16 bins
// in dst gains the number of active bytes of src equal to (cumulative: at
// most) n + (upper ? 128 : 0); the frequencies count only values of that
// half, the cumulative upper half counts the lower half's bytes as well.
void vhistogram(const SourceLoc&, const char* op, bool cumulative, bool upper, VReg& dst, const VReg& src,
                const Pred& mask);
// vexpdif: float dst[i] = e^(a - b) of the float sources' element i, or of
// the half sources' element 2i + part, the difference in float.
void vexpdif(const SourceLoc&, Dt src_type, int part, VReg& dst, const VReg& a, const VReg& b, const Pred& mask,
             bool merging);
// The index vector: element i = start + i (decreasing: start + n - 1 - i).
void vindex(const SourceLoc&, Dt, VReg& dst, uint64_t start_bits, bool decreasing);

// A5's GM<->UB DMA (copy_gm_to_ubuf_align_v2 / copy_ubuf_to_gm_align_v2):
// `n` bursts of `len` bytes, burst starts `gm_stride` bytes apart in GM and
// `ub_stride` bytes apart in UB, repeated over the two outer loops that
// set_loop*_outtoub / _ubtoout configure.
struct DmaV2 {
    uint32_t n, len;
    uint64_t gm_stride;
    uint32_t ub_stride;
    bool pad;      // fill each UB burst's tail up to 32 bytes with the pad value
    int elem = 1;  // the element size the pad value is repeated in
};
void copy_gm_to_ub_v2(const SourceLoc&, uint64_t ub, const void* gm, const DmaV2&);
void copy_ub_to_gm_v2(const SourceLoc&, void* gm, uint64_t ub, const DmaV2&);
// set_loop_size_{outtoub,ubtoout} and set_loop{1,2}_stride_{outtoub,ubtoout}.
void set_dma_loop(const SourceLoc&, const char* op, bool to_ub, int which, uint64_t value);
// The same three registers per direction, GM -> L1 included
// (set_loop_size_outtol1, set_loop{1,2}_stride_outtol1).
enum class DmaDir : uint8_t { GmToUb = 0, UbToGm = 1, GmToL1 = 2 };
void set_dma_loop(const SourceLoc&, const char* op, DmaDir, int which, uint64_t value);
// copy_gm_to_cbuf_align_v2: as copy_gm_to_ub_v2 into L1 over the outtol1
// loops; `right_pad` elements of set_pad_val_outtol1's value follow each
// burst when d.pad is set (docs/intrinsics/a5-cube.md).
void copy_gm_to_l1_v2(const SourceLoc&, uint64_t l1, const void* gm, const DmaV2&, uint32_t right_pad);
void set_l1_pad_value(const SourceLoc&, uint64_t value);

}  // namespace ptosim::cce::a5
