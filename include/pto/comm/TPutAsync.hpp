// TPUT_ASYNC and TGET_ASYNC (pto-isa docs/isa/comm/TPUT_ASYNC.md,
// TGET_ASYNC.md) over the SDMA engine, and BuildAsyncSession. A transfer is a
// flat contiguous 1-D copy from GM to GM, the session's comm_block_offset
// added to both addresses; ptosim completes it before the instruction
// returns (one legal schedule of an asynchronous copy), so event.Wait and
// event.Test find it done. On A5, TPUT_ASYNC over SDMA is pto-isa's MTE
// fallback: GM -> the scratch tile -> GM in chunks of its size, done at
// return, the event invalid (handle 0: nothing to wait for).
// docs/many-devices.md, "Asynchronous transfers".
#pragma once
#include <pto/comm/async_common/async_types.hpp>
#if PTOSIM_DEVICE
#include <ptosim/sdma.hpp>
#include <ptosim/urma.hpp>
#include <cstring>
#include <algorithm>
#include <string>

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

// " (rank R of N)" in a multi-rank run: the rank that issued a transfer,
// for its fault reports (the window's owner is named by the check).
inline std::string issuer() {
    return ptosim::process_ranks() > 1
               ? " (rank " + std::to_string(ptosim::process_rank()) + " of " + std::to_string(ptosim::process_ranks()) + ")"
               : std::string();
}

// The queues an SDMA transfer goes through: the workspace must hold the
// queue query's description, with the session's channel group in it.
inline void check_queues(const pto::comm::AsyncSession& s, const SourceLoc& loc, const std::string& op) {
    ptosim::sdma::FlagInfo fi;
    std::memcpy(&fi, s.contextGm, sizeof fi);
    if (fi.flag != ptosim::sdma::kFlagInfoMagic)
        ptosim::fault(loc, op + ": the session's SDMA workspace at " + where_is(s.contextGm) +
                               " holds no queues; build the session on the workspace of SdmaWorkspaceManager::Init "
                               "(GetWorkspaceAddr), whose queue query describes them");
    if ((s.channelGroupIdx + 1) * s.queueNum > fi.total_queues)
        ptosim::fault(loc, op + ": channel group " + std::to_string(s.channelGroupIdx) + " of " +
                               std::to_string(s.queueNum) + " queue(s) needs queues up to " +
                               std::to_string((s.channelGroupIdx + 1) * s.queueNum) + ", the workspace has " +
                               std::to_string(fi.total_queues));
}

// pto-isa's A5 TPUT_ASYNC over SDMA: GM -> the session's scratch tile ->
// GM, chunk by chunk, MTE2 then MTE3 on the session's sync id; no offset.
template <class T>
void mte_fallback(const CallSite& cs, const SourceLoc& loc, ptosim::Core& c, const uint8_t* s, uint8_t* d,
                  uint64_t bytes, const pto::comm::AsyncSession& session, const std::string& op) {
    if (session.tmpBufSize == 0) ptosim::fault(loc, op + ": the session's scratch tile is empty");
    uint8_t* ub = c.mem[static_cast<int>(Space::UB)];
    ptosim::check_local(c, Space::UB, session.tmpBufAddr, session.tmpBufSize, (op + " scratch tile").c_str(), loc);
    for (uint64_t off = 0; off < bytes; off += session.tmpBufSize) {
        const uint64_t n = std::min<uint64_t>(session.tmpBufSize, bytes - off);
        ptosim::check_gm(s + off, n, (op + " source" + issuer()).c_str(), loc);
        OpRecord in = make_record(op.c_str(), Pipe::MTE2, cs);
        in.dtype = dtype_name<T>();
        in.read(Space::GM, reinterpret_cast<uintptr_t>(s + off), n);
        in.write(Space::UB, session.tmpBufAddr, n);
        in.bytes = n;
        ptosim::dispatch(c, in);
        std::memcpy(ub + session.tmpBufAddr, s + off, n);
        flag_pair(loc, Pipe::MTE2, Pipe::MTE3, static_cast<int>(session.syncId));
        // Checked right before its store, as the MTE3 copy of its own: under
        // the remote window transport a check opens the peer's bytes for the
        // one transfer that follows (docs/many-devices.md, "Several hosts").
        ptosim::check_gm(d + off, n, (op + " destination" + issuer()).c_str(), loc);
        OpRecord out = make_record(op.c_str(), Pipe::MTE3, cs);
        out.dtype = dtype_name<T>();
        out.read(Space::UB, session.tmpBufAddr, n);
        out.write(Space::GM, reinterpret_cast<uintptr_t>(d + off), n);
        out.bytes = n;
        ptosim::dispatch(c, out);
        std::memcpy(d + off, ub + session.tmpBufAddr, n);
        flag_pair(loc, Pipe::MTE3, Pipe::MTE2, static_cast<int>(session.syncId));
    }
}

