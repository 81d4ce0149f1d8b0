// ACL graph example: capture a few kernel launches (add, matmul and the mix
// kernel matmul_add) into a model runtime instance with aclmdlRICaptureBegin/
// End, replay it with aclmdlRIExecuteAsync, and check every replay against
// the same launches issued directly, byte for byte; then update a task group
// with new arguments and replay again. The direct results are first checked
// against a host reference with the seed's tolerances.
//
// Built by dynamic_multi_core/{a2a3,a5}/compile.sh (the entry points have the
// same signatures on both targets). Prints one PASS/FAIL line per check;
// exit 0 only if all pass. Semantics: docs/acl.md, "ACL graphs".
#include <acl/acl.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

extern "C" void call_add(uint32_t block_dim, void* stream, uint8_t* x, uint8_t* y, uint8_t* z, uint32_t rows);
extern "C" void call_matmul(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* c, uint32_t m,
                            uint32_t n, uint32_t k);
extern "C" void call_matmul_add(uint32_t block_dim, void* stream, uint8_t* a, uint8_t* b, uint8_t* d, uint8_t* ws,
                                uint8_t* out, uint32_t m, uint32_t n, uint32_t k);

namespace {

constexpr uint32_t kH = 256;                  // add: static width
constexpr uint32_t kRows = 77;                // add: two 32-row tiles and a tail
constexpr uint32_t kM = 100, kN = 70, kK = 64;      // matmul: tails in m and n
constexpr uint32_t kMm = 64, kMn = 128, kMk = 128;  // matmul_add: two tiles
// block_dim = min(tiles, cores) with tiles well below every profile's cores.
constexpr uint32_t kAddBlocks = 3, kMatmulBlocks = 4, kMixBlocks = 2;

int failures = 0;

void report(bool ok, const char* what, const char* detail = "") {
    std::printf("%s %s%s%s\n", ok ? "PASS" : "FAIL", what, *detail ? ": " : "", detail);
    if (!ok) ++failures;
}

bool acl_ok(aclError e, const char* call) {
    if (e == ACL_SUCCESS) return true;
    std::printf("FAIL %s returned %d: %s\n", call, e, aclGetRecentErrMsg());
    ++failures;
    return false;
}

// Multiples of 1/8 in [-4, 4]: exact in fp16, and every product and partial
// sum of the matmuls is exact in fp32, so the reference does not depend on
// the Cube's summation order.
std::vector<uint16_t> exact_halves(size_t n, uint32_t seed) {
    std::vector<uint16_t> v(n);
    for (size_t i = 0; i < n; ++i) {
        seed = seed * 1664525u + 1013904223u;
        const int q = static_cast<int>((seed >> 8) % 65) - 32;
        v[i] = aclFloatToFloat16(static_cast<float>(q) / 8.0f);
    }
    return v;
}

struct Buffer {
    void* p = nullptr;
    size_t bytes = 0;
    explicit Buffer(size_t n) : bytes(n) {
        if (aclrtMalloc(&p, n, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS) p = nullptr;
    }
    ~Buffer() {
        if (p) (void)aclrtFree(p);
    }
    uint8_t* u8() const { return static_cast<uint8_t*>(p); }
    template <class T>
    void put(const std::vector<T>& h) const {
        (void)aclrtMemcpy(p, bytes, h.data(), h.size() * sizeof(T), ACL_MEMCPY_HOST_TO_DEVICE);
    }
    std::vector<uint8_t> bytes_back() const {
        std::vector<uint8_t> h(bytes);
        (void)aclrtMemcpy(h.data(), bytes, p, bytes, ACL_MEMCPY_DEVICE_TO_HOST);
        return h;
    }
};

// |actual - expected| <= atol + rtol * |expected| (the seed's rule).
bool close(const std::vector<float>& got, const std::vector<float>& want, double rtol, double* worst) {
    *worst = 0;
    bool ok = got.size() == want.size();
    for (size_t i = 0; ok && i < got.size(); ++i) {
        const double err = std::fabs(double(got[i]) - want[i]);
        *worst = std::fmax(*worst, err);
        if (err > 1e-5 + rtol * std::fabs(double(want[i]))) ok = false;
    }
    return ok;
}

std::vector<float> as_floats(const std::vector<uint8_t>& b) {
    std::vector<float> f(b.size() / 4);
    std::memcpy(f.data(), b.data(), f.size() * 4);
    return f;
}

std::vector<float> halves_to_floats(const std::vector<uint8_t>& b, size_t n) {
    std::vector<float> f(n);
    for (size_t i = 0; i < n; ++i) {
        uint16_t h;
        std::memcpy(&h, b.data() + 2 * i, 2);
        f[i] = aclFloat16ToFloat(h);
    }
    return f;
}

}  // namespace

int main() {
    if (!acl_ok(aclInit(nullptr), "aclInit") || !acl_ok(aclrtSetDevice(0), "aclrtSetDevice")) return 1;
    aclrtStream s = nullptr, updater = nullptr;
    if (!acl_ok(aclrtCreateStream(&s), "aclrtCreateStream") ||
        !acl_ok(aclrtCreateStream(&updater), "aclrtCreateStream"))
        return 1;
    std::printf("ACL graph example on %s (simulated by ptosim, not an NPU)\n", aclrtGetSocName());
    {
        const auto hx = exact_halves(kRows * kH, 1), hy = exact_halves(kRows * kH, 2), hx2 = exact_halves(kRows * kH, 3);
        const auto ha = exact_halves(kM * kK, 4), hb = exact_halves(kK * kN, 5);
        const auto hma = exact_halves(kMm * kMk, 6), hmb = exact_halves(kMk * kMn, 7);
        std::vector<float> hd(kMm * kMn);
        for (size_t i = 0; i < hd.size(); ++i) hd[i] = static_cast<float>(static_cast<int>(i % 17) - 8) / 4.0f;
        Buffer x(hx.size() * 2), y(hy.size() * 2), x2(hx2.size() * 2), z(hx.size() * 2), z2(hx.size() * 2);
        Buffer a(ha.size() * 2), b(hb.size() * 2), c(kM * kN * 4);
        Buffer ma(hma.size() * 2), mb(hmb.size() * 2), md(hd.size() * 4), ws(kMixBlocks * 64 * 64 * 4), mo(kMm * kMn * 4);
        x.put(hx), y.put(hy), x2.put(hx2), a.put(ha), b.put(hb), ma.put(hma), mb.put(hmb), md.put(hd);

        auto issue = [&](aclrtStream st) {
            call_add(kAddBlocks, st, x.u8(), y.u8(), z.u8(), kRows);
            call_matmul(kMatmulBlocks, st, a.u8(), b.u8(), c.u8(), kM, kN, kK);
            call_matmul_add(kMixBlocks, st, ma.u8(), mb.u8(), md.u8(), ws.u8(), mo.u8(), kMm, kMn, kMk);
        };
        const Buffer* outs[] = {&z, &c, &mo};

        // 1. Direct launches, checked against the host reference.
        issue(s);
        if (!acl_ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream (direct)")) return 1;
        std::vector<std::vector<uint8_t>> direct;
        for (const Buffer* o : outs) direct.push_back(o->bytes_back());
        {
            std::vector<float> want(kRows * kH);
            for (size_t i = 0; i < want.size(); ++i)
                want[i] = aclFloat16ToFloat(aclFloatToFloat16(aclFloat16ToFloat(hx[i]) + aclFloat16ToFloat(hy[i])));
            double worst = 0;
            report(close(halves_to_floats(direct[0], want.size()), want, 1e-3, &worst), "direct add vs host reference");
            std::vector<float> mm(kM * kN, 0.0f);
            for (uint32_t i = 0; i < kM; ++i)
                for (uint32_t j = 0; j < kN; ++j)
                    for (uint32_t k = 0; k < kK; ++k)
                        mm[i * kN + j] += aclFloat16ToFloat(ha[i * kK + k]) * aclFloat16ToFloat(hb[k * kN + j]);
            report(close(as_floats(direct[1]), mm, 1.3e-6, &worst), "direct matmul vs host reference");
            std::vector<float> mx(kMm * kMn);
            for (uint32_t i = 0; i < kMm; ++i)
                for (uint32_t j = 0; j < kMn; ++j) {
                    float acc = 0;
                    for (uint32_t k = 0; k < kMk; ++k)
                        acc += aclFloat16ToFloat(hma[i * kMk + k]) * aclFloat16ToFloat(hmb[k * kMn + j]);
                    mx[i * kMn + j] = acc + hd[i * kMn + j];
                }
            report(close(as_floats(direct[2]), mx, 1.3e-6, &worst), "direct matmul_add (mix) vs host reference");
        }

        // 2. Capture the same launches; a memset first so every replay starts
        // from cleared outputs.
        if (!acl_ok(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), "aclmdlRICaptureBegin")) return 1;
        for (const Buffer* o : outs) (void)aclrtMemsetAsync(o->p, o->bytes, 0, o->bytes, s);
        issue(s);
        // Global mode refuses a synchronous copy: it would run now, not at the replay.
        std::vector<uint16_t> scratch(16);
        const aclError refused = aclrtMemcpy(z.p, z.bytes, scratch.data(), 32, ACL_MEMCPY_HOST_TO_DEVICE);
        report(refused == ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT,
               "aclrtMemcpy during a GLOBAL capture is refused with ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT (107030)");
        aclmdlRI model = nullptr;
        if (!acl_ok(aclmdlRICaptureEnd(s, &model), "aclmdlRICaptureEnd")) return 1;
        (void)aclmdlRIDebugPrint(model);

        // 3. Replays: each is bit-identical to the direct launches.
        for (int r = 1; r <= 3; ++r) {
            for (const Buffer* o : outs) (void)aclrtMemset(o->p, o->bytes, 0xff, o->bytes);  // the replay clears them
            if (!acl_ok(aclmdlRIExecuteAsync(model, s), "aclmdlRIExecuteAsync") ||
                !acl_ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream (replay)"))
                return 1;
            bool same = true;
            for (size_t i = 0; i < 3; ++i) same = same && outs[i]->bytes_back() == direct[i];
            char what[96];
            std::snprintf(what, sizeof what, "replay %d (add, matmul, matmul_add) bit-identical to the direct launches", r);
            report(same, what);
        }
        acl_ok(aclmdlRIDestroy(model), "aclmdlRIDestroy");
        report(aclmdlRIExecuteAsync(model, s) == ACL_ERROR_RT_PARAM_INVALID,
               "replay after aclmdlRIDestroy is refused with ACL_ERROR_RT_PARAM_INVALID (107000)");

        // 4. A task group updated with new arguments between replays.
        if (!acl_ok(aclmdlRICaptureBegin(s, ACL_MODEL_RI_CAPTURE_MODE_GLOBAL), "aclmdlRICaptureBegin")) return 1;
        aclrtTaskGrp group = nullptr;
        (void)aclmdlRICaptureTaskGrpBegin(s);
        call_add(kAddBlocks, s, x.u8(), y.u8(), z.u8(), kRows);
        if (!acl_ok(aclmdlRICaptureTaskGrpEnd(s, &group), "aclmdlRICaptureTaskGrpEnd")) return 1;
        call_matmul(kMatmulBlocks, s, a.u8(), b.u8(), c.u8(), kM, kN, kK);
        if (!acl_ok(aclmdlRICaptureEnd(s, &model), "aclmdlRICaptureEnd")) return 1;
        if (!acl_ok(aclmdlRICaptureTaskUpdateBegin(updater, group), "aclmdlRICaptureTaskUpdateBegin")) return 1;
        call_add(kAddBlocks, updater, x2.u8(), y.u8(), z2.u8(), kRows);
        if (!acl_ok(aclmdlRICaptureTaskUpdateEnd(updater), "aclmdlRICaptureTaskUpdateEnd")) return 1;
        (void)aclrtMemset(z2.p, z2.bytes, 0, z2.bytes);
        (void)aclrtMemset(c.p, c.bytes, 0, c.bytes);
        if (!acl_ok(aclmdlRIExecuteAsync(model, s), "aclmdlRIExecuteAsync") ||
            !acl_ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream (updated replay)"))
            return 1;
        const auto updated = z2.bytes_back();
        call_add(kAddBlocks, s, x2.u8(), y.u8(), z2.u8(), kRows);  // the same launch, issued directly
        if (!acl_ok(aclrtSynchronizeStream(s), "aclrtSynchronizeStream (direct x2 + y)")) return 1;
        report(updated == z2.bytes_back() && updated != direct[0],
               "replay after a task-group update (add on new inputs) bit-identical to the direct launch");
        report(c.bytes_back() == direct[1], "the task outside the group (matmul) replays unchanged");
        acl_ok(aclmdlRIDestroy(model), "aclmdlRIDestroy");
    }
    (void)aclrtDestroyStream(updater);
    (void)aclrtDestroyStream(s);
    (void)aclrtResetDevice(0);
    (void)aclFinalize();
    std::printf("%s: %d failure(s)\n", failures ? "FAIL acl_graph_main" : "PASS acl_graph_main", failures);
    return failures ? 1 : 0;
}
