// Simulated time (docs/cost-model.md): a cost per instruction on its pipe,
// from the figures of the SoC profile (docs/soc-profiles.md, "Timing"), and
// per-core pipe clocks ordered by the same flags, barriers and cross-core
// signals the checkers follow. The Engine is independent of a launch so a
// tool can feed it records it made up (tools/cost_table) and tests can feed
// it hand-made sequences.
#pragma once
#include <ptosim/core.hpp>
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace ptosim {
struct SocProfile;
}

namespace ptosim::cost {

// Which published per-instruction formulas price the vector instructions
// they cover (docs/cost-model.md, "Per-instruction calibration"); the
// others, and every instruction under None, take the op-class rates below.
enum class Calibration : uint8_t { None, A2A3, A5 };

// Every figure of one SoC. Rates are per cycle of one core; latencies in
// cycles; the clock turns cycles into time.
struct Params {
    double clock_ghz = 1.8;
    double gm_gbps = 1600;  // HBM: shared by every core that runs at the same time
    // L2: serves GM reads of lines the launch already read (docs/cost-model.md).
    double l2_gbps = 5700;
    double l2_line = 512;  // bytes per line of the first-touch tracking
    // The write-back L2 (docs/cost-model.md, "The model"): its capacity in
    // bytes. Above 0, a GM write goes at the L2 share and leaves its lines
    // dirty in L2, and once the lines in L2 exceed the capacity the least
    // recently used (in the order the engine receives the records) leave
    // it, the dirty ones written back at the HBM share. 0 here so hand-made sequences keep their
    // hand-computed times (no capacity, writes at the HBM share); set by
    // params_for from the profile (docs/soc-profiles.md, "Timing").
    double l2_bytes = 0;
    // Cube MACs per cycle by input type.
    double cube_fp16 = 4096, cube_fp32 = 2048, cube_int8 = 8192, cube_fp8 = 8192, cube_fp4 = 8192;
    // Vector bytes per cycle (of the widest operand) by op class.
    double vec_plain = 256, vec_transcendental = 64, vec_reduce = 128, vec_gather = 32, vec_sort = 32;
    // Per-core peak bytes per cycle of the movers.
    double mte2 = 64;   // GM -> UB/L1
    double mte3 = 64;   // UB -> GM, and UB <-> L1 moves
    double mte1 = 128;  // L1 -> L0A/L0B (TEXTRACT, TIMG2COL, TMOV)
    double fix = 64;    // L0C -> GM/L1/UB
    // Start-up latency of one instruction on each pipe class.
    double lat_mte2 = 300, lat_mte3 = 150, lat_mte1 = 20, lat_fix = 50, lat_vec = 16, lat_cube = 16;
    double issue = 1;          // scalar issue of one instruction
    double flag = 8;           // set_flag -> the waiting pipe sees it
    double barrier = 4;        // pipe_barrier
    double cross_core = 400;   // FFTS / intra-block flag and SYNCALL between cores
    double launch_us = 1;      // fixed cost of a launch, outside the cores
    // Fixed costs no per-instruction term produces (docs/cost-model.md, "Fixed
    // costs"); 0 here so hand-made sequences keep their hand-computed times,
    // set by params_for.
    double block_start = 0;    // cycles from a block's slot to its first instruction
    double lat_hbm = 0;        // extra start-up of a GM read that first-touches a line (HBM, not L2)
    Calibration calibration = Calibration::None;
    // The link between ranks (docs/cost-model.md, "Across ranks"): a GM
    // access of another rank's window is priced as a transfer over it, its
    // start-up plus its bytes at the link's rate, instead of as a local one.
    // Ranks rank / ranks_per_node alike share a node and reach each other
    // over HCCS (link_*), others over RoCE (roce_*). 0 GB/s: no link figure,
    // a remote access costs what a local one does.
    double link_gbps = 0, lat_link = 0;  // HCCS: GB/s of one transfer, cycles of start-up
    double roce_gbps = 0, lat_roce = 0;  // between nodes
    double sdma_gbps = 0, lat_sdma = 0;  // an SDMA entry that crosses ranks (TPUT_ASYNC, TGET_ASYNC)
    // A prefetch of device memory into L2 (aclrtCmoAsync, ACL_RT_CMO_TYPE_PREFETCH):
    // a task of its stream that takes lat_prefetch cycles plus its bytes at
    // the HBM bandwidth (gm_gbps); docs/cost-model.md, "Prefetch into L2".
    double lat_prefetch = 0;
    int ranks_per_node = 8;
    // What one rank's links to its peers carry at once within a node (GB/s
    // per peer link), shared equally by the cores of a launch that run at
    // the same time, as HBM is; 0: not shared.
    double link_peak_gbps = 0;
    double sys_cnt_mhz = 50;             // the SYS_CNT counter a kernel reads (get_sys_cnt)
};

// The figures of a profile (docs/soc-profiles.md, "Timing").
Params params_for(const SocProfile& soc);

// How an instruction is costed (the table in src/sim/cost.cpp).
enum class OpClass : uint8_t {
    Scalar, Sync, VecPlain, VecTranscendental, VecReduce, VecGather, VecSort, Cube, Mte2, Mte3, Mte1, Fix
};
const char* to_string(OpClass);
OpClass classify(const OpRecord& r);

// The cost of a vector record under a published per-instruction formula
// (src/sim/cost_calibration.cpp), or none when no formula covers its op,
// element type and shape.
struct Calibrated {
    double cycles = 0;
    // The formula the figure came from: "a2a3 formula TMUL fp16 cols=128",
    // "a2a3 formula TMUL fp16 cols 112..128 (interpolated)", "a5 formula TADD fp32 2D".
    std::string source;
    bool interpolated = false;  // between or beyond the published column classes
};
bool calibrated_cost(Calibration c, const OpRecord& r, Calibrated& out);
// Only the cycles (no source text): the engine's hot path.
bool calibrated_cycles(Calibration c, const OpRecord& r, double& cycles);

// Element size in bytes of a dtype name of an OpRecord ("half" -> 2), 0 when unknown.
double dtype_bytes(const char* dtype);

// One instruction placed on the timeline, for the trace.
struct Slice {
    int core;
    Pipe pipe;
    double start, dur;  // cycles from the launch start
    const char* op;
    SourceLoc loc;
    uint64_t bytes, flops;
};
// A flag's edge for the trace: from where it was set to where it was waited.
struct Flow {
    int from_core;
    Pipe from_pipe;
    double from_t;
    int to_core;
    Pipe to_pipe;
    double to_t;
};

struct CoreTimes {
    std::string name;
    double start = 0, end = 0;  // cycles
    std::array<double, kPipeCount> busy{};
    std::map<std::string, double> blocked;  // by flag, cycles a pipe or the scalar unit waited
    uint64_t instructions = 0;
};

// A cross-core channel, as the checkers name it (src/sim/check.hpp).
using Channel = std::array<int64_t, 4>;

class Engine {
public:
    // `active_cores`: how many cores share the GM bandwidth (those running at the same time).
    Engine(const Params& p, int active_cores, bool keep_slices);

