// PTO-level synchronisation and pipes: Event, TSYNC, TPUSH/TPOP/TALLOC/TFREE, SYNCALL; TPRINT, TPREFETCH,
// TPREFETCH_ASYNC.
// Everything here is built on the runtime's flag primitives (ptosim::intr),
// so a missing Record or TPUSH ends in the same deadlock report as a missing
// set_flag or ffts_cross_core_sync would (docs/isa/sync.md).
#pragma once
#include <pto/common/sim_support.hpp>
#include <ptosim/intrinsics.hpp>
#include <cinttypes>
#include <cstdio>
#include <source_location>

namespace pto {

// Operation classes of Event<Src, Dst>; the names and order follow pto-isa's
// include/pto/common/event.hpp.
enum class Op : uint16_t {
    TLOAD, TSTORE_VEC, SCALAR, TRESHAPE, VECTOR, TADD, TADDS, TAXPY, TSUB, TMUL, TMULS, TDIV, TDIVS, TMIN, TMINS,
    TMAX, TAND, TOR, TSEL, TSHL, TSHR, TEXP, TSELS, TSQRT, TRSQRT, TEXPANDS, TEXPANDS_MAT, TPARTADD, TPARTMUL,
    TPARTMAX, TPARTMIN, TPOW, TPOWS, TCMPS, TMRGSORT, TSORT32, TCI, TGATHER, TGATHERB, TCVT, TROWSUM, TROWPROD,
    TROWMAX, TROWMIN, TROWEXPAND, TRANDOM, TCOLSUM, TCOLPROD, TCOLMAX, TCOLMIN, TTRANS, TTRI, TREM, TFMOD, TREMS,
    TFMODS, TSUBS, TMAXS, TLRELU, TPRELU, TMOV_V2V, TMOV_V2M, TEXTRACT_V2M, TMOV_M2B, TMOV_M2L, TMOV_M2R, TMOV_M2S,
    TMOV_A2V, TMOV_A2M, TSTORE_ACC, TSTORE_MAT, TMATMUL, TGEMV, TMATMUL_MX, TEXTRACT_M2LR, TANDS, TORS, TSHLS, TSHRS,
    TXOR, TXORS, TEXTRACT_A2M, TINSERT_A2M, TIMG2COL, SETFMATRIX, SET_IMG2COL_RPT, SET_IMG2COL_PADDING, TCONCAT,
    TDEQUANT, OP_COUNT
};

// The pipe each operation class runs on (pto-isa's opPipeList).
constexpr pipe_t pipe_of(Op op) {
    switch (op) {
        case Op::TLOAD: case Op::TEXPANDS_MAT: return PIPE_MTE2;
        case Op::TSTORE_VEC: case Op::TSTORE_MAT: return PIPE_MTE3;
        case Op::SCALAR: case Op::TRESHAPE: case Op::TCI: case Op::SETFMATRIX: case Op::SET_IMG2COL_RPT:
        case Op::SET_IMG2COL_PADDING: return PIPE_S;
        case Op::TMOV_V2M: case Op::TEXTRACT_V2M: case Op::TMOV_M2S: case Op::TMOV_A2V: case Op::TMOV_A2M:
        case Op::TSTORE_ACC: case Op::TEXTRACT_A2M: case Op::TINSERT_A2M: return PIPE_FIX;
        case Op::TMOV_M2B: case Op::TMOV_M2L: case Op::TMOV_M2R: case Op::TEXTRACT_M2LR: case Op::TIMG2COL:
            return PIPE_MTE1;
        case Op::TMATMUL: case Op::TGEMV: case Op::TMATMUL_MX: return PIPE_M;
        case Op::OP_COUNT: return PIPE_ALL;
        default: return PIPE_V;
    }
}

// Hands out event ids per (src, dst) pipe pair in rotation, as pto-isa's
// EventIdCounter does; eight ids exist per pair.
template <pipe_t Src, pipe_t Dst>
struct EventIdCounter {
    static event_t GetNextId() {
        const event_t id = next();
        next() = static_cast<event_t>((static_cast<int>(id) + 1) % 8);
        return id;
    }
    static void Reset() { next() = EVENT_ID0; }
    static event_t PeekNextId() { return next(); }

private:
    static event_t& next() {
        static event_t id = EVENT_ID0;
        return id;
    }
};

// A dependency between two operation classes on one core: Record() is
// set_flag(src pipe, dst pipe, token), Wait() is the matching wait_flag.
// Between two operations of the same pipe program order suffices, so Wait()
// is a pipe_barrier and Record() only records.
template <Op SrcOp, Op DstOp, bool AutoToken = true, event_t EventID = EVENT_ID0>
struct Event {
    static constexpr Op srcOp = SrcOp;
    static constexpr Op dstOp = DstOp;
    static constexpr pipe_t srcPipe = pipe_of(SrcOp);
    static constexpr pipe_t dstPipe = pipe_of(DstOp);
    static constexpr bool isSamePipe = srcPipe == dstPipe;
    static_assert(srcPipe != PIPE_ALL && dstPipe != PIPE_ALL, "Event: OP_COUNT is not an operation");
    const event_t token = AutoToken ? EventIdCounter<srcPipe, dstPipe>::GetNextId() : EventID;

