// ptolab forwarder for pto-isa's header path pto/npu/kirin9030/TMins.hpp.
// Its names are part of ptolab's PTO API; see docs/drop-in.md, "Header paths".
#pragma once
#include <pto/pto-inst.hpp>