    // Where core `core` starts (cycles); a core starts at 0 unless told.
    void start_core(int core, double at, std::string name);
    void record(int core, const OpRecord& r);
    // Cross-core edges, in the order the launch performs them.
    void signal(int core, const Channel& ch);
    void forward(const std::vector<Channel>& from, const std::vector<Channel>& to);
    void acquire(int core, const Channel& ch);
    void contribute(int core, const Channel& ch);
    void acquire_all(int core, const Channel& ch);

    double core_end(int core) const;  // cycles: when its last pipe is idle
    double issue_time(int core);      // cycles: when its scalar unit issues next
    double pipe_free(int core, Pipe p);  // cycles: when pipe p has done what it was given
    // The scalar unit of `core` waits until `until` cycles (a peer's write it
    // observed, docs/cost-model.md "Across ranks"); the time is reported as
    // blocked by `what`.
    void hold_until(int core, double until, const std::string& what, const char* op, const SourceLoc& loc);
    // A record that takes no time (a poll of a spin whose end is timed by
    // the write it waits for): counted, not placed.
    void record_untimed(int core);
    // The peer rank whose window a record's GM access of this direction
    // reaches (-1: none): what the link prices.
    static int remote_rank_of(const OpRecord& r, bool writes);
    const Params& params() const { return p_; }
    const std::vector<Slice>& slices() const { return slices_; }
    const std::vector<Flow>& flows() const { return flows_; }
    // Bytes moved by (source space, destination space).
    const std::array<std::array<uint64_t, kSpaceCount>, kSpaceCount>& moved() const { return moved_; }
    // GM bytes read from HBM (first touches) and written; the rest of the GM
    // reads were L2 hits. With the write-back L2 (l2_bytes > 0) the written
    // bytes are the dirty lines: those evicted (written back during the
    // launch) and those still dirty at its end (written back after it).
    uint64_t hbm_bytes() const;
    // With the write-back L2: the bytes of dirty lines evicted and written
    // back to HBM during the launch so far (0 without it).
    uint64_t written_back_bytes() const { return written_back_; }
    uint64_t cube_flops() const { return cube_flops_; }
    uint64_t vector_flops() const { return vec_flops_; }
    const std::map<int, CoreTimes>& cores() const { return times_; }
    // Cycles an instruction of this record takes on its pipe, from its start,
    // when `gm_miss` of its GM read bytes come from HBM and the rest from L2
    // (negative: all of them from HBM), and it waits for `writeback` bytes
    // of dirty lines its own lines evicted from L2 to reach HBM.
    double cost(const OpRecord& r, double gm_miss = -1, double writeback = 0) const;
    // GM read bytes of r in lines not present in L2; marks them present
    // and most recently used. No eviction here.
    uint64_t first_touch(const OpRecord& r);
    // The GM lines of [lo, hi) are present in L2 before the launch's first
    // instruction (a prefetch, aclrtCmoAsync): a read of them is an L2 hit.
    void present_in_l2(uint64_t lo, uint64_t hi);

private:
    struct Event {
        double t;
        int core;
        Pipe pipe;
    };
    struct CoreState {
        double issue = 0;
        std::array<double, kPipeCount> free{};
        std::map<int, Event> flags;  // set_flag times by (src, dst, event)
        Event last_signal{};
        Pipe wait_pipe = Pipe::S;
        double wait_from = 0;
        std::string wait_name;
        const char* wait_op = "";
        SourceLoc wait_loc;
    };
    CoreState& state(int core);
    double begin_on(CoreState& s, Pipe p) const;
    void place(int core, CoreState& s, Pipe p, double start, double dur, const OpRecord& r);
    void block(int core, CoreState& s, Pipe p, double from, double until, const std::string& what);
    // Marks the GM lines of the accesses present in L2 (dirty when `write`)
    // and most recently used; returns the bytes in lines that were not present.
    uint64_t touch_lines(const Access* acc, uint8_t n, const OpRecord& r, bool write);
    // With a capacity: evicts least recently used lines until the lines in
    // L2 fit, never one the current record touched (sequence >= protect_from_);
    // returns the bytes of the dirty ones (written back to HBM).
    uint64_t evict();

