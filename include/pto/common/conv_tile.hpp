// ConvTile: an L1 buffer of convolution data (feature map or weights) in one
// of the fractal convolution layouts, with the img2col parameters. Its
// storage is its ConvTileShape, dense and row-major over the dimensions
// (docs/semantics.md, "ConvTile loads").
#pragma once
#include <pto/common/tile.hpp>
#include <type_traits>

namespace pto {

namespace ConvTileDetail {
constexpr int MAX_CONVTILE_DIM = 6;
}

template <int64_t... Shapes>
struct ConvTileShape {
    static constexpr int totalDimCount = sizeof...(Shapes);
    static_assert(totalDimCount >= 1 && totalDimCount <= ConvTileDetail::MAX_CONVTILE_DIM,
                  "ConvTileShape takes 1 to 6 dimensions");
    static constexpr int64_t staticShape[ConvTileDetail::MAX_CONVTILE_DIM] = {Shapes...};
    static constexpr int dynamicDimCount = ((Shapes == DYNAMIC ? 1 : 0) + ...);
};

// A feature map in L1 (NC1HWC0), with the convolution parameters the img2col
// load takes (pto-isa include/pto/common/pto_tile.hpp, ConvTile).
template <TileType Loc_, typename Element_, const int BufferSize_, Layout Layout_, typename Shape_>
struct ConvTile {
    using DType = Element_;
    using ShapeType = Shape_;
    using TileDType = Element_*;
    static constexpr TileType Loc = Loc_;
    static constexpr int bufferSize = BufferSize_;
    static constexpr Layout layout = Layout_;
    static constexpr int totalDimCount = ShapeType::totalDimCount;
    static constexpr int dynamicDimCount = ShapeType::dynamicDimCount;
    static constexpr const int64_t* staticShape = ShapeType::staticShape;
    static constexpr bool isDynamicDim(int d) { return ShapeType::staticShape[d] == DYNAMIC; }

    int64_t shape[ConvTileDetail::MAX_CONVTILE_DIM] = {1, 1, 1, 1, 1, 1};

    PTO_INTERNAL ConvTile() = default;
    template <typename... Ints>
    PTO_INTERNAL explicit ConvTile(Ints... dynamicVals) {
        SetDynamicShape(dynamicVals...);
    }
    template <typename... Ints>
    PTO_INTERNAL void SetDynamicShape(Ints... vals) {
        static_assert(sizeof...(vals) == dynamicDimCount, "ConvTile: one value per DYNAMIC dimension");
        const int64_t v[] = {static_cast<int64_t>(vals)..., 0};
        for (int i = 0, k = 0; i < totalDimCount; ++i)
            if (isDynamicDim(i)) shape[i] = v[k++];
    }
    PTO_INTERNAL constexpr int64_t GetShape(int dim) const {
        if (dim < 0 || dim >= totalDimCount) return -1;
        return isDynamicDim(dim) ? shape[dim] : ShapeType::staticShape[dim];
    }

    PTO_INTERNAL TileDType data() const { return reinterpret_cast<TileDType>(static_cast<uintptr_t>(addr_)); }
    PTO_INTERNAL uint64_t address() const { return addr_; }
    PTO_INTERNAL bool assigned() const { return assigned_; }
    PTO_INTERNAL void assign_address(uint64_t a) {
        addr_ = a;
        assigned_ = true;
    }

