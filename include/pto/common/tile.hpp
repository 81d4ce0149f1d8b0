// Tile and GlobalTensor: the data vocabulary of PTO kernels. A Tile is a view
// of a core's local buffer (address, element type, shape, valid shape, layout);
// a GlobalTensor is a view of GM with a 5-D shape and stride.
#pragma once
#include <pto/common/type.hpp>
#include <ptosim/core.hpp>
#include <cstring>
#include <source_location>
#include <type_traits>

namespace pto {

namespace ptosim_impl {
// Packed fp4 tiles and tensors count 4-bit elements, two to a byte, element
// 2i in the low nibble (pto-isa a5/common.hpp GetByteSize halves fp4 counts).
template <class E>
constexpr bool is_fp4 = ptosim::is_minifloat4x2<E>::value;
template <class E>
constexpr uint64_t elem_bytes(uint64_t n) {
    return is_fp4<E> ? (n + 1) / 2 : n * sizeof(E);
}
// Elements in 32 bytes: a fractal row (C0).
template <class E>
constexpr int c0_elems = is_fp4<E> ? 64 : static_cast<int>(TileConfig::alignedSize / sizeof(E));

// One element of a Vec tile read or written by the scalar unit (pto-isa's
// Tile::GetValue/SetValue): recorded on PIPE_S, bounds-checked against UB.
inline uint8_t* ub_scalar_slot(uint64_t tile_addr, uint64_t offset, uint64_t bytes, const char* op, bool write,
                               const std::source_location& where) {
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc{where.file_name(), static_cast<int>(where.line())};
    const uint64_t at = tile_addr + offset * bytes;
    ptosim::OpRecord r;
    r.op = op;
    r.pipe = ptosim::Pipe::S;
    r.loc = loc;
    r.elements = 1;
    r.bytes = bytes;
    if (write) r.write(ptosim::Space::UB, at, bytes);
    else r.read(ptosim::Space::UB, at, bytes);
    ptosim::dispatch(c, r);
    ptosim::check_local(c, ptosim::Space::UB, at, bytes, op, loc);
    return c.mem[static_cast<int>(ptosim::Space::UB)] + at;
}
}  // namespace ptosim_impl

// ---------------------------------------------------------------- Tile

template <TileType Loc_, typename Element_, int Rows_, int Cols_, BLayout BFractal_ = BLayout::RowMajor,
          int RowValid_ = Rows_, int ColValid_ = Cols_, SLayout SFractal_ = SLayout::NoneBox,
          int SFractalSize_ = TileConfig::fractalABSize, PadValue PadVal_ = PadValue::Null,
          CompactMode Compact_ = CompactMode::Null>
struct Tile {
    using DType = Element_;
    static constexpr TileType Loc = Loc_;
    static constexpr int Rows = Rows_;
    static constexpr int Cols = Cols_;
    static constexpr int Numel = Rows_ * Cols_;
    static constexpr int ValidRow = RowValid_;
    static constexpr int ValidCol = ColValid_;
    static constexpr BLayout BFractal = BFractal_;
    static constexpr SLayout SFractal = SFractal_;
    static constexpr int SFractalSize = SFractalSize_;
    static constexpr PadValue PadVal = PadVal_;
    static constexpr CompactMode Compact = Compact_;
    static constexpr bool isRowMajor = BFractal_ == BLayout::RowMajor;
    static constexpr bool isBoxedLayout = SFractal_ != SLayout::NoneBox;
    static constexpr bool isInnerRowMajor = SFractal_ == SLayout::RowMajor;
    static constexpr bool isInnerColMajor = SFractal_ == SLayout::ColMajor;
    static constexpr int RowStride = isRowMajor ? Cols_ : 1;
    static constexpr int ColStride = isRowMajor ? 1 : Rows_;

