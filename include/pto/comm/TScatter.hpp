// TSCATTER (pto-isa docs/isa/comm/TSCATTER.md): the calling rank (root)
// sends rows [r*H, (r+1)*H) of its tensor (DIM_3) to rank r's tensor of the
// group, its own included, through the staging tile.
#pragma once
#include <pto/comm/TGather.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace comm {

template <typename ParallelGroupType, typename GlobalSrcData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TSCATTER(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                              TileData& stagingTileData, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tgather_scatter<false>(cs, parallelGroup, srcGlobalData, stagingTileData,
                                              static_cast<TileData*>(nullptr), "TSCATTER");
    return {};
}
template <typename ParallelGroupType, typename GlobalSrcData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TSCATTER(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                              TileData& pingTile, TileData& pongTile, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tgather_scatter<false>(cs, parallelGroup, srcGlobalData, pingTile, &pongTile, "TSCATTER");
    return {};
}

}  // namespace comm
}  // namespace pto
#endif
