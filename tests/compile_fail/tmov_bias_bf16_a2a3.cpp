// A2A3's bias table takes float, int32 or half rows; bfloat16 converts on A5 only.
// expect: TMOV/TEXTRACT/TINSERT: element sizes must match (only moves out of Acc convert, and Mat->Bias from half, or bfloat16 on A5, to float)
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Mat, bfloat16_t, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512> src;
    Tile<TileType::Bias, float, 1, 64, BLayout::RowMajor, 1, 64, SLayout::NoneBox, 512> dst;
    TMOV(dst, src);
}
