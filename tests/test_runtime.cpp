// Launch model, scheduler, flags and streams, driven through the runtime API
// and the intrinsics' runtime entry points (no PTO headers needed).
#include <ptosim/intrinsics.hpp>
#include <ptosim/check.hpp>
#include <ptosim/cce_cube.hpp>
#include <ptosim/gemm.hpp>
#include <ptosim/runtime.hpp>
#include <gtest/gtest.h>
#include <unistd.h>
#include <csignal>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

using namespace ptosim;

namespace {

SourceLoc here(int line) { return SourceLoc{"kernel.cpp", line}; }

LaunchSpec spec(KernelKind kind, uint32_t block_dim, std::function<void()> aic, std::function<void()> aiv) {
    LaunchSpec s;
    s.kernel = "k";
    s.site = {"host.cpp", 7};
    s.target = Target::A2A3;
    s.kind = kind;
    s.block_dim = block_dim;
    s.aic_body = std::move(aic);
    s.aiv_body = std::move(aiv);
    return s;
}

Status run(KernelKind kind, uint32_t block_dim, std::function<void()> aic, std::function<void()> aiv) {
    return run_launch(Device::get(), spec(kind, block_dim, std::move(aic), std::move(aiv)));
}

struct Ids {
    CoreType type;
    int64_t block, num, sub, subdim;
    bool operator==(const Ids&) const = default;
};

Ids ids() {
    Core& c = core();
    return {c.type, c.block_idx, c.block_num, c.subblock_id, c.subblock_dim};
}

// Tests of the serial schedule's order (what host code in the kernel sees,
// one core after another) pin one host thread; others run on the default.
struct SimThreads {
    explicit SimThreads(int n) { set_sim_threads(n); }
    ~SimThreads() { set_sim_threads(0); }
};

}  // namespace

TEST(Launch, VectorKernelSeesOneBlockPerCore) {
    SimThreads serial(1);
    std::vector<Ids> seen;
    ASSERT_TRUE(run(KernelKind::Vec, 3, nullptr, [&] { seen.push_back(ids()); }).ok());
    std::vector<Ids> want = {{CoreType::AIV, 0, 3, 0, 1}, {CoreType::AIV, 1, 3, 0, 1}, {CoreType::AIV, 2, 3, 0, 1}};
    EXPECT_EQ(seen, want);
}

TEST(Launch, CubeKernelSeesOneBlockPerCore) {
    SimThreads serial(1);
    std::vector<Ids> seen;
    ASSERT_TRUE(run(KernelKind::Cube, 2, [&] { seen.push_back(ids()); }, nullptr).ok());
    std::vector<Ids> want = {{CoreType::AIC, 0, 2, 0, 1}, {CoreType::AIC, 1, 2, 0, 1}};
    EXPECT_EQ(seen, want);
}

TEST(Launch, MixKernelGroupsOneCubeWithTwoVectorSubBlocks) {
    SimThreads serial(1);
    std::vector<Ids> seen;
    auto body = [&] { seen.push_back(ids()); };
    ASSERT_TRUE(run(KernelKind::Mix, 2, body, body).ok());
    std::vector<Ids> want = {{CoreType::AIC, 0, 2, 0, 1}, {CoreType::AIV, 0, 2, 0, 2}, {CoreType::AIV, 0, 2, 1, 2},
                             {CoreType::AIC, 1, 2, 0, 1}, {CoreType::AIV, 1, 2, 0, 2}, {CoreType::AIV, 1, 2, 1, 2}};
    EXPECT_EQ(seen, want);
}

TEST(Launch, LocalBuffersMatchTheSocProfile) {
    uint64_t ub = 0, l0c = 0, l1 = 0;
    ASSERT_TRUE(run(KernelKind::Mix, 1, [&] { l0c = core().mem_size[int(Space::L0C)]; l1 = core().mem_size[int(Space::L1)]; },
                    [&] { ub = core().mem_size[int(Space::UB)]; })
                    .ok());
    const SocProfile& soc = Device::get().soc();
    EXPECT_EQ(ub, soc.ub);
    EXPECT_EQ(l0c, soc.l0c);
    EXPECT_EQ(l1, soc.l1);
    EXPECT_EQ(std::string(soc.name), "Ascend910B2");
    EXPECT_EQ(ub, 192u * 1024);
}

TEST(Launch, BlocksBeyondTheCoreCountRunInWavesWithOneWarning) {
    SimThreads serial(1);
    const int cores = Device::get().soc().aiv;
    std::vector<int> slots;
    auto body = [&] { slots.push_back(core().physical); };
    testing::internal::CaptureStderr();
    LaunchSpec s = spec(KernelKind::Vec, cores + 5, nullptr, body);
    s.kernel = "wavy";
    ASSERT_TRUE(run_launch(Device::get(), s).ok());
    ASSERT_TRUE(run_launch(Device::get(), s).ok());
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(slots.size(), 2u * (cores + 5));
    EXPECT_NE(err.find("block_dim " + std::to_string(cores + 5) + " exceeds the " + std::to_string(cores) + " Vector cores"),
              std::string::npos)
        << err;
    EXPECT_EQ(err.find("exceeds"), err.rfind("exceeds")) << "warned more than once: " << err;
    // block `cores` reuses the first freed physical core
    EXPECT_EQ(slots[cores], 0);
}

TEST(Launch, LocalMemoryReadsZeroAtLaunchStartAndCarriesAcrossWaves) {
    const int cores = Device::get().soc().aiv;
    // one launch leaves a mark at the top and bottom of UB on every core it runs on
    auto mark = [] {
        Core& c = core();
        const uint64_t ub = c.mem_size[int(Space::UB)];
        c.mem[int(Space::UB)][0] = static_cast<uint8_t>(0xA0 + c.block_idx);
        c.mem[int(Space::UB)][ub - 1] = 0x5A;
    };
    ASSERT_TRUE(run(KernelKind::Vec, 2, nullptr, mark).ok());
    // the next launch finds its cores cleared; block `cores` runs where block 0 ran, after it
    std::vector<int> first(cores + 1, -1), last(cores + 1, -1);
    auto look = [&] {
        Core& c = core();
        const uint64_t ub = c.mem_size[int(Space::UB)];
        first[c.block_idx] = c.mem[int(Space::UB)][0];
        last[c.block_idx] = c.mem[int(Space::UB)][ub - 1];
        c.mem[int(Space::UB)][0] = static_cast<uint8_t>(0xB0 + c.block_idx);
    };
    ASSERT_TRUE(run(KernelKind::Vec, cores + 1, nullptr, look).ok());
    for (int b = 0; b < cores; ++b) {
        EXPECT_EQ(first[b], 0) << "block " << b;
        EXPECT_EQ(last[b], 0) << "block " << b;
    }
    EXPECT_EQ(first[cores], 0xB0);  // block 0's leftover on the same physical core
    int l1 = -1;
    ASSERT_TRUE(run(KernelKind::Cube, 1, [] { core().mem[int(Space::L1)][7] = 9; }, nullptr).ok());
    ASSERT_TRUE(run(KernelKind::Cube, 1, [&] { l1 = core().mem[int(Space::L1)][7]; }, nullptr).ok());
    EXPECT_EQ(l1, 0);
}

// A launch whose kernel never reaches its cores skips the look at local
// memory; what an earlier launch wrote on cores it did not use must still
// read as zero when a later launch uses them.
TEST(Launch, LocalMemoryStaysClearedAcrossALaunchThatTouchesNothing) {
    SimThreads serial(1);
    auto mark = [] { core().mem[int(Space::UB)][3] = 0x77; };
    ASSERT_TRUE(run(KernelKind::Vec, 2, nullptr, mark).ok());
    ASSERT_TRUE(run(KernelKind::Vec, 1, nullptr, [] {}).ok());  // clears core 0 only
    std::vector<int> seen(2, -1);
    ASSERT_TRUE(run(KernelKind::Vec, 2, nullptr, [&] { seen[core().block_idx] = core().mem[int(Space::UB)][3]; }).ok());
    EXPECT_EQ(seen, (std::vector<int>{0, 0}));
}

