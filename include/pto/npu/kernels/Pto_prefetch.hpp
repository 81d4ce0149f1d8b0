// pto-isa's header path pto/npu/kernels/Pto_prefetch.hpp, hand-written: its
// host wrapper PTO_PREFETCH is used by name (pto-isa's flash attention);
// the rest of the PTO API comes through the umbrella (docs/drop-in.md,
// "Header paths").
#pragma once
#include <pto/pto-inst.hpp>

#include <cstdint>

namespace pto {
// The host wrapper that asks the device to pull a GM range into L2 ahead of a
// kernel (by SDMA, or by an AIV kernel of TPREFETCHes). A prefetch changes no
// data, and the cost model keeps no L2 state across launches
// (docs/cost-model.md), so on ptosim it does nothing; the signature is
// pto-isa's so host code calling it builds unchanged.
template <bool UseSdma = true, int AivCores = -1, class Stream>
void PTO_PREFETCH(__gm__ void* tensor, uint64_t tensor_bytes, Stream stream) {
    static_assert(UseSdma || AivCores > 0, "PTO_PREFETCH: AivCores must be > 0 when UseSdma is false");
    (void)tensor;
    (void)tensor_bytes;
    (void)stream;
}
}  // namespace pto
