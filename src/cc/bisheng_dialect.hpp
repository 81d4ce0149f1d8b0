// A user's pto-isa tree as ptocc compiles it on the simulator path: where it
// is, which commit, and the two spellings of bisheng's dialect that clang
// does not accept, translated (docs/ptocc.md, "PTO headers").
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ptocc {

struct PtoIsaTree {
    std::string include_dir;  // the -I directory holding pto/pto-inst.hpp
    std::string commit;       // the checkout's HEAD commit, "" when it is not a git checkout
    std::string describe() const;  // "<dir> (commit <sha>)" or "<dir> (not a git checkout)"
};

// The tree a -I directory holds, if it holds pto/pto-inst.hpp.
std::optional<PtoIsaTree> pto_isa_tree(const std::string& include_dir);

// A header of the tree rewritten for clang: `[aicore]` (bisheng's function
// attribute, no meaning on the host) removed, `__gm__ char` read as
// `char` (bisheng places string literals in GM; on the host they are
// ordinary), element assignments wrapped (wrap_element_store) and
// comparisons with nullptr made through ::ptosim_cce::is_null
// (rewrite_null_comparisons).
// Every header of the tree's pto/ is copied, translated or not, so that a
// translated header's quoted includes (`#include "TRowReduceOps.hpp"`) find
// their neighbours in the copy. The text starts with a #line naming the
// original file, so diagnostics and line tables name the user's header and
// its lines.
struct TranslatedHeader {
    std::string relative;  // path under the include directory
    std::string text;
    bool translated = false;  // the text differs from the original's beyond the #line
};
std::vector<TranslatedHeader> translate_dialect(const std::string& include_dir);

// One line of a header with its leading element assignment (`p[i] = v;`,
// `*p = v;`) written as `::ptosim_cce::store_to(p[i]) = v;`, so that a
// bfloat16_t element in UB or GM can be assigned (cce/store_to.hpp); any other
// line unchanged. translate_dialect applies it to every line.
std::string wrap_element_store(const std::string& line);

// One line of a header with each comparison `X == nullptr` / `X != nullptr`
// written as `::ptosim_cce::is_null(X)` / `!::ptosim_cce::is_null(X)`, so that
// a UB or L1 pointer at local address 0 is not null, as on the device
// (cce/null_check.hpp); every other comparison means what it did. X must be a
// name chain (`a`, `a.b`, `a->b`, `a::b`, with call or subscript groups:
// `a.data()`) that is a whole operand of `==`; other comparisons, and text in
// comments and literals, are kept.
std::string rewrite_null_comparisons(const std::string& line);

}  // namespace ptocc
