// Data movement and layout instructions (TFILLPAD, TRESHAPE, TTRANS, gathers and scatters, TCI, TTRI)
// and compare/select (TCMP, TCMPS, TSEL, TSELS).
#pragma once
#include <pto/common/sim_support.hpp>
