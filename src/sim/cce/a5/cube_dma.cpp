// A5's GM -> L1 with the ND -> NZ (and DN -> NZ) conversion,
// copy_gm_to_cbuf_multi_nd2nz / _dn2nz, whose L1 side MTE2_NZ_PARA holds
// (docs/intrinsics/a5-cube.md, "GM -> L1").
#include "../cube.hpp"

#include <algorithm>
#include <mutex>
#include <string>
#include <unordered_map>

namespace ptosim::cce {
using namespace detail;

namespace {
struct A5CubeRegs {
    uint64_t mte2_nz_para = 0, channel_para = 0;
};
std::mutex regs_mutex;
std::unordered_map<const Core*, A5CubeRegs> regs_of;
}  // namespace

namespace detail {
void set_a5_cube_reg(const Core& c, CubeReg reg, uint64_t v) {
    std::lock_guard<std::mutex> lock(regs_mutex);
    (reg == CubeReg::Mte2NzPara ? regs_of[&c].mte2_nz_para : regs_of[&c].channel_para) = v;
}
uint64_t a5_cube_reg(const Core& c, CubeReg reg) {
    std::lock_guard<std::mutex> lock(regs_mutex);
    const A5CubeRegs& r = regs_of[&c];
    return reg == CubeReg::Mte2NzPara ? r.mte2_nz_para : r.channel_para;
}
}  // namespace detail

void copy_gm_to_l1_nd2nz_a5(const SourceLoc& loc, const char* op, uint64_t l1, const void* gm, uint64_t loop1,
                            uint16_t n_value, uint32_t d_value, uint64_t loop4, int elem_bytes, bool dn) {
    Core& c = core();
    const uint64_t e = static_cast<uint64_t>(elem_bytes);
    const uint64_t para = a5_cube_reg(c, CubeReg::Mte2NzPara);
    const uint64_t nd_num = para & 0xffff, dst_n = (para >> 16) & 0xffff, dst_c0 = (para >> 32) & 0xffff,
                   dst_nd = para >> 48;
    if (loop1 % e != 0 || loop4 % e != 0)
        fault(loc, std::string(op) + ": the GM strides (" + std::to_string(loop1) + ", " + std::to_string(loop4) +
                       " bytes) must be whole " + std::to_string(e) + "-byte elements");
    if (!dn) {
        // The A2A3 conversion with its strides from this form's operands and
        // MTE2_NZ_PARA (its L1 matrix stride counts elements).
        copy_gm_to_l1_nd2nz(loc, op, l1, gm,
                            {uint32_t(nd_num), n_value, d_value, uint32_t(loop4 / e), uint32_t(loop1 / e),
                             uint32_t(dst_c0), uint32_t(dst_n), uint32_t(dst_nd * 32 / e)},
                            elem_bytes);
        return;
    }
    constexpr uint64_t kBlock = 32;
    const uint64_t c0 = kBlock / e;
    const uint64_t blocks = (uint64_t(d_value) + c0 - 1) / c0;
    const bool any = nd_num && n_value && d_value;
    const uint64_t dst_bytes = any ? (nd_num - 1) * dst_nd * kBlock + (n_value - 1) * dst_n * kBlock +
                                         (blocks - 1) * dst_c0 * kBlock + kBlock
                                   : 0;
    // DN: element (n, d) at d * loop1 + n * e.
    const uint64_t src_span = any ? (d_value - 1) * loop1 + uint64_t(n_value) * e : 0;
    const uint64_t src_bytes = any ? (nd_num - 1) * loop4 + src_span : 0;
    bounds(c, Space::L1, l1, dst_bytes, op, "dst", loc);
    const auto* src = static_cast<const uint8_t*>(gm);
    if (any)
        for (uint64_t i = 0; i < nd_num; ++i) check_gm(src + i * loop4, src_span, op, loc);
    OpRecord r = cube_record(op, Pipe::MTE2, loc, any ? nd_num * n_value * d_value * e : 0);
    r.write(Space::L1, l1, dst_bytes);
    r.read(Space::GM, reinterpret_cast<uintptr_t>(gm), src_bytes);
    r.elements = any ? nd_num * n_value * d_value : 0;
    dispatch(c, r);
    if (!any) return;
    uint8_t* base = local(c, Space::L1) + l1;
    for (uint64_t i = 0; i < nd_num; ++i)
        for (uint64_t n = 0; n < n_value; ++n) {
            uint8_t* row = base + i * dst_nd * kBlock + n * dst_n * kBlock;
            for (uint64_t b = 0; b < blocks; ++b) std::memset(row + b * dst_c0 * kBlock, 0, kBlock);
            for (uint64_t d = 0; d < d_value; ++d)
                std::memcpy(row + (d / c0) * dst_c0 * kBlock + (d % c0) * e, src + i * loop4 + d * loop1 + n * e, e);
        }
}

}  // namespace ptosim::cce
