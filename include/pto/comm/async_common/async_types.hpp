// The types of the asynchronous comm instructions (pto-isa docs/isa/comm/
// TPUT_ASYNC.md): the SDMA session's configuration and UB scratch sizes.
// AsyncSession and AsyncEvent: pto/inst/pto_sync.hpp. docs/many-devices.md.
#pragma once
#include <pto/comm/async_common/sdma_constants.hpp>
#include <pto/comm/comm_types.hpp>
#if PTOSIM_DEVICE
#include <pto/inst/pto_sync.hpp>
#endif
#include <climits>
#include <cstdint>

namespace pto {
namespace comm {
namespace sdma {
constexpr uint32_t kSdmaFlagLength = 128U;
constexpr uint32_t kUbAlignSize = 256U;
constexpr uint32_t SDMA_FLAG_LENGTH = kSdmaFlagLength;
constexpr uint32_t UB_ALIGN_SIZE = kUbAlignSize;
constexpr uint32_t kSdmaMaxChannel = kSdmaMaxChannelGroups;
constexpr uint32_t kAutoChannelGroupIdx = UINT32_MAX;
constexpr uint64_t kDefaultSdmaBlockBytes = 1024 * 1024;

// A session's transfer parameters: bytes per queue entry, the byte offset
// added to both addresses of every transfer, and the queues per channel
// group (1..48; a group takes queue_num of the 48 queues).
struct SdmaBaseConfig {
    uint64_t block_bytes;
    uint64_t comm_block_offset;
    uint32_t queue_num;
};
using sdma_base_config_t = SdmaBaseConfig;
}  // namespace sdma
}  // namespace comm
}  // namespace pto
