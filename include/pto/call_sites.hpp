// Instruction and intrinsic names as function-like macros that add the
// caller's file:line, so every diagnostic names the kernel source line. A
// macro only expands before "(": `TMOV<...>(...)` calls the plain overload.
#pragma once

#define PTOSIM_HERE ::pto::CallSite{__FILE__, __LINE__}

// One file per instruction family; all come after every instruction header,
// since a macro defined earlier would expand inside later declarations.
#include <pto/call_sites/data_path.hpp>
#include <pto/call_sites/elementwise.hpp>
#include <pto/call_sites/elementwise_fused.hpp>
#include <pto/call_sites/reduce.hpp>
#include <pto/call_sites/sort.hpp>
#include <pto/call_sites/layout.hpp>
#include <pto/call_sites/gather_scatter.hpp>
#include <pto/call_sites/sync.hpp>
#include <pto/call_sites/cube_config.hpp>
#include <pto/call_sites/matrix.hpp>
#include <pto/call_sites/impl_names.hpp>
#include <pto/call_sites/comm.hpp>
