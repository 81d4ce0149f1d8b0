// Which cores ran a kernel: each core adds 1 to its slot of rec, three slots
// per block: [0] the Cube core, [1] and [2] Vector sub-blocks 0 and 1.
// For the kernel-type tests (tests/cc/test_kernel_type.py).
#pragma once
#include <pto/pto-inst.hpp>

AICORE inline void record_core(__gm__ int32_t* rec) {
#if defined(__DAV_CUBE__)
    const int64_t slot = 0;
#else
    const int64_t slot = 1 + static_cast<int64_t>(get_subblockid());
#endif
    rec[get_block_idx() * 3 + slot] += 1;
}
