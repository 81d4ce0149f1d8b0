// The A5 Cube core cannot write GM from L1, so the AIC-only software barrier does not exist there.
// expect: SYNCALL<SyncAllMode::Soft, SyncCoreType::AICOnly> is not supported on A5
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel(__gm__ int32_t* ws) {
    GlobalTensor<int32_t, pto::Shape<>, pto::Stride<>> gm(ws);
    Tile<TileType::Mat, int32_t, 1, SYNCALL_SOFT_SLOT_INT32> l1;
    SYNCALL<SyncAllMode::Soft, SyncCoreType::AICOnly>(gm, l1);
}
