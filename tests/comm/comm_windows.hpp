// What a rank's comm test reaches peers with: the communicator, its device
// context (the windows of every rank, as pto-isa's comm tests read them) and
// the helpers over them; and the main() that opens them around the tests.
// Included by one test source each, after gtest and mpi_ranks.hpp.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace comm_test {

inline int R() { return mpi_ranks().rank; }
inline int N() { return mpi_ranks().size; }

inline HcclComm g_comm = nullptr;
struct Ctx {
    uint64_t workSpace, workSpaceSize;
    uint32_t rankId, rankNum;
    uint64_t winSize;
    uint64_t windowsIn[64], windowsOut[64];
};
inline Ctx g_ctx;

// Byte `off` of rank r's windowsIn, as a typed pointer.
template <class T>
T* win(int r, uint64_t off) {
    return reinterpret_cast<T*>(g_ctx.windowsIn[r] + off);
}
// The same offset in a peer's window (pto-isa's HcclRemotePtr).
template <class T>
T* remote(T* local, int peer) {
    return reinterpret_cast<T*>(g_ctx.windowsIn[peer] + (reinterpret_cast<uint64_t>(local) - g_ctx.windowsIn[R()]));
}

// Whether the windows go over MPI (PTOLAB_HCCL_TRANSPORT=mpi, the *_rma
// ctest entries): then only this rank's windows are memory of this process.
inline bool remote_transport() {
    const char* t = std::getenv("PTOLAB_HCCL_TRANSPORT");
    return t && std::strcmp(t, "mpi") == 0;
}

inline void barrier() { ASSERT_EQ(HcclBarrier(g_comm, nullptr), HCCL_SUCCESS); }
// Each test starts from zeroed windows on every rank.
inline void clear_windows() {
    barrier();
    std::memset(win<uint8_t>(R(), 0), 0, 1 << 20);
    barrier();
}

// main(): the rank's communicator and device context, then every test.
inline int run_rank_tests(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    g_comm = start_rank();
    if (!g_comm) return 1;
    char tiling[512] = {};
    void* ctx = nullptr;
    if (HcclAllocComResourceByTiling(g_comm, nullptr, tiling, &ctx) != HCCL_SUCCESS) return 1;
    std::memcpy(&g_ctx, ctx, sizeof g_ctx);
    const int rc = RUN_ALL_TESTS();
    return finish_rank(rc, g_comm);
}

}  // namespace comm_test
