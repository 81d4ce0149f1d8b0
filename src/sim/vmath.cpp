// The portable half of ptosim::vmath_f32 and the dispatch to the AVX-512 and
// AVX2 ones.
#include <ptosim/vmath.hpp>

#include <cmath>
#include <cstring>

namespace ptosim {

#if PTOSIM_HAVE_SLEEF
void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n, bool to_odd);  // vmath_avx2.cpp
#endif
#if PTOSIM_HAVE_SLEEF_AVX512
void vmath_f32_avx512(VMath f, const float* in, float* out, size_t n, bool to_odd);  // vmath_avx512.cpp
#endif

namespace {
bool host_has_avx2() {
#if PTOSIM_HAVE_SLEEF && defined(__x86_64__) && defined(__GNUC__)
    static const bool ok = [] {
        __builtin_cpu_init();
        return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
    }();
    return ok;
#else
    return false;
#endif
}
bool host_has_avx512() {
#if PTOSIM_HAVE_SLEEF_AVX512
    static const bool ok = host_has_avx2() && __builtin_cpu_supports("avx512f");
    return ok;
#else
    return false;
#endif
}
}  // namespace

float vmath_to_float(double r, bool to_odd) {
    float f = static_cast<float>(r);
    if (to_odd && std::isfinite(f) && static_cast<double>(f) != r) {
        uint32_t u;
        std::memcpy(&u, &f, 4);
        if (std::fabs(static_cast<double>(f)) > std::fabs(r)) --u;  // toward zero
        u |= 1u;
        std::memcpy(&f, &u, 4);
    }
    return f;
}

void vmath_f32(VMath f, const float* in, float* out, size_t n, bool to_odd) {
#if PTOSIM_HAVE_SLEEF_AVX512
    if (host_has_avx512()) {
        vmath_f32_avx512(f, in, out, n, to_odd);
        return;
    }
#endif
#if PTOSIM_HAVE_SLEEF
    if (host_has_avx2()) {
        vmath_f32_avx2(f, in, out, n, to_odd);
        return;
    }
#endif
    for (size_t i = 0; i < n; ++i) {
        const double x = in[i];
        out[i] = vmath_to_float(f == VMath::Exp ? std::exp(x) : f == VMath::Log ? std::log(x) : std::sqrt(x), to_odd);
    }
}

}  // namespace ptosim
