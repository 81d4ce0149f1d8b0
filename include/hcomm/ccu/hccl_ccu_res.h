/*
 * ptolab's declarations of hcomm's CCU kernel calls (CANN pkg_inc
 * hcomm/ccu/hccl_ccu_res.h). docs/many-devices.md, "The CCU engine".
 *
 * HcclCcuKernelRegister: kernelCreator points to an hcomm::KernelCreator,
 *   kernelArg to an hcomm::CcuKernelArg; the creator builds the kernel, whose
 *   Algorithm() records its program. HcclCcuKernelRegisterFinish ends a
 *   batch of registrations. HcclCcuKernelLaunch: taskArgs points to an
 *   hcomm::CcuTaskArg; the kernel's GeneArgs gives the program's arguments,
 *   and the program is queued on the stream of `threadHandle`
 *   (HcclThreadAcquireWithStream), where it runs in order with that stream's
 *   work. A kernel handle launches once.
 */
#ifndef HCCL_CCU_RES_H
#define HCCL_CCU_RES_H

#include <hccl/hccl_types.h>
#include <hccl/hccl_res.h>
#include <hcomm/ccu/ccu_kernel.h>

#ifdef __cplusplus
extern "C" {
#endif

HcclResult HcclCcuKernelRegister(HcclComm comm, CcuKernelHandle *kernelHandle, void *kernelCreator, void *kernelArg);
HcclResult HcclCcuKernelRegisterFinish(HcclComm comm);
HcclResult HcclCcuKernelLaunch(HcclComm comm, const ThreadHandle threadHandle, const CcuKernelHandle kernelHandle,
                               void *taskArgs);

#ifdef __cplusplus
}
#endif

#endif
