// The raw CCE data-move intrinsics that kernels (pto-isa's own system tests
// among them) call directly to stage or read back buffers: burst copies
// between L1, UB and GM and the L1 fill. Each copies `nBurst` bursts of
// `lenBurst` units, the source and destination advancing by the burst plus
// their gap; units are 32-byte blocks unless the name says `_align_v2`
// (bytes, strides measured start to start). What each does on the simulator
// and its source: docs/api.md, "Device builtins".
#pragma once
#include <pto/common/type.hpp>
#include <ptosim/core.hpp>

#include <cstring>
#include <source_location>
#include <string>

namespace ptosim_cce_dma {

// One end of a burst copy: a core's local buffer (addresses as Tile::data()
// gives them) or GM (host pointers).
struct End {
    ptosim::Core* core;  // null for GM
    ptosim::Space space;
    uint64_t addr;
};

inline End local(ptosim::Core& c, ptosim::Space s, const volatile void* p) {
    return {&c, s, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p))};
}
inline End gm(const volatile void* p) {
    return {nullptr, ptosim::Space::GM, static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p))};
}

// A5's Cube core writes the UB of the Vector sub-block `sid` of its group.
inline End sub_block_ub(ptosim::Core& c, int sid, const volatile void* p, const char* op, const ptosim::SourceLoc& loc) {
    if (c.mem_size[static_cast<int>(ptosim::Space::UB)] != 0) return local(c, ptosim::Space::UB, p);
    return local(ptosim::group_core(c, ptosim::CoreType::AIV, sid, op, loc), ptosim::Space::UB, p);
}

inline uint8_t* bytes_at(const End& e, uint64_t off, uint64_t n, const char* op, const ptosim::SourceLoc& loc) {
    if (!e.core) {
        auto* p = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(e.addr + off));
        ptosim::check_gm(p, n, op, loc);
        return p;
    }
    ptosim::check_local(*e.core, e.space, e.addr + off, n, op, loc);
    return e.core->mem[static_cast<int>(e.space)] + e.addr + off;
}

inline void record_span(ptosim::OpRecord& r, const End& e, uint64_t span, bool write) {
    if (write) r.write(e.space, e.addr, span);
    else r.read(e.space, e.addr, span);
}

// n bursts of len bytes; the source advances by src_step, the destination by dst_step.
inline void bursts(const char* op, ptosim::Pipe pipe, const End& src, const End& dst, uint64_t n, uint64_t len,
                   uint64_t src_step, uint64_t dst_step, const std::source_location& where) {
    const ptosim::SourceLoc loc{where.file_name(), static_cast<int>(where.line())};
    ptosim::Core& c = ptosim::core();
    ptosim::OpRecord r;
    r.op = op;
    r.pipe = pipe;
    r.loc = loc;
    r.elements = n * len;
    r.bytes = n * len;
    if (n > 0 && len > 0) {
        record_span(r, src, (n - 1) * src_step + len, false);
        record_span(r, dst, (n - 1) * dst_step + len, true);
    }
    if (dst.core && dst.core != &c) r.peer_subblocks = static_cast<uint8_t>(1u << dst.core->subblock_id);
    ptosim::dispatch(c, r);
    for (uint64_t i = 0; i < n; ++i) {
        const uint8_t* s = bytes_at(src, i * src_step, len, op, loc);
        uint8_t* d = bytes_at(dst, i * dst_step, len, op, loc);
        std::memmove(d, s, len);
    }
}

}  // namespace ptosim_cce_dma

#if !PTOSIM_TARGET_A5
// L1 -> UB, in 32-byte blocks with gaps in blocks. (On A5, where the Cube core
// writes the UB of Vector sub-block `sid`, it is the CCE layer's,
// cce/a5/cube_dma.hpp.)
inline void copy_cbuf_to_ubuf(void* dst, void* src, uint8_t sid, uint16_t nBurst, uint16_t lenBurst, uint16_t srcGap,
                              uint16_t dstGap, std::source_location w = std::source_location::current()) {
    using namespace ptosim_cce_dma;
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc{w.file_name(), static_cast<int>(w.line())};
    bursts("copy_cbuf_to_ubuf", ptosim::Pipe::MTE1, local(c, ptosim::Space::L1, src),
           sub_block_ub(c, sid, dst, "copy_cbuf_to_ubuf", loc), nBurst, 32ull * lenBurst, 32ull * (lenBurst + srcGap),
           32ull * (lenBurst + dstGap), w);
}
#endif

#if PTOSIM_TARGET_A5
// L1 -> GM is A2A3's (cce/a2a3/cube_dma.hpp); on A5 the name stops the build.
template <class D, class S>
inline void copy_cbuf_to_gm(D*, S*, uint8_t, uint16_t, uint16_t, uint16_t, uint16_t) {
    static_assert(sizeof(D) == 0, "copy_cbuf_to_gm: A5 has no L1 -> GM path (as TSTORE of a Mat tile)");
}
#endif

#if !PTOSIM_TARGET_A5
// The byte-stride bursts on A2A3, ptolab's own. On A5 they are the CCE
// layer's (cce/a5/dma.hpp, cce/a5/cube_dma.hpp), one definition each.
// UB -> GM (A5): lenBurst bytes per burst; strides are start-to-start bytes.
template <class D, class S>
inline void copy_ubuf_to_gm_align_v2(D* dst, S* src, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst,
                                     uint8_t /*l2CacheCtl*/, uint64_t dstStride, uint32_t srcStride,
                                     std::source_location w = std::source_location::current()) {
    using namespace ptosim_cce_dma;
    bursts("copy_ubuf_to_gm_align_v2", ptosim::Pipe::MTE3, local(ptosim::core(), ptosim::Space::UB, src), gm(dst),
           nBurst, lenBurst, srcStride, dstStride, w);
}

// GM -> L1 (A5): lenBurst bytes per burst; strides are start-to-start bytes.
template <class D, class S>
inline void copy_gm_to_cbuf_align_v2(D* dst, S* src, uint8_t /*sid*/, uint16_t nBurst, uint32_t lenBurst,
                                     uint8_t /*leftPadding*/, uint8_t /*rightPadding*/, bool /*dataSelect*/,
                                     uint8_t /*l2CacheCtl*/, uint64_t srcStride, uint32_t dstStride,
                                     std::source_location w = std::source_location::current()) {
    using namespace ptosim_cce_dma;
    bursts("copy_gm_to_cbuf_align_v2", ptosim::Pipe::MTE2, gm(src), local(ptosim::core(), ptosim::Space::L1, dst),
           nBurst, lenBurst, srcStride, dstStride, w);
}
#endif

// create_cbuf_matrix is the CCE layer's on both targets (cce/cube_l1.hpp).
