// Instruction and intrinsic names as function-like macros that add the
// caller's file:line, so every diagnostic names the kernel source line. A
// macro only expands before "(": `TMOV<...>(...)` calls the plain overload.
#pragma once

#define PTOSIM_HERE ::pto::CallSite{__FILE__, __LINE__}

#define TLOAD(...) TLOAD(PTOSIM_HERE, __VA_ARGS__)
#define TSTORE(...) TSTORE(PTOSIM_HERE, __VA_ARGS__)
#define TMOV(...) TMOV(PTOSIM_HERE, __VA_ARGS__)
#define TEXTRACT(...) TEXTRACT(PTOSIM_HERE, __VA_ARGS__)
#define TINSERT(...) TINSERT(PTOSIM_HERE, __VA_ARGS__)
#define TMATMUL(...) TMATMUL(PTOSIM_HERE, __VA_ARGS__)
#define TMATMUL_ACC(...) TMATMUL_ACC(PTOSIM_HERE, __VA_ARGS__)
#define TMATMUL_BIAS(...) TMATMUL_BIAS(PTOSIM_HERE, __VA_ARGS__)
#define TADD(...) TADD(PTOSIM_HERE, __VA_ARGS__)
#define TADDS(...) TADDS(PTOSIM_HERE, __VA_ARGS__)
#define TMULS(...) TMULS(PTOSIM_HERE, __VA_ARGS__)
#define TCVT(...) TCVT(PTOSIM_HERE, __VA_ARGS__)

#define set_flag(...) ::ptosim_cce::set_flag(PTOSIM_HERE, __VA_ARGS__)
#define wait_flag(...) ::ptosim_cce::wait_flag(PTOSIM_HERE, __VA_ARGS__)
#define pipe_barrier(...) ::ptosim_cce::pipe_barrier(PTOSIM_HERE, __VA_ARGS__)
#define set_mask_norm() ::ptosim_cce::set_mask_norm(PTOSIM_HERE)
#define set_vector_mask(...) ::ptosim_cce::set_vector_mask(PTOSIM_HERE, __VA_ARGS__)
#define set_ffts_base_addr(...) ::ptosim_cce::set_ffts_base_addr(PTOSIM_HERE, __VA_ARGS__)
#define ffts_cross_core_sync(...) ::ptosim_cce::ffts_cross_core_sync(PTOSIM_HERE, __VA_ARGS__)
#define wait_flag_dev(...) ::ptosim_cce::wait_flag_dev(PTOSIM_HERE, __VA_ARGS__)
#define set_intra_block(...) ::ptosim_cce::set_intra_block(PTOSIM_HERE, __VA_ARGS__)
#define wait_intra_block(...) ::ptosim_cce::wait_intra_block(PTOSIM_HERE, __VA_ARGS__)

#define block_idx (::ptosim::core().block_idx)
#define block_num (::ptosim::core().block_num)
