// The host compiler's diagnostics, as ptocc prints them: every error caused
// by the user's code leads with the user's file:line:col (docs/ptocc.md,
// "Diagnostics"). Self-contained (standard library only) so the fuzz corpus
// runner can build it alone.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace ptocc {

// One source the launch rewriter changed, under the name diagnostics show.
struct MovedColumns {
    std::map<int, std::vector<int>> columns;     // RewriteResult::columns
    std::map<int, std::string> out_lines;        // the rewritten text of those lines
    std::map<int, std::string> src_lines;        // the user's text of those lines
};

struct DiagnosticContext {
    // Files under these directories, and under /usr/, are not the user's:
    // ptolab's include/ and the pto-isa include directories ptocc demoted.
    std::vector<std::string> foreign_dirs;
    std::map<std::string, MovedColumns> rewritten;
    // GCC counts columns in display width (tabs to the next multiple of 8);
    // clang counts bytes.
    bool display_columns = true;
};

// Fills `moved` from a rewrite of `source` whose result text is `rewritten`
// (two directive lines, then the user's lines in order).
MovedColumns moved_columns(const std::string& source, const std::string& rewritten,
                           const std::map<int, std::vector<int>>& columns);

// Rewrites the compiler's stderr: columns on rewritten launch lines are mapped
// back to the user's; a diagnostic whose first location is not the user's gets
// a leading line at the innermost user location of its context (instantiation
// frames, macro expansion notes), and the original error line becomes a note;
// an include chain that only leads back to the file the diagnostic is in is
// dropped. Lines it does not recognise pass unchanged, colours included.
std::string tidy_diagnostics(const std::string& text, const DiagnosticContext& ctx);

}  // namespace ptocc