    Event() = default;
    Event(RecordEvent) { Record(); }
    Event& operator=(RecordEvent) { return Record(); }

    Event& Record(CallSite cs = {}) {
        const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
        if constexpr (!isSamePipe)
            ptosim::intr::set_flag(loc, static_cast<ptosim::Pipe>(srcPipe), static_cast<ptosim::Pipe>(dstPipe), token);
        return *this;
    }
    Event& Init(CallSite cs = {}) { return Record(cs); }
    Event& Wait(CallSite cs = {}) {
        const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
        if constexpr (isSamePipe) ptosim::intr::pipe_barrier(loc, static_cast<ptosim::Pipe>(srcPipe));
        else ptosim::intr::wait_flag(loc, static_cast<ptosim::Pipe>(srcPipe), static_cast<ptosim::Pipe>(dstPipe), token);
        return *this;
    }
};

template <class T>
struct is_event : std::false_type {};
template <Op S, Op D, bool A, event_t E>
struct is_event<Event<S, D, A, E>> : std::true_type {};

// TSYNC(events...): waits on each event in order.
template <typename... WaitEvents>
PTO_INST void TSYNC(CallSite cs, WaitEvents&... events) {
    static_assert((is_event<WaitEvents>::value && ...), "TSYNC(events...) takes Event<SrcOp, DstOp> objects");
    (events.Wait(cs), ...);
}
template <typename... WaitEvents>
PTO_INST void TSYNC(WaitEvents&... events) {
    TSYNC(CallSite{}, events...);
}

// TSYNC<Op>(): a barrier on the pipe of one vector operation class; pto-isa
// restricts it to PIPE_V operations on both targets.
template <Op OpCode>
PTO_INST void TSYNC(CallSite cs = {}) {
    static_assert(pipe_of(OpCode) == PIPE_V,
                  "TSYNC<Op>() is a barrier for vector-pipe operations only; for other pipes use an Event");
    ptosim::intr::pipe_barrier(ptosim_impl::loc_of(cs), ptosim::Pipe::V);
}

// pto-isa's pto/common/event.hpp helpers: a set_flag/wait_flag pair on
// EVENT_ID0 between two pipes, and waiting on a list of events.
template <pipe_t SrcPipe, pipe_t DstPipe>
PTO_INTERNAL void PtoSetWaitFlag(std::source_location where = std::source_location::current()) {
    set_flag(SrcPipe, DstPipe, EVENT_ID0, where);
    wait_flag(SrcPipe, DstPipe, EVENT_ID0, where);
}
// The A2A3 ffts_cross_core_sync message: base count in bits 0-3, mode in
// bits 4-5, event id in bits 8-11 (pto-isa's npu/a2a3/TSync.hpp).
PTO_INTERNAL constexpr uint16_t getFFTSMsg(uint16_t mode, uint16_t eventId, uint16_t baseConst = 0x1) {
    return static_cast<uint16_t>((baseConst & 0xf) + ((mode & 0x3) << 4) + ((eventId & 0xf) << 8));
}
template <typename... WaitEvents>
PTO_INTERNAL void WaitAllEvents(WaitEvents&... events) {
    TSYNC(CallSite{}, events...);
}

// ------------------------------------------------------------ Cube <-> Vector FIFOs

enum TileSplitAxis : uint8_t { TILE_NO_SPLIT = 0, TILE_UP_DOWN = 1, TILE_LEFT_RIGHT = 2 };

enum Direction : uint8_t { UNDEFINED = 0, DIR_C2V = 1, DIR_V2C = 2, DIR_BOTH = DIR_C2V | DIR_V2C };

// A ring of SlotNum slots of SlotSize bytes in the GM buffer given to the
// constructor. Each core constructs its own TPipe object; the producer and
// consumer indices live in it, the data and the flags are shared.
template <uint8_t FlagID, uint8_t DirType, uint32_t SlotSize, uint32_t SlotNum, uint32_t LocalSlotNum = 2,
          bool IsNoSplit = false, bool EN_UNIT_FLAG = false>
struct TPipe {
    static_assert(DirType == DIR_C2V || DirType == DIR_V2C || DirType == DIR_BOTH,
                  "TPipe: DirType must be Direction::DIR_C2V, DIR_V2C or DIR_BOTH");
    static_assert(SlotNum >= 1 && SlotNum <= 15,
                  "TPipe: SlotNum must be 1..15 (the cross-core flag counters hold at most 15 signals)");
    static_assert(SlotSize > 0, "TPipe: SlotSize must be positive");
    static constexpr uint8_t kFlagId = FlagID;
    static constexpr uint8_t kDir = DirType;
    static constexpr uint32_t kSlotSize = SlotSize;
    static constexpr uint32_t kSlotNum = SlotNum;
    // Flags used: ready/free per direction; C2V takes FlagID, FlagID+1, V2C the next two under DIR_BOTH.
    static constexpr int kLastFlag = FlagID + (DirType == DIR_BOTH ? 3 : 1);
    static_assert(kLastFlag <= 15, "TPipe: FlagID + 1 (FlagID + 3 for DIR_BOTH) must be at most 15");

