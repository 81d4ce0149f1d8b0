// What bisheng gives every kernel translation unit without an include: the
// CCE intrinsics (pto/common/intrinsics.hpp), the parameter and task-function
// qualifiers, min/max, the system counter, memory barriers, cce::printf and
// trap. ptocc includes this header first in every kernel compile. Public kernels use them unqualified, so
// they live at global scope as in CCE. What each one does on the simulator
// and why: docs/api.md, "Device builtins".
#pragma once
#include <pto/common/type.hpp>
#include <cce/scalar.hpp>
#include <pto/common/intrinsics.hpp>
#include <pto/common/cce_dma.hpp>
#include <pto/common/cce_mx.hpp>
#include <ptosim/core.hpp>

#include <cmath>
#include <cstdio>
#include <source_location>
#include <type_traits>

// A5's register-based vector code (vector_* registers, vlds / vsts / vadd
// ... under __VEC_SCOPE__), its DMA, Cube and SIMT intrinsics (with
// __builtin_cce_expf, cce/a5/simt.hpp) are the CCE layer's (include/cce/a5,
// through pto/common/intrinsics.hpp), as in the executed-pto-isa build.
