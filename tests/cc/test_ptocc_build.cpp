// End-to-end: ptocc builds the kernels in kernels/, the libraries load with
// dlopen and compute the right numbers, and the command line behaves as
// documented (two-object links, host programs, diagnostics, stand-in bisheng).
#include <acl/acl.h>
#include <runtime/rt_ffts.h>
#include <ptosim/c_api.h>
#include <ptosim/check.hpp>
#include <ptosim/float16.hpp>
#include <ptosim/runtime.hpp>
#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace fs = std::filesystem;


namespace {

const std::string kPtocc = PTOCC_BIN;
const std::string kKernels = PTOCC_KERNELS;

struct CmdResult {
    int status;
    std::string output;
};

CmdResult sh(const std::string& cmd) {
    CmdResult r{0, {}};
    FILE* p = popen((cmd + " 2>&1").c_str(), "r");
    char buf[4096];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
    int ws = pclose(p);
    r.status = WIFEXITED(ws) ? WEXITSTATUS(ws) : 128;
    return r;
}

// Output directory private to this test process: ctest runs tests in parallel.
const fs::path& out_dir() {
    static const fs::path d = [] {
        fs::path p = fs::path(PTOCC_OUT) / ("p" + std::to_string(getpid()));
        fs::create_directories(p);
        return p;
    }();
    return d;
}

std::string build(const std::string& args, const std::string& out) {
    const std::string path = (out_dir() / out).string();
    CmdResult r = sh(kPtocc + " " + args + " -o " + path);
    EXPECT_EQ(r.status, 0) << r.output;
    return path;
}

void* open_lib(const std::string& path) {
    void* h = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(h, nullptr) << dlerror();
    return h;
}

template <class F>
F sym(void* h, const char* name) {
    void* s = dlsym(h, name);
    EXPECT_NE(s, nullptr) << name;
    return reinterpret_cast<F>(s);
}

using VecFn = void (*)(uint32_t, void*, uint8_t*, uint8_t*, uint8_t*);
using CubeFn = void (*)(uint32_t, void*, uint8_t*, uint8_t*, uint8_t*);
using MixFn = void (*)(uint32_t, void*, uint8_t*, uint8_t*, uint8_t*, uint8_t*, uint8_t*, uint64_t);

class Acl : public testing::Test {
protected:
    static void SetUpTestSuite() {
        static bool once = [] {
            aclInit(nullptr);
            return aclrtSetDevice(0) == ACL_SUCCESS;
        }();
        ASSERT_TRUE(once);
    }
    static void sync() { ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg(); }
};

uint8_t* u8(void* p) { return static_cast<uint8_t*>(p); }

// A `<<<>>>` launch is a device program, so its buffers must be memory the
// device maps (docs/semantics.md, "Host memory"). These tests keep host
// vectors and register them for the launch, as aclrtHostRegister would.
class DeviceVisible {
public:
    template <class... V>
    explicit DeviceVisible(V&... v) {
        (add(v.data(), v.size() * sizeof(v[0])), ...);
    }
    ~DeviceVisible() {
        for (void* p : bases_) EXPECT_EQ(ptosim_unregister_memory(p), 0) << aclGetRecentErrMsg();
    }
    DeviceVisible(const DeviceVisible&) = delete;
    DeviceVisible& operator=(const DeviceVisible&) = delete;

private:
    void add(void* p, size_t bytes) {
        EXPECT_EQ(ptosim_register_memory(p, bytes), 0) << aclGetRecentErrMsg();
        bases_.push_back(p);
    }
    std::vector<void*> bases_;
};

void check_vec(VecFn f, uint32_t blocks, void* stream = nullptr) {
    const size_t n = blocks * 32 * 64;
    std::vector<float> x(n), y(n), z(n, -1.0f);
    for (size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i) * 0.25f, y[i] = 3.0f - static_cast<float>(i);
    DeviceVisible visible(x, y, z);
    f(blocks, stream, u8(x.data()), u8(y.data()), u8(z.data()));
    if (stream) ASSERT_EQ(aclrtSynchronizeStream(stream), ACL_SUCCESS) << aclGetRecentErrMsg();
    else ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(z[i], x[i] + y[i]) << "element " << i;
}

struct MatmulData {
    int blocks;
    std::vector<half> a, b;
    std::vector<float> d, ws, out;
    explicit MatmulData(int g) : blocks(g), a(g * 1024), b(g * 1024), d(g * 1024), ws(g * 1024), out(g * 1024, -7.0f) {
        std::mt19937 rng(7);
        std::uniform_real_distribution<float> u(-2, 2);
        for (auto& v : a) v = half(u(rng));
        for (auto& v : b) v = half(u(rng));
        for (auto& v : d) v = u(rng) * 5;
    }
    // A*B (+ D) with float accumulation in ascending k, like the Cube unit.
    float ref(int g, int i, int j, bool add_d) const {
        float acc = 0;
        for (int p = 0; p < 32; ++p)
            acc += static_cast<float>(a[g * 1024 + i * 32 + p]) * static_cast<float>(b[g * 1024 + p * 32 + j]);
        return acc + (add_d ? d[g * 1024 + i * 32 + j] : 0.0f);
    }
};

void expect_close(float got, float want, const std::string& where) {
    // float32 tolerances of the seed (torch.testing.assert_close defaults)
    EXPECT_LE(std::fabs(got - want), 1e-5f + 1.3e-6f * std::fabs(want)) << where << ": got " << got << " want " << want;
}

TEST_F(Acl, VecKernelBuiltWithPtoccRunsThroughDlopen) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 " + kKernels + "/vec_add.cpp", "libvec_add.so"));
    check_vec(sym<VecFn>(h, "call_vec_add"), 4);
}

// Without aclInit/aclrtSetDevice there is no device context: a launch on the
// default stream is refused with the fix, as CANN refuses it, and nothing runs.
// (ctest runs each test in its own process, so ACL is not initialised here.)
TEST(NoContext, DefaultStreamLaunchWithoutAclInitIsRefused) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 " + kKernels +
                                 "/vec_add.cpp",
                             "libvec_add_noctx.so"));
    const size_t n = 32 * 64;
    std::vector<float> x(n, 1.0f), y(n, 2.0f), z(n, -1.0f);
    DeviceVisible visible(x, y, z);
    testing::internal::CaptureStderr();
    sym<VecFn>(h, "call_vec_add")(1, nullptr, u8(x.data()), u8(y.data()), u8(z.data()));
    const std::string err = testing::internal::GetCapturedStderr();
    const std::string want = "a launch on the default stream: ACL is not initialised; call aclInit(nullptr) first "
                             "(a device context is needed, as on CANN). The launch was not queued.";
    EXPECT_NE(err.find(want), std::string::npos) << err;
    EXPECT_NE(std::string(aclGetRecentErrMsg()).find(want), std::string::npos) << aclGetRecentErrMsg();
    EXPECT_EQ(z, std::vector<float>(n, -1.0f));
    ASSERT_EQ(aclInit(nullptr), ACL_SUCCESS);
    testing::internal::CaptureStderr();
    sym<VecFn>(h, "call_vec_add")(1, nullptr, u8(x.data()), u8(y.data()), u8(z.data()));
    EXPECT_NE(testing::internal::GetCapturedStderr().find("no device is set; call aclrtSetDevice(0) after aclInit"),
              std::string::npos);
    ASSERT_EQ(aclrtSetDevice(0), ACL_SUCCESS);
    sym<VecFn>(h, "call_vec_add")(1, nullptr, u8(x.data()), u8(y.data()), u8(z.data()));
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    EXPECT_EQ(z, std::vector<float>(n, 3.0f));
}

