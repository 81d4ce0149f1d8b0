// The A2A3 Cube core cannot write a Vector core's UB, quantised or not.
// expect: A2A3 has no Acc->Vec path
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileAcc<int32_t, 32, 32> acc;
    Tile<TileType::Vec, int8_t, 32, 32> v;
    Tile<TileType::Scaling, uint64_t, 1, 32> fp;
    TMOV_FP(v, acc, fp);
}
