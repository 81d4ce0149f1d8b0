// A2A3 quantised moves into L1 take a float accumulator to int8_t only.
// expect: A2A3 quantised TMOV/TEXTRACT/TINSERT into L1 convert a float Acc to int8_t only
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    TileAcc<float, 32, 32> acc;
    Tile<TileType::Mat, uint8_t, 32, 32, BLayout::ColMajor, 32, 32, SLayout::RowMajor, 512> mat;
    Tile<TileType::Scaling, uint64_t, 1, 32> fp;
    TMOV_FP(mat, acc, fp);
}
