// TGET (pto-isa docs/isa/comm/TGET.md): a remote read, the peer's GM -> UB
// staging tile -> local GM, chunked to the tile. docs/many-devices.md.
#pragma once
#include <pto/comm/TPut.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace comm {

template <typename GlobalDstData, typename GlobalSrcData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TGET(CallSite cs, GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData,
                          TileData& stagingTileData, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tput<AtomicType::AtomicNone>(cs, dstGlobalData, srcGlobalData, stagingTileData,
                                                    static_cast<TileData*>(nullptr), "TGET");
    return {};
}
template <typename GlobalDstData, typename GlobalSrcData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TGET(CallSite cs, GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData, TileData& pingTile,
                          TileData& pongTile, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tput<AtomicType::AtomicNone>(cs, dstGlobalData, srcGlobalData, pingTile, &pongTile, "TGET");
    return {};
}

}  // namespace comm
}  // namespace pto
#endif
