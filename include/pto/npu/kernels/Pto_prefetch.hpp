// pto-isa's header path pto/npu/kernels/Pto_prefetch.hpp, hand-written: its
// host wrapper PTO_PREFETCH is used by name (pto-isa's flash attention);
// the rest of the PTO API comes through the umbrella (docs/drop-in.md,
// "Header paths").
#pragma once
#include <pto/pto-inst.hpp>

#if __has_include(<acl/acl_rt.h>)
#include <acl/acl_rt.h>
#define PTOLAB_PTO_PREFETCH_ACL 1
#endif

#include <cstdint>

namespace pto {
// The host wrapper that asks the device to pull a GM range into L2 ahead of a
// kernel, by the SDMA engine (aclrtCmoAsync) or by an AIV kernel of
// TPREFETCHes. A prefetch changes no data. The SDMA path calls
// aclrtCmoAsync(ACL_RT_CMO_TYPE_PREFETCH), as pto-isa's does: under the cost
// model the range's lines are then in L2 for the launches after it
// (docs/cost-model.md, "Prefetch into L2"). The AIV path does nothing on
// ptosim: a kernel's TPREFETCHes leave nothing in L2 for the next launch.
template <bool UseSdma = true, int AivCores = -1, class Stream>
void PTO_PREFETCH(__gm__ void* tensor, uint64_t tensor_bytes, Stream stream) {
    static_assert(UseSdma || AivCores > 0, "PTO_PREFETCH: AivCores must be > 0 when UseSdma is false");
    (void)tensor;
    (void)tensor_bytes;
    (void)stream;
#if defined(PTOLAB_PTO_PREFETCH_ACL)
    if constexpr (UseSdma) {
        if (tensor_bytes != 0)
            (void)aclrtCmoAsync((void*)(uintptr_t)tensor, static_cast<size_t>(tensor_bytes), ACL_RT_CMO_TYPE_PREFETCH,
                                stream);
    }
#endif
}
}  // namespace pto