    // A fractal box: 512 bytes (16 x 32B) for operand tiles, 16 x 16 elements
    // of 4 bytes (1024 bytes) for accumulators, 16 x 2 for ZZ (A) MX scales and
    // 2 x 16 for NN (B) ones, the k pair innermost in both (docs/isa/matrix.md).
    static constexpr int InnerRows = !isBoxedLayout ? 1
                                     : SFractalSize_ == TileConfig::fractalCSize ? TileConfig::fixedRowSize
                                     : SFractalSize_ == TileConfig::fractalMxSize
                                         ? (isInnerColMajor ? (Rows_ < 2 ? Rows_ : 2) : Rows_ < 16 ? Rows_ : 16)
                                     : isInnerRowMajor ? TileConfig::fixedRowSize
                                                       : ptosim_impl::c0_elems<Element_>;
    static constexpr int InnerCols = !isBoxedLayout ? 1
                                     : SFractalSize_ == TileConfig::fractalCSize ? TileConfig::fixedColSize
                                     : SFractalSize_ == TileConfig::fractalMxSize ? (isInnerColMajor ? 16 : 2)
                                     : isInnerRowMajor ? ptosim_impl::c0_elems<Element_>
                                                       : TileConfig::fixedColSize;
    static constexpr int InnerNumel = InnerRows * InnerCols;

    static_assert(Rows_ > 0 && Cols_ > 0, "Tile: Rows and Cols must be positive");
    static_assert(RowValid_ == DYNAMIC || (RowValid_ > 0 && RowValid_ <= Rows_),
                  "Tile: the static valid row count must lie in 1..Rows (or be DYNAMIC)");
    static_assert(ColValid_ == DYNAMIC || (ColValid_ > 0 && ColValid_ <= Cols_),
                  "Tile: the static valid column count must lie in 1..Cols (or be DYNAMIC)");
    static_assert(SFractalSize_ == TileConfig::fractalABSize || SFractalSize_ == TileConfig::fractalCSize ||
                      SFractalSize_ == TileConfig::fractalMxSize,
                  "Tile: SFractalSize must be 512, 1024 or 32");
    static_assert(!isBoxedLayout || Cols_ % InnerCols == 0, "Tile: Cols must be a multiple of the fractal box width");
    static_assert(!isBoxedLayout || Loc_ == TileType::Vec || SFractalSize_ == TileConfig::fractalMxSize ||
                      Rows_ == 1 || Rows_ % InnerRows == 0,
                  "Tile: Rows must be a multiple of the fractal box height");
    static_assert(isBoxedLayout || !isRowMajor || ptosim_impl::elem_bytes<Element_>(Cols_) % TileConfig::alignedSize == 0 ||
                      Rows_ == 1 || Loc_ == TileType::Bias,
                  "Tile: a row-major tile's row (Cols * sizeof(element)) must be a multiple of 32 bytes");
    static_assert(isBoxedLayout || isRowMajor || ptosim_impl::elem_bytes<Element_>(Rows_) % TileConfig::alignedSize == 0 ||
                      Cols_ == 1,
                  "Tile: a column-major tile's column (Rows * sizeof(element)) must be a multiple of 32 bytes");
    static_assert(SFractalSize_ != TileConfig::fractalCSize || sizeof(Element_) == 4,
                  "Tile: 1024-byte (accumulator) fractals hold 4-byte elements only");

    using TileDType = Element_*;

    PTO_INTERNAL Tile() = default;
    PTO_INTERNAL Tile(const Tile&) = default;
    // Assigning a tile that was never placed (`t = T(rows)`: pto-isa's A2A3
    // conv2d_forward re-sizes its TASSIGNed L0A ping-pong tiles this way)
    // takes its valid shape only; the target keeps its placement
    // (docs/semantics.md, "Tile assignment").
    PTO_INTERNAL Tile& operator=(const Tile& o) {
        RowMaskInternal = o.RowMaskInternal;
        ColMaskInternal = o.ColMaskInternal;
        k_aligned_ = o.k_aligned_;
        if (o.assigned_) {
            addr_ = o.addr_;
            assigned_ = true;
        }
        return *this;
    }

    template <int R = RowValid_, int C = ColValid_, std::enable_if_t<R == DYNAMIC && C == DYNAMIC, int> = 0>
    PTO_INTERNAL Tile(size_t validRow, size_t validCol)
        : RowMaskInternal(static_cast<int>(validRow)), ColMaskInternal(static_cast<int>(validCol)) {}

