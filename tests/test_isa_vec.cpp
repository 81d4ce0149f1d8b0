// Vector unit: TADD, TADDS, TMULS for every element type of the target, and
// TCVT in every rounding mode against independent scalar references.
#include <pto/inst/elementwise.hpp>
#include <pto/inst/tcvt.hpp>
#include "test_isa_ref.hpp"

using namespace pto;
using namespace ref;
using testutil::run_vec;

namespace {

// ---------------------------------------------------------------- arithmetic

template <class T>
class Arith : public ::testing::Test {};
#if PTOSIM_TARGET_A5
using ArithTypes = ::testing::Types<half, float, int16_t, int32_t, bfloat16_t, uint32_t, uint16_t, int8_t, uint8_t>;
#else
using ArithTypes = ::testing::Types<half, float, int16_t, int32_t>;
#endif
TYPED_TEST_SUITE(Arith, ArithTypes);

constexpr int kVecR = 16, kVecC = 64;

// Operands: values near the type's ends (for wrap-around), NaN/Inf/zeros
// and non-trivial fractions for floating types.
template <class T>
std::vector<T> arith_input(uint64_t salt) {
    std::vector<T> v(kVecR * kVecC);
    testutil::Rng rng = testutil::Rng::salted(salt);
    for (size_t i = 0; i < v.size(); ++i) {
        const uint64_t h = rng.next();
        if constexpr (is_fp<T>) {
            const float specials[] = {NAN, INFINITY, -INFINITY, 0.0f, -0.0f, 65504.0f, -65504.0f, 3.0e38f, 1.0e-7f, 6.0e-8f};
            if (h % 8 == 0) v[i] = from_float<T>(specials[(h >> 8) % 10]);
            else v[i] = from_float<T>(static_cast<float>(rng.uniform(-1000, 1000)));
        } else {
            constexpr T lo = std::numeric_limits<T>::min(), hi = std::numeric_limits<T>::max();
            const T ends[] = {lo, static_cast<T>(lo + 1), hi, static_cast<T>(hi - 1), T(0), T(1), static_cast<T>(-1)};
            if (h % 4 == 0) v[i] = ends[(h >> 8) % 7];
            else v[i] = static_cast<T>(h >> 11);
        }
    }
    return v;
}

// a + b and a * b in the element type: integers wrap (two's complement),
// floats round once to nearest even.
template <class T>
T ref_add(T a, T b) {
    if constexpr (is_half<T>) return half_from_bits(f16_bits(f16_from_bits(a.bits) + f16_from_bits(b.bits)));
    else if constexpr (is_bf16<T>) return bf16_from_bits(bf16_rne(static_cast<float>(to_double(a) + to_double(b))));
    else if constexpr (std::is_floating_point_v<T>) return a + b;
    else return static_cast<T>(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
}
template <class T>
T ref_mul(T a, T b) {
    if constexpr (is_half<T>) return half_from_bits(f16_bits(f16_from_bits(a.bits) * f16_from_bits(b.bits)));
    else if constexpr (is_bf16<T>) return bf16_from_bits(bf16_rne(static_cast<float>(to_double(a) * to_double(b))));
    else if constexpr (std::is_floating_point_v<T>) return a * b;
    else return static_cast<T>(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
}

enum class Op { Add, AddS, MulS };

// Runs op over dst's (vr, vc) valid region; dst starts as a sentinel matrix
// so the elements outside the valid region must come back unchanged. The
// sources have dst's valid shape, as pto-isa asks (A2A3's TADDS writes
// nothing otherwise).
template <class T>
void check_arith(Op op, int vr, int vc, T scalar) {
    SCOPED_TRACE(std::to_string(vr) + "x" + std::to_string(vc));
    auto a = arith_input<T>(1), b = arith_input<T>(2), dst = arith_input<T>(3);
    std::vector<T> out(kVecR * kVecC);
    auto st = run_vec([&] {
        using Dyn = Tile<TileType::Vec, T, kVecR, kVecC, BLayout::RowMajor, DYNAMIC, DYNAMIC>;
        using Full = Tile<TileType::Vec, T, kVecR, kVecC>;
        Full ta, tb;
        Dyn sa(vr, vc), sb(vr, vc), td(vr, vc);
        Full tdfull;
        TASSIGN(ta, 0);
        TASSIGN(sa, 0);
        TASSIGN(tb, 0x2000);
        TASSIGN(sb, 0x2000);
        TASSIGN(td, 0x4000);
        TASSIGN(tdfull, 0x4000);
        auto ga = gm_nd(a.data(), kVecR, kVecC, kVecC);
        auto gb = gm_nd(b.data(), kVecR, kVecC, kVecC);
        auto gd = gm_nd(dst.data(), kVecR, kVecC, kVecC);
        auto go = gm_nd(out.data(), kVecR, kVecC, kVecC);
        TLOAD(ta, ga);
        TLOAD(tb, gb);
        TLOAD(tdfull, gd);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        if (op == Op::Add) TADD(td, sa, sb);
        else if (op == Op::AddS) TADDS(td, sa, scalar);
        else TMULS(td, sa, scalar);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(go, tdfull);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kVecR; ++r)
        for (int c = 0; c < kVecC; ++c) {
            const int i = r * kVecC + c;
            T want = dst[i];
            if (r < vr && c < vc)
                want = op == Op::Add ? ref_add(a[i], b[i]) : op == Op::AddS ? ref_add(a[i], scalar) : ref_mul(a[i], scalar);
            ASSERT_TRUE(same(out[i], want)) << "(" << r << "," << c << ") a=" << show(a[i]) << " b=" << show(b[i])
                                            << " got " << show(out[i]) << " want " << show(want);
        }
}

template <class T>
std::vector<T> scalars() {
    if constexpr (is_fp<T>)
        return {from_float<T>(1.5f), from_float<T>(-0.3f), from_float<T>(1000.0f), from_float<T>(NAN),
                from_float<T>(INFINITY), from_float<T>(0.0f)};
    else
        return {T(3), std::numeric_limits<T>::max(), std::numeric_limits<T>::min(), static_cast<T>(-1), T(0), T(77)};
}

TYPED_TEST(Arith, TaddOverValidRegions) {
    for (auto [vr, vc] : {std::pair{1, 1}, std::pair{7, 13}, std::pair{16, 64}, std::pair{3, 64}})
        check_arith<TypeParam>(Op::Add, vr, vc, TypeParam{});
}

TYPED_TEST(Arith, TaddsEveryScalar) {
    for (TypeParam s : scalars<TypeParam>()) {
        SCOPED_TRACE(show(s));
        check_arith<TypeParam>(Op::AddS, 7, 13, s);
        check_arith<TypeParam>(Op::AddS, 16, 64, s);
    }
}

TYPED_TEST(Arith, TmulsEveryScalar) {
    for (TypeParam s : scalars<TypeParam>()) {
        SCOPED_TRACE(show(s));
        check_arith<TypeParam>(Op::MulS, 1, 1, s);
        check_arith<TypeParam>(Op::MulS, 16, 64, s);
    }
}

// Spot checks that do not depend on the reference helpers.
TEST(ArithWrap, Int16AndInt32WrapAround) {
    std::vector<int16_t> a(kVecR * kVecC, INT16_MAX), o16(kVecR * kVecC);
    std::vector<int32_t> b(kVecR * kVecC, INT32_MAX), o32(kVecR * kVecC), o32m(kVecR * kVecC);
    auto st = run_vec([&] {
        Tile<TileType::Vec, int16_t, kVecR, kVecC> t16, d16;
        Tile<TileType::Vec, int32_t, kVecR, kVecC> t32, d32, m32;
        TASSIGN(t16, 0);
        TASSIGN(d16, 0x1000);
        TASSIGN(t32, 0x2000);
        TASSIGN(d32, 0x4000);
        TASSIGN(m32, 0x6000);
        auto ga = gm_nd(a.data(), kVecR, kVecC, kVecC);
        auto gb = gm_nd(b.data(), kVecR, kVecC, kVecC);
        auto g16 = gm_nd(o16.data(), kVecR, kVecC, kVecC);
        auto g32 = gm_nd(o32.data(), kVecR, kVecC, kVecC);
        auto g32m = gm_nd(o32m.data(), kVecR, kVecC, kVecC);
        TLOAD(t16, ga);
        TLOAD(t32, gb);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TADDS(d16, t16, int16_t(1));
        TADD(d32, t32, t32);
        TMULS(m32, t32, int32_t(3));
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(g16, d16);
        TSTORE(g32, d32);
        TSTORE(g32m, m32);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(o16[5], INT16_MIN);
    EXPECT_EQ(o32[5], -2);
    EXPECT_EQ(o32m[5], 2147483645);  // 3 * (2^31 - 1) mod 2^32
}

// A vector instruction on a tile no TASSIGN placed faults at its line.
TEST(IsaErrors, VectorOpOnTileWithoutAddress) {
    int line = 0;
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, 16, 64> a, b, c;
        TASSIGN(a, 0);
        TASSIGN(b, 0x1000);
        line = __LINE__ + 1;
        TADD(c, a, b);
    });
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TADD"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find("TASSIGN"), std::string::npos) << st.message;
    EXPECT_NE(st.message.find(std::string(__FILE__) + ":" + std::to_string(line)), std::string::npos) << st.message;
}

// ---------------------------------------------------------------- TCVT

// Converts src element by element on the device in 16 x 64 chunks.
template <class D, class S>
std::vector<D> run_tcvt(const std::vector<S>& src_in, RoundMode mode, SaturationMode sat, bool with_sat) {
    constexpr int R = 16, C = 64, N = R * C;
    std::vector<S> src = src_in;
    const size_t chunks = (src.size() + N - 1) / N;
    src.resize(chunks * N, S{});
    std::vector<D> dst(chunks * N);
    auto st = run_vec([&] {
        Tile<TileType::Vec, S, R, C> ts;
        Tile<TileType::Vec, D, R, C> td;
        TASSIGN(ts, 0);
        TASSIGN(td, 0x8000);
        for (size_t k = 0; k < chunks; ++k) {
            auto gs = gm_nd(src.data() + k * N, R, C, C);
            auto gd = gm_nd(dst.data() + k * N, R, C, C);
            TLOAD(ts, gs);
            ISA_SYNC(PIPE_MTE2, PIPE_V);
            if (with_sat) TCVT(td, ts, mode, sat);
            else TCVT(td, ts, mode);
            ISA_SYNC(PIPE_V, PIPE_MTE3);
            TSTORE(gd, td);
            pipe_barrier(PIPE_ALL);
        }
    });
    EXPECT_TRUE(st.ok()) << st.message;
    dst.resize(src_in.size());
    return dst;
}

// The pairs pto-isa's TCVT without a SaturationMode wraps (its TCvt.hpp).
template <class D, class S>
constexpr bool wraps_without_mode() {
    if constexpr (std::is_same_v<S, half>) return std::is_same_v<D, int8_t> || std::is_same_v<D, uint8_t> || std::is_same_v<D, int16_t>;
    else if constexpr (std::is_same_v<S, float>) return std::is_same_v<D, int16_t>;
    else if constexpr (std::is_same_v<S, int32_t>) return std::is_same_v<D, int16_t>;
    else if constexpr (std::is_same_v<S, int64_t>) return std::is_same_v<D, int32_t>;
    else return false;
}

// Every mode except CAST_RINT also goes through the overload without a
// SaturationMode when `sat` is ON, which must then apply the pair's default.
template <class D, class S>
void check_tcvt(const std::vector<S>& src, std::initializer_list<RoundMode> modes = {},
                SaturationMode sat = SaturationMode::ON) {
    const std::vector<RoundMode> ms = modes.size() ? std::vector<RoundMode>(modes)
                                                   : std::vector<RoundMode>(std::begin(kAllModes), std::end(kAllModes));
    for (RoundMode m : ms) {
        SCOPED_TRACE(std::string(type_name<S>()) + " -> " + type_name<D>() + " " + mode_name(m));
        const bool with_sat = sat == SaturationMode::OFF || m == RoundMode::CAST_RINT;  // both overloads
        const SaturationMode applied = !with_sat && wraps_without_mode<D, S>() ? SaturationMode::OFF : sat;
        auto got = run_tcvt<D, S>(src, m, sat, with_sat);
        int bad = 0;
        for (size_t i = 0; i < src.size() && bad < 10; ++i) {
            const D want = cvt<D>(to_double(src[i]), m, applied);
            if (!same(got[i], want)) {
                ++bad;
                ADD_FAILURE() << "src " << show(src[i]) << " got " << show(got[i]) << " want " << show(want);
            }
        }
    }
}

template <class T>
std::vector<T> all_16bit() {
    std::vector<T> v(65536);
    for (uint32_t b = 0; b < 65536; ++b) {
        uint16_t u = static_cast<uint16_t>(b);
        std::memcpy(&v[b], &u, 2);
    }
    return v;
}

// Floats that probe half rounding: every midpoint between neighbouring
// halves and one float ulp either side, plus denormals, overflow and specials.
std::vector<float> float_probes_for16(bool bf) {
    std::vector<float> v = {0.0f, -0.0f, NAN, -NAN, INFINITY, -INFINITY, 1.0e-45f, -1.0e-45f, 1.0e-40f, -1.0e-40f,
                            1.17549435e-38f, 65504.0f, 65519.99f, 65520.0f, -65520.0f, 65536.0f, 1.0e10f, -1.0e10f,
                            3.4028235e38f, -3.4028235e38f, 3.3961e38f, 2.9802322e-8f, -2.9802322e-8f, 5.9604645e-8f,
                            1.0e-8f, -1.0e-8f, 0.5f, 1.5f, 2.5f, -2.5f, 1.0f / 3.0f};
    const Grid16& g = grid(bf);
    for (size_t i = 1; i + 2 < g.v.size(); i += bf ? 7 : 3) {
        const float mid = static_cast<float>((g.v[i] + g.v[i + 1]) / 2);
        if (static_cast<double>(mid) != (g.v[i] + g.v[i + 1]) / 2) continue;
        v.push_back(mid);
        v.push_back(std::nextafter(mid, INFINITY));
        v.push_back(std::nextafter(mid, -INFINITY));
        v.push_back(static_cast<float>(g.v[i]));
    }
    return v;
}

std::vector<float> float_probes_for_int() {
    std::vector<float> v = {0.0f, -0.0f, NAN, INFINITY, -INFINITY, 1.0e-45f, -1.0e-40f, 0.49999997f, 0.5f, -0.5f,
                            1.5f, 2.5f, -1.5f, -2.5f, 3.5f, 127.5f, -128.5f, 255.5f, 32767.5f, -32768.5f, 32768.0f,
                            40000.7f, -40000.7f, 2147483520.0f, 2147483648.0f, -2147483648.0f, -2147483904.0f,
                            3.0e9f, -3.0e9f, 9.3e18f, -9.3e18f, 1.0e20f, 8388607.5f, -8388607.5f, 16777216.0f};
    testutil::Rng rng;
    for (int i = 0; i < 2000; ++i) v.push_back(static_cast<float>(rng.uniform(-70000, 70000)));
    for (int i = 0; i < 200; ++i) v.push_back(static_cast<float>(std::round(rng.uniform(-500, 500)) + 0.5));
    return v;
}

TEST(Tcvt, FloatToHalf) { check_tcvt<half>(float_probes_for16(false)); }
TEST(Tcvt, FloatToBfloat16) { check_tcvt<bfloat16_t>(float_probes_for16(true)); }
TEST(Tcvt, FloatToInt32) { check_tcvt<int32_t>(float_probes_for_int()); }
TEST(Tcvt, FloatToInt16) { check_tcvt<int16_t>(float_probes_for_int()); }
TEST(Tcvt, FloatToInt64) { check_tcvt<int64_t>(float_probes_for_int()); }

TEST(Tcvt, FloatToInt16WithoutSaturationWraps) {
    std::vector<float> v;
    for (float f : float_probes_for_int())
        if (std::isfinite(f) && std::fabs(f) < 1.0e9f) v.push_back(f);
    check_tcvt<int16_t>(v, {RoundMode::CAST_RINT, RoundMode::CAST_TRUNC, RoundMode::CAST_FLOOR}, SaturationMode::OFF);
}

// fp32 -> fp32 rounds to an integral value; NaN and Inf pass through.
TEST(Tcvt, FloatToFloatRoundsToIntegral) {
    auto src = float_probes_for_int();
    for (RoundMode m : kAllModes) {
        SCOPED_TRACE(mode_name(m));
        auto got = run_tcvt<float, float>(src, m, SaturationMode::ON, false);
        for (size_t i = 0; i < src.size(); ++i) {
            const double x = src[i];
            const float want = std::isfinite(x) ? static_cast<float>(round_int(x, m)) : src[i];
            ASSERT_TRUE(same(got[i], want)) << show(src[i]) << " got " << show(got[i]) << " want " << show(want);
        }
    }
}

TEST(Tcvt, HalfToFloatEveryValue) { check_tcvt<float>(all_16bit<half>(), {RoundMode::CAST_NONE, RoundMode::CAST_RINT, RoundMode::CAST_FLOOR}); }
TEST(Tcvt, HalfToInt32EveryValue) { check_tcvt<int32_t>(all_16bit<half>()); }
TEST(Tcvt, HalfToInt16EveryValue) { check_tcvt<int16_t>(all_16bit<half>()); }
TEST(Tcvt, HalfToInt8EveryValue) { check_tcvt<int8_t>(all_16bit<half>()); }
TEST(Tcvt, HalfToUint8EveryValue) { check_tcvt<uint8_t>(all_16bit<half>()); }
TEST(Tcvt, Bfloat16ToFloatEveryValue) { check_tcvt<float>(all_16bit<bfloat16_t>(), {RoundMode::CAST_RINT, RoundMode::CAST_TRUNC}); }
TEST(Tcvt, Bfloat16ToInt32EveryValue) { check_tcvt<int32_t>(all_16bit<bfloat16_t>()); }

std::vector<int16_t> all_int16() {
    std::vector<int16_t> v;
    for (int i = INT16_MIN; i <= INT16_MAX; ++i) v.push_back(static_cast<int16_t>(i));
    return v;
}
std::vector<int32_t> int32_probes() {
    std::vector<int32_t> v = {0, 1, -1, INT32_MAX, INT32_MIN, INT32_MAX - 64, 16777217, -16777217, 16777219, 33554434,
                              33554438, 65504, 65519, 65520, 65536, -65520, 2049, 2051, 4097, 4098, 4099, 4101, 32767,
                              32768, -32768, -32769, 65535, 65536, 255, 256, -129};
    testutil::Rng rng;
    for (int i = 0; i < 3000; ++i) v.push_back(static_cast<int32_t>(rng.next()));
    for (int i = 0; i < 3000; ++i) v.push_back(static_cast<int32_t>(rng.next() % 140000) - 70000);
    return v;
}

TEST(Tcvt, Int16ToHalfEveryValue) { check_tcvt<half>(all_int16()); }
TEST(Tcvt, Int16ToFloatEveryValue) { check_tcvt<float>(all_int16(), {RoundMode::CAST_RINT}); }
TEST(Tcvt, Int32ToFloat) { check_tcvt<float>(int32_probes()); }
TEST(Tcvt, Int32ToInt16) { check_tcvt<int16_t>(int32_probes(), {RoundMode::CAST_RINT, RoundMode::CAST_NONE}); }
TEST(Tcvt, Int32ToInt64) { check_tcvt<int64_t>(int32_probes(), {RoundMode::CAST_NONE}); }
TEST(Tcvt, Int64ToFloatAndInt32) {
    std::vector<int64_t> v = {0, 1, -1, INT64_MAX, INT64_MIN, (1ll << 24) + 1, (1ll << 40) + 3, -(1ll << 53) - 1,
                              INT32_MAX, INT32_MIN, 1ll << 31, -(1ll << 31) - 1, 123456789012345ll};
    testutil::Rng rng;
    for (int i = 0; i < 1000; ++i) v.push_back(static_cast<int64_t>(rng.next()));
    check_tcvt<float>(v);
    check_tcvt<int32_t>(v, {RoundMode::CAST_RINT});
}
TEST(Tcvt, WithoutSaturationModeWrapsThePairsPtoIsaWraps) {
    EXPECT_EQ((run_tcvt<uint8_t, half>({half(-63.0f), half(300.0f)}, RoundMode::CAST_RINT, SaturationMode::ON, false)),
              (std::vector<uint8_t>{193, 44}));
    EXPECT_EQ((run_tcvt<int8_t, half>({half(300.0f), half(-129.0f)}, RoundMode::CAST_RINT, SaturationMode::ON, false)),
              (std::vector<int8_t>{44, 127}));
    EXPECT_EQ((run_tcvt<int16_t, float>({40000.0f}, RoundMode::CAST_RINT, SaturationMode::ON, false)),
              (std::vector<int16_t>{-25536}));
    EXPECT_EQ((run_tcvt<int16_t, int32_t>({70000}, RoundMode::CAST_NONE, SaturationMode::ON, false)),
              (std::vector<int16_t>{4464}));
    EXPECT_EQ((run_tcvt<int32_t, int64_t>({(1ll << 32) + 5}, RoundMode::CAST_NONE, SaturationMode::ON, false)),
              (std::vector<int32_t>{5}));
    // every other pair saturates
    EXPECT_EQ((run_tcvt<int32_t, float>({3.0e9f}, RoundMode::CAST_RINT, SaturationMode::ON, false)),
              (std::vector<int32_t>{INT32_MAX}));
}

TEST(Tcvt, Uint8AndInt8ToHalf) {
    std::vector<uint8_t> u;
    std::vector<int8_t> s;
    for (int i = 0; i < 256; ++i) {
        u.push_back(static_cast<uint8_t>(i));
        s.push_back(static_cast<int8_t>(i));
    }
    check_tcvt<half>(u, {RoundMode::CAST_RINT, RoundMode::CAST_NONE});
    check_tcvt<half>(s, {RoundMode::CAST_RINT, RoundMode::CAST_NONE});
}

#if PTOSIM_TARGET_A5
TEST(TcvtA5, Bfloat16ToHalfEveryValue) { check_tcvt<half>(all_16bit<bfloat16_t>()); }
TEST(TcvtA5, Int16ToUint8Uint32Int32) {
    check_tcvt<uint8_t>(all_int16(), {RoundMode::CAST_RINT});
    check_tcvt<uint32_t>(all_int16(), {RoundMode::CAST_RINT});
    check_tcvt<int32_t>(all_int16(), {RoundMode::CAST_RINT});
}
TEST(TcvtA5, Uint32ToUint8Uint16Int16) {
    std::vector<uint32_t> v = {0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, 0x7fffffffu, 0x80000000u, 0xffffffffu};
    testutil::Rng rng;
    for (int i = 0; i < 2000; ++i) v.push_back(static_cast<uint32_t>(rng.next()));
    check_tcvt<uint8_t>(v, {RoundMode::CAST_RINT});
    check_tcvt<uint16_t>(v, {RoundMode::CAST_RINT});
    check_tcvt<int16_t>(v, {RoundMode::CAST_RINT});
    check_tcvt<int16_t>(v, {RoundMode::CAST_RINT}, SaturationMode::OFF);
}
TEST(TcvtA5, Int32ToUint16AndUint8) {
    check_tcvt<uint16_t>(int32_probes(), {RoundMode::CAST_RINT});
    check_tcvt<uint8_t>(int32_probes(), {RoundMode::CAST_RINT});
}
TEST(TcvtA5, SmallIntegersWiden) {
    std::vector<uint8_t> u;
    std::vector<int8_t> s;
    for (int i = 0; i < 256; ++i) {
        u.push_back(static_cast<uint8_t>(i));
        s.push_back(static_cast<int8_t>(i));
    }
    check_tcvt<uint16_t>(u, {RoundMode::CAST_NONE});
    check_tcvt<int16_t>(s, {RoundMode::CAST_NONE});
    check_tcvt<int32_t>(s, {RoundMode::CAST_NONE});
}
#else
TEST(TcvtA2A3, Int32ToHalf) { check_tcvt<half>(int32_probes()); }
#endif

// Only dst's valid region is converted.
TEST(Tcvt, DynamicValidRegionLeavesTheRestAlone) {
    std::vector<float> src(kVecR * kVecC);
    std::vector<half> dst(kVecR * kVecC), out(kVecR * kVecC);
    for (int i = 0; i < kVecR * kVecC; ++i) {
        src[i] = static_cast<float>(i) / 3.0f;
        dst[i] = from_float<half>(-7.0f - i);
    }
    const int vr = 7, vc = 13;
    auto st = run_vec([&] {
        Tile<TileType::Vec, float, kVecR, kVecC> ts;
        Tile<TileType::Vec, half, kVecR, kVecC, BLayout::RowMajor, DYNAMIC, DYNAMIC> td(vr, vc);
        Tile<TileType::Vec, half, kVecR, kVecC> tdfull;
        TASSIGN(ts, 0);
        TASSIGN(td, 0x8000);
        TASSIGN(tdfull, 0x8000);
        auto gs = gm_nd(src.data(), kVecR, kVecC, kVecC);
        auto gd = gm_nd(dst.data(), kVecR, kVecC, kVecC);
        auto go = gm_nd(out.data(), kVecR, kVecC, kVecC);
        TLOAD(ts, gs);
        TLOAD(tdfull, gd);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TCVT(td, ts, RoundMode::CAST_FLOOR);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(go, tdfull);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < kVecR; ++r)
        for (int c = 0; c < kVecC; ++c) {
            const int i = r * kVecC + c;
            const half want = r < vr && c < vc ? cvt<half>(src[i], RoundMode::CAST_FLOOR) : dst[i];
            ASSERT_TRUE(same(out[i], want)) << r << "," << c;
        }
}


// ---------------------------------------------------------------- TPACK

// Packs an 8 x 40 valid region (tiles 8 x 64) of S into D and returns the
// destination tile's whole contents; the padding columns start as 0xA5 bytes.
template <class D, class S>
std::pair<ptosim::Status, std::vector<D>> run_tpack(const std::vector<S>& in, int src_valid_cols = 40) {
    constexpr int R = 8, C = 64;
    std::vector<S> src = in;
    std::vector<D> out(R * C);
    std::memset(out.data(), 0xA5, out.size() * sizeof(D));
    auto st = run_vec([&] {
#if PTOSIM_TARGET_A5
        Tile<TileType::Vec, S, R, C> ts;
        Tile<TileType::Vec, S, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> tsv(R, src_valid_cols);
        Tile<TileType::Vec, D, R, C> tdfull;
        Tile<TileType::Vec, D, R, C, BLayout::RowMajor, DYNAMIC, DYNAMIC> td(R, 40);
        TASSIGN(ts, 0);
        TASSIGN(tsv, 0);
        TASSIGN(tdfull, 0x4000);
        TASSIGN(td, 0x4000);
        auto gs = gm_nd(src.data(), R, C, C);
        auto go = gm_nd(out.data(), R, C, C);
        TLOAD(ts, gs);
        TLOAD(tdfull, go);
        ISA_SYNC(PIPE_MTE2, PIPE_V);
        TPACK(td, tsv);
        ISA_SYNC(PIPE_V, PIPE_MTE3);
        TSTORE(go, tdfull);
#endif
    });
    return {st, out};
}

template <class D, class S>
void check_tpack() {
    constexpr int R = 8, C = 64;
    std::vector<S> src(R * C);
    testutil::Rng rng;
    for (auto& v : src) {
        const uint32_t bits = static_cast<uint32_t>(rng.next());
        std::memcpy(&v, &bits, sizeof(S));
    }
    auto [st, out] = run_tpack<D, S>(src);
    ASSERT_TRUE(st.ok()) << st.message;
    for (int r = 0; r < R; ++r)
        for (int c = 0; c < C; ++c) {
            D want;
            if (c < 40) std::memcpy(&want, &src[r * C + c], sizeof(D));  // little-endian: the low bytes first
            else std::memset(&want, 0xA5, sizeof(D));
            ASSERT_EQ(std::memcmp(&out[r * C + c], &want, sizeof(D)), 0) << r << "," << c;
        }
}

TEST(TpackA5, KeepsTheLowBytesOfEveryElement) {
#if PTOSIM_TARGET_A5
    check_tpack<uint16_t, uint32_t>();
    check_tpack<uint8_t, uint32_t>();
    check_tpack<uint8_t, uint16_t>();
    check_tpack<half, float>();  // bits, not values
    check_tpack<int8_t, int16_t>();
#else
    GTEST_SKIP() << "TPACK is an A5 instruction";
#endif
}

TEST(TpackA5, ValidShapesMustMatch) {
#if PTOSIM_TARGET_A5
    auto [st, out] = run_tpack<uint16_t, uint32_t>(std::vector<uint32_t>(8 * 64), 41);
    ASSERT_FALSE(st.ok());
    EXPECT_NE(st.message.find("TPACK: source valid shape 8x41 differs from the destination's 8x40; give both tiles "
                              "the same valid shape"),
              std::string::npos)
        << st.message;
    EXPECT_NE(st.message.find("test_isa_vec.cpp"), std::string::npos) << st.message;
#else
    GTEST_SKIP() << "TPACK is an A5 instruction";
#endif
}

}  // namespace
