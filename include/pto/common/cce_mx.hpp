// The raw A5 MX intrinsics kernels call directly: load_cbuf_to_ca_mx and
// load_cbuf_to_cb_mx (L1 -> the L0A/L0B scale stores) and mad_mx (the MX
// matrix multiply over L0A/L0B/L0C). They work on the layouts the TMOV,
// TEXTRACT and TMATMUL_MX paths use (docs/isa/matrix.md, "Raw MX
// intrinsics"); the locations of the kernel's call are the faults'.
#pragma once
#include <pto/common/type.hpp>
#include <ptosim/core.hpp>
#include <ptosim/gemm.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <source_location>
#include <string>
#include <type_traits>
#include <vector>

namespace ptosim_cce_mx {

inline ptosim::SourceLoc here(const std::source_location& w) {
    return ptosim::SourceLoc{w.file_name(), static_cast<int>(w.line())};
}

template <class T>
constexpr void require_a5() {
    static_assert(PTOSIM_TARGET_A5 || !std::is_same_v<T, T>,
                  "load_cbuf_to_ca_mx/load_cbuf_to_cb_mx/mad_mx: the MX scale stores and MX cube exist on A5 only");
}

inline uint8_t* local_bytes(ptosim::Core& c, ptosim::Space s, uint64_t addr, uint64_t n, const char* op,
                            const ptosim::SourceLoc& loc) {
    ptosim::check_local(c, s, addr, n, op, loc);
    return c.mem[static_cast<int>(s)] + addr;
}

// L1 -> scale store in 32-byte boxes (16 x 2 E8M0 for A, 2 x 16 for B): box
// (i, j) of the destination, i < rowStep bands, j < colStep pairs, comes from
// box (rowStart + i, colStart + j) of the source; a band is srcStride
// (dstStride) boxes long. pto-isa's TExtractToAmx/TExtractToBmx program it so.
inline void scale_boxes(const char* op, ptosim::Space dst_space, uint64_t dst, const void* src, uint16_t rowStart,
                        uint16_t colStart, uint8_t rowStep, uint8_t colStep, uint16_t srcStride, uint16_t dstStride,
                        const std::source_location& w) {
    const ptosim::SourceLoc loc = here(w);
    ptosim::Core& c = ptosim::core();
    const uint64_t s0 = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(src));
    constexpr uint64_t box = 32;
    ptosim::OpRecord r;
    r.op = op;
    r.pipe = ptosim::Pipe::MTE1;
    r.loc = loc;
    r.elements = static_cast<uint64_t>(rowStep) * colStep * box;
    r.bytes = r.elements;
    if (rowStep && colStep) {
        const uint64_t first = (static_cast<uint64_t>(rowStart) * srcStride + colStart) * box;
        r.read(ptosim::Space::L1, s0 + first, ((rowStep - 1ull) * srcStride + colStep) * box);
        r.write(dst_space, dst, ((rowStep - 1ull) * dstStride + colStep) * box);
    }
    ptosim::dispatch(c, r);
    for (uint64_t i = 0; i < rowStep; ++i)
        for (uint64_t j = 0; j < colStep; ++j) {
            const uint64_t from = s0 + ((rowStart + i) * srcStride + colStart + j) * box;
            const uint64_t to = dst + (i * dstStride + j) * box;
            std::memcpy(local_bytes(c, dst_space, to, box, op, loc), local_bytes(c, ptosim::Space::L1, from, box, op, loc),
                        box);
        }
}

// Value of element `off` (in elements) of an operand buffer.
template <class E>
double operand_value(const uint8_t* base, uint64_t off) {
    if constexpr (ptosim::is_minifloat4x2<E>::value) {
        const uint8_t b = base[off >> 1];
        return ptosim::mini_decode(E::format, off & 1 ? b >> 4 : b & 0xf);
    } else {
        E v;
        std::memcpy(&v, base + off * sizeof(E), sizeof(E));
        return static_cast<double>(static_cast<float>(v));
    }
}

template <class E>
constexpr uint64_t operand_bytes(uint64_t n) {
    return ptosim::is_minifloat4x2<E>::value ? (n + 1) / 2 : n * sizeof(E);
}

}  // namespace ptosim_cce_mx