    struct Cursor {
        uint32_t tileIndex = 0;
    };
    uint8_t* gm = nullptr;
    uint32_t c2vConsumerBuf = 0, v2cConsumerBuf = 0;
    Cursor prod, cons;

    TPipe(__gm__ void* gmSlotBuffer, uint32_t c2vConsBuf, uint32_t v2cConsBuf)
        : gm(static_cast<uint8_t*>(gmSlotBuffer)), c2vConsumerBuf(c2vConsBuf), v2cConsumerBuf(v2cConsBuf) {}
};

template <class T>
struct is_tpipe : std::false_type {};
template <uint8_t F, uint8_t D, uint32_t S, uint32_t N, uint32_t L, bool I, bool U>
struct is_tpipe<TPipe<F, D, S, N, L, I, U>> : std::true_type {};

namespace ptosim_impl {

// Which way data flows for the calling core: the Cube core produces C2V and
// consumes V2C, the Vector cores the reverse.
template <class P>
constexpr int ready_flag(bool c2v) {
    return P::kFlagId + (!c2v && P::kDir == DIR_BOTH ? 2 : 0);
}

inline void check_mix(Core& c, const char* op, const SourceLoc& loc) {
    if (c.subblock_dim != 2 && c.type == ptosim::CoreType::AIV)
        ptosim::fault(loc, std::string(op) + ": TPipe connects a Cube core with its two Vector sub-blocks; launch the "
                                             "kernel as a mix kernel (a vector-only launch has no Cube core)");
}

// Sends one signal on `flag` from the calling core to the other side of its
// mix group, with the flag primitive of the target.
inline void pipe_signal(Core& c, int flag, Pipe pipe, const SourceLoc& loc) {
    if (c.target == ptosim::Target::A2A3) {
        // mode 2: Cube -> both Vector cores, or both Vector cores -> Cube
        ptosim::intr::ffts_cross_core_sync(loc, pipe, 1u | (2u << 4) | (static_cast<uint64_t>(flag) << 8));
    } else if (c.type == ptosim::CoreType::AIC) {
        ptosim::intr::set_intra_block(loc, pipe, flag);
        ptosim::intr::set_intra_block(loc, pipe, flag + 16);
    } else {
        ptosim::intr::set_intra_block(loc, pipe, flag);
    }
}

// Waits for one signal on `flag` from the other side (on A5 the Cube core
// needs one from each sub-block; on A2A3 the FFTS barrier already joined them).
inline void pipe_wait(Core& c, int flag, Pipe pipe, const SourceLoc& loc) {
    if (c.target == ptosim::Target::A2A3) {
        ptosim::intr::wait_flag_dev(loc, flag);
    } else if (c.type == ptosim::CoreType::AIC) {
        ptosim::intr::wait_intra_block(loc, pipe, flag);
        ptosim::intr::wait_intra_block(loc, pipe, flag + 16);
    } else {
        ptosim::intr::wait_intra_block(loc, pipe, flag);
    }
}

template <class P>
constexpr bool dir_allows(bool c2v) {
    return c2v ? (P::kDir & DIR_C2V) != 0 : (P::kDir & DIR_V2C) != 0;
}

template <class P>
void check_direction(bool c2v, const char* op, const SourceLoc& loc) {
    if (!dir_allows<P>(c2v))
        ptosim::fault(loc, std::string(op) + ": this TPipe is " + (P::kDir == DIR_C2V ? "DIR_C2V" : "DIR_V2C") +
                               " but the call moves data " + (c2v ? "Cube -> Vector" : "Vector -> Cube") +
                               "; declare the TPipe with the matching Direction (or DIR_BOTH)");
}

// Producer side before writing a slot: once every slot has been used, wait
// for the consumer to free the oldest.
template <class P>
void producer_acquire(Core& c, P& p, bool c2v, const SourceLoc& loc) {
    if (p.prod.tileIndex >= P::kSlotNum) pipe_wait(c, ready_flag<P>(c2v) + 1, c2v ? Pipe::FIX : Pipe::MTE3, loc);
}

template <class P>
uint8_t* slot_of(const P& p, uint32_t index, const char* op, const SourceLoc& loc) {
    if (!p.gm) ptosim::fault(loc, std::string(op) + ": the TPipe has no GM slot buffer; construct it with one");
    uint8_t* s = p.gm + static_cast<uint64_t>(index % P::kSlotNum) * P::kSlotSize;
    ptosim::check_gm(s, P::kSlotSize, op, loc);
    return s;
}

// Copies between a tile's valid region and a slot laid out row-major with
// row width `width` elements, starting at (r0, c0).
template <class T>
void copy_tile_slot(uint8_t* tile, uint8_t* slot, int vr, int vc, int width, int r0, int c0, bool to_slot) {
    constexpr size_t es = sizeof(typename T::DType);
    for (int r = 0; r < vr; ++r)
        for (int col = 0; col < vc; ++col) {
            uint8_t* t = at<T>(tile, r, col);
            uint8_t* s = slot + (static_cast<uint64_t>(r0 + r) * width + c0 + col) * es;
            if (to_slot) std::memcpy(s, t, es);
            else std::memcpy(t, s, es);
        }
}

// The slot's row width and the calling core's origin in it. The Cube-side
// tile defines the slot's shape; a Vector sub-block owns a half under
// TILE_UP_DOWN (rows) or TILE_LEFT_RIGHT (columns).
template <class T, TileSplitAxis Split>
void slot_geometry(const Core& c, int& width, int& r0, int& c0) {
    const bool vec = c.type == ptosim::CoreType::AIV;
    const int s = vec ? static_cast<int>(c.subblock_id) : 0;
    width = T::Cols * (vec && Split == TILE_LEFT_RIGHT ? 2 : 1);
    r0 = vec && Split == TILE_UP_DOWN ? s * T::Rows : 0;
    c0 = vec && Split == TILE_LEFT_RIGHT ? s * T::Cols : 0;
}

template <class P, class T, TileSplitAxis Split>
void fifo_move(CallSite cs, P& p, T& tile, bool push, const char* op) {
    static_assert(T::Loc == TileType::Acc || T::Loc == TileType::Vec || T::Loc == TileType::Mat,
                  "TPUSH/TPOP move Acc tiles (Cube producer), Mat tiles (Cube consumer) or Vec tiles");
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    check_mix(c, op, loc);
    const bool cube = c.type == ptosim::CoreType::AIC;
    if (cube != (T::Loc != TileType::Vec))
        ptosim::fault(loc, std::string(op) + ": a " + tile_type_name(T::Loc) + " tile on " + c.name() +
                               "; the Cube core moves Acc/Mat tiles, the Vector cores Vec tiles");
    const bool c2v = cube == push;
    check_direction<P>(c2v, op, loc);
    uint8_t* base = tile_base(c, tile, op, push ? "source" : "destination", loc);
    int width, r0, c0;
    slot_geometry<T, Split>(c, width, r0, c0);
    if (static_cast<uint64_t>(cube ? T::Rows : T::Rows * (Split == TILE_UP_DOWN ? 2 : 1)) * width *
            sizeof(typename T::DType) > P::kSlotSize)
        ptosim::fault(loc, std::string(op) + ": one FIFO entry of this tile needs more than the TPipe's SlotSize of " +
                               std::to_string(P::kSlotSize) + " bytes; raise SlotSize");
    const int flag = ready_flag<P>(c2v);
    OpRecord rec = make_record(op, push ? (cube ? Pipe::FIX : Pipe::MTE3) : Pipe::MTE2, cs);
    if (push) {
        producer_acquire(c, p, c2v, loc);
        uint8_t* slot = slot_of(p, p.prod.tileIndex, op, loc);
        record_tile(rec, false, tile).write(Space::GM, reinterpret_cast<uintptr_t>(slot), P::kSlotSize);
        ptosim::dispatch(c, rec);
        copy_tile_slot<T>(base, slot, tile.GetValidRow(), tile.GetValidCol(), width, r0, c0, true);
        ++p.prod.tileIndex;
        pipe_signal(c, flag, rec.pipe, loc);
    } else {
        pipe_wait(c, flag, Pipe::MTE2, loc);
        uint8_t* slot = slot_of(p, p.cons.tileIndex, op, loc);
        rec.read(Space::GM, reinterpret_cast<uintptr_t>(slot), P::kSlotSize);
        record_tile(rec, true, tile);
        ptosim::dispatch(c, rec);
        copy_tile_slot<T>(base, slot, tile.GetValidRow(), tile.GetValidCol(), width, r0, c0, false);
        ++p.cons.tileIndex;
        // A2A3's TPOP frees the slot itself; A5 waits for TFREE.
        if (c.target == ptosim::Target::A2A3) pipe_signal(c, flag + 1, Pipe::MTE2, loc);
    }
}

template <class P>
void fifo_free(CallSite cs, P&, bool gm_flow, const char* op) {
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    check_mix(c, op, loc);
    const bool c2v = c.type == ptosim::CoreType::AIV;  // the consumer frees
    check_direction<P>(c2v, op, loc);
    ptosim::dispatch(c, make_record(op, Pipe::MTE2, cs));
    if (gm_flow || c.target == ptosim::Target::A5) pipe_signal(c, ready_flag<P>(c2v) + 1, Pipe::MTE2, loc);
}

// GlobalData flow: the caller reads or writes the slot through gm itself.
template <class P, class G, TileSplitAxis Split>
void fifo_view(CallSite cs, P& p, G& g, int what, const char* op) {  // 0 TALLOC, 1 TPUSH, 2 TPOP
    Core& c = ptosim::core();
    const SourceLoc loc = loc_of(cs);
    check_mix(c, op, loc);
    const bool cube = c.type == ptosim::CoreType::AIC;
    const bool c2v = cube == (what != 2);
    check_direction<P>(c2v, op, loc);
    const int flag = ready_flag<P>(c2v);
    const Pipe pipe = what == 2 ? Pipe::MTE2 : cube ? Pipe::FIX : Pipe::MTE3;
    OpRecord rec = make_record(op, pipe, cs);
    rec.dtype = dtype_name<typename G::RawDType>();
    if (what == 1) {
        ptosim::dispatch(c, rec);
        pipe_signal(c, flag, pipe, loc);
        return;
    }
    if (what == 0) producer_acquire(c, p, c2v, loc);
    else pipe_wait(c, flag, pipe, loc);
    uint32_t& index = what == 0 ? p.prod.tileIndex : p.cons.tileIndex;
    uint8_t* slot = slot_of(p, index, op, loc);
    ++index;
    ptosim::dispatch(c, rec);
    int64_t off = 0;
    if (!cube && Split == TILE_UP_DOWN) off = static_cast<int64_t>(c.subblock_id) * g.GetShape(3) * g.GetStride(3);
    if (!cube && Split == TILE_LEFT_RIGHT) off = static_cast<int64_t>(c.subblock_id) * g.GetShape(4);
    g.set_data(reinterpret_cast<typename G::DType*>(slot) + off);
}

}  // namespace ptosim_impl

// TileData flow. Split defaults to TILE_NO_SPLIT so that TPUSH(pipe, tile)
// also compiles, which lets the call-site macro name the caller's line.
template <typename Pipe_, typename TileProd, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileProd>)
PTO_INST RecordEvent TPUSH(CallSite cs, Pipe_& pipe, TileProd& tile, WaitEvents&... events) {
    TSYNC(cs, events...);
    ptosim_impl::fifo_move<Pipe_, TileProd, Split>(cs, pipe, tile, true, "TPUSH");
    return {};
}
template <typename Pipe_, typename TileProd, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileProd>)
PTO_INST RecordEvent TPUSH(Pipe_& pipe, TileProd& tile, WaitEvents&... events) {
    return TPUSH<Pipe_, TileProd, Split>(CallSite{}, pipe, tile, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileData>)
PTO_INST RecordEvent TPUSH(CallSite cs, TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPUSH<Pipe_, TileData, TILE_NO_SPLIT>(cs, pipe, tile, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileData>)
PTO_INST RecordEvent TPUSH(TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPUSH<Pipe_, TileData, TILE_NO_SPLIT>(CallSite{}, pipe, tile, events...);
}

template <typename Pipe_, typename TileCons, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileCons>)
PTO_INST RecordEvent TPOP(CallSite cs, Pipe_& pipe, TileCons& tile, WaitEvents&... events) {
    TSYNC(cs, events...);
    ptosim_impl::fifo_move<Pipe_, TileCons, Split>(cs, pipe, tile, false, "TPOP");
    return {};
}
template <typename Pipe_, typename TileCons, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileCons>)
PTO_INST RecordEvent TPOP(Pipe_& pipe, TileCons& tile, WaitEvents&... events) {
    return TPOP<Pipe_, TileCons, Split>(CallSite{}, pipe, tile, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileData>)
PTO_INST RecordEvent TPOP(CallSite cs, TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPOP<Pipe_, TileData, TILE_NO_SPLIT>(cs, pipe, tile, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_tile_data_v<TileData>)
PTO_INST RecordEvent TPOP(TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPOP<Pipe_, TileData, TILE_NO_SPLIT>(CallSite{}, pipe, tile, events...);
}

// TFREE(pipe): a no-op on A2A3 (TPOP already freed the slot), the slot
// release on A5.
template <typename Pipe_, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value)
PTO_INST RecordEvent TFREE(CallSite cs, Pipe_& pipe, WaitEvents&... events) {
    TSYNC(cs, events...);
    ptosim_impl::fifo_free(cs, pipe, false, "TFREE");
    return {};
}
template <typename Pipe_, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value)
PTO_INST RecordEvent TFREE(Pipe_& pipe, WaitEvents&... events) {
    return TFREE<Pipe_, Split>(CallSite{}, pipe, events...);
}