// On host threads each thread clears the cores of its own physical group
// slots before it runs blocks there: in a mix launch a Cube core and its two
// Vector cores (Cube core p, Vector cores 2p and 2p+1).
TEST(Launch, EachHostThreadClearsTheLocalMemoryOfItsOwnCores) {
    SimThreads two(2);
    const int groups = std::min(Device::get().soc().aic, Device::get().soc().aiv / 2);
    auto local = [] {
        Core& c = core();
        return c.mem[int(c.type == CoreType::AIC ? Space::L1 : Space::UB)] + 5;
    };
    auto mark = [&] { *local() = 0x33; };
    ASSERT_TRUE(run(KernelKind::Mix, groups, mark, mark).ok());
    std::vector<int> seen(groups * 3, -1);
    auto look = [&] { seen[core().index] = *local(); };
    ASSERT_TRUE(run(KernelKind::Mix, groups, look, look).ok());
    EXPECT_EQ(seen, std::vector<int>(groups * 3, 0));
}

// Cores switch at cross-core signals and satisfied waits, and the ready core
// with the lowest progress clock goes on, the lowest-numbered among equals
// (docs/semantics.md, "Which core runs next"): each block signals the barrier
// after two instructions, so blocks 1 and 2 (clock 0) run up to their signal
// before block 0 goes on; block 0's wait moves its clock past theirs, so they
// finish first.
TEST(Launch, CoresSwitchAtSignalsToTheLowestClock) {
    SimThreads serial(1);
    std::vector<int> order;
    auto aic = [&] {
        intr::set_ffts_base_addr(here(2), Device::get().ffts_ctrl_addr());
        Core& c = core();
        order.push_back(static_cast<int>(c.block_idx));
        intr::ffts_cross_core_sync(here(3), Pipe::FIX, 1 | (0 << 4) | (5 << 8));
        if (c.block_idx == 0) intr::wait_flag_dev(here(4), 5);
        order.push_back(100 + static_cast<int>(c.block_idx));
    };
    ASSERT_TRUE(run(KernelKind::Cube, 3, aic, nullptr).ok());
    std::vector<int> want = {0, 1, 2, 101, 102, 100};
    EXPECT_EQ(order, want);
}

// ptosim::core() finds the running core from the stack pointer: each core's
// fiber stack is a slot of one reserved region whose top names the core
// (include/ptosim/core.hpp, "The running core"). What it finds is the core
// the thread-local pointer names, at any depth of the stack, after the core
// waited and resumed, in later waves whose cores reuse the stacks, and on
// every host thread; the host thread's stack is no fiber's.
namespace {
struct CoreSeen {
    int64_t block = -1;    // core().block_idx
    bool on_region = false;  // the stack is a slot of the region, naming the thread-local core
    bool same = false;     // core() and current_core_or_null() are the thread-local core
};
CoreSeen see_core() {
    CoreSeen s;
    const detail::FiberStackTop* top = detail::fiber_stack_top(detail::stack_pointer());
    s.on_region = top && top->core && top->core == detail::thread_core();
    Core& c = core();
    s.same = &c == detail::thread_core() && current_core_or_null() == &c;
    s.block = c.block_idx;
    return s;
}
// About 6 MiB down the 8 MiB stack (a kilobyte a frame).
[[gnu::noinline]] CoreSeen see_core_at_depth(int n) {
    volatile char frame[1024];
    frame[0] = static_cast<char>(n);
    if (n == 0) return see_core();
    CoreSeen s = see_core_at_depth(n - 1);
    s.block += frame[0] - static_cast<char>(n);  // keeps the frame
    return s;
}
}  // namespace

TEST(Launch, TheRunningCoreIsFoundFromItsStackAtAnyDepthAfterAWaitAndInEveryWave) {
    // The host thread: no fiber stack, no core.
    EXPECT_EQ(detail::fiber_stack_top(detail::stack_pointer()), nullptr);
    EXPECT_EQ(detail::fiber_core(), nullptr);
    EXPECT_EQ(current_core_or_null(), nullptr);
    {
        // Blocks 1 and 2 run while block 0 waits; block 0 goes on after them.
        SimThreads serial(1);
        std::vector<CoreSeen> before(3), deep(3), after(3);
        auto aic = [&] {
            intr::set_ffts_base_addr(here(2), Device::get().ffts_ctrl_addr());
            const int64_t b = core().block_idx;
            before[b] = see_core();
            deep[b] = see_core_at_depth(6000);
            intr::ffts_cross_core_sync(here(3), Pipe::FIX, 1 | (0 << 4) | (5 << 8));
            if (b == 0) intr::wait_flag_dev(here(4), 5);
            after[b] = see_core_at_depth(100);
        };
        ASSERT_TRUE(run(KernelKind::Cube, 3, aic, nullptr).ok());
        for (int b = 0; b < 3; ++b)
            for (const CoreSeen* s : {&before[b], &deep[b], &after[b]}) {
                EXPECT_EQ(s->block, b);
                EXPECT_TRUE(s->on_region) << "block " << b;
                EXPECT_TRUE(s->same) << "block " << b;
            }
    }
    // Two host threads, two waves: the second wave's cores run on the
    // stacks the first wave's gave back.
    SimThreads two(2);
    const int n = Device::get().soc().aiv + 5;
    std::vector<CoreSeen> seen(n), deep(n);
    ASSERT_TRUE(run(KernelKind::Vec, n, nullptr, [&] {
                    const int64_t b = core().block_idx;
                    seen[b] = see_core();
                    deep[b] = see_core_at_depth(3000);
                }).ok());
    for (int b = 0; b < n; ++b) {
        EXPECT_EQ(seen[b].block, b);
        EXPECT_EQ(deep[b].block, b);
        EXPECT_TRUE(seen[b].on_region && deep[b].on_region) << "block " << b;
        EXPECT_TRUE(seen[b].same && deep[b].same) << "block " << b;
    }
    EXPECT_EQ(current_core_or_null(), nullptr);
}

TEST(LaunchDeathTest, AnIntrinsicOnTheHostThreadSaysItRanOutsideALaunch) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH((void)core(), "ptosim: error: a PTO instruction or core intrinsic ran outside a kernel launch; call "
                               "kernels through <<<...>>> \\(ptocc\\) or ptosim::run_launch");
    EXPECT_DEATH(intr::pipe_barrier(here(9), Pipe::V), "ran outside a kernel launch");
}

// A5's transposing L1 -> L0B load (ptosim::cce::load_2d_a5, what
// load_cbuf_to_cb with transpose runs) of 8-, 16- and 32-bit elements from a
// region that starts inside L1 and has strides on both sides: every
// destination byte is the documented mapping's (docs/intrinsics/a5-cube.md,
// "L1 -> L0A/L0B"), written element by element here; bytes outside the
// destination region keep their value. (The function uses only the core's
// L1 and L0B, which an A2A3 Cube core has too.)
TEST(Launch, TransposingL1ToL0BLoadsMoveEveryElementWhereTheMappingSays) {
    for (int bits : {8, 16, 32}) {
        const uint64_t c0 = 256 / bits, per_fractal = 512 * 8 / bits, e = bits / 8;
        cce::Load2dA5 l{};
        l.m_start = 1;
        l.k_start = 2;
        l.m_step = 2;
        l.k_step = 2;
        l.src_stride = 5;
        l.dst_stride = 5;
        l.transpose = true;
        const uint64_t src = 1024, dst = 512, bytes = 64 << 10;
        std::vector<uint8_t> l1(bytes), got, want(bytes, 0xab);
        for (uint64_t i = 0; i < bytes; ++i) l1[i] = static_cast<uint8_t>(i * 131 + i / 251 + bits);
        const uint64_t rows = l.m_step * 16, cols = l.k_step * c0;
        for (uint64_t i = 0; i < rows; ++i)
            for (uint64_t j = 0; j < cols; ++j) {
                const uint64_t from = ((l.k_start + j / c0) * l.src_stride + l.m_start + i / 16) * per_fractal +
                                      (i % 16) * c0 + j % c0;
                const uint64_t to = ((i / c0) * l.dst_stride + j / 16) * per_fractal + (j % 16) * c0 + i % c0;
                std::memcpy(&want[dst + to * e], &l1[from * e], e);  // L1 holds l1 from byte src
            }
        ASSERT_TRUE(run(KernelKind::Cube, 1, [&] {
                        Core& c = core();
                        ASSERT_GE(c.mem_size[static_cast<int>(Space::L1)], src + bytes);
                        ASSERT_GE(c.mem_size[static_cast<int>(Space::L0B)], bytes);
                        std::memcpy(c.mem[static_cast<int>(Space::L1)] + src, l1.data(), bytes);
                        std::memset(c.mem[static_cast<int>(Space::L0B)], 0xab, bytes);
                        cce::load_2d_a5(here(5), "load_cbuf_to_cb", Space::L0B, dst, src, l, bits);
                        const uint8_t* b = c.mem[static_cast<int>(Space::L0B)];
                        got.assign(b, b + bytes);
                    }, nullptr).ok());
        ASSERT_EQ(got.size(), want.size());
        const auto diff = std::mismatch(got.begin(), got.end(), want.begin());
        EXPECT_TRUE(diff.first == got.end())
            << bits << "-bit elements: L0B byte " << (diff.first - got.begin()) << " is " << int(*diff.first)
            << ", the mapping gives " << int(*diff.second) << " ("
            << std::count_if(got.begin(), got.end(), [&, i = size_t{0}](uint8_t v) mutable { return v != want[i++]; })
            << " bytes differ)";
    }
}

