// Shared by the layout tests (test_isa_layout*.cpp, one binary per target,
// split so the translation units build in parallel): tile shapes, inputs,
// the compare reference, the mask and region checks and the element types
// per instruction.
//
// Predicate masks are checked byte for byte against the documented packing.
// A2A3: row r of the mask tile starts at its element (r, 0) and column c is
// bit c % 8 of that row's byte c / 8. A5: the vr * vc elements of the sources'
// storage, taken as one flat run, give one bit stream from the mask's first
// byte (a5/TCmp.hpp).
#pragma once
#include <pto/inst/layout.hpp>
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::fault_of;
using testutil::run_vec;

namespace layout_test {

constexpr int kR = 16, kC = 64;
const std::pair<int, int> kShapes[] = {{1, 1}, {7, 13}, {16, 64}, {3, 64}, {16, 1}, {5, 33}};
constexpr CmpMode kModes[] = {CmpMode::EQ, CmpMode::NE, CmpMode::LT, CmpMode::LE, CmpMode::GT, CmpMode::GE};

template <class T>
using Full = Tile<TileType::Vec, T, kR, kC>;
template <class T>
using Dyn = Tile<TileType::Vec, T, kR, kC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

// A mask tile row is 32 bytes: room for 256 predicates.
using MaskE = std::conditional_t<PTOSIM_TARGET_A5, uint32_t, uint8_t>;
constexpr int kMaskCols = 32 / sizeof(MaskE);
using MaskFull = Tile<TileType::Vec, MaskE, kR, kMaskCols>;
using MaskDyn = Tile<TileType::Vec, MaskE, kR, kMaskCols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
using ByteMask = Tile<TileType::Vec, uint8_t, kR, 32>;

inline std::string shape(int vr, int vc) { return std::to_string(vr) + "x" + std::to_string(vc); }

// Few distinct values, so independent operands are often equal.
template <class T>
std::vector<T> values(size_t n, uint64_t salt) {
    std::vector<T> v(n);
    testutil::Rng rng = testutil::Rng::salted(salt);
    for (auto& x : v) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<T>) {
            const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f};
            x = h % 16 == 0 ? from_float<T>(specials[(h >> 8) % 5])
                            : from_float<T>(static_cast<float>(static_cast<int64_t>(h % 41) - 20) / 4.0f);
        } else {
            const T ends[] = {std::numeric_limits<T>::min(), std::numeric_limits<T>::max(), T(0)};
            x = h % 8 == 0 ? ends[(h >> 8) % 3] : static_cast<T>(static_cast<int64_t>(h % 7) - 3);
        }
    }
    return v;
}

template <class T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
    std::vector<uint8_t> b(v.size() * sizeof(T));
    std::memcpy(b.data(), v.data(), b.size());
    return b;
}

template <class T>
bool ref_cmp(T a, T b, CmpMode m) {
    if constexpr (is_fp<T>) {
        const double x = to_double(a), y = to_double(b);
        switch (m) {
            case CmpMode::EQ: return x == y;
            case CmpMode::NE: return x != y;
            case CmpMode::LT: return x < y;
            case CmpMode::LE: return x <= y;
            case CmpMode::GT: return x > y;
            case CmpMode::GE: return x >= y;
        }
    } else {
        switch (m) {
            case CmpMode::EQ: return a == b;
            case CmpMode::NE: return a != b;
            case CmpMode::LT: return a < b;
            case CmpMode::LE: return a <= b;
            case CmpMode::GT: return a > b;
            case CmpMode::GE: return a >= b;
        }
    }
    return false;
}

// The A2A3 pages: int32 sources always compare EQ.
template <class T>
CmpMode doc_mode(CmpMode m) {
    return !PTOSIM_TARGET_A5 && std::is_same_v<T, int32_t> ? CmpMode::EQ : m;
}

// The packed rows written for a vr x vc predicate pred(r, c); sentinel bytes elsewhere.
template <class Pred>
void expect_mask(const std::vector<uint8_t>& got, const std::vector<uint8_t>& sentinel, int vr, int vc, Pred pred) {
    if (PTOSIM_TARGET_A5) {
        // Flat element k of the sources' kC-wide storage is predicate bit k.
        const int n = vr * vc;
        for (int b = 0; b < kR * 32; ++b) {
            uint8_t want = sentinel[b];
            if (b < (n + 7) / 8) {
                want = 0;
                for (int k = 0; k < 8 && b * 8 + k < n; ++k)
                    want |= static_cast<uint8_t>(pred((b * 8 + k) / kC, (b * 8 + k) % kC)) << k;
            }
            ASSERT_EQ(got[b], want) << "mask byte " << b;
        }
        return;
    }
    for (int r = 0; r < kR; ++r)
        for (int b = 0; b < 32; ++b) {
            uint8_t want = sentinel[r * 32 + b];
            if (r < vr && b < (vc + 7) / 8) {
                want = 0;
                for (int k = 0; k < 8 && b * 8 + k < vc; ++k) want |= static_cast<uint8_t>(pred(r, b * 8 + k)) << k;
            }
            ASSERT_EQ(got[r * 32 + b], want) << "mask row " << r << " byte " << b;
        }
}

#if PTOSIM_TARGET_A5
using CmpTypes = ::testing::Types<uint32_t, int32_t, uint16_t, int16_t, uint8_t, int8_t, float, half, bfloat16_t>;
using CmpsTypes = ::testing::Types<int32_t, uint32_t, float, int16_t, uint16_t, half, uint8_t, int8_t, bfloat16_t>;
using SelsTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, float>;
#else
using CmpTypes = ::testing::Types<int32_t, half, float>;
using CmpsTypes = ::testing::Types<int32_t, float, half, uint16_t, int16_t>;
using SelsTypes = ::testing::Types<int16_t, uint16_t, int32_t, uint32_t, half, float>;
#endif
using SelTypes = ::testing::Types<int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
using CopyTypes = ::testing::Types<int8_t, uint8_t, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>;
using CiTypes = ::testing::Types<int32_t, uint32_t, int16_t, uint16_t>;
#if PTOSIM_TARGET_A5
using TriTypes = ::testing::Types<int32_t, int16_t, int8_t, uint32_t, uint16_t, uint8_t, half, float, bfloat16_t>;
#else
using TriTypes = ::testing::Types<int32_t, int16_t, uint32_t, uint16_t, half, float>;
#endif

}  // namespace layout_test

using namespace layout_test;
