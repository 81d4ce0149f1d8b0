/*
 * ptolab's declarations of hcomm's CCU kernel argument (CANN pkg_inc
 * hcomm/ccu/ccu_kernel_arg.h): what HcclCcuKernelRegister hands the kernel
 * creator. `channels` are CCU channels (HcclChannelAcquire with
 * COMM_ENGINE_CCU), one per peer the kernel talks to.
 */
#ifndef HCOMM_CCU_KERNEL_ARG_H
#define HCOMM_CCU_KERNEL_ARG_H

#include <vector>

#include <hccl/hcomm_res_defs.h>
#include <hcomm/ccu/ccu_kernel_signature.h>

namespace hcomm {

struct CcuKernelArg {
    CcuKernelArg() = default;
    virtual ~CcuKernelArg() = default;
    // Names the kernel: two registrations with equal signatures on one
    // communicator are refused (HCCL_E_PARA) by ptolab.
    virtual CcuKernelSignature GetKernelSignature() const = 0;
    std::vector<ChannelHandle> channels;
};

}  // namespace hcomm

#endif
