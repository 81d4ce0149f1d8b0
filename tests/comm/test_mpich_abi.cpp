// libptolab_mpich_abi.so under Open MPI's mpirun (docs/many-devices.md,
// "Open MPI and MPICH's handles"): a program that loads "libmpi.so" with
// dlopen and calls it with MPICH's handle values, as pto-isa's comm tests do,
// gets Open MPI's results; a handle the bridge does not translate is refused
// with MPICH's error class and a message naming it.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

// MPICH's values (mpi.h of MPICH 4), written out as a program built against
// MPICH has them.
constexpr int kCommWorld = 0x44000000, kCommSelf = 0x44000001, kCommNull = 0x04000000;
constexpr int kChar = 0x4c000101, kInt = 0x4c000405, kDouble = 0x4c00080b, kUint64 = 0x4c00083e, kInt64 = 0x4c00083a;
constexpr int kLongDouble = 0x4c00100c;  // predefined in MPICH, not translated by the bridge
void* const kMpichInPlace = reinterpret_cast<void*>(intptr_t{-1});

struct Mpi {
    void* lib = nullptr;
    int (*init)(int*, char***);
    int (*finalize)();
    int (*rank)(int, int*);
    int (*size)(int, int*);
    int (*barrier)(int);
    int (*bcast)(void*, int, int, int, int);
    int (*allgather)(const void*, int, int, void*, int, int, int);
    int (*gather)(const void*, int, int, void*, int, int, int, int);
};

Mpi& mpi() {
    static Mpi m = [] {
        Mpi x;
        x.lib = dlopen(PTOLAB_MPICH_ABI_LIB, RTLD_NOW);
        if (!x.lib) {
            std::fprintf(stderr, "cannot open %s: %s\n", PTOLAB_MPICH_ABI_LIB, dlerror());
            std::exit(1);
        }
        const auto get = [&x](const char* name) {
            void* f = dlsym(x.lib, name);
            if (!f) {
                std::fprintf(stderr, "%s has no %s\n", PTOLAB_MPICH_ABI_LIB, name);
                std::exit(1);
            }
            return f;
        };
        x.init = reinterpret_cast<int (*)(int*, char***)>(get("MPI_Init"));
        x.finalize = reinterpret_cast<int (*)()>(get("MPI_Finalize"));
        x.rank = reinterpret_cast<int (*)(int, int*)>(get("MPI_Comm_rank"));
        x.size = reinterpret_cast<int (*)(int, int*)>(get("MPI_Comm_size"));
        x.barrier = reinterpret_cast<int (*)(int)>(get("MPI_Barrier"));
        x.bcast = reinterpret_cast<int (*)(void*, int, int, int, int)>(get("MPI_Bcast"));
        x.allgather = reinterpret_cast<int (*)(const void*, int, int, void*, int, int, int)>(get("MPI_Allgather"));
        x.gather = reinterpret_cast<int (*)(const void*, int, int, void*, int, int, int, int)>(get("MPI_Gather"));
        return x;
    }();
    return m;
}

int rank() {
    int r = -1;
    EXPECT_EQ(mpi().rank(kCommWorld, &r), 0);
    return r;
}
int size() {
    int s = -1;
    EXPECT_EQ(mpi().size(kCommWorld, &s), 0);
    return s;
}

TEST(MpichAbi, RankAndSizeOfTheWorldAndOfSelf) {
    EXPECT_EQ(size(), std::atoi(std::getenv("OMPI_COMM_WORLD_SIZE")));
    EXPECT_EQ(rank(), std::atoi(std::getenv("OMPI_COMM_WORLD_RANK")));
    int self_size = -1, self_rank = -1;
    EXPECT_EQ(mpi().size(kCommSelf, &self_size), 0);
    EXPECT_EQ(mpi().rank(kCommSelf, &self_rank), 0);
    EXPECT_EQ(self_size, 1);
    EXPECT_EQ(self_rank, 0);
}

