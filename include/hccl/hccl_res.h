/*
 * ptolab subset of CANN's hccl/hccl_res.h: memory registration and channels
 * between ranks' network endpoints. ptolab registers device memory per tag
 * and builds AIV channels over the UB links of its rank graph: each channel
 * entity (send and completion queues, doorbells, both ends' registered
 * buffers) lies in device memory, and ptosim's URMA engine runs the work
 * queue entries a kernel posts. docs/many-devices.md, "Resources and rank
 * graph" and "URMA".
 */
#ifndef HCCL_RES_H
#define HCCL_RES_H

#include <stdint.h>
#include <acl/acl_rt.h>
#include <hccl/hccl_types.h>
#include <hccl/hcomm_res_defs.h>

#ifdef __cplusplus
extern "C" {
#endif

#ifndef HCCL_MEM_HANDLE_DEFINED
#define HCCL_MEM_HANDLE_DEFINED
typedef void *HcclMemHandle;
#endif

static const uint32_t HCCL_CHANNEL_MAGIC_WORD = 0x0f0f0f0f;
static const uint32_t HCCL_CHANNEL_VERSION = 1;

/* A channel to a remote rank over one protocol between two endpoints. */
typedef struct {
    CommAbiHeader header;
    uint32_t remoteRank;
    CommProtocol channelProtocol;
    EndpointDesc localEndpoint;
    EndpointDesc remoteEndpoint;
    uint32_t notifyNum;
    HcclMemHandle *memHandles;
    uint32_t memHandleNum;
    union {
        uint8_t raws[128];
        struct {
            uint32_t queueNum, retryCnt, retryInterval;
            uint8_t tc, sl;
        } roceAttr;
        struct {
            uint8_t pathMode;
        } ubMemAttr;
    };
} HcclChannelDesc;

/* Marks descNum descriptions unset (all bytes 0xFF, then the header, no
 * remote rank, protocol RESERVED, no memory). HCCL_E_PTR for NULL. */
static inline HcclResult HcclChannelDescInit(HcclChannelDesc *desc, uint32_t descNum)
{
    for (uint32_t i = 0; i < descNum; ++i, ++desc) {
        if (desc == NULL) return HCCL_E_PTR;
        memset(desc, 0xFF, sizeof(HcclChannelDesc));
        desc->header.version = HCCL_CHANNEL_VERSION;
        desc->header.magicWord = HCCL_CHANNEL_MAGIC_WORD;
        desc->header.size = sizeof(HcclChannelDesc);
        desc->header.reserved = 0;
        desc->remoteRank = ~0U;
        desc->channelProtocol = COMM_PROTOCOL_RESERVED;
        desc->notifyNum = 0;
        desc->memHandles = NULL;
        desc->memHandleNum = 0;
        EndpointDescInit(&desc->localEndpoint, 1);
        EndpointDescInit(&desc->remoteEndpoint, 1);
    }
    return HCCL_SUCCESS;
}

/* HcclCommMemReg: device memory under a tag (the handle names it in a
 * channel description). HcclChannelAcquire: COMM_ENGINE_AIV channels over
 * UBC_TP/UBC_CTP links, each handle the device address of the channel's
 * entity; or COMM_ENGINE_CCU channels for CCU kernels (notify registers
 * of both ends, hcomm/ccu/ccu_kernel.h). HcclChannelGetRemoteMems: the peer's registered memory and tags,
 * owned by the communicator. docs/many-devices.md. */
HcclResult HcclCommMemReg(HcclComm comm, const char *memTag, const CommMem *mem, HcclMemHandle *memHandle);
HcclResult HcclChannelAcquire(HcclComm comm, CommEngine engine, const HcclChannelDesc *channelDescs,
                              uint32_t channelNum, ChannelHandle *channels);
/* A thread of an engine bound to an ACL stream: ptolab supports
 * COMM_ENGINE_CCU, whose thread runs launched CCU kernels
 * (hcomm/ccu/hccl_ccu_res.h) in order with the stream's other work.
 * notifyNum is recorded and not otherwise used. */
HcclResult HcclThreadAcquireWithStream(HcclComm comm, CommEngine engine, aclrtStream stream, uint32_t notifyNum,
                                       ThreadHandle *thread);
HcclResult HcclChannelGetRemoteMems(HcclComm comm, ChannelHandle channel, uint32_t *memNum, CommMem **remoteMems,
                                    char ***memTags);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_RES_H */
