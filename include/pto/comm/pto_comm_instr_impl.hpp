// ptolab forwarder for pto-isa's header path pto/comm/pto_comm_instr_impl.hpp.
// Its names are part of ptolab's PTO API; see docs/drop-in.md, "Header paths".
#pragma once
#include <pto/pto-inst.hpp>
