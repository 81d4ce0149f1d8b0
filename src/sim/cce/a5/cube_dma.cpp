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
    uint64_t mte2_nz_para = 0, channel_para = 0, l3d_rpt_b = 0, padding_b = 0;
};
uint64_t& field(A5CubeRegs& r, CubeReg reg) {
    switch (reg) {
    case CubeReg::Mte2NzPara: return r.mte2_nz_para;
    case CubeReg::ChannelPara: return r.channel_para;
    case CubeReg::L3dRptB: return r.l3d_rpt_b;
    default: return r.padding_b;
    }
}
std::mutex regs_mutex;
std::unordered_map<const Core*, A5CubeRegs> regs_of;
}  // namespace

namespace detail {
void set_a5_cube_reg(const Core& c, CubeReg reg, uint64_t v) {
    std::lock_guard<std::mutex> lock(regs_mutex);
    field(regs_of[&c], reg) = v;
}
uint64_t a5_cube_reg(const Core& c, CubeReg reg) {
    std::lock_guard<std::mutex> lock(regs_mutex);
    return field(regs_of[&c], reg);
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

namespace {
// One burst copy from a buffer of core `from` to a buffer of core `to`.
void cross_copy(const SourceLoc& loc, const char* op, Pipe pipe, Core& from, Space from_space, uint64_t src, Core& to,
                Space to_space, uint64_t dst, const Burst& b, uint8_t peer_subblocks) {
    constexpr uint64_t kBlock = 32;
    const uint64_t len = uint64_t(b.len) * kBlock;
    const uint64_t src_pitch = len + uint64_t(b.src_gap) * kBlock, dst_pitch = len + uint64_t(b.dst_gap) * kBlock;
    const uint64_t src_bytes = b.n ? (b.n - 1) * src_pitch + len : 0, dst_bytes = b.n ? (b.n - 1) * dst_pitch + len : 0;
    bounds(from, from_space, src, src_bytes, op, "src", loc);
    bounds(to, to_space, dst, dst_bytes, op, "dst (the other core's)", loc);
    OpRecord r = cube_record(op, pipe, loc, uint64_t(b.n) * len);
    r.read(from_space, src, src_bytes);
    r.write(to_space, dst, dst_bytes);
    r.peer_subblocks = peer_subblocks;
    dispatch(from, r);
    const uint8_t* s = local(from, from_space) + src;
    uint8_t* d = local(to, to_space) + dst;
    for (uint32_t i = 0; i < b.n; ++i) std::memmove(d + i * dst_pitch, s + i * src_pitch, len);
}
}  // namespace

void copy_l1_to_peer_ub(const SourceLoc& loc, uint64_t ub, uint64_t l1, const Burst& b, int subblock) {
    const char* op = "copy_cbuf_to_ubuf";
    Core& c = core();
    if (c.type != CoreType::AIC)
        fault(loc, std::string(op) + " runs on the Cube core (it reads L1); call it from the Cube side "
                                     "(__DAV_CUBE__) of a mix kernel");
    if (subblock < 0 || subblock > 1)
        fault(loc, std::string(op) + ": sub-block " + std::to_string(subblock) + " is not 0 or 1");
    Core& v = group_core(c, CoreType::AIV, subblock, op, loc);
    cross_copy(loc, op, Pipe::MTE1, c, Space::L1, l1, v, Space::UB, ub, b, uint8_t(1u << subblock));
}

void copy_ub_to_peer_l1(const SourceLoc& loc, uint64_t l1, uint64_t ub, const Burst& b) {
    const char* op = "copy_ubuf_to_cbuf";
    Core& c = core();
    if (c.type != CoreType::AIV)
        fault(loc, std::string(op) + " runs on a Vector core (it reads UB); call it from the Vector side "
                                     "(__DAV_VEC__) of a mix kernel");
    Core& cube = group_core(c, CoreType::AIC, 0, op, loc);
    cross_copy(loc, op, Pipe::MTE3, c, Space::UB, ub, cube, Space::L1, l1, b, 0);
}

}  // namespace ptosim::cce
