// The names A5 kernels written against pto-isa give the register types of
// A5's vector functions: pto::MaskReg (a predicate), pto::UnalignReg,
// pto::AddrReg and pto::RegTensor<T> (a vector register of T elements that
// converts to the register the intrinsics take). The registers themselves
// and every intrinsic on them are the CCE layer's (include/cce/a5, through
// pto/common/intrinsics.hpp; docs/intrinsics/a5-vreg.md), so a kernel on
// ptolab's own headers spells them as it does on pto-isa's.
#pragma once
#include <pto/common/intrinsics.hpp>

#if PTOSIM_TARGET_A5
namespace pto {
using MaskReg = vector_bool;
using UnalignReg = vector_align;
using AddrReg = vector_address;

template <class T>
struct RegTensor {
    using RegType = ptosim_cce::vreg<T>;
    RegType reg;
    operator RegType&() { return reg; }
};
}  // namespace pto
#endif
