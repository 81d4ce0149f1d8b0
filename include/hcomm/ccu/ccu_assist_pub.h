/*
 * ptolab's declaration of hcomm's CCU helpers (CANN pkg_inc
 * hcomm/ccu/ccu_assist_pub.h) that programs call on the host.
 */
#ifndef HCOMM_CCU_ASSIST_PUB_H
#define HCOMM_CCU_ASSIST_PUB_H

#include <cstdint>

namespace hcomm {
namespace CcuRep {

// The memory token of device memory [va, va + size) for CCU data moves:
// ptolab records the range in this process and returns a token value (never
// 0); a local address a CCU kernel names with that token must lie in the
// range. docs/many-devices.md, "The CCU engine".
uint64_t GetTokenInfo(uint64_t va, uint64_t size);

}  // namespace CcuRep
}  // namespace hcomm

#endif