    PTO_INTERNAL uint16_t GetFmapH() const { return fmapH_; }
    PTO_INTERNAL void SetFmapH(uint16_t v) { fmapH_ = v; }
    PTO_INTERNAL uint16_t GetFmapW() const { return fmapW_; }
    PTO_INTERNAL void SetFmapW(uint16_t v) { fmapW_ = v; }
    // padList: left, right, top, bottom.
    PTO_INTERNAL uint8_t GetPadList(uint8_t i) const { return padList_[i]; }
    PTO_INTERNAL void SetPadList(uint8_t i, uint8_t v) { padList_[i] = v; }
    PTO_INTERNAL const uint8_t* GetPadListArray() const { return padList_; }
    PTO_INTERNAL void SetPadListArray(const uint8_t v[4]) {
        for (int i = 0; i < 4; ++i) padList_[i] = v[i];
    }
    PTO_INTERNAL uint16_t GetFilterH() const { return filterH_; }
    PTO_INTERNAL void SetFilterH(uint16_t v) { filterH_ = v; }
    PTO_INTERNAL uint16_t GetFilterW() const { return filterW_; }
    PTO_INTERNAL void SetFilterW(uint16_t v) { filterW_ = v; }
    PTO_INTERNAL uint8_t GetDilationH() const { return static_cast<uint8_t>(dilationH_); }
    PTO_INTERNAL void SetDilationH(uint8_t v) { dilationH_ = v; }
    PTO_INTERNAL uint8_t GetDilationW() const { return static_cast<uint8_t>(dilationW_); }
    PTO_INTERNAL void SetDilationW(uint8_t v) { dilationW_ = v; }
    PTO_INTERNAL uint8_t GetStrideH() const { return static_cast<uint8_t>(strideH_); }
    PTO_INTERNAL void SetStrideH(uint8_t v) { strideH_ = v; }
    PTO_INTERNAL uint8_t GetStrideW() const { return static_cast<uint8_t>(strideW_); }
    PTO_INTERNAL void SetStrideW(uint8_t v) { strideW_ = v; }
    PTO_INTERNAL DType GetPadValue() const { return padValue_; }
    PTO_INTERNAL void SetPadValue(DType v) { padValue_ = v; }
    PTO_INTERNAL uint16_t GetChannelSize() const { return channelSize_; }
    PTO_INTERNAL void SetChannelSize(uint16_t v) { channelSize_ = v; }
    PTO_INTERNAL uint16_t GetRepeatStride() const { return repeatStride_; }
    PTO_INTERNAL void SetRepeatStride(uint16_t v) { repeatStride_ = v; }
    PTO_INTERNAL uint16_t GetRepeatTime() const { return repeatTime_; }
    PTO_INTERNAL void SetRepeatTime(uint8_t v) { repeatTime_ = v; }
    PTO_INTERNAL uint16_t GetRepeatMode() const { return repeatMode_; }
    PTO_INTERNAL void SetRepeatMode(uint8_t v) { repeatMode_ = v; }
    PTO_INTERNAL bool GetTranspose() const { return transpose_; }
    PTO_INTERNAL void SetTranspose(bool v) { transpose_ = v; }
#if PTOSIM_TARGET_A5
    PTO_INTERNAL void SetDstStride(uint16_t v) { dstStride_ = v; }
    PTO_INTERNAL uint16_t GetDstStride() const { return dstStride_; }
    PTO_INTERNAL void SetDstMposition(uint16_t v) { dstMposition_ = v; }
    PTO_INTERNAL uint16_t GetDstMposition() const { return dstMposition_; }
#endif

private:
    uint64_t addr_ = 0;
    bool assigned_ = false;
    uint8_t padList_[4] = {0, 0, 0, 0};
    uint16_t fmapH_ = 0, fmapW_ = 0;
    uint16_t filterH_ = 1, filterW_ = 1;
    uint16_t dilationH_ = 1, dilationW_ = 1;
    uint16_t strideH_ = 1, strideW_ = 1;
    DType padValue_ = DType(0);
    uint16_t channelSize_ = 0;
    uint16_t repeatStride_ = 0;
    uint8_t repeatTime_ = 1;
    uint8_t repeatMode_ = 0;
#if PTOSIM_TARGET_A5
    uint16_t dstStride_ = 0, dstMposition_ = 0;
#endif
    bool transpose_ = false;
};

template <class T>
struct is_conv_tile : std::false_type {};
template <TileType L, class E, int B, Layout Lay, class S>
struct is_conv_tile<ConvTile<L, E, B, Lay, S>> : std::true_type {};
template <class T>
constexpr bool is_conv_tile_v = is_conv_tile<std::remove_cv_t<T>>::value;

template <TileType L, class E, int B, Layout Lay, class S, class AddrType>
PTO_INST void TASSIGN(ConvTile<L, E, B, Lay, S>& tile, AddrType addr) {
    static_assert(std::is_integral_v<AddrType>, "TASSIGN(convTile, addr): addr is the byte offset in L1");
    tile.assign_address(static_cast<uint64_t>(addr));
}

namespace ptosim_impl {

// A FRACTAL_Z (or FRACTAL_Z_3D) weight ConvTile is, element for element, a
// K x N Zn Mat tile: [C1, H, W, N, C0] stores for each (c1, h, w) block the
// N columns of C0 K-rows; [C1HW, N/16, 16, C0] is the same with N split. The
// cube's L1 -> L0B moves read it as such (pto-isa npu/a2a3/TExtract.hpp,
// TExtractToBConv: a Zn source whose row of fractals is N wide).
template <class Conv>
struct conv_matrix {
    using T = typename Conv::DType;
    static constexpr int c0 = static_cast<int>(TileConfig::alignedSize / sizeof(T));
    static constexpr int dims = Conv::totalDimCount;
    static constexpr const int64_t* s = Conv::ShapeType::staticShape;
    static constexpr bool weights = Conv::layout == Layout::FRACTAL_Z || Conv::layout == Layout::FRACTAL_Z_3D;
    static constexpr bool is_static = [] {
        for (int d = 0; d < dims; ++d)
            if (s[d] == DYNAMIC) return false;
        return true;
    }();
    static_assert(weights && (dims == 4 || dims == 5),
                  "moves out of a ConvTile read FRACTAL_Z or FRACTAL_Z_3D weights ([C1,H,W,N,C0] or [C1HW,N/16,16,C0]) "
                  "into a Right tile; feature maps reach L0A through TIMG2COL");
    static_assert(is_static, "moves out of a ConvTile need its ConvTileShape to be static");
    static_assert(s[dims - 1] == c0, "the weight ConvTile's last dimension is C0: 32 bytes of elements");
    static constexpr int rows = dims == 5 ? static_cast<int>(s[0] * s[1] * s[2] * c0) : static_cast<int>(s[0] * c0);
    static constexpr int cols = dims == 5 ? static_cast<int>(s[3]) : static_cast<int>(s[1] * s[2]);
    static_assert(cols % 16 == 0, "a weight ConvTile's N must be a multiple of 16 to be read as a Zn matrix");
    using type = Tile<TileType::Mat, T, rows, cols, BLayout::RowMajor, rows, cols, SLayout::ColMajor,
                      TileConfig::fractalABSize>;
    static type view(const Conv& c) {
        type t;
        if (c.assigned()) t.assign_address(c.address());
        return t;
    }
};

}  // namespace ptosim_impl

}  // namespace pto