    Params p_;
    double gm_share_;  // bytes per cycle one core gets from HBM
    double l2_share_;  // and from L2
    // What a GM write gets: the L2 share with the write-back L2, else the HBM share.
    double write_share() const { return capacity_lines_ > 0 ? l2_share_ : gm_share_; }
    double link_share_ = 0;  // and from the links to the peers (0: no limit)
    // GM lines present in L2 (read, written or prefetched so far, not
    // evicted), by line index: when the line was last used (a count of the
    // line uses in the order the engine received the records) and whether
    // it holds a write not yet in HBM.
    struct Line {
        uint64_t seq;
        bool dirty;
    };
    std::unordered_map<uint64_t, Line> lines_;
    // The same lines least recently used first, (seq, line); kept only once
    // the lines first exceed the capacity (until then nothing is evicted).
    std::set<std::pair<uint64_t, uint64_t>> lru_;
    bool lru_on_ = false;
    uint64_t capacity_lines_ = 0;  // 0: no capacity
    uint64_t seq_ = 0, protect_from_ = 0;
    uint64_t dirty_lines_ = 0, written_back_ = 0;
    bool keep_;
    std::map<int, CoreState> cores_;
    std::map<int, CoreTimes> times_;
    std::map<Channel, std::vector<Event>> channels_;
    std::map<Channel, size_t> consumed_;
    std::vector<Slice> slices_;
    std::vector<Flow> flows_;
    std::array<std::array<uint64_t, kSpaceCount>, kSpaceCount> moved_{};
    uint64_t cube_flops_ = 0, vec_flops_ = 0, hbm_bytes_ = 0;
};

// The link between this rank and `peer` (another rank): start-up in
// cycles and bytes per cycle of a transfer over it; false when the figures
// have no link (link_gbps 0).
bool link_between(const Params& p, int me, int peer, double& latency, double& bytes_per_cycle);

// Process-wide switches. Timing runs when PTO_SIM_TRACE, PTO_SIM_PROFILE or
// PTO_SIM_TIME is set, or after enable(true).
void enable(bool on);
bool enabled();
// Figures used instead of the profile's (tests); null restores the profile's.
void override_params(const Params* p);
// Simulated time of the last completed timed launch in microseconds, < 0 when none.
double last_launch_us();
// The process's simulated clock: the latest simulated time that a
// completed launch, a stream's work or a host thread reached (launches of
// one stream add up; streams run side by side, docs/semantics.md).
double simulated_clock_us();
// The calling host thread's simulated clock: where the work it issues
// next starts at the earliest. Launches it runs itself and the
// synchronisations it makes (stream, device, event) move it; the host's own
// timing never does (docs/semantics.md, "Simulated time of streams").
double host_clock_us();
// Host collectives (libhccl): the calling host thread's clock (and the
// process's) moves to `us` when it is behind it (the collective ends after
// the latest rank arrived).
void advance_clock_to(double us);
// Microseconds a host collective adds after the last rank arrives: the
// link's start-up plus `bytes` (what this rank receives) at its rate; 0 when
// timing is off or the profile has no link.
double collective_us(uint64_t bytes);
// Microseconds a CCU data move of `bytes` takes (libhccl's CCU engine): to
// or from rank `peer`, the link's start-up plus the bytes at its rate; on
// this device (peer < 0), a read and a write of the bytes at the GM rate.
// 0 when timing is off or the profile has no figure. Estimates
// (docs/soc-profiles.md).
double ccu_transfer_us(int peer, uint64_t bytes);

}  // namespace ptosim::cost
