// TPUT_ASYNC and TGET_ASYNC (pto-isa docs/isa/comm/TPUT_ASYNC.md,
// TGET_ASYNC.md) over the SDMA engine, and BuildAsyncSession. A transfer is a
// flat contiguous 1-D copy from GM to GM, the session's comm_block_offset
// added to both addresses; ptosim completes it before the instruction
// returns (one legal schedule of an asynchronous copy), so event.Wait and
// event.Test find it done. docs/many-devices.md, "Asynchronous transfers".
#pragma once
#include <pto/comm/async_common/async_types.hpp>
#if PTOSIM_DEVICE
#include <ptosim/sdma.hpp>
#include <cstring>
#include <source_location>

namespace pto {
namespace ptosim_impl::comm {

template <class G>
bool flat_1d(const G& g) {
    const int64_t d3 = g.GetShape(3), d4 = g.GetShape(4);
    return g.GetShape(0) == 1 && g.GetShape(1) == 1 && g.GetShape(2) == 1 && d3 == 1 && g.GetStride(4) == 1 &&
           g.GetStride(3) == d4 && g.GetStride(2) == d3 * g.GetStride(3) &&
           g.GetStride(1) == g.GetShape(2) * g.GetStride(2) && g.GetStride(0) == g.GetShape(1) * g.GetStride(1);
}
template <class G>
uint64_t elements(const G& g) {
    uint64_t n = 1;
    for (int i = 0; i < 5; ++i) n *= static_cast<uint64_t>(g.GetShape(i));
    return n;
}

// One asynchronous transfer: src's elements (plus the session's offset in
// bytes) to dst (plus the same offset).
template <class GD, class GS>
pto::comm::AsyncEvent async_copy(const CallSite& cs, GD& dst, GS& src, const pto::comm::AsyncSession& session,
                                 const char* op) {
    static_assert(std::is_same_v<typename GD::RawDType, typename GS::RawDType>,
                  "TPUT_ASYNC/TGET_ASYNC: source and destination element types must be equal");
    static_assert(GD::layout == GS::layout, "TPUT_ASYNC/TGET_ASYNC: source and destination layouts must be equal");
    ptosim::Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    const std::string o(op);
    if (!session.valid || session.engine != pto::comm::DmaEngine::SDMA) return {};  // pto-isa: the invalid event
    if (!src.data() || !dst.data())
        ptosim::fault(loc, o + ": the " + (!src.data() ? "source" : "destination") + " GlobalTensor has no data pointer");
    // Only flat contiguous 1-D tensors go through SDMA; others get the
    // invalid event (handle 0), as pto-isa documents.
    if (!flat_1d(src) || !flat_1d(dst)) {
        OpRecord rec = make_record(op, Pipe::MTE3, cs);
        ptosim::dispatch(c, rec);
        return {};
    }
    using T = typename GS::RawDType;
    const uint64_t n = elements(src), nd = elements(dst);
    if (nd < n)
        ptosim::fault(loc, o + ": the destination holds " + std::to_string(nd) + " elements, the source " +
                               std::to_string(n) + "; the destination must hold the whole source");
    const uint64_t bytes = n * sizeof(T);
    if (bytes == 0) return {};
    auto* s = reinterpret_cast<const uint8_t*>(src.data()) + session.commBlockOffset;
    auto* d = reinterpret_cast<uint8_t*>(dst.data()) + session.commBlockOffset;
    ptosim::check_gm(s, bytes, (o + " source").c_str(), loc);
    ptosim::check_gm(d, bytes, (o + " destination").c_str(), loc);
    OpRecord rec = make_record(op, Pipe::MTE3, cs);
    rec.dtype = dtype_name<T>();
    rec.read(Space::GM, reinterpret_cast<uintptr_t>(s), bytes);
    rec.write(Space::GM, reinterpret_cast<uintptr_t>(d), bytes);
    rec.bytes = bytes;
    rec.elements = n;
    ptosim::dispatch(c, rec);
    std::memmove(d, s, bytes);
    return pto::comm::AsyncEvent(++session.posted, pto::comm::DmaEngine::SDMA);
}

}  // namespace ptosim_impl::comm

namespace comm {

// Builds an SDMA session over the workspace pto-isa's SdmaWorkspaceManager
// prepared (its queue query, aclnnShmemSdmaStarsQuery, describes the queues
// there). false, as in pto-isa, for a syncId above 7, a queue_num of 0 or
// above 48, or a channel group past 48 / queue_num; a workspace the query
// did not prepare, or fewer queues than the group needs, faults.
template <DmaEngine engine = DmaEngine::SDMA, typename ScratchTile>
PTO_INTERNAL bool BuildAsyncSession(ScratchTile& scratchTile, __gm__ uint8_t* workspace, AsyncSession& session,
                                    uint32_t syncId = 0,
                                    const sdma::SdmaBaseConfig& baseConfig = {sdma::kDefaultSdmaBlockBytes, 0, 1},
                                    uint32_t channelGroupIdx = sdma::kAutoChannelGroupIdx,
                                    std::source_location where = std::source_location::current()) {
    static_assert(engine == DmaEngine::SDMA, "ptolab's BuildAsyncSession builds SDMA sessions (URMA and RDMA are "
                                             "Ascend950 NICs ptosim does not simulate)");
    static_assert(is_tile_data_v<ScratchTile>, "BuildAsyncSession: scratchTile must be a pto::Tile");
    static_assert(ScratchTile::Loc == TileType::Vec, "BuildAsyncSession: scratchTile must be a UB (TileType::Vec) tile");
    static_assert(ScratchTile::Numel * sizeof(typename ScratchTile::DType) >= sizeof(uint64_t),
                  "BuildAsyncSession: scratchTile must hold at least 8 bytes");
    (void)scratchTile;
    session = AsyncSession{};
    session.engine = engine;
    if (channelGroupIdx == sdma::kAutoChannelGroupIdx) channelGroupIdx = static_cast<uint32_t>(ptosim::core().block_idx);
    if (workspace == nullptr || syncId > 7 || baseConfig.queue_num == 0 || baseConfig.queue_num > sdma::kSdmaMaxChannel ||
        channelGroupIdx >= sdma::kSdmaMaxChannel / baseConfig.queue_num || baseConfig.block_bytes == 0)
        return false;
    const ptosim::SourceLoc loc{where.file_name(), static_cast<int>(where.line())};
    ptosim::check_gm(workspace, ptosim::sdma::kWorkspaceBytes, "BuildAsyncSession workspace", loc);
    ptosim::sdma::FlagInfo fi;
    std::memcpy(&fi, workspace, sizeof fi);
    if (fi.flag != ptosim::sdma::kFlagInfoMagic)
        ptosim::fault(loc, "BuildAsyncSession: the SDMA workspace at " + ptosim_impl::comm::where_is(workspace) +
                               " holds no queues; pass the workspace of SdmaWorkspaceManager::Init "
                               "(GetWorkspaceAddr), whose queue query describes them");
    if ((channelGroupIdx + 1) * baseConfig.queue_num > fi.total_queues)
        ptosim::fault(loc, "BuildAsyncSession: channel group " + std::to_string(channelGroupIdx) + " of " +
                               std::to_string(baseConfig.queue_num) + " queue(s) needs queues up to " +
                               std::to_string((channelGroupIdx + 1) * baseConfig.queue_num) + ", the workspace has " +
                               std::to_string(fi.total_queues));
    session.valid = true;
    session.contextGm = workspace;
    session.syncId = syncId;
    session.channelGroupIdx = channelGroupIdx;
    session.blockBytes = baseConfig.block_bytes;
    session.commBlockOffset = baseConfig.comm_block_offset;
    session.queueNum = baseConfig.queue_num;
    return true;
}

// A remote write: local srcGlobalData to dstGlobalData (a peer's window).
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
PTO_INST AsyncEvent TPUT_ASYNC(CallSite cs, GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData,
                               const AsyncSession& session, WaitEvents&... events) {
    static_assert(engine == DmaEngine::SDMA, "ptolab simulates TPUT_ASYNC over SDMA only");
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::comm::async_copy(cs, dstGlobalData, srcGlobalData, session, "TPUT_ASYNC");
}
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
PTO_INST_CALLER AsyncEvent TPUT_ASYNC(GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData,
                                      const AsyncSession& session, WaitEvents&... events) {
    return TPUT_ASYNC<engine>(PTOSIM_CALLER, dstGlobalData, srcGlobalData, session, events...);
}

// A remote read: srcGlobalData (a peer's window) to local dstGlobalData.
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
PTO_INST AsyncEvent TGET_ASYNC(CallSite cs, GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData,
                               const AsyncSession& session, WaitEvents&... events) {
    static_assert(engine == DmaEngine::SDMA, "ptolab simulates TGET_ASYNC over SDMA only");
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::comm::async_copy(cs, dstGlobalData, srcGlobalData, session, "TGET_ASYNC");
}
template <DmaEngine engine = DmaEngine::SDMA, typename GlobalDstData, typename GlobalSrcData, typename... WaitEvents>
PTO_INST_CALLER AsyncEvent TGET_ASYNC(GlobalDstData& dstGlobalData, GlobalSrcData& srcGlobalData,
                                      const AsyncSession& session, WaitEvents&... events) {
    return TGET_ASYNC<engine>(PTOSIM_CALLER, dstGlobalData, srcGlobalData, session, events...);
}

}  // namespace comm
}  // namespace pto
#endif