template <class S>
inline void load_cbuf_to_ca_mx(uint64_t dst, S* src, uint16_t rowStart, uint16_t colStart, uint8_t rowStep,
                               uint8_t colStep, uint16_t srcStride, uint16_t dstStride,
                               std::source_location w = std::source_location::current()) {
    ptosim_cce_mx::require_a5<S>();
    ptosim_cce_mx::scale_boxes("load_cbuf_to_ca_mx", ptosim::Space::L0AMX, dst, src, rowStart, colStart, rowStep,
                               colStep, srcStride, dstStride, w);
}

template <class S>
inline void load_cbuf_to_cb_mx(uint64_t dst, S* src, uint16_t rowStart, uint16_t colStart, uint8_t rowStep,
                               uint8_t colStep, uint16_t srcStride, uint16_t dstStride,
                               std::source_location w = std::source_location::current()) {
    ptosim_cce_mx::require_a5<S>();
    ptosim_cce_mx::scale_boxes("load_cbuf_to_cb_mx", ptosim::Space::L0BMX, dst, src, rowStart, colStart, rowStep,
                               colStep, srcStride, dstStride, w);
}

// C (m x n, float, Nz in L0C) = [C or 0] [+ bias] + sum_p A(i, p) 2^(sa(i, p/32) - 127) B(p, j) 2^(sb(p/32, j) - 127).
// A is Nz in L0A (16-row bands, 32-byte k blocks, k-block major), B Zn in
// L0B, their scales at the operands' addresses / 16 in the ZZ / NN box
// order with ceil(k/64) pairs per band. With biasCtrl the upper 32 bits of
// `c` are the bias row's bias-table address (as pto-isa's TMatmulMxBias packs
// it); initZero starts from 0 instead of C. unitFlag and gemvCtrl only steer
// the hardware's pipelining.
template <class C, class A, class B>
inline void mad_mx(C* c, A* a, B* b, uint16_t m, uint16_t k, uint16_t n, uint8_t /*unitFlag*/, bool /*gemvCtrl*/,
                   bool biasCtrl, bool initZero, std::source_location w = std::source_location::current()) {
    using namespace ptosim_cce_mx;
    require_a5<A>();
    using TA = std::remove_cv_t<A>;
    using TB = std::remove_cv_t<B>;
    constexpr bool fp8 = (std::is_same_v<TA, float8_e4m3_t> || std::is_same_v<TA, float8_e5m2_t>) &&
                         (std::is_same_v<TB, float8_e4m3_t> || std::is_same_v<TB, float8_e5m2_t>);
    constexpr bool fp4 = ptosim::is_minifloat4x2<TA>::value && ptosim::is_minifloat4x2<TB>::value;
    static_assert(std::is_same_v<std::remove_cv_t<C>, float> && (fp8 || fp4),
                  "mad_mx: a float accumulator with float8_e4m3_t/float8_e5m2_t or float4_e2m1x2_t/float4_e1m2x2_t "
                  "operands (fp8 with fp8, fp4 with fp4)");
    const ptosim::SourceLoc loc = here(w);
    ptosim::Core& core = ptosim::core();
    if (m < 1 || m > 4095 || k < 1 || k > 4095 || n < 1 || n > 4095)
        ptosim::fault(loc, "mad_mx: m, k and n must lie in 1..4095 (m = " + std::to_string(m) + ", k = " +
                               std::to_string(k) + ", n = " + std::to_string(n) + ")");
    const uint64_t craw = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(c));
    const uint64_t caddr = craw & 0xffffffffull, bias_addr = craw >> 32;
    const uint64_t aaddr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(a));
    const uint64_t baddr = static_cast<uint64_t>(reinterpret_cast<uintptr_t>(b));
    constexpr uint64_t c0a = ptosim::is_minifloat4x2<TA>::value ? 64 : 32 / sizeof(TA);
    constexpr uint64_t c0b = ptosim::is_minifloat4x2<TB>::value ? 64 : 32 / sizeof(TB);
    const uint64_t mp = (m + 15ull) / 16 * 16, np = (n + 15ull) / 16 * 16;
    const uint64_t kpa = (k + c0a - 1) / c0a * c0a, kpb = (k + c0b - 1) / c0b * c0b;
    const uint64_t pairs = (k + 63ull) / 64;
    const uint8_t* abase = local_bytes(core, ptosim::Space::L0A, aaddr, operand_bytes<TA>(mp * kpa), "mad_mx", loc);
    const uint8_t* bbase = local_bytes(core, ptosim::Space::L0B, baddr, operand_bytes<TB>(kpb * np), "mad_mx", loc);
    const uint8_t* sabase = local_bytes(core, ptosim::Space::L0AMX, aaddr >> 4, mp * pairs * 2, "mad_mx", loc);
    const uint8_t* sbbase = local_bytes(core, ptosim::Space::L0BMX, baddr >> 4, np * pairs * 2, "mad_mx", loc);
    uint8_t* cbase = local_bytes(core, ptosim::Space::L0C, caddr, mp * np * 4, "mad_mx", loc);
    const float* bias = biasCtrl ? reinterpret_cast<const float*>(
                                       local_bytes(core, ptosim::Space::BT, bias_addr, n * 4ull, "mad_mx", loc))
                                 : nullptr;
    ptosim::OpRecord r;
    r.op = "mad_mx";
    r.pipe = ptosim::Pipe::M;
    r.loc = loc;
    r.elements = static_cast<uint64_t>(m) * n;
    r.flops = 2ull * m * n * k;
    r.bytes = operand_bytes<TA>(static_cast<uint64_t>(m) * k) + operand_bytes<TB>(static_cast<uint64_t>(k) * n);
    r.read(ptosim::Space::L0A, aaddr, operand_bytes<TA>(mp * kpa));
    r.read(ptosim::Space::L0B, baddr, operand_bytes<TB>(kpb * np));
    r.read(ptosim::Space::L0AMX, aaddr >> 4, mp * pairs * 2);
    r.read(ptosim::Space::L0BMX, baddr >> 4, np * pairs * 2);
    if (biasCtrl) r.read(ptosim::Space::BT, bias_addr, n * 4ull);
    r.write(ptosim::Space::L0C, caddr, mp * np * 4);
    ptosim::dispatch(core, r);
    auto e8m0 = [](uint8_t code) { return code == 0xff ? NAN : std::ldexp(1.0, code - 127); };
    // Nz: box (i/16, p/c0) at (p/c0) * bands + i/16, row-major inside.
    auto a_off = [&](uint64_t i, uint64_t p) { return ((p / c0a) * (mp / 16) + i / 16) * 16 * c0a + (i % 16) * c0a + p % c0a; };
    // Zn: box (p/c0, j/16) at (p/c0) * n-bands + j/16, column-major inside.
    auto b_off = [&](uint64_t p, uint64_t j) { return ((p / c0b) * (np / 16) + j / 16) * 16 * c0b + (j % 16) * c0b + p % c0b; };
    auto c_off = [&](uint64_t i, uint64_t j) { return ((j / 16) * (mp / 16) + i / 16) * 256 + (i % 16) * 16 + j % 16; };
    auto sa_off = [&](uint64_t i, uint64_t s) { return (i / 16) * 32 * pairs + (s / 2) * 32 + (i % 16) * 2 + s % 2; };
    auto sb_off = [&](uint64_t s, uint64_t j) { return (j / 16) * 32 * pairs + (s / 2) * 32 + (j % 16) * 2 + s % 2; };
    std::vector<float> av(static_cast<size_t>(m) * k), bv(static_cast<size_t>(k) * n), cv(static_cast<size_t>(m) * n);
    for (uint64_t i = 0; i < m; ++i)
        for (uint64_t p = 0; p < k; ++p)
            av[i * k + p] = static_cast<float>(operand_value<TA>(abase, a_off(i, p)) * e8m0(sabase[sa_off(i, p / 32)]));
    for (uint64_t p = 0; p < k; ++p)
        for (uint64_t j = 0; j < n; ++j)
            bv[p * n + j] = static_cast<float>(operand_value<TB>(bbase, b_off(p, j)) * e8m0(sbbase[sb_off(p / 32, j)]));
    for (uint64_t i = 0; i < m; ++i)
        for (uint64_t j = 0; j < n; ++j) {
            float v = 0.0f;
            if (!initZero) std::memcpy(&v, cbase + c_off(i, j) * 4, 4);
            if (bias) v += bias[j];
            cv[i * n + j] = v;
        }
    ptosim::gemm_accumulate(m, n, k, av.data(), bv.data(), cv.data());
    for (uint64_t i = 0; i < m; ++i)
        for (uint64_t j = 0; j < n; ++j) std::memcpy(cbase + c_off(i, j) * 4, &cv[i * n + j], 4);
}
