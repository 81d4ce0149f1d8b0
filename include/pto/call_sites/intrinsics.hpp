// Call-site macros of the CCE intrinsics (see pto/call_sites.hpp).
#pragma once

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