TEST(Launch, RejectsZeroBlocksAndTargetMismatch) {
    Status st = run(KernelKind::Vec, 0, nullptr, [] {});
    EXPECT_EQ(st.code, err::kInvalidParam);
    EXPECT_NE(st.message.find("block_dim is 0"), std::string::npos) << st.message;
    LaunchSpec s = spec(KernelKind::Vec, 1, nullptr, [] {});
    s.target = Target::A5;
    st = run_launch(Device::get(), s);
    EXPECT_EQ(st.code, err::kInvalidParam);
    // Nothing in this process chose a SoC (ctest runs each test alone; PTO_SIM_SOC unset).
    if (!std::getenv("PTO_SIM_SOC"))
        EXPECT_EQ(st.message,
                  "kernel 'k' launched at host.cpp:7: built for A5 but the simulated device is Ascend910B2 (A2A3), the "
                  "default (no PTO_SIM_SOC, runtime_camodel library, Device::select_soc or kernel library chose a SoC "
                  "before the first launch); a launch does not change the SoC: set PTO_SIM_SOC=Ascend950PR (or another "
                  "A5 SoC) for the process, or rebuild the kernel for A2A3 (--cce-aicore-arch=dav-c220*)");
    else
        EXPECT_NE(st.message.find("chosen by PTO_SIM_SOC; a launch does not change the SoC"), std::string::npos)
            << st.message;
    st = run(KernelKind::Mix, 1, [] {}, nullptr);
    EXPECT_NE(st.message.find("lacks its Vector core variant"), std::string::npos) << st.message;
}

TEST(Launch, SocCannotChangeAfterTheFirstLaunch) {
    ASSERT_TRUE(run(KernelKind::Vec, 1, nullptr, [] {}).ok());
    Status st = Device::get().select_soc("Ascend950PR");
    EXPECT_EQ(st.code, err::kInvalidParam);
    EXPECT_NE(st.message.find("cannot change after the first launch"), std::string::npos);
    EXPECT_EQ(Device::get().select_soc("Ascend9000").message, "unknown SoC 'Ascend9000'");
}

// A core left blocked when its launch ends is unwound: the objects on its
// stack are destroyed (a leak otherwise, found by LeakSanitizer).
TEST(Flags, CoresLeftBlockedByADeadlockHaveTheirStacksUnwound) {
    static std::atomic<int> destroyed{0};
    struct Guard {
        ~Guard() { ++destroyed; }
    };
    destroyed = 0;
    Status st = run(KernelKind::Vec, 3, nullptr, [] {
        Guard g;
        if (core().block_idx != 0) intr::wait_flag(here(42), Pipe::MTE2, Pipe::V, 0);
    });
    EXPECT_EQ(st.code, err::kKernelDeadlock);
    EXPECT_EQ(destroyed.load(), 3);  // the finished core and the two blocked ones
}

