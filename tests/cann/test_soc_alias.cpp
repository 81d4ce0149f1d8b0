// CANN SoC names: the alias table, ptocc's --cce-soc-version agreeing with it,
// and libruntime_camodel.so of the CANN-shaped root selecting the SoC.
#include "options.hpp"

#include <ptosim/c_api.h>
#include <ptosim/runtime.hpp>
#include <gtest/gtest.h>

#include <dlfcn.h>

#include <filesystem>
#include <string>

namespace {

TEST(SocAlias, CannNamesResolveToTheirProfiles) {
    EXPECT_STREQ(ptosim::find_soc("Ascend910_9599")->name, "Ascend950PR");
    EXPECT_STREQ(ptosim::find_soc("Ascend950PR_9599")->name, "Ascend950PR");
    EXPECT_STREQ(ptosim::find_soc("Ascend910_9391")->name, "Ascend910_93");
    EXPECT_STREQ(ptosim::find_soc("Ascend910B4")->name, "Ascend910B4");
    EXPECT_STREQ(ptosim::find_soc("Ascend910B")->name, "Ascend910B2");
    EXPECT_EQ(ptosim::find_soc("Ascend310P3"), nullptr);
    for (const auto& a : ptosim::soc_aliases()) EXPECT_NE(ptosim::find_soc(a.cann_name), nullptr) << a.cann_name;
}

TEST(SocAlias, PtoccDerivesTheSameTargetForEveryName) {
    for (const auto& p : ptosim::soc_profiles()) {
        auto t = ptocc::soc_version_target(p.name);
        ASSERT_TRUE(t) << p.name;
        EXPECT_EQ(*t == ptocc::Target::A5, p.target == ptosim::Target::A5) << p.name;
    }
    for (const auto& a : ptosim::soc_aliases()) {
        auto t = ptocc::soc_version_target(a.cann_name);
        ASSERT_TRUE(t) << a.cann_name;
        EXPECT_EQ(*t == ptocc::Target::A5, ptosim::find_soc(a.cann_name)->target == ptosim::Target::A5) << a.cann_name;
    }
}

// One process, no launches: each loaded camodel copy selects its SoC.
TEST(SocAlias, LoadingRuntimeCamodelSelectsTheSocOfItsDirectory) {
    const std::string root = PTOLAB_CANN_ROOT;
    if (std::getenv("PTO_SIM_SOC")) GTEST_SKIP() << "PTO_SIM_SOC is set and would win";
    struct Case {
        const char* dir;
        const char* profile;
    };
    for (Case c : {Case{"Ascend910B4", "Ascend910B4"}, Case{"Ascend910_9599", "Ascend950PR"},
                   Case{"Ascend910_9391", "Ascend910_93"}}) {
        const std::string lib = root + "/tools/simulator/" + c.dir + "/lib/libruntime_camodel.so";
        ASSERT_TRUE(std::filesystem::exists(lib)) << lib;
        void* h = dlopen(lib.c_str(), RTLD_NOW);
        ASSERT_NE(h, nullptr) << dlerror();
        EXPECT_STREQ(ptosim_soc_name(), c.profile) << lib;
        EXPECT_TRUE(ptosim::soc_pinned());
    }
    EXPECT_NE(ptosim_camodel_select("Ascend310P3"), 0);
}

TEST(SocAlias, EveryCannLibraryNameOfPtoccResolvesInTheRoot) {
    const std::string root = PTOLAB_CANN_ROOT;
    for (const char* n : ptocc::cann_library_names()) {
        const std::string name = std::string("lib") + n + ".so";
        if (std::string(n) == "runtime_camodel") {
            EXPECT_FALSE(std::filesystem::exists(root + "/lib64/" + name)) << "only under tools/simulator/<SoC>/lib";
            continue;
        }
        if (std::string(n) == "hccl") {  // ptolab's own HCCL (docs/many-devices.md), not the simulator
            for (const char* dir : {"/lib64/", "/runtime/lib64/"})
                EXPECT_FALSE(std::filesystem::equivalent(root + dir + name, root + "/lib64/libptosim.so")) << dir;
            EXPECT_TRUE(std::filesystem::equivalent(root + "/runtime/lib64/" + name, root + "/lib64/" + name));
            EXPECT_TRUE(std::filesystem::equivalent(root + "/lib64/libhcomm.so", root + "/lib64/" + name));
            void* h = dlopen((root + "/lib64/" + name).c_str(), RTLD_NOW);
            ASSERT_NE(h, nullptr) << dlerror();
            EXPECT_NE(dlsym(h, "HcclCommInitRootInfo"), nullptr);
            continue;
        }
        for (const char* dir : {"/lib64/", "/runtime/lib64/", "/runtime/lib64/stub/"}) {
            const std::string path = root + dir + name;
            EXPECT_TRUE(std::filesystem::equivalent(path, root + "/lib64/libptosim.so")) << path;
        }
        // dlopen by name through the root's lib64 gives libptosim's symbols.
        void* h = dlopen((root + "/lib64/" + name).c_str(), RTLD_NOW);
        ASSERT_NE(h, nullptr) << dlerror();
        EXPECT_NE(dlsym(h, "aclrtMalloc"), nullptr) << name;
        EXPECT_NE(dlsym(h, "memcpy_s"), nullptr) << name;
    }
}

}  // namespace