// GlobalData flow: TALLOC / TPUSH commit on the producer, TPOP / TFREE on the consumer.
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TALLOC(CallSite cs, Pipe_& pipe, GlobalData& g, WaitEvents&... events) {
    TSYNC(cs, events...);
    ptosim_impl::fifo_view<Pipe_, GlobalData, Split>(cs, pipe, g, 0, "TALLOC");
    return {};
}
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TALLOC(Pipe_& pipe, GlobalData& g, WaitEvents&... events) {
    return TALLOC<Pipe_, GlobalData, Split>(CallSite{}, pipe, g, events...);
}
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TPUSH(CallSite cs, Pipe_& pipe, GlobalData& g, WaitEvents&... events) {
    TSYNC(cs, events...);
    ptosim_impl::fifo_view<Pipe_, GlobalData, Split>(cs, pipe, g, 1, "TPUSH");
    return {};
}
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TPUSH(Pipe_& pipe, GlobalData& g, WaitEvents&... events) {
    return TPUSH<Pipe_, GlobalData, Split>(CallSite{}, pipe, g, events...);
}
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TPOP(CallSite cs, Pipe_& pipe, GlobalData& g, WaitEvents&... events) {
    TSYNC(cs, events...);
    ptosim_impl::fifo_view<Pipe_, GlobalData, Split>(cs, pipe, g, 2, "TPOP");
    return {};
}
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TPOP(Pipe_& pipe, GlobalData& g, WaitEvents&... events) {
    return TPOP<Pipe_, GlobalData, Split>(CallSite{}, pipe, g, events...);
}
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TFREE(CallSite cs, Pipe_& pipe, GlobalData&, WaitEvents&... events) {
    TSYNC(cs, events...);
    ptosim_impl::fifo_free(cs, pipe, true, "TFREE");
    return {};
}
template <typename Pipe_, typename GlobalData, TileSplitAxis Split = TILE_NO_SPLIT, typename... WaitEvents>
    requires(is_tpipe<Pipe_>::value && is_global_data_v<GlobalData>)
