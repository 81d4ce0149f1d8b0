/*
 * ptolab subset of CANN's hcomm_res_defs.h: the types of HCCL's resource
 * API (endpoints, protocols, engines, memory descriptions, channel and
 * thread handles), with CANN's names and values, so that host code written
 * against it (pto-isa's URMA workspace manager) compiles. ptolab simulates
 * the UB links of Ascend950 (AIV channels, the URMA engine), not the others:
 * docs/many-devices.md, "Resources and rank graph".
 */
#ifndef HCOMM_RES_DEFS_H
#define HCOMM_RES_DEFS_H

#include <arpa/inet.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t HcommResult;
typedef void *EndpointHandle;
typedef void *HcommMemHandle;

#ifndef CHANNEL_HANDLE_DEFINED
#define CHANNEL_HANDLE_DEFINED
typedef uint64_t ChannelHandle;
#endif
#ifndef THREAD_HANDLE_DEFINED
#define THREAD_HANDLE_DEFINED
typedef uint64_t ThreadHandle;
#endif

typedef enum {
    COMM_ENGINE_RESERVED = -1,
    COMM_ENGINE_CPU = 0,
    COMM_ENGINE_CPU_TS = 1,
    COMM_ENGINE_AICPU = 2,
    COMM_ENGINE_AICPU_TS = 3,
    COMM_ENGINE_AIV = 4,
    COMM_ENGINE_CCU = 5
} CommEngine;

typedef enum {
    COMM_PROTOCOL_RESERVED = -1,
    COMM_PROTOCOL_HCCS = 0,
    COMM_PROTOCOL_ROCE = 1,
    COMM_PROTOCOL_PCIE = 2,
    COMM_PROTOCOL_SIO = 3,
    COMM_PROTOCOL_UBC_CTP = 4,
    COMM_PROTOCOL_UBC_TP = 5,
    COMM_PROTOCOL_UB_MEM = 6,
    COMM_PROTOCOL_UBOE = 7,
    COMM_PROTOCOL_HCCS_ONLY = 8
} CommProtocol;

typedef enum {
    COMM_ADDR_TYPE_RESERVED = -1,
    COMM_ADDR_TYPE_IP_V4 = 0,
    COMM_ADDR_TYPE_IP_V6 = 1,
    COMM_ADDR_TYPE_ID = 2,
    COMM_ADDR_TYPE_EID = 3
} CommAddrType;

/* A device's address: 36 bytes after the type. */
typedef struct {
    CommAddrType type;
    union {
        uint8_t raws[36];
        struct in_addr addr;
        struct in6_addr addr6;
        uint32_t id;
        uint8_t eid[16];
    };
} CommAddr;

typedef enum {
    ENDPOINT_LOC_TYPE_RESERVED = -1,
    ENDPOINT_LOC_TYPE_DEVICE = 0,
    ENDPOINT_LOC_TYPE_HOST = 1
} EndpointLocType;

typedef struct {
    EndpointLocType locType;
    union {
        uint8_t raws[60];
        struct {
            uint32_t devPhyId, superDevId, serverIdx, superPodIdx;
        } device;
        struct {
            uint32_t id;
        } host;
    };
} EndpointLoc;

typedef struct {
    CommProtocol protocol;
    CommAddr commAddr;
    EndpointLoc loc;
    union {
        uint8_t raws[52];
    };
} EndpointDesc;

typedef enum {
    COMM_MEM_TYPE_INVALID = -1,
    COMM_MEM_TYPE_DEVICE = 0,
    COMM_MEM_TYPE_HOST = 1
} CommMemType;

typedef struct {
    CommMemType type;
    void *addr;
    uint64_t size;
} CommMem;

/* Version, magic word and size of an extensible descriptor. */
typedef struct {
    uint32_t version;
    uint32_t magicWord;
    uint32_t size;
    uint32_t reserved;
} CommAbiHeader;

/* Marks num endpoint descriptions invalid (all bytes 0xFF, the enums
 * RESERVED). 0, or 2 (HCCL_E_PTR) for NULL. */
static inline HcommResult EndpointDescInit(EndpointDesc *endpoint, uint32_t num)
{
    for (uint32_t i = 0; i < num; ++i, ++endpoint) {
        if (endpoint == NULL) return 2;
        memset(endpoint, 0xFF, sizeof(EndpointDesc));
        endpoint->protocol = COMM_PROTOCOL_RESERVED;
        endpoint->commAddr.type = COMM_ADDR_TYPE_RESERVED;
        endpoint->loc.locType = ENDPOINT_LOC_TYPE_RESERVED;
    }
    return 0;
}

#ifdef __cplusplus
}
#endif

#endif /* HCOMM_RES_DEFS_H */