// A source name with a newline, quotes and a backslash builds and runs: the
// #line directive escapes them, and temporaries get a plain file name.
TEST_F(Acl, SourceNameWithNewlineAndQuotesBuilds) {
    const fs::path src = out_dir() / "vec\nadd \"q\" \\.cpp";
    fs::copy_file(kKernels + "/vec_add.cpp", src, fs::copy_options::overwrite_existing);
    const std::string quoted = "'" + src.string() + "'";
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 " + quoted,
                             "libvec_add_odd_name.so"));
    check_vec(sym<VecFn>(h, "call_vec_add"), 2);
}

// CCE assembly in a kernel runs as ptosim::cc::device_asm: the PC reads 0,
// the system counter counts the work in between, nop does nothing, and any
// other assembly stops the kernel naming the statement (docs/ptocc.md).
TEST_F(Acl, DeviceAssemblyIdiomsRunAndOtherAssemblyFaults) {
    const std::string src = kKernels + "/device_asm.cpp";
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 " + src, "libdevice_asm.so"));
    using Fn = void (*)(void*, uint64_t*);
    std::vector<uint64_t> out(2, 99);
    sym<Fn>(h, "call_asm_idioms")(nullptr, out.data());
    sync();
    EXPECT_EQ(out[0], 0u);
    EXPECT_EQ(out[1], 1u) << "TEXPANDS between the two counter reads (TASSIGN and nop dispatch nothing)";
    sym<Fn>(h, "call_asm_unknown")(nullptr, out.data());
    ASSERT_NE(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find("device_asm.cpp:23"), std::string::npos) << msg;
    EXPECT_NE(msg.find("device assembly is not simulated: asm(\"LD %0, [%1]\")"), std::string::npos) << msg;
}

// A launch in a header beside the source and a SYS_CNT read in a header
// found through -I compile as bisheng compiles them: ptocc rewrites copies of
// those headers, which the source's copy includes in their place, and the
// dependency file names the originals.
TEST_F(Acl, LaunchesAndDeviceAsmInTheKernelsHeadersAreRewrittenToo) {
    const std::string dir = kKernels + "/header_launch";
    const std::string dep = (out_dir() / "header_launch.d").string();
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -O1 -I" + dir +
                                 "/include -MD -MF " + dep + " " + dir + "/kernel.cpp",
                             "libheader_launch.so"));
    int* out = nullptr;
    uint64_t* cycles = nullptr;
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&out), 4 * sizeof(int), ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMalloc(reinterpret_cast<void**>(&cycles), 4 * sizeof(uint64_t), ACL_MEM_MALLOC_HUGE_FIRST),
              ACL_SUCCESS);
    using Fn = void (*)(int*, uint64_t*, void*);
    sym<Fn>(h, "call_header_launch")(out, cycles, nullptr);
    sync();
    std::vector<int> got(4);
    std::vector<uint64_t> ticks(4);
    ASSERT_EQ(aclrtMemcpy(got.data(), 16, out, 16, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    ASSERT_EQ(aclrtMemcpy(ticks.data(), 32, cycles, 32, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
    EXPECT_EQ(got, (std::vector<int>{42, 42, 42, 42}));
    // No instruction between the two counter reads.
    EXPECT_EQ(ticks, (std::vector<uint64_t>{0, 0, 0, 0}));
    aclrtFree(out);
    aclrtFree(cycles);
    std::string d;
    {
        std::ifstream f(dep);
        std::ostringstream ss;
        ss << f.rdbuf();
        d = ss.str();
    }
    EXPECT_NE(d.find(dir + "/launcher.hpp"), std::string::npos) << d;
    EXPECT_NE(d.find(dir + "/include/bench_cycles.hpp"), std::string::npos) << d;
    EXPECT_EQ(d.find("kernel.src/"), std::string::npos) << d;  // the copies' directories
    EXPECT_EQ(d.find("kernel.inc1/"), std::string::npos) << d;
}

TEST_F(Acl, VecKernelOnAnExplicitStream) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp", "libvec_add_s.so"));
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    check_vec(sym<VecFn>(h, "call_vec_add"), 2, s);
    aclrtDestroyStream(s);
}

TEST_F(Acl, InvalidStreamIsAClearErrorAndNothingRuns) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp", "libvec_add_bad.so"));
    std::vector<float> x(2048, 1.0f), y(2048, 2.0f), z(2048, 0.0f);
    int not_a_stream = 0;
    sym<VecFn>(h, "call_vec_add")(1, &not_a_stream, u8(x.data()), u8(y.data()), u8(z.data()));
    std::string msg = aclGetRecentErrMsg();
    EXPECT_NE(msg.find("is not a live stream"), std::string::npos) << msg;
    EXPECT_NE(msg.find("vec_add.cpp:33"), std::string::npos) << msg;
    sync();
    EXPECT_EQ(z[0], 0.0f);
}

TEST_F(Acl, CubeKernelBuiltWithPtoccRunsThroughDlopen) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-cube -DMEMORY_BASE " + kKernels + "/cube_matmul.cpp", "libcube.so"));
    MatmulData m(2);
    DeviceVisible visible(m.a, m.b, m.out);
    sym<CubeFn>(h, "call_cube_matmul")(2, nullptr, u8(m.a.data()), u8(m.b.data()), u8(m.out.data()));
    sync();
    for (int g = 0; g < 2; ++g)
        for (int i = 0; i < 32; ++i)
            for (int j = 0; j < 32; ++j) expect_close(m.out[g * 1024 + i * 32 + j], m.ref(g, i, j, false), "C");
}

void run_mix(void* h, int blocks) {
    MatmulData m(blocks);
    uint64_t ffts = 0;
    uint32_t len = 0;
    ASSERT_EQ(rtGetC2cCtrlAddr(&ffts, &len), RT_ERROR_NONE);
    DeviceVisible visible(m.a, m.b, m.d, m.ws, m.out);
    sym<MixFn>(h, "call_matmul_add")(blocks, nullptr, u8(m.a.data()), u8(m.b.data()), u8(m.d.data()), u8(m.ws.data()),
                                     u8(m.out.data()), ffts);
    ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    for (int g = 0; g < blocks; ++g)
        for (int i = 0; i < 32; ++i)
            for (int j = 0; j < 32; ++j) expect_close(m.out[g * 1024 + i * 32 + j], m.ref(g, i, j, true), "out");
}

TEST_F(Acl, MixKernelRunsBothCoreVariantsFromOneLaunch) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220 -DMEMORY_BASE " + kKernels + "/mix_matmul_add.cpp", "libmix.so"));
    run_mix(h, 1);
    run_mix(h, 3);
}

