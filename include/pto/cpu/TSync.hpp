// ptolab forwarder for pto-isa's header path pto/cpu/TSync.hpp.
// Its names are part of ptolab's PTO API; see docs/drop-in.md, "Header paths".
#pragma once
#include <pto/pto-inst.hpp>
