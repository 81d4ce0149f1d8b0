// TBROADCAST, TGATHER, TSCATTER and TREDUCE with CollEngine::CCU (pto-isa's
// CCU forms, include/pto/comm/a5/T*.hpp and async_common/ccu_trigger.hpp at
// 3186c381): the AI Vector core moves no data. It waits for its events,
// stores its tile first when the context says AivStored (TREDUCE, TGATHER:
// into the group's tensor of this rank; TBROADCAST, TSCATTER: into the
// source, on the root only), then triggers the CCU program libhccl launched
// (HcclCcuKernelLaunch) by storing the mask, with bit 63 set, into the
// program's gate CKE slot. The CCU moves the data (docs/many-devices.md,
// "The CCU engine").
#pragma once
#include <pto/comm/comm_types.hpp>
#if PTOSIM_DEVICE
#include <ptosim/ccu.hpp>

namespace pto {
namespace ptosim_impl::comm {

template <class G, class TileData>
void ccu_trigger(const CallSite& cs, G* store_to, TileData& tile, const pto::comm::CcuTriggerContext& ctx,
                 const char* op) {
    const SourceLoc loc = loc_of(cs);
    if (ctx.inputSource == pto::comm::CcuInputSource::AivStored && store_to) {
        flag_pair(loc, Pipe::V, Pipe::MTE3, 0);
        tstore<TileData, G, AtomicType::AtomicNone, ReluPreMode::NoRelu>(cs, *store_to, tile);
    }
    ptosim::ccu::trigger(loc, ctx.ckeSlotVA, ctx.mask, op);
}

// The group's tensor of this rank (TREDUCE, TGATHER), checked.
template <class PG>
auto* ccu_self(const CallSite& cs, PG& group, const pto::comm::CcuTriggerContext& ctx, const char* op) {
    if (ctx.inputSource == pto::comm::CcuInputSource::AivStored &&
        (static_cast<int>(ctx.selfIdx) >= group.nranks || !group.tensors))
        ptosim::fault(loc_of(cs), std::string(op) + ": the context's selfIdx " + std::to_string(ctx.selfIdx) +
                                      " is not a rank of the ParallelGroup's " + std::to_string(group.nranks));
    return ctx.inputSource == pto::comm::CcuInputSource::AivStored ? &group[static_cast<int>(ctx.selfIdx)] : nullptr;
}
template <class PG, class GS>
GS* ccu_root_src(PG& group, GS& src, const pto::comm::CcuTriggerContext& ctx) {
    return static_cast<int>(ctx.selfIdx) == group.GetRootIdx() ? &src : nullptr;
}

}  // namespace ptosim_impl::comm

namespace comm {

template <CollEngine engine, typename ParallelGroupType, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TBROADCAST(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                                TileData& stagingTileData, const CcuTriggerContext& ctx, WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TBROADCAST<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_root_src(parallelGroup, srcGlobalData, ctx),
                                   stagingTileData, ctx, "TBROADCAST<CCU>");
    return {};
}
template <CollEngine engine, typename ParallelGroupType, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TBROADCAST(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                                TileData& pingTile, TileData& pongTile, const CcuTriggerContext& ctx,
                                WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TBROADCAST<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    (void)pongTile;
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_root_src(parallelGroup, srcGlobalData, ctx), pingTile,
                                   ctx, "TBROADCAST<CCU>");
    return {};
}
template <CollEngine engine, typename ParallelGroupType, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TSCATTER(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                              TileData& stagingTileData, const CcuTriggerContext& ctx, WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TSCATTER<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_root_src(parallelGroup, srcGlobalData, ctx),
                                   stagingTileData, ctx, "TSCATTER<CCU>");
    return {};
}
template <CollEngine engine, typename ParallelGroupType, typename GlobalSrcData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TSCATTER(CallSite cs, ParallelGroupType& parallelGroup, GlobalSrcData& srcGlobalData,
                              TileData& pingTile, TileData& pongTile, const CcuTriggerContext& ctx,
                              WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TSCATTER<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    (void)pongTile;
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_root_src(parallelGroup, srcGlobalData, ctx), pingTile,
                                   ctx, "TSCATTER<CCU>");
    return {};
}
template <CollEngine engine, typename ParallelGroupType, typename GlobalDstData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TGATHER(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& stagingTileData, const CcuTriggerContext& ctx, WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TGATHER<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    (void)dstGlobalData;
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_self(cs, parallelGroup, ctx, "TGATHER<CCU>"),
                                   stagingTileData, ctx, "TGATHER<CCU>");
    return {};
}
template <CollEngine engine, typename ParallelGroupType, typename GlobalDstData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TGATHER(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& pingTile, TileData& pongTile, const CcuTriggerContext& ctx,
                             WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TGATHER<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    (void)dstGlobalData;
    (void)pongTile;
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_self(cs, parallelGroup, ctx, "TGATHER<CCU>"), pingTile,
                                   ctx, "TGATHER<CCU>");
    return {};
}
template <CollEngine engine, typename ParallelGroupType, typename GlobalDstData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TREDUCE(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& accTileData, TileData& recvTileData, ReduceOp op, const CcuTriggerContext& ctx,
                             WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TREDUCE<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    (void)dstGlobalData;
    (void)recvTileData;
    (void)op;
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_self(cs, parallelGroup, ctx, "TREDUCE<CCU>"),
                                   accTileData, ctx, "TREDUCE<CCU>");
    return {};
}
template <CollEngine engine, typename ParallelGroupType, typename GlobalDstData, typename TileData,
          typename... WaitEvents>
PTO_INST RecordEvent TREDUCE(CallSite cs, ParallelGroupType& parallelGroup, GlobalDstData& dstGlobalData,
                             TileData& accTileData, TileData& pingTileData, TileData& pongTileData, ReduceOp op,
                             const CcuTriggerContext& ctx, WaitEvents&... events) {
    static_assert(engine == CollEngine::CCU, "TREDUCE<CollEngine>: this form takes a CcuTriggerContext (CCU)");
    (void)dstGlobalData;
    (void)pingTileData;
    (void)pongTileData;
    (void)op;
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::comm::ccu_trigger(cs, ptosim_impl::comm::ccu_self(cs, parallelGroup, ctx, "TREDUCE<CCU>"),
                                   accTileData, ctx, "TREDUCE<CCU>");
    return {};
}

// Explicit template arguments (TBROADCAST<CollEngine::CCU>(...)) bypass the
// call-site macros: the call site is the return address.
#define PTOLAB_CCU_CALLER_FORM(NAME)                                                                        \
    template <CollEngine engine, typename First, typename... Args>                                          \
        requires(!std::is_same_v<std::remove_cvref_t<First>, CallSite>)                                     \
    PTO_INST_CALLER RecordEvent NAME(First&& first, Args&&... args) {                                       \
        return NAME<engine>(PTOSIM_CALLER, first, args...);                                                 \
    }
PTOLAB_CCU_CALLER_FORM(TBROADCAST)
PTOLAB_CCU_CALLER_FORM(TSCATTER)
PTOLAB_CCU_CALLER_FORM(TGATHER)
PTOLAB_CCU_CALLER_FORM(TREDUCE)
#undef PTOLAB_CCU_CALLER_FORM

}  // namespace comm
}  // namespace pto
#endif