// One launch site in a launcher template launches a different mix kernel per
// instantiation; each must find its own Vector variant.
TEST_F(Acl, MixLaunchInALauncherTemplateRunsEachInstantiationsKernel) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220 -DMEMORY_BASE " + kKernels +
                                 "/mix_launcher_template.cpp",
                             "libmix_tpl.so"));
    using FillFn = void (*)(int, void*, uint8_t*);
    for (int scale : {2, 3}) {
        std::vector<float> out(16, 0.0f);
        DeviceVisible visible(out);
        sym<FillFn>(h, "call_fill")(scale, nullptr, u8(out.data()));
        ASSERT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
        for (int i = 0; i < 16; ++i) ASSERT_EQ(out[i], static_cast<float>(scale)) << scale << " " << i;
    }
}

TEST_F(Acl, TwoObjectLinkKeepsTheVariants) {
    std::string mix_o = build("-c -fPIC -xcce --cce-aicore-arch=dav-c220 -DMEMORY_BASE " + kKernels + "/mix_matmul_add.cpp", "mix.o");
    std::string vec_o = build("-c -fPIC -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp", "vec.o");
    void* h = open_lib(build("-fPIC -shared --cce-fatobj-link " + mix_o + " " + vec_o, "libboth.so"));
    run_mix(h, 2);
    check_vec(sym<VecFn>(h, "call_vec_add"), 2);
}

// An A/B comparison: one source built twice to the same path (the first
// build renamed away in between), both libraries loaded. Each must run its own
// Cube and Vector code, whichever loaded first.
using AbFn = void (*)(void*, uint8_t*);

std::vector<int32_t> run_ab(void* h) {
    std::vector<int32_t> out(3, -1);
    DeviceVisible visible(out);
    sym<AbFn>(h, "call_mix_ab")(nullptr, u8(out.data()));
    EXPECT_EQ(aclrtSynchronizeStream(nullptr), ACL_SUCCESS) << aclGetRecentErrMsg();
    return out;
}

const std::vector<int32_t> kAb1 = {10, 100, 101}, kAb2 = {20, 200, 201};

// Builds mix_ab.cpp with -DAB=1 and -DAB=2 to one path, keeping copies of each.
std::pair<std::string, std::string> build_ab_pair(const std::string& tag) {
    const std::string flags = "-fPIC -shared -xcce --cce-aicore-arch=dav-c220 -DMEMORY_BASE ";
    const std::string path = build(flags + "-DAB=1 " + kKernels + "/mix_ab.cpp", "libab.so");
    const std::string a = (out_dir() / ("libab1" + tag + ".so")).string();
    fs::rename(path, a);
    build(flags + "-DAB=2 " + kKernels + "/mix_ab.cpp", "libab.so");
    const std::string b = (out_dir() / ("libab2" + tag + ".so")).string();
    fs::rename(path, b);
    return {a, b};
}

TEST_F(Acl, TwoBuildsOfOneMixSourceEachRunTheirOwnVariants) {
    auto [a, b] = build_ab_pair("");
    // Both load orders, each with libraries not loaded before.
    for (bool a_first : {true, false}) {
        const std::string suffix = a_first ? "-x.so" : "-y.so";
        fs::copy_file(a, a + suffix, fs::copy_options::overwrite_existing);
        fs::copy_file(b, b + suffix, fs::copy_options::overwrite_existing);
        void* first = open_lib((a_first ? a : b) + suffix);
        void* second = open_lib((a_first ? b : a) + suffix);
        void* ha = a_first ? first : second;
        void* hb = a_first ? second : first;
        EXPECT_EQ(run_ab(second), a_first ? kAb2 : kAb1) << "load order " << (a_first ? "A, B" : "B, A");
        EXPECT_EQ(run_ab(first), a_first ? kAb1 : kAb2) << "load order " << (a_first ? "A, B" : "B, A");
        EXPECT_EQ(run_ab(ha), kAb1);
        EXPECT_EQ(run_ab(hb), kAb2);
    }
}

// aclrtFree of a launch's input right after the launch waits for it, also
// when the kernel takes void* (a torch extension's data_ptr()).
TEST_F(Acl, FreeRightAfterLaunchesWaitsForThem) {
    void* h = open_lib(build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels +
                                 "/free_after_launch.cpp",
                             "libfree_after_launch.so"));
    using CopyFn = void (*)(uint32_t, void*, void*, void*);
    auto copy = sym<CopyFn>(h, "call_slow_copy");
    aclrtStream s = nullptr;
    ASSERT_EQ(aclrtCreateStream(&s), ACL_SUCCESS);
    const size_t n = 2 * 32 * 64;
    std::vector<void*> outs;
    for (int i = 0; i < 8; ++i) {
        void *x = nullptr, *z = nullptr;
        ASSERT_EQ(aclrtMalloc(&x, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        ASSERT_EQ(aclrtMalloc(&z, n * 4, ACL_MEM_MALLOC_HUGE_FIRST), ACL_SUCCESS);
        std::vector<float> host(n, static_cast<float>(i + 1));
        ASSERT_EQ(aclrtMemcpy(x, n * 4, host.data(), n * 4, ACL_MEMCPY_HOST_TO_DEVICE), ACL_SUCCESS);
        copy(2, s, x, z);
        ASSERT_EQ(aclrtFree(x), ACL_SUCCESS) << aclGetRecentErrMsg();
        outs.push_back(z);
    }
    ASSERT_EQ(aclrtSynchronizeStream(s), ACL_SUCCESS) << aclGetRecentErrMsg();
    for (int i = 0; i < 8; ++i) {
        std::vector<float> back(n);
        ASSERT_EQ(aclrtMemcpy(back.data(), n * 4, outs[i], n * 4, ACL_MEMCPY_DEVICE_TO_HOST), ACL_SUCCESS);
        EXPECT_EQ(back, std::vector<float>(n, static_cast<float>(i + 1))) << "launch " << i;
        EXPECT_EQ(aclrtFree(outs[i]), ACL_SUCCESS);
    }
    EXPECT_EQ(aclrtDestroyStream(s), ACL_SUCCESS);
}

// The kernel-library registry under random load/unload/launch sequences:
// libraries are the two builds of mix_ab.cpp copied to fresh paths (a build
// renamed away), opened and closed in random order, launched while open.
// Every launch must run its own library's Cube and Vector code, and a seed
// gives the same transcript every time.
std::vector<std::string> registry_fuzz(uint32_t seed, const std::string& a, const std::string& b, int run) {
    std::mt19937 rng(seed);
    struct Lib {
        std::string path;
        bool is_a;
        void* handle = nullptr;
        int opens = 0;
    };
    std::vector<Lib> libs;
    std::vector<std::string> log;
    auto pick = [&](size_t n) { return static_cast<size_t>(rng() % n); };
    for (int op = 0; op < 60; ++op) {
        const int what = libs.empty() ? 0 : static_cast<int>(rng() % 4);
        if (what == 0) {
            const bool is_a = rng() % 2;
            const std::string path = (out_dir() / ("fz" + std::to_string(seed) + "-" + std::to_string(run) + "-" +
                                                   std::to_string(libs.size()) + ".so"))
                                         .string();
            fs::copy_file(is_a ? a : b, path, fs::copy_options::overwrite_existing);
            libs.push_back({path, is_a});
            log.push_back("new " + std::to_string(libs.size() - 1) + (is_a ? " A" : " B"));
        } else if (what == 1) {
            const size_t i = pick(libs.size());
            void* h = dlopen(libs[i].path.c_str(), RTLD_NOW | RTLD_LOCAL);
            EXPECT_TRUE(h != nullptr) << dlerror();
            if (libs[i].opens) EXPECT_EQ(h, libs[i].handle);
            libs[i].handle = h;
            ++libs[i].opens;
            log.push_back("open " + std::to_string(i));
        } else if (what == 2) {
            const size_t i = pick(libs.size());
            if (!libs[i].opens) continue;
            EXPECT_EQ(dlclose(libs[i].handle), 0) << dlerror();
            --libs[i].opens;
            log.push_back("close " + std::to_string(i));
        } else {
            const size_t i = pick(libs.size());
            if (!libs[i].opens) continue;
            const std::vector<int32_t> got = run_ab(libs[i].handle);
            EXPECT_EQ(got, libs[i].is_a ? kAb1 : kAb2) << "seed " << seed << ", library " << i << " at op " << op;
            log.push_back("launch " + std::to_string(i) + " -> " + std::to_string(got[0]) + " " +
                          std::to_string(got[1]) + " " + std::to_string(got[2]));
        }
    }
    for (Lib& l : libs)
        while (l.opens--) dlclose(l.handle);
    return log;
}

TEST_F(Acl, RegistryFuzzRandomLoadUnloadLaunchSequences) {
    auto [a, b] = build_ab_pair("fz");
    for (uint32_t seed : {1u, 2u, 3u}) {
        const std::vector<std::string> first = registry_fuzz(seed, a, b, 0);
        EXPECT_EQ(registry_fuzz(seed, a, b, 1), first) << "seed " << seed << " is not deterministic";
    }
}

TEST(Host, AclHostProgramLinksAgainstPtosimAndAKernelLibrary) {
    std::string lib = build("-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp", "libvec_add.so");
    std::string dir = fs::path(lib).parent_path().string();
    std::string exe = build(kKernels + "/host_main.cpp -L" + dir + " -lvec_add -Wl,-rpath," + dir, "host_main");
    CmdResult r = sh(exe);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("PASS host_main"), std::string::npos) << r.output;
}

