// ptolab_core: the comparison engine's rules and figures, and the golden
// readers' refusal of every malformed file.
#include <ptolab/compare.hpp>
#include <ptolab/golden.hpp>
#include <ptolab/vlog.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>

using namespace ptolab;

namespace {

ArrayView f32(const std::vector<float>& v) { return {v.data(), DType::Float32, {static_cast<int64_t>(v.size())}}; }

std::string tmp(const std::string& name) {
    auto dir = std::filesystem::temp_directory_path() / ("ptolab_core_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    return (dir / name).string();
}

void write_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream(path, std::ios::binary) << bytes;
}

}  // namespace

TEST(Tolerance, SeedTable) {
    EXPECT_DOUBLE_EQ(default_tolerance(DType::Float16).rtol, 1e-3);
    EXPECT_DOUBLE_EQ(default_tolerance(DType::BFloat16).rtol, 1.6e-2);
    EXPECT_DOUBLE_EQ(default_tolerance(DType::Float32).rtol, 1.3e-6);
    for (DType d : {DType::Float16, DType::BFloat16, DType::Float32}) EXPECT_DOUBLE_EQ(default_tolerance(d).atol, 1e-5);
    EXPECT_DOUBLE_EQ(default_tolerance(DType::Int32).atol, 0);
}

TEST(Compare, BoundaryIsInclusive) {
    std::vector<float> e{1.0f, 100.0f}, a{1.0f, 100.0f};
    a[1] = 100.0f + 1e-5f + 1.3e-6f * 100.0f * 0.9f;  // inside atol + rtol*|e|
    EXPECT_TRUE(compare(f32(a), f32(e)).passed);
    a[1] = 100.0f + 5e-4f;
    Report r = compare(f32(a), f32(e));
    EXPECT_FALSE(r.passed);
    EXPECT_EQ(r.mismatches, 1);
    ASSERT_FALSE(r.worst.empty());
    EXPECT_EQ(r.worst[0].flat, 1);
    EXPECT_TRUE(r.worst[0].mismatched);
}

TEST(Compare, NanAndInfinity) {
    std::vector<float> e{NAN, INFINITY, 1}, a{NAN, INFINITY, 1};
    EXPECT_FALSE(compare(f32(a), f32(e)).passed);  // NaN != NaN by default, as torch
    CompareOptions o;
    o.equal_nan = true;
    Report r = compare(f32(a), f32(e), o);
    EXPECT_TRUE(r.passed);
    EXPECT_EQ(r.nonfinite, 2);
    a[1] = -INFINITY;
    EXPECT_FALSE(compare(f32(a), f32(e), o).passed);
}

TEST(Compare, ShapeAndDtypeMismatchAreErrorsNotVerdicts) {
    std::vector<float> a{1, 2, 3, 4};
    ArrayView x{a.data(), DType::Float32, {2, 2}}, y{a.data(), DType::Float32, {4}};
    EXPECT_THROW(compare(x, y), CompareError);
    std::vector<uint16_t> h(4, 0x3c00);
    ArrayView hv{h.data(), DType::Float16, {2, 2}};
    EXPECT_THROW(compare(hv, x), CompareError);
    CompareOptions o;
    o.check_dtype = false;
    Report r = compare(hv, x, o);  // 1.0 everywhere vs 1,2,3,4
    EXPECT_DOUBLE_EQ(r.rtol, 1e-3);  // the looser dtype's tolerance
    EXPECT_EQ(r.mismatches, 3);
}

TEST(Compare, Bfloat16WithoutExtraPackages) {
    EXPECT_EQ(float_to_bf16(1.0f), 0x3f80);
    EXPECT_FLOAT_EQ(bf16_to_float(0x4049), 3.140625f);
    EXPECT_EQ(float_to_bf16(1.00390625f), 0x3f80);  // tie rounds to even
    std::vector<uint16_t> a{float_to_bf16(1.0f), float_to_bf16(2.0f)}, e{float_to_bf16(1.01f), float_to_bf16(2.0f)};
    ArrayView av{a.data(), DType::BFloat16, {2}}, ev{e.data(), DType::BFloat16, {2}};
    EXPECT_TRUE(compare(av, ev).passed);  // 1.6e-2 relative
}

TEST(Compare, QualityFigures) {
    std::vector<float> e{1, 2, 3, 4}, a{1, 2, 3, 5};
    CompareOptions o;
    o.rtol = 0.5;
    o.atol = 0;
    Report r = compare(f32(a), f32(e), o);
    EXPECT_TRUE(r.passed);
    EXPECT_FALSE(r.default_tolerance);
    EXPECT_NEAR(r.rmse, 0.5, 1e-12);
    EXPECT_NEAR(r.rms_expected, std::sqrt(7.5), 1e-12);
    EXPECT_NEAR(r.relative_rmse, 0.5 / std::sqrt(7.5), 1e-12);
    EXPECT_NEAR(r.r2, 1 - 1.0 / 5.0, 1e-12);
    EXPECT_DOUBLE_EQ(r.max_abs_err, 1);
    std::string msg = format_report(r, "q");
    EXPECT_NE(msg.find("R2"), std::string::npos);
    EXPECT_NE(report_json(r, "q").find("\"relative_rmse\""), std::string::npos);
}

