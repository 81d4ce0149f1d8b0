// Reductions and broadcasts over rows and columns (TROW*, TCOL*, TROWEXPAND*,
// TCOLEXPAND*, TPART*).
#pragma once
#include <pto/common/sim_support.hpp>
