// Numbers in hexadecimal, spelt one way in every message and name ptocc,
// the simulator and the CLI print.
#pragma once
#include <cinttypes>
#include <cstdint>
#include <cstdio>
#include <string>

namespace ptolab::common {

// "0x1f": addresses, sizes and handles in messages.
inline std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%" PRIx64, v);
    return b;
}
// Pointers as their address (a template, so that hex(0) is the number).
template <class T>
std::string hex(const T* p) {
    return hex(static_cast<uint64_t>(reinterpret_cast<uintptr_t>(p)));
}

// "000000000000001f": always 16 digits, for identifiers (translation units,
// cache keys) that name files and symbols.
inline std::string hex16(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "%016" PRIx64, v);
    return b;
}

}  // namespace ptolab::common