PTO_INST RecordEvent TFREE(Pipe_& pipe, GlobalData& g, WaitEvents&... events) {
    return TFREE<Pipe_, GlobalData, Split>(CallSite{}, pipe, g, events...);
}

// ------------------------------------------------------------ TPRINT, TPREFETCH

namespace ptosim_impl {
template <class E>
void print_elem(const uint8_t* p) {
    const E v = load_elem<E>(p);
    // Enough digits to read each value back exactly.
    if constexpr (std::is_same_v<E, half>) std::printf(" %.5g", static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_same_v<E, bfloat16_t>) std::printf(" %.4g", static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_floating_point_v<E>) std::printf(" %.9g", static_cast<double>(v));
    else if constexpr (std::is_signed_v<E>) std::printf(" %lld", static_cast<long long>(v));
    else std::printf(" %llu", static_cast<unsigned long long>(v));
}
}  // namespace ptosim_impl

// Prints the tile's valid region to stdout (format: docs/isa/sync.md, "TPRINT").
template <typename TileData>
PTO_INST void TPRINT(CallSite cs, TileData& tile) {
    static_assert(is_tile_data_v<TileData>, "TPRINT takes a tile");
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
    uint8_t* base = ptosim_impl::tile_base(c, tile, "TPRINT", "source", loc);
    ptosim::OpRecord rec = ptosim_impl::make_record("TPRINT", ptosim::Pipe::S, cs);
    ptosim_impl::record_tile(rec, false, tile);
    ptosim::dispatch(c, rec);
    const int vr = tile.GetValidRow(), vc = tile.GetValidCol();
    std::printf("TPRINT %s: %s %s %dx%d valid %dx%d on %s\n", loc.str().c_str(), ptosim_impl::tile_type_name(TileData::Loc),
                ptosim_impl::dtype_name<typename TileData::DType>(), TileData::Rows, TileData::Cols, vr, vc, c.name().c_str());
    for (int r = 0; r < vr; ++r) {
        std::printf("  [%d]", r);
        for (int col = 0; col < vc; ++col) ptosim_impl::print_elem<typename TileData::DType>(ptosim_impl::at<TileData>(base, r, col));
        std::printf("\n");
    }
    std::fflush(stdout);
}
template <typename TileData>
PTO_INST void TPRINT(TileData& tile) {
    TPRINT(CallSite{}, tile);
}

