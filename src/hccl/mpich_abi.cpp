// libptolab_mpich_abi.so: MPICH's binary interface over Open MPI, for host
// programs that load "libmpi.so" with dlopen and call it with MPICH's handle
// values. pto-isa's comm tests do (tests/npu/*/comm/st/testcase/comm_mpi.h:
// MPI_Comm and MPI_Datatype are int, MPI_COMM_WORLD is 0x44000000, MPI_CHAR
// 0x4c000101, the library from $MPI_LIB_PATH), so under Open MPI's launcher
// they need a libmpi.so that takes those integers. This library is that
// libmpi.so: each function maps MPICH's predefined handles to Open MPI's
// objects and calls Open MPI's PMPI_ function (docs/many-devices.md, "Open
// MPI and MPICH's handles").
//
// Open MPI is bound at run time (the first call), not linked: the library
// builds without Open MPI's headers, and Open MPI's libmpi.so.40 is opened
// RTLD_GLOBAL, as its plug-ins need. A handle outside the predefined ones
// below is refused with a message and MPICH's error class; nothing is
// guessed.
#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace {

using Handle = void*;  // an Open MPI MPI_Comm or MPI_Datatype: the object's address

// MPICH's error classes (mpi.h of MPICH 4), returned for what is refused here.
constexpr int kErrType = 3;
constexpr int kErrComm = 5;
constexpr int kErrOther = 15;

struct Named {
    int mpich;           // MPICH's predefined handle value
    const char* ompi;    // Open MPI's object for it
    const char* name;
};
constexpr Named kComms[] = {
    {0x44000000, "ompi_mpi_comm_world", "MPI_COMM_WORLD"},
    {0x44000001, "ompi_mpi_comm_self", "MPI_COMM_SELF"},
};
constexpr Named kTypes[] = {
    {0x4c000101, "ompi_mpi_char", "MPI_CHAR"},
    {0x4c000118, "ompi_mpi_signed_char", "MPI_SIGNED_CHAR"},
    {0x4c000102, "ompi_mpi_unsigned_char", "MPI_UNSIGNED_CHAR"},
    {0x4c00010d, "ompi_mpi_byte", "MPI_BYTE"},
    {0x4c000203, "ompi_mpi_short", "MPI_SHORT"},
    {0x4c000204, "ompi_mpi_unsigned_short", "MPI_UNSIGNED_SHORT"},
    {0x4c000405, "ompi_mpi_int", "MPI_INT"},
    {0x4c000406, "ompi_mpi_unsigned", "MPI_UNSIGNED"},
    {0x4c000807, "ompi_mpi_long", "MPI_LONG"},
    {0x4c000808, "ompi_mpi_unsigned_long", "MPI_UNSIGNED_LONG"},
    {0x4c00040a, "ompi_mpi_float", "MPI_FLOAT"},
    {0x4c00080b, "ompi_mpi_double", "MPI_DOUBLE"},
    {0x4c000809, "ompi_mpi_long_long_int", "MPI_LONG_LONG_INT"},
    {0x4c000819, "ompi_mpi_unsigned_long_long", "MPI_UNSIGNED_LONG_LONG"},
    {0x4c000137, "ompi_mpi_int8_t", "MPI_INT8_T"},
    {0x4c000238, "ompi_mpi_int16_t", "MPI_INT16_T"},
    {0x4c000439, "ompi_mpi_int32_t", "MPI_INT32_T"},
    {0x4c00083a, "ompi_mpi_int64_t", "MPI_INT64_T"},
    {0x4c00013b, "ompi_mpi_uint8_t", "MPI_UINT8_T"},
    {0x4c00023c, "ompi_mpi_uint16_t", "MPI_UINT16_T"},
    {0x4c00043d, "ompi_mpi_uint32_t", "MPI_UINT32_T"},
    {0x4c00083e, "ompi_mpi_uint64_t", "MPI_UINT64_T"},
};

struct OpenMpi {
    void* lib = nullptr;
    int (*init)(int*, char***) = nullptr;
    int (*init_thread)(int*, char***, int, int*) = nullptr;
    int (*initialized)(int*) = nullptr;
    int (*finalized)(int*) = nullptr;
    int (*finalize)() = nullptr;
    int (*abort)(Handle, int) = nullptr;
    int (*comm_rank)(Handle, int*) = nullptr;
    int (*comm_size)(Handle, int*) = nullptr;
    int (*barrier)(Handle) = nullptr;
    int (*bcast)(void*, int, Handle, int, Handle) = nullptr;
    int (*allgather)(const void*, int, Handle, void*, int, Handle, Handle) = nullptr;
    int (*gather)(const void*, int, Handle, void*, int, Handle, int, Handle) = nullptr;
    Handle comms[sizeof kComms / sizeof kComms[0]] = {};
    Handle types[sizeof kTypes / sizeof kTypes[0]] = {};
};

