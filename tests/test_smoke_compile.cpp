#include "sim_test_util.hpp"
#include <gtest/gtest.h>
using namespace pto;
TEST(Smoke, AddTile) {
    std::vector<float> x(64 * 128), y(64 * 128), z(64 * 128);
    for (size_t i = 0; i < x.size(); ++i) { x[i] = i; y[i] = 2 * i; }
    auto st = testutil::run_vec([&] {
        using G = GlobalTensor<float, Shape<1, 1, 1, 64, 128>, Stride<1, 1, 1, 128, 1>>;
        using T = Tile<TileType::Vec, float, 64, 128>;
        G gx(x.data()), gy(y.data()), gz(z.data());
        T a, b, c;
        TASSIGN(a, 0);
        TASSIGN(b, 0x8000);
        TASSIGN(c, 0x10000);
        TLOAD(a, gx);
        TLOAD(b, gy);
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        TADD(c, a, b);
        set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
        TSTORE(gz, c);
    });
    ASSERT_TRUE(st.ok()) << st.message;
    EXPECT_EQ(z[100], 300.0f);
}
