// What bisheng gives a kernel translation unit when it compiles a pto-isa
// tree of the user's (the executed-pto-isa build, docs/intrinsics/README.md):
// the address-space qualifiers, the entry and function attributes, the
// built-in element types and every CCE intrinsic ptosim executes. ptocc
// force-includes this header ahead of the user's source, with the target
// macros bisheng defines (__CCE_AICORE__, __NPU_ARCH__, __DAV_C220_VEC__...)
// already set on the command line.
#pragma once

#if !defined(__clang__)
#error "ptosim: the executed-pto-isa build needs clang (local-memory pointers are x86 GS-relative address spaces)"
#endif

// Local-memory pointers hold offsets into the core's own buffer, as on the
// device. The one the scalar unit can dereference (UB on a Vector core, L1
// on a Cube core) is GS-relative: the scheduler points GS at the running
// core's buffer, so `*ub_ptr` reads that core's bytes. The others are only
// handed to intrinsics, which resolve them by name; distinct address spaces
// keep them distinct types, as bisheng does.
#define __ubuf__ __attribute__((address_space(256)))
#define __cbuf__ __attribute__((address_space(256)))
#define __ca__ __attribute__((address_space(3)))
#define __cb__ __attribute__((address_space(4)))
#define __cc__ __attribute__((address_space(5)))
#define __fbuf__ __attribute__((address_space(6)))
#define __biasbuf__ __attribute__((address_space(7)))
// GM pointers are host addresses; their own address space keeps them a type
// of their own (pto-isa specialises templates on it), and x86 reads address
// space 1 as flat memory.
#define __gm__ __attribute__((address_space(1)))
#define PTOSIM_CCE 1
// The element assignments ptocc wraps in pto-isa's headers (bfloat16_t
// stores through UB and GM pointers).
#include <cce/store_to.hpp>
// The null-pointer comparisons ptocc rewrites in pto-isa's headers.
#include <cce/null_check.hpp>

#if defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201
#include <cce/builtins.hpp>
#include <cce/a2a3/families.hpp>
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 3510
// A5 (dav-c310): the register layer. Its vector registers, predicates,
// loads/stores and arithmetic run; the rest of A5's intrinsics are declared
// and fault where a kernel reaches them (docs/intrinsics/a5-vreg.md).
#include <cce/builtins.hpp>
#include <cce/a5/families.hpp>
#else
#error "ptosim: the CCE intrinsic layer covers A2A3 (dav-c220) and A5 (dav-c310); this target is neither"
#endif