// A cache hint: recorded as an MTE2 read of the tile-sized GM span, no data moves.
template <typename TileData, typename GlobalData>
PTO_INST RecordEvent TPREFETCH(CallSite cs, TileData& dst, GlobalData& src) {
    static_assert(is_tile_data_v<TileData> && is_global_data_v<GlobalData>, "TPREFETCH(tile, globalTensor)");
    ptosim::Core& c = ptosim::core();
    ptosim::OpRecord rec = ptosim_impl::make_record("TPREFETCH", ptosim::Pipe::MTE2, cs);
    rec.dtype = ptosim_impl::dtype_name<typename TileData::DType>();
    rec.read(ptosim::Space::GM, reinterpret_cast<uintptr_t>(src.data()), ptosim_impl::tile_bytes<TileData>());
    (void)dst;
    ptosim::dispatch(c, rec);
    return {};
}
template <typename TileData, typename GlobalData>
PTO_INST RecordEvent TPREFETCH(TileData& dst, GlobalData& src) {
    return TPREFETCH(CallSite{}, dst, src);
}


// L2 prefetch through the SDMA engine. ptosim models no L2 cache, so the
// prefetch moves no data; it is bounds-checked and recorded as a GM read.
namespace comm {
enum class DmaEngine : uint8_t { SDMA, URMA, RDMA };
struct AsyncSession {};
struct AsyncEvent {
    uint64_t handle = 0;
    DmaEngine engine = DmaEngine::SDMA;
    AsyncEvent() = default;
    AsyncEvent(uint64_t h, DmaEngine e) : handle(h), engine(e) {}
    bool valid() const { return handle != 0; }
    // Completion is immediate: the simulated prefetch has no latency.
    bool Wait(const AsyncSession&) const { return true; }
    bool Test(const AsyncSession&) const { return true; }
};
}  // namespace comm

