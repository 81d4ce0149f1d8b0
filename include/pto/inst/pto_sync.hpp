// PTO-level synchronisation and pipes: Event, TSYNC, TPUSH/TPOP/TALLOC/TFREE; TPRINT, TPREFETCH.
#pragma once
#include <pto/common/sim_support.hpp>