    template <int R = RowValid_, int C = ColValid_, std::enable_if_t<(R == DYNAMIC) != (C == DYNAMIC), int> = 0>
    PTO_INTERNAL explicit Tile(size_t valid) {
        if constexpr (R == DYNAMIC) RowMaskInternal = static_cast<int>(valid);
        else ColMaskInternal = static_cast<int>(valid);
    }

    PTO_INTERNAL int GetValidRow() const {
        if constexpr (RowValid_ == DYNAMIC) return RowMaskInternal;
        else return RowValid_;
    }
    PTO_INTERNAL int GetValidCol() const {
        if constexpr (ColValid_ == DYNAMIC) return ColMaskInternal;
        else return ColValid_;
    }
    // Sets the dynamic dimensions only. pto-isa (3186c381, pto_tile.hpp)
    // refuses the call unless both are dynamic; ptolab's own comm
    // instructions rely on the lenient form (docs/differential-cookbook.md).
    PTO_INTERNAL void SetValidShape(int r, int c) {
        if constexpr (RowValid_ == DYNAMIC) RowMaskInternal = r;
        if constexpr (ColValid_ == DYNAMIC) ColMaskInternal = c;
    }
    // As pto-isa's: only a dynamic dimension can be set.
    PTO_INTERNAL void SetValidRow(int r) {
        static_assert(RowValid_ == DYNAMIC, "SetValidRow: the tile's valid row count is static; declare it DYNAMIC");
        RowMaskInternal = r;
    }
    PTO_INTERNAL void SetValidCol(int c) {
        static_assert(ColValid_ == DYNAMIC, "SetValidCol: the tile's valid column count is static; declare it DYNAMIC");
        ColMaskInternal = c;
    }

    // As on hardware, the data pointer holds the tile's buffer-local address.
    PTO_INTERNAL TileDType data() const { return reinterpret_cast<TileDType>(static_cast<uintptr_t>(addr_)); }
    PTO_INTERNAL uint64_t address() const { return addr_; }
    PTO_INTERNAL bool assigned() const { return assigned_; }
    PTO_INTERNAL void assign_address(uint64_t a) {
        addr_ = a;
        assigned_ = true;
    }

    // Element `offset` of the tile's storage (not row/column), as pto-isa's
    // scalar accessors; Vec tiles only, as there.
    PTO_INTERNAL void SetValue(uint32_t offset, DType val,
                               std::source_location where = std::source_location::current()) {
        static_assert(Loc_ == TileType::Vec, "Tile::SetValue: scalar access exists for Vec (UB) tiles only");
        std::memcpy(ptosim_impl::ub_scalar_slot(addr_, offset, sizeof(DType), "Tile::SetValue", true, where), &val,
                    sizeof(DType));
    }
    PTO_INTERNAL DType GetValue(uint32_t offset, std::source_location where = std::source_location::current()) const {
        static_assert(Loc_ == TileType::Vec, "Tile::GetValue: scalar access exists for Vec (UB) tiles only");
        DType v;
        std::memcpy(&v, ptosim_impl::ub_scalar_slot(addr_, offset, sizeof(DType), "Tile::GetValue", false, where),
                    sizeof(DType));
        return v;
    }

    // The K alignment flag pto-isa's A2A3 data movers read for float Left
    // tiles (K padded to 16 instead of 8 in L0A). ptosim moves and multiplies
    // the valid region only, so the flag is kept but changes no result.
    PTO_INTERNAL bool GetKAligned() const { return k_aligned_; }
    PTO_INTERNAL void SetKAligned(bool k_aligned) { k_aligned_ = k_aligned; }
    // The core's MAD mode: later float TMATMULs round their operands to TF32
    // (CAST_ROUND: ties away from zero, CAST_RINT: ties to even) until
    // ResetMadMode. A core register, as on hardware: any tile object sets it.
    PTO_INTERNAL void SetMadTF32Mode(RoundMode mode = RoundMode::CAST_ROUND,
                                     std::source_location where = std::source_location::current()) {
        if (mode != RoundMode::CAST_ROUND && mode != RoundMode::CAST_RINT)
            ptosim::fault(ptosim::SourceLoc{where.file_name(), static_cast<int>(where.line())},
                          "SetMadTF32Mode: the TF32 rounding mode must be RoundMode::CAST_ROUND or RoundMode::CAST_RINT");
        ptosim::core().mad_tf32 = mode == RoundMode::CAST_ROUND ? 1 : 2;
    }
    PTO_INTERNAL void ResetMadMode() { ptosim::core().mad_tf32 = 0; }