TEST(Flags, WaitWithoutSetIsADeadlockNamingCoreFlagAndLine) {
    Status st = run(KernelKind::Vec, 2, nullptr, [] {
        if (core().block_idx == 1) intr::wait_flag(here(42), Pipe::MTE2, Pipe::V, 0);
    });
    EXPECT_EQ(st.code, err::kKernelDeadlock);
    EXPECT_NE(st.message.find("deadlock in kernel 'k' (launched at host.cpp:7, block_dim 2, Ascend910B2)"),
              std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("1 blocked, 1 finished"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("AIV block 1 waits at kernel.cpp:42: wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) but no "
                              "set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) preceded it"),
              std::string::npos)
        << st.message;
}

TEST(Flags, DeadlockReportGroupsConsecutiveCoresWaitingAlike) {
    Status st = run(KernelKind::Vec, 48, nullptr, [] {
        if (core().block_idx != 5) intr::wait_flag(here(42), Pipe::MTE2, Pipe::V, 0);
    });
    EXPECT_EQ(st.code, err::kKernelDeadlock);
    const std::string what = " waits at kernel.cpp:42: wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) but no "
                             "set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0) preceded it on this core; it is never set";
    EXPECT_NE(st.message.find("\n  AIV block 0 .. AIV block 4" + what + "\n  AIV block 6 .. AIV block 47" + what + "\n"),
              std::string::npos)
        << st.message;
    size_t lines = 0;
    for (size_t p = st.message.find(" waits at "); p != std::string::npos; p = st.message.find(" waits at ", p + 1)) ++lines;
    EXPECT_EQ(lines, 2u) << st.message;
}

TEST(Flags, SetThenWaitPassesAndDoubleSetFaults) {
    EXPECT_TRUE(run(KernelKind::Vec, 1, nullptr, [] {
                    intr::set_flag(here(1), Pipe::V, Pipe::MTE3, 7);
                    intr::wait_flag(here(2), Pipe::V, Pipe::MTE3, 7);
                    intr::set_flag(here(3), Pipe::V, Pipe::MTE3, 7);
                    intr::wait_flag(here(4), Pipe::V, Pipe::MTE3, 7);
                }).ok());
    Status st = run(KernelKind::Vec, 1, nullptr, [] {
        intr::set_flag(here(10), Pipe::V, Pipe::MTE3, 1);
        intr::set_flag(here(11), Pipe::V, Pipe::MTE3, 1);
    });
    EXPECT_EQ(st.code, err::kVectorCoreException);
    EXPECT_NE(st.message.find("faulted on AIV block 0 at kernel.cpp:11: set_flag(PIPE_V, PIPE_MTE3, EVENT_ID1) while "
                              "the flag is still set"),
              std::string::npos)
        << st.message;
}

TEST(Flags, EventIdAndPipeRangesAreChecked) {
    Status st = run(KernelKind::Vec, 1, nullptr, [] { intr::set_flag(here(5), Pipe::V, Pipe::MTE3, 8); });
    EXPECT_NE(st.message.find("event id 8 is out of range; use EVENT_ID0..EVENT_ID7"), std::string::npos) << st.message;
    st = run(KernelKind::Vec, 1, nullptr, [] { intr::set_flag(here(5), Pipe::ALL, Pipe::MTE3, 0); });
    EXPECT_NE(st.message.find("PIPE_ALL is only valid in pipe_barrier"), std::string::npos) << st.message;
}

TEST(Ffts, Mode2CubeReleasesBothVectorsAndWaitsForBoth) {
    std::vector<std::string> log;
    auto aic = [&] {
        intr::set_ffts_base_addr(here(1), Device::get().ffts_ctrl_addr());
        log.push_back("aic signal");
        intr::ffts_cross_core_sync(here(2), Pipe::FIX, 1 | (2 << 4) | (3 << 8));
        intr::wait_flag_dev(here(3), 4);
        log.push_back("aic released");
    };
    auto aiv = [&] {
        intr::set_ffts_base_addr(here(4), Device::get().ffts_ctrl_addr());
        intr::wait_flag_dev(here(5), 3);
        log.push_back("aiv " + std::to_string(core().subblock_id));
        intr::ffts_cross_core_sync(here(6), Pipe::MTE3, 1 | (2 << 4) | (4 << 8));
    };
    ASSERT_TRUE(run(KernelKind::Mix, 1, aic, aiv).ok());
    std::vector<std::string> want = {"aic signal", "aiv 0", "aiv 1", "aic released"};
    EXPECT_EQ(log, want);
}

TEST(Ffts, CubeWaitingForOneMissingSubBlockIsReported) {
    auto aic = [] {
        intr::set_ffts_base_addr(here(1), Device::get().ffts_ctrl_addr());
        intr::wait_flag_dev(here(20), 4);
    };
    auto aiv = [] {
        intr::set_ffts_base_addr(here(4), Device::get().ffts_ctrl_addr());
        if (core().subblock_id == 0) intr::ffts_cross_core_sync(here(21), Pipe::MTE3, 1 | (2 << 4) | (4 << 8));
    };
    Status st = run(KernelKind::Mix, 1, aic, aiv);
    EXPECT_EQ(st.code, err::kKernelDeadlock);
    EXPECT_NE(st.message.find("AIC block 0 waits at kernel.cpp:20: wait_flag_dev(4) needs 1 release of FFTS flag 4, has 0"),
              std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("AIV block 0 sub 0 ffts_cross_core_sync(mode 2, flag 4) at kernel.cpp:21"), std::string::npos)
        << st.message;
}

TEST(Ffts, Mode1SynchronisesTheTwoSubBlocks) {
    std::vector<int> order;
    auto aiv = [&] {
        intr::set_ffts_base_addr(here(1), Device::get().ffts_ctrl_addr());
        order.push_back(static_cast<int>(core().subblock_id));
        intr::ffts_cross_core_sync(here(2), Pipe::MTE3, 1 | (1 << 4) | (2 << 8));
        intr::wait_flag_dev(here(3), 2);
        order.push_back(10 + static_cast<int>(core().subblock_id));
    };
    ASSERT_TRUE(run(KernelKind::Mix, 1, [] {}, aiv).ok());
    // Both sub-blocks signal at clock 2 and leave the barrier at clock 3, so
    // they go on in core order.
    std::vector<int> want = {0, 1, 10, 11};
    EXPECT_EQ(order, want);
}

// Without set_ffts_base_addr a core signals through the runtime's base (the
// device's behaviour for kernels that never set one); a different base faults.
TEST(Ffts, UsesTheRuntimeBaseUnlessTheKernelSetsAnotherAndNeedsAValidMode) {
    Status st = run(KernelKind::Vec, 1, nullptr, [] {
        intr::ffts_cross_core_sync(here(9), Pipe::MTE3, 1 | (0 << 4));
        intr::wait_flag_dev(here(10), 0);
    });
    EXPECT_TRUE(st.ok()) << st.message;
    st = run(KernelKind::Vec, 1, nullptr, [] {
        intr::set_ffts_base_addr(here(8), Device::get().ffts_ctrl_addr() + 64);
        intr::ffts_cross_core_sync(here(9), Pipe::MTE3, 1 | (0 << 4));
    });
    EXPECT_NE(st.message.find("at kernel.cpp:9: ffts_cross_core_sync: set_ffts_base_addr at kernel.cpp:8 set the FFTS "
                              "base to 0x"),
              std::string::npos)
        << st.message;
    st = run(KernelKind::Vec, 1, nullptr, [] {
        intr::set_ffts_base_addr(here(1), Device::get().ffts_ctrl_addr());
        intr::ffts_cross_core_sync(here(9), Pipe::MTE3, 1 | (3 << 4));
    });
    EXPECT_NE(st.message.find("mode 3 in config bits 4-5 is not defined"), std::string::npos) << st.message;
    st = run(KernelKind::Vec, 1, nullptr, [] {
        intr::set_ffts_base_addr(here(1), Device::get().ffts_ctrl_addr());
        intr::ffts_cross_core_sync(here(9), Pipe::MTE3, 1 | (2 << 4));
    });
    EXPECT_NE(st.message.find("mode 2 synchronises a Cube core with its Vector sub-blocks; it needs a mix launch"),
              std::string::npos)
        << st.message;
}

TEST(Ffts, CounterHoldsFifteenSignals) {
    Status st = run(KernelKind::Mix, 1,
                    [] {
                        intr::set_ffts_base_addr(here(1), Device::get().ffts_ctrl_addr());
                        for (int i = 0; i < 16; ++i) intr::ffts_cross_core_sync(here(30), Pipe::FIX, 1 | (2 << 4) | (6 << 8));
                    },
                    [] {});
    EXPECT_NE(st.message.find("at kernel.cpp:30: ffts_cross_core_sync"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("already holds 15 unconsumed signals"), std::string::npos) << st.message;
}

TEST(Dispatch, SubscribersSeeEveryRecordWithItsSourceLine) {
    std::vector<std::string> ops;
    int id = subscribe([&](const Core& c, const OpRecord& r) {
        ops.push_back(std::string(r.op) + "@" + std::to_string(r.loc.line) + ":" + to_string(r.pipe) + ":" + c.name());
    });
    ASSERT_TRUE(run(KernelKind::Vec, 1, nullptr, [] {
                    intr::set_flag(here(1), Pipe::MTE2, Pipe::V, 0);
                    intr::wait_flag(here(2), Pipe::MTE2, Pipe::V, 0);
                    intr::pipe_barrier(here(3), Pipe::ALL);
                }).ok());
    unsubscribe(id);
    ASSERT_TRUE(run(KernelKind::Vec, 1, nullptr, [] { intr::pipe_barrier(here(4), Pipe::V); }).ok());
    std::vector<std::string> want = {"set_flag@1:PIPE_MTE2:AIV block 0", "wait_flag@2:PIPE_V:AIV block 0",
                                     "pipe_barrier@3:PIPE_ALL:AIV block 0"};
    EXPECT_EQ(ops, want);
}

TEST(Kernel, FaultsStopTheLaunchAndNameTheCore) {
    SimThreads serial(1);
    std::atomic<int> after{0};
    Status st = run(KernelKind::Vec, 3, nullptr, [&] {
        if (core().block_idx == 1) check_local(core(), Space::UB, 190 * 1024, 4096, "TLOAD destination tile", here(77));
        ++after;
    });
    EXPECT_EQ(st.code, err::kVectorCoreException);
    EXPECT_NE(st.message.find("faulted on AIV block 1 at kernel.cpp:77: TLOAD destination tile: bytes [0x2f800, 0x30800) "
                              "lie outside UB (196608 bytes on Ascend910B2)"),
              std::string::npos)
        << st.message;
    EXPECT_EQ(after.load(), 1) << "block 2 must not run after block 1 faulted";
    st = run(KernelKind::Vec, 1, nullptr, [] { check_local(core(), Space::L0A, 0, 32, "TMOV destination tile", here(5)); });
    EXPECT_NE(st.message.find("AIV block 0 has no L0A buffer"), std::string::npos) << st.message;
}

TEST(Kernel, CxxExceptionsBecomeFaults) {
    Status st = run(KernelKind::Cube, 1, [] { throw std::runtime_error("boom"); }, nullptr);
    EXPECT_EQ(st.code, err::kAiCoreException);
    EXPECT_NE(st.message.find("C++ exception escaped the kernel: boom"), std::string::npos) << st.message;
}

TEST(Stream, LaunchesAreAsynchronousAndATimeoutAbandonsTheKernel) {
    Stream* s = Device::get().create_stream();
    // Shared with the kernel, which may outlive this test by one PTO call.
    auto spins = std::make_shared<std::atomic<int>>(0);
    ASSERT_TRUE(s->enqueue_launch(spec(KernelKind::Vec, 2, nullptr, [spins] {
                     if (core().block_idx == 0) return intr::pipe_barrier(here(50), Pipe::V);
                     for (;;) {
                         intr::pipe_barrier(here(51), Pipe::MTE2);
                         ++*spins;
                         std::this_thread::sleep_for(std::chrono::milliseconds(1));
                     }
                 })).ok());
    testing::internal::CaptureStderr();
    Status st = s->synchronize(0.05);
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(st.code, err::kStreamSyncTimeout);
    const std::string report =
        "stream synchronisation timed out after 0.05 s: kernel 'k' (launched at host.cpp:7, block_dim 2) has 1 of 2 "
        "blocks finished; unfinished cores:\n  AIV block 1: last PTO call pipe_barrier at kernel.cpp:51\n  the kernel "
        "was abandoned (it stops at its next PTO call), and the stream accepts no more work";
    EXPECT_NE(st.message.find(report), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("raise PTO_SYNC_TIMEOUT_S"), std::string::npos) << st.message;
    EXPECT_NE(err.find("ptosim: error 507046: " + report), std::string::npos) << err;
    EXPECT_GT(spins->load(), 0);
    // The stream has failed: later work is refused, and teardown does not wait.
    Status again = s->synchronize(10);
    EXPECT_EQ(again.code, err::kStreamSyncTimeout);
    EXPECT_NE(again.message.find("the stream failed earlier and accepts no more work"), std::string::npos)
        << again.message;
    EXPECT_EQ(s->enqueue_launch(spec(KernelKind::Vec, 1, nullptr, [] {})).code, err::kStreamSyncTimeout);
    const auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(Device::get().destroy_stream(s).ok());
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);
}

// ptosim's C API (and ptolab's Python layer over it) keeps a timed-out
// kernel running, so that a later synchronisation can still wait for it.
TEST(Stream, ATimeoutThatKeepsTheKernelLetsALaterSyncWaitForIt) {
    Stream* s = Device::get().create_stream();
    auto release = std::make_shared<std::atomic<bool>>(false);
    auto ran = std::make_shared<std::atomic<bool>>(false);
    ASSERT_TRUE(s->enqueue_launch(spec(KernelKind::Vec, 1, nullptr, [release, ran] {
                     intr::pipe_barrier(here(60), Pipe::V);
                     while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
                     *ran = true;
                 })).ok());
    testing::internal::CaptureStderr();
    Status st = s->synchronize(0.05, Stream::OnTimeout::Keep);
    const std::string err = testing::internal::GetCapturedStderr();
    const std::string report =
        "stream synchronisation timed out after 0.05 s: kernel 'k' (launched at host.cpp:7, block_dim 1) has 0 of 1 "
        "blocks finished; unfinished cores:\n  AIV block 0: last PTO call pipe_barrier at kernel.cpp:60\n  the kernel "
        "keeps running";
    EXPECT_EQ(st.code, err::kStreamSyncTimeout);
    EXPECT_NE(st.message.find(report), std::string::npos) << st.message;
    EXPECT_NE(err.find("ptosim: error 507046: " + report), std::string::npos) << err;
    EXPECT_FALSE(ran->load());
    release->store(true);
    EXPECT_TRUE(s->synchronize(10).ok());
    EXPECT_TRUE(ran->load());
    ASSERT_TRUE(Device::get().destroy_stream(s).ok());
}

// A kernel that never reaches another PTO call cannot be stopped: teardown
// still returns, and the next launch waits for the cores it holds, naming it.
TEST(Stream, TeardownAfterATimeoutReturnsWhileTheKernelSpins) {
    auto release = std::make_shared<std::atomic<bool>>(false);
    Stream* s = Device::get().create_stream();
    LaunchSpec spinner = spec(KernelKind::Vec, 1, nullptr, [release] {
        while (!release->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    });
    spinner.kernel = "spinner";
    ASSERT_TRUE(s->enqueue_launch(spinner).ok());
    testing::internal::CaptureStderr();
    Status st = s->synchronize(0.05);
    EXPECT_NE(st.message.find("kernel 'spinner' (launched at host.cpp:7, block_dim 1) has 0 of 1 blocks finished; "
                              "unfinished cores:\n  AIV block 0: no PTO call yet"),
              std::string::npos)
        << st.message;
    auto t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(Device::get().destroy_stream(s).ok());
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);

    Stream* s2 = Device::get().create_stream();
    ASSERT_TRUE(s2->enqueue_launch(spec(KernelKind::Vec, 1, nullptr, [] {})).ok());
    st = s2->synchronize(0.05);
    (void)testing::internal::GetCapturedStderr();
    EXPECT_NE(st.message.find("its next kernel has not started: it waits for the device's cores, which kernel "
                              "'spinner' (launched at host.cpp:7) from another stream holds"),
              std::string::npos)
        << st.message;
    t0 = std::chrono::steady_clock::now();
    ASSERT_TRUE(Device::get().destroy_stream(s2).ok());
    EXPECT_LT(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), 0.5);
    release->store(true);
    EXPECT_TRUE(run(KernelKind::Vec, 1, nullptr, [] {}).ok());  // the cores are free again
}

