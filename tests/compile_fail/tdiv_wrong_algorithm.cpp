// The precision argument of TDIV is a DivAlgorithm, as in pto-isa.
// expect: TDIV: PrecisionType must be a DivAlgorithm value
#include <pto/pto-inst.hpp>
using namespace pto;
void kernel() {
    Tile<TileType::Vec, float, 16, 64> d, a, b;
    TDIV<ExpAlgorithm::HIGH_PRECISION>(d, a, b);
}