    int RowMaskInternal = RowValid_ == DYNAMIC ? Rows_ : RowValid_;
    int ColMaskInternal = ColValid_ == DYNAMIC ? Cols_ : ColValid_;

private:
    uint64_t addr_ = 0;
    bool assigned_ = false;
    bool k_aligned_ = false;
};

template <typename T, int Rows, int Cols, int RowValid = Rows, int ColValid = Cols>
#if PTOSIM_TARGET_A5
using TileLeft = Tile<TileType::Left, T, Rows, Cols, BLayout::ColMajor, RowValid, ColValid, SLayout::RowMajor,
                      TileConfig::fractalABSize>;
#else
using TileLeft = Tile<TileType::Left, T, Rows, Cols, BLayout::RowMajor, RowValid, ColValid, SLayout::RowMajor,
                      TileConfig::fractalABSize>;
#endif

// Compact operand tiles: the same storage with CompactMode::Normal (pto-isa
// pto_tile.hpp), which lets the valid shape stop short of the fractal grid.
template <typename T, int Rows, int Cols, int RowValid = Rows, int ColValid = Cols>
using TileLeftCompact = Tile<TileType::Left, T, Rows, Cols, TileLeft<T, Rows, Cols>::BFractal, RowValid, ColValid,
                             SLayout::RowMajor, TileConfig::fractalABSize, PadValue::Null, CompactMode::Normal>;
template <typename T, int Rows, int Cols, int RowValid = Rows, int ColValid = Cols>
using TileRightCompact = Tile<TileType::Right, T, Rows, Cols, BLayout::RowMajor, RowValid, ColValid, SLayout::ColMajor,
                              TileConfig::fractalABSize, PadValue::Null, CompactMode::Normal>;
template <typename T, int Rows, int Cols, int RowValid = Rows, int ColValid = Cols>
using TileAccCompact = Tile<TileType::Acc, T, Rows, Cols, BLayout::ColMajor, RowValid, ColValid, SLayout::RowMajor,
                            TileConfig::fractalCSize, PadValue::Null, CompactMode::Normal>;

template <typename T, int Rows, int Cols, int RowValid = Rows, int ColValid = Cols>
using TileRight = Tile<TileType::Right, T, Rows, Cols, BLayout::RowMajor, RowValid, ColValid, SLayout::ColMajor,
                       TileConfig::fractalABSize>;

template <typename T, int Rows, int Cols, int RowValid = Rows, int ColValid = Cols>
using TileAcc = Tile<TileType::Acc, T, Rows, Cols, BLayout::ColMajor, RowValid, ColValid, SLayout::RowMajor,
                     TileConfig::fractalCSize>;

template <typename T, int Cols, int ColValid = Cols>
using TileBias = Tile<TileType::Bias, T, 1, Cols, BLayout::RowMajor, 1, ColValid>;

template <class T>
struct is_tile : std::false_type {};
template <TileType L, class E, int R, int C, BLayout B, int RV, int CV, SLayout S, int F, PadValue P, CompactMode M>
struct is_tile<Tile<L, E, R, C, B, RV, CV, S, F, P, M>> : std::true_type {};
template <class T>
constexpr bool is_tile_data_v = is_tile<std::remove_cv_t<T>>::value;
template <class T>
constexpr bool is_boxed_tile = is_tile_data_v<T> && T::isBoxedLayout;

template <class T>
constexpr bool is_Nz_layout = !T::isRowMajor && T::SFractal == SLayout::RowMajor;
template <class T>
constexpr bool is_Zn_layout = T::isRowMajor && T::SFractal == SLayout::ColMajor;
template <class T>
constexpr bool is_Zz_layout = T::isRowMajor && T::SFractal == SLayout::RowMajor;

// Element offset of (row, col) inside the tile, in elements (docs/semantics.md, "Tile layouts").
template <class T>
constexpr uint64_t tile_element_offset(uint64_t r, uint64_t c) {
    if constexpr (!T::isBoxedLayout) {
        return r * T::RowStride + c * T::ColStride;
    } else {
        constexpr uint64_t IR = T::InnerRows, IC = T::InnerCols, NR = T::Rows / T::InnerRows > 0 ? T::Rows / T::InnerRows : 1,
                           NC = T::Cols / T::InnerCols;
        const uint64_t br = r / IR, bc = c / IC, ir = r % IR, ic = c % IC;
        const uint64_t block = T::isRowMajor ? br * NC + bc : bc * NR + br;
        const uint64_t inner = T::isInnerRowMajor ? ir * IC + ic : ic * IR + ir;
        return block * (IR * IC) + inner;
    }
}

// ---------------------------------------------------------------- GlobalTensor

template <int64_t N1 = DYNAMIC, int64_t N2 = DYNAMIC, int64_t N3 = DYNAMIC, int64_t N4 = DYNAMIC,
          int64_t N5 = DYNAMIC>
struct Shape {
    static constexpr int64_t staticShape[5] = {N1, N2, N3, N4, N5};
    static constexpr int dynamicCount = (N1 == DYNAMIC) + (N2 == DYNAMIC) + (N3 == DYNAMIC) + (N4 == DYNAMIC) +
                                        (N5 == DYNAMIC);
    int64_t shape[5] = {N1 == DYNAMIC ? 1 : N1, N2 == DYNAMIC ? 1 : N2, N3 == DYNAMIC ? 1 : N3,
                        N4 == DYNAMIC ? 1 : N4, N5 == DYNAMIC ? 1 : N5};

