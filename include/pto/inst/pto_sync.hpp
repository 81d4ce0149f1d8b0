// PTO-level synchronisation and pipes: Event, TSYNC, TPipe with TPUSH/TPOP/TFREE, SYNCALL; TPRINT,
// TPREFETCH, TPREFETCH_ASYNC.
// Everything here is built on the runtime's flag primitives (ptosim::intr),
// so a missing Record or FIFO record ends in the same deadlock report as a missing
// set_flag or ffts_cross_core_sync would (docs/isa/sync.md).
#pragma once
#ifdef PTOSIM_HERE
#error "pto/inst/pto_sync.hpp is included after pto/call_sites.hpp, whose call-site macros would rewrite its declarations: include the instruction headers first"
#endif
#include <pto/common/intrinsics.hpp>
#include <pto/common/sim_support.hpp>
#include <pto/inst/tload_tstore.hpp>
#include <pto/inst/tmov.hpp>
#include <ptosim/intrinsics.hpp>
#include <ptosim/runtime.hpp>
#include <ptosim/urma.hpp>
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
// EventIdCounter does; eight ids exist per pair. The counter is the calling
// core's and starts at EVENT_ID0 in every launch: a process-wide static would
// be shared by every simulated core and every stream.
template <pipe_t Src, pipe_t Dst>
struct EventIdCounter {
    static event_t GetNextId() { return static_cast<event_t>(ptosim::intr::next_event_id(src(), dst())); }
    static void Reset() { ptosim::intr::reset_event_id(src(), dst()); }
    static event_t PeekNextId() { return static_cast<event_t>(ptosim::intr::peek_event_id(src(), dst())); }

private:
    static constexpr ptosim::Pipe src() { return static_cast<ptosim::Pipe>(Src); }
    static constexpr ptosim::Pipe dst() { return static_cast<ptosim::Pipe>(Dst); }
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
PTO_INST_CALLER void TSYNC(WaitEvents&... events) {
    TSYNC(PTOSIM_CALLER, events...);
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
PTO_INST_CALLER void WaitAllEvents(WaitEvents&... events) {
    TSYNC(PTOSIM_CALLER, events...);
}

// ------------------------------------------------------------ Cube <-> Vector FIFOs
//
// pto-isa's cross-core FIFO (include/pto/common/fifo.hpp, npu/a2a3 and npu/a5
// TPush.hpp/TPop.hpp): a TPipe carries tiles from a producer core to a
// consumer core of the same mix group through a ring of Depth entries in GM,
// or on A5 directly into the Vector cores' UB or the Cube core's L1. The
// kernel drives the protocol itself through the per-call status flags of
// pipe.prod / pipe.cons; the data moves with ptosim's own TSTORE, TLOAD, TMOV
// and TINSERT, the signals with the target's cross-core flag intrinsics
// (docs/isa/sync.md, "TPipe, TPUSH, TPOP, TFREE").

enum class FIFOType : uint8_t {
    GM_FIFO = 0,
    VEC_FIFO = 1,
    MAT_FIFO = 2,
};

enum class VecCubeRatio : uint8_t {
    V1C1_VEC0 = 0,
    V1C1_VEC1 = 1,
    V2C1_VECS = 2,
};

template <FIFOType T>
struct IsGMFiFo {
    static constexpr bool value = T == FIFOType::GM_FIFO;
};
template <FIFOType T>
struct IsTileFiFo {
    static constexpr bool value = T == FIFOType::VEC_FIFO || T == FIFOType::MAT_FIFO;
};

template <typename DataType, FIFOType FifoType, int Depth, int Period, typename Enable = void>
struct DataFIFO;

// A ring in GM: entry i starts at fifoBase + (i % Depth) * the entry size.
template <typename DataType, FIFOType FifoType, int Depth, int Period>
struct DataFIFO<DataType, FifoType, Depth, Period, std::enable_if_t<IsGMFiFo<FifoType>::value>> {
    static constexpr int fifoDepth = Depth;
    static constexpr int fifoPeriod = Period;
    static constexpr FIFOType fifoType = FifoType;
    using DType = DataType;

    __gm__ DataType* fifoBase;

    PTO_INTERNAL DataFIFO(__gm__ DataType* ptr) : fifoBase(ptr) {}
    __gm__ DataType* getBasePtr() { return fifoBase; }
};

// A ring in a local buffer, described by the consumer's tile: its address is
// the first entry. Built from a pointer the tile is read at each push (a later
// TASSIGN moves the ring); built from the tile, its address at construction
// is kept, as pto-isa keeps tile.data().
template <typename DataType, FIFOType FifoType, int Depth, int Period>
struct DataFIFO<DataType, FifoType, Depth, Period, std::enable_if_t<IsTileFiFo<FifoType>::value>> {
    static constexpr int fifoDepth = Depth;
    static constexpr int fifoPeriod = Period;
    static constexpr FIFOType fifoType = FifoType;

    DataType* tilePtr;

    PTO_INTERNAL DataFIFO(DataType* ptr) : tilePtr(ptr) {}
    PTO_INTERNAL DataFIFO(DataType& tile) : tilePtr(&tile), base_(tile.address()), captured_(true) {}

    PTO_INTERNAL uint64_t entryAddress() const { return captured_ ? base_ : tilePtr->address(); }

private:
    uint64_t base_ = 0;
    bool captured_ = false;
};

// Which operation produces and consumes an entry; the producer's operation
// fixes the direction and the pipes the flags travel on. TMOV_C2UB,
// TINSERT_V2L1 and NONE exist on A5 only.
enum class TSyncOpType : uint8_t {
    TSTORE_C2GM_UFON,
    TSTORE_C2GM_UFOFF,
    TSTORE_V2GM,
    TMOV_C2UB,
    TINSERT_V2L1,
    TLOAD,
    NONE,
};

template <TSyncOpType ProducerOp, TSyncOpType ConsumerOp>
struct TSyncTraits {
    static constexpr bool is_cube_to_vec_gm =
        ProducerOp == TSyncOpType::TSTORE_C2GM_UFON || ProducerOp == TSyncOpType::TSTORE_C2GM_UFOFF;
    static constexpr bool is_cube_to_vec_ub = ProducerOp == TSyncOpType::TMOV_C2UB;
    static constexpr bool is_cube_to_vec = is_cube_to_vec_gm || is_cube_to_vec_ub;
    static constexpr bool is_vec_to_cube_gm = ProducerOp == TSyncOpType::TSTORE_V2GM;
    static constexpr bool is_vec_to_cube_ub = ProducerOp == TSyncOpType::TINSERT_V2L1;
    static constexpr bool is_vec_to_cube = is_vec_to_cube_gm || is_vec_to_cube_ub;

#if PTOSIM_TARGET_A5
    static_assert(is_cube_to_vec || is_vec_to_cube,
                  "TPipe: the producer operation must be TSTORE_C2GM_UFON, TSTORE_C2GM_UFOFF, TMOV_C2UB (Cube) or "
                  "TSTORE_V2GM, TINSERT_V2L1 (Vector)");
#else
    static_assert(is_cube_to_vec_gm || is_vec_to_cube_gm,
                  "TPipe: on A2A3 the producer operation must be TSTORE_C2GM_UFON, TSTORE_C2GM_UFOFF (Cube) or "
                  "TSTORE_V2GM (Vector); TMOV_C2UB and TINSERT_V2L1 move data without GM and exist on A5 only");
    static_assert(ConsumerOp == TSyncOpType::TLOAD, "TPipe: on A2A3 the consumer operation must be TSyncOpType::TLOAD");
#endif
};

#if !PTOSIM_TARGET_A5
// FFTS synchronisation modes (A2A3): the field in bits 4-5 of the
// ffts_cross_core_sync message.
enum TSyncCVMode : uint8_t { CUBE_ALL_CORE_SYNC = 0, VEC_ALL_CORE_SYNC = 0, VEC_SUBCORES_SYNC = 1, CV_CORES_SYNC = 2 };
#endif

namespace ptosim_impl {

inline CallSite fifo_site(const std::source_location& where) {
    return CallSite{where.file_name(), static_cast<int>(where.line())};
}

// pto-isa's own TPUSH/TPOP kernels (tests/npu/a2a3/.../tpushpop_cv, _vc)
// never call set_ffts_base_addr: the FIFO signals use the FFTS context the
// mix launch provides. When the kernel set none, that context is lent for
// the one signal; a wrong address the kernel set still faults.
struct LaunchFftsContext {
    Core& c;
    uint64_t saved;
    explicit LaunchFftsContext(Core& core) : c(core), saved(core.ffts_base) {
        if (saved == 0) c.ffts_base = ptosim::Device::get().ffts_ctrl_addr();
    }
    ~LaunchFftsContext() { c.ffts_base = saved; }
};

inline void fifo_ffts_signal(Pipe pipe, int flag, const SourceLoc& loc) {
    LaunchFftsContext ctx(ptosim::core());
    // mode 2: Cube -> both Vector cores, or both Vector cores -> Cube
    ptosim::intr::ffts_cross_core_sync(loc, pipe, getFFTSMsg(2, static_cast<uint16_t>(flag)));
}

// Every FIFO step belongs to one side: the producer of a C2V pipe is the
// Cube core, its consumer the Vector cores, and the reverse for V2C.
inline void fifo_check_side(bool cube_side, const char* op, const char* role, const char* opname,
                            const SourceLoc& loc) {
    const Core& c = ptosim::core();
    if ((c.type == ptosim::CoreType::AIC) != cube_side)
        ptosim::fault(loc, std::string(op) + ": the " + role + " of this TPipe (" + opname + ") runs on the " +
                               (cube_side ? "Cube core" : "Vector cores") + ", but " + c.name() +
                               " called it; guard the call with the core type (__DAV_CUBE__ / __DAV_VEC__)");
}

inline uint64_t fifo_slot(int tile_id, int depth, const char* op, const char* side, const SourceLoc& loc) {
    if (tile_id < 0)
        ptosim::fault(loc, std::string(op) + ": the " + side + "'s tile id is " + std::to_string(tile_id) +
                               "; call pipe." + (side[0] == 'p' ? "prod" : "cons") +
                               ".setTileId(id, subId) first (the entry is id % Depth)");
    return static_cast<uint64_t>(tile_id % depth);
}

// A Vec tile at a UB address, for the strided views pto-isa's FIFO moves take.
template <class T>
T tile_at(uint64_t address) {
    T t;
    t.assign_address(address);
    return t;
}

constexpr const char* sync_op_name(TSyncOpType op) {
    switch (op) {
        case TSyncOpType::TSTORE_C2GM_UFON: return "TSTORE_C2GM_UFON";
        case TSyncOpType::TSTORE_C2GM_UFOFF: return "TSTORE_C2GM_UFOFF";
        case TSyncOpType::TSTORE_V2GM: return "TSTORE_V2GM";
        case TSyncOpType::TMOV_C2UB: return "TMOV_C2UB";
        case TSyncOpType::TINSERT_V2L1: return "TINSERT_V2L1";
        case TSyncOpType::TLOAD: return "TLOAD";
        default: return "NONE";
    }
}

}  // namespace ptosim_impl

template <uint8_t FlagID, FIFOType FiFoType, uint8_t FiFoDepth, uint8_t FiFoSyncT, typename TileDataProd,
          typename TileDataCons, TSyncOpType ProducerOp, TSyncOpType ConsumerOp,
          VecCubeRatio VCRatio = VecCubeRatio::V2C1_VECS>
struct TPipe {
    using Traits = TSyncTraits<ProducerOp, ConsumerOp>;
    static constexpr bool is_c2v = Traits::is_cube_to_vec;
    static constexpr bool is_c2v_gm = Traits::is_cube_to_vec_gm;
    static constexpr bool is_c2v_ub = Traits::is_cube_to_vec_ub;
    static constexpr bool is_v2c = Traits::is_vec_to_cube;
    static constexpr bool is_v2c_gm = Traits::is_vec_to_cube_gm;
    static constexpr bool is_v2c_ub = Traits::is_vec_to_cube_ub;
    // On A5 the Cube core addresses Vector sub-block 1 with flag id + 16.
    static constexpr int VEC_CORE_ID_OFFSET = 16;

    static_assert(is_tile_data_v<TileDataProd> && is_tile_data_v<TileDataCons>,
                  "TPipe: TileDataProd and TileDataCons are Tile types (the producer's and the consumer's tile)");
    static_assert(FiFoDepth >= 1, "TPipe: the FIFO depth must be at least 1 (entries are addressed as tile id % Depth)");
    static_assert(PTOSIM_TARGET_A5 || FiFoType == FIFOType::GM_FIFO,
                  "TPipe: A2A3 FIFOs live in GM (FIFOType::GM_FIFO); VEC_FIFO and MAT_FIFO need A5's direct Cube "
                  "<-> Vector paths (TMOV Acc->Vec, TINSERT Vec->Mat)");

    using DataFiFo = std::conditional_t<FiFoType == FIFOType::GM_FIFO,
                                        DataFIFO<typename TileDataCons::DType, FiFoType, FiFoDepth, FiFoSyncT>,
                                        DataFIFO<TileDataCons, FiFoType, FiFoDepth, FiFoSyncT>>;

#if !PTOSIM_TARGET_A5
    PTO_INTERNAL static uint64_t getFFTSMsgCfg(TSyncCVMode mode, uint16_t flagID, uint16_t base_const = 0x1) {
        return getFFTSMsg(static_cast<uint16_t>(mode), flagID, base_const);
    }
#endif

    struct Producer {
        // How the instructions find the protocol of this pipe.
        using ptosim_pipe = TPipe;
        static constexpr bool ptosim_is_producer = true;

        int tile_id = -1;
        int sub_tile_id = -1;
        bool isAllocate = false;
        bool isRecord = false;
        int entryOffset = 0;

        PTO_INTERNAL Producer() = default;
        PTO_INTERNAL void setTileId(int t_id, int sub_t_id) {
            tile_id = t_id;
            sub_tile_id = sub_t_id;
        }
        PTO_INTERNAL int getTileId() const { return tile_id; }
        PTO_INTERNAL int getSubTileId() const { return sub_tile_id; }
        PTO_INTERNAL void setAllocateStatus(bool allocate) { isAllocate = allocate; }
        PTO_INTERNAL bool getAllocateStatus() const { return isAllocate; }
        PTO_INTERNAL void setRecordStatus(bool record) { isRecord = record; }
        PTO_INTERNAL bool getRecordStatus() const { return isRecord; }
        // Bytes added to the entry's address (on A5's MAT_FIFO: rows).
        PTO_INTERNAL void setEntryOffset(int offset) { entryOffset = offset; }

        // Waits until the consumer has freed an entry. IsStart waits on the
        // release flags of A5's TFREE (FlagID + 2) instead.
#if PTOSIM_TARGET_A5
        template <bool IsStart = false>
        PTO_INTERNAL void allocate(std::source_location where = std::source_location::current()) const {
            TPipe::allocate_impl(ptosim_impl::fifo_site(where), IsStart ? 2 : 1);
        }
#else
        PTO_INTERNAL void allocate(std::source_location where = std::source_location::current()) const {
            TPipe::allocate_impl(ptosim_impl::fifo_site(where), 1);
        }
#endif
        // Tells the consumer an entry is ready.
        PTO_INTERNAL void record(std::source_location where = std::source_location::current()) const {
            TPipe::record_impl(ptosim_impl::fifo_site(where));
        }
        // Writes the tile into entry tile_id % Depth.
        PTO_INTERNAL void push(DataFiFo& fifo, TileDataProd& tile,
                               std::source_location where = std::source_location::current()) {
            TPipe::push_impl(ptosim_impl::fifo_site(where), *this, fifo, tile);
        }
    };

    struct Consumer {
        using ptosim_pipe = TPipe;
        static constexpr bool ptosim_is_producer = false;

        int tile_id = -1;
        int sub_tile_id = -1;
        bool isWait = false;
        bool isFree = false;
        int entryOffset = 0;

        PTO_INTERNAL Consumer() = default;
        PTO_INTERNAL void setTileId(int tid, int sub_tid) {
            tile_id = tid;
            sub_tile_id = sub_tid;
        }
        PTO_INTERNAL int getTileId() const { return tile_id; }
        PTO_INTERNAL int getSubTileId() const { return sub_tile_id; }
        PTO_INTERNAL void setEntryOffset(int offset) { entryOffset = offset; }
        PTO_INTERNAL void setWaitStatus(bool wait) { isWait = wait; }
        PTO_INTERNAL bool getWaitStatus() const { return isWait; }
        PTO_INTERNAL void setFreeStatus(bool free) { isFree = free; }
        PTO_INTERNAL bool getFreeStatus() const { return isFree; }

        // Waits until the producer has recorded an entry.
        PTO_INTERNAL void wait(std::source_location where = std::source_location::current()) const {
            TPipe::wait_impl(ptosim_impl::fifo_site(where));
        }
        // Gives an entry back to the producer; IsRelease (A5, TFREE) signals
        // on FlagID + 2 instead of FlagID + 1.
#if PTOSIM_TARGET_A5
        template <bool IsRelease = false>
        PTO_INTERNAL void free(std::source_location where = std::source_location::current()) const {
            TPipe::free_impl(ptosim_impl::fifo_site(where), IsRelease ? 2 : 1);
        }
#else
        PTO_INTERNAL void free(std::source_location where = std::source_location::current()) const {
            TPipe::free_impl(ptosim_impl::fifo_site(where), 1);
        }
#endif
        // Reads entry tile_id % Depth into the tile (GM FIFOs; the A5 local
        // FIFOs already hold the data where the consumer reads it).
        PTO_INTERNAL void pop(DataFiFo& fifo, TileDataCons& tile,
                              std::source_location where = std::source_location::current()) {
            TPipe::pop_impl(ptosim_impl::fifo_site(where), *this, fifo, tile);
        }
    };

    DataFiFo fifo;
    Producer prod;
    Consumer cons;

    template <FIFOType T = FiFoType, std::enable_if_t<T == FIFOType::GM_FIFO, int> = 0>
    PTO_INTERNAL explicit TPipe(__gm__ typename TileDataCons::DType* fifoBase) : fifo(fifoBase), prod(), cons() {}
    template <FIFOType T = FiFoType, std::enable_if_t<T != FIFOType::GM_FIFO, int> = 0>
    PTO_INTERNAL explicit TPipe(TileDataCons* tilePtr) : fifo(tilePtr), prod(), cons() {}
    template <FIFOType T = FiFoType, std::enable_if_t<T != FIFOType::GM_FIFO, int> = 0>
    PTO_INTERNAL explicit TPipe(TileDataCons& tile) : fifo(tile), prod(), cons() {}

    // ---- the protocol, per target (pto-isa's npu/a2a3 and npu/a5 TPush.hpp)

    static void allocate_impl(CallSite cs, int channel) {
        const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
        ptosim_impl::fifo_check_side(is_c2v, "TPUSH", "producer", ptosim_impl::sync_op_name(ProducerOp), loc);
        const int flag = FlagID + channel;
        if constexpr (PTOSIM_TARGET_A5) {
            if constexpr (is_c2v) {  // one free from each Vector sub-block
                ptosim::intr::wait_intra_block(loc, ptosim::Pipe::FIX, flag);
                ptosim::intr::wait_intra_block(loc, ptosim::Pipe::FIX, flag + VEC_CORE_ID_OFFSET);
            } else {
                ptosim::intr::wait_intra_block(loc, ptosim::Pipe::MTE3, flag);
            }
        } else {
            ptosim::intr::wait_flag_dev(loc, flag);
        }
    }

    static void record_impl(CallSite cs) {
        const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
        ptosim_impl::fifo_check_side(is_c2v, "TPUSH", "producer", ptosim_impl::sync_op_name(ProducerOp), loc);
        constexpr ptosim::Pipe pipe = is_c2v ? ptosim::Pipe::FIX : ptosim::Pipe::MTE3;
        if constexpr (PTOSIM_TARGET_A5) {
            ptosim::intr::set_intra_block(loc, pipe, FlagID);
            // The Cube core signals each sub-block; a sub-block's own id
            // reaches the Cube core as id + 16 * subblock.
            if constexpr (is_c2v) ptosim::intr::set_intra_block(loc, pipe, FlagID + VEC_CORE_ID_OFFSET);
        } else {
            ptosim_impl::fifo_ffts_signal(pipe, FlagID, loc);
        }
    }

    static void wait_impl(CallSite cs) {
        const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
        ptosim_impl::fifo_check_side(is_v2c, "TPOP", "consumer", ptosim_impl::sync_op_name(ProducerOp), loc);
        if constexpr (PTOSIM_TARGET_A5) {
            constexpr ptosim::Pipe pipe = is_c2v_ub ? ptosim::Pipe::V : is_v2c_ub ? ptosim::Pipe::MTE1 : ptosim::Pipe::MTE2;
            ptosim::intr::wait_intra_block(loc, pipe, FlagID);
            if constexpr (is_v2c) ptosim::intr::wait_intra_block(loc, pipe, FlagID + VEC_CORE_ID_OFFSET);
        } else {
            ptosim::intr::wait_flag_dev(loc, FlagID);
        }
    }

    static void free_impl(CallSite cs, int channel) {
        const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
        ptosim_impl::fifo_check_side(is_v2c, "TPOP", "consumer", ptosim_impl::sync_op_name(ProducerOp), loc);
        const int flag = FlagID + channel;
        if constexpr (PTOSIM_TARGET_A5) {
            constexpr ptosim::Pipe pipe = is_c2v_gm ? ptosim::Pipe::MTE2 : is_c2v_ub ? ptosim::Pipe::V : ptosim::Pipe::MTE1;
            ptosim::intr::set_intra_block(loc, pipe, flag);
            if constexpr (is_v2c) ptosim::intr::set_intra_block(loc, pipe, flag + VEC_CORE_ID_OFFSET);
        } else {
            ptosim_impl::fifo_ffts_signal(ptosim::Pipe::MTE2, flag, loc);
        }
    }

    static void push_impl(CallSite cs, Producer& p, DataFiFo& fifo, TileDataProd& tile) {
        using namespace ptosim_impl;
        using T = typename TileDataProd::DType;
        constexpr int ProdM = TileDataProd::Rows, ProdN = TileDataProd::Cols;
        constexpr int ConsM = TileDataCons::Rows, ConsN = TileDataCons::Cols;
        static_assert(TileDataProd::Loc == TileType::Acc || TileDataProd::Loc == TileType::Vec,
                      "TPUSH: the producer tile is an Acc tile (Cube core) or a Vec tile (Vector core)");
        const SourceLoc loc = loc_of(cs);
        fifo_check_side(is_c2v, "TPUSH", "producer", sync_op_name(ProducerOp), loc);
        const uint64_t slot = fifo_slot(p.tile_id, FiFoDepth, "TPUSH", "producer", loc);
        OpRecord rec = make_record("TPUSH", TileDataProd::Loc == TileType::Acc ? ptosim::Pipe::FIX : ptosim::Pipe::MTE3, cs);
        rec.dtype = dtype_name<T>();
        ptosim::dispatch(ptosim::core(), rec);
        if constexpr (FiFoType == FIFOType::GM_FIFO) {
            uint8_t* base = reinterpret_cast<uint8_t*>(fifo.fifoBase);
            if constexpr (TileDataProd::Loc == TileType::Acc) {
                // The Acc tile is one block of ConsN / ProdN producer-sized
                // blocks per entry. The unit flag (UFON) changes no result here.
                constexpr int factor = ConsN / ProdN;
                using G = GlobalTensor<T, Shape<1, 1, 1, ProdM, ProdN>, Stride<1, 1, 1, ProdN, 1>>;
                G g(reinterpret_cast<T*>(base + slot * factor * ProdM * ProdN * sizeof(T) + p.entryOffset));
                tstore<TileDataProd, G, AtomicType::AtomicNone, ReluPreMode::NoRelu>(cs, g, tile);
            } else {
                // A Vec tile wider than the consumer's goes out in ConsN-wide
                // column blocks, each contiguous in the entry.
                constexpr int factor = ProdN / ConsN;
                static_assert(factor >= 1, "TPUSH Vec->GM_FIFO: the producer tile must be at least as wide as the "
                                           "consumer's (pto-isa stores ProdN / ConsN column blocks)");
                using G = GlobalTensor<T, Shape<1, 1, 1, ProdM, ConsN>, Stride<1, 1, 1, ConsN, 1>>;
                using Sub = Tile<TileType::Vec, T, ProdM, ProdN, BLayout::RowMajor, ProdM, ConsN>;
                T* entry = reinterpret_cast<T*>(base + slot * factor * ConsM * ConsN * sizeof(T) + p.entryOffset);
                for (int b = 0; b < factor; ++b) {
                    G g(entry + static_cast<int64_t>(b) * ConsM * ConsN);
                    Sub sub = tile_at<Sub>(tile.address() + static_cast<uint64_t>(b) * ConsN * sizeof(T));
                    tstore<Sub, G, AtomicType::AtomicNone, ReluPreMode::NoRelu>(cs, g, sub);
                }
            }
        } else {
            push_local(cs, p, fifo, tile, slot);
        }
    }

    static void push_local(CallSite cs, Producer& p, DataFiFo& fifo, TileDataProd& tile, uint64_t slot) {
        using namespace ptosim_impl;
        using T = typename TileDataProd::DType;
        constexpr int ProdM = TileDataProd::Rows, ProdN = TileDataProd::Cols;
        constexpr int ConsM = TileDataCons::Rows, ConsN = TileDataCons::Cols;
        constexpr int vecCores = VCRatio == VecCubeRatio::V2C1_VECS ? 2 : 1;
        constexpr bool splitM = ProdM != ConsM && ProdN == ConsN && vecCores == 2;
        constexpr bool splitN = ProdM == ConsM && ProdN != ConsN && vecCores == 2;
        constexpr bool whole = ProdM == ConsM && ProdN == ConsN && vecCores == 1;
        const uint64_t first = fifo.entryAddress();
        if constexpr (TileDataProd::Loc == TileType::Acc) {
            static_assert(FiFoType == FIFOType::VEC_FIFO,
                          "TPUSH: an Acc tile goes into a GM_FIFO or a VEC_FIFO (the Vector cores' UB)");
            static_assert(splitM || splitN || whole,
                          "TPUSH Acc->VEC_FIFO: with V2C1_VECS the Vec tile is the Acc tile split in rows (same Cols) "
                          "or columns (same Rows) between the two sub-blocks; with V1C1 it has the Acc tile's shape");
            if constexpr (splitM) {
                constexpr int vecM = ProdM / vecCores / (ConsN / ProdN);
                using V = Tile<TileType::Vec, T, vecM, ProdN, BLayout::RowMajor, vecM, ProdN>;
                V v = tile_at<V>(first + slot * vecM * ProdN * sizeof(T) + p.entryOffset);
                tmov<V, TileDataProd, AccToVecMode::DualModeSplitM, ReluPreMode::NoRelu>(cs, v, tile);
            } else if constexpr (splitN) {
                static_assert(ConsN >= ProdN, "TPUSH Acc->VEC_FIFO split in columns: pto-isa sizes each half as "
                                              "ProdN / 2 / (ConsN / ProdN), which needs ConsN >= ProdN");
                constexpr int vecN = ProdN / vecCores / (ConsN / ProdN);
                using V = Tile<TileType::Vec, T, ProdM, vecN, BLayout::RowMajor, ProdM, vecN>;
                V v = tile_at<V>(first + slot * ProdM * vecN * sizeof(T) + p.entryOffset);
                tmov<V, TileDataProd, AccToVecMode::DualModeSplitN, ReluPreMode::NoRelu>(cs, v, tile);
            } else {
                // pto-isa moves a whole tile to sub-block 0 for either V1C1 ratio.
                TileDataCons v = tile_at<TileDataCons>(first + slot * ProdM * ProdN * sizeof(T) + p.entryOffset);
                tmov<TileDataCons, TileDataProd, AccToVecMode::SingleModeVec0, ReluPreMode::NoRelu>(cs, v, tile);
            }
        } else {
            static_assert(FiFoType == FIFOType::MAT_FIFO,
                          "TPUSH: a Vec tile goes into a GM_FIFO or a MAT_FIFO (the Cube core's L1)");
            static_assert(splitM || splitN || whole,
                          "TPUSH Vec->MAT_FIFO: with V2C1_VECS each sub-block's Vec tile is the Mat tile split in "
                          "rows (same Cols) or columns (same Rows); with V1C1 it has the Mat tile's shape");
            static_assert(!TileDataProd::isRowMajor && TileDataProd::SFractal == SLayout::RowMajor,
                          "TPUSH Vec->MAT_FIFO: the Vec tile must be NZ (BLayout::ColMajor, SLayout::RowMajor), the "
                          "layout the UB->L1 copy of pto-isa's TINSERT_CUSTOM reads");
            TileDataCons m = tile_at<TileDataCons>(first + slot * ConsM * ConsN * sizeof(T));
            int row = 0, col = 0;
            if constexpr (splitM) row = ConsM / vecCores * static_cast<int>(ptosim::core().subblock_id) + p.entryOffset;
            // pto-isa inserts both sub-blocks' halves at column ProdN.
            if constexpr (splitN) col = ProdN;
            tinsert<TileDataCons, TileDataProd, ReluPreMode::NoRelu>(cs, m, tile, row, col);
        }
    }

    static void pop_impl(CallSite cs, Consumer& q, DataFiFo& fifo, TileDataCons& tile) {
        using namespace ptosim_impl;
        using T = typename TileDataCons::DType;
        constexpr int ProdM = TileDataProd::Rows, ProdN = TileDataProd::Cols;
        constexpr int ConsM = TileDataCons::Rows, ConsN = TileDataCons::Cols;
        static_assert(TileDataCons::Loc == TileType::Vec || TileDataCons::Loc == TileType::Mat,
                      "TPOP: the consumer tile is a Vec tile (Vector core) or a Mat tile (Cube core)");
        const SourceLoc loc = loc_of(cs);
        fifo_check_side(is_v2c, "TPOP", "consumer", sync_op_name(ProducerOp), loc);
        const uint64_t slot = fifo_slot(q.tile_id, FiFoDepth, "TPOP", "consumer", loc);
        OpRecord rec = make_record("TPOP", FiFoType == FIFOType::GM_FIFO ? ptosim::Pipe::MTE2 : ptosim::Pipe::S, cs);
        rec.dtype = dtype_name<T>();
        ptosim::dispatch(ptosim::core(), rec);
        if constexpr (FiFoType == FIFOType::GM_FIFO) {
            uint8_t* base = reinterpret_cast<uint8_t*>(fifo.fifoBase);
            if constexpr (TileDataCons::Loc == TileType::Vec) {
                // ConsN / ProdN producer blocks side by side in the tile.
                constexpr int factor = ConsN / ProdN;
                static_assert(factor >= 1, "TPOP GM_FIFO->Vec: the consumer tile must be at least as wide as the "
                                           "producer's (pto-isa loads ConsN / ProdN column blocks)");
                using G = GlobalTensor<T, Shape<1, 1, 1, ConsM, ProdN>, Stride<1, 1, 1, ProdN, 1>>;
                using Sub = Tile<TileType::Vec, T, ConsM, ConsN, BLayout::RowMajor, ConsM, ProdN>;
                T* entry = reinterpret_cast<T*>(base + slot * factor * ProdM * ProdN * sizeof(T) + q.entryOffset);
                for (int b = 0; b < factor; ++b) {
                    G g(entry + static_cast<int64_t>(b) * ProdM * ProdN);
                    Sub sub = tile_at<Sub>(tile.address() + static_cast<uint64_t>(b) * ProdN * sizeof(T));
                    TLOAD(cs, sub, g);
                }
            } else {
                using G = GlobalTensor<T, Shape<1, 1, 1, ConsM, ConsN>, Stride<1, 1, 1, ConsN, 1>>;
                G g(reinterpret_cast<T*>(base + slot * ConsM * ProdN * sizeof(T) + q.entryOffset));
                TLOAD(cs, tile, g);
            }
        } else {
            static_assert(FiFoType == (TileDataCons::Loc == TileType::Vec ? FIFOType::VEC_FIFO : FIFOType::MAT_FIFO),
                          "TPOP: a Vec tile pops from a GM_FIFO or VEC_FIFO, a Mat tile from a GM_FIFO or MAT_FIFO");
            (void)fifo;
            (void)tile;
        }
    }
};

template <class T>
struct is_tpipe : std::false_type {};
template <uint8_t F, FIFOType Ty, uint8_t D, uint8_t P, class TP, class TC, TSyncOpType PO, TSyncOpType CO,
          VecCubeRatio R>
struct is_tpipe<TPipe<F, Ty, D, P, TP, TC, PO, CO, R>> : std::true_type {};

namespace ptosim_impl {
template <class T>
concept fifo_producer = requires { typename T::ptosim_pipe; } && T::ptosim_is_producer;
template <class T>
concept fifo_consumer = requires { typename T::ptosim_pipe; } && !T::ptosim_is_producer;
}  // namespace ptosim_impl

// TPUSH(prod, tile, fifo): when prod's allocate status is set, wait for a
// free entry; write the tile into entry prod.tile_id % Depth; when its record
// status is set, tell the consumer.
template <typename PipeProd, typename TileData, typename DataFifo, typename... WaitEvents>
    requires(ptosim_impl::fifo_producer<PipeProd> && is_tile_data_v<TileData>)
PTO_INST RecordEvent TPUSH(CallSite cs, PipeProd& prod, TileData& tile, DataFifo& fifo, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using P = typename PipeProd::ptosim_pipe;
    if (prod.getAllocateStatus()) P::allocate_impl(cs, 1);
    P::push_impl(cs, prod, fifo, tile);
    if (prod.getRecordStatus()) P::record_impl(cs);
    return {};
}
template <typename PipeProd, typename TileData, typename DataFifo, typename... WaitEvents>
    requires(ptosim_impl::fifo_producer<PipeProd> && is_tile_data_v<TileData>)
PTO_INST_CALLER RecordEvent TPUSH(PipeProd& prod, TileData& tile, DataFifo& fifo, WaitEvents&... events) {
    return TPUSH(PTOSIM_CALLER, prod, tile, fifo, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tile_data_v<TileData> && is_tpipe<Pipe_>::value)
PTO_INST RecordEvent TPUSH(CallSite cs, TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPUSH(cs, pipe.prod, tile, pipe.fifo, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tile_data_v<TileData> && is_tpipe<Pipe_>::value)
PTO_INST_CALLER RecordEvent TPUSH(TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPUSH(PTOSIM_CALLER, pipe.prod, tile, pipe.fifo, events...);
}

// TPOP(cons, tile, fifo): when cons's wait status is set, wait for the
// producer's record; read entry cons.tile_id % Depth into the tile; when its
// free status is set, give the entry back.
template <typename PipeCons, typename TileData, typename DataFifo, typename... WaitEvents>
    requires(ptosim_impl::fifo_consumer<PipeCons> && is_tile_data_v<TileData>)
PTO_INST RecordEvent TPOP(CallSite cs, PipeCons& cons, TileData& tile, DataFifo& fifo, WaitEvents&... events) {
    ptosim_impl::wait_events(cs, events...);
    using P = typename PipeCons::ptosim_pipe;
    if (cons.getWaitStatus()) P::wait_impl(cs);
    P::pop_impl(cs, cons, fifo, tile);
    if (cons.getFreeStatus()) P::free_impl(cs, 1);
    return {};
}
template <typename PipeCons, typename TileData, typename DataFifo, typename... WaitEvents>
    requires(ptosim_impl::fifo_consumer<PipeCons> && is_tile_data_v<TileData>)
PTO_INST_CALLER RecordEvent TPOP(PipeCons& cons, TileData& tile, DataFifo& fifo, WaitEvents&... events) {
    return TPOP(PTOSIM_CALLER, cons, tile, fifo, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tile_data_v<TileData> && is_tpipe<Pipe_>::value)
PTO_INST RecordEvent TPOP(CallSite cs, TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPOP(cs, pipe.cons, tile, pipe.fifo, events...);
}
template <typename TileData, typename Pipe_, typename... WaitEvents>
    requires(is_tile_data_v<TileData> && is_tpipe<Pipe_>::value)
PTO_INST_CALLER RecordEvent TPOP(TileData& tile, Pipe_& pipe, WaitEvents&... events) {
    return TPOP(PTOSIM_CALLER, pipe.cons, tile, pipe.fifo, events...);
}

// TFREE(cons): when cons's free status is set, release the entry on A5's
// second free channel (FlagID + 2), which Producer::allocate<true>() waits on.
// pto-isa's TFREE reads getFreeStatus() and calls free<true>() on its
// argument: only A5's TPipe::Consumer has both.
template <typename PipeCons, typename... WaitEvents>
PTO_INST RecordEvent TFREE(CallSite cs, PipeCons& cons, WaitEvents&... events) {
    static_assert(PTOSIM_TARGET_A5 || sizeof(PipeCons) == 0,
                  "TFREE is not available on A2A3: the A2A3 consumer has no release channel (pto-isa's TFREE calls "
                  "free<true>(), which A2A3's TPipe::Consumer lacks); free entries in TPOP with "
                  "pipe.cons.setFreeStatus(true)");
    static_assert(!is_tpipe<PipeCons>::value,
                  "TFREE takes the pipe's consumer, TFREE(pipe.cons): pto-isa's TFREE calls getFreeStatus() and "
                  "free<true>(), which TPipe::Consumer has and TPipe does not");
    static_assert(is_tpipe<PipeCons>::value || ptosim_impl::fifo_consumer<PipeCons>,
                  "TFREE(cons): cons must be a TPipe<...>::Consumer");
    ptosim_impl::wait_events(cs, events...);
    if constexpr (ptosim_impl::fifo_consumer<PipeCons> && PTOSIM_TARGET_A5) {
        ptosim::dispatch(ptosim::core(), ptosim_impl::make_record("TFREE", ptosim::Pipe::S, cs));
        if (cons.getFreeStatus()) PipeCons::ptosim_pipe::free_impl(cs, 2);
    }
    return {};
}
template <typename PipeCons, typename... WaitEvents>
PTO_INST_CALLER RecordEvent TFREE(PipeCons& cons, WaitEvents&... events) {
    return TFREE(PTOSIM_CALLER, cons, events...);
}

// ------------------------------------------------------------ TPRINT, TPREFETCH

namespace ptosim_impl {
template <class E>
void print_elem(const uint8_t* p) {
    const E v = load_elem<E>(p);
    // Enough digits to read each value back exactly.
    if constexpr (std::is_same_v<E, half>) ptosim::device_printf(" %.5g", static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_same_v<E, bfloat16_t>) ptosim::device_printf(" %.4g", static_cast<double>(static_cast<float>(v)));
    else if constexpr (std::is_floating_point_v<E>) ptosim::device_printf(" %.9g", static_cast<double>(v));
    else if constexpr (std::is_signed_v<E>) ptosim::device_printf(" %lld", static_cast<long long>(v));
    else ptosim::device_printf(" %llu", static_cast<unsigned long long>(v));
}
}  // namespace ptosim_impl

// Prints the tile's valid region to stdout (format: docs/isa/sync.md, "TPRINT").
template <typename TileData>
PTO_INST void TPRINT(CallSite cs, TileData& tile) {
    static_assert(is_tile_data_v<TileData>, "TPRINT takes a tile");
    ptosim::Core& c = ptosim::core();
    const ptosim::SourceLoc loc = ptosim_impl::loc_of(cs);
    uint8_t* base = ptosim_impl::tile_base(c, tile, "TPRINT", "source", loc);
    // pto-isa's TPRINT drains every pipe before the scalar unit reads the tile.
    ptosim::intr::pipe_barrier(loc, ptosim::Pipe::ALL);
    ptosim::OpRecord rec = ptosim_impl::make_record("TPRINT", ptosim::Pipe::S, cs);
    ptosim_impl::record_tile(rec, false, tile);
    ptosim::dispatch(c, rec);
    const int vr = tile.GetValidRow(), vc = tile.GetValidCol();
    ptosim::device_printf("TPRINT %s: %s %s %dx%d valid %dx%d on %s\n", loc.str().c_str(), ptosim_impl::tile_type_name(TileData::Loc),
                ptosim_impl::dtype_name<typename TileData::DType>(), TileData::Rows, TileData::Cols, vr, vc, c.name().c_str());
    for (int r = 0; r < vr; ++r) {
        ptosim::device_printf("  [%d]", r);
        for (int col = 0; col < vc; ++col) ptosim_impl::print_elem<typename TileData::DType>(ptosim_impl::at<TileData>(base, r, col));
        ptosim::device_printf("\n");
    }
    std::fflush(stdout);
}
template <typename TileData>
PTO_INST_CALLER void TPRINT(TileData& tile) {
    TPRINT(PTOSIM_CALLER, tile);
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
PTO_INST_CALLER RecordEvent TPREFETCH(TileData& dst, GlobalData& src) {
    return TPREFETCH(PTOSIM_CALLER, dst, src);
}


// L2 prefetch through the SDMA engine. ptosim models no L2 cache, so the
// prefetch moves no data; it is bounds-checked and recorded as a GM read.
namespace comm {
enum class DmaEngine : uint8_t { SDMA, URMA, RDMA };
// An asynchronous DMA session (pto-isa's AsyncSession): BuildAsyncSession
// (pto/comm/TPutAsync.hpp) fills it from the SDMA workspace; TPUT_ASYNC and
// TGET_ASYNC number their transfers in it. docs/many-devices.md.
struct AsyncSession {
    DmaEngine engine{DmaEngine::SDMA};
    bool valid{false};
    __gm__ uint8_t* contextGm{nullptr};
    uint64_t tmpBufAddr{0};  // the scratch tile: UB offset and bytes
    uint32_t tmpBufSize{0};
    uint32_t syncId{0};
    uint32_t channelGroupIdx{0};
    uint64_t blockBytes{1024 * 1024};
    uint64_t commBlockOffset{0};
    uint32_t queueNum{1};
    mutable uint64_t posted{0};  // transfers issued in this session
    uint32_t destRankId{0};      // URMA: the peer, and the queue pair
    uint32_t qpIdx{0};
};
struct AsyncEvent {
    uint64_t handle = 0;
    DmaEngine engine = DmaEngine::SDMA;
    AsyncEvent() = default;
    AsyncEvent(uint64_t h, DmaEngine e) : handle(h), engine(e) {}
    bool valid() const { return handle != 0; }
    // ptosim completes a transfer before TPUT_ASYNC/TGET_ASYNC return (and a
    // prefetch has no latency), so a valid event of the session is complete;
    // the invalid event (handle 0) waits for nothing, as in pto-isa. An event
    // the session never issued is not complete (false).
    // A URMA event (pto-isa's handle: the peer in the high word, the send
    // queue's producer index after the WQE in the low) waits on the
    // channel's completion queue, as pto-isa's poller does: false when a
    // completion carries an error status.
    __attribute__((always_inline)) bool Wait(const AsyncSession& s) const {
        if (engine == DmaEngine::URMA && handle != 0) return urma_done(s, true);
        return handle == 0 || s.posted == 0 || handle <= s.posted;
    }
    __attribute__((always_inline)) bool Test(const AsyncSession& s) const {
        if (engine == DmaEngine::URMA && handle != 0) return urma_done(s, false);
        return Wait(s);
    }

private:
    // Not inlined: its caller is the kernel's line the engine's faults name.
    __attribute__((noinline)) bool urma_done(const AsyncSession& s, bool wait) const {
        const ptosim::SourceLoc loc = ptosim::caller_loc(__builtin_return_address(0));
        const uint32_t peer = static_cast<uint32_t>(handle >> 32), head = static_cast<uint32_t>(handle);
        return wait ? ptosim::urma::wait(loc, s.contextGm, peer, s.qpIdx, head)
                    : ptosim::urma::test(loc, s.contextGm, peer, s.qpIdx, head);
    }
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
PTO_INST_CALLER comm::AsyncEvent TPREFETCH_ASYNC(GlobalData& src, PrefetchAsyncContext& ctx, WaitEvents&... events) {
    return TPREFETCH_ASYNC(PTOSIM_CALLER, src, ctx, events...);
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
