// Naming the host code that called into the runtime (aclrtMalloc, aclrtFree)
// for reports about device memory.
#pragma once
#include <cstddef>
#include <string>

namespace ptosim {

// "main+0x4f (./app)" as far as the dynamic symbol table knows, else the
// object and offset, else the address. Formats into `out` without
// allocating: usable from the crash handler.
void describe_code_address(const void* pc, char* out, size_t n);

// describe_code_address, followed by " at file:line" when the object has
// line information: what a report names as the site of a host call. `pc` is
// a return address (__builtin_return_address). The line comes from
// binutils' addr2line, run once per address; without it, or without debug
// information, the description alone.
std::string describe_call_site(const void* pc);

// The innermost line of the user's own code in the inlining chain at kernel
// code address `pc` (a return address): the call of the PTO instruction whose
// implementation, inlined from pto-isa's or ptolab's headers, issued an
// intrinsic. "file:line", or "" without line information. addr2line -i runs
// once per address, on the first report or fault that names it.
std::string user_call_line(const void* pc);

}  // namespace ptosim
