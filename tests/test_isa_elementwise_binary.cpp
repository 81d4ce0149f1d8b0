// Element-wise tile-tile instructions against the scalar references of
// test_isa_elementwise_util.hpp, every element type of the compiled target.
#include "test_isa_elementwise_util.hpp"

namespace {

// ---------------------------------------------------------------- tile-tile

EW_TEST(TSUB, SubT, inputs<T>(Gen::Arith), TSUB(d, a, b), return r_sub(a, b))
EW_TEST(TMUL, MulT, inputs<T>(Gen::Arith), TMUL(d, a, b), return r_mul(a, b))
EW_TEST(TDIV, DivT, inputs<T>(Gen::Arith, Gen::Divisor), TDIV(d, a, b), return r_div(a, b))
EW_TEST(TMAX, SubT, inputs<T>(Gen::Arith), TMAX(d, a, b), return r_max(a, b))
EW_TEST(TMIN, MinT, inputs<T>(Gen::Arith), TMIN(d, a, b), return r_min(a, b))
EW_TEST(TAND, BitTT, inputs<T>(Gen::Arith), TAND(d, a, b), return wrap<T>(I128(a) & I128(b)))
EW_TEST(TOR, BitTT, inputs<T>(Gen::Arith), TOR(d, a, b), return wrap<T>(I128(a) | I128(b)))
EW_TEST(TXOR, BitTT, inputs<T>(Gen::Arith), TXOR(d, a, b, c), return wrap<T>(I128(a) ^ I128(b)))
EW_TEST(TSHL, ShiftT, inputs<T>(Gen::Arith, Gen::Shift), TSHL(d, a, b), return r_shl(a, b))
EW_TEST(TSHR, ShiftT, inputs<T>(Gen::Arith, Gen::Shift), TSHR(d, a, b), return r_shr(a, b))
EW_TEST(TREM, RemT, inputs<T>(Gen::Arith, Gen::Divisor), TREM(d, a, b, c), return r_rem(a, b))
EW_TEST(TFMOD, RemT, inputs<T>(Gen::Arith, Gen::Divisor), TFMOD(d, a, b), return r_fmod(a, b))
EW_TEST(TPRELU, FpT, inputs<T>(Gen::Arith), TPRELU(d, a, b, c), return r_relu_slope(a, b))
EW_TEST(TADDC, ArithT, inputs<T>(Gen::Arith), TADDC(d, a, b, c), return r_add(r_add(a, b), c))
EW_TEST(TSUBC, ArithT, inputs<T>(Gen::Arith), TSUBC(d, a, b, c), return r_add(r_sub(a, b), c))

}  // namespace
