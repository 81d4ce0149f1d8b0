// pto-isa's communication instructions (pto::comm, docs/many-devices.md) on
// ptosim, one rank per process under mpirun: every rank runs every test in
// the same order. Kernels address peers through the communicator's device
// context, as pto-isa's comm tests do; results are exact.
#include <pto/pto-inst.hpp>

#include "../sim_test_util.hpp"

#include <acl/acl.h>
#include <hccl/hccl.h>
#include <hccl/hcom.h>

#include <gtest/gtest.h>

#include "mpi_ranks.hpp"
#include "comm_windows.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <unistd.h>

using namespace pto;

namespace {

using namespace comm_test;

template <class T, int Rows, int Cols>
using G2 = GlobalTensor<T, Shape<1, 1, 1, Rows, Cols>, Stride<Rows * Cols, Rows * Cols, Rows * Cols, Cols, 1>>;
template <class T, int Rows, int Cols>
using DynTile = Tile<TileType::Vec, T, Rows, Cols, BLayout::RowMajor, DYNAMIC, DYNAMIC>;

TEST(CommInst, TputRingChunksThroughTheTile) {
    clear_windows();
    // 64 x 64 floats through a 16 x 64 tile: four chunks.
    std::vector<float> src(64 * 64);
    for (int i = 0; i < 64 * 64; ++i) src[i] = static_cast<float>(R() * 10000 + i);
    const int next = (R() + 1) % N();
    float* recv = win<float>(R(), 4096);
    ASSERT_TRUE(testutil::run_vec([&] {
        G2<float, 64, 64> s(src.data()), d(remote(recv, next));
        DynTile<float, 16, 64> t(16, 64);
        TASSIGN(t, 0x0);
        comm::TPUT(d, s, t);
    }).ok());
    barrier();
    const int prev = (R() + N() - 1) % N();
    for (int i = 0; i < 64 * 64; ++i) ASSERT_EQ(recv[i], static_cast<float>(prev * 10000 + i)) << i;
}

TEST(CommInst, TputAtomicAddIntoRankZero) {
    clear_windows();
    std::vector<int32_t> src(256);
    for (int i = 0; i < 256; ++i) src[i] = (R() + 1) * i;
    int32_t* sum = win<int32_t>(0, 8192);
    ASSERT_TRUE(testutil::run_vec([&] {
        G2<int32_t, 1, 256> s(src.data()), d(sum);
        DynTile<int32_t, 1, 256> t(1, 256);
        TASSIGN(t, 0x0);
        comm::TPUT<AtomicType::AtomicAdd>(d, s, t);
    }).ok());
    barrier();
    // Rank 0's window, read where it is memory (under the remote transport
    // a peer's window is not mapped in this process).
    if (R() == 0)
        for (int i = 0; i < 256; ++i) ASSERT_EQ(sum[i], i * N() * (N() + 1) / 2) << i;
}

TEST(CommInst, TgetFromNextRankPingPong) {
    clear_windows();
    int16_t* mine = win<int16_t>(R(), 0);
    for (int i = 0; i < 32 * 64; ++i) mine[i] = static_cast<int16_t>(R() * 100 + i % 97);
    barrier();
    std::vector<int16_t> out(32 * 64, -1);
    const int next = (R() + 1) % N();
    ASSERT_TRUE(testutil::run_vec([&] {
        G2<int16_t, 32, 64> s(remote(mine, next)), d(out.data());
        DynTile<int16_t, 8, 64> ping(8, 64), pong(8, 64);
        TASSIGN(ping, 0x0);
        TASSIGN(pong, 0x2000);
        comm::TGET(d, s, ping, pong);
    }).ok());
    for (int i = 0; i < 32 * 64; ++i) ASSERT_EQ(out[i], static_cast<int16_t>(next * 100 + i % 97)) << i;
    barrier();
}

TEST(CommInst, TnotifySetAndTwaitRing) {
    clear_windows();
    int32_t* sig = win<int32_t>(R(), 64);
    int32_t* counter = win<int32_t>(0, 128);
    const int next = (R() + 1) % N(), prev = (R() + N() - 1) % N();
    ASSERT_TRUE(testutil::run_vec([&] {
        comm::Signal to_next(remote(sig, next)), mine(sig), count(counter);
        comm::TNOTIFY(to_next, R() + 1, comm::NotifyOp::Set);
        comm::TNOTIFY(count, 1, comm::NotifyOp::AtomicAdd);
        comm::TWAIT(mine, prev + 1, comm::WaitCmp::EQ);
        if (R() == 0) comm::TWAIT(count, N(), comm::WaitCmp::GE);
    }).ok());
    EXPECT_EQ(*sig, prev + 1);
    barrier();
    if (R() == 0) EXPECT_EQ(*counter, N());
}

TEST(CommInst, TwaitOnASignalTensorAndTtest) {
    clear_windows();
    // Rank 0 waits until every rank set its own element of an 1 x 8 tensor.
    int32_t* flags = win<int32_t>(0, 256);
    bool before = true, after = false;
    ASSERT_TRUE(testutil::run_vec([&] {
        comm::Signal2D<1, 8> all(flags);
        if (R() == 0) before = comm::TTEST(all, 1, comm::WaitCmp::EQ);
        comm::Signal one(flags + R());
        comm::TNOTIFY(one, 1, comm::NotifyOp::Set);
        if (R() == 0) {
            for (int r = N(); r < 8; ++r) flags[r] = 1;  // the elements no rank owns
            comm::TWAIT(all, 1, comm::WaitCmp::EQ);
            after = comm::TTEST(all, 0, comm::WaitCmp::GT);
        }
    }).ok());
    if (R() == 0) {
        EXPECT_FALSE(before);
        EXPECT_TRUE(after);
    }
    barrier();
}

TEST(CommInst, TbroadcastFromRankZero) {
    clear_windows();
    std::vector<uint8_t> src(16 * 64);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<uint8_t>(i * 7);
    uint8_t* dst = win<uint8_t>(R(), 0);
    barrier();
    if (R() == 0) {
        ASSERT_TRUE(testutil::run_vec([&] {
            using G = G2<uint8_t, 16, 64>;
            std::vector<G> peers;
            for (int r = 0; r < N(); ++r) peers.emplace_back(remote(dst, r));
            auto group = comm::ParallelGroup<G>::Create(peers.data(), N(), 0);
            G s(src.data());
            DynTile<uint8_t, 4, 64> t(4, 64);
            TASSIGN(t, 0x0);
            comm::TBROADCAST(group, s, t);
        }).ok());
    }
    barrier();
    for (size_t i = 0; i < src.size(); ++i) ASSERT_EQ(dst[i], static_cast<uint8_t>(i * 7)) << i;
}

TEST(CommInst, TgatherAndTscatterOnRankZero) {
    clear_windows();
    int32_t* part = win<int32_t>(R(), 0);  // 4 x 32 per rank
    for (int i = 0; i < 4 * 32; ++i) part[i] = R() * 1000 + i;
    barrier();
    std::vector<int32_t> all(8 * 4 * 32, -1);
    if (R() == 0) {
        ASSERT_TRUE(testutil::run_vec([&] {
            using G = G2<int32_t, 4, 32>;
            using GAll = GlobalTensor<int32_t, Shape<1, 1, 1, DYNAMIC, 32>, Stride<1, 1, 1, 32, 1>>;
            std::vector<G> peers;
            for (int r = 0; r < N(); ++r) peers.emplace_back(remote(part, r));
            auto group = comm::ParallelGroup<G>::Create(peers.data(), N(), 0);
            GAll whole(all.data(), GAll::Shape(4 * N()));
            DynTile<int32_t, 2, 32> t(2, 32);
            TASSIGN(t, 0x0);
            comm::TGATHER(group, whole, t);
            // And back, rows reversed rank by rank: rank r gets rank N-1-r's rows.
            std::vector<int32_t> swapped(all.size());
            for (int r = 0; r < N(); ++r)
                std::memcpy(&swapped[r * 128], &all[(N() - 1 - r) * 128], 128 * sizeof(int32_t));
            GAll back(swapped.data(), GAll::Shape(4 * N()));
            std::vector<G> outs;
            for (int r = 0; r < N(); ++r) outs.emplace_back(remote(part + 4 * 32, r));
            auto out_group = comm::ParallelGroup<G>::Create(outs.data(), N(), 0);
            comm::TSCATTER(out_group, back, t);
        }).ok());
        for (int r = 0; r < N(); ++r)
            for (int i = 0; i < 128; ++i) ASSERT_EQ(all[r * 128 + i], r * 1000 + i);
    }
    barrier();
    for (int i = 0; i < 128; ++i) ASSERT_EQ(part[128 + i], (N() - 1 - R()) * 1000 + i) << i;
}

TEST(CommInst, TreduceSumAndMaxInRootThenRankOrder) {
    clear_windows();
    float* mine = win<float>(R(), 0);  // 8 x 64 per rank
    for (int i = 0; i < 8 * 64; ++i) mine[i] = (R() == 0 ? 16777216.0f : 1.0f) + static_cast<float>(i % 3) * R();
    barrier();
    const int root = N() - 1;
    std::vector<float> sum(8 * 64, 0), mx(8 * 64, 0);
    if (R() == root) {
        ASSERT_TRUE(testutil::run_vec([&] {
            using G = G2<float, 8, 64>;
            std::vector<G> peers;
            for (int r = 0; r < N(); ++r) peers.emplace_back(remote(mine, r));
            auto group = comm::ParallelGroup<G>::Create(peers.data(), N(), root);
            G ds(sum.data()), dm(mx.data());
            DynTile<float, 4, 64> acc(4, 64), ping(4, 64), pong(4, 64);
            TASSIGN(acc, 0x0);
            TASSIGN(ping, 0x1000);
            TASSIGN(pong, 0x2000);
            comm::TREDUCE(group, ds, acc, ping, comm::ReduceOp::Sum);
            comm::TREDUCE(group, dm, acc, ping, pong, comm::ReduceOp::Max);
        }).ok());
        for (int i = 0; i < 8 * 64; ++i) {
            auto v = [&](int r) { return (r == 0 ? 16777216.0f : 1.0f) + static_cast<float>(i % 3) * r; };
            float s = v(root), m = v(root);
            for (int r = 0; r < N(); ++r)
                if (r != root) s += v(r), m = std::max(m, v(r));
            ASSERT_EQ(sum[i], s) << i;
            ASSERT_EQ(mx[i], m) << i;
        }
    }
    barrier();
}

TEST(CommInst, RemoteAddressOutsideThePeersWindowFaults) {
    clear_windows();
    const int next = (R() + 1) % N();
    std::vector<float> src(64, 1.0f);
    // 64 bytes past the end of the next rank's windowsIn: in the gap after it.
    float* past = reinterpret_cast<float*>(g_ctx.windowsIn[next] + g_ctx.winSize + 64);
    const ptosim::Status st = testutil::run_vec([&] {
        G2<float, 1, 64> s(src.data()), d(past);
        DynTile<float, 1, 64> t(1, 64);
        TASSIGN(t, 0x0);
        comm::TPUT(d, s, t);
    });
    ASSERT_FALSE(st.ok());
    char want[300];
    std::snprintf(want, sizeof want,
                  "TPUT destination: GM bytes [0x%lx, 0x%lx) lie outside every communicator window, 64 bytes past the end of "
                  "rank %d's windowsIn [0x%lx, 0x%lx) (2097152 bytes, HCCL_BUFFSIZE): the remote address is outside the "
                  "peer's window",
                  reinterpret_cast<unsigned long>(past), reinterpret_cast<unsigned long>(past) + 256, next,
                  static_cast<unsigned long>(g_ctx.windowsIn[next]),
                  static_cast<unsigned long>(g_ctx.windowsIn[next] + g_ctx.winSize));
    EXPECT_NE(st.message.find(want), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("test_comm_inst.cpp:"), std::string::npos) << st.message;
    barrier();
}

TEST(CommInst, AWaitNoRankSatisfiesEndsWithAReport) {
    clear_windows();
    setenv("PTO_COMM_TIMEOUT_S", "0.5", 1);
    int32_t* never = win<int32_t>(R(), 512);
    int line = 0;
    const ptosim::Status st = testutil::run_vec([&] {
        comm::Signal s(never);
        line = __LINE__ + 1;
        comm::TWAIT(s, 1, comm::WaitCmp::EQ);
    });
    unsetenv("PTO_COMM_TIMEOUT_S");
    ASSERT_FALSE(st.ok());
    char want[400];
    std::snprintf(want, sizeof want,
                  "cross-rank wait never satisfied (rank %d of %d, AIV block 0, %s:%d): TWAIT waits for the signal at "
                  "%p (rank %d's window) to be == 1; it holds 0; no rank changed it in 0.5 s (PTO_COMM_TIMEOUT_S)",
                  R(), N(), __FILE__, line, static_cast<void*>(never), R());
    EXPECT_NE(st.message.find(want), std::string::npos) << st.message;
    barrier();
}

TEST(CommInst, ADeadlockAcrossRanksIsReportedOnEveryRank) {
    clear_windows();
    // Every rank waits for a signal only its next rank would set, and no
    // rank sets one: each rank's report names every rank's wait.
    setenv("PTO_COMM_DEADLOCK_S", "0.3", 1);
    setenv("PTO_COMM_TIMEOUT_S", "60", 1);
    int32_t* sig = win<int32_t>(R(), 768);
    int line = 0;
    const ptosim::Status st = testutil::run_vec([&] {
        comm::Signal s(sig);
        line = __LINE__ + 1;
        comm::TWAIT(s, 7, comm::WaitCmp::GE);
    });
    unsetenv("PTO_COMM_DEADLOCK_S");
    unsetenv("PTO_COMM_TIMEOUT_S");
    ASSERT_FALSE(st.ok());
    char head[300];
    std::snprintf(head, sizeof head,
                  "deadlock across ranks: every core of every rank waits on another rank, and nothing changed for "
                  "0.3 s (PTO_COMM_DEADLOCK_S). This rank: rank %d of %d, AIV block 0, %s:%d: TWAIT waits for the "
                  "signal at %p (rank %d's window) to be >= 7; it holds 0. Ranks:",
                  R(), N(), __FILE__, line, static_cast<void*>(sig), R());
    EXPECT_NE(st.message.find(head), std::string::npos) << st.message;
    for (int r = 0; r < N(); ++r) {
        char who[200];
        std::snprintf(who, sizeof who, "\n  rank %d: ", r);
        const size_t at = st.message.find(who);
        ASSERT_NE(at, std::string::npos) << st.message;
        char wait_site[200];
        std::snprintf(wait_site, sizeof wait_site, "AIV block 0, %s:%d: TWAIT waits for the signal at", __FILE__, line);
        EXPECT_NE(st.message.find(wait_site, at), std::string::npos) << st.message;
    }
    barrier();
}

// ---- the remote window transport (PTOLAB_HCCL_TRANSPORT=mpi; these run
// in the test's *_rma ctest entries)
TEST(CommInstRemote, APeersWindowIsNotMappedInThisProcess) {
    if (!remote_transport()) GTEST_SKIP() << "windows in shared memory";
    // write() reads its buffer in the kernel: EFAULT for an address this
    // process does not map, without a signal. Earlier tests' kernels opened
    // pages of peers' windows; none may stay open.
    int fds[2];
    ASSERT_EQ(pipe(fds), 0);
    for (int r = 0; r < N(); ++r)
        for (uint64_t base : {g_ctx.windowsIn[r], g_ctx.windowsOut[r]})
            for (uint64_t off : {uint64_t{0}, uint64_t{4096}, uint64_t{8192}}) {
                errno = 0;
                const ssize_t n = write(fds[1], reinterpret_cast<const void*>(base + off), 1);
                if (r == R()) {
                    EXPECT_EQ(n, 1) << "rank " << r << " byte " << off;
                } else {
                    EXPECT_EQ(n, -1) << "rank " << r << " byte " << off;
                    EXPECT_EQ(errno, EFAULT) << "rank " << r << " byte " << off;
                }
            }
    close(fds[0]);
    close(fds[1]);
    barrier();
}

TEST(CommInstRemote, StridedStoresOfEveryRankIntoOnePeerKeepEachOthersBytes) {
    clear_windows();
    // Every rank at once stores column R of a 16 x 8 int32 matrix in rank 0's
    // window: 16 bursts of 4 bytes, 32 bytes apart, in one span that holds
    // the other ranks' columns too. Only the bytes a rank stored reach rank 0.
    int32_t* m = win<int32_t>(0, 1024);
    std::vector<int32_t> col(16);
    for (int i = 0; i < 16; ++i) col[i] = (R() + 1) * 1000 + i;
    using Col = GlobalTensor<int32_t, Shape<1, 1, 1, 16, 1>, Stride<128, 128, 128, 8, 1>>;
    using Src = GlobalTensor<int32_t, Shape<1, 1, 1, 16, 1>, Stride<16, 16, 16, 1, 1>>;
    ASSERT_TRUE(testutil::run_vec([&] {
        Src s(col.data());
        Col d(m + R());
        Tile<TileType::Vec, int32_t, 16, 8, BLayout::RowMajor, DYNAMIC, DYNAMIC> t(16, 1);
        TASSIGN(t, 0x0);
        TLOAD(t, s);
        set_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_MTE3, EVENT_ID0);
        TSTORE(d, t);
    }).ok());
    barrier();
    if (R() == 0)
        for (int i = 0; i < 16; ++i)
            for (int c = 0; c < 8; ++c) ASSERT_EQ(m[i * 8 + c], c < N() ? (c + 1) * 1000 + i : 0) << i << "," << c;
    barrier();
}