TEST(Diagnostics, CompileErrorPointsAtTheUsersFileAndLineAndFails) {
    CmdResult r = sh(kPtocc + " -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels +
               "/bad_kernel.cpp -o " + (out_dir() / "bad.so").string());
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("bad_kernel.cpp:9:"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("undeclared_name_here"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find(".ptocc.cpp"), std::string::npos) << "temp file named in: " << r.output;
}

// The first line of the compiler's output that names a file:line:col (context
// lines such as "f.cpp: In function 'g':" name no line); ptocc's own lines skipped.
std::string first_located(const std::string& output) {
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("ptocc:", 0) == 0 || line.empty() || line[0] == ' ') continue;
        size_t c = line.find(':');
        if (c != std::string::npos && c + 1 < line.size() && std::isdigit(static_cast<unsigned char>(line[c + 1])))
            return line;
        if (line.rfind("In file included from ", 0) == 0) return line;
    }
    return {};
}

CmdResult compile_bad(const std::string& kernel) {
    return sh(kPtocc + " -c -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/" + kernel + " -o " +
              (out_dir() / (kernel + ".o")).string());
}

TEST(Diagnostics, MissingSemicolonBeforeACallSiteMacroLeadsWithTheUsersLine) {
    CmdResult r = compile_bad("bad_missing_semicolon.cpp");
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(first_located(r.output).rfind(kKernels + "/bad_missing_semicolon.cpp:13:5: error: ", 0), 0u) << r.output;
    EXPECT_EQ(r.output.find("call_sites/"), std::string::npos) << r.output;
}

TEST(Diagnostics, WrongLaunchArgumentCountIsAtTheKernelNameOfTheLaunchLine) {
    CmdResult r = compile_bad("bad_launch_arity.cpp");
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(first_located(r.output).rfind(kKernels + "/bad_launch_arity.cpp:8:5: error: too many arguments", 0), 0u)
        << r.output;
    // The tab-indented launch: GCC's display column of the kernel name is 9.
    EXPECT_NE(r.output.find(kKernels + "/bad_launch_arity.cpp:12:9: error: too few arguments"), std::string::npos)
        << r.output;
    // No column past the end of either launch line (74 and 43 display columns).
    for (const char* bad : {"bad_launch_arity.cpp:8:1", "bad_launch_arity.cpp:8:2", "bad_launch_arity.cpp:8:3",
                            "bad_launch_arity.cpp:12:1", "bad_launch_arity.cpp:12:2", "bad_launch_arity.cpp:12:3"})
        EXPECT_EQ(r.output.find(std::string(bad) + "0:"), std::string::npos) << bad << "\n" << r.output;
}

TEST(Diagnostics, StaticAssertInAnInstructionHeaderLeadsWithTheUsersCall) {
    CmdResult r = compile_bad("bad_tile_types.cpp");
    EXPECT_NE(r.status, 0);
    EXPECT_EQ(first_located(r.output).rfind(kKernels + "/bad_tile_types.cpp:9:5: error: static assertion failed: TADD", 0),
              0u)
        << r.output;
}

TEST(Diagnostics, UnknownFlagIsAnErrorNamingIt) {
    CmdResult r = sh(kPtocc + " --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE --no-such-flag " + kKernels + "/vec_add.cpp");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("unknown flag '--no-such-flag'"), std::string::npos) << r.output;
}

TEST(Diagnostics, LintErrorStopsTheBuild) {
    CmdResult r = sh(kPtocc + " --dry-run --cce-aicore-arch=dav-c220-vec --npu-arch=dav-3510 -DMEMORY_BASE " + kKernels +
                     "/vec_add.cpp");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("row 'A2A3 / DAV_2201'"), std::string::npos) << r.output;
}

TEST(Diagnostics, TheOtherTargetsMemoryMacroOnlyWarns) {
    CmdResult r = sh(kPtocc + " --dry-run --cce-aicore-arch=dav-c310-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("ptocc: warning: -DMEMORY_BASE is the A2A3 memory macro but the target is A5"),
              std::string::npos)
        << r.output;
}

TEST(DryRun, PrintsTheCommandsAndBuildsNothing) {
    const std::string out = (out_dir() / "never.so").string();
    CmdResult r = sh(kPtocc + " --toolchain=sim --dry-run -fPIC -shared -xcce --cce-aicore-arch=dav-c220 -DMEMORY_BASE " +
               kKernels + "/mix_matmul_add.cpp -o " + out);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("-D__DAV_C220_CUBE__"), std::string::npos);
    EXPECT_NE(r.output.find("-D__DAV_C220_VEC__"), std::string::npos);
    EXPECT_NE(r.output.find("-o " + out), std::string::npos);
    EXPECT_FALSE(fs::exists(out));
}

