// Launch hooks of the checkers (include/ptosim/check.hpp).
#pragma once
#include <ptosim/check.hpp>
#include <ptosim/runtime.hpp>

namespace ptosim {
class Launch;
namespace check {

// Before a launch runs: reads PTO_SIM_CHECK on first use and, when a tool is
// on, gives the launch its checker state. An invalid PTO_SIM_CHECK fails.
Status begin(Launch& l);
// After it ran: the end-of-kernel checks, the reports (stderr, log), and
// the launch's status, an error when a report is one and the run succeeded.
Status end(Launch& l, Status run);

}  // namespace check
}  // namespace ptosim
