// TGATHER (pto-isa docs/isa/comm/TGATHER.md): the calling rank (root)
// gathers every rank's tensor of the group into its own, rank r's H rows at
// rows [r*H, (r+1)*H) of DIM_3, through the staging tile.
#pragma once
#include <pto/comm/TBroadCast.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace ptosim_impl::comm {

// TGATHER (gather) and TSCATTER (!gather): rank `peer`'s rows sit at
// rows [peer * H, ...) of the root's tensor.
template <bool gather, class PG, class GL, class TileData>
void tgather_scatter(const CallSite& cs, PG& group, GL& local, TileData& ping, TileData* pong, const char* op) {
    using GR = typename pto::comm::ParallelGroupTraits<PG>::GlobalDataType;
    check_types<TileData, GR, GL>(op);
    const SourceLoc loc = loc_of(cs);
    check_group(op, loc, group);
    int k = 0;
    for (int peer = 0; peer < group.nranks; ++peer) {
        GR& remote = group[peer];
        int64_t d[5];
        dims_of(remote, d);
        if (local.GetShape(3) < d[3] * group.nranks)
            ptosim::fault(loc, std::string(op) + ": the local tensor has " + std::to_string(local.GetShape(3)) +
                                   " rows (DIM_3); " + std::to_string(group.nranks) + " ranks of " +
                                   std::to_string(d[3]) + " rows need " + std::to_string(d[3] * group.nranks));
        each_chunk<TileData>(op, loc, d, [&](int64_t i0, int64_t i1, int64_t i2, int64_t r, int64_t c, int64_t rows,
                                             int64_t cols) {
            TileData& t = (pong && (k & 1)) ? *pong : ping;
            t.SetValidShape(static_cast<int>(rows), static_cast<int>(cols));
            auto far = piece(remote, i0, i1, i2, r, c, rows, cols);
            auto near = piece(local, i0, i1, i2, peer * d[3] + r, c, rows, cols);
            if constexpr (gather) move_chunk<AtomicType::AtomicNone>(cs, loc, t, near, far, pong ? (k & 1) : 0, op);
            else move_chunk<AtomicType::AtomicNone>(cs, loc, t, far, near, pong ? (k & 1) : 0, op);
            ++k;
        });
    }
}

}  // namespace ptosim_impl::comm

namespace comm {

template <typename ParallelGroupType, typename GlobalDstData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TGATHER(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& stagingTileData, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tgather_scatter<true>(cs, parallelGroup, dstGlobalData, stagingTileData,
                                             static_cast<TileData*>(nullptr), "TGATHER");
    return {};
}
template <typename ParallelGroupType, typename GlobalDstData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TGATHER(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& pingTile, TileData& pongTile, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tgather_scatter<true>(cs, parallelGroup, dstGlobalData, pingTile, &pongTile, "TGATHER");
    return {};
}

}  // namespace comm
}  // namespace pto
#endif
