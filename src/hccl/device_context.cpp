// The device context kernels address peers through (docs/many-devices.md,
// "The device context"): HcclAllocComResourceByTiling and the two group
// queries programs call before it.
#include <hccl/hcom.h>

#include <acl/acl.h>

#include "comm.hpp"

#include <cstring>
#include <string>

using namespace hccl_sim;

namespace {
// The work space a kernel gets in the context (HCCL's MC2 work space).
constexpr uint64_t kWorkspaceBytes = 1 << 20;
// HcomGetL0TopoTypeEx's answer: every rank reaches every other directly.
constexpr uint32_t kTopoMesh = 1;
}  // namespace

extern "C" {

HcclResult HcomGetCommHandleByGroup(const char* group, HcclComm* commHandle) {
    if (!group) return fail(HCCL_E_PTR, "HcomGetCommHandleByGroup: group is NULL");
    if (!commHandle) return fail(HCCL_E_PTR, "HcomGetCommHandleByGroup: commHandle is NULL");
    Comm* c = by_name(group);
    if (!c)
        return fail(HCCL_E_NOT_FOUND, std::string("HcomGetCommHandleByGroup: no live communicator is named '") + group +
                                          "' in this process (HcclGetCommName gives the name)");
    *commHandle = c;
    return HCCL_SUCCESS;
}

HcclResult HcomGetL0TopoTypeEx(const char* group, uint32_t* topoType, uint32_t /*isSetDevice*/) {
    if (!group) return fail(HCCL_E_PTR, "HcomGetL0TopoTypeEx: group is NULL");
    if (!topoType) return fail(HCCL_E_PTR, "HcomGetL0TopoTypeEx: topoType is NULL");
    if (!by_name(group))
        return fail(HCCL_E_NOT_FOUND,
                    std::string("HcomGetL0TopoTypeEx: no live communicator is named '") + group + "' in this process");
    *topoType = kTopoMesh;
    return HCCL_SUCCESS;
}

HcclResult HcclAllocComResourceByTiling(HcclComm comm, void* /*stream*/, void* mc2Tiling, void** commContext) {
    const char* fn = "HcclAllocComResourceByTiling";
    Comm* c = live(comm, fn);
    if (!c) return comm ? HCCL_E_PARA : HCCL_E_PTR;
    if (!mc2Tiling) return fail(HCCL_E_PTR, std::string(fn) + ": mc2Tiling is NULL");
    if (!commContext) return fail(HCCL_E_PTR, std::string(fn) + ": commContext is NULL");
    // One context per communicator, made on the first request; the tiling
    // only selects HCCL's algorithm on a device and changes nothing here.
    if (!c->device_ctx) {
        if (aclrtMalloc(&c->workspace, kWorkspaceBytes, ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS ||
            aclrtMalloc(&c->device_ctx, sizeof(DeviceContext), ACL_MEM_MALLOC_HUGE_FIRST) != ACL_SUCCESS)
            return fail(HCCL_E_MEMORY, std::string(fn) + ": aclrtMalloc failed (" + aclGetRecentErrMsg() +
                                           "); set a device with aclrtSetDevice first");
        DeviceContext d{};
        d.workSpace = reinterpret_cast<uint64_t>(c->workspace);
        d.workSpaceSize = kWorkspaceBytes;
        d.rankId = c->rank;
        d.rankNum = c->size;
        d.winSize = c->win.win_bytes;
        for (uint32_t r = 0; r < c->size; ++r) {
            d.windowsIn[r] = c->win.in[r];
            d.windowsOut[r] = c->win.out[r];
        }
        aclrtMemcpy(c->device_ctx, sizeof d, &d, sizeof d, ACL_MEMCPY_HOST_TO_DEVICE);
    }
    *commContext = c->device_ctx;
    return HCCL_SUCCESS;
}

}  // extern "C"
