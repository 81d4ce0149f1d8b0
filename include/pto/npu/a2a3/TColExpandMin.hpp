// ptolab forwarder for pto-isa's header path pto/npu/a2a3/TColExpandMin.hpp.
// Its names are part of ptolab's PTO API; see docs/drop-in.md, "Header paths".
#pragma once
#include <pto/pto-inst.hpp>
