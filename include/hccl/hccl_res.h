/*
 * ptolab subset of CANN's hccl/hccl_res.h: memory registration and channels
 * between ranks' network endpoints. ptolab's ranks reach each other through
 * the communicator windows (shared memory), with no links, so these calls
 * are declared for host code that names them and refuse with
 * HCCL_E_NOT_SUPPORT and a message. docs/many-devices.md, "Resources and
 * rank graph".
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

/* Refused (HCCL_E_NOT_SUPPORT): the memory and channels of HCCL's
 * resource API exist for links ptolab does not simulate. */
HcclResult HcclCommMemReg(HcclComm comm, const char *memTag, const CommMem *mem, HcclMemHandle *memHandle);
HcclResult HcclChannelAcquire(HcclComm comm, CommEngine engine, const HcclChannelDesc *channelDescs,
                              uint32_t channelNum, ChannelHandle *channels);
HcclResult HcclChannelGetRemoteMems(HcclComm comm, ChannelHandle channel, uint32_t *memNum, CommMem **remoteMems,
                                    char ***memTags);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_RES_H */