// A kernel's plain pointers into a peer's window (pto-isa's own TNOTIFY
// stores its signal so, its TWAIT reads it so): under shared memory the
// window is mapped; under the remote transport the page is fetched over MPI
// at the faulting access and its changed bytes go back at the core's next
// record. Each rank reads the value the next rank left in its own window and
// stores its mark into the next rank's, between two records.
TEST(CommInst, PlainPointersIntoAPeersWindow) {
    clear_windows();
    const int next = (R() + 1) % N(), prev = (R() + N() - 1) % N();
    *win<int32_t>(R(), 512) = 100 + R();
    barrier();
    int32_t got = 0;
    ASSERT_TRUE(testutil::run_vec([&] {
        auto* peer = reinterpret_cast<volatile int32_t*>(win<int32_t>(next, 0));
        got = peer[128];
        peer[64 + R()] = 7000 + R();
        pipe_barrier(PIPE_ALL);
    }).ok());
    barrier();
    EXPECT_EQ(got, 100 + next);
    EXPECT_EQ(*win<int32_t>(R(), 256 + 4 * prev), 7000 + prev);
    for (int r = 0; r < N(); ++r)
        if (r != prev) EXPECT_EQ(*win<int32_t>(R(), 256 + 4 * r), 0) << r;
    barrier();
}

}  // namespace

int main(int argc, char** argv) { return comm_test::run_rank_tests(argc, argv); }
