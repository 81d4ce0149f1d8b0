// The software barrier counts generations in int32 GM slots.
// expect: SYNCALL: the software-mode workspace is a GlobalTensor<int32_t, ...>
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(__gm__ float* ws) {
    GlobalTensor<float, pto::Shape<>, pto::Stride<>> gm(ws);
    Tile<TileType::Vec, int32_t, 1, 8 * SYNCALL_SOFT_SLOT_INT32> ub;
    SYNCALL<SyncAllMode::Soft>(gm, ub);
}
