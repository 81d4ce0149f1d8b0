// A scalar-only kernel: bisheng cannot infer its type and neither does ptocc,
// unless it is marked (KIND_MARK: e.g. __vector__ or __mix__(1, 2)).
#include "kind_record.hpp"

#ifndef KIND_MARK
#define KIND_MARK
#endif

__global__ KIND_MARK AICORE void touch(__gm__ int32_t* rec) { record_core(rec); }

extern "C" void call_touch(uint32_t block_dim, void* stream, uint8_t* rec) {
    touch<<<block_dim, nullptr, stream>>>((__gm__ int32_t*)rec);
}
