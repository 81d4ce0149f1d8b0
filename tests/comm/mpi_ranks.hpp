// What a multi-rank test needs from MPI: its rank, the number of ranks, and
// sharing HCCL's root info, through the same run-time binding libhccl uses
// (src/hccl/mpi.hpp), so one test binary runs under MPICH's and Open MPI's
// mpirun alike.
#pragma once
#include <acl/acl.h>
#include <hccl/hccl_comm.h>

#include "../../src/hccl/mpi.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace comm_test {

struct Ranks {
    int rank = 0, size = 1;
};

inline Ranks mpi_ranks() {
    static Ranks r = [] {
        Ranks x;
        std::string why;
        if (!hccl_sim::ensure_initialized(why)) {
            std::fprintf(stderr, "no MPI: %s\n", why.c_str());
            std::exit(77);
        }
        const auto& m = hccl_sim::mpi();
        m.comm_rank(m.world, &x.rank);
        m.comm_size(m.world, &x.size);
        return x;
    }();
    return r;
}

inline void bcast(void* buf, int bytes, int root) {
    const auto& m = hccl_sim::mpi();
    m.bcast(buf, bytes, m.byte, root, m.world);
}

inline void allgather(const void* mine, void* all, int bytes) {
    const auto& m = hccl_sim::mpi();
    m.allgather(mine, bytes, m.byte, all, bytes, m.byte, m.world);
}

inline void mpi_barrier() {
    const auto& m = hccl_sim::mpi();
    m.barrier(m.world);
}

// A communicator over every rank: rank 0's root info, shared by MPI_Bcast.
inline HcclComm open_world() {
    const Ranks r = mpi_ranks();
    HcclRootInfo root{};
    if (r.rank == 0 && HcclGetRootInfo(&root) != HCCL_SUCCESS) std::abort();
    bcast(&root, HCCL_ROOT_INFO_BYTES, 0);
    HcclComm comm = nullptr;
    if (HcclCommInitRootInfo(static_cast<uint32_t>(r.size), &root, static_cast<uint32_t>(r.rank), &comm) !=
        HCCL_SUCCESS)
        std::abort();
    return comm;
}

// A test binary's start on every rank: MPI, this rank's device, a
// communicator over every rank (null when ACL refuses, after saying why).
inline HcclComm start_rank() {
    const Ranks r = mpi_ranks();
    if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(r.rank) != ACL_SUCCESS) {
        std::fprintf(stderr, "rank %d: ACL: %s\n", r.rank, aclGetRecentErrMsg());
        return nullptr;
    }
    return open_world();
}

// Its end: every rank's verdict decides (one failing rank fails the run).
inline int finish_rank(int rc, HcclComm comm) {
    int all_rc[1024] = {};
    allgather(&rc, all_rc, sizeof(int));
    int worst = 0;
    for (int r = 0; r < mpi_ranks().size; ++r) worst |= all_rc[r];
    HcclCommDestroy(comm);
    aclFinalize();
    return worst;
}

}  // namespace comm_test
