// The runtime side of A2A3's Cube-side CCE intrinsics: DMA into and out of
// L1, the L1 -> L0A/L0B loads (2-D, transposing, img2col), mad, and the
// fixpipe out of L0C. Kernel side: include/cce/a2a3/{cube_dma,load,mad,
// fixpipe}.hpp; semantics and their sources: docs/intrinsics/{dma-cube,load,
// mad,fixpipe}.md. Operands are byte offsets in the calling core's buffers
// (GM: host addresses), as the kernel's pointers hold them.
#pragma once
#include <ptosim/cce.hpp>
#include <ptosim/float8.hpp>

namespace ptosim::cce {

// copy_gm_to_cbuf / copy_cbuf_to_gm: bursts and gaps in 32-byte blocks.
void copy_gm_to_l1(const SourceLoc&, const char* op, uint64_t l1, const void* gm, const Burst&);
void copy_l1_to_gm(const SourceLoc&, const char* op, void* gm, uint64_t l1, const Burst&);

// copy_gm_to_cbuf_multi_nd2nz_b8/b16/b32s: nd_num ND matrices of n rows of d
// elements into NZ fractal columns of 32 bytes.
struct Nd2Nz {
    uint32_t nd_num, n, d;
    uint32_t src_nd_stride;  // elements between ND matrices in GM
    uint32_t src_d;          // elements between rows in GM
    uint32_t dst_c0_stride;  // 32-byte blocks between fractal columns in L1
    uint32_t dst_n_stride;   // 32-byte blocks between rows in L1
    uint32_t dst_nd_stride;  // elements between matrices in L1
};
void copy_gm_to_l1_nd2nz(const SourceLoc&, const char* op, uint64_t l1, const void* gm, const Nd2Nz&, int elem_bytes);

// A5's copy_gm_to_cbuf_multi_nd2nz / _dn2nz: n_value rows of d_value
// elements; GM row n starts loop1_src_stride bytes after row n - 1 (ND) or
// element d of every row lies loop1_src_stride bytes after element d - 1
// (DN); the L1 side from MTE2_NZ_PARA: [15:0] matrices, [31:16] 32-byte
// blocks between rows, [47:32] between fractal columns, [63:48] between
// matrices; GM matrices loop4_src_stride bytes apart.
void copy_gm_to_l1_nd2nz_a5(const SourceLoc&, const char* op, uint64_t l1, const void* gm, uint64_t loop1_src_stride,
                            uint16_t n_value, uint32_t d_value, uint64_t loop4_src_stride, int elem_bytes, bool dn);

// A5's copies between the Cube core's L1 and its Vector sub-blocks' UB, in
// bursts of 32-byte blocks with gaps between them: copy_cbuf_to_ubuf on the
// Cube core (MTE1) into the UB of sub-block `subblock`, copy_ubuf_to_cbuf on
// a Vector core (MTE3) into its Cube core's L1.
void copy_l1_to_peer_ub(const SourceLoc&, uint64_t ub, uint64_t l1, const Burst&, int subblock);
void copy_ub_to_peer_l1(const SourceLoc&, uint64_t l1, uint64_t ub, const Burst&);

// create_cbuf_matrix: `config` [14:0] repeats of [30:16] 32-byte blocks, the
// repeats [46:32] blocks apart (end to start); every element set to `value`.
void fill_l1(const SourceLoc&, const char* op, uint64_t l1, uint64_t config, uint64_t value, int elem_bytes);

// copy_cbuf_to_bt (`widen`: half or bfloat16 in L1 to float) and copy_cbuf_to_fbuf:
// bursts of `len` units, gaps of `src_gap` / `dst_gap` units. A2A3: the bias
// table's bursts and destination gaps count 64 bytes, the fixpipe buffer's
// 128, source gaps 32 (CANN CCE reference); A5: 32 and 64 (CANN
// asc_copy_l12bt / asc_copy_l12fb for the 3510 architecture).
struct L1MoveUnits {
    uint64_t len, src_gap, dst_gap;
};
constexpr L1MoveUnits kBtUnitsA2A3{64, 32, 64}, kFbUnitsA2A3{128, 32, 128};
constexpr L1MoveUnits kBtUnitsA5{32, 32, 32}, kFbUnitsA5{64, 32, 64};
enum class BtWiden : uint8_t { None, F16, BF16 };
void copy_l1_to_bt(const SourceLoc&, const char* op, uint64_t bt, uint64_t l1, const Burst&, BtWiden widen,
                   const L1MoveUnits& units = kBtUnitsA2A3);
void copy_l1_to_fb(const SourceLoc&, const char* op, uint64_t fb, uint64_t l1, const Burst&,
                   const L1MoveUnits& units = kFbUnitsA2A3);

// load_cbuf_to_ca/cb, load_gm_to_ca/cb: `repeat` 512-byte fractals from
// fractal index `start` (+ r * src_stride) to dst + r * (dst_gap + 1).
struct Load2d {
    uint32_t start, repeat, src_stride, dst_gap;
    bool transpose;  // 16x16 b16 fractals only
    bool dec;        // addr_cal_mode dec
};
// src_space GM: `src` is a host address.
void load_2d(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, Space src_space, uint64_t src,
             const Load2d&, int elem_bytes);

// load_cbuf_to_ca/cb_transpose: squares of n x n elements (32 for b8, 16 for
// b16) whose bytes, read as a row-major matrix, are written transposed; a
// square of two fractals writes its second dst_frac_gap + 1 fractals after
// its first.
struct Load2dT {
    uint32_t index, repeat, src_stride, dst_gap, dst_frac_gap;
};
void load_2d_transpose(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, uint64_t src, const Load2dT&,
                       int elem_bytes);

// img2colv2_cbuf_to_ca/cb (load3d v2) over the feature map FMATRIX (or
// FMATRIX_B) describes.
struct Img2col {
    uint16_t step_k, step_m, pos_k, pos_m;
    uint8_t stride_w, stride_h;
    uint16_t kw, kh;
    uint8_t dil_w, dil_h;
    bool transpose, fmatrix_b;
    uint16_t channels;
    // A5: L0A is Nz (fractal columns), and the FMATRIX_B side has its own
    // repeat and padding registers (set_l3d_rpt_b, set_padding_b).
    bool a5 = false;
};
void img2col(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, uint64_t src, const Img2col&,
             int elem_bytes);

// The Cube's configuration registers (set_fmatrix, set_fmatrix_b,
// set_l3d_rpt, set_quant_pre, set_fpc, set_nd_para).
// A5 adds MTE2_NZ_PARA (set_mte2_nz_para) and CHANNEL_PARA
// (set_channel_para); its set_loop3_para writes ND_PARA.
// set_l3d_rpt_b and set_padding_b (A5) the B side's repeat and padding.
enum class CubeReg : uint8_t {
    Fmatrix, FmatrixB, L3dRpt, QuantPre, Fpc, NdPara, Mte2NzPara, ChannelPara, L3dRptB, PaddingB
};
void set_cube_reg(const SourceLoc&, const char* op, CubeReg, uint64_t v);

// mad: C (L0C) = start + A (L0A, m x k) * B (L0B, k x n).
struct Mad {
    uint16_t m, k, n;
    uint8_t unit_flag;
    bool k_align;     // float operands: k counted in 16s
    bool bias;        // cmatrixSource: start from the bias table at `bias`
    bool init_zero;   // cmatrixInitVal: start from zero rather than C
    // A5 (dav-c310): A is Nz in L0A (fractal columns ceil(m/16) fractals
    // long), and m == 1 reads A as k contiguous elements only when GEMV is
    // not disabled (the 8th operand of A5's mad). A2A3: Zz, and m == 1 is
    // always GEMV.
    bool a5 = false;
    bool no_gemv = false;
};
void mad(const SourceLoc&, const char* op, Dt c_type, Dt ab_type, uint64_t c, uint64_t a, uint64_t b, uint64_t bias,
         const Mad&);
// A5's mad on 8-bit float operands (A and B each E4M3, E5M2 or, both,
// HiFloat8) into float: every operand decodes exactly to float, then as mad.
enum class F8 : uint8_t { E4M3, E5M2, HiF8 };
void mad_f8(const SourceLoc&, const char* op, F8 a_type, F8 b_type, uint64_t c, uint64_t a, uint64_t b, uint64_t bias,
            const Mad&);

// A5's MX (microscaling) forms. The scales of an operand at L0A (L0B)
// address x live in that buffer's scale store (Space::L0AMX / L0BMX) at
// x >> 4, in 32-byte boxes: 16 rows (A) or columns (B) x one pair of
// E8M0 scales of consecutive 32-element k blocks; a 16-row (column) band
// holds ceil(k / 64) boxes, k-pair order, the bands one after another
// (docs/intrinsics/a5-cube.md, "MX").
// load_cbuf_to_ca_mx / load_cbuf_to_cb_mx: box (i, j), i < row_step bands,
// j < col_step pairs, from L1 box (row_start + i) * src_stride + col_start
// + j to the scale store's box i * dst_stride + j.
struct LoadMx {
    uint16_t row_start, col_start;
    uint8_t row_step, col_step;
    uint16_t src_stride, dst_stride;
};
void load_mx_scales(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, uint64_t src, const LoadMx&);
// mad_mx: as mad, every A element times 2^(scale - 127) of its row's k
// block, every B element times that of its column's; operands E4M3/E5M2
// (any pair) or E2M1/E1M2 (two to a byte, low nibble first; any pair).
void mad_mx(const SourceLoc&, const char* op, MiniFormat a_type, MiniFormat b_type, uint64_t c, uint64_t a,
            uint64_t b, uint64_t bias, const Mad&);

// load_cbuf_to_ca/cb, A5's 2-D form (CANN asc_copy_l12l0a/b, 3510): the
// source is a grid of 512-byte fractals (16 rows of 32 bytes), fractal
// (k, m) at (k * src_stride + m) * 512; fractals m_start.. (m_step of them)
// and k_start.. (k_step) go to dst fractal k * dst_stride + m. With
// `transpose` the region, read as a (16 m_step) x (32 k_step / elem) matrix,
// is written transposed into 32-byte-row fractals, its column blocks
// dst_stride fractals apart.
struct Load2dA5 {
    uint16_t m_start, k_start;
    uint8_t m_step, k_step;
    uint16_t src_stride, dst_stride;
    bool transpose;
};
// elem_bits: 4 (load_cbuf_to_ca/cb_s4), 8, 16 or 32.
void load_2d_a5(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, uint64_t src, const Load2dA5&,
                int elem_bits);

// Pre-stage quantisation modes, in the order of cce/a2a3/enums.hpp's
// QuantMode_t (ptosim's numbering; fixpipe.hpp checks the two agree).
enum class Quant : uint8_t {
    NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, DEQS16, VDEQS16, REQ8, VREQ8, SHIFTS322S16, VSHIFTS322S16,
    QF322B8_PRE, VQF322B8_PRE, QF322F16_PRE, VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE, QF322F32_PRE,
    VQF322F32_PRE, QF322FP8_PRE, VQF322FP8_PRE, QF322HIF8_PRE, VQF322HIF8_PRE, QS322BF16_PRE, VQS322BF16_PRE
};

// copy_matrix_cc_to_gm/cbuf: the fixpipe out of L0C.
struct Fix {
    uint16_t n, m;
    uint32_t dst_stride;  // ND: elements between rows; NZ: 32-byte blocks between column groups
    uint16_t src_stride;  // rows between L0C fractal columns
    uint8_t unit_flag, quant, relu;
    bool split, nz2nd;
    // A5's copy_matrix_cc_to_ub from the Cube core: the Vector sub-block
    // whose UB receives the result, or (dual 1: split M, 2: split N) both
    // halves, one to each sub-block.
    uint8_t dual = 0;
    int sub_block = 0;
    // A5's NZ -> DN: a column-major destination, column j dst_stride
    // elements after column j - 1 (nz2nd must be false).
    bool nz2dn = false;
};
// dst_space GM: `dst` is a host address; UB from a Cube core: the UB of a
// Vector sub-block of its mix group (Fix::sub_block, Fix::dual).
void fixpipe(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, Dt dst_type, Dt src_type, uint64_t src,
             const Fix&);

}  // namespace ptosim::cce
