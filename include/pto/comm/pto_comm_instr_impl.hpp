// pto-isa's header path pto/comm/pto_comm_instr_impl.hpp: the comm
// instructions' implementations, all of them in ptolab's pto_comm_inst.hpp.
#pragma once
#include <pto/comm/pto_comm_inst.hpp>
