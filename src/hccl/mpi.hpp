// The MPI library libhccl carries the traffic between ranks over, bound at
// run time (docs/many-devices.md, "MPI"): the one the program already
// loaded (pto-isa's tests dlopen it), else the one the launcher belongs to.
// MPICH and Open MPI differ in their handle types (MPICH: int, Open MPI:
// pointers), so handles are held as integers wide enough for either.
#pragma once
#include <cstdint>
#include <string>

namespace hccl_sim {

using Handle = uintptr_t;  // MPI_Comm, MPI_Datatype

struct Mpi {
    enum class Abi { None, Mpich, OpenMpi };
    Abi abi = Abi::None;
    std::string library;  // the path or name it was loaded as
    std::string why_none;  // when abi is None: why no MPI was found
    Handle world = 0, byte = 0;
    int (*initialized)(int*) = nullptr;
    int (*init)(int*, char***) = nullptr;
    int (*finalized)(int*) = nullptr;
    int (*finalize)() = nullptr;
    int (*comm_rank)(Handle, int*) = nullptr;
    int (*comm_size)(Handle, int*) = nullptr;
    int (*comm_dup)(Handle, void* newcomm) = nullptr;
    int (*comm_free)(void* comm) = nullptr;
    int (*bcast)(void*, int, Handle, int, Handle) = nullptr;
    int (*barrier)(Handle) = nullptr;
    int (*allgather)(const void*, int, Handle, void*, int, Handle, Handle) = nullptr;
    int (*send)(const void*, int, Handle, int, int, Handle) = nullptr;
    int (*recv)(void*, int, Handle, int, int, Handle, void* status) = nullptr;
    int (*abort)(Handle, int) = nullptr;
    bool present() const { return abi != Abi::None; }
    const char* abi_name() const { return abi == Abi::Mpich ? "MPICH" : abi == Abi::OpenMpi ? "Open MPI" : "none"; }
};

// MPI's one-sided communication, for the remote window transport
// (windows.cpp): bound on first use, from the library mpi() bound.
struct Rma {
    Handle info_null = 0, int32 = 0, op_replace = 0, status_ignore = 0;
    int mode_nocheck = 0, any_source = 0, any_tag = 0;
    int (*win_create)(void*, long, int, Handle, Handle, void* win) = nullptr;
    int (*win_free)(void* win) = nullptr;
    int (*win_lock_all)(int, Handle) = nullptr;
    int (*win_unlock_all)(Handle) = nullptr;
    int (*win_flush)(int, Handle) = nullptr;
    int (*win_flush_all)(Handle) = nullptr;
    int (*win_sync)(Handle) = nullptr;
    int (*get)(void*, int, Handle, int, long, int, Handle, Handle) = nullptr;
    int (*put)(const void*, int, Handle, int, long, int, Handle, Handle) = nullptr;
    int (*accumulate)(const void*, int, Handle, int, long, int, Handle, Handle, Handle) = nullptr;
    int (*compare_and_swap)(const void*, const void*, void*, Handle, int, long, Handle) = nullptr;
    int (*iprobe)(int, int, Handle, int*, Handle) = nullptr;
    // A dynamic window (URMA's registered memory under the remote transport,
    // resources.cpp): memory attached where it lies, addressed by address.
    int (*win_create_dynamic)(Handle, Handle, void* win) = nullptr;
    int (*win_attach)(Handle, void*, long) = nullptr;
    int (*win_detach)(Handle, const void*) = nullptr;
};
// Null (with `why`) when the MPI library lacks a call.
const Rma* rma(std::string& why);

// Binds MPI once per process (thread-safe); Abi::None when there is none.
const Mpi& mpi();

// MPI_Init when the program did not (libhccl then finalises at exit).
// False with `why` when it fails.
bool ensure_initialized(std::string& why);

}  // namespace hccl_sim
