// A2A3 fixpipe moves into L1 write Nz fractals only.
// expect: A2A3 quantised moves into L1 write an Nz Mat tile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileAcc<int32_t, 32, 32> acc;
    Tile<TileType::Mat, int8_t, 16, 32> mat;
    Tile<TileType::Scaling, uint64_t, 1, 32> fp;
    TEXTRACT_FP(mat, acc, fp, 0, 0);
}
