/*
 * ptolab's declarations of hcomm's CCU representation types (CANN pkg_inc
 * hcomm/ccu/ccu_datatype_v1.h). Each is a handle to a resource of the
 * kernel's context, created by CcuKernel (CreateVariable, CreateLocalAddr,
 * CreateCompletedEvent, CreateBlockCcuBuf, ...):
 *  - Variable: a 64-bit register of the program. Assigning one bound
 *    Variable (or a number) to another records an assignment that runs with
 *    the program; assigning a temporary (what Create* returns) rebinds the
 *    handle.
 *  - Address: a register holding a device address; assigning a Variable to
 *    it records the copy.
 *  - LocalAddr / RemoteAddr: an address and its memory token, on this rank
 *    or on the peer of the channel a data move names.
 *  - CcuBuf: one of the unit's own buffers (the staging memory of moves).
 *  - CompletedEvent: a CKE (completion event register) of 16 bits; `mask`
 *    says which bits a move sets when it completes, or a wait waits for.
 */
#ifndef HCOMM_CCU_DATATYPE_V1_H
#define HCOMM_CCU_DATATYPE_V1_H

#include <cstdint>

#include <hcomm/ccu/ccu_rep_context_v1.h>

namespace hcomm {
namespace CcuRep {

constexpr uint16_t kUnboundId = 0xFFFF;

class CcuVirRes {
public:
    explicit CcuVirRes(CcuRepContext* ctx = nullptr) : context(ctx) {}
    virtual ~CcuVirRes() = default;
    CcuVirRes(const CcuVirRes&) = default;
    CcuVirRes& operator=(const CcuVirRes&) = default;
    void Reset(uint16_t newId) { id_ = newId; }
    void Reset(uint16_t newId, uint16_t newDie) { id_ = newId; die_ = newDie; }
    void SetDieId(uint16_t d) { die_ = d; }
    virtual uint16_t Id() const { return id_; }
    uint16_t DieId() const { return die_; }
    bool Bound() const { return context != nullptr && id_ != kUnboundId; }
    CcuRepContext* Context() const { return context; }

protected:
    CcuRepContext* context{nullptr};
    uint16_t id_{kUnboundId};
    uint16_t die_{0};
};

class Variable : public CcuVirRes {
public:
    explicit Variable(CcuRepContext* ctx = nullptr) : CcuVirRes(ctx) {}
    Variable(const Variable& other) = default;
    void operator=(Variable&& other) { Rebind(other); }
    void operator=(const Variable& other) {
        if (Bound() && other.Bound()) context->PtolabAssign(id_, other.id_);
        else Rebind(other);
    }
    void operator=(uint64_t immediate) {
        if (Bound()) context->PtolabAssignImm(id_, immediate);
    }

protected:
    void Rebind(const CcuVirRes& o) { CcuVirRes::operator=(o); }
};

class Address : public Variable {
public:
    explicit Address(CcuRepContext* ctx = nullptr) : Variable(ctx) {}
    Address(const Address& other) = default;
    void operator=(Address&& other) { Rebind(other); }
    void operator=(const Address& other) { Variable::operator=(static_cast<const Variable&>(other)); }
    void operator=(const Variable& other) { Variable::operator=(other); }
    void operator=(uint64_t immediate) { Variable::operator=(immediate); }
};

class CcuBuf : public CcuVirRes {
public:
    explicit CcuBuf(CcuRepContext* ctx = nullptr) : CcuVirRes(ctx) {}
};
using CcuBuffer = CcuBuf;

class Executor : public CcuVirRes {
public:
    explicit Executor(CcuRepContext* ctx = nullptr) : CcuVirRes(ctx) {}
};

class LocalNotify : public CcuVirRes {
public:
    explicit LocalNotify(CcuRepContext* ctx = nullptr) : CcuVirRes(ctx) {}
};

class CompletedEvent : public CcuVirRes {
public:
    explicit CompletedEvent(CcuRepContext* ctx = nullptr) : CcuVirRes(ctx) {}
    void SetMask(uint32_t m) { mask = m; }
    uint32_t mask{1};
};

class LocalAddr {
public:
    LocalAddr() = default;
    LocalAddr(Address a, Variable t) : addr(a), token(t) {}
    Address addr;
    Variable token;
};

class RemoteAddr {
public:
    RemoteAddr() = default;
    RemoteAddr(Address a, Variable t) : addr(a), token(t) {}
    Address addr;
    Variable token;
};

}  // namespace CcuRep
}  // namespace hcomm

#endif
