// Simulated time across ranks (docs/cost-model.md, "Across ranks"), two
// ranks under mpirun with the windows in shared memory: an access of a
// peer's window is priced over the link, a wait for a peer's write ends no
// earlier than the write plus the link's start-up, and the ranks' clocks
// meet at a barrier, with the same times whatever the order the host runs
// the ranks in. The figures are made up (1 GHz, so a cycle is a
// nanosecond) so that every expected time is a sum of them.
#include <pto/pto-inst.hpp>
#include <ptosim/core.hpp>
#include <ptosim/cost.hpp>
#include <ptosim/kernel_launch.hpp>

#include "../sim_test_util.hpp"

#include <acl/acl.h>
#include <hccl/hccl.h>
#include <hccl/hcom.h>

#include <gtest/gtest.h>

#include "mpi_ranks.hpp"
#include "comm_windows.hpp"

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

using namespace pto;

namespace {

using namespace comm_test;

// Times are compared to a thousandth of a cycle: they are sums of doubles.
constexpr double kNs = 1e-6;

template <class T, int Rows, int Cols>
using G2 = GlobalTensor<T, Shape<1, 1, 1, Rows, Cols>, Stride<Rows * Cols, Rows * Cols, Rows * Cols, Cols, 1>>;
template <class T, int Rows, int Cols>
using DynTile = Tile<TileType::Vec, T, Rows, Cols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

ptosim::cost::Params figures() {
    ptosim::cost::Params p;  // issue 1, flag 8, barrier 4, lat_mte2 300, mte2 64 B/cycle, launch 1 us
    p.clock_ghz = 1;
    p.link_gbps = 16;  // 16 bytes a cycle over HCCS
    p.lat_link = 1000;
    p.roce_gbps = 4;
    p.lat_roce = 5000;
    p.ranks_per_node = 8;
    return p;
}

struct Timed {
    Timed() {
        static const ptosim::cost::Params p = figures();
        ptosim::cost::override_params(&p);
        ptosim::cost::enable(true);
    }
    ~Timed() {
        ptosim::cost::enable(false);
        ptosim::cost::override_params(nullptr);
    }
};

// The simulated time of a one-block vector kernel, in us.
double timed_us(const std::function<void()>& body) {
    EXPECT_TRUE(testutil::run_vec(body).ok());
    return ptosim::cost::last_launch_us();
}

double load_4k_us(float* from) {
    return timed_us([&] {
        G2<float, 1, 1024> s(from);
        DynTile<float, 1, 1024> t(1, 1024);
        TASSIGN(t, 0x0);
        TLOAD(t, s);
    });
}

TEST(CommTime, AReadOfAPeersWindowCrossesTheLink) {
    clear_windows();
    Timed timed;
    const int peer = 1 - R();
    // One block: it starts at 0, issues the TLOAD at cycle 1; 1 us of launch.
    // Its own window: 300 + 4096 / 64 = 364 cycles.
    EXPECT_NEAR(load_4k_us(win<float>(R(), 0)), 1 + (1 + 364) / 1000.0, kNs);
    // The peer's: 300 + 1000 of the link + 4096 / min(64, 16) = 1556 cycles.
    EXPECT_NEAR(load_4k_us(remote(win<float>(R(), 0), peer)), 1 + (1 + 1556) / 1000.0, kNs);
}

TEST(CommTime, RanksOnAnotherNodeAreReachedOverRoce) {
    clear_windows();
    static ptosim::cost::Params p = figures();
    p.ranks_per_node = 1;  // every rank its own node
    ptosim::cost::override_params(&p);
    ptosim::cost::enable(true);
    const double us = load_4k_us(remote(win<float>(R(), 0), 1 - R()));
    ptosim::cost::enable(false);
    ptosim::cost::override_params(nullptr);
    // 300 + 5000 of RoCE + 4096 / 4 = 6324 cycles.
    EXPECT_NEAR(us, 1 + (1 + 6324) / 1000.0, kNs);
}

// Rank 0 loads 4 KiB of its own, waits for it and sets rank 1's signal;
// rank 1 waits for the signal. `late` of the ranks starts 200 ms after the
// other on the host.
struct PutWait {
    double notify_rank_us = 0, wait_rank_us = 0, clock_before = 0;
};
PutWait put_wait(int late) {
    clear_windows();
    Timed timed;
    barrier();  // the ranks' clocks meet
    PutWait r;
    r.clock_before = ptosim::cost::simulated_clock_us();
    int32_t* sig = win<int32_t>(1, 64);
    float* data = win<float>(R(), 4096);
    if (R() == late) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    if (R() == 0) {
        r.notify_rank_us = timed_us([&] {
            G2<float, 1, 1024> s(data);
            DynTile<float, 1, 1024> t(1, 1024);
            TASSIGN(t, 0x0);
            TLOAD(t, s);
            pipe_barrier(PIPE_ALL);
            comm::Signal to(remote(win<int32_t>(0, 64), 1));
            comm::TNOTIFY(to, 7, comm::NotifyOp::Set);
        });
    } else {
        r.wait_rank_us = timed_us([&] {
            comm::Signal mine(sig);
            comm::TWAIT(mine, 7, comm::WaitCmp::EQ);
        });
    }
    // Each rank's figures to the other, through rank 0's window on the host.
    double* shared = win<double>(0, 1 << 16);
    if (R() == 0) shared[0] = r.notify_rank_us;
    else shared[1] = r.wait_rank_us;
    barrier();
    r.notify_rank_us = shared[0];
    r.wait_rank_us = shared[1];
    barrier();
    return r;
}

TEST(CommTime, AWaitForAPeersWriteEndsAtTheWritePlusTheLink) {
    const PutWait a = put_wait(/*late=*/0);
    // Rank 0: the TLOAD ends at 1 + 364, the barrier at 369, the TNOTIFY
    // issues at 370; 1 us of launch.
    EXPECT_NEAR(a.notify_rank_us, 1 + 370 / 1000.0, kNs);
    // Rank 1: its signal arrived 1000 cycles (the link) after the TNOTIFY,
    // at 1370 of the same clock (the barrier before made both clocks meet).
    EXPECT_NEAR(a.wait_rank_us, 1 + 1370 / 1000.0, kNs);
}

TEST(CommTime, TheTimesDoNotDependOnWhichRankTheHostRunsFirst) {
    const PutWait a = put_wait(/*late=*/0), b = put_wait(/*late=*/1);
    EXPECT_NEAR(a.notify_rank_us, b.notify_rank_us, kNs);
    EXPECT_NEAR(a.wait_rank_us, b.wait_rank_us, kNs);
    EXPECT_NEAR(b.wait_rank_us, 1 + 1370 / 1000.0, kNs);
}

// pto-isa's own comm headers over ptosim's CCE layer: TNOTIFY's Set is a
// plain store between two dcci and a dsb (stamped at the dsb), TWAIT a spin
// of dcci polls (ended by the core's next record that is not a poll).
TEST(CommTime, ASpinOfDcciPollsEndsAtAPlainStoresDsbPlusTheLink) {
    clear_windows();
    Timed timed;
    barrier();
    double us = 0;
    volatile int32_t* sig = win<int32_t>(1, 256);
    float* data = win<float>(R(), 4096);
    if (R() == 0) {
        us = timed_us([&] {
            G2<float, 1, 1024> s(data);
            DynTile<float, 1, 1024> t(1, 1024);
            TASSIGN(t, 0x0);
            TLOAD(t, s);
            pipe_barrier(PIPE_ALL);
            volatile int32_t* peer = remote(win<int32_t>(0, 256), 1);
            dcci(const_cast<int32_t*>(peer), SINGLE_CACHE_LINE);
            *peer = 5;
            dcci(const_cast<int32_t*>(peer), SINGLE_CACHE_LINE);
            dsb(DSB_DDR);
        });
    } else {
        us = timed_us([&] {
            do {
                dcci(const_cast<int32_t*>(sig), SINGLE_CACHE_LINE);
            } while (*sig != 5);
            G2<float, 1, 1024> s(data);
            DynTile<float, 1, 1024> t(1, 1024);
            TASSIGN(t, 0x0);
            TLOAD(t, s);
        });
    }
    double* shared = win<double>(0, 1 << 16);
    shared[R()] = us;
    barrier();
    // Rank 0: the TLOAD ends at 365, the barrier at 369; no record after it.
    EXPECT_NEAR(shared[0], 1 + 369 / 1000.0, kNs);
    // Rank 1: the store reached its window at 369 + 1000 of the link; its
    // TLOAD, the first record after the spin, issues at 1370 and takes 364.
    EXPECT_NEAR(shared[1], 1 + (1370 + 364) / 1000.0, kNs);
    barrier();
}

TEST(CommTime, ABarrierMovesEveryClockToTheLatestPlusTheLink) {
    clear_windows();
    Timed timed;
    // Rank 1 runs a 4 KiB load more than rank 0 before the barrier.
    if (R() == 1) load_4k_us(win<float>(R(), 0));
    const double before = ptosim::cost::simulated_clock_us();
    double* shared = win<double>(0, 1 << 16);
    shared[R()] = before;
    barrier();
    const double latest = std::max(shared[0], shared[1]);
    const double after = ptosim::cost::simulated_clock_us();
    // The clocks met at clear_windows' barrier; rank 1 is a launch ahead.
    EXPECT_NEAR(shared[1] - shared[0], 1 + 365 / 1000.0, kNs);
    // The latest clock plus the link's start-up (1000 cycles = 1 us) and no bytes.
    EXPECT_NEAR(after, latest + 1, kNs);
    barrier();
}

// HcclSend carries the sender's clock: rank 1's HcclRecv ends at the later
// of the two clocks plus the link's start-up (1000 cycles) and 4096 bytes at
// 16 a cycle (256): 1.256 us after rank 0's clock, which a 4 KiB load put a
// launch ahead. The sender's clock does not move.
TEST(CommTime, ARecvEndsAtTheSendersClockPlusTheTransfer) {
    clear_windows();
    Timed timed;
    double* shared = win<double>(0, 1 << 16);
    std::vector<float> data(1024, 1.5f);
    if (R() == 0) {
        load_4k_us(win<float>(R(), 0));
        shared[0] = ptosim::cost::simulated_clock_us();
        ASSERT_EQ(HcclSend(data.data(), 1024, HCCL_DATA_TYPE_FP32, 1, g_comm, nullptr), HCCL_SUCCESS);
        shared[2] = ptosim::cost::simulated_clock_us();
    } else if (R() == 1) {
        shared[1] = ptosim::cost::simulated_clock_us();
        std::vector<float> got(1024, 0.0f);
        ASSERT_EQ(HcclRecv(got.data(), 1024, HCCL_DATA_TYPE_FP32, 0, g_comm, nullptr), HCCL_SUCCESS);
        EXPECT_EQ(got, data);
        shared[3] = ptosim::cost::simulated_clock_us();
    }
    barrier();
    EXPECT_NEAR(shared[0] - shared[1], 1 + 365 / 1000.0, kNs);  // rank 0 a 4 KiB load ahead
    EXPECT_NEAR(shared[3], shared[0] + 1.256, kNs);
    EXPECT_NEAR(shared[2], shared[0], kNs);
    barrier();
}

// Two streams on each rank, as pto-isa's allgather_gemm runs its kernels
// (docs/semantics.md, "Simulated time of streams"): a Cube kernel on one
// stream sets the peer's signal; a Vector kernel on another stream reads
// SYS_CNT, waits for its own signal (set by the peer), reads SYS_CNT again
// and loads 4 KiB. Rank `late` issues 200 ms after the other on the host,
// and each rank sleeps `gap_ms` between its two launches.
struct TwoStreams {
    int64_t wait_start = 0, wait_end = 0;  // SYS_CNT (ns) minus the clock before, at the kernel's start and after TWAIT
    double host_after = 0;                 // the host's clock after synchronising both streams, minus the clock before
};
TwoStreams two_streams(int late, int gap_ms) {
    clear_windows();
    static ptosim::cost::Params p = [] {
        ptosim::cost::Params q = figures();
        q.sys_cnt_mhz = 1000;  // SYS_CNT counts nanoseconds
        return q;
    }();
    ptosim::cost::override_params(&p);
    ptosim::cost::enable(true);
    testutil::select_target_soc();
    aclrtStream notify_s = nullptr, wait_s = nullptr;
    EXPECT_EQ(aclrtCreateStream(&notify_s), ACL_SUCCESS);
    EXPECT_EQ(aclrtCreateStream(&wait_s), ACL_SUCCESS);
    barrier();  // the ranks' host clocks meet
    const double before = ptosim::cost::host_clock_us();
    int32_t* mine = win<int32_t>(R(), 128);
    int32_t* peer = remote(mine, 1 - R());
    float* data = win<float>(R(), 4096);
    std::vector<int64_t> cnt(2, -1);
    auto spec = [](const char* name, ptosim::KernelKind kind) {
        ptosim::LaunchSpec s;
        s.kernel = name;
        s.site = {__FILE__, __LINE__};
        s.target = testutil::compiled_target();
        s.kind = kind;
        s.block_dim = 1;
        return s;
    };
    ptosim::LaunchSpec n = spec("notify_peer", ptosim::KernelKind::Cube);
    n.aic_body = [peer] {
        comm::Signal to(peer);
        comm::TNOTIFY(to, 7, comm::NotifyOp::Set);
    };
    ptosim::LaunchSpec w = spec("wait_then_load", ptosim::KernelKind::Vec);
    w.aiv_body = testutil::mask_initialised([mine, data, c = cnt.data()] {
        c[0] = static_cast<int64_t>(ptosim::sys_cnt(ptosim::core()));
        comm::Signal sig(mine);
        comm::TWAIT(sig, 7, comm::WaitCmp::EQ);
        c[1] = static_cast<int64_t>(ptosim::sys_cnt(ptosim::core()));
        G2<float, 1, 1024> s(data);
        DynTile<float, 1, 1024> t(1, 1024);
        TASSIGN(t, 0x0);
        TLOAD(t, s);
    });
    if (R() == late) std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ptosim::cc::submit(std::move(n), notify_s);
    if (gap_ms) std::this_thread::sleep_for(std::chrono::milliseconds(gap_ms));
    ptosim::cc::submit(std::move(w), wait_s);
    EXPECT_EQ(aclrtSynchronizeStream(notify_s), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(aclrtSynchronizeStream(wait_s), ACL_SUCCESS) << aclGetRecentErrMsg();
    TwoStreams r;
    const int64_t base = std::llround(before * 1000);
    r.wait_start = cnt[0] - base;
    r.wait_end = cnt[1] - base;
    r.host_after = ptosim::cost::host_clock_us() - before;
    EXPECT_EQ(aclrtDestroyStream(notify_s), ACL_SUCCESS);
    EXPECT_EQ(aclrtDestroyStream(wait_s), ACL_SUCCESS);
    ptosim::cost::enable(false);
    ptosim::cost::override_params(nullptr);
    barrier();
    return r;
}

// COMM_TIME_LATE (0 or 1, default 0) picks the rank that issues late first:
// ctest comm_time_profile_ranks profiles one run with each and compares the
// merged traces byte for byte.
TEST(CommTime, TwoStreamsOfEachRankGiveTheSameTimesWhateverTheHostsDelays) {
    const char* env = std::getenv("COMM_TIME_LATE");
    const int late = env && std::atoi(env) == 1 ? 1 : 0;
    const TwoStreams a = two_streams(late, 0), b = two_streams(1 - late, 100);
    for (const TwoStreams* r : {&a, &b}) {
        // The wait kernel starts where its stream stands, beside the notify
        // kernel (not after it): at the clock the ranks met at.
        EXPECT_NEAR(static_cast<double>(r->wait_start), 0, 1);
        // The peer's TNOTIFY issued at its cycle 1 and reached this rank's
        // window 1000 cycles (the link) later: the wait ends at 1001.
        EXPECT_NEAR(static_cast<double>(r->wait_end), 1001, 1);
        // Then the 4 KiB load (issue 1 + 364) and 1 us of launch: 2.366 us.
        EXPECT_NEAR(r->host_after, 1 + (1001 + 1 + 364) / 1000.0, kNs);
    }
    // (a and b start from different clocks, so their SYS_CNT readings may
    // truncate a hair apart; the profile test compares whole runs byte for
    // byte.)
}

}  // namespace

int main(int argc, char** argv) { return run_rank_tests(argc, argv); }
