// TREDUCE (pto-isa docs/isa/comm/TREDUCE.md): the calling rank (root)
// combines every rank's tensor of the group element by element into its
// own destination: the root's tensor first, then the others in rank order
// (the order of pto-isa's implementation, so float sums round alike).
#pragma once
#include <pto/common/type.hpp>
#if PTOSIM_DEVICE
#include <pto/inst/elementwise.hpp>
#include <pto/inst/elementwise_ops.hpp>
#endif
#include <pto/comm/TBroadCast.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace ptosim_impl::comm {

template <class PG, class GD, class TileData>
void treduce(const CallSite& cs, PG& group, GD& dst, TileData& acc, TileData& ping, TileData* pong,
             pto::comm::ReduceOp op) {
    using GR = typename pto::comm::ParallelGroupTraits<PG>::GlobalDataType;
    check_types<TileData, GD, GR>("TREDUCE");
    const SourceLoc loc = loc_of(cs);
    check_group("TREDUCE", loc, group);
    int64_t d[5];
    dims_of(group[group.rootIdx], d);
    int k = 0;
    each_chunk<TileData>("TREDUCE", loc, d, [&](int64_t i0, int64_t i1, int64_t i2, int64_t r, int64_t c, int64_t rows,
                                                int64_t cols) {
        acc.SetValidShape(static_cast<int>(rows), static_cast<int>(cols));
        auto mine = piece(group[group.rootIdx], i0, i1, i2, r, c, rows, cols);
        tload_tile(cs, acc, mine);
        for (int peer = 0; peer < group.nranks; ++peer) {
            if (peer == group.rootIdx) continue;
            TileData& t = (pong && (k & 1)) ? *pong : ping;
            ++k;
            t.SetValidShape(static_cast<int>(rows), static_cast<int>(cols));
            auto far = piece(group[peer], i0, i1, i2, r, c, rows, cols);
            check_chunk("TREDUCE source", loc, far, rows, cols);
            tload_tile(cs, t, far);
            flag_pair(loc, Pipe::MTE2, Pipe::V, 0);
            switch (op) {
                case pto::comm::ReduceOp::Sum: pto::TADD(cs, acc, acc, t); break;
                case pto::comm::ReduceOp::Max: pto::TMAX(cs, acc, acc, t); break;
                case pto::comm::ReduceOp::Min: pto::TMIN(cs, acc, acc, t); break;
            }
            // The next load into the receive tile waits for the vector unit.
            flag_pair(loc, Pipe::V, Pipe::MTE2, 0);
        }
        flag_pair(loc, Pipe::MTE2, Pipe::V, 1);
        flag_pair(loc, Pipe::V, Pipe::MTE3, 0);
        auto out = piece(dst, i0, i1, i2, r, c, rows, cols);
        tstore<TileData, decltype(out), AtomicType::AtomicNone, ReluPreMode::NoRelu>(cs, out, acc);
        flag_pair(loc, Pipe::MTE3, Pipe::MTE2, 0);
    });
}

}  // namespace ptosim_impl::comm

namespace comm {

template <typename ParallelGroupType, typename GlobalDstData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TREDUCE(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& accTileData, TileData& recvTileData, ReduceOp op, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::treduce(cs, parallelGroup, dstGlobalData, accTileData, recvTileData,
                               static_cast<TileData*>(nullptr), op);
    return {};
}
template <typename ParallelGroupType, typename GlobalDstData, typename TileData, typename... WaitEvents>
PTO_INST RecordEvent TREDUCE(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& accTileData, TileData& pingTileData, TileData& pongTileData, ReduceOp op,
                             WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::treduce(cs, parallelGroup, dstGlobalData, accTileData, pingTileData, &pongTileData, op);
    return {};
}

}  // namespace comm
}  // namespace pto
#endif
