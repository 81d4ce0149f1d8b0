// Binding MPI at run time (see mpi.hpp).
#include "mpi.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>

namespace hccl_sim {
namespace {

// MPICH's predefined handles (mpi.h of MPICH 3 and 4: the ABI is stable).
constexpr Handle kMpichCommWorld = 0x44000000;
constexpr Handle kMpichByte = 0x4c00010d;

void* g_handle = nullptr;  // the library mpi() bound (RTLD_DEFAULT when linked in)

const char* env(const char* name) {
    const char* v = std::getenv(name);
    return v && *v ? v : nullptr;
}

template <class F>
bool bind(void* h, F& f, const char* name) {
    f = reinterpret_cast<F>(dlsym(h, name));
    return f != nullptr;
}

// Whether handle `h` is an MPI library, and then binds it into `m`.
bool bind_all(void* h, const std::string& name, Mpi& m) {
    if (!h || !dlsym(h, "MPI_Initialized")) return false;
    Mpi b;
    b.library = name;
    if (void* w = dlsym(h, "ompi_mpi_comm_world")) {
        b.abi = Mpi::Abi::OpenMpi;
        b.world = reinterpret_cast<Handle>(w);
        b.byte = reinterpret_cast<Handle>(dlsym(h, "ompi_mpi_byte"));
        if (!b.byte) return false;
    } else {
        b.abi = Mpi::Abi::Mpich;
        b.world = kMpichCommWorld;
        b.byte = kMpichByte;
    }
    const bool ok = bind(h, b.initialized, "MPI_Initialized") && bind(h, b.init, "MPI_Init") &&
                    bind(h, b.finalized, "MPI_Finalized") && bind(h, b.finalize, "MPI_Finalize") &&
                    bind(h, b.comm_rank, "MPI_Comm_rank") && bind(h, b.comm_size, "MPI_Comm_size") &&
                    bind(h, b.comm_dup, "MPI_Comm_dup") && bind(h, b.comm_free, "MPI_Comm_free") &&
                    bind(h, b.bcast, "MPI_Bcast") && bind(h, b.barrier, "MPI_Barrier") &&
                    bind(h, b.allgather, "MPI_Allgather") && bind(h, b.send, "MPI_Send") &&
                    bind(h, b.recv, "MPI_Recv") && bind(h, b.abort, "MPI_Abort");
    if (!ok) return false;
    m = b;
    g_handle = h;
    return true;
}

// Sonames first: Debian's MPICH is libmpich.so.12, its Open MPI libmpi.so.40.
constexpr const char* kMpich[] = {"libmpich.so.12", "libmpich.so", "libmpi.so.12"};
constexpr const char* kOpenMpi[] = {"libmpi.so.40", "libmpi.so"};

Mpi load() {
    Mpi m;
    // 1. An MPI the program has loaded already, in whatever namespace.
    for (const char* n : {"libmpich.so.12", "libmpich.so", "libmpi.so.12", "libmpi.so.40", "libmpi.so"})
        if (bind_all(dlopen(n, RTLD_NOW | RTLD_NOLOAD | RTLD_GLOBAL), n, m)) return m;
    if (bind_all(RTLD_DEFAULT, "(linked into the program)", m)) return m;
    // 2. The library the user names.
    for (const char* var : {"PTOLAB_MPI_LIB", "MPI_LIB_PATH"})
        if (const char* p = env(var))
            if (bind_all(dlopen(p, RTLD_NOW | RTLD_GLOBAL), p, m)) return m;
    // 3. The library of the launcher that started this process.
    const bool ompi = env("OMPI_COMM_WORLD_SIZE") != nullptr;
    const bool pmi = env("PMI_RANK") != nullptr || env("PMI_SIZE") != nullptr || env("PMIX_RANK") != nullptr;
    if (ompi) {
        for (const char* n : kOpenMpi)
            if (bind_all(dlopen(n, RTLD_NOW | RTLD_GLOBAL), n, m)) return m;
    } else if (pmi) {
        for (const char* n : kMpich)
            if (bind_all(dlopen(n, RTLD_NOW | RTLD_GLOBAL), n, m)) return m;
    }
    m.why_none = ompi || pmi ? "the MPI launcher's library could not be loaded (install Debian's mpich or openmpi-bin, "
                               "or set PTOLAB_MPI_LIB to its libmpi.so)"
                             : "no MPI library is loaded and no MPI launcher started this process (run it with "
                               "mpirun -np N, or ptolab run --ranks N)";
    return m;
}

std::once_flag g_once;
Mpi g_mpi;
bool g_we_initialized = false;

}  // namespace

const Mpi& mpi() {
    std::call_once(g_once, [] { g_mpi = load(); });
    return g_mpi;
}

const Rma* rma(std::string& why) {
    static std::once_flag once;
    static Rma r;
    static std::string missing;
    std::call_once(once, [] {
        const Mpi& m = mpi();
        void* h = g_handle;
        if (!m.present()) {
            missing = m.why_none;
            return;
        }
        if (m.abi == Mpi::Abi::OpenMpi) {
            r.info_null = reinterpret_cast<Handle>(dlsym(h, "ompi_mpi_info_null"));
            r.int32 = reinterpret_cast<Handle>(dlsym(h, "ompi_mpi_int"));
            r.op_replace = reinterpret_cast<Handle>(dlsym(h, "ompi_mpi_op_replace"));
            r.status_ignore = 0;
            r.mode_nocheck = 1;
            r.any_source = -1;
            r.any_tag = -1;
        } else {  // MPICH's mpi.h
            r.info_null = 0x1c000000;
            r.int32 = 0x4c000405;
            r.op_replace = 0x5800000d;
            r.status_ignore = 1;
            r.mode_nocheck = 1024;
            r.any_source = -2;
            r.any_tag = -1;
        }
        const char* name = nullptr;
        auto need = [&](auto& f, const char* n) {
            if (!bind(h, f, n) && !name) name = n;
        };
        need(r.win_create, "MPI_Win_create");
        need(r.win_free, "MPI_Win_free");
        need(r.win_lock_all, "MPI_Win_lock_all");
        need(r.win_unlock_all, "MPI_Win_unlock_all");
        need(r.win_flush, "MPI_Win_flush");
        need(r.win_flush_all, "MPI_Win_flush_all");
        need(r.win_sync, "MPI_Win_sync");
        need(r.get, "MPI_Get");
        need(r.put, "MPI_Put");
        need(r.accumulate, "MPI_Accumulate");
        need(r.compare_and_swap, "MPI_Compare_and_swap");
        need(r.iprobe, "MPI_Iprobe");
        need(r.win_create_dynamic, "MPI_Win_create_dynamic");
        need(r.win_attach, "MPI_Win_attach");
        need(r.win_detach, "MPI_Win_detach");
        if (name) missing = m.library + " has no " + name + " (MPI-3 one-sided communication)";
        else if (m.abi == Mpi::Abi::OpenMpi && (!r.info_null || !r.int32 || !r.op_replace))
            missing = m.library + " lacks Open MPI's predefined handles";
    });
    if (!missing.empty()) {
        why = missing;
        return nullptr;
    }
    return &r;
}

bool ensure_initialized(std::string& why) {
    const Mpi& m = mpi();
    if (!m.present()) {
        why = m.why_none;
        return false;
    }
    int done = 0;
    m.initialized(&done);
    if (done) {
        int fin = 0;
        m.finalized(&fin);
        if (fin) {
            why = "MPI was finalised already (MPI_Finalize before HCCL's last call)";
            return false;
        }
        return true;
    }
    if (m.init(nullptr, nullptr) != 0) {
        why = std::string("MPI_Init of ") + m.library + " failed";
        return false;
    }
    if (!g_we_initialized) {
        g_we_initialized = true;
        std::atexit([] {
            const Mpi& mm = mpi();
            int fin = 0;
            mm.finalized(&fin);
            if (!fin) mm.finalize();
        });
    }
    return true;
}

}  // namespace hccl_sim