    PTO_INTERNAL Shape() = default;
    // With five values, only the DYNAMIC slots take theirs; with fewer, there
    // must be exactly one value per DYNAMIC slot, filled in order.
    template <class... I, std::enable_if_t<(sizeof...(I) >= 1 && sizeof...(I) <= 5 &&
                                            (std::is_integral_v<I> && ...)), int> = 0>
    PTO_INTERNAL Shape(I... values) {
        static_assert(sizeof...(I) == 5 || sizeof...(I) == dynamicCount,
                      "Shape: pass one value per DYNAMIC dimension, or all five");
        const int64_t v[] = {static_cast<int64_t>(values)...};
        int k = 0;
        for (int d = 0; d < 5; ++d) {
            if constexpr (sizeof...(I) == 5) {
                if (staticShape[d] == DYNAMIC) shape[d] = v[d];
            } else if (staticShape[d] == DYNAMIC) {
                shape[d] = v[k++];
            }
        }
    }
};

template <int64_t S1 = DYNAMIC, int64_t S2 = DYNAMIC, int64_t S3 = DYNAMIC, int64_t S4 = DYNAMIC,
          int64_t S5 = DYNAMIC>
struct Stride {
    static constexpr int64_t staticStride[5] = {S1, S2, S3, S4, S5};
    static constexpr int dynamicCount = (S1 == DYNAMIC) + (S2 == DYNAMIC) + (S3 == DYNAMIC) + (S4 == DYNAMIC) +
                                        (S5 == DYNAMIC);
    int64_t stride[5] = {S1 == DYNAMIC ? 1 : S1, S2 == DYNAMIC ? 1 : S2, S3 == DYNAMIC ? 1 : S3,
                         S4 == DYNAMIC ? 1 : S4, S5 == DYNAMIC ? 1 : S5};

