// Kernels written on the CCE intrinsics alone (no PTO header): bisheng gives
// them the intrinsics without any #include, so an unmodified build of one
// must get ptosim's CCE layer without being asked (docs/ptocc.md, "Headers").
#pragma once

#include <string>
#include <vector>

namespace ptocc {

struct CceDirectScan {
    bool includes_pto = false;  // some file read includes a pto/ header or kernel_operator.h, or uses PTO's API
    std::string intrinsic;      // the first CCE intrinsic called, "" if none
    std::string where;          // its file
};

// Scans `source` (text `text`) and the user headers it includes, found beside
// the including file or in `user_dirs` (the -I/-iquote directories, in
// order); system headers are not read.
CceDirectScan scan_cce_direct(const std::string& source, const std::string& text,
                              const std::vector<std::string>& user_dirs);

// A user header a source includes, directly or through other user headers.
struct UserHeader {
    std::string path;      // canonical
    std::string text;
    std::string found_in;  // the directory its #include was resolved in
};

// Every user header `source` includes, found as scan_cce_direct finds them,
// each once, in the order the compiler first reads them. PTO's own headers
// (pto/..., kernel_operator.h) are not followed.
std::vector<UserHeader> user_headers(const std::string& source, const std::string& text,
                                     const std::vector<std::string>& user_dirs);

}  // namespace ptocc