struct PrefetchAsyncContext {
    __gm__ uint8_t* workspace = nullptr;
    comm::AsyncSession session;
    PrefetchAsyncContext() = default;
    explicit PrefetchAsyncContext(__gm__ uint8_t* ws) : workspace(ws) {}
};

template <typename GlobalData, typename... WaitEvents>
PTO_INST comm::AsyncEvent TPREFETCH_ASYNC(CallSite cs, GlobalData& src, PrefetchAsyncContext& ctx, WaitEvents&... events) {
    static_assert(is_global_data_v<GlobalData>, "TPREFETCH_ASYNC(globalTensor, ctx) prefetches a GlobalTensor into L2");
    TSYNC(cs, events...);
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
    if (ctx.workspace == nullptr)
        ptosim::fault(loc, "TPREFETCH_ASYNC: the PrefetchAsyncContext has no SDMA workspace (nullptr); construct it "
                           "with the GM workspace the host prepared for the kernel");
    // Only a packed 1-D region qualifies; anything else yields the invalid
    // event (handle 0), as pto-isa documents.
    int64_t elems = 1;
    bool packed = true;
    for (int d = 4; d >= 0; --d) {
        packed = packed && src.GetStride(d) == elems;
        elems *= src.GetShape(d);
    }
    ptosim::OpRecord rec = ptosim_impl::make_record("TPREFETCH_ASYNC", ptosim::Pipe::MTE2, cs);
    rec.dtype = ptosim_impl::dtype_name<typename GlobalData::DType>();
    if (!packed) {
        ptosim::dispatch(c, rec);
        return {};
    }
    const uint64_t bytes = static_cast<uint64_t>(elems) * sizeof(typename GlobalData::DType);
    ptosim::check_gm(src.data(), bytes, "TPREFETCH_ASYNC source", loc);
    rec.read(ptosim::Space::GM, reinterpret_cast<uintptr_t>(src.data()), bytes);
    rec.bytes = bytes;
    ptosim::dispatch(c, rec);
    return comm::AsyncEvent(1, comm::DmaEngine::SDMA);
}
template <typename GlobalData, typename... WaitEvents>
PTO_INST comm::AsyncEvent TPREFETCH_ASYNC(GlobalData& src, PrefetchAsyncContext& ctx, WaitEvents&... events) {
    return TPREFETCH_ASYNC(CallSite{}, src, ctx, events...);
}

// ------------------------------------------------------------ SYNCALL

enum class SyncCoreType : uint8_t { AIVOnly, AICOnly, Mix };
enum class SyncAllMode : uint8_t { Hard, Soft };
// int32 values per core in the software-mode workspace: one 32-byte line.
constexpr int32_t SYNCALL_SOFT_SLOT_INT32 = 8;

namespace ptosim_impl {
constexpr ptosim::intr::SyncAllCores syncall_cores(SyncCoreType t) {
    return t == SyncCoreType::AIVOnly   ? ptosim::intr::SyncAllCores::AIV
           : t == SyncCoreType::AICOnly ? ptosim::intr::SyncAllCores::AIC
                                        : ptosim::intr::SyncAllCores::Mix;
}
// SYNCALL is usually called with explicit template arguments, which a
// function-like call-site macro cannot wrap; a source_location default
// argument names the caller's line instead.
inline CallSite call_site(const std::source_location& where) {
    return CallSite{where.file_name(), static_cast<int>(where.line())};
}

template <SyncAllMode Mode, SyncCoreType CoreType, typename GlobalData, typename UbTile>
void syncall_soft(GlobalData& gm, UbTile* ub, int32_t used_cores, CallSite cs) {
    static_assert(std::is_same_v<typename GlobalData::DType, int32_t>,
                  "SYNCALL: the software-mode workspace is a GlobalTensor<int32_t, ...>");
    if constexpr (Mode == SyncAllMode::Hard) {  // the workspace is ignored
        ptosim::intr::syncall_hard(loc_of(cs), syncall_cores(CoreType));
    } else {
        uint64_t ub_bytes = 0;
        if constexpr (!std::is_same_v<UbTile, void>) {
            static_assert(std::is_same_v<typename UbTile::DType, int32_t>, "SYNCALL: the UB workspace is an int32_t tile");
            ub_bytes = tile_bytes<UbTile>();
            (void)tile_base(ptosim::core(), *ub, "SYNCALL", "UB workspace", loc_of(cs));
        }
        ptosim::intr::syncall_soft(loc_of(cs), syncall_cores(CoreType), gm.data(), ub_bytes, used_cores);
    }
}
}  // namespace ptosim_impl

