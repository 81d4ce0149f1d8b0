// A5's SIMT vector functions run end to end: kernels in simt_kernels.cpp,
// built by ptocc for dav-c310-vec, launched through ACL; the gathered and
// scattered bytes, the thread indices and the faults checked exactly.
#include "acl_fixture.hpp"

#include <ptosim/check.hpp>
#include <ptosim/core.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <mutex>
#include <fstream>
#include <string>
#include <vector>

extern "C" {
void launch_simt_gather(float*, float*, uint32_t*, uint32_t, void*);
void launch_simt_gather_unsynced(float*, float*, uint32_t*, uint32_t, void*);
void launch_simt_ids(uint32_t*, int32_t*, uint32_t, void*);
void launch_simt_scatter(int32_t*, float*, float*, int32_t*, uint32_t*, uint32_t, void*);
void launch_simt_barrier(int32_t*, void*);
void launch_simt_warp_sum(float*, void*);
void launch_simt_mismatch(int32_t*, void*);
void launch_simt_outside(uint32_t*, void*);
void launch_simt_too_many(int32_t*, void*);
void launch_simt_crash(int32_t*, void*);
void launch_simt_core(uint32_t*, uint32_t, void*);
}

namespace {

// "simt_kernels.cpp:<n>" for the kernels' line ending in "// line: <marker>".
std::string kernel_line(const std::string& marker) {
    std::ifstream f(SIMT_KERNELS_SOURCE);
    std::string s;
    const std::string tail = "// line: " + marker;
    for (int n = 1; std::getline(f, s); ++n)
        if (s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0)
            return "simt_kernels.cpp:" + std::to_string(n);
    ADD_FAILURE() << "no line of " << SIMT_KERNELS_SOURCE << " ends with " << tail;
    return "?";
}

class Simt : public cce_test::AclFixture {
protected:
    std::string fault_of_launch() {
        EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
        return aclGetRecentErrMsg();
    }
};

// 80 threads (dim3{32, 3}; the last 16 idle) gather a GM table through UB
// indices into UB; the vector pipe's wait before MTE3 orders the store.
TEST_F(Simt, GatherFromGmThroughUbIndices) {
    std::vector<float> table(64);
    for (int i = 0; i < 64; ++i) table[i] = 1.5f * static_cast<float>(i) - 20.0f;
    std::vector<uint32_t> idx(80);
    for (uint32_t t = 0; t < 80; ++t) idx[t] = (t * 37u + 11u) % 64u;
    float* out = device(std::vector<float>(80, -1.0f));
    launch_simt_gather(out, device(table), device(idx), 80, stream);
    const std::vector<float> r = back(out, 80);
    for (uint32_t t = 0; t < 80; ++t) {
        uint32_t got, want;
        const float w = table[idx[t]];
        std::memcpy(&got, &r[t], 4);
        std::memcpy(&want, &w, 4);
        EXPECT_EQ(got, want) << "thread " << t;
    }
}

// dim3{4, 3, 2} on two blocks: every thread sees its own (x, y, z), the
// block's shape, its block index and the grid's size; the threads of a block
// run in order, x fastest (each one's atomicAdd finds its linear index).
TEST_F(Simt, ThreadIndicesAndOrder) {
    constexpr uint32_t kThreads = 24, kBlocks = 2;
    uint32_t* out = device(std::vector<uint32_t>(kThreads * kBlocks * 8, 0xdeadbeefu));
    int32_t* counter = device(std::vector<int32_t>(kBlocks, 0));
    launch_simt_ids(out, counter, kBlocks, stream);
    const std::vector<uint32_t> r = back(out, kThreads * kBlocks * 8);
    for (uint32_t b = 0; b < kBlocks; ++b)
        for (uint32_t t = 0; t < kThreads; ++t) {
            const uint32_t* o = &r[(b * kThreads + t) * 8];
            const uint32_t x = t % 4, y = t / 4 % 3, z = t / 12;
            EXPECT_EQ(o[0], x) << b << "/" << t;
            EXPECT_EQ(o[1], y) << b << "/" << t;
            EXPECT_EQ(o[2], z) << b << "/" << t;
            EXPECT_EQ(o[3], 432u) << b << "/" << t;
            EXPECT_EQ(o[4], b) << b << "/" << t;
            EXPECT_EQ(o[5], kBlocks) << b << "/" << t;
            EXPECT_EQ(o[6], t) << b << "/" << t;
            EXPECT_EQ(o[7], x + 10 * y + 100 * z) << b << "/" << t;
        }
    EXPECT_EQ(back(counter, kBlocks), (std::vector<int32_t>{24, 24}));
}

// ptosim::core() inside a SIMT thread, 100 KiB down the thread's own stack,
// before and after a block barrier (the threads of four blocks take turns):
// the thread's stack is a SIMT slot of the fiber-stack region whose top names
// the Vector core running the start, the one the thread-local pointer names.
TEST_F(Simt, ThreadsFindTheirCoreFromTheirOwnStack) {
    constexpr uint32_t kThreads = 24, kBlocks = 4;
    uint32_t* out = device(std::vector<uint32_t>(kThreads * kBlocks * 8, 0));
    launch_simt_core(out, kBlocks, stream);
    const std::vector<uint32_t> r = back(out, kThreads * kBlocks * 8);
    for (uint32_t b = 0; b < kBlocks; ++b)
        for (uint32_t t = 0; t < kThreads; ++t)
            for (uint32_t half = 0; half < 2; ++half) {
                const uint32_t* o = &r[(b * kThreads + t) * 8 + half * 4];
                EXPECT_EQ(o[0], b) << b << "/" << t << "/" << half;
                EXPECT_EQ(o[1], 1u) << b << "/" << t << "/" << half;
                EXPECT_EQ(o[2], b) << b << "/" << t << "/" << half;
                EXPECT_EQ(o[3], 0u) << b << "/" << t << "/" << half;
            }
}

// 70 threads add into 8 slots with repeats: the int32 sums and the float
// sums (quarters, exact in any order) and maxima.
TEST_F(Simt, AtomicScatterAccumulates) {
    constexpr uint32_t n = 70;
    std::vector<int32_t> src(n);
    std::vector<uint32_t> idx(n);
    for (uint32_t t = 0; t < n; ++t) {
        src[t] = static_cast<int32_t>(t * 7 % 23) - 9;
        idx[t] = (t * 5u + 3u) % 8u;
    }
    std::vector<int32_t> table0(8), want(8);
    std::vector<float> ftable0(8), fwant(8), fmax0(8, -100.0f), fmaxwant(8, -100.0f);
    for (int s = 0; s < 8; ++s) {
        table0[s] = want[s] = 1000 * s;
        ftable0[s] = fwant[s] = 0.5f * static_cast<float>(s);
    }
    for (uint32_t t = 0; t < n; ++t) {
        want[idx[t]] += src[t];
        fwant[idx[t]] += static_cast<float>(src[t]) * 0.25f;
        fmaxwant[idx[t]] = std::max(fmaxwant[idx[t]], static_cast<float>(src[t]));
    }
    int32_t* table = device(table0);
    float* ftable = device(ftable0);
    float* fmax = device(fmax0);
    launch_simt_scatter(table, ftable, fmax, device(src), device(idx), n, stream);
    EXPECT_EQ(back(table, 8), want);
    EXPECT_EQ(back(ftable, 8), fwant);
    EXPECT_EQ(back(fmax, 8), fmaxwant);
    // Fixed expectations for two slots, so that a reference computed wrong
    // the same way as the simulator cannot hide it.
    EXPECT_EQ(want[0], 20);
    EXPECT_EQ(want[3], 3003);
}

// Under every checker: the gather and the scatter report nothing (the
// gather's first element keeps its low bytes, 0x0000, which a comparison of
// UB alone would miss); the gather without its V -> MTE3 wait is a race
// between the SIMT start's UB writes and the store.
TEST_F(Simt, CheckersSeeTheSimtStartOnTheVectorPipe) {
    ASSERT_EQ(ptosim::check::configure("all"), "");
    std::vector<float> table(64);
    for (int i = 0; i < 64; ++i) table[i] = 1.5f * static_cast<float>(i) - 20.0f;
    std::vector<uint32_t> idx(80);
    for (uint32_t t = 0; t < 80; ++t) idx[t] = (t * 37u + 11u) % 64u;
    float* out = device(std::vector<float>(80, -1.0f));
    float* dtable = device(table);
    uint32_t* didx = device(idx);
    launch_simt_gather(out, dtable, didx, 80, stream);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<int32_t> src(40, 3);
    std::vector<uint32_t> sidx(40);
    for (uint32_t t = 0; t < 40; ++t) sidx[t] = t % 4;
    int32_t* dt = device(std::vector<int32_t>(4, 0));
    launch_simt_scatter(dt, device(std::vector<float>(4, 0.0f)), device(std::vector<float>(4, 0.0f)), device(src),
                        device(sidx), 40, stream);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    std::vector<ptosim::check::Report> reps = ptosim::check::take_reports();
    for (const auto& r : reps) ADD_FAILURE() << ptosim::check::format_text(r);
    EXPECT_EQ(back(dt, 4), (std::vector<int32_t>(4, 30)));

    launch_simt_gather_unsynced(out, dtable, didx, 80, stream);
    EXPECT_NE(aclrtSynchronizeStream(stream), ACL_SUCCESS);
    reps = ptosim::check::take_reports();
    ASSERT_EQ(ptosim::check::configure(""), "");
    const auto race = std::find_if(reps.begin(), reps.end(), [](const auto& r) { return r.tool == "racecheck"; });
    ASSERT_NE(race, reps.end());
    ASSERT_EQ(race->sites.size(), 2u);
    EXPECT_EQ(race->buffer, "UB");
    EXPECT_EQ(race->sites[0].op, "async_invoke");
    EXPECT_EQ(race->sites[0].pipe, ptosim::Pipe::V);
    EXPECT_EQ(race->sites[0].access, "write");
    EXPECT_EQ(race->sites[1].op, "copy_ubuf_to_gm_align_v2");
    EXPECT_EQ(race->sites[1].pipe, ptosim::Pipe::MTE3);
}

// The start is one PIPE_V record: 96 threads (dim3{32, 3}), the cost
// model's estimate of 4 bytes a thread, and the UB write from the
// destination pointer to the last gathered element (80 floats). Values the
// earlier tests never left in UB, so that every element changes.
TEST_F(Simt, TheStartIsOneVectorRecord) {
    std::vector<float> table(64);
    for (int i = 0; i < 64; ++i) table[i] = 1000.0f + 0.5f * static_cast<float>(i);
    std::vector<uint32_t> idx(80);
    for (uint32_t t = 0; t < 80; ++t) idx[t] = (t * 13u + 5u) % 64u;
    std::mutex mu;
    std::vector<ptosim::OpRecord> starts;
    const int id = ptosim::subscribe([&](const ptosim::Core&, const ptosim::OpRecord& r) {
        std::lock_guard lk(mu);
        if (std::string(r.op) == "async_invoke") starts.push_back(r);
    });
    float* out = device(std::vector<float>(80, -1.0f));
    launch_simt_gather(out, device(table), device(idx), 80, stream);
    EXPECT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    ptosim::unsubscribe(id);
    ASSERT_EQ(starts.size(), 1u);
    const ptosim::OpRecord& r = starts[0];
    EXPECT_EQ(r.pipe, ptosim::Pipe::V);
    EXPECT_EQ(r.elements, 96u);
    EXPECT_EQ(r.bytes, 384u);
    EXPECT_EQ(r.n_reads, 0);
    ASSERT_EQ(r.n_writes, 1);
    EXPECT_EQ(r.writes[0].space, ptosim::Space::UB);
    EXPECT_EQ(r.writes[0].offset, 0x4000u);
    EXPECT_EQ(r.writes[0].bytes, 320u);
    EXPECT_NE(r.loc.file_line().find(kernel_line("gather start")), std::string::npos) << r.loc.file_line();
    const std::vector<float> got = back(out, 80);
    for (uint32_t t = 0; t < 80; ++t) EXPECT_EQ(got[t], table[idx[t]]) << t;
}

// Three warps: each thread gets its warp's sum (a butterfly over the 32
// lanes), and after the block barrier every thread sees the three sums the
// warps' first threads left in UB.
TEST_F(Simt, WarpSumsAndABlockBarrier) {
    float* out = device(std::vector<float>(192, -1.0f));
    launch_simt_warp_sum(out, stream);
    const std::vector<float> r = back(out, 192);
    float sums[3];
    for (uint32_t w = 0; w < 3; ++w) {
        float lane[32];
        for (uint32_t x = 0; x < 32; ++x) {
            const uint32_t t = w * 32 + x;
            lane[x] = static_cast<float>(t) + 1.0f / static_cast<float>(t + 3);
        }
        for (uint32_t k = 16; k > 0; k /= 2) {
            float next[32];
            for (uint32_t i = 0; i < 32; ++i) next[i] = lane[i] + lane[i ^ k];
            std::copy(next, next + 32, lane);
        }
        sums[w] = lane[0];
    }
    float all = static_cast<float>(std::exp(-1.0));
    for (float v : sums) all += v;
    for (uint32_t t = 0; t < 96; ++t) {
        EXPECT_EQ(r[t * 2], sums[t / 32]) << t;
        EXPECT_EQ(r[t * 2 + 1], all) << t;
    }
    // The reference itself: each warp's sum to float precision.
    for (uint32_t w = 0; w < 3; ++w) {
        double exact = 0;
        for (uint32_t t = w * 32; t < w * 32 + 32; ++t) exact += t + 1.0 / (t + 3);
        EXPECT_NEAR(sums[w], exact, 1e-3) << w;
    }
}

// A thread waits at a barrier the others end without reaching: the start
// faults, naming the waiting thread's line and the ones that ended.
TEST_F(Simt, ABlockBarrierNotEveryThreadReachesFaults) {
    int32_t* out = device(std::vector<int32_t>(16, 0));
    launch_simt_barrier(out, stream);
    const std::string m = fault_of_launch();
    EXPECT_NE(m.find("faulted on AIV block 1 at "), std::string::npos) << m;
    EXPECT_NE(m.find(kernel_line("barrier start") + ": cce::async_invoke<barrier_body> over dim3{8, 2, 1}: its SIMT "
                     "threads wait for each other forever: thread (0, 0, 0) and 14 more ended without reaching it; "
                     "thread (5, 1, 0) waits at __sync_workitems ("),
              std::string::npos)
        << m;
    EXPECT_NE(m.find(kernel_line("barrier") + "). A block barrier goes on once every thread of the block reached it"),
              std::string::npos)
        << m;
}

TEST_F(Simt, AWarpSumAgainstABarrierFaults) {
    int32_t* out = device(std::vector<int32_t>(32, 0));
    launch_simt_mismatch(out, stream);
    const std::string m = fault_of_launch();
    EXPECT_NE(m.find(kernel_line("mismatch start") + ": cce::async_invoke<mismatch_body> over dim3{32, 1, 1}: its "
                     "SIMT threads wait for each other forever: thread (0, 0, 0) and 15 more wait at "
                     "__builtin_cce_redux_add_f32 ("),
              std::string::npos)
        << m;
    EXPECT_NE(m.find(kernel_line("warp sum") + "); thread (16, 0, 0) and 15 more wait at __sync_workitems ("),
              std::string::npos)
        << m;
    EXPECT_NE(m.find(kernel_line("mismatched barrier") + "). A block barrier"), std::string::npos) << m;
}

TEST_F(Simt, AThreadIndexOutsideASimtBodyFaults) {
    uint32_t* out = device(std::vector<uint32_t>(1, 0));
    launch_simt_outside(out, stream);
    const std::string m = fault_of_launch();
    EXPECT_NE(m.find(kernel_line("outside") + ":"), std::string::npos) << m;
    EXPECT_NE(m.find("threadIdx.x read outside a SIMT vector function: the built-in variables exist only in a "
                     "__simt_vf__ function started by cce::async_invoke"),
              std::string::npos)
        << m;
}

TEST_F(Simt, MoreThan2048ThreadsFault) {
    int32_t* out = device(std::vector<int32_t>(1, 0));
    launch_simt_too_many(out, stream);
    const std::string m = fault_of_launch();
    EXPECT_NE(m.find(kernel_line("too many") + ":"), std::string::npos) << m;
    EXPECT_NE(m.find("cce::async_invoke<empty_body> over dim3{64, 33, 1} starts 2112 threads; "
                     "a SIMT thread block holds at most 2048 (x * y * z)"),
              std::string::npos)
        << m;
}

// A bad store in a SIMT body kills the process as on the device, after the
// crash report names the core, the thread and the async_invoke's line.
TEST(SimtDeathTest, ACrashInABodyNamesTheThread) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            (void)aclInit(nullptr);
            (void)aclrtSetDevice(0);
            aclrtStream s = nullptr;
            (void)aclrtCreateStream(&s);
            void* d = nullptr;
            (void)aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST);
            launch_simt_crash(static_cast<int32_t*>(d), s);
            (void)aclrtSynchronizeStream(s);
        },
        "SIGSEGV \\(address 0x1c\\) in kernel 'simt_crash' on AIV 0; last PTO call async_invoke \\(SIMT thread "
        "\\(3, 0, 0\\) of crash_body\\) at [^ ]*" + kernel_line("crash") + "\\.");
}

}  // namespace
