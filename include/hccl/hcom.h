/*
 * ptolab HCCL subset: the calls that give kernels a communicator's device
 * context (docs/many-devices.md, "The device context"). CANN declares them
 * in its internal hcom.h; programs often declare them themselves, with the
 * same types as here.
 */
#ifndef PTOLAB_HCCL_HCOM_H_
#define PTOLAB_HCCL_HCOM_H_

#include <hccl/hccl_types.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The communicator named `group` (HcclGetCommName) of this process. */
HcclResult HcomGetCommHandleByGroup(const char *group, HcclComm *commHandle);
/* The level-0 topology of `group`: ptolab's ranks form a full mesh (1). */
HcclResult HcomGetL0TopoTypeEx(const char *group, uint32_t *topoType, uint32_t isSetDevice);
/* The device context of `comm` (device memory): rank, size, window size and
 * every rank's windowsIn/windowsOut address, for kernels to address peers. */
HcclResult HcclAllocComResourceByTiling(HcclComm comm, void *stream, void *mc2Tiling, void **commContext);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_HCCL_HCOM_H_ */
