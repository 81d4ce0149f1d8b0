// The fiber stacks of simulated cores and A5 SIMT threads, carved from one
// reserved region so that kernel code finds its core from the stack pointer
// (include/ptosim/core.hpp, ptosim::core; docs/speed.md, "The running core's
// lookup").
#pragma once
#include <ptosim/core.hpp>

#include <cstddef>
#include <cstdint>

namespace ptosim {

enum class FiberStackKind : uint8_t { Core, Simt };

struct FiberStackShape {
    uintptr_t slot;    // the slot's size, a power of two; slots are aligned to it
    uintptr_t usable;  // readable and writable bytes at the slot's top (the rest is a guard below)
};
constexpr FiberStackShape fiber_stack_shape(FiberStackKind k) {
    // A core: a 4 KiB guard page at the slot's bottom, as before the region.
    // A SIMT thread: 256 KiB and a page, everything below it a guard.
    return k == FiberStackKind::Core ? FiberStackShape{detail::kCoreStackBytes, detail::kCoreStackBytes - 4096}
                                     : FiberStackShape{detail::kSimtStackBytes, (uintptr_t{256} << 10) + 4096};
}

// A slot (its lowest address), from the region while it has room, else a
// mapping of its own with the same layout; nullptr (errno set) when neither
// can be had. Its top names no core.
void* take_fiber_stack(FiberStackKind);
// Returns a slot's memory to the system (its pages are dropped; a slot of
// the region is kept for reuse).
void release_fiber_stack(FiberStackKind, void* slot);
// The top of a slot, above the stack; where its context starts.
inline detail::FiberStackTop& fiber_stack_top_of(FiberStackKind k, void* slot) {
    return *reinterpret_cast<detail::FiberStackTop*>(static_cast<char*>(slot) + fiber_stack_shape(k).slot -
                                                     sizeof(detail::FiberStackTop));
}
// Bytes of stack below the top (what make_fcontext is given).
constexpr size_t fiber_stack_bytes(FiberStackKind k) {
    return fiber_stack_shape(k).usable - sizeof(detail::FiberStackTop);
}
// Whether `p` lies in the region.
bool in_fiber_stack_region(const void* p);

}  // namespace ptosim
