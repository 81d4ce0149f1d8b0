// Cube img2col load for convolution: TSETFMATRIX, TSET_IMG2COL_RPT,
// TSET_IMG2COL_PADDING and TIMG2COL over a ConvTile feature map
// (docs/isa/fixpipe.md, "img2col"). The TSET_* instructions write the core's
// FMATRIX / repeat / padding registers; TIMG2COL reads the feature-map size,
// padding list and padding value from those registers, as the hardware does.
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/img2col.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/sim_support.hpp>
#include <pto/common/tassign.hpp>
#include <pto/common/conv_tile.hpp>

namespace pto {

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

// Repeat register: stride [15:0], time [23:16], mode [31:24]; A5 adds the
// destination stride [47:32] and M position [63:48] (TSetImg2colRpt.hpp).
template <class Conv>
uint64_t repeat_of(const Conv& c) {
    uint64_t r = static_cast<uint64_t>(c.GetRepeatStride()) | static_cast<uint64_t>(c.GetRepeatTime()) << 16 |
                 static_cast<uint64_t>(c.GetRepeatMode()) << 24;
#if PTOSIM_TARGET_A5
    r |= static_cast<uint64_t>(c.GetDstStride()) << 32 | static_cast<uint64_t>(c.GetDstMposition()) << 48;
#endif
    return r;
}

// What an AUTO-mode TIMG2COL loads itself: FMATRIX on both targets, and on
// A5 the repeat and padding registers of the same (A or B) set as well
// (pto-isa npu/a2a3 and npu/a5 TImg2col.hpp, TIMG2COL_IMPL).
template <SetFmatrixMode mode, class Conv>
void load_img2col_registers(Core& c, const Conv& src) {
    (fmatrix_b(mode) ? c.fmatrix_b : c.fmatrix) = fmatrix_of(src);
    if constexpr (PTOSIM_TARGET_A5) {
        (fmatrix_b(mode) ? c.img2col_rpt_b : c.img2col_rpt) = repeat_of(src);
        (fmatrix_b(mode) ? c.img2col_pad_b : c.img2col_pad) = padding_bits(src.GetPadValue());
    }
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
    if constexpr (!fmatrix_manual(mode)) load_img2col_registers<mode>(c, src);
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
                               "; call TSETFMATRIX(convTile) first (or use an AUTO SetFmatrixMode)");
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
    uint64_t padbits = PTOSIM_TARGET_A5 && fmatrix_b(mode) ? c.img2col_pad_b : c.img2col_pad;
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

namespace ptosim_impl {

// The TSET_* instructions write a register only in the MANUAL modes; the
// AUTO modes leave it to TIMG2COL (TSetFmatrix.hpp). A2A3's repeat and
// padding instructions always write the A set.
template <SetFmatrixMode mode, class Conv>
RecordEvent set_img2col_register(CallSite cs, const char* op, uint64_t ptosim::Core::* a, uint64_t ptosim::Core::* b, uint64_t value) {
    check_conv_tile<Conv>();
    record_config(op, cs);
    if constexpr (fmatrix_manual(mode)) ptosim::core().*(fmatrix_b(mode) ? b : a) = value;
    return {};
}

}  // namespace ptosim_impl

template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent TSETFMATRIX(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::set_img2col_register<FmatrixMode, ConvTileData>(cs, "TSETFMATRIX", &ptosim::Core::fmatrix, &ptosim::Core::fmatrix_b,
                                                                        ptosim_impl::fmatrix_of(src));
}
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSETFMATRIX(ConvTileData& src, WaitEvents&... events) {
    return TSETFMATRIX<ConvTileData, FmatrixMode>(PTOSIM_CALLER, src, events...);
}

#if PTOSIM_TARGET_A5
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent TSET_IMG2COL_RPT(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::set_img2col_register<FmatrixMode, ConvTileData>(
        cs, "TSET_IMG2COL_RPT", &ptosim::Core::img2col_rpt, &ptosim::Core::img2col_rpt_b, ptosim_impl::repeat_of(src));
}
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSET_IMG2COL_RPT(ConvTileData& src, WaitEvents&... events) {
    return TSET_IMG2COL_RPT<ConvTileData, FmatrixMode>(PTOSIM_CALLER, src, events...);
}
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST RecordEvent TSET_IMG2COL_PADDING(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::set_img2col_register<FmatrixMode, ConvTileData>(
        cs, "TSET_IMG2COL_PADDING", &ptosim::Core::img2col_pad, &ptosim::Core::img2col_pad_b, ptosim_impl::padding_bits(src.GetPadValue()));
}
template <typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSET_IMG2COL_PADDING(ConvTileData& src, WaitEvents&... events) {
    return TSET_IMG2COL_PADDING<ConvTileData, FmatrixMode>(PTOSIM_CALLER, src, events...);
}
#else
template <typename ConvTileData, typename... WaitEvents>
PTO_INST RecordEvent TSET_IMG2COL_RPT(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::set_img2col_register<SetFmatrixMode::FMATRIX_A_MANUAL, ConvTileData>(
        cs, "TSET_IMG2COL_RPT", &ptosim::Core::img2col_rpt, &ptosim::Core::img2col_rpt, ptosim_impl::repeat_of(src));
}
template <typename ConvTileData, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSET_IMG2COL_RPT(ConvTileData& src, WaitEvents&... events) {
    return TSET_IMG2COL_RPT<ConvTileData>(PTOSIM_CALLER, src, events...);
}
template <typename ConvTileData, typename... WaitEvents>
PTO_INST RecordEvent TSET_IMG2COL_PADDING(CallSite cs, ConvTileData& src, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::set_img2col_register<SetFmatrixMode::FMATRIX_A_MANUAL, ConvTileData>(
        cs, "TSET_IMG2COL_PADDING", &ptosim::Core::img2col_pad, &ptosim::Core::img2col_pad, ptosim_impl::padding_bits(src.GetPadValue()));
}
template <typename ConvTileData, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TSET_IMG2COL_PADDING(ConvTileData& src, WaitEvents&... events) {
    return TSET_IMG2COL_PADDING<ConvTileData>(PTOSIM_CALLER, src, events...);
}
#endif

template <typename TileData, typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL,
          typename... WaitEvents>
PTO_INST RecordEvent TIMG2COL(CallSite cs, TileData& dst, ConvTileData& src, uint16_t posM = 0, uint16_t posK = 0,
                              WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    return ptosim_impl::timg2col<TileData, ConvTileData, FmatrixMode>(cs, dst, src, posM, posK);
}
template <typename TileData, typename ConvTileData, SetFmatrixMode FmatrixMode = SetFmatrixMode::FMATRIX_A_MANUAL,
          typename... WaitEvents>
PTO_INST_CALLER RecordEvent TIMG2COL(TileData& dst, ConvTileData& src, uint16_t posM = 0, uint16_t posK = 0, WaitEvents&... events) {
    ptosim_impl::wait_events(PTOSIM_CALLER, events...);
    return ptosim_impl::timg2col<TileData, ConvTileData, FmatrixMode>(PTOSIM_CALLER, dst, src, posM, posK);
}

}  // namespace pto
