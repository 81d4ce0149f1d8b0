// HCCL's resource and rank-graph calls (hccl/hccl_res.h,
// hccl/hccl_rank_graph.h): memory registration, channels and links between
// the ranks' network endpoints. ptolab's ranks share a host and reach each
// other through the communicator windows (windows.cpp), with no links, so
// each call checks its communicator and refuses, saying so.
// docs/many-devices.md, "Resources and rank graph".
#include <hccl/hccl_rank_graph.h>
#include <hccl/hccl_res.h>

#include "comm.hpp"

#include <string>

using hccl_sim::fail;
using hccl_sim::live;

namespace {

HcclResult refuse(HcclComm comm, const char* fn, const char* what) {
    if (!live(comm, fn)) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    return fail(HCCL_E_NOT_SUPPORT,
                std::string(fn) + ": " + what +
                    " are not simulated: ptolab's ranks reach each other through the communicator windows "
                    "(HcclAllocComResourceByTiling's windowsIn/windowsOut), which kernels address directly; "
                    "transfers over URMA or RDMA channels (Ascend950's NICs) have no counterpart "
                    "(docs/many-devices.md)");
}

}  // namespace

extern "C" {

HcclResult HcclCommMemReg(HcclComm comm, const char* /*memTag*/, const CommMem* /*mem*/, HcclMemHandle* memHandle) {
    if (memHandle) *memHandle = nullptr;
    return refuse(comm, "HcclCommMemReg", "memory registrations for channels");
}

HcclResult HcclChannelAcquire(HcclComm comm, CommEngine /*engine*/, const HcclChannelDesc* /*channelDescs*/,
                              uint32_t /*channelNum*/, ChannelHandle* /*channels*/) {
    return refuse(comm, "HcclChannelAcquire", "channels between network endpoints");
}

HcclResult HcclChannelGetRemoteMems(HcclComm comm, ChannelHandle /*channel*/, uint32_t* memNum, CommMem** remoteMems,
                                    char*** memTags) {
    if (memNum) *memNum = 0;
    if (remoteMems) *remoteMems = nullptr;
    if (memTags) *memTags = nullptr;
    return refuse(comm, "HcclChannelGetRemoteMems", "channels between network endpoints");
}

HcclResult HcclRankGraphGetLinks(HcclComm comm, uint32_t /*netLayer*/, uint32_t /*srcRank*/, uint32_t /*dstRank*/,
                                 CommLink** links, uint32_t* linkNum) {
    if (links) *links = nullptr;
    if (linkNum) *linkNum = 0;
    return refuse(comm, "HcclRankGraphGetLinks", "links between the ranks' network endpoints");
}

}  // extern "C"