TEST(Stream, ReportsTheFirstErrorOnceThenRecovers) {
    Stream* s = Device::get().create_stream();
    testing::internal::CaptureStderr();
    s->enqueue_launch(spec(KernelKind::Vec, 1, nullptr, [] { intr::wait_flag(here(3), Pipe::V, Pipe::MTE3, 2); }));
    s->enqueue_launch(spec(KernelKind::Vec, 0, nullptr, [] {}));
    Status st = s->synchronize(10);
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(st.code, err::kKernelDeadlock);
    EXPECT_NE(err.find("ptosim: error 507016: deadlock in kernel 'k'"), std::string::npos) << err;
    EXPECT_NE(err.find("ptosim: error 100000:"), std::string::npos) << "the second failure is printed too: " << err;
    EXPECT_TRUE(s->synchronize(10).ok());
    ASSERT_TRUE(Device::get().destroy_stream(s).ok());
    EXPECT_EQ(Device::get().destroy_stream(s).code, err::kInvalidParam);
}

TEST(Stream, DefaultSyncTimeoutComesFromTheEnvironment) {
    unsetenv("PTO_SYNC_TIMEOUT_S");
    EXPECT_EQ(default_sync_timeout_s(), 60.0);
    setenv("PTO_SYNC_TIMEOUT_S", "2.5", 1);
    EXPECT_EQ(default_sync_timeout_s(), 2.5);
    setenv("PTO_SYNC_TIMEOUT_S", "soon", 1);
    testing::internal::CaptureStderr();
    EXPECT_EQ(default_sync_timeout_s(), 60.0);
    EXPECT_NE(testing::internal::GetCapturedStderr().find("PTO_SYNC_TIMEOUT_S='soon' is not a positive number"),
              std::string::npos);
    unsetenv("PTO_SYNC_TIMEOUT_S");
}

TEST(Soc, ProfilesCoverBothTargets) {
    for (const char* n : {"Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910_93"}) {
        const SocProfile* p = find_soc(n);
        ASSERT_NE(p, nullptr) << n;
        EXPECT_EQ(p->target, Target::A2A3);
        EXPECT_EQ(p->ub, 192u * 1024);
        EXPECT_EQ(p->l0c, 128u * 1024);
        EXPECT_EQ(p->aiv, 2 * p->aic);
    }
    for (const char* n : {"Ascend950PR", "Ascend950DT"}) {
        const SocProfile* p = find_soc(n);
        ASSERT_NE(p, nullptr) << n;
        EXPECT_EQ(p->target, Target::A5);
        EXPECT_EQ(p->ub, 256u * 1024);
        EXPECT_EQ(p->l0c, 256u * 1024);
    }
    EXPECT_EQ(find_soc("Ascend910B2")->aic, 24);
    EXPECT_EQ(find_soc("Ascend910B2")->aiv, 48);
    EXPECT_EQ(find_soc("Ascend310P"), nullptr);
}

namespace {

// Each block fills the first 4 KiB of its core's UB with its launch's tag,
// lets other host threads run, then counts the bytes still holding the tag.
LaunchSpec ub_probe(uint8_t tag, std::vector<int>* counts) {
    LaunchSpec s = spec(KernelKind::Vec, 8, nullptr, [tag, counts] {
        Core& c = core();
        uint8_t* ub = c.mem[int(Space::UB)];
        std::memset(ub, tag, 4096);
        std::this_thread::sleep_for(std::chrono::microseconds(300));
        (*counts)[c.block_idx] = static_cast<int>(std::count(ub, ub + 4096, tag));
    });
    s.kernel = "ub_probe";
    return s;
}

constexpr int kLaunchesPerStream = 3;

}  // namespace

