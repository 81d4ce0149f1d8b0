// ptolab forwarder for pto-isa's header path pto/comm/TBroadCast.hpp.
// Its names are part of ptolab's PTO API; see docs/drop-in.md, "Header paths".
#pragma once
#include <pto/pto-inst.hpp>
