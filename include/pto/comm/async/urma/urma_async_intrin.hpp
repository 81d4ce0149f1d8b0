// ptolab's device side of pto-isa's URMA header (the file pto-isa's URMA
// testcases include): the registered base address of a peer, read from the
// workspace pto-isa's UrmaWorkspaceManager filled. TPUT_ASYNC / TGET_ASYNC
// over DmaEngine::URMA and BuildAsyncSession<DmaEngine::URMA> are in
// pto/comm/TPutAsync.hpp; ptosim's URMA engine (ptosim/urma.hpp) runs the
// work queue entries. docs/many-devices.md, "URMA".
#pragma once
#include <pto/comm/TPutAsync.hpp>
#if PTOSIM_DEVICE
#include <ptosim/urma.hpp>

namespace pto {
namespace comm {
namespace urma {

// The peer's registered base (the memory row of `peerRank` in the workspace).
PTO_INST_CALLER uint64_t UrmaPeerMrBaseAddr(__gm__ uint8_t* urmaWorkspace, uint32_t peerRank) {
    return ptosim::urma::peer_base(ptosim::caller_loc(__builtin_return_address(0)), urmaWorkspace, peerRank);
}

}  // namespace urma
}  // namespace comm
}  // namespace pto
#endif
