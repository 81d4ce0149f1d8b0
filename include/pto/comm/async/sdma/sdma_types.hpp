// pto-isa's header path of the SDMA types: ptolab's are in
// pto/comm/async_common/async_types.hpp.
#pragma once
#include <pto/comm/async_common/async_types.hpp>