    PTO_INTERNAL Stride() = default;
    template <class... I, std::enable_if_t<(sizeof...(I) >= 1 && sizeof...(I) <= 5 &&
                                            (std::is_integral_v<I> && ...)), int> = 0>
    PTO_INTERNAL Stride(I... values) {
        static_assert(sizeof...(I) == 5 || sizeof...(I) == dynamicCount,
                      "Stride: pass one value per DYNAMIC dimension, or all five");
        const int64_t v[] = {static_cast<int64_t>(values)...};
        int k = 0;
        for (int d = 0; d < 5; ++d) {
            if constexpr (sizeof...(I) == 5) {
                if (staticStride[d] == DYNAMIC) stride[d] = v[d];
            } else if (staticStride[d] == DYNAMIC) {
                stride[d] = v[k++];
            }
        }
    }
};

namespace ptosim_impl {
// The global layouts whose addressing ptosim implements (docs/semantics.md,
// "Global tensors"): the matrix layouts, and the convolution layouts that
// TLOAD into a ConvTile and TSTORE from an accumulator address, and A5's MX
// scale layouts.
constexpr bool layout_is_simulated(Layout l) {
    switch (l) {
        case Layout::ND: case Layout::DN: case Layout::NZ:
        case Layout::NC1HWC0: case Layout::FRACTAL_Z: case Layout::FRACTAL_Z_3D: case Layout::NDC1HWC0:
        case Layout::NCHW: case Layout::NHWC: case Layout::NCDHW:
        case Layout::MX_A_ND: case Layout::MX_A_DN: case Layout::MX_A_ZZ:  // MX scales: tload_mx.hpp
        case Layout::MX_B_ND: case Layout::MX_B_DN: case Layout::MX_B_NN:
            return true;
        default:
            return false;
    }
}

template <class T>
constexpr int c0_of = c0_elems<T>;
constexpr int64_t mul_or_dyn(int64_t a, int64_t b) { return a == DYNAMIC || b == DYNAMIC ? DYNAMIC : a * b; }
}  // namespace ptosim_impl

// 2-D shapes and their dense strides for ND, DN and NZ global tensors.
template <typename T, int R, int C, Layout L = Layout::ND>
struct TileShape2D;
template <typename T, int R, int C>
struct TileShape2D<T, R, C, Layout::ND> : Shape<1, 1, 1, R, C> {
    using Shape<1, 1, 1, R, C>::Shape;
};
template <typename T, int R, int C>
struct TileShape2D<T, R, C, Layout::DN> : Shape<1, 1, 1, R, C> {
    using Shape<1, 1, 1, R, C>::Shape;
};
template <typename T, int R, int C>
struct TileShape2D<T, R, C, Layout::NZ>
    : Shape<1, (C == DYNAMIC ? DYNAMIC : C / ptosim_impl::c0_of<T>), (R == DYNAMIC ? DYNAMIC : R / 16), 16, ptosim_impl::c0_of<T>> {
    static_assert(R == DYNAMIC || R % 16 == 0, "TileShape2D<NZ>: rows must be a multiple of 16");
    static_assert(C == DYNAMIC || C % ptosim_impl::c0_of<T> == 0, "TileShape2D<NZ>: cols must be a multiple of 32 bytes");
    using Base = Shape<1, (C == DYNAMIC ? DYNAMIC : C / ptosim_impl::c0_of<T>), (R == DYNAMIC ? DYNAMIC : R / 16), 16,
                       ptosim_impl::c0_of<T>>;
    PTO_INTERNAL TileShape2D() = default;
    PTO_INTERNAL TileShape2D(int64_t rows, int64_t cols)
        : Base(1, cols / ptosim_impl::c0_of<T>, rows / 16, 16, ptosim_impl::c0_of<T>) {}
};

template <typename T, int R, int C, Layout L = Layout::ND>
struct BaseShape2D;
template <typename T, int R, int C>
struct BaseShape2D<T, R, C, Layout::ND>
    : Stride<ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), C, 1> {
    using Base = Stride<ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), C, 1>;
    PTO_INTERNAL BaseShape2D() = default;
    PTO_INTERNAL BaseShape2D(int64_t rows, int64_t cols) : Base(rows * cols, rows * cols, rows * cols, cols, 1) {}
};
template <typename T, int R, int C>
struct BaseShape2D<T, R, C, Layout::DN>
    : Stride<ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), 1, R> {
    using Base = Stride<ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, C), 1, R>;
    PTO_INTERNAL BaseShape2D() = default;
    PTO_INTERNAL BaseShape2D(int64_t rows, int64_t cols) : Base(rows * cols, rows * cols, rows * cols, 1, rows) {}
};
template <typename T, int R, int C>
struct BaseShape2D<T, R, C, Layout::NZ>
    : Stride<ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, ptosim_impl::c0_of<T>), 16 * ptosim_impl::c0_of<T>,
             ptosim_impl::c0_of<T>, 1> {
    using Base = Stride<ptosim_impl::mul_or_dyn(R, C), ptosim_impl::mul_or_dyn(R, ptosim_impl::c0_of<T>), 16 * ptosim_impl::c0_of<T>,
                        ptosim_impl::c0_of<T>, 1>;
    PTO_INTERNAL BaseShape2D() = default;
    PTO_INTERNAL BaseShape2D(int64_t rows, int64_t cols)
        : Base(rows * cols, rows * ptosim_impl::c0_of<T>, 16 * ptosim_impl::c0_of<T>, ptosim_impl::c0_of<T>, 1) {}
};

