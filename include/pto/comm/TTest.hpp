// TTEST (pto-isa docs/isa/comm/TTEST.md): whether every signal of a signal
// tensor compares true with a value, without waiting. A false result lets
// the other cores run (a polling loop is a wait), and a loop polling the
// same signals past PTO_COMM_TIMEOUT_S is reported (docs/many-devices.md).
#pragma once
#include <pto/comm/comm_types.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace comm {

template <typename GlobalSignalData, typename... WaitEvents>
PTO_INST bool TTEST(CallSite cs, GlobalSignalData& signalData, int32_t cmpValue, WaitCmp cmp, WaitEvents&... events) {
    static_assert(std::is_same_v<typename GlobalSignalData::RawDType, int32_t>, "TTEST: the signal must be int32_t");
    ptosim_impl::wait_events(cs, events...);
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
    ptosim_impl::comm::record_signals(c, cs, loc, signalData, "TTEST", false);
    if (ptosim_impl::comm::signals_pass(signalData, cmpValue, cmp)) {
        ptosim::timing_observed(c, signalData.data(), ptosim_impl::comm::signal_bytes(signalData), "TTEST", loc);
        return true;
    }
    ptosim::poll_gm(loc, signalData.data(), "TTEST");
    return false;
}

}  // namespace comm
}  // namespace pto
#endif