template <class F>
bool bind(void* lib, F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(lib, name));
    return f != nullptr;
}

// Open MPI, bound once: $PTOLAB_OPENMPI_LIB, else libmpi.so.40 (Debian's
// Open MPI 4). nullptr, after a message, when it cannot be.
const OpenMpi* open_mpi() {
    static OpenMpi m;
    static bool ok = false;
    static std::once_flag once;
    std::call_once(once, [] {
        const char* env = std::getenv("PTOLAB_OPENMPI_LIB");
        const char* path = env && *env ? env : "libmpi.so.40";
        m.lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL);
        if (!m.lib) {
            std::fprintf(stderr,
                         "ptolab MPICH-ABI bridge: cannot open Open MPI's library '%s' (%s). Install Debian's "
                         "libopenmpi3 (scripts/install-deps.sh) or name the library in PTOLAB_OPENMPI_LIB.\n",
                         path, dlerror());
            return;
        }
        ok = bind(m.lib, m.init, "PMPI_Init") && bind(m.lib, m.init_thread, "PMPI_Init_thread") &&
             bind(m.lib, m.initialized, "PMPI_Initialized") && bind(m.lib, m.finalized, "PMPI_Finalized") &&
             bind(m.lib, m.finalize, "PMPI_Finalize") && bind(m.lib, m.abort, "PMPI_Abort") &&
             bind(m.lib, m.comm_rank, "PMPI_Comm_rank") && bind(m.lib, m.comm_size, "PMPI_Comm_size") &&
             bind(m.lib, m.barrier, "PMPI_Barrier") && bind(m.lib, m.bcast, "PMPI_Bcast") &&
             bind(m.lib, m.allgather, "PMPI_Allgather") && bind(m.lib, m.gather, "PMPI_Gather");
        for (size_t i = 0; ok && i < sizeof kComms / sizeof kComms[0]; ++i) ok = (m.comms[i] = dlsym(m.lib, kComms[i].ompi));
        for (size_t i = 0; ok && i < sizeof kTypes / sizeof kTypes[0]; ++i) ok = (m.types[i] = dlsym(m.lib, kTypes[i].ompi));
        if (!ok)
            std::fprintf(stderr,
                         "ptolab MPICH-ABI bridge: '%s' is not Open MPI (it lacks PMPI_ functions or ompi_mpi_ "
                         "objects); name Open MPI's libmpi.so.40 in PTOLAB_OPENMPI_LIB.\n",
                         path);
    });
    return ok ? &m : nullptr;
}

template <size_t N>
Handle translate(const Named (&table)[N], const Handle (&objects)[N], int mpich) {
    for (size_t i = 0; i < N; ++i)
        if (table[i].mpich == mpich) return objects[i];
    return nullptr;
}

template <size_t N>
void refuse(const char* fn, const char* what, int handle, const Named (&table)[N]) {
    std::fprintf(stderr, "ptolab MPICH-ABI bridge: %s: %s 0x%08x is not one of MPICH's predefined handles this "
                         "bridge translates to Open MPI (", fn, what, static_cast<unsigned>(handle));
    for (size_t i = 0; i < N; ++i) std::fprintf(stderr, "%s%s", i ? ", " : "", table[i].name);
    std::fprintf(stderr, "). Run the program under MPICH instead (mpirun.mpich, MPI_LIB_PATH=libmpich.so.12).\n");
}

// The Open MPI communicator for MPICH's `comm`, or nullptr after a message.
Handle comm_of(const OpenMpi& m, const char* fn, int comm) {
    Handle h = translate(kComms, m.comms, comm);
    if (!h) refuse(fn, "communicator", comm, kComms);
    return h;
}
Handle type_of(const OpenMpi& m, const char* fn, int type) {
    Handle h = translate(kTypes, m.types, type);
    if (!h) refuse(fn, "datatype", type, kTypes);
    return h;
}

}  // namespace

