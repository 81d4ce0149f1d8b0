/*
 * ptolab subset of CANN's hccl/hccl_rank_graph.h: the links between ranks
 * by network layer. ptolab's rank graph has one layer (0) in which every
 * rank has one UB link (COMM_PROTOCOL_UBC_TP) to every other.
 * docs/many-devices.md, "Resources and rank graph".
 */
#ifndef HCCL_RANK_GRAPH_H
#define HCCL_RANK_GRAPH_H

#include <hccl/hccl_res.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    COMM_TOPO_RESERVED = -1,
    COMM_TOPO_CLOS = 0,
    COMM_TOPO_1DMESH = 1,
    COMM_TOPO_910_93 = 2,
    COMM_TOPO_310P = 3,
    COMM_TOPO_A2AXSERVER = 4,
    COMM_TOPO_CUSTOM = 5
} CommTopo;

static const uint32_t COMM_LINK_MAGIC_WORD = 0x0f0e0f0f;
static const uint32_t COMM_LINK_VERSION = 1;

/* A link from this rank's endpoint to a peer's. */
typedef struct {
    CommAbiHeader header;
    EndpointDesc srcEndpointDesc;
    EndpointDesc dstEndpointDesc;
    union {
        uint8_t raws[128];
        struct {
            CommProtocol linkProtocol;
            uint8_t hop;
        };
    } linkAttr;
} CommLink;

HcclResult HcclRankGraphGetLinks(HcclComm comm, uint32_t netLayer, uint32_t srcRank, uint32_t dstRank,
                                 CommLink **links, uint32_t *linkNum);

#ifdef __cplusplus
}
#endif

#endif /* HCCL_RANK_GRAPH_H */
