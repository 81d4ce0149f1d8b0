// The types bisheng builds into every kernel translation unit: the 16-bit
// floats, CCE's pipe and event enums. Shared by ptolab's own PTO headers and
// by the executed-pto-isa build (cce/bisheng.hpp), so both see one type.
#pragma once
#include <cstdint>
#include <ptosim/float16.hpp>

// CCE pipes and event ids (values as in the CCE headers).
enum pipe_t : int { PIPE_S = 0, PIPE_V = 1, PIPE_M = 2, PIPE_MTE1 = 3, PIPE_MTE2 = 4, PIPE_MTE3 = 5, PIPE_ALL = 6,
                    PIPE_MTE4 = 7, PIPE_MTE5 = 8, PIPE_V2 = 9, PIPE_FIX = 10 };
enum event_t : int { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };

// bisheng (clang) accepts the half-precision storage type __fp16 in kernel
// and host code alike; pto-isa's host programs instantiate tests with it.
// clang has it built in; for GCC it is ptolab's binary16.
#if !defined(__clang__)
using __fp16 = half;
#endif