template <SyncCoreType CoreType = SyncCoreType::AIVOnly>
PTO_INST void SYNCALL(std::source_location where = std::source_location::current()) {
    static_assert(!PTOSIM_TARGET_A5 || CoreType != SyncCoreType::Mix,
                  "SYNCALL<SyncCoreType::Mix> in hardware mode is not supported on A5 (no FFTS context for mix "
                  "kernels); use SYNCALL<SyncAllMode::Soft, SyncCoreType::Mix>(gmWorkspace, ubTile, l1Tile)");
    ptosim::intr::syncall_hard(ptosim_impl::loc_of(ptosim_impl::call_site(where)), ptosim_impl::syncall_cores(CoreType));
}

template <SyncAllMode Mode, SyncCoreType CoreType = SyncCoreType::AIVOnly, typename GlobalData, typename TileData,
          std::enable_if_t<is_global_data_v<GlobalData> && is_tile_data_v<TileData> && TileData::Loc == TileType::Vec,
                           int> = 0>
PTO_INST void SYNCALL(GlobalData& gmWorkspace, TileData& ubWorkspace, int32_t usedCores = 0,
                      std::source_location where = std::source_location::current()) {
    static_assert(CoreType == SyncCoreType::AIVOnly,
                  "SYNCALL(gmWorkspace, ubTile) is the AIV-only software barrier; for AIC-only pass an L1 (Mat) tile, "
                  "for Mix pass both a UB and an L1 tile");
    ptosim_impl::syncall_soft<Mode, CoreType>(gmWorkspace, &ubWorkspace, usedCores, ptosim_impl::call_site(where));
}

template <SyncAllMode Mode, SyncCoreType CoreType = SyncCoreType::AICOnly, typename GlobalData, typename TileData,
          std::enable_if_t<is_global_data_v<GlobalData> && is_tile_data_v<TileData> && TileData::Loc == TileType::Mat,
                           int> = 0>
PTO_INST void SYNCALL(GlobalData& gmWorkspace, TileData& l1Workspace, int32_t usedCores = 0,
                      std::source_location where = std::source_location::current()) {
    static_assert(CoreType == SyncCoreType::AICOnly,
                  "SYNCALL(gmWorkspace, l1Tile) is the AIC-only software barrier; for AIV-only pass a UB (Vec) tile");
    static_assert(!PTOSIM_TARGET_A5 || Mode == SyncAllMode::Hard,
                  "SYNCALL<SyncAllMode::Soft, SyncCoreType::AICOnly> is not supported on A5: the A5 Cube core has no "
                  "L1->GM write path; use the hardware barrier SYNCALL<SyncCoreType::AICOnly>()");
    (void)l1Workspace;
    ptosim_impl::syncall_soft<Mode, CoreType, GlobalData, void>(gmWorkspace, nullptr, usedCores, ptosim_impl::call_site(where));
}

template <SyncAllMode Mode, SyncCoreType CoreType = SyncCoreType::Mix, typename GlobalData, typename UbTile,
          typename L1Tile,
          std::enable_if_t<is_global_data_v<GlobalData> && is_tile_data_v<UbTile> && UbTile::Loc == TileType::Vec &&
                               is_tile_data_v<L1Tile> && L1Tile::Loc == TileType::Mat,
                           int> = 0>
PTO_INST void SYNCALL(GlobalData& gmWorkspace, UbTile& ubWorkspace, L1Tile& l1Workspace, int32_t usedCores = 0,
                      std::source_location where = std::source_location::current()) {
    static_assert(CoreType == SyncCoreType::Mix, "SYNCALL(gmWorkspace, ubTile, l1Tile) is the Mix software barrier");
    static_assert(!PTOSIM_TARGET_A5 || Mode == SyncAllMode::Soft,
                  "SYNCALL<SyncAllMode::Hard, SyncCoreType::Mix> is not supported on A5 (no FFTS context for mix "
                  "kernels); use SyncAllMode::Soft");
    (void)l1Workspace;
    if (ptosim::core().type == ptosim::CoreType::AIV)
        ptosim_impl::syncall_soft<Mode, CoreType>(gmWorkspace, &ubWorkspace, usedCores, ptosim_impl::call_site(where));
    else
        ptosim_impl::syncall_soft<Mode, CoreType, GlobalData, void>(gmWorkspace, nullptr, usedCores, ptosim_impl::call_site(where));
}

}  // namespace pto
