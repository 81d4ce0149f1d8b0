// TBROADCAST (pto-isa docs/isa/comm/TBROADCAST.md): the calling rank (the
// group's root) copies its tensor into every rank's tensor of the group,
// its own included, through the staging tile, chunk by chunk.
#pragma once
#include <pto/comm/comm_types.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace ptosim_impl::comm {

template <class PG>
void check_group(const char* op, const SourceLoc& loc, const PG& g) {
    if (g.nranks <= 0 || !g.tensors)
        ptosim::fault(loc, std::string(op) + ": the ParallelGroup has no tensors (" + std::to_string(g.nranks) + " ranks)");
    if (g.rootIdx < 0 || g.rootIdx >= g.nranks)
        ptosim::fault(loc, std::string(op) + ": the ParallelGroup's root index " + std::to_string(g.rootIdx) +
                               " is not a rank of its " + std::to_string(g.nranks) + "; pass the calling rank's index");
}

template <class PG, class GS, class TileData>
void tbroadcast(const CallSite& cs, PG& group, GS& src, TileData& ping, TileData* pong) {
    using GD = typename pto::comm::ParallelGroupTraits<PG>::GlobalDataType;
    check_types<TileData, GD, GS>("TBROADCAST");
    const SourceLoc loc = loc_of(cs);
    check_group("TBROADCAST", loc, group);
    int64_t d[5];
    dims_of(src, d);
    int k = 0;
    each_chunk<TileData>("TBROADCAST", loc, d, [&](int64_t i0, int64_t i1, int64_t i2, int64_t r, int64_t c,
                                                   int64_t rows, int64_t cols) {
        TileData& t = (pong && (k & 1)) ? *pong : ping;
        const int ev = pong ? (k & 1) : 0;
        t.SetValidShape(static_cast<int>(rows), static_cast<int>(cols));
        auto s = piece(src, i0, i1, i2, r, c, rows, cols);
        tload_tile(cs, t, s);
        flag_pair(loc, Pipe::MTE2, Pipe::MTE3, ev);
        for (int peer = 0; peer < group.nranks; ++peer) {
            auto dst = piece(group[peer], i0, i1, i2, r, c, rows, cols);
            check_chunk("TBROADCAST destination", loc, dst, rows, cols);
            tstore<TileData, decltype(dst), AtomicType::AtomicNone, ReluPreMode::NoRelu>(cs, dst, t);
        }
        flag_pair(loc, Pipe::MTE3, Pipe::MTE2, ev);
        ++k;
    });
}

}  // namespace ptosim_impl::comm

namespace comm {

template <typename ParallelGroupType, typename GlobalSrcData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TBROADCAST(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                                TileData& stagingTileData, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tbroadcast(cs, parallelGroup, srcGlobalData, stagingTileData, static_cast<TileData*>(nullptr));
    return {};
}
template <typename ParallelGroupType, typename GlobalSrcData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TBROADCAST(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                                TileData& pingTile, TileData& pongTile, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::tbroadcast(cs, parallelGroup, srcGlobalData, pingTile, &pongTile);
    return {};
}

}  // namespace comm
}  // namespace pto
#endif
