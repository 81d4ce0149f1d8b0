// pto-isa's communication types (pto-isa docs/isa/comm/README.md): the
// parallel group of the collectives, notify and compare operations, reduce
// operations and signal tensors; and the machinery ptolab's comm
// instructions share (ptosim_impl::comm). Semantics: docs/many-devices.md.
#pragma once
#include <pto/common/type.hpp>
#if PTOSIM_DEVICE
#include <pto/common/tile.hpp>
#include <pto/common/gm_view.hpp>
#include <pto/inst/tload_tstore.hpp>
#include <ptosim/intrinsics.hpp>
#include <ptosim/peers.hpp>

#include <cstdint>
#include <string>
#include <type_traits>

namespace pto {
namespace comm {

// The GlobalTensors of every rank of a collective, indexed by rank, and the
// calling rank's index (the root of TBROADCAST, TGATHER, TSCATTER, TREDUCE).
template <typename GlobalData>
struct ParallelGroup {
    using value_type = GlobalData;
    GlobalData* tensors{nullptr};
    int nranks{0};
    int rootIdx{-1};
    constexpr ParallelGroup() = default;
    constexpr ParallelGroup(GlobalData* tensorArray, int size, int root) : tensors(tensorArray), nranks(size), rootIdx(root) {}
    static constexpr ParallelGroup Create(GlobalData* tensorArray, int size, int rank_id) {
        return ParallelGroup(tensorArray, size, rank_id);
    }
    constexpr int GetRootIdx() const { return rootIdx; }
    constexpr int GetSize() const { return nranks; }
    constexpr bool empty() const { return nranks == 0; }
    constexpr GlobalData& operator[](int teamRank) { return tensors[teamRank]; }
    constexpr const GlobalData& operator[](int teamRank) const { return tensors[teamRank]; }
};

template <typename T>
struct ParallelGroupTraits;
template <typename GlobalData>
struct ParallelGroupTraits<ParallelGroup<GlobalData>> {
    using GlobalDataType = GlobalData;
};

enum class NotifyOp : uint8_t { AtomicAdd = 0, Set = 1 };
enum class WaitCmp : uint8_t { EQ = 0, NE = 1, GT = 2, GE = 3, LT = 4, LE = 5 };
enum class ReduceOp : uint8_t { Sum = 0, Max = 1, Min = 2 };
// DmaEngine and AsyncEvent: pto/inst/pto_sync.hpp (TPREFETCH_ASYNC).
// The engine of a collective (pto-isa's CollEngine): the AI Vector core
// (the default forms of TBROADCAST, TGATHER, TSCATTER, TREDUCE) or the CCU:
// the core only triggers a CCU program libhccl launched, by storing the
// mask into the program's gate CKE (pto/comm/TCcu.hpp).
enum class CollEngine : uint8_t { AIV = 0, CCU = 1 };
// Who fills this rank's CCU input: the host (HostManaged), or the trigger
// itself, storing its tile there first (AivStored).
enum class CcuInputSource : uint8_t { HostManaged = 0, AivStored = 1 };
// What a CCU trigger needs: the gate CKE's slot (rtGetDevResAddress), the
// mask to set, this rank's index in the group, who fills the input.
struct CcuTriggerContext {
    uint64_t ckeSlotVA{0};
    uint32_t mask{0};
    uint32_t selfIdx{0};
    CcuInputSource inputSource{CcuInputSource::HostManaged};
};


// One int32 signal, and signal tensors.
using Signal = GlobalTensor<int32_t, Shape<1, 1, 1, 1, 1>, Stride<1, 1, 1, 1, 1>, Layout::ND>;
template <typename Element_, typename Shape_, typename Stride_, Layout Layout_ = Layout::ND>
using GlobalSignal = GlobalTensor<Element_, Shape_, Stride_, Layout_>;
template <int Rows, int Cols>
struct Signal2D : public GlobalTensor<int32_t, Shape<1, 1, 1, Rows, Cols>, Stride<1, 1, 1, DYNAMIC, 1>, Layout::ND> {
private:
    using Base = GlobalTensor<int32_t, Shape<1, 1, 1, Rows, Cols>, Stride<1, 1, 1, DYNAMIC, 1>, Layout::ND>;

public:
    Signal2D(typename Base::DType* ptr) : Base(ptr, typename Base::Shape{}, typename Base::Stride{Cols}) {}
    Signal2D(typename Base::DType* ptr, int stride) : Base(ptr, typename Base::Shape{}, typename Base::Stride{stride}) {}
};

}  // namespace comm

namespace ptosim_impl::comm {

using DynShape = Shape<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
using DynStride = Stride<DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC, DYNAMIC>;
// A rows x cols piece of a GlobalTensor with the tensor's strides.
template <class G>
using Piece = GlobalTensor<typename G::RawDType, DynShape, DynStride, G::layout>;

template <class G>
Piece<G> piece(const G& g, int64_t i0, int64_t i1, int64_t i2, int64_t r, int64_t c, int64_t rows, int64_t cols) {
    const int64_t off = i0 * g.GetStride(0) + i1 * g.GetStride(1) + i2 * g.GetStride(2) + r * g.GetStride(3) +
                        c * g.GetStride(4);
    return Piece<G>(g.data() + off, DynShape(1, 1, 1, rows, cols),
                    DynStride(g.GetStride(0), g.GetStride(1), g.GetStride(2), g.GetStride(3), g.GetStride(4)));
}

// The rows x cols a staging tile takes per transfer: its whole size when
// its valid shape is dynamic, else its valid shape.
template <class TileData>
constexpr int chunk_rows() {
    return TileData::ValidRow == DYNAMIC ? TileData::Rows : TileData::ValidRow;
}
template <class TileData>
constexpr int chunk_cols() {
    return TileData::ValidCol == DYNAMIC ? TileData::Cols : TileData::ValidCol;
}

// Calls f(i0, i1, i2, row, col, rows, cols) for every chunk of a
// d0 x d1 x d2 x H x W region, rows by tile rows, columns by tile columns:
// pto-isa's "2D sliding" of the comm instructions.
template <class TileData, class F>
void each_chunk(const char* op, const SourceLoc& loc, const int64_t (&d)[5], F f) {
    constexpr int tr = chunk_rows<TileData>(), tc = chunk_cols<TileData>();
    for (int64_t i0 = 0; i0 < d[0]; ++i0)
        for (int64_t i1 = 0; i1 < d[1]; ++i1)
            for (int64_t i2 = 0; i2 < d[2]; ++i2)
                for (int64_t r = 0; r < d[3]; r += tr)
                    for (int64_t c = 0; c < d[4]; c += tc) {
                        const int64_t rows = std::min<int64_t>(tr, d[3] - r), cols = std::min<int64_t>(tc, d[4] - c);
                        if ((rows != tr && TileData::ValidRow != DYNAMIC) || (cols != tc && TileData::ValidCol != DYNAMIC))
                            ptosim::fault(loc, std::string(op) + ": a " + std::to_string(rows) + "x" +
                                                   std::to_string(cols) + " tail chunk does not fit the staging tile's "
                                                   "static " + std::to_string(tr) + "x" + std::to_string(tc) +
                                                   " valid shape; give the tile DYNAMIC valid rows/cols");
                        f(i0, i1, i2, r, c, rows, cols);
                    }
}

template <class G>
void dims_of(const G& g, int64_t (&d)[5]) {
    for (int i = 0; i < 5; ++i) d[i] = g.GetShape(i);
}

inline void flag_pair(const SourceLoc& loc, Pipe from, Pipe to, int ev) {
    ptosim::intr::set_flag(loc, from, to, ev);
    ptosim::intr::wait_flag(loc, from, to, ev);
}

// A chunk's GM span checked under the comm instruction's name ("TPUT
// destination: ... outside the peer's window"), before the TLOAD/TSTORE
// that move it check it again under theirs.
template <class G>
void check_chunk(const char* what, const SourceLoc& loc, const G& g, int64_t rows, int64_t cols) {
    if (!g.data()) ptosim::fault(loc, std::string(what) + ": the GlobalTensor has no data pointer");
    GmView<G> v(g);
    int64_t lo = 0, hi = 0;
    v.span(rows, cols, lo, hi);
    ptosim::check_gm(gm_bytes(g) + lo, static_cast<uint64_t>(hi - lo), what, loc);
}

// GM -> staging tile -> GM for one chunk, in the order the hardware needs:
// the store waits for the load (MTE2 -> MTE3), the next load for the store.
template <AtomicType atomic, class TileData, class GD, class GS>
void move_chunk(const CallSite& cs, const SourceLoc& loc, TileData& tile, const GD& dst, const GS& src, int ev,
                const char* op = nullptr) {
    if (op) {
        const std::string o(op);
        check_chunk((o + " source").c_str(), loc, src, tile.GetValidRow(), tile.GetValidCol());
        check_chunk((o + " destination").c_str(), loc, dst, tile.GetValidRow(), tile.GetValidCol());
    }
    auto s = src;
    auto d = dst;
    tload_tile(cs, tile, s);
    flag_pair(loc, Pipe::MTE2, Pipe::MTE3, ev);
    tstore<TileData, GD, atomic, ReluPreMode::NoRelu>(cs, d, tile);
    flag_pair(loc, Pipe::MTE3, Pipe::MTE2, ev);
}

template <class TileData, class GD, class GS>
void check_types(const char* /*op*/) {
    static_assert(std::is_same_v<typename GD::RawDType, typename GS::RawDType>,
                  "comm instruction: source and destination element types must be equal");
    static_assert(std::is_same_v<typename TileData::DType, typename GS::RawDType>,
                  "comm instruction: the staging tile's element type must be the tensors'");
    static_assert(GD::layout == GS::layout, "comm instruction: source and destination layouts must be equal");
    static_assert(TileData::Loc == TileType::Vec, "comm instruction: staging tiles live in UB (TileType::Vec)");
}

inline bool compare(int32_t v, int32_t cmp, pto::comm::WaitCmp how) {
    using pto::comm::WaitCmp;
    switch (how) {
        case WaitCmp::EQ: return v == cmp;
        case WaitCmp::NE: return v != cmp;
        case WaitCmp::GT: return v > cmp;
        case WaitCmp::GE: return v >= cmp;
        case WaitCmp::LT: return v < cmp;
        case WaitCmp::LE: return v <= cmp;
    }
    return false;
}
inline const char* cmp_name(pto::comm::WaitCmp how) {
    static const char* const names[] = {"==", "!=", ">", ">=", "<", "<="};
    return names[static_cast<int>(how) % 6];
}

// Reads every signal of a 5-D int32 signal tensor; the first that fails
// the comparison (its index and value) when not all pass.
template <class G>
bool signals_pass(const G& g, int32_t cmp, pto::comm::WaitCmp how, int64_t* bad_off = nullptr, int32_t* bad = nullptr) {
    for (int64_t i0 = 0; i0 < g.GetShape(0); ++i0)
        for (int64_t i1 = 0; i1 < g.GetShape(1); ++i1)
            for (int64_t i2 = 0; i2 < g.GetShape(2); ++i2)
                for (int64_t i3 = 0; i3 < g.GetShape(3); ++i3)
                    for (int64_t i4 = 0; i4 < g.GetShape(4); ++i4) {
                        const int64_t off = i0 * g.GetStride(0) + i1 * g.GetStride(1) + i2 * g.GetStride(2) +
                                            i3 * g.GetStride(3) + i4 * g.GetStride(4);
                        const int32_t v = __atomic_load_n(reinterpret_cast<const int32_t*>(g.data()) + off,
                                                          __ATOMIC_ACQUIRE);
                        if (!compare(v, cmp, how)) {
                            if (bad_off) *bad_off = off;
                            if (bad) *bad = v;
                            return false;
                        }
                    }
    return true;
}

// The bytes of a signal tensor's GM span.
template <class G>
uint64_t signal_bytes(const G& g) {
    int64_t last = 0;
    for (int i = 0; i < 5; ++i) last += (g.GetShape(i) - 1) * g.GetStride(i);
    return static_cast<uint64_t>(last + 1) * 4;
}

// The signal tensor's GM span, checked and recorded as a scalar read.
template <class G>
void record_signals(Core& c, const CallSite& cs, const SourceLoc& loc, const G& g, const char* op, bool write) {
    static_assert(std::is_same_v<typename G::RawDType, int32_t>, "comm signals are int32_t");
    if (!g.data()) ptosim::fault(loc, std::string(op) + ": the signal GlobalTensor has no data pointer");
    int64_t last = 0;
    for (int i = 0; i < 5; ++i) last += (g.GetShape(i) - 1) * g.GetStride(i);
    const uint64_t bytes = static_cast<uint64_t>(last + 1) * 4;
    ptosim::check_gm(g.data(), bytes, op, loc);
    OpRecord rec = make_record(op, Pipe::S, cs);
    if (write) rec.write(Space::GM, reinterpret_cast<uintptr_t>(g.data()), bytes);
    else rec.read(Space::GM, reinterpret_cast<uintptr_t>(g.data()), bytes);
    rec.atomic = true;
    rec.elements = static_cast<uint64_t>(last + 1);
    rec.bytes = bytes;
    ptosim::dispatch(c, rec);
}

inline std::string where_is(const void* p) {
    char buf[96];
    const int r = ptosim::window_rank(reinterpret_cast<uintptr_t>(p));
    std::snprintf(buf, sizeof buf, "%p%s", p, r >= 0 ? (" (rank " + std::to_string(r) + "'s window)").c_str() : "");
    return buf;
}

}  // namespace ptosim_impl::comm
}  // namespace pto
#endif
