// Every A2A3 CCE intrinsic family ptosim executes (docs/intrinsics/README.md,
// "Families"), one header each. Both kernel preludes include this list: the
// executed-pto-isa build (cce/bisheng.hpp, clang) and ptolab's own PTO
// headers (pto/common/intrinsics.hpp, GCC), so a kernel that mixes PTO calls
// with intrinsics gets the same intrinsics either way.
#pragma once
#include <cce/a2a3/enums.hpp>
#include <cce/a2a3/registers.hpp>
#include <cce/a2a3/vector.hpp>
#include <cce/a2a3/dma.hpp>
#include <cce/a2a3/convert.hpp>
#include <cce/a2a3/compare.hpp>
#include <cce/a2a3/reduce.hpp>
#include <cce/a2a3/sort.hpp>
#include <cce/a2a3/gather.hpp>
#include <cce/a2a3/transpose.hpp>
#include <cce/a2a3/atomic.hpp>
#include <cce/a2a3/cube_dma.hpp>
#include <cce/a2a3/load.hpp>
#include <cce/a2a3/mad.hpp>
#include <cce/a2a3/fixpipe.hpp>
#include <cce/a2a3/pending.hpp>
