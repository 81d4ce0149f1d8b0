// The host collectives (docs/many-devices.md, "Host collectives"). Each
// runs after the work queued on its stream, on the calling thread. Every
// reduction combines the ranks' contributions in rank order 0, 1, ..., N-1
// on every rank, rounding to the data type after each step, so results are
// bit-identical on all ranks and whatever the processes' timing.
#include <hccl/hccl.h>

#include <acl/acl.h>

#include "comm.hpp"
#include <ptosim/cost.hpp>

#include <algorithm>

#include <cstring>
#include <string>
#include <vector>

namespace hccl_sim {

int type_bytes(HcclDataType t) {
    switch (t) {
        case HCCL_DATA_TYPE_INT8: case HCCL_DATA_TYPE_UINT8: return 1;
        case HCCL_DATA_TYPE_INT16: case HCCL_DATA_TYPE_UINT16: case HCCL_DATA_TYPE_FP16: case HCCL_DATA_TYPE_BFP16:
            return 2;
        case HCCL_DATA_TYPE_INT32: case HCCL_DATA_TYPE_UINT32: case HCCL_DATA_TYPE_FP32: return 4;
        case HCCL_DATA_TYPE_INT64: case HCCL_DATA_TYPE_UINT64: case HCCL_DATA_TYPE_FP64: return 8;
        case HCCL_DATA_TYPE_INT128: return 16;
        default: return 0;
    }
}

float bf16_to_float(uint16_t h) {
    const uint32_t u = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}
uint16_t float_to_bf16(float f) {  // round to nearest even; NaN stays NaN
    uint32_t u;
    std::memcpy(&u, &f, 4);
    if ((u & 0x7fffffff) > 0x7f800000) return static_cast<uint16_t>((u >> 16) | 0x40);
    u += 0x7fff + ((u >> 16) & 1);
    return static_cast<uint16_t>(u >> 16);
}

template <class T>
T combine(T a, T b, HcclReduceOp op) {
    switch (op) {
        case HCCL_REDUCE_SUM: return static_cast<T>(a + b);
        case HCCL_REDUCE_PROD: return static_cast<T>(a * b);
        case HCCL_REDUCE_MAX: return b > a ? b : a;
        default: return b < a ? b : a;
    }
}

// acc[i] = acc[i] op x[i] for `count` elements of type t.
void reduce_into(void* acc, const void* x, uint64_t count, HcclDataType t, HcclReduceOp op) {
    auto run = [&](auto tag) {
        using T = decltype(tag);
        auto* a = static_cast<T*>(acc);
        const auto* b = static_cast<const T*>(x);
        for (uint64_t i = 0; i < count; ++i) a[i] = combine<T>(a[i], b[i], op);
    };
    switch (t) {
        case HCCL_DATA_TYPE_INT8: run(int8_t{}); break;
        case HCCL_DATA_TYPE_UINT8: run(uint8_t{}); break;
        case HCCL_DATA_TYPE_INT16: run(int16_t{}); break;
        case HCCL_DATA_TYPE_UINT16: run(uint16_t{}); break;
        case HCCL_DATA_TYPE_INT32: run(int32_t{}); break;
        case HCCL_DATA_TYPE_UINT32: run(uint32_t{}); break;
        case HCCL_DATA_TYPE_INT64: run(int64_t{}); break;
        case HCCL_DATA_TYPE_UINT64: run(uint64_t{}); break;
        case HCCL_DATA_TYPE_FP32: run(float{}); break;
        case HCCL_DATA_TYPE_FP64: run(double{}); break;
        case HCCL_DATA_TYPE_FP16: run(_Float16{}); break;
        case HCCL_DATA_TYPE_BFP16: {
            auto* a = static_cast<uint16_t*>(acc);
            const auto* b = static_cast<const uint16_t*>(x);
            for (uint64_t i = 0; i < count; ++i)
                a[i] = float_to_bf16(combine<float>(bf16_to_float(a[i]), bf16_to_float(b[i]), op));
            break;
        }
        default: break;
    }
}

namespace {

// Checks shared by the calls; 0 bytes per element when the call failed.
struct Args {
    Comm* c = nullptr;
    int es = 0;
    HcclResult rc = HCCL_SUCCESS;
};
Args check(const char* fn, HcclComm comm, HcclDataType t, const void* a, const void* b, uint64_t count,
           const HcclReduceOp* op, aclrtStream stream) {
    Args r;
    r.c = live(comm, fn);
    if (!r.c) {
        r.rc = comm ? HCCL_E_PARA : HCCL_E_PTR;
        return r;
    }
    r.es = type_bytes(t);
    if (!r.es) {
        r.rc = fail(HCCL_E_PARA, std::string(fn) + ": dataType " + std::to_string(static_cast<int>(t)) +
                                     " is not an HcclDataType (HCCL_DATA_TYPE_INT8 .. HCCL_DATA_TYPE_INT128)");
        return r;
    }
    if (op && (static_cast<int>(*op) < 0 || *op >= HCCL_REDUCE_RESERVED)) {
        r.es = 0;
        r.rc = fail(HCCL_E_PARA, std::string(fn) + ": op " + std::to_string(static_cast<int>(*op)) +
                                     " is not an HcclReduceOp (HCCL_REDUCE_SUM, _PROD, _MAX, _MIN)");
        return r;
    }
    if (op && t == HCCL_DATA_TYPE_INT128) {
        r.es = 0;
        r.rc = fail(HCCL_E_NOT_SUPPORT, std::string(fn) + ": reductions of HCCL_DATA_TYPE_INT128 are not supported");
        return r;
    }
    if (count && (!a || !b)) {
        r.es = 0;
        r.rc = fail(HCCL_E_PTR, std::string(fn) + ": a buffer is NULL with count " + std::to_string(count));
        return r;
    }
    if (aclError e = aclrtSynchronizeStream(stream); e != ACL_SUCCESS) {
        r.es = 0;
        r.rc = fail(HCCL_E_RUNTIME, std::string(fn) + ": the work queued on the stream failed (aclrtSynchronizeStream " +
                                        std::to_string(e) + ": " + aclGetRecentErrMsg() + ")");
    }
    return r;
}

HcclResult mpi_failed(const char* fn) { return fail(HCCL_E_INTERNAL, std::string(fn) + ": an MPI call failed"); }

}  // namespace

// The ranks' simulated clocks meet at a collective (docs/cost-model.md,
// "Across ranks"): each rank's clock moves to the latest rank's, plus the
// link's start-up and the bytes this rank receives at the link's rate.
bool meet_clocks(const Comm& c, uint64_t recv_bytes) {
    // This host thread's clock: check() synchronised the collective's stream.
    const double mine = ptosim::cost::host_clock_us();
    std::vector<double> all(c.size);
    if (!allgather_bytes(c, &mine, all.data(), sizeof mine)) return false;
    double latest = 0;
    for (double t : all) latest = std::max(latest, t);
    ptosim::cost::advance_clock_to(latest + ptosim::cost::collective_us(recv_bytes));
    return true;
}

namespace {

}  // namespace
}  // namespace hccl_sim

