// The op name of testutil::announce_seeded's records (sim_test_util.hpp):
// bytes a test wrote behind the simulator's back, not an instruction, so
// subscribers that count instructions leave them out.
#pragma once
#include <string_view>

namespace testutil {
inline constexpr const char* kSeedOp = "test seed";
inline bool is_seed(const char* op) { return op && std::string_view(op) == kSeedOp; }
}  // namespace testutil