// A kernel on the CCE intrinsics alone, built as bisheng would be asked to:
// compiled over ptosim's CCE layer with clang, and the build says so.
TEST(DryRun, KernelOnTheIntrinsicsAloneCompilesOverTheCceLayer) {
    const std::string src = (out_dir() / "cce_alone.cpp").string();
    std::ofstream(src) << "__global__ __aicore__ void k(__gm__ float* x) {\n"
                          "    copy_gm_to_ubuf((__ubuf__ float*)0, x, 0, 1, 8, 0, 0);\n}\n";
    CmdResult r = sh(kPtocc + " --dry-run -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + src +
                     " -o " + (out_dir() / "never.so").string());
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("ptocc: note: PTO headers: none included, and " + src +
                            " calls the CCE intrinsic copy_gm_to_ubuf: compiled over ptosim's CCE intrinsics with "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("clang"), std::string::npos) << r.output;
    // PTOCC_PTO_HEADERS=pto-isa asks for the layer as --pto-headers=pto-isa does.
    r = sh("PTOCC_PTO_HEADERS=pto-isa " + kPtocc + " --dry-run -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec "
           "-DMEMORY_BASE " + src + " -o " + (out_dir() / "never.so").string());
    EXPECT_NE(r.output.find("PTO headers: none on the include path; the kernel is compiled over ptosim's CCE "
                            "intrinsics alone with "),
              std::string::npos)
        << r.output;
    // Asked for ptolab's headers, it stays with them (and would not compile).
    r = sh(kPtocc + " --dry-run --pto-headers=ptolab -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " +
           src + " -o " + (out_dir() / "never.so").string());
    EXPECT_EQ(r.output.find("PTO headers: none included"), std::string::npos) << r.output;
    EXPECT_EQ(r.output.find("clang"), std::string::npos) << r.output;
}

// The same for A5's register-based API: a vector function naming only
// register intrinsics A2A3 does not have.
TEST(DryRun, A5KernelOnTheRegisterIntrinsicsAloneCompilesOverTheCceLayer) {
    const std::string src = (out_dir() / "vreg_alone.cpp").string();
    std::ofstream(src) << "__global__ __aicore__ void k() {\n"
                          "    __VEC_SCOPE__ {\n"
                          "        vector_f32 x;\n"
                          "        vlds(x, (__ubuf__ float*)0, 0, NORM);\n"
                          "    }\n}\n";
    CmdResult r = sh(kPtocc + " --dry-run -fPIC -shared -xcce --cce-aicore-arch=dav-c310-vec -DREGISTER_BASE " + src +
                     " -o " + (out_dir() / "never.so").string());
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("ptocc: note: PTO headers: none included, and " + src +
                            " calls the CCE intrinsic vlds: compiled over ptosim's CCE intrinsics with "),
              std::string::npos)
        << r.output;
}

// A pto-isa tree on the include path is compiled, unmodified, when it holds
// pto-isa's implementation for the build's target: here an A2A3 tree whose
// header is not ptolab's (its only instruction adds twice, on the CCE
// intrinsics), so only that header can have built the kernel. An A5 build
// of it (no pto/npu/a5) and --pto-headers=ptolab keep ptolab's.
struct PtoIsaLikeTree {
    fs::path include = out_dir() / "pto-isa-like" / "include";
    PtoIsaLikeTree() {
        fs::create_directories(include / "pto" / "npu" / "a2a3");
        std::ofstream(include / "pto" / "npu" / "a2a3" / "README") << "pto-isa's A2A3 implementation lives here\n";
        std::ofstream(include / "pto" / "pto-inst.hpp")
            << "#pragma once\n"
               "namespace pto {\n"
               "__aicore__ inline void TWICE_SUM(__gm__ float* z, __gm__ float* x, __gm__ float* y) {\n"
               "    __ubuf__ float* a = (__ubuf__ float*)0;\n"
               "    __ubuf__ float* b = (__ubuf__ float*)0x400;\n"
               "    copy_gm_to_ubuf_align_b32(a, x, 0, 1, 64 * 4, 0, 0, 0, 0);\n"
               "    copy_gm_to_ubuf_align_b32(b, y, 0, 1, 64 * 4, 0, 0, 0, 0);\n"
               "    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n"
               "    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);\n"
               "    set_mask_norm();\n"
               "    set_vector_mask(-1, -1);\n"
               "    vadd(a, a, b, 1, 1, 1, 1, 8, 8, 8);\n"
               "    vadd(a, a, a, 1, 1, 1, 1, 8, 8, 8);\n"
               "    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);\n"
               "    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);\n"
               "    copy_ubuf_to_gm_align_b32(z, a, 0, 1, 64 * 4, 0, 0, 0, 0);\n"
               "}\n"
               "__aicore__ inline __attribute__((always_inline)) void OVERRUN() {\n"
               "    __ubuf__ float* last = (__ubuf__ float*)(192 * 1024 - 128);\n"
               "    set_mask_norm();\n"
               "    set_vector_mask(-1, -1);\n"
               "    vadds(last, last, 1.0f, 1, 1, 1, 8, 8);\n"  // line 22: 256 bytes from 128 before the end of UB
               "}\n"
               "__aicore__ inline __attribute__((always_inline)) void RACY(__gm__ float* x) {\n"
               "    __ubuf__ float* a = (__ubuf__ float*)0;\n"
               "    copy_gm_to_ubuf_align_b32(a, x, 0, 1, 64 * 4, 0, 0, 0, 0);\n"  // line 26
               "    set_mask_norm();\n"
               "    set_vector_mask(-1, -1);\n"
               "    vadds(a, a, 1.0f, 1, 1, 1, 8, 8);\n"  // line 29: no flag orders it after the copy
               "}\n"
               // pto-isa's IsValidTmpBuffer: a scratch tile at UB address 0 is valid.
               "__aicore__ inline __attribute__((always_inline)) void NULL_CHECKS(__gm__ int32_t* out) {\n"
               "    __ubuf__ uint8_t* first = (__ubuf__ uint8_t*)0;\n"
               "    __gm__ int32_t* none = nullptr;\n"
               "    out[0] = first != nullptr;\n"
               "    out[1] = none == nullptr;\n"
               "    out[2] = out != nullptr;\n"
               "}\n"
               "}  // namespace pto\n";
    }
    // Writes `src` (the tree's header, then `body`: the PTO call on line 3),
    // builds it over the tree with ptocc and loads it. Linked with -s, as
    // pto-isa's test CMake links: the library keeps its line tables.
    void* build(const std::string& src, const std::string& body, const std::string& arch = "dav-c220-vec") const {
        std::ofstream(src) << "#include <pto/pto-inst.hpp>\n" << body;
        const std::string lib = (fs::path(src).parent_path() / ("lib" + fs::path(src).stem().string() + ".so")).string();
        const CmdResult r = sh(kPtocc + " -fPIC -shared -s -xcce --cce-aicore-arch=" + arch + " -DMEMORY_BASE -O2 -I" +
                               include.string() + " " + src + " -o " + lib);
        EXPECT_EQ(r.status, 0) << r.output;
        return open_lib(lib);
    }
    std::string kernel() const {
        const std::string src = (out_dir() / "twice_sum.cpp").string();
        std::ofstream(src) << "#include <pto/pto-inst.hpp>\n"
                              "__global__ __aicore__ void twice_sum(__gm__ float* z, __gm__ float* x, __gm__ float* y) {\n"
                              "    pto::TWICE_SUM(z, x, y);\n"
                              "}\n"
                              "extern \"C\" void call_twice_sum(void* stream, uint8_t* z, uint8_t* x, uint8_t* y) {\n"
                              "    twice_sum<<<1, nullptr, stream>>>((__gm__ float*)z, (__gm__ float*)x, (__gm__ float*)y);\n"
                              "}\n";
        return src;
    }
};