using namespace hccl_sim;

extern "C" {

HcclResult HcclAllReduce(void* sendBuf, void* recvBuf, uint64_t count, HcclDataType dataType, HcclReduceOp op,
                         HcclComm comm, aclrtStream stream) {
    const char* fn = "HcclAllReduce";
    Args a = check(fn, comm, dataType, sendBuf, recvBuf, count, &op, stream);
    if (!a.es) return a.rc;
    if (!count) return HCCL_SUCCESS;
    const uint64_t bytes = count * a.es;
    std::vector<uint8_t> all(bytes * a.c->size);
    if (!allgather_bytes(*a.c, sendBuf, all.data(), bytes) || !meet_clocks(*a.c, bytes * (a.c->size - 1)))
        return mpi_failed(fn);
    for (uint32_t r = 1; r < a.c->size; ++r) reduce_into(all.data(), all.data() + r * bytes, count, dataType, op);
    std::memcpy(recvBuf, all.data(), bytes);
    return HCCL_SUCCESS;
}

HcclResult HcclReduceScatter(void* sendBuf, void* recvBuf, uint64_t recvCount, HcclDataType dataType,
                             HcclReduceOp op, HcclComm comm, aclrtStream stream) {
    const char* fn = "HcclReduceScatter";
    Args a = check(fn, comm, dataType, sendBuf, recvBuf, recvCount, &op, stream);
    if (!a.es) return a.rc;
    if (!recvCount) return HCCL_SUCCESS;
    const uint64_t block = recvCount * a.es, whole = block * a.c->size;
    std::vector<uint8_t> all(whole * a.c->size);
    if (!allgather_bytes(*a.c, sendBuf, all.data(), whole) || !meet_clocks(*a.c, block * (a.c->size - 1)))
        return mpi_failed(fn);
    // Block `rank` of every contribution, combined in rank order.
    uint8_t* mine = all.data() + a.c->rank * block;
    for (uint32_t r = 1; r < a.c->size; ++r)
        reduce_into(mine, all.data() + r * whole + a.c->rank * block, recvCount, dataType, op);
    std::memcpy(recvBuf, mine, block);
    return HCCL_SUCCESS;
}

HcclResult HcclAllGather(void* sendBuf, void* recvBuf, uint64_t sendCount, HcclDataType dataType, HcclComm comm,
                         aclrtStream stream) {
    const char* fn = "HcclAllGather";
    Args a = check(fn, comm, dataType, sendBuf, recvBuf, sendCount, nullptr, stream);
    if (!a.es) return a.rc;
    if (!sendCount) return HCCL_SUCCESS;
    if (!allgather_bytes(*a.c, sendBuf, recvBuf, sendCount * a.es) ||
        !meet_clocks(*a.c, sendCount * a.es * (a.c->size - 1)))
        return mpi_failed(fn);
    return HCCL_SUCCESS;
}

HcclResult HcclBroadcast(void* buf, uint64_t count, HcclDataType dataType, uint32_t root, HcclComm comm,
                         aclrtStream stream) {
    const char* fn = "HcclBroadcast";
    Args a = check(fn, comm, dataType, buf, buf, count, nullptr, stream);
    if (!a.es) return a.rc;
    if (root >= a.c->size)
        return fail(HCCL_E_PARA, std::string(fn) + ": root " + std::to_string(root) + " is not a rank of the " +
                                     std::to_string(a.c->size) + "-rank communicator");
    if (!count) return HCCL_SUCCESS;
    if (!bcast_bytes(*a.c, buf, count * a.es, root) || !meet_clocks(*a.c, count * a.es)) return mpi_failed(fn);
    return HCCL_SUCCESS;
}

HcclResult HcclSend(void* sendBuf, uint64_t count, HcclDataType dataType, uint32_t destRank, HcclComm comm,
                    aclrtStream stream) {
    const char* fn = "HcclSend";
    Args a = check(fn, comm, dataType, sendBuf, sendBuf, count, nullptr, stream);
    if (!a.es) return a.rc;
    if (destRank >= a.c->size || destRank == a.c->rank)
        return fail(HCCL_E_PARA, std::string(fn) + ": destRank " + std::to_string(destRank) +
                                     (destRank == a.c->rank ? " is this rank" : " is not a rank of the " +
                                                                                   std::to_string(a.c->size) +
                                                                                   "-rank communicator"));
    if (!count) return HCCL_SUCCESS;
    // The sender's simulated clock goes with the data: the receiver's ends
    // no earlier than it plus the transfer (docs/cost-model.md, "Across ranks").
    const double sent_at = ptosim::cost::host_clock_us();
    if (!send_bytes(*a.c, sendBuf, count * a.es, destRank) || !send_bytes(*a.c, &sent_at, sizeof sent_at, destRank))
        return mpi_failed(fn);
    return HCCL_SUCCESS;
}

HcclResult HcclRecv(void* recvBuf, uint64_t count, HcclDataType dataType, uint32_t srcRank, HcclComm comm,
                    aclrtStream stream) {
    const char* fn = "HcclRecv";
    Args a = check(fn, comm, dataType, recvBuf, recvBuf, count, nullptr, stream);
    if (!a.es) return a.rc;
    if (srcRank >= a.c->size || srcRank == a.c->rank)
        return fail(HCCL_E_PARA, std::string(fn) + ": srcRank " + std::to_string(srcRank) +
                                     (srcRank == a.c->rank ? " is this rank" : " is not a rank of the " +
                                                                                  std::to_string(a.c->size) +
                                                                                  "-rank communicator"));
    if (!count) return HCCL_SUCCESS;
    double sent_at = 0;
    if (!recv_bytes(*a.c, recvBuf, count * a.es, srcRank) || !recv_bytes(*a.c, &sent_at, sizeof sent_at, srcRank))
        return mpi_failed(fn);
    // The transfer starts when both sides are there and takes the link's
    // start-up and the bytes at its rate, as a collective's share does.
    ptosim::cost::advance_clock_to(std::max(sent_at, ptosim::cost::host_clock_us()) +
                                   ptosim::cost::collective_us(count * a.es));
    return HCCL_SUCCESS;
}

}  // extern "C"
