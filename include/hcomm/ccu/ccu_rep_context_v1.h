/*
 * ptolab's declaration of hcomm's CCU representation context (CANN pkg_inc
 * hcomm/ccu/ccu_rep_context_v1.h): what a CCU kernel records its program
 * into. libhccl keeps the program (the primitives' calls in order, over the
 * context's variables, addresses, CCU buffers and completion events) and its
 * CCU engine runs it at launch. docs/many-devices.md, "The CCU engine".
 */
#ifndef HCOMM_CCU_REP_CONTEXT_V1_H
#define HCOMM_CCU_REP_CONTEXT_V1_H

#include <cstdint>
#include <memory>

namespace hcomm {

constexpr uint32_t CCU_MAX_IODIE_NUM = 2;  // dies of a device whose CKEs rtGetDevResAddress reaches

namespace CcuRep {

struct CcuProgram;  // libhccl's record of the program

class CcuRepContext {
public:
    CcuRepContext();
    virtual ~CcuRepContext();
    CcuRepContext(const CcuRepContext&) = delete;
    CcuRepContext& operator=(const CcuRepContext&) = delete;

    // The die whose CKEs the kernel's completion events use (0 unless set;
    // ptolab's CKEs exist on dies 0 and 1). Set before creating events.
    void SetDieId(uint32_t dieId);
    uint32_t GetDieId() const;

    // ptolab's recording of a variable's or address's assignment (called by
    // Variable and Address; not part of hcomm's interface).
    void PtolabAssign(uint16_t dst, uint16_t src);
    void PtolabAssignImm(uint16_t dst, uint64_t imm);
    CcuProgram& PtolabProgram() { return *program_; }

private:
    std::shared_ptr<CcuProgram> program_;
    uint32_t dieId_ = 0;
};

}  // namespace CcuRep
}  // namespace hcomm

#endif
