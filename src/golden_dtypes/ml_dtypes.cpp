// The Python module ml_dtypes: bfloat16, float8_e4m3fn, float8_e5m2 and
// float4_e2m1fn, the types pto-isa's gen_data.py scripts import from the
// ml_dtypes package (numpy_types.hpp says why and how).
#include "numpy_types.hpp"

namespace {

struct BFloat16 {
    using Bits = uint16_t;
    static constexpr const char* name = "bfloat16";
    static constexpr const char* qualified_name = "ml_dtypes.bfloat16";
    static constexpr char type_char = 'E';
    static Bits encode(float f) { return ptosim::float_to_bf16_bits(f); }
    static float decode(Bits b) { return ptosim::bf16_bits_to_float(b); }
};

// OCP FP8, rounded to nearest even as the package does.
struct E4M3Spec {
    static constexpr MiniFormat format = MiniFormat::E4M3;
    static constexpr MiniRound round = MiniRound::NearestEven;
    static constexpr const char* name = "float8_e4m3fn";
    static constexpr const char* qualified_name = "ml_dtypes.float8_e4m3fn";
    static constexpr char type_char = '4';
};
struct E5M2Spec {
    static constexpr MiniFormat format = MiniFormat::E5M2;
    static constexpr MiniRound round = MiniRound::NearestEven;
    static constexpr const char* name = "float8_e5m2";
    static constexpr const char* qualified_name = "ml_dtypes.float8_e5m2";
    static constexpr char type_char = '5';
};

// OCP MX FP4 (E2M1: no Inf, no NaN), one element per byte in the low nibble, as
// the package stores it; the same format as en_dtypes' float4_e2m1. A5's
// tquant_dn imports it from here (3186c381).
struct E2M1FNSpec {
    static constexpr MiniFormat format = MiniFormat::E2M1;
    static constexpr MiniRound round = MiniRound::NearestEven;
    static constexpr const char* name = "float4_e2m1fn";
    static constexpr const char* qualified_name = "ml_dtypes.float4_e2m1fn";
    static constexpr char type_char = '3';
};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "ml_dtypes",
    "ptolab's NumPy element types bfloat16, float8_e4m3fn, float8_e5m2 and float4_e2m1fn for pto-isa's golden "
    "scripts "
    "(not the ml_dtypes package; see docs/conformance-run.md).",
    -1,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace

PyMODINIT_FUNC PyInit_ml_dtypes() {
    return create_module<BFloat16, MiniFloat<E4M3Spec>, MiniFloat<E5M2Spec>, MiniFloat<E2M1FNSpec>>(&module_def);
}