TEST(Isolation, LaunchesOnSeveralStreamsFromOneThreadNeverShareCores) {
    for (int streams : {2, 4}) {
        for (int rep = 0; rep < 3; ++rep) {
            std::vector<Stream*> ss;
            std::vector<std::vector<int>> counts(streams * kLaunchesPerStream, std::vector<int>(8, -1));
            for (int i = 0; i < streams; ++i) ss.push_back(Device::get().create_stream());
            for (int k = 0; k < kLaunchesPerStream; ++k)
                for (int i = 0; i < streams; ++i)
                    ASSERT_TRUE(ss[i]->enqueue_launch(ub_probe(uint8_t(1 + i * kLaunchesPerStream + k),
                                                               &counts[i * kLaunchesPerStream + k])).ok());
            for (Stream* s : ss) EXPECT_TRUE(s->synchronize(30).ok());
            for (Stream* s : ss) ASSERT_TRUE(Device::get().destroy_stream(s).ok());
            for (auto& c : counts) EXPECT_EQ(c, std::vector<int>(8, 4096)) << streams << " streams, round " << rep;
        }
    }
}

TEST(Isolation, LaunchesFromSeveralHostThreadsNeverShareCores) {
    for (int threads : {2, 4}) {
        for (int rep = 0; rep < 3; ++rep) {
            std::vector<std::vector<int>> counts(threads * kLaunchesPerStream, std::vector<int>(8, -1));
            std::vector<int> sync_codes(threads, -1);
            std::vector<std::thread> hosts;
            for (int i = 0; i < threads; ++i) {
                hosts.emplace_back([i, &counts, &sync_codes] {
                    Stream* s = Device::get().create_stream();
                    for (int k = 0; k < kLaunchesPerStream; ++k)
                        (void)s->enqueue_launch(ub_probe(uint8_t(100 + i * kLaunchesPerStream + k),
                                                         &counts[i * kLaunchesPerStream + k]));
                    sync_codes[i] = s->synchronize(30).code;
                    (void)Device::get().destroy_stream(s);
                });
            }
            for (auto& t : hosts) t.join();
            EXPECT_EQ(sync_codes, std::vector<int>(threads, 0));
            for (auto& c : counts) EXPECT_EQ(c, std::vector<int>(8, 4096)) << threads << " threads, round " << rep;
        }
    }
}

TEST(Launch, EventIdCountersBelongToTheCoreAndStartAtZeroInEveryLaunch) {
    std::vector<std::vector<int64_t>> seen(2);
    auto body = [&] {
        auto& mine = seen[core().block_idx];
        if (core().block_idx == 0) {
            for (int i = 0; i < 10; ++i) mine.push_back(intr::next_event_id(Pipe::MTE2, Pipe::V));
            mine.push_back(intr::peek_event_id(Pipe::MTE2, Pipe::V));
            intr::reset_event_id(Pipe::MTE2, Pipe::V);
            mine.push_back(intr::next_event_id(Pipe::MTE2, Pipe::V));
        } else {
            mine.push_back(intr::next_event_id(Pipe::MTE2, Pipe::V));
            mine.push_back(intr::next_event_id(Pipe::V, Pipe::MTE3));
            mine.push_back(intr::next_event_id(Pipe::MTE2, Pipe::V));
        }
    };
    for (int launch = 0; launch < 2; ++launch) {
        seen.assign(2, {});
        ASSERT_TRUE(run(KernelKind::Vec, 2, nullptr, body).ok());
        EXPECT_EQ(seen[0], (std::vector<int64_t>{0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 0})) << "launch " << launch;
        EXPECT_EQ(seen[1], (std::vector<int64_t>{0, 0, 1})) << "launch " << launch;
    }
}

namespace {
size_t mapping_count() {
    std::ifstream maps("/proc/self/maps");
    return static_cast<size_t>(std::count(std::istreambuf_iterator<char>(maps), std::istreambuf_iterator<char>(), '\n'));
}
}  // namespace

TEST(Launch, SixtyFiveThousandBlocksRunInWavesWithBoundedMemory) {
    constexpr uint32_t n = 65535;
    std::vector<uint32_t> out(n, 0);
    size_t maps_at_start = mapping_count(), maps_at_end = 0;
    LaunchSpec s = spec(KernelKind::Vec, n, nullptr, [&] {
        const Core& c = core();
        out[c.block_idx] = static_cast<uint32_t>(c.block_idx) * 3u + 1u;
        if (c.block_idx == n - 1) maps_at_end = mapping_count();
    });
    s.kernel = "tiny";
    testing::internal::CaptureStderr();
    Status st = run_launch(Device::get(), s);
    (void)testing::internal::GetCapturedStderr();
    ASSERT_TRUE(st.ok()) << st.message;
    for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(out[i], i * 3u + 1u) << "block " << i;
    // one wave of stacks (48 Vector cores, two mappings each) and the pool
    EXPECT_LT(maps_at_end, maps_at_start + 1000) << maps_at_start;
}

TEST(Launch, MixGroupsBeyondTheCoreCountReuseTheFreedGroupsCores) {
    SimThreads serial(1);
    const int groups = Device::get().soc().aic + 2;  // 26 groups on 24 Cube cores
    std::vector<std::string> seen;
    auto body = [&] {
        const Core& c = core();
        if (c.block_idx >= groups - 2)
            seen.push_back(std::string(to_string(c.type)) + " " + std::to_string(c.block_idx) + "/" +
                           std::to_string(c.subblock_id) + "@" + std::to_string(c.physical));
    };
    testing::internal::CaptureStderr();
    ASSERT_TRUE(run(KernelKind::Mix, groups, body, body).ok());
    (void)testing::internal::GetCapturedStderr();
    // group 24 takes group 0's cores (Cube 0, Vector 0 and 1), group 25 group 1's
    std::vector<std::string> want = {"AIC 24/0@0", "AIV 24/0@0", "AIV 24/1@1",
                                     "AIC 25/0@1", "AIV 25/0@2", "AIV 25/1@3"};
    EXPECT_EQ(seen, want);
}

TEST(KernelDeathTest, BadPointerCrashNamesKernelCoreAndLastCall) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            (void)run(KernelKind::Vec, 2, nullptr, [] {
                if (core().block_idx == 1) {
                    intr::pipe_barrier(here(61), Pipe::V);
                    *reinterpret_cast<volatile int*>(uintptr_t{16}) = 1;
                }
            });
        },
        "ptosim: fatal: SIGSEGV \\(address 0x10\\) in kernel 'k' on AIV 1; last PTO call pipe_barrier at "
        "kernel.cpp:61. The address lies outside every device allocation and core buffer.* The faulting access at "
        ".*test_runtime.cpp:[0-9]+ is to address 0x10, inside the 196608 bytes of this core's UB: if it is a "
        "__ubuf__ or __cbuf__ pointer the kernel dereferenced itself, over ptolab's own headers");
}

[[gnu::noinline]] int deep(int n) {
    volatile char frame[4096];
    frame[0] = static_cast<char>(n);
    return n == 0 ? frame[0] : deep(n - 1) + frame[0];
}

TEST(KernelDeathTest, StackOverflowIsNamedAsSuch) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            (void)run(KernelKind::Vec, 2, nullptr, [] {
                if (core().block_idx == 1) {
                    intr::pipe_barrier(here(70), Pipe::V);
                    (void)deep(1 << 20);
                }
            });
        },
        "ptosim: fatal: kernel 'k' on AIV 1 overflowed its stack \\(8 MiB per simulated core; address 0x[0-9a-f]+\\); "
        "last PTO call pipe_barrier at kernel.cpp:70. Deep recursion or large local arrays");
}

TEST(KernelDeathTest, CrashInsideTheSimulatorIsNotBlamedOnTheKernel) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            (void)run(KernelKind::Vec, 1, nullptr, [] {
                intr::pipe_barrier(here(80), Pipe::V);
                float c[4] = {};
                ptosim::gemm_accumulate(2, 2, 2, reinterpret_cast<const float*>(uintptr_t{64}), c, c);
            });
        },
        "ptosim: fatal: SIGSEGV \\(address 0x40\\) inside the simulator's own code \\(libptosim.so\\+0x[0-9a-f]+[^)]*\\) "
        "while kernel 'k' ran on AIV 0; last PTO call pipe_barrier at kernel.cpp:80. This is a ptosim bug unless");
}

