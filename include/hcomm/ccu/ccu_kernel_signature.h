/*
 * ptolab's declarations of hcomm's CCU kernel signature (CANN pkg_inc
 * hcomm/ccu/ccu_kernel_signature.h): the text that names a registered CCU
 * kernel, built by appending its arguments. libhccl keys registrations by
 * it. docs/many-devices.md, "The CCU engine".
 */
#ifndef HCOMM_CCU_KERNEL_SIGNATURE_H
#define HCOMM_CCU_KERNEL_SIGNATURE_H

#include <cstdint>
#include <string>
#include <type_traits>

namespace hcomm {

class CcuKernelSignature {
public:
    CcuKernelSignature() = default;
    void Append(const std::string& s) { Add("s", s); }
    void Append(const char* s) { Add("s", s ? std::string(s) : std::string()); }
    template <typename T, typename = std::enable_if_t<std::is_integral_v<T> || std::is_enum_v<T>>>
    void Append(T v) {
        if constexpr (std::is_enum_v<T>) Add("e", std::to_string(static_cast<long long>(v)));
        else if constexpr (std::is_signed_v<T>) Add("i", std::to_string(static_cast<long long>(v)));
        else Add("u", std::to_string(static_cast<unsigned long long>(v)));
    }
    std::string GetData() const { return data_; }
    std::string Describe() const { return "CcuKernelSignature[" + data_ + "]"; }
    bool operator==(const CcuKernelSignature& o) const { return data_ == o.data_; }
    bool operator!=(const CcuKernelSignature& o) const { return data_ != o.data_; }

private:
    void Add(const char* kind, const std::string& v) {
        if (!data_.empty()) data_ += ',';
        data_ += kind;
        data_ += ':';
        data_ += v;
    }
    std::string data_;
};

}  // namespace hcomm

#endif
