// The kernel type of a translation unit built without a core-type suffix
// (--npu-arch=dav-2201|dav-3510, --cce-aicore-arch=dav-c220|dav-c310,
// --cce-soc-version alone), told from what its kernel code uses, as bisheng
// infers it for a translation unit with one kernel (docs/ptocc.md, "Kernel
// type").
#pragma once
#include "options.hpp"

#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace ptocc {

// What the user's code in one variant's preprocessed text (g++ -E
// -fdirectives-only: directives done, macros unexpanded) holds.
struct KindScan {
    std::set<std::string> cube_ops, vec_ops;      // instructions only one core type has
    std::set<std::string> cube_tiles, vec_tiles;  // buffers (tile types, address spaces) of one core type
    std::set<std::string> pipe_ops;               // TPUSH, TPOP: tiles between the Cube and the Vector core
    std::vector<std::pair<Kind, std::string>> marks;  // __vector__, __cube__, __mix__(c, v), KERNEL_TYPE_*
    std::vector<std::string> bad_marks;           // marks ptosim cannot run (e.g. __mix__(1, 1))
    int kernels = 0;                              // __global__ functions
};

// `is_user(file, system_header)`: whether lines of `file` are the user's code.
KindScan scan_kind(const std::string& preprocessed, const std::function<bool(const std::string&, bool)>& is_user);

struct KindDecision {
    std::optional<Kind> kind;  // none: `error` says why
    std::string why;           // evidence for a note
    std::string error;
    bool no_kernel = false;    // the translation unit defines no kernel (kept a mix build)
};

// From the Cube variant's scan (compiled with __DAV_CUBE__) and the Vector
// variant's (__DAV_VEC__).
KindDecision decide_kind(const KindScan& cube_variant, const KindScan& vec_variant);

// "Vector-only", "Cube-only" or "mix".
const char* kind_description(Kind k);

}  // namespace ptocc