// MPICH's prototypes: MPI_Comm and MPI_Datatype are int.
extern "C" {

__attribute__((visibility("default"))) int MPI_Init(int* argc, char*** argv) {
    const OpenMpi* m = open_mpi();
    return m ? m->init(argc, argv) : kErrOther;
}

__attribute__((visibility("default"))) int MPI_Init_thread(int* argc, char*** argv, int required, int* provided) {
    // MPICH and Open MPI number the thread levels alike (SINGLE 0 .. MULTIPLE 3).
    const OpenMpi* m = open_mpi();
    return m ? m->init_thread(argc, argv, required, provided) : kErrOther;
}

__attribute__((visibility("default"))) int MPI_Initialized(int* flag) {
    const OpenMpi* m = open_mpi();
    return m ? m->initialized(flag) : kErrOther;
}

__attribute__((visibility("default"))) int MPI_Finalized(int* flag) {
    const OpenMpi* m = open_mpi();
    return m ? m->finalized(flag) : kErrOther;
}

__attribute__((visibility("default"))) int MPI_Finalize() {
    const OpenMpi* m = open_mpi();
    return m ? m->finalize() : kErrOther;
}

__attribute__((visibility("default"))) int MPI_Abort(int comm, int code) {
    const OpenMpi* m = open_mpi();
    if (!m) std::exit(code);
    Handle c = comm_of(*m, "MPI_Abort", comm);
    return m->abort(c ? c : m->comms[0], code);
}

__attribute__((visibility("default"))) int MPI_Comm_rank(int comm, int* rank) {
    const OpenMpi* m = open_mpi();
    if (!m) return kErrOther;
    Handle c = comm_of(*m, "MPI_Comm_rank", comm);
    return c ? m->comm_rank(c, rank) : kErrComm;
}

__attribute__((visibility("default"))) int MPI_Comm_size(int comm, int* size) {
    const OpenMpi* m = open_mpi();
    if (!m) return kErrOther;
    Handle c = comm_of(*m, "MPI_Comm_size", comm);
    return c ? m->comm_size(c, size) : kErrComm;
}

__attribute__((visibility("default"))) int MPI_Barrier(int comm) {
    const OpenMpi* m = open_mpi();
    if (!m) return kErrOther;
    Handle c = comm_of(*m, "MPI_Barrier", comm);
    return c ? m->barrier(c) : kErrComm;
}

__attribute__((visibility("default"))) int MPI_Bcast(void* buffer, int count, int type, int root, int comm) {
    const OpenMpi* m = open_mpi();
    if (!m) return kErrOther;
    Handle c = comm_of(*m, "MPI_Bcast", comm);
    if (!c) return kErrComm;
    Handle t = type_of(*m, "MPI_Bcast", type);
    return t ? m->bcast(buffer, count, t, root, c) : kErrType;
}

__attribute__((visibility("default"))) int MPI_Allgather(const void* send, int send_count, int send_type, void* recv,
                                                         int recv_count, int recv_type, int comm) {
    const OpenMpi* m = open_mpi();
    if (!m) return kErrOther;
    Handle c = comm_of(*m, "MPI_Allgather", comm);
    if (!c) return kErrComm;
    Handle rt = type_of(*m, "MPI_Allgather", recv_type);
    if (!rt) return kErrType;
    // MPICH's MPI_IN_PLACE is (void*)-1, Open MPI's (void*)1; with it the
    // send count and type are not read.
    if (send == reinterpret_cast<const void*>(intptr_t{-1}))
        return m->allgather(reinterpret_cast<const void*>(intptr_t{1}), 0, rt, recv, recv_count, rt, c);
    Handle st = type_of(*m, "MPI_Allgather", send_type);
    return st ? m->allgather(send, send_count, st, recv, recv_count, rt, c) : kErrType;
}

__attribute__((visibility("default"))) int MPI_Gather(const void* send, int send_count, int send_type, void* recv,
                                                      int recv_count, int recv_type, int root, int comm) {
    const OpenMpi* m = open_mpi();
    if (!m) return kErrOther;
    Handle c = comm_of(*m, "MPI_Gather", comm);
    if (!c) return kErrComm;
    int rank = -1;
    if (const int rc = m->comm_rank(c, &rank)) return rc;
    // The receive buffer, count and type count only at the root (the MPI
    // standard's MPI_Gather): other ranks may pass any type.
    Handle rt = nullptr;
    if (rank == root && !(rt = type_of(*m, "MPI_Gather", recv_type))) return kErrType;
    // MPICH's MPI_IN_PLACE (the root's own block already in place).
    if (send == reinterpret_cast<const void*>(intptr_t{-1}))
        return m->gather(reinterpret_cast<const void*>(intptr_t{1}), 0, rt, recv, recv_count, rt, root, c);
    Handle st = type_of(*m, "MPI_Gather", send_type);
    if (!st) return kErrType;
    return m->gather(send, send_count, st, recv, recv_count, rt ? rt : st, root, c);
}

}  // extern "C"
