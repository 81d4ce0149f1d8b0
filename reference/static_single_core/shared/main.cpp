// ACL host program for the three static kernels: allocate device memory,
// copy inputs, launch through each library's extern "C" entry point on one
// stream, synchronise, copy back, compare with a host reference using the
// seed's tolerances. Prints one PASS/FAIL line per kernel; exit 0 only if all pass.
// Build: ./compile.sh (links build/libadd.so, libmatmul.so, libmatmul_add.so).
#include <acl/acl.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" void call_add(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z);
extern "C" void call_matmul(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c);
extern "C" void call_matmul_add(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* d, uint8_t* ws,
                                uint8_t* out);

namespace {

constexpr int kDim = 64;  // every kernel here is fixed at 64x64 (x64)

// IEEE binary16 <-> float, round to nearest even; enough for the finite
// inputs this program generates (no NaN payloads needed).
uint16_t to_half(float f) {
    uint32_t x;
    std::memcpy(&x, &f, 4);
    const uint32_t sign = (x >> 16) & 0x8000u;
    const int exp = static_cast<int>((x >> 23) & 0xff) - 127 + 15;
    uint32_t mant = x & 0x7fffffu;
    if (exp <= 0) return static_cast<uint16_t>(sign);  // inputs never underflow; flush keeps this short
    if (exp >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    uint32_t h = sign | (static_cast<uint32_t>(exp) << 10) | (mant >> 13);
    const uint32_t rest = mant & 0x1fffu;
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(h);
}
float from_half(uint16_t h) {
    const uint32_t sign = (h & 0x8000u) << 16;
    int exp = (h >> 10) & 0x1f;
    uint32_t mant = h & 0x3ffu;
    uint32_t x;
    if (exp == 0) {
        if (mant == 0) {
            x = sign;
        } else {  // subnormal: renormalise
            exp = 1;
            while (!(mant & 0x400u)) mant <<= 1, --exp;
            x = sign | (static_cast<uint32_t>(exp - 15 + 127) << 23) | ((mant & 0x3ffu) << 13);
        }
    } else if (exp == 31) {
        x = sign | 0x7f800000u | (mant << 13);
    } else {
        x = sign | (static_cast<uint32_t>(exp - 15 + 127) << 23) | (mant << 13);
    }
    float f;
    std::memcpy(&f, &x, 4);
    return f;
}

// The seed's rule: |actual - expected| <= atol + rtol * |expected|.
bool close(const char* name, const std::vector<float>& got, const std::vector<float>& want, double rtol) {
    const double atol = 1e-5;
    size_t bad = 0, worst = 0;
    double worst_err = 0;
    for (size_t i = 0; i < got.size(); ++i) {
        const double err = std::fabs(double(got[i]) - want[i]);
        if (err > atol + rtol * std::fabs(double(want[i]))) ++bad;
        if (err > worst_err) worst_err = err, worst = i;
    }
    if (bad == 0) {
        std::printf("PASS %s (%zu elements, max abs err %g)\n", name, got.size(), worst_err);
        return true;
    }
    std::printf("FAIL %s: %zu of %zu elements outside rtol %g atol %g; worst [%zu] %g vs %g\n", name, bad, got.size(),
                rtol, atol, worst, got[worst], want[worst]);
    return false;
}

struct DeviceBuffer {
    void* ptr = nullptr;
    size_t bytes = 0;
    explicit DeviceBuffer(size_t n) : bytes(n) { aclrtMalloc(&ptr, n, ACL_MEM_MALLOC_HUGE_FIRST); }
    ~DeviceBuffer() { aclrtFree(ptr); }
    uint8_t* get() const { return static_cast<uint8_t*>(ptr); }
    void upload(const void* src) const { aclrtMemcpy(ptr, bytes, src, bytes, ACL_MEMCPY_HOST_TO_DEVICE); }
    void download(void* dst) const { aclrtMemcpy(dst, bytes, ptr, bytes, ACL_MEMCPY_DEVICE_TO_HOST); }
};

// Deterministic multiples of 1/8 in [-4, 4]: exact in fp16, and every matmul
// partial sum is exact in fp32, so the result does not depend on summation order.
std::vector<float> inputs(int n, uint32_t seed) {
    std::vector<float> v(n);
    for (auto& x : v) {
        seed = seed * 1664525u + 1013904223u;
        x = static_cast<float>(static_cast<int>((seed >> 8) % 65) - 32) / 8.0f;
    }
    return v;
}
std::vector<uint16_t> halves(const std::vector<float>& v) {
    std::vector<uint16_t> h(v.size());
    for (size_t i = 0; i < v.size(); ++i) h[i] = to_half(v[i]);
    return h;
}

bool sync(aclrtStream stream, const char* name) {
    if (aclrtSynchronizeStream(stream) == ACL_SUCCESS) return true;
    std::printf("FAIL %s: %s\n", name, aclGetRecentErrMsg());
    return false;
}

bool run_add(aclrtStream stream) {
    const int n = kDim * kDim;
    auto x = inputs(n, 1), y = inputs(n, 2);
    for (auto& v : y) v *= 0.37f;  // not exact: checks the fp16 rounding of the sum
    auto hx = halves(x), hy = halves(y);
    DeviceBuffer dx(n * 2), dy(n * 2), dz(n * 2);
    dx.upload(hx.data());
    dy.upload(hy.data());
    call_add(1, stream, dx.get(), dy.get(), dz.get());
    if (!sync(stream, "acl add_64x64_fp16")) return false;
    std::vector<uint16_t> hz(n);
    dz.download(hz.data());
    std::vector<float> got(n), want(n);
    for (int i = 0; i < n; ++i) {
        got[i] = from_half(hz[i]);
        want[i] = from_half(to_half(from_half(hx[i]) + from_half(hy[i])));
    }
    return close("acl add_64x64_fp16", got, want, 1e-3);
}

std::vector<float> host_matmul(const std::vector<float>& a, const std::vector<float>& b) {
    std::vector<float> c(kDim * kDim, 0.0f);
    for (int i = 0; i < kDim; ++i)
        for (int k = 0; k < kDim; ++k)
            for (int j = 0; j < kDim; ++j) c[i * kDim + j] += a[i * kDim + k] * b[k * kDim + j];
    return c;
}

bool run_matmul(aclrtStream stream) {
    const int n = kDim * kDim;
    auto a = inputs(n, 3), b = inputs(n, 4);
    auto ha = halves(a), hb = halves(b);
    DeviceBuffer da(n * 2), db(n * 2), dc(n * 4);
    da.upload(ha.data());
    db.upload(hb.data());
    call_matmul(1, stream, da.get(), db.get(), dc.get());
    if (!sync(stream, "acl matmul_64x64x64_fp16_fp32")) return false;
    std::vector<float> got(n);
    dc.download(got.data());
    return close("acl matmul_64x64x64_fp16_fp32", got, host_matmul(a, b), 1.3e-6);
}

bool run_matmul_add(aclrtStream stream) {
    const int n = kDim * kDim;
    auto a = inputs(n, 5), b = inputs(n, 6), d = inputs(n, 7);
    for (auto& v : d) v *= 0.731f;
    auto ha = halves(a), hb = halves(b);
    DeviceBuffer da(n * 2), db(n * 2), dd(n * 4), dws(n * 4), dout(n * 4);
    da.upload(ha.data());
    db.upload(hb.data());
    dd.upload(d.data());
    call_matmul_add(1, stream, da.get(), db.get(), dd.get(), dws.get(), dout.get());
    if (!sync(stream, "acl matmul_add_64x64x64_mix")) return false;
    std::vector<float> got(n), want = host_matmul(a, b);
    dout.download(got.data());
    for (int i = 0; i < n; ++i) want[i] += d[i];
    return close("acl matmul_add_64x64x64_mix", got, want, 1.3e-6);
}

}  // namespace

int main() {
    const int device = 0;
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(device) != ACL_SUCCESS) {
        std::printf("FAIL acl init: %s\n", aclGetRecentErrMsg());
        return 2;
    }
    aclrtStream stream = nullptr;
    aclrtCreateStream(&stream);
    bool ok = run_add(stream);
    ok = run_matmul(stream) && ok;
    ok = run_matmul_add(stream) && ok;
    std::printf("SoC %s\n", aclrtGetSocName());  // after the launches: the simulator picks it at the first one
    aclrtDestroyStream(stream);
    aclrtResetDevice(device);
    aclFinalize();
    return ok ? 0 : 1;
}