// A fault inside a pto-isa instruction names the user's call of it first and
// the intrinsic's line in pto-isa's header second (SourceLoc::pc: the kernel
// is built with line tables, whose inlining chain leads back to the call).
TEST_F(Acl, FaultInsideAPtoIsaInstructionNamesTheUsersCallAndTheHeaderLine) {
    PtoIsaLikeTree tree;
    const std::string src = (out_dir() / "overrun.cpp").string();
    void* h = tree.build(src, "__global__ __aicore__ void overrun() {\n"
                              "    pto::OVERRUN();\n"
                              "}\n"
                              "extern \"C\" void call_overrun(void* stream) { overrun<<<1, nullptr, stream>>>(); }\n");
    sym<void (*)(void*)>(h, "call_overrun")(nullptr);
    ASSERT_NE(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const std::string msg = aclGetRecentErrMsg();
    const std::string header = (tree.include / "pto" / "pto-inst.hpp").string();
    EXPECT_NE(msg.find("faulted on AIV block 0 at " + src + ":3 (via " + header + ":22): "), std::string::npos)
        << msg;
    EXPECT_NE(msg.find("vadds dst"), std::string::npos) << msg;
}

// The same in a mix kernel's Vector variant, which ptosim loads from memory
// (/proc/self/fd/N): addr2line, run as a child process, reads the image
// through this process's /proc entry.
TEST_F(Acl, FaultInTheVectorVariantOfAMixKernelNamesTheUsersCall) {
    PtoIsaLikeTree tree;
    const std::string src = (out_dir() / "overrun_mix.cpp").string();
    void* h = tree.build(src,
                         "__global__ __aicore__ __mix__(1, 2) void overrun_mix() {\n"
                         "#if defined(__DAV_VEC__)\n"
                         "    pto::OVERRUN();\n"
                         "#endif\n"
                         "}\n"
                         "extern \"C\" void call_overrun_mix(void* stream) { overrun_mix<<<1, nullptr, stream>>>(); }\n",
                         "dav-c220");
    sym<void (*)(void*)>(h, "call_overrun_mix")(nullptr);
    ASSERT_NE(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);
    const std::string msg = aclGetRecentErrMsg();
    const std::string header = (tree.include / "pto" / "pto-inst.hpp").string();
    EXPECT_NE(msg.find("faulted on AIV block 0 sub 0 at " + src + ":4 (via " + header + ":22): vadds dst"),
              std::string::npos)
        << msg;
}

// racecheck's report of a race inside a pto-isa instruction: both sides at
// the user's call, each with its header line; the JSON log keeps the header
// line as `via`. The tree's instructions are always_inline, as pto-isa's
// PTO_INST and PTO_INTERNAL are: the line table's inlining chain is what
// leads back to the call.
TEST_F(Acl, RaceInsideAPtoIsaInstructionIsReportedAtTheUsersCall) {
    PtoIsaLikeTree tree;
    const std::string src = (out_dir() / "racy.cpp").string();
    void* h = tree.build(src, "__global__ __aicore__ void racy(__gm__ float* x) {\n"
                              "    pto::RACY(x);\n"
                              "}\n"
                              "extern \"C\" void call_racy(void* stream, uint8_t* x) {\n"
                              "    racy<<<1, nullptr, stream>>>((__gm__ float*)x);\n"
                              "}\n");
    std::vector<float> x(64, 1.0f);
    DeviceVisible visible(x);
    ASSERT_EQ(ptosim::check::configure("race"), "");
    sym<void (*)(void*, uint8_t*)>(h, "call_racy")(nullptr, u8(x.data()));
    EXPECT_NE(aclrtSynchronizeStream(nullptr), ACL_SUCCESS);  // the checkers' errors fail the launch
    const std::vector<ptosim::check::Report> reports = ptosim::check::take_reports();
    ptosim::check::configure("");
    ASSERT_EQ(reports.size(), 2u);  // vadds reads and writes what the copy writes
    EXPECT_EQ(reports[0].kind, "read-after-write");
    EXPECT_EQ(reports[1].kind, "write-after-write");
    const ptosim::check::Report& rep = reports[0];
    const std::string header = (tree.include / "pto" / "pto-inst.hpp").string();
    ASSERT_EQ(rep.sites.size(), 2u);
    EXPECT_EQ(rep.sites[0].loc.str(), src + ":3 (via " + header + ":26)");
    EXPECT_EQ(rep.sites[1].loc.str(), src + ":3 (via " + header + ":29)");
    EXPECT_NE(rep.message.find("vadds (PIPE_V) at " + src + ":3 (via " + header + ":29) reads UB [0x0, 0x100)"),
              std::string::npos)
        << rep.message;
    const std::string json = ptosim::check::format_json(rep);
    EXPECT_NE(json.find("{\"file\":\"" + src + "\",\"line\":3,\"via\":\"" + header + ":29\""), std::string::npos)
        << json;
}

TEST_F(Acl, PtoIsaTreeOnTheIncludePathIsCompiledForA2A3) {
    PtoIsaLikeTree tree;
    const std::string src = tree.kernel(), lib = (out_dir() / "libtwice_sum.so").string();
    CmdResult r = sh(kPtocc + " -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -I" +
                     tree.include.string() + " " + src + " -o " + lib);
    ASSERT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("ptocc: note: PTO headers: pto-isa at " + tree.include.string() +
                            " (not a git checkout), compiled over ptosim's CCE intrinsics with "),
              std::string::npos)
        << r.output;
    EXPECT_NE(r.output.find("(the tree on the include path; --pto-headers=ptolab compiles ptolab's own headers "
                            "instead)"),
              std::string::npos)
        << r.output;
    void* h = open_lib(lib);
    using Fn = void (*)(void*, uint8_t*, uint8_t*, uint8_t*);
    std::vector<float> x(64), y(64), z(64, -1.0f);
    for (int i = 0; i < 64; ++i) x[i] = 0.5f * static_cast<float>(i), y[i] = 3.0f - static_cast<float>(i);
    DeviceVisible visible(x, y, z);
    sym<Fn>(h, "call_twice_sum")(nullptr, u8(z.data()), u8(x.data()), u8(y.data()));
    sync();
    for (int i = 0; i < 64; ++i) ASSERT_EQ(z[i], 2.0f * (x[i] + y[i])) << "element " << i;
}

// UB address 0 is a valid, non-null address in pto-isa's headers, as on the
// device (cce/null_check.hpp); GM pointers compare with nullptr as written.
// The kernel's own source is not rewritten: there clang's null (offset 0)
// still equals UB address 0.
TEST_F(Acl, PtoIsaHeadersSeeUbAddressZeroAsNonNull) {
    PtoIsaLikeTree tree;
    const std::string src = (out_dir() / "null_checks.cpp").string();
    void* h = tree.build(src, "__global__ __aicore__ void null_checks(__gm__ int32_t* out) {\n"
                              "    pto::NULL_CHECKS(out);\n"
                              "    out[3] = (__ubuf__ uint8_t*)0 == nullptr;\n"
                              "}\n"
                              "extern \"C\" void call_null_checks(void* stream, uint8_t* out) {\n"
                              "    null_checks<<<1, nullptr, stream>>>((__gm__ int32_t*)out);\n"
                              "}\n");
    std::vector<int32_t> out(4, -1);
    DeviceVisible visible(out);
    sym<void (*)(void*, uint8_t*)>(h, "call_null_checks")(nullptr, u8(out.data()));
    sync();
    EXPECT_EQ(out, (std::vector<int32_t>{1, 1, 1, 1}));
}

