// Named constants and small layout helpers that pto-isa declares in
// pto/common/constants.hpp. Values are the public header's; what ptosim does
// with each (most describe the hardware's vector repeat and fractal
// geometry, which kernels use to size their own loops): docs/api.md,
// "Header paths".
#pragma once
#include <pto/common/type.hpp>
#include <pto/common/buffer_limits.hpp>
#include <limits>
#include <type_traits>

namespace pto {

constexpr int REPEAT_BYTE = 256;
constexpr int REPEAT_MAX = 255;
constexpr int FIXP_BURST_UNIT_LEN = 64;
constexpr uint32_t SHIFT_BLOCK_LEN = 4;
constexpr uint32_t SHIFT_BLOCK_BYTE = 5;
constexpr uint32_t SHIFT_FRACTAL_BYTE = 9;
constexpr int REPEAT_STRIDE_MAX = 255;
constexpr uint64_t BLOCK_MAX_PER_REPEAT = 8;
constexpr uint32_t TMP_UB_SIZE = 8 * 1024;
constexpr uint32_t TMP_UB_OFFSET = 184 * 1024;
constexpr uint64_t MASK_LEN = 64;
constexpr int BLOCK_LEN = 16;
constexpr int ACC_C0_SIZE = 16;
constexpr uint32_t B4_C0_SIZE = 64;
constexpr int MX_COL_LEN = 2;
constexpr int MX_ROW_LEN = 16;
constexpr int MX_BLOCK_SIZE = 32;
constexpr int B8_DATA_TYPE_OFFSET = 8;
constexpr int MAD_MODE_BIT = 46;
constexpr int MAD_ROUND_MODE_BIT = 47;
constexpr int TROW_PROD_LOOP_B16 = 7;
constexpr int TROW_PROD_LOOP_B32 = 6;

// The raw bits a PadValue stands for in TileData's element type, as a
// constant: zero, or the type's largest / smallest value (+-inf for floats),
// the same values ptosim_impl::pad_value gives TLOAD's padding. 64-bit and
// the A5 8/4-bit float formats pad with zero, as in pto-isa's table.
template <typename TileData>
PTO_INTERNAL constexpr auto GetPadValue() {
    using E = typename TileData::DType;
    constexpr PadValue P = TileData::PadVal;
    using Bits = std::conditional_t<sizeof(E) == 1, uint8_t, std::conditional_t<sizeof(E) == 2, uint16_t, uint32_t>>;
    constexpr bool mx = P == PadValue::Max;
    if constexpr (P == PadValue::Null || P == PadValue::Zero || sizeof(E) == 8) return Bits(0);
    else if constexpr (std::is_same_v<E, half>) return Bits(mx ? 0x7c00 : 0xfc00);
    else if constexpr (std::is_same_v<E, bfloat16_t>) return Bits(mx ? 0x7f80 : 0xff80);
    else if constexpr (std::is_same_v<E, float>) return Bits(mx ? 0x7f800000u : 0xff800000u);
    else if constexpr (std::is_integral_v<E>)
        return Bits(static_cast<std::make_unsigned_t<E>>(mx ? std::numeric_limits<E>::max()
                                                            : std::numeric_limits<E>::min()));
    else return Bits(0);
}


// A tile's layout named by the pair (outer order, inner box order).
template <typename TileData>
PTO_INTERNAL constexpr TileLayoutCustom GetTileLayoutCustom() {
    constexpr bool boxed = TileData::SFractal != SLayout::NoneBox;
    constexpr bool box512 = TileData::SFractalSize == TileConfig::fractalABSize;
    if constexpr (!boxed) return TileData::isRowMajor ? TileLayoutCustom::ND : TileLayoutCustom::DN;
    else if constexpr (!box512) return TileLayoutCustom::NONE;
    else if constexpr (!TileData::isRowMajor && TileData::SFractal == SLayout::RowMajor) return TileLayoutCustom::NZ;
    else if constexpr (TileData::isRowMajor && TileData::SFractal == SLayout::ColMajor) return TileLayoutCustom::ZN;
    else if constexpr (TileData::isRowMajor && TileData::SFractal == SLayout::RowMajor) return TileLayoutCustom::ZZ;
    else return TileLayoutCustom::NONE;
}

}  // namespace pto
