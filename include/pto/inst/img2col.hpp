// Cube img2col load for convolution: the ConvTile feature-map tile,
// SETFMATRIX, SET_IMG2COL_RPT, SET_IMG2COL_PADDING and TIMG2COL
// (docs/isa/fixpipe.md, "img2col"). The SET_* instructions write the core's
// FMATRIX / repeat / padding registers; TIMG2COL reads the feature-map size,
// padding list and padding value from those registers, as the hardware does.
#pragma once
#include <pto/common/sim_support.hpp>
#include <pto/common/tassign.hpp>

namespace pto {

// Which FMATRIX register a load uses, and whether TIMG2COL sets it itself
// (AUTO) or relies on an earlier SETFMATRIX (MANUAL).

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

template <class Conv>
constexpr void check_conv_tile(const char* = nullptr) {
    static_assert(is_conv_tile_v<Conv> && Conv::Loc == TileType::Mat,
                  "img2col configuration comes from a ConvTile in L1 (TileType::Mat)");
}

// FMATRIX: fmapW [15:0], fmapH [31:16], padList[i] at [39+8i:32+8i]
// (pto-isa include/pto/npu/a2a3/SetFmatrix.hpp).
template <class Conv>
uint64_t fmatrix_of(const Conv& c) {
    uint64_t r = static_cast<uint64_t>(c.GetFmapW()) | static_cast<uint64_t>(c.GetFmapH()) << 16;
    for (int i = 0; i < 4; ++i) r |= static_cast<uint64_t>(c.GetPadListArray()[i]) << (32 + 8 * i);
    return r;
}

constexpr bool fmatrix_b(SetFmatrixMode m) {
    return m == SetFmatrixMode::FMATRIX_B_AUTO || m == SetFmatrixMode::FMATRIX_B_MANUAL;
}
constexpr bool fmatrix_manual(SetFmatrixMode m) {
    return m == SetFmatrixMode::FMATRIX_A_MANUAL || m == SetFmatrixMode::FMATRIX_B_MANUAL;
}

inline void record_config(const char* op, const CallSite& cs) {
    Core& c = ptosim::core();
    OpRecord rec = make_record(op, Pipe::S, cs);
    ptosim::dispatch(c, rec);
}

template <class T>
constexpr bool img2col_type() {
    if constexpr (PTOSIM_TARGET_A5)
        return std::is_same_v<T, int8_t> || std::is_same_v<T, uint8_t> || std::is_same_v<T, int16_t> ||
               std::is_same_v<T, uint16_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, uint32_t> ||
               std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> || std::is_same_v<T, float>;
    else
        return std::is_same_v<T, int8_t> || std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t> ||
               std::is_same_v<T, float>;
}

// The padding register holds the value's bits; an 8-bit value is repeated
// in both bytes of the low half (pto-isa SetImg2colPadding.hpp).
template <class T>
uint64_t padding_bits(T v) {
    uint64_t b = 0;
    std::memcpy(&b, &v, sizeof(T));
    return sizeof(T) == 1 ? (b << 8) | b : b;
}

template <class Dst, class Conv, SetFmatrixMode mode>
RecordEvent timg2col(CallSite cs, Dst& dst, Conv& src, int posM, int posK) {
    using T = typename Dst::DType;
    check_conv_tile<Conv>();
    static_assert(Dst::Loc == TileType::Left,
                  "TIMG2COL writes a Left (L0A) tile; declare it with TileLeft<...>");
    static_assert(PTOSIM_TARGET_A5 ? is_Nz_layout<Dst> : is_Zz_layout<Dst>,
                  "TIMG2COL writes the target's L0A layout (Zz on A2A3, Nz on A5): declare it with TileLeft<...>");
    static_assert(Conv::layout == Layout::NC1HWC0 && Conv::totalDimCount == 5,
                  "TIMG2COL reads a 5-D NC1HWC0 ConvTile (ConvTileShape<N, C1, H, W, C0>)");
    static_assert(std::is_same_v<typename Conv::DType, T>, "TIMG2COL: ConvTile and Left tile element types must match");
    static_assert(img2col_type<T>(),
                  "TIMG2COL element type unsupported on this target: A2A3 loads int8_t, half, bfloat16_t and float; "
                  "A5 also uint8_t, int16_t, uint16_t, int32_t and uint32_t");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    constexpr int c0 = 32 / static_cast<int>(sizeof(T));
    const int64_t n = src.GetShape(0), c1 = src.GetShape(1), h = src.GetShape(2), w = src.GetShape(3);
    if (src.GetShape(4) != c0)
        ptosim::fault(loc, "TIMG2COL: the ConvTile's C0 is " + std::to_string(src.GetShape(4)) + " but " +
                               std::to_string(c0) + " elements of this type fill the 32-byte C0 block");
    if (!src.assigned())
        ptosim::fault(loc, "TIMG2COL: source ConvTile has no address; place it with TASSIGN(tile, offset) first");
    const uint64_t fmap_bytes = static_cast<uint64_t>(n * c1 * h * w * c0) * sizeof(T);
    ptosim::check_local(c, Space::L1, src.address(), fmap_bytes, "TIMG2COL source ConvTile", loc);
    if constexpr (!fmatrix_manual(mode)) (fmatrix_b(mode) ? c.fmatrix_b : c.fmatrix) = fmatrix_of(src);
    if (src.GetTranspose())
        ptosim::fault(loc, "TIMG2COL: the transposed load (SetTranspose(true)) is not simulated");
    // Feature-map size and padding come from FMATRIX, the rest from the operands.
    const uint64_t fm = fmatrix_b(mode) ? c.fmatrix_b : c.fmatrix;
    const int64_t fw = fm & 0xffff, fh = (fm >> 16) & 0xffff;
    const int64_t pad_l = (fm >> 32) & 0xff, pad_r = (fm >> 40) & 0xff, pad_t = (fm >> 48) & 0xff, pad_b = fm >> 56;
    const int64_t kh = src.GetFilterH(), kw = src.GetFilterW(), dh = src.GetDilationH(), dw = src.GetDilationW();
    const int64_t sh = src.GetStrideH(), sw = src.GetStrideW();
    const int64_t channels = src.GetChannelSize() > 0 ? src.GetChannelSize() : c1 * c0;
    if (fh != h || fw != w)
        ptosim::fault(loc, "TIMG2COL: FMATRIX holds a " + std::to_string(fh) + "x" + std::to_string(fw) +
                               " feature map but the ConvTile is " + std::to_string(h) + "x" + std::to_string(w) +
                               "; call SETFMATRIX(convTile) first (or use an AUTO SetFmatrixMode)");
    if (kh < 1 || kw < 1 || dh < 1 || dw < 1 || sh < 1 || sw < 1)
        ptosim::fault(loc, "TIMG2COL: filter, dilation and stride must all be at least 1");
    const int64_t oh = (h + pad_t + pad_b - dh * (kh - 1) - 1) / sh + 1;
    const int64_t ow = (w + pad_l + pad_r - dw * (kw - 1) - 1) / sw + 1;
    if (oh < 1 || ow < 1) ptosim::fault(loc, "TIMG2COL: the filter does not fit the padded feature map");
    // The load writes whole fractals: 16-row and C0-column multiples.
    const int rows = (dst.GetValidRow() + 15) / 16 * 16, cols = (dst.GetValidCol() + c0 - 1) / c0 * c0;
    uint8_t* d = tile_base(c, dst, "TIMG2COL", "destination", loc);
    OpRecord rec = make_record("TIMG2COL", Pipe::MTE1, cs);
    rec.read(Space::L1, src.address(), fmap_bytes);
    record_tile(rec, true, dst);
    rec.elements = static_cast<uint64_t>(rows) * cols;
    rec.bytes = rec.elements * sizeof(T);
    ptosim::dispatch(c, rec);
    uint64_t padbits = c.img2col_pad;
    T pad;
    std::memcpy(&pad, &padbits, sizeof(T));
    const uint8_t* fmap = c.mem[static_cast<int>(Space::L1)] + src.address();
    for (int r = 0; r < rows; ++r) {
        // M runs over output positions of each image: (n, oh, ow).
        const int64_t m = posM + r, img = m / (oh * ow), y = m % (oh * ow) / ow, x = m % ow;
        for (int col = 0; col < cols; ++col) {
            // K runs over (c1, kh, kw, c0), the order of FRACTAL_Z weights.
            const int64_t k = posK + col, ci0 = k % c0, kx = k / c0 % kw, ky = k / c0 / kw % kh, ci1 = k / c0 / kw / kh;
            const int64_t iy = y * sh + ky * dh - pad_t, ix = x * sw + kx * dw - pad_l;
            T v = pad;
            if (img < n && ci1 < c1 && ci1 * c0 + ci0 < channels && iy >= 0 && iy < h && ix >= 0 && ix < w)
                v = load_elem<T>(fmap + ((((img * c1 + ci1) * h + iy) * w + ix) * c0 + ci0) * sizeof(T));
            store_elem(at<Dst>(d, r, col), v);
        }
    }
    return {};
}

}  // namespace ptosim_impl

