// pto-isa's header path of BuildAsyncSession and the event waits: ptolab's
// are in pto/comm/TPutAsync.hpp and pto/inst/pto_sync.hpp.
#pragma once
#include <pto/comm/TPutAsync.hpp>