TEST(KernelDeathTest, CrashBeforeAnyPtoCallSaysSo) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        { (void)run(KernelKind::Vec, 1, nullptr, [] { *reinterpret_cast<volatile int*>(uintptr_t{32}) = 1; }); },
        "in kernel 'k' on AIV 0; no PTO call yet on this core. The address");
}

// What a failed assert calls (declared by <assert.h> only without NDEBUG).
extern "C" [[noreturn]] void __assert_fail(const char*, const char*, unsigned int, const char*) noexcept;

// A kernel that ends the process is reported like a bad access: kernel,
// launch site, core and last PTO call; and exit(0) is never a pass.
constexpr const char* kWhere = "in kernel 'k' \\(launched at host.cpp:7\\) on AIV 1; last PTO call pipe_barrier at kernel.cpp:";

void on_block_1(int line, void (*end)()) {
    (void)run(KernelKind::Vec, 2, nullptr, [line, end] {
        if (core().block_idx == 1) {
            intr::pipe_barrier(here(line), Pipe::V);
            end();
        }
    });
}

// The hardware trap is the point: under UBSan the division must not be
// caught as undefined behaviour first.
__attribute__((no_sanitize("integer-divide-by-zero"))) void divide_by_zero() {
    volatile int zero = 0;
    volatile int q = 7 / zero;
    (void)q;
}

TEST(KernelDeathTest, IntegerDivisionByZeroNamesKernelAndCore) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(on_block_1(101, divide_by_zero),
                testing::KilledBySignal(SIGFPE),
                std::string("^ptosim: fatal: SIGFPE \\(integer division by zero at 0x[0-9a-f]+\\) ") + kWhere +
                    "101. Kernel scalar code divided an integer by zero \\(or INT_MIN by -1\\): check the divisor "
                    "before dividing\n$");
}

TEST(KernelDeathTest, IllegalInstructionNamesKernelAndCore) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(on_block_1(102, [] { __builtin_trap(); }), testing::KilledBySignal(SIGILL),
                std::string("^ptosim: fatal: SIGILL \\(illegal instruction at 0x[0-9a-f]+\\) ") + kWhere +
                    "102. Kernel code ran an instruction this host cannot execute \\(or "
                    "__builtin_trap/__builtin_unreachable\\): build for this host and remove the trap\n$");
}

TEST(KernelDeathTest, AbortAndFailedAssertNameKernelAndCore) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string tail = "A failed assert \\(its message is above\\), std::terminate or abort\\(\\) in "
                             "kernel code ends the process: fix the condition the kernel checks\n$";
    EXPECT_EXIT(on_block_1(103, [] { std::abort(); }), testing::KilledBySignal(SIGABRT),
                std::string("^ptosim: fatal: SIGABRT \\(abort\\(\\) called\\) ") + kWhere + "103. " + tail);
    EXPECT_EXIT(on_block_1(104, [] { __assert_fail("n > 0", "kernel.cpp", 104, "void k()"); }),
                testing::KilledBySignal(SIGABRT),
                std::string("Assertion `n > 0' failed.\n"
                            "ptosim: fatal: SIGABRT \\(abort\\(\\) called\\) ") +
                    kWhere + "104. " + tail);
}

TEST(KernelDeathTest, ExitFromAKernelIsAFailureNamingKernelAndCore) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const std::string tail = ". Kernel code cannot end the process \\(a device kernel has no exit\\): return from "
                             "the kernel instead. The process ends with status 1\n$";
    EXPECT_EXIT(on_block_1(105, [] { std::exit(0); }), testing::ExitedWithCode(1),
                std::string("^ptosim: fatal: exit\\(0\\) called ") + kWhere + "105" + tail);
    EXPECT_EXIT(on_block_1(106, [] { _exit(0); }), testing::ExitedWithCode(1),
                std::string("^ptosim: fatal: _exit\\(0\\) called ") + kWhere + "106" + tail);
    EXPECT_EXIT(on_block_1(107, [] { std::_Exit(3); }), testing::ExitedWithCode(1),
                std::string("^ptosim: fatal: _Exit\\(3\\) called ") + kWhere + "107" + tail);
    EXPECT_EXIT(on_block_1(108, [] { std::quick_exit(0); }), testing::ExitedWithCode(1),
                std::string("^ptosim: fatal: quick_exit\\(0\\) called ") + kWhere + "108" + tail);
}

// Host code keeps the C library's behaviour: its own status, no report.
TEST(KernelDeathTest, ExitFromHostCodeIsUntouched) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            (void)run(KernelKind::Vec, 1, nullptr, [] {});
            std::exit(0);
        },
        testing::ExitedWithCode(0), "^$");
}

namespace ptosim {
void check_gm(const void* p, uint64_t bytes, const char* what, const SourceLoc& loc);
}

