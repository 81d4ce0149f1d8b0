// Scalar stores of bfloat16_t elements through UB and GM pointers in the
// executed-pto-isa build (docs/intrinsics/README.md, "bfloat16_t stores").
//
// bisheng's bfloat16_t is a built-in scalar; ptosim's is a class
// (ptosim/float16.hpp), because clang 14 has no bfloat16 scalar type on x86.
// Reads through `__ubuf__`/`__gm__` pointers work through the class's
// constructor templates, but an assignment to an element in another address
// space (`dst[i] = src[j]`) needs an `operator=` callable on that object, and
// clang 14 gives no class one: a member function's `this` is in the generic
// address space, and C++ has no non-member `operator=`.
//
// ptocc therefore rewrites the left-hand side of every statement in the
// user's pto-isa headers that starts with an element assignment
// (`p[i] = v;`, `*p = v;`) to `::ptosim_cce::store_to(p[i]) = v;`
// (src/cc/bisheng_dialect.cpp). For every object of a scalar type or in the
// generic address space store_to is the object itself, so the statement means
// what it did; for a bfloat16_t (or the class half of a non-CCE build) in UB
// or GM it is a reference object whose assignment converts the value to the
// element type, as the built-in assignment would, and stores its bits.
#pragma once
#include <type_traits>

#include <ptosim/float16.hpp>
#include <ptosim/float8.hpp>

namespace ptosim_cce {

template <class T>
struct is_float16_class : std::false_type {};
template <class Traits>
struct is_float16_class<ptosim::float16_base<Traits>> : std::true_type {};

// A5's one-byte float classes (float8_e4m3_t, float8_e5m2_t, hifloat8_t,
// float8_e8m0_t, the float4 pairs) are stored the same way: pto-isa's scalar
// TEXTRACT/TINSERT paths copy them element by element through UB.
template <class T>
struct is_mini_class : std::false_type {};
template <ptosim::MiniFormat F>
struct is_mini_class<ptosim::minifloat8<F>> : std::true_type {};
template <ptosim::MiniFormat F>
struct is_mini_class<ptosim::minifloat4x2<F>> : std::true_type {};
template <class T>
constexpr bool is_stored_class = is_float16_class<T>::value || is_mini_class<T>::value;

// An element in address space AS (256: UB/L1, 1: GM) of the class type U.
template <class U, class Ptr>
struct float16_store_ref {
    Ptr p;
    // The value converts to U as in `U tmp = value;`, an element read through
    // a UB or GM reference included (the class's constructor templates), then
    // its bits are stored.
    template <class V>
    constexpr const float16_store_ref& operator=(const V& value) const {
        if constexpr (is_mini_class<U>::value && std::is_same_v<std::remove_cv_t<V>, U>) {
            p->bits = value.bits;  // one element copied: its bits
        } else {
            const U converted = value;
            p->bits = converted.bits;
        }
        return *this;
    }
    // An element read through a UB or GM reference of the same class.
    constexpr const float16_store_ref& operator=(const __attribute__((address_space(256))) U& value) const
        requires is_mini_class<U>::value
    {
        p->bits = value.bits;
        return *this;
    }
    constexpr const float16_store_ref& operator=(const __attribute__((address_space(1))) U& value) const
        requires is_mini_class<U>::value
    {
        p->bits = value.bits;
        return *this;
    }
    constexpr const float16_store_ref& operator=(const float16_store_ref& other) const {
        p->bits = other.p->bits;
        return *this;
    }
};

// Generic address space and scalar types: the object itself.
template <class T>
constexpr T&& store_to(T&& object) {
    return static_cast<T&&>(object);
}

template <class U, class = std::enable_if_t<is_stored_class<U>>>
constexpr float16_store_ref<U, __attribute__((address_space(256))) U*> store_to(
    __attribute__((address_space(256))) U& object) {
    return {&object};
}

template <class U, class = std::enable_if_t<is_stored_class<U>>>
constexpr float16_store_ref<U, __attribute__((address_space(1))) U*> store_to(
    __attribute__((address_space(1))) U& object) {
    return {&object};
}

}  // namespace ptosim_cce
