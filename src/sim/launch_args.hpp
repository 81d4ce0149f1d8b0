// Part of libptosim: the pointer arguments of a ptocc launch, checked before
// it is queued (docs/acl.md, "Pointer arguments of a launch").
#pragma once
#include <ptosim/runtime.hpp>

namespace ptosim {

// Not ok when a non-null pointer argument of `spec` lies in no registered
// block (device or host), no freed block and no quarantined host block, and
// the process has or had device memory: then it is host memory a device
// cannot address, most often a CPU tensor. The status carries the core exception the
// device would report for the access, and a message naming the kernel, its
// launch site, the argument's position and address and the fix.
Status check_launch_pointers(Device& d, const LaunchSpec& spec);

}  // namespace ptosim
