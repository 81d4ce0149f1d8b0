// mad_mx pairs fp8 with fp8 and fp4 with fp4 into a float accumulator.
// expect: mad_mx: a float accumulator with float8_e4m3_t/float8_e5m2_t or float4_e2m1x2_t/float4_e1m2x2_t operands
#include <pto/pto-inst.hpp>
void kernel(__cc__ float* c, __ca__ float8_e4m3_t* a, __cb__ float4_e2m1x2_t* b) {
    mad_mx(c, a, b, 16, 64, 16, 0, false, false, true);
}
