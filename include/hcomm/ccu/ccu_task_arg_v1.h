/*
 * ptolab's declaration of hcomm's CCU task argument (CANN pkg_inc
 * hcomm/ccu/ccu_task_arg_v1.h): the polymorphic base of what
 * HcclCcuKernelLaunch passes to the kernel's GeneArgs.
 */
#ifndef HCOMM_CCU_TASK_ARG_V1_H
#define HCOMM_CCU_TASK_ARG_V1_H

namespace hcomm {

struct CcuTaskArg {
    CcuTaskArg() = default;
    virtual ~CcuTaskArg() = default;
};

}  // namespace hcomm

#endif