template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SETFMATRIX(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::check_conv_tile<ConvTileData>();
    ptosim_impl::record_config("SETFMATRIX", cs);
    // AUTO modes leave the register to TIMG2COL (SetFmatrix.hpp).
    if constexpr (ptosim_impl::fmatrix_manual(FmatrixMode))
        (ptosim_impl::fmatrix_b(FmatrixMode) ? ptosim::core().fmatrix_b : ptosim::core().fmatrix) = ptosim_impl::fmatrix_of(src);
    return {};
}
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SETFMATRIX(ConvTileData& src, WaitEvents&... events) {
    return SETFMATRIX<ConvTileData, FmatrixMode>(CallSite{}, src, events...);
}

// Repeat register: stride [15:0], time [23:16], mode [31:24] (SetImg2colRpt.hpp).
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SET_IMG2COL_RPT(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::check_conv_tile<ConvTileData>();
    ptosim_impl::record_config("SET_IMG2COL_RPT", cs);
    if constexpr (ptosim_impl::fmatrix_manual(FmatrixMode))
        ptosim::core().img2col_rpt = static_cast<uint64_t>(src.GetRepeatStride()) |
                                     static_cast<uint64_t>(src.GetRepeatTime()) << 16 |
                                     static_cast<uint64_t>(src.GetRepeatMode()) << 24;
    return {};
}
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SET_IMG2COL_RPT(ConvTileData& src, WaitEvents&... events) {
    return SET_IMG2COL_RPT<ConvTileData, FmatrixMode>(CallSite{}, src, events...);
}

