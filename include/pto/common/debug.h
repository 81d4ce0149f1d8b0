// pto-isa's kernel assertion macros. PTO_ASSERT checks only in _DEBUG builds,
// as there; a failed check stops the core with a fault naming the kernel's
// file:line, the message and the condition (on the device it prints and traps).
#pragma once
#include <ptosim/core.hpp>
#include <string>

#define DEBUG_CHECK(condition, message)                                                                    \
    do {                                                                                                   \
        if (!(condition))                                                                                  \
            ::ptosim::fault(::ptosim::SourceLoc{__FILE__, __LINE__},                                       \
                            std::string("[PTO][ASSERT] ") + (message) + " Condition: " #condition);        \
    } while (0)

#ifdef _DEBUG
#define PTO_ASSERT(condition, message) DEBUG_CHECK(condition, message)
#else
#define PTO_ASSERT(condition, message) ((void)0)
#endif