TEST(DryRun, PtoIsaTreeStaysBehindPtolabsHeadersWithoutTheTargetsImplementationOrWhenAsked) {
    PtoIsaLikeTree tree;
    const std::string src = tree.kernel();
    for (const std::string& args : {std::string("--cce-aicore-arch=dav-c310-vec -DREGISTER_BASE"),
                                    std::string("--pto-headers=ptolab --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE")}) {
        CmdResult r = sh(kPtocc + " --dry-run -fPIC -shared -xcce " + args + " -I" + tree.include.string() + " " + src +
                         " -o " + (out_dir() / "never.so").string());
        EXPECT_EQ(r.status, 0) << r.output;
        EXPECT_EQ(r.output.find("PTO headers: pto-isa at"), std::string::npos) << args << "\n" << r.output;
        EXPECT_NE(r.output.find("-I" + tree.include.string() + " holds another pto/pto-inst.hpp; it is searched after "
                                "ptolab's headers"),
                  std::string::npos)
            << args << "\n" << r.output;
    }
}

// An A5 build takes a tree holding pto-isa's A5 implementation (pto/npu/a5)
// as an A2A3 build takes one holding pto/npu/a2a3; an A2A3 build of an
// A5-only tree, and --pto-headers=ptolab, keep ptolab's headers.
TEST(DryRun, PtoIsaTreeWithTheA5ImplementationIsCompiledForA5) {
    const fs::path include = out_dir() / "pto-isa-like-a5" / "include";
    fs::create_directories(include / "pto" / "npu" / "a5");
    std::ofstream(include / "pto" / "npu" / "a5" / "README") << "pto-isa's A5 implementation lives here\n";
    std::ofstream(include / "pto" / "pto-inst.hpp") << "#pragma once\nnamespace pto {}\n";
    const std::string src = (out_dir() / "a5_tree_kernel.cpp").string();
    std::ofstream(src) << "#include <pto/pto-inst.hpp>\n__global__ __aicore__ void k(__gm__ float* z) {}\n";
    const std::string cmd = kPtocc + " --dry-run -fPIC -shared -xcce ";
    const std::string rest = " -I" + include.string() + " " + src + " -o " + (out_dir() / "never.so").string();
    const std::string taken = "ptocc: note: PTO headers: pto-isa at " + include.string() +
                              " (not a git checkout), compiled over ptosim's CCE intrinsics with ";
    const std::string demoted =
        "-I" + include.string() + " holds another pto/pto-inst.hpp; it is searched after ptolab's headers";

    CmdResult r = sh(cmd + "--cce-aicore-arch=dav-c310-vec -DREGISTER_BASE" + rest);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find(taken), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("(the tree on the include path; --pto-headers=ptolab compiles ptolab's own headers "
                            "instead)"),
              std::string::npos)
        << r.output;
    EXPECT_EQ(r.output.find(demoted), std::string::npos) << r.output;

    for (const std::string& args : {std::string("--cce-aicore-arch=dav-c220-vec -DMEMORY_BASE"),
                                    std::string("--pto-headers=ptolab --cce-aicore-arch=dav-c310-vec -DREGISTER_BASE")}) {
        r = sh(cmd + args + rest);
        EXPECT_EQ(r.status, 0) << args << "\n" << r.output;
        EXPECT_EQ(r.output.find("PTO headers: pto-isa at"), std::string::npos) << args << "\n" << r.output;
        EXPECT_NE(r.output.find(demoted), std::string::npos) << args << "\n" << r.output;
    }
}

// A stand-in bisheng that records its arguments, one per line.
struct FakeBisheng {
    fs::path dir, log;
    explicit FakeBisheng(const fs::path& bin_dir) : dir(bin_dir), log(out_dir() / (bin_dir.filename().string() + ".log")) {
        fs::create_directories(dir);
        fs::remove(log);
        std::ofstream f(dir / "bisheng");
        f << "#!/bin/sh\nfor a in \"$@\"; do printf '%s\\n' \"$a\" >> '" << log.string() << "'; done\n";
        f.close();
        chmod((dir / "bisheng").c_str(), 0755);
    }
    std::string args() const {
        std::ifstream f(log);
        std::stringstream ss;
        ss << f.rdbuf();
        return ss.str();
    }
};

const char* kUserArgs = "-fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE -mllvm -x 'a b.cpp' -o lib.so";
const char* kRecorded = "-fPIC\n-shared\n-xcce\n--cce-aicore-arch=dav-c220-vec\n-DMEMORY_BASE\n-mllvm\n-x\na b.cpp\n-o\nlib.so\n";

TEST(Bisheng, ExplicitToolchainRunsBishengFromPathWithTheUsersArguments) {
    FakeBisheng fb(out_dir() / "bin1");
    CmdResult r = sh("PATH=" + fb.dir.string() + ":$PATH ASCEND_HOME_PATH= " + kPtocc + " --toolchain=bisheng " + kUserArgs);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(fb.args(), kRecorded);
}

TEST(Bisheng, AutoFindsBishengUnderAscendHomePath) {
    fs::path home = out_dir() / "cann";
    FakeBisheng fb(home / "compiler" / "ccec_compiler" / "bin");
    CmdResult r = sh("ASCEND_HOME_PATH=" + home.string() + " " + kPtocc + " " + kUserArgs);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_EQ(fb.args(), kRecorded);
}

TEST(Bisheng, DryRunPrintsTheBishengCommandWithoutRunningIt) {
    FakeBisheng fb(out_dir() / "bin2");
    CmdResult r = sh("PATH=" + fb.dir.string() + ":$PATH " + kPtocc + " --dry-run --toolchain=auto " + kUserArgs);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find((fb.dir / "bisheng").string() + " -fPIC -shared -xcce"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("'a b.cpp'"), std::string::npos) << r.output;
    EXPECT_EQ(fb.args(), "");
}

TEST(Bisheng, MissingBishengWithExplicitToolchainIsAnError) {
    CmdResult r = sh("PATH=/usr/bin:/bin ASCEND_HOME_PATH= " + kPtocc + " --toolchain=bisheng " + kUserArgs);
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("bisheng was not found"), std::string::npos) << r.output;
}