// One asynchronous transfer: src's elements (plus the session's offset in
// bytes) to dst (plus the same offset).
template <class GD, class GS>
pto::comm::AsyncEvent async_copy(const CallSite& cs, GD& dst, GS& src, const pto::comm::AsyncSession& session,
                                 const char* op, bool mte = false) {
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
#if PTOSIM_TARGET_A5
    if (mte) {
        mte_fallback<T>(cs, loc, c, reinterpret_cast<const uint8_t*>(src.data()), reinterpret_cast<uint8_t*>(dst.data()),
                        bytes, session, o);
        return {};  // done: nothing to wait for (pto-isa's handle 0)
    }
#else
    (void)mte;
#endif
    check_queues(session, loc, o);
    auto* s = reinterpret_cast<const uint8_t*>(src.data()) + session.commBlockOffset;
    auto* d = reinterpret_cast<uint8_t*>(dst.data()) + session.commBlockOffset;
    ptosim::check_gm(s, bytes, (o + " source" + issuer()).c_str(), loc);
    ptosim::check_gm(d, bytes, (o + " destination" + issuer()).c_str(), loc);
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

// A transfer over URMA (Ascend950's UB NIC, ptosim/urma.hpp): one WQE on the
// session's channel to its peer, posted into the send queue pto-isa's
// UrmaWorkspaceManager described (the session's workspace) and rung; the
// engine runs it before the doorbell store returns. pto-isa's URMA path
// adds no comm_block_offset. The event is pto-isa's: the peer in the high
// word, the producer index after the WQE in the low.
template <class GD, class GS>
pto::comm::AsyncEvent urma_copy(const CallSite& cs, GD& dst, GS& src, const pto::comm::AsyncSession& session,
                                const char* op, bool put) {
    static_assert(std::is_same_v<typename GD::RawDType, typename GS::RawDType>,
                  "TPUT_ASYNC/TGET_ASYNC: source and destination element types must be equal");
    const SourceLoc loc = loc_of(cs);
    const std::string o(op);
    if (!session.valid || session.engine != pto::comm::DmaEngine::URMA) return {};
    if (!flat_1d(src) || !flat_1d(dst))
        ptosim::fault(loc, o + " (URMA): source and destination must be flat contiguous 1-D tensors (pto-isa's URMA "
                               "path asserts it)");
    using T = typename GS::RawDType;
    const uint64_t n = elements(src), nd = elements(dst);
    if (nd < n)
        ptosim::fault(loc, o + " (URMA): the destination holds " + std::to_string(nd) + " elements, the source " +
                               std::to_string(n));
    const uint64_t bytes = n * sizeof(T);
    const auto remote = reinterpret_cast<uint64_t>(put ? dst.data() : src.data());
    const auto local = reinterpret_cast<uint64_t>(put ? src.data() : dst.data());
    const uint32_t head = ptosim::urma::post(loc, session.contextGm, session.destRankId, session.qpIdx,
                                             put ? ptosim::urma::kOpWrite : ptosim::urma::kOpRead, remote, local,
                                             bytes, op);
    return pto::comm::AsyncEvent((uint64_t(session.destRankId) << 32) | head, pto::comm::DmaEngine::URMA);
}

}  // namespace ptosim_impl::comm