template <typename Element_, typename Shape_, typename Stride_, Layout Layout_ = Layout::ND>
struct GlobalTensor {
    using Shape = Shape_;
    using Stride = Stride_;
    using RawDType = Element_;
    using DType = __gm__ Element_;
    static constexpr Layout layout = Layout_;
    static constexpr int64_t staticShape[5] = {Shape_::staticShape[0], Shape_::staticShape[1], Shape_::staticShape[2],
                                               Shape_::staticShape[3], Shape_::staticShape[4]};
    static constexpr int64_t staticStride[5] = {Stride_::staticStride[0], Stride_::staticStride[1],
                                                Stride_::staticStride[2], Stride_::staticStride[3],
                                                Stride_::staticStride[4]};
    static_assert(ptosim_impl::layout_is_simulated(Layout_),
                  "GlobalTensor: the simulator supports the ND, DN, NZ, MX_A_ND/DN/ZZ, MX_B_ND/DN/NN, NC1HWC0, "
                  "FRACTAL_Z, FRACTAL_Z_3D, NDC1HWC0, NCHW, NHWC and NCDHW global layouts");

    PTO_INTERNAL GlobalTensor() = default;
    PTO_INTERNAL GlobalTensor(DType* data, const Shape_& shape = Shape_(), const Stride_& stride = Stride_())
        : data_(data), shape_(shape), stride_(stride) {}

    PTO_INTERNAL int64_t GetShape(int dim) const { return dim >= 0 && dim < 5 ? shape_.shape[dim] : -1; }
    PTO_INTERNAL int64_t GetStride(int dim) const { return dim >= 0 && dim < 5 ? stride_.stride[dim] : -1; }
    template <int dim>
    static constexpr int64_t GetShape() {
        static_assert(dim >= 0 && dim < 5, "GlobalTensor::GetShape<dim>: dim must be 0..4");
        static_assert(staticShape[dim] != DYNAMIC, "GlobalTensor::GetShape<dim>: this dimension is DYNAMIC");
        return staticShape[dim];
    }
    template <int dim>
    static constexpr int64_t GetStride() {
        static_assert(dim >= 0 && dim < 5, "GlobalTensor::GetStride<dim>: dim must be 0..4");
        static_assert(staticStride[dim] != DYNAMIC, "GlobalTensor::GetStride<dim>: this dimension is DYNAMIC");
        return staticStride[dim];
    }
    PTO_INTERNAL DType* data() const { return data_; }
    PTO_INTERNAL void set_data(DType* p) { data_ = p; }

private:
    DType* data_ = nullptr;
    Shape_ shape_;
    Stride_ stride_;
};

template <class T>
struct is_global : std::false_type {};
template <class E, class S, class St, Layout L>
struct is_global<GlobalTensor<E, S, St, L>> : std::true_type {};
template <class T>
constexpr bool is_global_data_v = is_global<std::remove_cv_t<T>>::value;

}  // namespace pto
