// The runtime side of A2A3's Cube-side CCE intrinsics: DMA into and out of
// L1, the L1 -> L0A/L0B loads (2-D, transposing, img2col), mad, and the
// fixpipe out of L0C. Kernel side: include/cce/a2a3/{cube_dma,load,mad,
// fixpipe}.hpp; semantics and their sources: docs/intrinsics/{dma-cube,load,
// mad,fixpipe}.md. Operands are byte offsets in the calling core's buffers
// (GM: host addresses), as the kernel's pointers hold them.
#pragma once
#include <ptosim/cce.hpp>

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

// create_cbuf_matrix: `config` [14:0] repeats of [30:16] 32-byte blocks, the
// repeats [46:32] blocks apart (end to start); every element set to `value`.
void fill_l1(const SourceLoc&, const char* op, uint64_t l1, uint64_t config, uint64_t value, int elem_bytes);

// copy_cbuf_to_bt (64-byte bursts and destination gaps, 32-byte source gaps;
// f16_to_f32 widens half to float) and
// copy_cbuf_to_fbuf (128-byte bursts and destination gaps, 32-byte source gaps).
void copy_l1_to_bt(const SourceLoc&, const char* op, uint64_t bt, uint64_t l1, const Burst&, bool f16_to_f32);
void copy_l1_to_fb(const SourceLoc&, const char* op, uint64_t fb, uint64_t l1, const Burst&);

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
};
void img2col(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, uint64_t src, const Img2col&,
             int elem_bytes);

// The Cube's configuration registers (set_fmatrix, set_fmatrix_b,
// set_l3d_rpt, set_quant_pre, set_fpc, set_nd_para).
enum class CubeReg : uint8_t { Fmatrix, FmatrixB, L3dRpt, QuantPre, Fpc, NdPara };
void set_cube_reg(const SourceLoc&, const char* op, CubeReg, uint64_t v);

// mad: C (L0C) = start + A (L0A, m x k) * B (L0B, k x n).
struct Mad {
    uint16_t m, k, n;
    uint8_t unit_flag;
    bool k_align;     // float operands: k counted in 16s
    bool bias;        // cmatrixSource: start from the bias table at `bias`
    bool init_zero;   // cmatrixInitVal: start from zero rather than C
};
void mad(const SourceLoc&, const char* op, Dt c_type, Dt ab_type, uint64_t c, uint64_t a, uint64_t b, uint64_t bias,
         const Mad&);

// Pre-stage quantisation modes, in the order of cce/a2a3/enums.hpp's
// QuantMode_t (ptosim's numbering; fixpipe.hpp checks the two agree).
enum class Quant : uint8_t {
    NoQuant = 0, F322F16, F322BF16, DEQF16, VDEQF16, DEQS16, VDEQS16, REQ8, VREQ8, SHIFTS322S16, VSHIFTS322S16,
    QF322B8_PRE, VQF322B8_PRE, QF322F16_PRE, VQF322F16_PRE, QF322BF16_PRE, VQF322BF16_PRE, QF322F32_PRE,
    VQF322F32_PRE
};

// copy_matrix_cc_to_gm/cbuf: the fixpipe out of L0C.
struct Fix {
    uint16_t n, m;
    uint32_t dst_stride;  // ND: elements between rows; NZ: 32-byte blocks between column groups
    uint16_t src_stride;  // rows between L0C fractal columns
    uint8_t unit_flag, quant, relu;
    bool split, nz2nd;
};
// dst_space GM: `dst` is a host address.
void fixpipe(const SourceLoc&, const char* op, Space dst_space, uint64_t dst, Dt dst_type, Dt src_type, uint64_t src,
             const Fix&);

}  // namespace ptosim::cce
