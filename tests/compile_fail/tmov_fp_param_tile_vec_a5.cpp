// The per-column parameters live in FB: a Vec tile cannot carry them.
// expect: fixpipe quantisation parameters come from a Scaling (FB) tile
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileAcc<float, 32, 32> acc;
    Tile<TileType::Mat, int8_t, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512> mat;
    Tile<TileType::Vec, uint64_t, 1, 32> fp;
    TMOV_FP(mat, acc, fp);
}
