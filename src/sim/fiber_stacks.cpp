// The fiber-stack region (fiber_stacks.hpp): reserved once, inaccessible
// (PROT_NONE, no memory committed) until a slot is carved from it.
#include "fiber_stacks.hpp"

#include <sys/mman.h>

#include <cerrno>
#include <mutex>
#include <vector>

namespace ptosim {
namespace detail {
uintptr_t g_fiber_stack_base = kNoFiberStacks;
}

namespace {

struct Region {
    std::mutex mu;
    bool reserved = false;
    uintptr_t base = 0;  // 0: the reservation failed
    uintptr_t next[2] = {};  // slots ever carved, per kind
    std::vector<uintptr_t> free[2];
};
Region& region() {
    static Region* r = new Region;  // never destroyed: stacks may be given back during exit
    return *r;
}

constexpr uintptr_t kind_base(FiberStackKind k) { return k == FiberStackKind::Core ? 0 : detail::kCoreStackArea; }
constexpr uintptr_t kind_slots(FiberStackKind k) {
    return k == FiberStackKind::Core ? detail::kCoreStackSlots : detail::kSimtStackSlots;
}

// Called with the lock held.
void reserve(Region& r) {
    r.reserved = true;
    const uintptr_t align = detail::kCoreStackBytes;
    const size_t bytes = detail::kFiberStackArea + align;
    void* p = mmap(nullptr, bytes, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED) return;  // every stack gets a mapping of its own, found through the thread-local pointer
    const uintptr_t lo = reinterpret_cast<uintptr_t>(p);
    const uintptr_t base = (lo + align - 1) & ~(align - 1);
    if (base > lo) munmap(p, base - lo);
    if (const uintptr_t end = lo + bytes, used = base + detail::kFiberStackArea; end > used)
        munmap(reinterpret_cast<void*>(used), end - used);
    r.base = base;
    __atomic_store_n(&detail::g_fiber_stack_base, base, __ATOMIC_RELEASE);
}

void* own_mapping(FiberStackKind k) {
    const FiberStackShape sh = fiber_stack_shape(k);
    void* s = mmap(nullptr, sh.slot, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK,
                   -1, 0);
    if (s == MAP_FAILED) return nullptr;
    // guard: a stack overflow faults instead of corrupting what lies below
    if (mprotect(s, sh.slot - sh.usable, PROT_NONE) != 0) {
        const int e = errno;
        munmap(s, sh.slot);
        errno = e;
        return nullptr;
    }
    return s;
}
}  // namespace

bool in_fiber_stack_region(const void* p) {
    return reinterpret_cast<uintptr_t>(p) - detail::g_fiber_stack_base < detail::kFiberStackArea;
}

void* take_fiber_stack(FiberStackKind k) {
    const FiberStackShape sh = fiber_stack_shape(k);
    const int ki = static_cast<int>(k);
    Region& r = region();
    uintptr_t slot = 0;
    {
        std::lock_guard lk(r.mu);
        if (!r.reserved) reserve(r);
        if (r.base) {
            if (!r.free[ki].empty()) {
                slot = r.free[ki].back();
                r.free[ki].pop_back();
            } else if (r.next[ki] < kind_slots(k)) {
                slot = r.base + kind_base(k) + r.next[ki]++ * sh.slot;
            }
        }
    }
    void* s = nullptr;
    if (!slot) {
        s = own_mapping(k);
    } else if (mprotect(reinterpret_cast<void*>(slot + sh.slot - sh.usable), sh.usable, PROT_READ | PROT_WRITE) == 0) {
        s = reinterpret_cast<void*>(slot);
    } else {
        const int e = errno;
        {
            std::lock_guard lk(r.mu);
            r.free[ki].push_back(slot);
        }
        errno = e;
    }
    if (s) fiber_stack_top_of(k, s).core = nullptr;
    return s;
}

void release_fiber_stack(FiberStackKind k, void* s) {
    const FiberStackShape sh = fiber_stack_shape(k);
    if (!in_fiber_stack_region(s)) {
        munmap(s, sh.slot);
        return;
    }
    // Back to reserved: the pages are dropped and nothing is committed.
    void* p = mmap(s, sh.slot, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0);
    if (p == MAP_FAILED) return;  // the slot stays mapped and is not reused
    Region& r = region();
    std::lock_guard lk(r.mu);
    r.free[static_cast<int>(k)].push_back(reinterpret_cast<uintptr_t>(s));
}

}  // namespace ptosim
