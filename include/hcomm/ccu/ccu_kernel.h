/*
 * ptolab's declarations of hcomm's CCU kernel base (CANN pkg_inc
 * hcomm/ccu/ccu_kernel.h), source-compatible with what pto-isa's CCU
 * collectives (include/pto/comm/async/ccu/) call. A kernel derives from
 * CcuKernel and records its program in Algorithm() through the primitives
 * below; libhccl's CCU engine runs that program when the kernel is launched
 * (HcclCcuKernelLaunch, hcomm/ccu/hccl_ccu_res.h). The primitives' semantics
 * as ptolab runs them: docs/many-devices.md, "The CCU engine".
 *
 * Data moves ("Nb": non-blocking) start at once and set their event's mask
 * bits when they complete; WaitEvent waits until every bit of the event's
 * mask is set and clears them. Lengths are in bytes, held in a Variable.
 */
#ifndef HCOMM_CCU_KERNEL_H
#define HCOMM_CCU_KERNEL_H

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <hccl/hccl_types.h>
#include <hccl/hcomm_res_defs.h>
#include <hcomm/ccu/ccu_assist_pub.h>
#include <hcomm/ccu/ccu_datatype_v1.h>
#include <hcomm/ccu/ccu_kernel_arg.h>
#include <hcomm/ccu/ccu_kernel_signature.h>
#include <hcomm/ccu/ccu_rep_context_v1.h>
#include <hcomm/ccu/ccu_task_arg_v1.h>

using CcuKernelHandle = uint64_t;

namespace hcomm {

class CcuKernel : public CcuRep::CcuRepContext {
public:
    explicit CcuKernel(const CcuKernelArg& arg);
    CcuKernel();
    ~CcuKernel() override;

    // Called by libhccl: the program's recording and the launch arguments.
    virtual HcclResult Algorithm() = 0;
    virtual std::vector<uint64_t> GeneArgs(const CcuTaskArg& arg) = 0;

protected:
    CcuRep::Variable CreateVariable();
    CcuRep::LocalAddr CreateLocalAddr();
    CcuRep::RemoteAddr CreateRemoteAddr();
    CcuRep::CompletedEvent CreateCompletedEvent();
    CcuRep::CcuBuf CreateCcuBuf();
    HcclResult CreateBlockCcuBuf(const uint32_t count, CcuRep::CcuBuf* ccuBufs);
    HcclResult CreateBlockCompletedEvent(const uint32_t count, CcuRep::CompletedEvent* ccuEvents);

    // Events: RecordEvent sets the event's mask bits; WaitEvent waits for
    // all of them and clears them.
    HcclResult RecordEvent(CcuRep::CompletedEvent event);
    HcclResult WaitEvent(CcuRep::CompletedEvent event);

    // Between the ends of a channel: NotifyRecord sets `mask` in the peer's
    // notify register `remoteNotifyIdx` of this channel; NotifyWait waits
    // until this end's register `localNotifyIdx` has every bit of `mask`,
    // and clears them. Index below the channel's notifyNum.
    HcclResult NotifyRecord(const ChannelHandle channel, uint32_t remoteNotifyIdx, uint32_t mask = 1);
    HcclResult NotifyWait(const ChannelHandle channel, uint32_t localNotifyIdx, uint32_t mask = 1);

    // Data moves.
    HcclResult WriteNb(const ChannelHandle channel, const CcuRep::RemoteAddr& rem, const CcuRep::LocalAddr& loc,
                       const CcuRep::Variable& len, CcuRep::CompletedEvent event);
    HcclResult WriteNb(const ChannelHandle channel, const CcuRep::RemoteAddr& rem, const CcuRep::CcuBuf& loc,
                       const CcuRep::Variable& len, CcuRep::CompletedEvent event);
    HcclResult ReadNb(const ChannelHandle channel, const CcuRep::LocalAddr& loc, const CcuRep::RemoteAddr& rem,
                      const CcuRep::Variable& len, CcuRep::CompletedEvent event);
    HcclResult ReadNb(const ChannelHandle channel, const CcuRep::CcuBuf& loc, const CcuRep::RemoteAddr& rem,
                      const CcuRep::Variable& len, CcuRep::CompletedEvent event);
    HcclResult WriteReduceNb(const ChannelHandle channel, const CcuRep::RemoteAddr& rem, const CcuRep::LocalAddr& loc,
                             const CcuRep::Variable& len, HcclDataType dataType, HcclReduceOp opType,
                             CcuRep::CompletedEvent event);
    HcclResult ReadReduceNb(const ChannelHandle channel, const CcuRep::LocalAddr& loc, const CcuRep::RemoteAddr& rem,
                            const CcuRep::Variable& len, HcclDataType dataType, HcclReduceOp opType,
                            CcuRep::CompletedEvent event);
    HcclResult LocalCopyNb(const CcuRep::LocalAddr& dst, const CcuRep::LocalAddr& src, const CcuRep::Variable& len,
                           CcuRep::CompletedEvent event);
    HcclResult LocalCopyNb(const CcuRep::CcuBuf& dst, const CcuRep::LocalAddr& src, const CcuRep::Variable& len,
                           CcuRep::CompletedEvent event);
    HcclResult LocalCopyNb(const CcuRep::LocalAddr& dst, const CcuRep::CcuBuf& src, const CcuRep::Variable& len,
                           CcuRep::CompletedEvent event);
    // dst = dst op src, elementwise.
    HcclResult LocalReduceNb(const CcuRep::LocalAddr& dst, const CcuRep::LocalAddr& src, const CcuRep::Variable& len,
                             HcclDataType dataType, HcclReduceOp opType, CcuRep::CompletedEvent event);
    // bufs[0] = bufs[0] op bufs[1] op ... op bufs[count - 1], elementwise.
    HcclResult LocalReduceNb(const CcuRep::CcuBuf* bufs, uint32_t count, HcclDataType dataType,
                             HcclDataType outputDataType, HcclReduceOp opType, const CcuRep::Variable& len,
                             CcuRep::CompletedEvent event);

    // The next launch argument (GeneArgs' vector, in order) into var.
    void Load(const CcuRep::Variable& var);

    std::vector<ChannelHandle> channels_;
};

// Builds a kernel from its argument (HcclCcuKernelRegister's creator).
using KernelCreator = std::function<std::unique_ptr<hcomm::CcuKernel>(const CcuKernelArg&)>;

}  // namespace hcomm

#endif
