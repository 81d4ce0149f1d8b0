/*
 * ptolab HCCL subset: communicators (docs/many-devices.md).
 *
 * Each rank is a process with one simulated device; rank 0 makes the root
 * info, the program shares it (MPI_Bcast) and every rank opens the
 * communicator with it. Signatures follow CANN's HCCL headers.
 */
#ifndef PTOLAB_HCCL_HCCL_COMM_H_
#define PTOLAB_HCCL_HCCL_COMM_H_

#include <hccl/hccl_types.h>
#include <acl/acl_base.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Root info for a new communicator; call on one rank and share the bytes. */
HcclResult HcclGetRootInfo(HcclRootInfo *rootInfo);
/* Opens rank `rank` of an `nRanks`-rank communicator; every rank calls it
 * with the same root info. Collective: returns once every rank joined. */
HcclResult HcclCommInitRootInfo(uint32_t nRanks, const HcclRootInfo *rootInfo, uint32_t rank, HcclComm *comm);
/* Closes the communicator and releases its windows. Collective. */
HcclResult HcclCommDestroy(HcclComm comm);
HcclResult HcclGetRankId(HcclComm comm, uint32_t *rank);
HcclResult HcclGetRankSize(HcclComm comm, uint32_t *rankSize);
/* The communicator's group name (at most MAX_GROUP_NAME bytes with its zero). */
HcclResult HcclGetCommName(HcclComm comm, char *commName);
/* Returns when every rank reached it, after the work queued on `stream`. */
HcclResult HcclBarrier(HcclComm comm, aclrtStream stream);
/* A description of a result code; never NULL. */
const char *HcclGetErrorString(HcclResult code);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_HCCL_HCCL_COMM_H_ */
