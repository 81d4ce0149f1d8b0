// The portable half of ptosim::vmath_f32 and the dispatch to the AVX2 one.
#include <ptosim/vmath.hpp>

#include <cmath>

namespace ptosim {

#if PTOSIM_HAVE_SLEEF
void vmath_f32_avx2(VMath f, const float* in, float* out, size_t n);  // vmath_avx2.cpp
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
}  // namespace

void vmath_f32(VMath f, const float* in, float* out, size_t n) {
#if PTOSIM_HAVE_SLEEF
    if (host_has_avx2()) {
        vmath_f32_avx2(f, in, out, n);
        return;
    }
#endif
    for (size_t i = 0; i < n; ++i) {
        const double x = in[i];
        out[i] = static_cast<float>(f == VMath::Exp ? std::exp(x) : std::log(x));
    }
}

}  // namespace ptosim
