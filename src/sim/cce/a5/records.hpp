// The record every A5 register instruction starts from: its name, the
// vector pipe and the call site; each family adds bytes and memory ranges.
#pragma once
#include <ptosim/core.hpp>

namespace ptosim::cce::a5 {

inline OpRecord vector_record(const char* op, const SourceLoc& loc) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::V;
    r.loc = loc;
    return r;
}

}  // namespace ptosim::cce::a5
