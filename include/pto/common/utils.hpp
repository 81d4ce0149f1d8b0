// Helpers pto-isa declares in pto/common/utils.hpp that kernels call
// directly: rounding up, the vector-mask setters, byte-size type maps.
#pragma once
#include <pto/pto-inst.hpp>
#include <pto/common/constants.hpp>
#include <type_traits>

namespace pto {

template <typename T>
struct LoadTypeBySize {
    using type = std::conditional_t<sizeof(T) == 1, uint8_t, std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>>;
};
template <typename T>
using LoadTypeBySize_t = typename LoadTypeBySize<T>::type;

#if PTOSIM_DEVICE
// The first n lanes of the vector mask (A2A3 has 128 mask bits in two words).
// Device code only: the mask is a core register.
PTO_INTERNAL void SetContinuousMask(unsigned n) {
    const uint64_t hi = n > MASK_LEN ? (uint64_t{1} << (n - MASK_LEN)) - 1 : 0;
    const uint64_t lo = n >= MASK_LEN ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    set_vector_mask(hi, lo);
}
PTO_INTERNAL void SetVectorCount(uint64_t n) { set_vector_mask(0, n); }
template <typename T>
PTO_INTERNAL void SetFullVecMaskByDType() {
    set_vector_mask(-1, -1);
}
template <typename T>
PTO_INTERNAL void SetContMaskByDType(unsigned n) {
    SetContinuousMask(n);
}
#endif

// Division and alignment rounding up; a zero divisor gives 0, as in pto-isa.
PTO_INTERNAL int32_t CeilDivision(int32_t num1, int32_t num2) { return num2 == 0 ? 0 : (num1 + num2 - 1) / num2; }
template <typename T>
PTO_INTERNAL T CeilAlignment(T num1, T num2) {
    return num2 == 0 ? 0 : (num1 + num2 - 1) / num2 * num2;
}

// 8-bit elements handled as 16-bit pairs by the data movers.
template <typename T>
struct B82B16Trait {
    static constexpr bool isB8 = std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t>;
    using TransType = std::conditional_t<isB8, int16_t, T>;
    PTO_INTERNAL static uint64_t TransSize(uint64_t size) {
        return isB8 ? (size + sizeof(TransType) - 1) / sizeof(TransType) : size;
    }
    template <uint64_t stride>
    PTO_INTERNAL static constexpr uint64_t TransStride() {
        return isB8 ? stride / sizeof(TransType) : stride;
    }
};

}  // namespace pto