TEST(Compare, WorstElementsListIndexValuesAndErrors) {
    std::vector<float> e(100, 1.0f), a(100, 1.0f);
    a[7] = 2, a[42] = 5, a[99] = 1.5;
    CompareOptions o;
    o.worst_count = 2;
    Report r = compare({a.data(), DType::Float32, {10, 10}}, {e.data(), DType::Float32, {10, 10}}, o);
    ASSERT_EQ(r.worst.size(), 2u);
    EXPECT_EQ(r.worst[0].index, (std::vector<int64_t>{4, 2}));
    EXPECT_DOUBLE_EQ(r.worst[0].abs_err, 4);
    EXPECT_DOUBLE_EQ(r.worst[0].rel_err, 4);
    EXPECT_EQ(r.worst[1].flat, 7);
    std::string msg = format_report(r, "t");
    EXPECT_NE(msg.find("FAIL t: 3 of 100"), std::string::npos) << msg;
    EXPECT_NE(msg.find("[4, 2]"), std::string::npos) << msg;
}

TEST(Golden, NpyRoundTripAndRawBin) {
    Array a;
    a.dtype = DType::Float16;
    a.shape = {2, 3};
    a.bytes.assign(12, 0);
    a.bytes[0] = 0x00, a.bytes[1] = 0x3c;
    write_npy(tmp("h.npy"), a);
    Array b = read_npy(tmp("h.npy"));
    EXPECT_EQ(b.dtype, DType::Float16);
    EXPECT_EQ(b.shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(b.bytes, a.bytes);
    write_bytes(tmp("r.bin"), std::string(24, '\0'));
    Array c = read_golden(tmp("r.bin"), DType::Float32, std::vector<int64_t>{2, 3});
    EXPECT_EQ(c.shape, (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(read_golden(tmp("r.bin"), DType::Float32, std::nullopt).shape, (std::vector<int64_t>{6}));
}

TEST(Golden, BadFilesAreClearErrors) {
    Array a;
    a.dtype = DType::Float32;
    a.shape = {4};
    a.bytes.assign(16, 0);
    write_npy(tmp("ok.npy"), a);
    std::ifstream in(tmp("ok.npy"), std::ios::binary);
    std::string whole((std::istreambuf_iterator<char>(in)), {});
    auto expect_error = [](const std::string& path, const std::string& needle, std::optional<DType> d = std::nullopt,
                           std::optional<std::vector<int64_t>> s = std::nullopt) {
        try {
            read_golden(path, d, s);
            ADD_FAILURE() << path << " was accepted";
        } catch (const GoldenError& e) {
            EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
        }
    };
    write_bytes(tmp("trunc.npy"), whole.substr(0, whole.size() - 3));
    expect_error(tmp("trunc.npy"), "truncated");
    write_bytes(tmp("extra.npy"), whole + "xx");
    expect_error(tmp("extra.npy"), "trailing");
    write_bytes(tmp("magic.npy"), "hello world, not numpy");
    expect_error(tmp("magic.npy"), "not a .npy");
    std::string bad = whole;
    bad.replace(bad.find("descr"), 5, "dxscr");
    write_bytes(tmp("hdr.npy"), bad);
    expect_error(tmp("hdr.npy"), "malformed");
    std::string fort = whole;
    fort.replace(fort.find("False"), 5, "True ");
    write_bytes(tmp("fortran.npy"), fort);
    expect_error(tmp("fortran.npy"), "Fortran");
    std::string big = whole;
    big.replace(big.find("<f4"), 3, ">f4");
    write_bytes(tmp("big.npy"), big);
    expect_error(tmp("big.npy"), "big-endian");
    write_bytes(tmp("hdrcut.npy"), whole.substr(0, 20));
    expect_error(tmp("hdrcut.npy"), "truncated");
    expect_error(tmp("ok.npy"), "float16 was requested", DType::Float16);
    expect_error(tmp("ok.npy"), "cannot be viewed", std::nullopt, std::vector<int64_t>{3});
    write_bytes(tmp("odd.bin"), std::string(10, '\0'));
    expect_error(tmp("odd.bin"), "not a whole number", DType::Float32);
    expect_error(tmp("odd.bin"), "size mismatch", DType::Float16, std::vector<int64_t>{2, 3});
    expect_error(tmp("odd.bin"), "needs its element type");
    expect_error(tmp("missing.bin"), "cannot open", DType::Float32);
    EXPECT_THROW(parse_shape("2,-3"), GoldenError);
    EXPECT_EQ(parse_shape("(2, 3)"), (std::vector<int64_t>{2, 3}));
    EXPECT_EQ(parse_shape("4x5"), (std::vector<int64_t>{4, 5}));
}

TEST(VerificationLog, VerdictAndFencing) {
    LogEntry e;
    e.command = "python3 run.py";
    e.result_lines = result_lines("noise\nPASS add n=1\n  FAIL add n=2\nPASSING is not a line start? it is\n");
    ASSERT_EQ(e.result_lines.size(), 3u);
    EXPECT_EQ(verdict(e), "FAIL");
    e.result_lines = {"PASS add"};
    e.exit_status = 0;
    EXPECT_EQ(verdict(e), "PASS");
    e.result_json = normalize_json("{\"passed\": false}", "r.json");
    EXPECT_EQ(verdict(e), "FAIL");
    EXPECT_THROW(normalize_json("{oops", "r.json"), std::invalid_argument);
    e.result_json.clear();
    e.command = "echo '```'";
    std::string md = format_entry(e, "2025-01-01");
    EXPECT_NE(md.find("````sh"), std::string::npos) << md;
}