TEST(GlobalMemory, SpansRunningIntoOrPastARegisteredBlockFault) {
    auto* block = static_cast<uint8_t*>(Device::get().allocate(256, true));
    Status st = run(KernelKind::Vec, 1, nullptr, [&] { check_gm(block - 64, 128, "TSTORE", here(90)); });
    EXPECT_NE(st.message.find("at kernel.cpp:90: TSTORE: GM bytes"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("start outside every registered allocation and run into the 256-byte allocation"),
              std::string::npos)
        << st.message;
    // Past the block is what the device tolerates: a fault only in strict mode.
    EXPECT_TRUE(run(KernelKind::Vec, 1, nullptr, [&] { check_gm(block + 200, 100, "TLOAD", here(91)); }).ok());
    check::set_strict(true);
    st = run(KernelKind::Vec, 1, nullptr, [&] { check_gm(block + 200, 100, "TLOAD", here(91)); });
    check::set_strict(false);
    EXPECT_NE(st.message.find("TLOAD at kernel.cpp:91 accesses GM"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("runs 44 bytes past the 256 bytes requested for the allocation"), std::string::npos)
        << st.message;
    EXPECT_TRUE(run(KernelKind::Vec, 1, nullptr, [&] { check_gm(block, 256, "TLOAD", here(92)); }).ok());
    ASSERT_TRUE(Device::get().release(block, true).ok());
}

// An unqualified pointer addresses the core's private space; pto-isa's
// t_dhrystone keeps its globals at fixed addresses there, and runs on the
// device. Each test uses addresses of its own: the mapping lasts the process.
volatile int* fixed(uintptr_t a) { return reinterpret_cast<volatile int*>(a); }

TEST(PrivateSpace, FixedAddressesAreMappedZeroedKeptAndNoted) {
    int first = -1, again = -1, next_launch = -1;
    testing::internal::CaptureStderr();
    Status st = run(KernelKind::Vec, 1, nullptr, [&] {
        first = *fixed(0x340010);
        *fixed(0x340010) = 42;
        again = *fixed(0x340010);
    });
    const std::string err = testing::internal::GetCapturedStderr();
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(first, 0);
    EXPECT_EQ(again, 42);
    EXPECT_NE(err.find("ptosim: memcheck: note: fixed-private-address in kernel 'k' on AIV block 0: the kernel "
                       "accessed the fixed private address 0x340010, which no allocation or buffer holds"),
              std::string::npos)
        << err;
    ASSERT_TRUE(run(KernelKind::Vec, 1, nullptr, [&] { next_launch = *fixed(0x340010); }).ok());
    EXPECT_EQ(next_launch, 42);
}

TEST(PrivateSpace, MemcheckReportsTheKernelsLine) {
    ASSERT_EQ(check::configure("mem"), "");
    (void)check::take_reports();
    testing::internal::CaptureStderr();
    const int line = __LINE__ + 1;
    Status st = run(KernelKind::Vec, 1, nullptr, [&] { *fixed(0x350000) = 1; });
    (void)testing::internal::GetCapturedStderr();
    std::vector<check::Report> reports = check::take_reports();
    ASSERT_EQ(check::configure(""), "");
    ASSERT_TRUE(st.ok()) << st.message;
    ASSERT_EQ(reports.size(), 1u);
    EXPECT_EQ(reports[0].kind, "fixed-private-address");
    EXPECT_EQ(reports[0].severity, "warning");
    ASSERT_EQ(reports[0].sites.size(), 1u);
    EXPECT_NE(reports[0].sites[0].loc.str().find("test_runtime.cpp:" + std::to_string(line)), std::string::npos)
        << reports[0].sites[0].loc.str();
}

TEST(PrivateSpaceDeathTest, StrictModeAndAddressesPastTheSpaceStillFault) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_DEATH(
        {
            check::set_strict(true);
            (void)run(KernelKind::Vec, 1, nullptr, [] { *fixed(0x360000) = 1; });
        },
        "SIGSEGV \\(address 0x360000\\) in kernel 'k' on AIV 0; no PTO call yet on this core. The address lies "
        "outside every device allocation and core buffer.* It is a fixed private address, which ptosim maps for the "
        "kernel unless PTO_SIM_STRICT is set, as it is now.");
    EXPECT_DEATH({ (void)run(KernelKind::Vec, 1, nullptr, [] { *fixed(uintptr_t{16} << 20) = 1; }); },
                 "SIGSEGV \\(address 0x1000000\\) in kernel 'k' on AIV 0; no PTO call yet on this core. The address "
                 "lies outside every device allocation and core buffer");
}

// Host threads: a launch spreads its physical cores over the threads
// (physical core p on thread p % threads, block b on physical core
// b % cores), and the result does not depend on the thread count.
TEST(Parallel, BlocksRunOnTheirPhysicalCoresThreadAndSeeTheirIds) {
    const auto caller = std::this_thread::get_id();
    for (int threads : {1, 2, 3}) {
        SimThreads pin(threads);
        std::vector<Ids> seen(4);
        std::vector<std::thread::id> where(4);
        ASSERT_TRUE(run(KernelKind::Vec, 4, nullptr, [&] {
                        seen[core().block_idx] = ids();
                        where[core().block_idx] = std::this_thread::get_id();
                    }).ok());
        for (int b = 0; b < 4; ++b) {
            EXPECT_EQ(seen[b], (Ids{CoreType::AIV, b, 4, 0, 1})) << "threads " << threads << " block " << b;
            // thread 0 is the launching thread
            EXPECT_EQ(where[b] == caller, b % threads == 0) << "threads " << threads << " block " << b;
        }
        if (threads == 2) EXPECT_EQ(where[1], where[3]);
    }
}

TEST(Parallel, WavesReuseTheSamePhysicalCoresAsTheSerialSchedule) {
    const int cores = Device::get().soc().aiv, n = cores + 5;
    std::vector<std::vector<int>> physical;
    for (int threads : {1, 2}) {
        SimThreads pin(threads);
        std::vector<int> p(n, -1);
        LaunchSpec s = spec(KernelKind::Vec, n, nullptr, [&] { p[core().block_idx] = core().physical; });
        s.kernel = "wavy";  // warned once already, or now (not checked here)
        testing::internal::CaptureStderr();
        ASSERT_TRUE(run_launch(Device::get(), s).ok());
        (void)testing::internal::GetCapturedStderr();
        physical.push_back(p);
    }
    EXPECT_EQ(physical[0], physical[1]);
    for (int b = 0; b < n; ++b) EXPECT_EQ(physical[1][b], b % cores) << "block " << b;
}

TEST(Parallel, TheLowestFaultingCoreIsReportedAndLowerCoresFinish) {
    SimThreads pin(2);
    std::vector<int> finished(6, 0);
    Status st = run(KernelKind::Vec, 6, nullptr, [&] {
        const int64_t b = core().block_idx;
        if (b == 5) check_local(core(), Space::UB, 1u << 30, 32, "TSTORE source tile", here(5));
        if (b == 3) check_local(core(), Space::UB, 1u << 30, 32, "TLOAD destination tile", here(3));
        finished[b] = 1;
    });
    EXPECT_EQ(st.code, err::kVectorCoreException);
    EXPECT_NE(st.message.find("faulted on AIV block 3 at kernel.cpp:3: TLOAD destination tile"), std::string::npos)
        << st.message;
    EXPECT_EQ(finished[0] + finished[1] + finished[2], 3) << "cores below the faulting one run to their end";
    EXPECT_EQ(finished[3], 0);
}

TEST(Parallel, CrossCoreBarriersOrderHostWritesAcrossThreads) {
    // Every round: each block writes its slot, meets the others at a mode-0
    // FFTS barrier, checks every slot, meets them again. A barrier that let a
    // block through early shows as a slot from the wrong round.
    constexpr int n = 6, rounds = 200;
    for (int threads : {1, 2}) {
        SimThreads pin(threads);
        std::vector<std::atomic<int>> slot(n);
        std::vector<int> wrong(n, 0);
        ASSERT_TRUE(run(KernelKind::Cube, n, [&] {
                        intr::set_ffts_base_addr(here(1), Device::get().ffts_ctrl_addr());
                        const int64_t b = core().block_idx;
                        for (int r = 1; r <= rounds; ++r) {
                            slot[b].store(r, std::memory_order_relaxed);
                            intr::ffts_cross_core_sync(here(2), Pipe::FIX, 1 | (0 << 4) | (3 << 8));
                            intr::wait_flag_dev(here(3), 3);
                            for (int i = 0; i < n; ++i) wrong[b] += slot[i].load(std::memory_order_relaxed) != r;
                            intr::ffts_cross_core_sync(here(4), Pipe::FIX, 1 | (0 << 4) | (4 << 8));
                            intr::wait_flag_dev(here(5), 4);
                        }
                    }, nullptr).ok());
        EXPECT_EQ(wrong, std::vector<int>(n, 0)) << "threads " << threads;
    }
}

TEST(Parallel, DeadlockReportIsTheSameOnEveryThreadCount) {
    // Blocks 0..3 meet at SYNCALL; block 4 never arrives: it waits for a
    // flag nobody sets. Each block signals once first.
    std::vector<std::string> reports;
    for (int threads : {1, 2, 3}) {
        SimThreads pin(threads);
        Status st = run(KernelKind::Mix, 5, [] {
            Core& c = core();
            intr::set_ffts_base_addr(here(10), Device::get().ffts_ctrl_addr());
            intr::ffts_cross_core_sync(here(11), Pipe::FIX, 1 | (2 << 4) | (6 << 8));
            if (c.block_idx == 4) intr::wait_flag_dev(here(12), 9);
            intr::syncall_hard(here(13), intr::SyncAllCores::AIC);
        }, [] { intr::wait_flag_dev(here(20), 6); });
        EXPECT_EQ(st.code, err::kKernelDeadlock);
        reports.push_back(st.message);
    }
    EXPECT_EQ(reports[0], reports[1]);
    EXPECT_EQ(reports[0], reports[2]);
    EXPECT_NE(reports[0].find("\n  AIC block 3 waits at kernel.cpp:13: SYNCALL<SyncCoreType::AICOnly> (hardware mode) "
                              "waits for all 5 participating cores of the launch; 4 have arrived\n"),
              std::string::npos)
        << reports[0];
    EXPECT_NE(reports[0].find("AIC block 4 waits at kernel.cpp:12: wait_flag_dev(9)"), std::string::npos) << reports[0];
    EXPECT_NE(reports[0].find("last cross-core signal of each core that sent one:\n    AIC block 0 arrived at "
                              "SYNCALL<SyncCoreType::AICOnly> at kernel.cpp:13\n"),
              std::string::npos)
        << reports[0];
    EXPECT_NE(reports[0].find("\n    AIC block 4 ffts_cross_core_sync(mode 2, flag 6) at kernel.cpp:11\n"),
              std::string::npos)
        << reports[0];
}

// Run by ctest with PTO_SIM_THREADS=abc (runtime_bad_thread_count).
TEST(Parallel, AnInvalidThreadCountInTheEnvironmentFailsTheLaunch) {
    const char* env = std::getenv("PTO_SIM_THREADS");
    if (!env || std::string(env) != "abc") GTEST_SKIP() << "needs PTO_SIM_THREADS=abc";
    Status st = run(KernelKind::Vec, 2, nullptr, [] {});
    EXPECT_EQ(st.code, err::kInvalidParam);
    EXPECT_EQ(st.message, "kernel 'k' launched at host.cpp:7: PTO_SIM_THREADS='abc' is not a thread count; set 1 (the "
                          "serial schedule) .. 1024, or unset it to use every host core");
    SimThreads pin(1);  // the API's count wins over the environment
    EXPECT_TRUE(run(KernelKind::Vec, 2, nullptr, [] {}).ok());
}