template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SET_IMG2COL_PADDING(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    ptosim_impl::check_conv_tile<ConvTileData>();
    ptosim_impl::record_config("SET_IMG2COL_PADDING", cs);
    if constexpr (ptosim_impl::fmatrix_manual(FmatrixMode)) ptosim::core().img2col_pad = ptosim_impl::padding_bits(src.GetPadValue());
    return {};
}
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent SET_IMG2COL_PADDING(ConvTileData& src, WaitEvents&... events) {
    return SET_IMG2COL_PADDING<ConvTileData, FmatrixMode>(CallSite{}, src, events...);
}

template <typename TileData, typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL,
          typename... WaitEvents>
PTO_INST RecordEvent TIMG2COL(CallSite cs, TileData& dst, ConvTileData& src, uint16_t posM = 0, uint16_t posK = 0,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::timg2col<TileData, ConvTileData, FmatrixMode>(cs, dst, src, posM, posK);
}
template <typename TileData, typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL,
          typename... WaitEvents>
PTO_INST RecordEvent TIMG2COL(TileData& dst, ConvTileData& src, uint16_t posM = 0, uint16_t posK = 0, WaitEvents&... events) {
    ptosim_impl::wait_events(CallSite{}, events...);
    return ptosim_impl::timg2col<TileData, ConvTileData, FmatrixMode>(CallSite{}, dst, src, posM, posK);
}

}  // namespace pto