namespace comm {

// A URMA session (pto-isa's BuildAsyncSession<DmaEngine::URMA>(workspace,
// peer, session)): the workspace UrmaWorkspaceManager filled and the peer
// whose channel the transfers take; false for a null workspace.
template <DmaEngine engine>
PTO_INTERNAL bool BuildAsyncSession(__gm__ uint8_t* workspace, uint32_t destRankId, AsyncSession& session) {
    static_assert(engine == DmaEngine::URMA, "BuildAsyncSession(workspace, peer, session) builds URMA sessions");
    session = AsyncSession{};
    session.engine = engine;
    session.contextGm = workspace;
    session.destRankId = destRankId;
    session.valid = workspace != nullptr;
    return session.valid;
}

// Builds an SDMA session over the workspace pto-isa's SdmaWorkspaceManager
// prepared (its queue query, aclnnShmemSdmaStarsQuery, describes the queues
// there). false, as in pto-isa, for a syncId above 7, a queue_num of 0 or
// above 48, a channel group past 48 / queue_num or a null workspace. The
// queues are checked by the transfers that use them (A5's TPUT_ASYNC uses
// none, and pto-isa's A5 tests pass it an empty workspace).
template <DmaEngine engine = DmaEngine::SDMA, typename ScratchTile>
PTO_INTERNAL bool BuildAsyncSession(ScratchTile& scratchTile, __gm__ uint8_t* workspace, AsyncSession& session,
                                    uint32_t syncId = 0,
                                    const sdma::SdmaBaseConfig& baseConfig = {sdma::kDefaultSdmaBlockBytes, 0, 1},
                                    uint32_t channelGroupIdx = sdma::kAutoChannelGroupIdx) {
    static_assert(engine == DmaEngine::SDMA, "BuildAsyncSession(scratchTile, workspace, session, ...) builds SDMA sessions; "
                                             "URMA sessions are BuildAsyncSession<DmaEngine::URMA>(workspace, peer, session)");
    static_assert(is_tile_data_v<ScratchTile>, "BuildAsyncSession: scratchTile must be a pto::Tile");
    static_assert(ScratchTile::Loc == TileType::Vec, "BuildAsyncSession: scratchTile must be a UB (TileType::Vec) tile");
    static_assert(ScratchTile::Numel * sizeof(typename ScratchTile::DType) >= sizeof(uint64_t),
                  "BuildAsyncSession: scratchTile must hold at least 8 bytes");
    session = AsyncSession{};
    session.engine = engine;
    if (channelGroupIdx == sdma::kAutoChannelGroupIdx) channelGroupIdx = static_cast<uint32_t>(ptosim::core().block_idx);
    if (workspace == nullptr || syncId > 7 || baseConfig.queue_num == 0 || baseConfig.queue_num > sdma::kSdmaMaxChannel ||
        channelGroupIdx >= sdma::kSdmaMaxChannel / baseConfig.queue_num || baseConfig.block_bytes == 0)
        return false;
    session.valid = true;
    session.contextGm = workspace;
    session.tmpBufAddr = scratchTile.address();
    session.tmpBufSize = static_cast<uint32_t>(ScratchTile::Numel * sizeof(typename ScratchTile::DType));
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
    static_assert(engine != DmaEngine::RDMA, "ptolab simulates TPUT_ASYNC over SDMA and URMA, not RDMA");
    ptosim_impl::wait_events(cs, events...);
    if constexpr (engine == DmaEngine::URMA)
        return ptosim_impl::comm::urma_copy(cs, dstGlobalData, srcGlobalData, session, "TPUT_ASYNC", true);
    else
        return ptosim_impl::comm::async_copy(cs, dstGlobalData, srcGlobalData, session, "TPUT_ASYNC", true);
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
    static_assert(engine != DmaEngine::RDMA, "ptolab simulates TGET_ASYNC over SDMA and URMA, not RDMA");
    ptosim_impl::wait_events(cs, events...);
    if constexpr (engine == DmaEngine::URMA)
        return ptosim_impl::comm::urma_copy(cs, dstGlobalData, srcGlobalData, session, "TGET_ASYNC", false);
    else
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
