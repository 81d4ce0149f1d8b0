// Launch-syntax rewriting: turns `kernel<targs><<<block_dim, l2ctrl, stream>>>(args)`
// into a call of ptosim::cc::launch (include/ptosim/kernel_launch.hpp) without
// moving any token to another line, so diagnostics keep the user's lines.
// Self-contained (standard library only) so the fuzz target can build it alone.
#pragma once
#include <map>
#include <string>
#include <vector>

namespace ptocc {

struct RewriteDiag {
    int line = 0;  // 1-based line in the input
    int column = 0;
    std::string message;
};

struct RewriteResult {
    std::string text;          // the rewritten source, starting with a #line directive
    int launches = 0;          // launch sites rewritten
    int device_asm = 0;        // device asm statements rewritten
    int definitions = 0;       // kernel definitions whose core type is recorded
    std::vector<RewriteDiag> errors;
    // For each input line whose text the rewrite moved: the input column
    // (1-based, bytes) of every byte of the output line; generated text has
    // the column of the launch token it replaces. Diagnostics on those lines
    // are mapped back with it (diagnostics.hpp).
    std::map<int, std::vector<int>> columns;
};

// `display_name` is what __FILE__ and diagnostics show (the path as the user
// wrote it). Line l of the output, after the two leading directive lines,
// holds line l of the input.
// With device_asm, GNU asm statements (CCE assembly in kernel code, which the
// host compiler cannot assemble) become calls of ptosim::cc::device_asm with
// the assembly text and the output operands. Launch sites are numbered from
// `first_site`: a translation unit's headers rewritten with it continue its
// own numbering, so that no two sites of one unit share a number.
RewriteResult rewrite_launches(const std::string& source, const std::string& display_name, bool device_asm = false,
                               int first_site = 0);

// `#line 1 "name"` and a newline, the name escaped as a C string literal.
std::string line_directive(const std::string& name);

// True when `source` has an asm statement keyword outside comments and literals.
bool has_device_asm(const std::string& source);

// True when `source` has the `__global__` keyword outside comments and
// literals: its kernel definitions record their core type, so that a launch
// from a translation unit of another core type runs them on theirs.
bool has_kernel_keyword(const std::string& source);

// True when `source` has a `<<<` outside comments, strings and character
// literals; cheaper than a rewrite for deciding whether one is needed.
bool has_launch_syntax(const std::string& source);

}  // namespace ptocc