TEST(Bisheng, AutoWithoutBishengBuildsForTheSimulator) {
    CmdResult r = sh("PATH=/usr/bin:/bin ASCEND_HOME_PATH= " + kPtocc +
               " --dry-run -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("-D__DAV_C220_VEC__"), std::string::npos) << r.output;
}

// ptocc as bisheng: a symlink named bisheng first on PATH must build for the
// simulator, not find itself and run itself forever.
TEST(Bisheng, SymlinkNamedBishengOnPathDoesNotRecurse) {
    fs::path dir = out_dir() / "selflink";
    fs::create_directories(dir);
    fs::remove(dir / "bisheng");
    fs::create_symlink(kPtocc, dir / "bisheng");
    const std::string lib = (out_dir() / "libself_add.so").string();
    CmdResult r = sh("PATH=" + dir.string() + ":/usr/bin:/bin ASCEND_HOME_PATH= timeout 120 bisheng -fPIC -shared -xcce "
                     "--cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp -o " + lib);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_TRUE(fs::exists(lib));
    // The dry run shows the simulator build, not a bisheng command.
    r = sh("PATH=" + dir.string() + ":/usr/bin:/bin ASCEND_HOME_PATH= bisheng --dry-run -xcce "
           "--cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("-D__DAV_C220_VEC__"), std::string::npos) << r.output;
}

TEST(Bisheng, SelfUnderAscendHomePathIsSkipped) {
    fs::path home = out_dir() / "selfhome";
    fs::path bin = home / "compiler" / "ccec_compiler" / "bin";
    fs::create_directories(bin);
    fs::remove(bin / "bisheng");
    fs::create_symlink(kPtocc, bin / "bisheng");
    CmdResult r = sh("PATH=/usr/bin:/bin ASCEND_HOME_PATH=" + home.string() + " timeout 60 " + (bin / "bisheng").string() +
                     " --dry-run -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp");
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_NE(r.output.find("-D__DAV_C220_VEC__"), std::string::npos) << r.output;
}

// Two copies of ptocc (different inodes) named bisheng: the first delegates
// to the second once, which sees PTOCC_DELEGATED and builds for the simulator.
TEST(Bisheng, CopyOnPathIsDelegatedToOnceAndThenBuildsForTheSimulator) {
    fs::path a = out_dir() / "copy_a", b = out_dir() / "copy_b";
    for (const fs::path& d : {a, b}) {
        fs::create_directories(d);
        fs::copy_file(kPtocc, d / "bisheng", fs::copy_options::overwrite_existing);
    }
    const std::string lib = (out_dir() / "libcopy_add.so").string();
    CmdResult r = sh("PATH=" + a.string() + ":" + b.string() + ":/usr/bin:/bin ASCEND_HOME_PATH= timeout 120 " +
                     (a / "bisheng").string() + " -v -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " +
                     kKernels + "/vec_add.cpp -o " + lib);
    EXPECT_EQ(r.status, 0) << r.output;
    EXPECT_TRUE(fs::exists(lib));
    // -v shows the one delegation: copy_a runs copy_b, which runs the host compiler.
    EXPECT_NE(r.output.find((b / "bisheng").string() + " -v -fPIC"), std::string::npos) << r.output;
    r = sh("PTOCC_DELEGATED=1 PATH=" + b.string() + ":/usr/bin:/bin " + (a / "bisheng").string() +
           " --toolchain=bisheng -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE " + kKernels + "/vec_add.cpp");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("PTOCC_DELEGATED is set"), std::string::npos) << r.output;
}

// --- inputs and outputs that are wrong before anything runs ----------------

const std::string kVecFlags = " -fPIC -shared -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE ";

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    std::stringstream ss;
    ss << f.rdbuf();
    return ss.str();
}

// A directory holding a copy of a kernel source, for commands run inside it.
fs::path kernel_copy(const std::string& name) {
    const fs::path dir = out_dir() / name;
    fs::remove_all(dir);
    fs::create_directories(dir);
    fs::copy_file(kKernels + "/vec_add.cpp", dir / "same.cpp");
    return dir;
}

TEST(OutputGuard, OutputThatIsAnInputIsRefusedAndTheSourceKept) {
    const fs::path dir = kernel_copy("guard_same");
    const std::string source = slurp(dir / "same.cpp");
    fs::create_symlink("same.cpp", dir / "link");
    for (const std::string out : {"same.cpp", "./same.cpp", "link"}) {
        CmdResult r = sh("cd " + dir.string() + " && " + kPtocc + kVecFlags + "same.cpp -o " + out);
        EXPECT_EQ(r.status, 1) << out;
        const std::string stem = fs::path(out).stem().string();
        EXPECT_EQ(r.output, "ptocc: error: output " + out + " is the input same.cpp: the build would overwrite it; "
                            "name the output something else, e.g. -o lib" + stem + ".so\n");
        EXPECT_EQ(slurp(dir / "same.cpp"), source) << out;
    }
}

// The library is linked aside and renamed over -o: a link that fails leaves
// the library a running program may still load as it was.
TEST(OutputGuard, FailedLinkLeavesThePreviousLibraryWhole) {
    const fs::path dir = kernel_copy("guard_link");
    ASSERT_EQ(sh("cd " + dir.string() + " && " + kPtocc + kVecFlags + "same.cpp -o libk.so").status, 0);
    const std::string before = slurp(dir / "libk.so");
    CmdResult r = sh("cd " + dir.string() + " && " + kPtocc + kVecFlags + "same.cpp -o libk.so -lptolab_no_such_library");
    EXPECT_NE(r.status, 0);
    EXPECT_NE(r.output.find("ptolab_no_such_library"), std::string::npos) << r.output;
    EXPECT_EQ(slurp(dir / "libk.so"), before);
    for (const auto& e : fs::directory_iterator(dir))
        EXPECT_EQ(e.path().filename().string().find(".ptocc-"), std::string::npos) << e.path();
}

TEST(OutputGuard, OutputWithASourceExtensionIsRefusedForEveryToolchain) {
    const fs::path dir = kernel_copy("guard_ext");
    FakeBisheng fb(dir / "bin");
    for (const std::string toolchain : {"sim", "bisheng"}) {
        CmdResult r = sh("cd " + dir.string() + " && PATH=" + fb.dir.string() + ":$PATH " + kPtocc +
                         " --toolchain=" + toolchain + kVecFlags + "same.cpp -o kernel.hpp");
        EXPECT_EQ(r.status, 1) << toolchain;
        EXPECT_EQ(r.output, "ptocc: error: output kernel.hpp would overwrite a source file (.hpp is a source or "
                            "header extension); name the output e.g. -o libkernel.so\n");
        EXPECT_FALSE(fs::exists(dir / "kernel.hpp"));
    }
    EXPECT_EQ(fb.args(), "") << "bisheng ran";
    CmdResult r = sh("cd " + dir.string() + " && " + kPtocc +
                     " -c -xcce --cce-aicore-arch=dav-c220-vec -DMEMORY_BASE same.cpp -o same.cc");
    EXPECT_EQ(r.output, "ptocc: error: output same.cc would overwrite a source file (.cc is a source or header "
                        "extension); name the output e.g. -o same.o\n");
}

TEST(InputErrors, DirectoryInputIsNamed) {
    const fs::path dir = kernel_copy("input_dir");
    fs::create_directories(dir / "kernels.cpp");
    CmdResult r = sh("cd " + dir.string() + " && " + kPtocc + kVecFlags + "kernels.cpp -o libk.so");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.output, "ptocc: error: kernels.cpp: is a directory; name the source or object file in it\n");
}

TEST(InputErrors, OutputIntoAMissingDirectoryFailsBeforeAnyCompile) {
    const fs::path dir = kernel_copy("output_dir");
    // -v would print the compile command had one started.
    CmdResult r = sh("cd " + dir.string() + " && " + kPtocc + " -v" + kVecFlags + "same.cpp -o out/lib/libk.so");
    EXPECT_EQ(r.status, 1);
    EXPECT_EQ(r.output, "ptocc: error: output out/lib/libk.so: directory out/lib: No such file or directory; create it "
                        "first (mkdir -p out/lib)\n");
    r = sh("cd " + dir.string() + " && " + kPtocc + kVecFlags + "same.cpp -o same.cpp/libk.so");
    EXPECT_EQ(r.output, "ptocc: error: output same.cpp/libk.so: same.cpp is not a directory; fix the path\n");
}

}  // namespace
