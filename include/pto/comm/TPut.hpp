// TPUT (pto-isa docs/isa/comm/TPUT.md): a remote write, local GM -> UB
// staging tile -> the peer's GM, chunked to the tile ("2D sliding"), with
// an optional atomic add at the destination. docs/many-devices.md.
#pragma once
#include <pto/comm/comm_types.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace ptosim_impl::comm {

template <AtomicType atomic, class GD, class GS, class TileData>
void tput(const CallSite& cs, GD& dst, GS& src, TileData& ping, TileData* pong, const char* op) {
    check_types<TileData, GD, GS>(op);
    const SourceLoc loc = loc_of(cs);
    int64_t d[5];
    dims_of(src, d);
    for (int i = 0; i < 5; ++i)
        if (dst.GetShape(i) != d[i])
            ptosim::fault(loc, std::string(op) + ": destination shape dim " + std::to_string(i) + " is " +
                                   std::to_string(dst.GetShape(i)) + ", source " + std::to_string(d[i]));
    int k = 0;
    each_chunk<TileData>(op, loc, d, [&](int64_t i0, int64_t i1, int64_t i2, int64_t r, int64_t c, int64_t rows,
                                         int64_t cols) {
        TileData& t = (pong && (k & 1)) ? *pong : ping;
        t.SetValidShape(static_cast<int>(rows), static_cast<int>(cols));
        move_chunk<atomic>(cs, loc, t, piece(dst, i0, i1, i2, r, c, rows, cols), piece(src, i0, i1, i2, r, c, rows, cols),
                           pong ? (k & 1) : 0, op);
        ++k;
    });
}

}  // namespace ptosim_impl::comm

namespace comm {

template <AtomicType atomicType = AtomicType::AtomicNone, typename GlobalDstData, typename GlobalSrcData,
          typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TPUT(CallSite cs, GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData,
                          TileData& stagingTileData, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tput<atomicType>(cs, dstGlobalData, srcGlobalData, stagingTileData,
                                        static_cast<TileData*>(nullptr), "TPUT");
    return {};
}
template <AtomicType atomicType = AtomicType::AtomicNone, typename GlobalDstData, typename GlobalSrcData,
          typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TPUT(CallSite cs, GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData, TileData& pingTile,
                          TileData& pongTile, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tput<atomicType>(cs, dstGlobalData, srcGlobalData, pingTile, &pongTile, "TPUT");
    return {};
}
template <typename GlobalDstData, typename GlobalSrcData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TPUT(CallSite cs, GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData,
                          TileData& stagingTileData, AtomicType atomicType, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    if (atomicType == AtomicType::AtomicAdd)
        ptosim_impl::comm::tput<AtomicType::AtomicAdd>(cs, dstGlobalData, srcGlobalData, stagingTileData,
                                                       static_cast<TileData*>(nullptr), "TPUT");
    else
        ptosim_impl::comm::tput<AtomicType::AtomicNone>(cs, dstGlobalData, srcGlobalData, stagingTileData,
                                                        static_cast<TileData*>(nullptr), "TPUT");
    return {};
}
// Explicit template arguments (TPUT<AtomicType::AtomicAdd>(...)): the call
// site is the return address.
template <AtomicType atomicType = AtomicType::AtomicNone, typename GlobalDstData, typename GlobalSrcData,
          typename TileData, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TPUT(GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData, TileData& stagingTileData,
                                 WaitEvents&... events) {
    return TPUT<atomicType>(PTOSIM_CALLER, dstGlobalData, srcGlobalData, stagingTileData, events...);
}
template <AtomicType atomicType = AtomicType::AtomicNone, typename GlobalDstData, typename GlobalSrcData,
          typename TileData, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TPUT(GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData, TileData& pingTile,
                                 TileData& pongTile, WaitEvents&... events) {
    return TPUT<atomicType>(PTOSIM_CALLER, dstGlobalData, srcGlobalData, pingTile, pongTile, events...);
}

}  // namespace comm
}  // namespace pto
#endif
