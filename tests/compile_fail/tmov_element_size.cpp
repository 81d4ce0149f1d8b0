// TMOV between Vec tiles does not convert: element sizes must match.
// expect: TMOV/TEXTRACT/TINSERT: element sizes must match (only moves out of Acc convert, and Mat->Bias from half, or bfloat16 on A5, to float)
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, half, 16, 16> src;
    Tile<TileType::Vec, float, 16, 16> dst;
    TMOV(dst, src);
}
