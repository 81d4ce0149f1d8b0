// Which sources are kernels written on the CCE intrinsics alone: they call
// an intrinsic and include no PTO header, directly or through a user header.
#include "cce_direct.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using ptocc::scan_cce_direct;

namespace {

struct Tree {
    fs::path root;
    Tree() {
        root = fs::temp_directory_path() / ("ptocc-cce-direct-" + std::to_string(getpid()) + "-" +
                                            ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(root);
        fs::create_directories(root / "inc");
    }
    ~Tree() { fs::remove_all(root); }
    void put(const std::string& name, const std::string& text) const {
        fs::create_directories((root / name).parent_path());
        std::ofstream(root / name) << text;
    }
};

}  // namespace

TEST(CceDirect, AnIntrinsicCallWithoutPtoHeadersIsFound) {
    const auto s = scan_cce_direct("k.cpp", "#include <cstdint>\nvoid k() { copy_gm_to_ubuf(a, x, 0, 1, 8, 0, 0); }\n", {});
    EXPECT_FALSE(s.includes_pto);
    EXPECT_EQ(s.intrinsic, "copy_gm_to_ubuf");
    EXPECT_EQ(s.where, "k.cpp");
    EXPECT_EQ(scan_cce_direct("k.cpp", "void k() { vconv_f322f16(d, s, 1, 1, 1, 4, 8); }", {}).intrinsic, "vconv_f322f16");
    EXPECT_EQ(scan_cce_direct("k.cpp", "void k() { vadd <float>(d, a, b); }", {}).intrinsic, "vadd");
}

TEST(CceDirect, APtoHeaderAnywhereMeansPto) {
    EXPECT_TRUE(scan_cce_direct("k.cpp", "#include <pto/pto-inst.hpp>\nvoid k() { vadd(d, a, b); }", {}).includes_pto);
    EXPECT_TRUE(scan_cce_direct("k.cpp", "  #  include \"kernel_operator.h\"\nvoid k() { vadd(d, a, b); }", {}).includes_pto);
    // PTO's API with no #include (ptolab's builds give every kernel its headers).
    EXPECT_TRUE(scan_cce_direct("k.cpp", "void k() { TLOAD(t, g); vadd(d, a, b); }", {}).includes_pto);
    Tree t;
    t.put("src/common.h", "#pragma once\n#include <pto/pto-inst.hpp>\n");
    EXPECT_TRUE(scan_cce_direct((t.root / "src/k.cpp").string(), "#include \"common.h\"\nvoid k() { vadd(d, a, b); }", {})
                    .includes_pto);
    t.put("inc/wrap.h", "#include <pto/common/type.hpp>\n");
    EXPECT_TRUE(scan_cce_direct((t.root / "src/k.cpp").string(), "#include <wrap.h>\nvoid k() { vadd(d, a, b); }",
                                {(t.root / "inc").string()})
                    .includes_pto);
}

TEST(CceDirect, CallsInUserHeadersCountAndSystemHeadersAreNotRead) {
    Tree t;
    t.put("inc/ops.h", "inline void add() { vadd(d, a, b, 1, 1, 1, 1, 8, 8, 8); }\n");
    const auto s = scan_cce_direct((t.root / "k.cpp").string(), "#include <ops.h>\n#include <vector>\nvoid k() { add(); }",
                                   {(t.root / "inc").string()});
    EXPECT_FALSE(s.includes_pto);
    EXPECT_EQ(s.intrinsic, "vadd");
    EXPECT_EQ(s.where, fs::weakly_canonical(t.root / "inc/ops.h").string());
}

TEST(CceDirect, CommentsStringsMembersAndDeclarationsOfOtherNamesAreNoCalls) {
    const auto s = scan_cce_direct("k.cpp",
                                   "// vadd(d, a, b);\n/* copy_gm_to_ubuf(a) */\n"
                                   "const char* m = \"vadd(\";\nvoid k(T& t, T* p) { t.vadd(1); p->mad(2); int vadd_count = 0; "
                                   "my_vadd(3); f(4); lt(5); get_block_idx(); set_flag(PIPE_V, PIPE_S, EVENT_ID0); }\n",
                                   {});
    EXPECT_FALSE(s.includes_pto);
    EXPECT_EQ(s.intrinsic, "");
}
