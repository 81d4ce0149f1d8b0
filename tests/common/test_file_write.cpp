// src/common/file_write.hpp: checked, atomic writes of the files ptolab produces.
#include "file_write.hpp"
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace ptolab::common;

namespace {

struct FileWrite : ::testing::Test {
    fs::path dir;
    void SetUp() override {
        dir = fs::temp_directory_path() / ("ptolab-file-write-" + std::to_string(getpid()) + "-" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
    }
    void TearDown() override { fs::remove_all(dir); }
    static std::string read(const fs::path& p) {
        std::ifstream f(p, std::ios::binary);
        std::stringstream s;
        s << f.rdbuf();
        return s.str();
    }
    std::string error_of(void (*write)(const std::string&), const std::string& path) {
        try {
            write(path);
        } catch (const WriteError& e) {
            return e.what();
        }
        return "no error";
    }
};

TEST_F(FileWrite, ReplacesAFileAndKeepsItsPermissions) {
    const fs::path p = dir / "result.json";
    write_file(p, "old\n");
    chmod(p.c_str(), 0640);
    write_file(p, "new\n");
    EXPECT_EQ(read(p), "new\n");
    struct stat st {};
    ASSERT_EQ(stat(p.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 07777, 0640u);
    EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}), 1) << "a temporary file was left";
}

TEST_F(FileWrite, ReplacesTheTargetOfASymlinkAndKeepsTheLink) {
    write_file(dir / "real.json", "old");
    fs::create_symlink("real.json", dir / "link.json");
    write_file(dir / "link.json", "new");
    EXPECT_TRUE(fs::is_symlink(dir / "link.json"));
    EXPECT_EQ(read(dir / "real.json"), "new");
}

TEST_F(FileWrite, FullDeviceIsAnErrorWithThePathAndTheReason) {
    EXPECT_EQ(error_of([](const std::string& p) { write_file(p, "x"); }, "/dev/full"),
              "cannot write /dev/full: No space left on device");
    EXPECT_EQ(error_of([](const std::string& p) { append_file(p, "x"); }, "/dev/full"),
              "cannot write /dev/full: No space left on device");
}

TEST_F(FileWrite, NullDeviceIsWrittenInPlace) { EXPECT_NO_THROW(write_file("/dev/null", "x")); }

TEST_F(FileWrite, PathUnderARegularFileIsAnErrorAndLeavesNothing) {
    write_file(dir / "file", "keep");
    const std::string p = (dir / "file" / "out.json").string();
    EXPECT_EQ(error_of([](const std::string& q) { write_file(q, "x"); }, p), "cannot write " + p + ": Not a directory");
    EXPECT_EQ(read(dir / "file"), "keep");
}

TEST_F(FileWrite, DirectoryIsAnError) {
    const std::string p = dir.string();
    EXPECT_EQ(error_of([](const std::string& q) { write_file(q, "x"); }, p), "cannot write " + p + ": Is a directory");
}

TEST_F(FileWrite, AppendAddsToTheEnd) {
    const fs::path p = dir / "log.jsonl";
    append_file(p, "a\n");
    append_file(p, "b\n");
    EXPECT_EQ(read(p), "a\nb\n");
}

TEST_F(FileWrite, OverwriteTailRewritesFromTheOffsetAndCuts) {
    const fs::path p = dir / "trace.json";
    write_file(p, "[1]\n]}\n");
    overwrite_tail(p, 2, ",2]\n]}\n");
    EXPECT_EQ(read(p), "[1,2]\n]}\n");
    overwrite_tail(p, 1, "]");
    EXPECT_EQ(read(p), "[]");
}

}  // namespace
