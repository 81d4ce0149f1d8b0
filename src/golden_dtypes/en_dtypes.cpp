// The Python module en_dtypes: hifloat8, float4_e2m1, float4_e1m2 and
// float8_e8m0, the types pto-isa's A5 gen_data.py scripts import from the
// en_dtypes package (numpy_types.hpp says why and how). The package's
// float6 types are left out: no pto-isa script uses them and ptosim has no
// codec for them.
#include "numpy_types.hpp"

namespace {

// HiFloat8 rounds half away from zero, the rounding its paper defines and
// the only one Ascend's float->hifloat8 conversions implement (CAST_ROUND,
// "rna"); the MX formats round to nearest even.
struct HiF8Spec {
    static constexpr MiniFormat format = MiniFormat::HiF8;
    static constexpr MiniRound round = MiniRound::NearestAway;
    static constexpr const char* name = "hifloat8";
    static constexpr const char* qualified_name = "en_dtypes.hifloat8";
    static constexpr char type_char = '8';
};
struct E2M1Spec {
    static constexpr MiniFormat format = MiniFormat::E2M1;
    static constexpr MiniRound round = MiniRound::NearestEven;
    static constexpr const char* name = "float4_e2m1";
    static constexpr const char* qualified_name = "en_dtypes.float4_e2m1";
    static constexpr char type_char = '2';
};
struct E1M2Spec {
    static constexpr MiniFormat format = MiniFormat::E1M2;
    static constexpr MiniRound round = MiniRound::NearestEven;
    static constexpr const char* name = "float4_e1m2";
    static constexpr const char* qualified_name = "en_dtypes.float4_e1m2";
    static constexpr char type_char = '1';
};
struct E8M0Spec {
    static constexpr MiniFormat format = MiniFormat::E8M0;
    static constexpr MiniRound round = MiniRound::NearestEven;
    static constexpr const char* name = "float8_e8m0";
    static constexpr const char* qualified_name = "en_dtypes.float8_e8m0";
    static constexpr char type_char = '0';
};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "en_dtypes",
    "ptolab's NumPy element types hifloat8, float4_e2m1, float4_e1m2 and float8_e8m0 for pto-isa's golden "
    "scripts (not the en_dtypes package; see docs/conformance-run.md).",
    -1,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
    nullptr,
};

}  // namespace

PyMODINIT_FUNC PyInit_en_dtypes() {
    return create_module<MiniFloat<HiF8Spec>, MiniFloat<E2M1Spec>, MiniFloat<E1M2Spec>, MiniFloat<E8M0Spec>>(
        &module_def);
}
