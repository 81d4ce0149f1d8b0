// Sizes of the SDMA workspace (pto-isa's pto/comm/async_common path): the
// host's SdmaWorkspaceManager allocates kSdmaWorkspaceBytes; ptosim's layout
// of it is include/ptosim/sdma.hpp. Plain C++: host code includes it.
#pragma once
#include <cstdint>

namespace pto {
namespace comm {
namespace sdma {
constexpr uint32_t kSdmaContextWorkspaceBytes = 16U * 1024U;
constexpr uint32_t kSdmaFlagPayloadBytesPerGroup = 512U;
constexpr uint32_t kSdmaMaxChannelGroups = 48U;
constexpr uint32_t kSdmaWorkspaceBytes =
    kSdmaContextWorkspaceBytes + kSdmaMaxChannelGroups * kSdmaFlagPayloadBytesPerGroup;
}  // namespace sdma
}  // namespace comm
}  // namespace pto
