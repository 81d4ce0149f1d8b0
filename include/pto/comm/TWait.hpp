// TWAIT (pto-isa docs/isa/comm/TWAIT.md): wait until every signal of a
// signal tensor compares true with a value. The core yields to the other
// cores while it waits and backs off; a wait no rank satisfies ends after
// PTO_COMM_TIMEOUT_S with a report naming the rank, the core and the line
// (docs/many-devices.md, "Waiting on another rank").
#pragma once
#include <pto/comm/comm_types.hpp>
#if PTOSIM_DEVICE

namespace pto {
namespace comm {

template <typename GlobalSignalData, typename... WaitEvents>
PTO_INST void TWAIT(CallSite cs, GlobalSignalData& signalData, int32_t cmpValue, WaitCmp cmp, WaitEvents&... events) {
    static_assert(std::is_same_v<typename GlobalSignalData::RawDType, int32_t>, "TWAIT: the signal must be int32_t");
    ptosim_impl::wait_events(cs, events...);
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
    ptosim_impl::comm::record_signals(c, cs, loc, signalData, "TWAIT", false);
    if (!ptosim_impl::comm::signals_pass(signalData, cmpValue, cmp))
        ptosim::wait_remote(
            c, loc, [&] { return ptosim_impl::comm::signals_pass(signalData, cmpValue, cmp); },
            [&] {
                int64_t off = 0;
                int32_t v = 0;
                ptosim_impl::comm::signals_pass(signalData, cmpValue, cmp, &off, &v);
                return std::string("TWAIT waits for the signal at ") +
                       ptosim_impl::comm::where_is(reinterpret_cast<const int32_t*>(signalData.data()) + off) + " to be " +
                       ptosim_impl::comm::cmp_name(cmp) + " " + std::to_string(cmpValue) + "; it holds " +
                       std::to_string(v);
            });
    // Whenever the signals passed, the core goes on no earlier than the
    // writes it saw (docs/cost-model.md, "Across ranks").
    ptosim::timing_observed(c, signalData.data(), ptosim_impl::comm::signal_bytes(signalData), "TWAIT", loc);
}

}  // namespace comm
}  // namespace pto
#endif
