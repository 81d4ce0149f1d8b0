// TNOTIFY (pto-isa docs/isa/comm/TNOTIFY.md): set a signal, or add to it
// atomically, in a peer's (or this rank's) GM. docs/many-devices.md.
#pragma once
#include <pto/comm/comm_types.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace comm {

template <typename GlobalSignalData, typename... WaitEvents>
PTO_INST void TNOTIFY(CallSite cs, GlobalSignalData& dstSignalData, int32_t value, NotifyOp op, WaitEvents&... events) {
    static_assert(std::is_same_v<typename GlobalSignalData::RawDType, int32_t>, "TNOTIFY: the signal must be int32_t");
    ptosim_impl::wait_events(cs, events...);
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
    if (reinterpret_cast<uintptr_t>(dstSignalData.data()) % 4)
        ptosim::fault(loc, "TNOTIFY: the signal at " + ptosim_impl::comm::where_is(dstSignalData.data()) +
                               " is not 4-byte aligned");
    // One signal: the tensor's first element.
    auto one = ptosim_impl::comm::piece(dstSignalData, 0, 0, 0, 0, 0, 1, 1);
    ptosim_impl::comm::record_signals(c, cs, loc, one, "TNOTIFY", true);
    auto* p = reinterpret_cast<int32_t*>(dstSignalData.data());
    // Ranks' atomic updates never interleave (the lock spans processes).
    ptosim::GmAtomicScope scope(c, true);
    if (op == NotifyOp::AtomicAdd) __atomic_fetch_add(p, value, __ATOMIC_SEQ_CST);
    else __atomic_store_n(p, value, __ATOMIC_SEQ_CST);
}

}  // namespace comm
}  // namespace pto
#endif
