/*
 * ptolab HCCL subset: communicators and the host collectives
 * (docs/many-devices.md). Signatures follow CANN's hccl.h. Buffers are
 * device memory (aclrtMalloc) or a communicator window; counts are elements
 * of `dataType`. Every call runs after the work queued on `stream` and
 * returns when this rank's part is done.
 */
#ifndef PTOLAB_HCCL_HCCL_H_
#define PTOLAB_HCCL_HCCL_H_

#include <hccl/hccl_comm.h>

#ifdef __cplusplus
extern "C" {
#endif

HcclResult HcclAllReduce(void *sendBuf, void *recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm comm, aclrtStream stream);
HcclResult HcclBroadcast(void *buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                         aclrtStream stream);
HcclResult HcclReduceScatter(void *sendBuf, void *recvBuf, uint64_t recvCount, HcclDataType dataType,
                             HcclReduceOp op, HcclComm comm, aclrtStream stream);
HcclResult HcclAllGather(void *sendBuf, void *recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm comm,
                         aclrtStream stream);
HcclResult HcclSend(void *sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream);
HcclResult HcclRecv(void *recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_HCCL_HCCL_H_ */