TEST(MpichAbi, BroadcastAndAllgatherCarryEveryType) {
    const int r = rank(), n = size();
    // MPI_CHAR, as pto-isa's comm_mpi.h broadcasts HCCL's root info.
    std::string text = r == 0 ? "root info of rank 0" : std::string(19, '?');
    ASSERT_EQ(mpi().bcast(text.data(), 19, kChar, 0, kCommWorld), 0);
    EXPECT_EQ(text, "root info of rank 0");
    double d = r == n - 1 ? 2.5 : 0.0;
    ASSERT_EQ(mpi().bcast(&d, 1, kDouble, n - 1, kCommWorld), 0);
    EXPECT_EQ(d, 2.5);
    const uint64_t mine = 0x1000000000ull * uint64_t(r + 1) + 7;
    std::vector<uint64_t> all(n);
    ASSERT_EQ(mpi().allgather(&mine, 1, kUint64, all.data(), 1, kUint64, kCommWorld), 0);
    for (int i = 0; i < n; ++i) EXPECT_EQ(all[i], 0x1000000000ull * uint64_t(i + 1) + 7) << i;
    // In place: each rank's own slot is already in the receive buffer.
    std::vector<int> ints(n, -1);
    ints[r] = 100 + r;
    ASSERT_EQ(mpi().allgather(kMpichInPlace, 0, kInt, ints.data(), 1, kInt, kCommWorld), 0);
    for (int i = 0; i < n; ++i) EXPECT_EQ(ints[i], 100 + i) << i;
    EXPECT_EQ(mpi().barrier(kCommWorld), 0);
}

// MPI_Gather as pto-isa's MoE kernels call it: every rank's block at the
// root, in rank order; the receive type counts only there (the others pass
// one the bridge does not translate), and the root may send in place.
TEST(MpichAbi, GatherCollectsAtTheRoot) {
    const int r = rank(), n = size(), root = n - 1;
    const int64_t mine[2] = {int64_t(r) * 10, int64_t(r) * 10 + 1};
    std::vector<int64_t> all(2 * n, -1);
    ASSERT_EQ(mpi().gather(mine, 2, kInt64, all.data(), 2, r == root ? kInt64 : kLongDouble, root, kCommWorld), 0);
    for (int i = 0; i < 2 * n; ++i) EXPECT_EQ(all[i], r == root ? int64_t(i / 2) * 10 + i % 2 : -1) << i;
    std::vector<int> ints(n, -1);
    if (r == root) ints[r] = 300 + r;
    const int one = 300 + r;
    ASSERT_EQ(mpi().gather(r == root ? kMpichInPlace : &one, 1, kInt, ints.data(), 1, kInt, root, kCommWorld), 0);
    if (r == root)
        for (int i = 0; i < n; ++i) EXPECT_EQ(ints[i], 300 + i) << i;
}

TEST(MpichAbi, AHandleItDoesNotTranslateIsRefusedWithItsName) {
    int v = 0;
    testing::internal::CaptureStderr();
    EXPECT_EQ(mpi().bcast(&v, 1, kLongDouble, 0, kCommWorld), 3);  // MPI_ERR_TYPE
    EXPECT_EQ(mpi().barrier(kCommNull), 5);                        // MPI_ERR_COMM
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("ptolab MPICH-ABI bridge: MPI_Bcast: datatype 0x4c00100c is not one of MPICH's predefined "
                       "handles this bridge translates to Open MPI (MPI_CHAR, MPI_SIGNED_CHAR"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("MPI_Barrier: communicator 0x04000000"), std::string::npos) << err;
    EXPECT_NE(err.find("Run the program under MPICH instead (mpirun.mpich, MPI_LIB_PATH=libmpich.so.12)"),
              std::string::npos)
        << err;
}

}  // namespace

int main(int argc, char** argv) {
    testing::InitGoogleTest(&argc, argv);
    if (!std::getenv("OMPI_COMM_WORLD_SIZE")) {
        std::printf("not started by Open MPI's mpirun: skipped\n");
        return 77;
    }
    if (mpi().init(&argc, &argv) != 0) return 1;
    const int rc = RUN_ALL_TESTS();
    mpi().finalize();
    return rc;
}
