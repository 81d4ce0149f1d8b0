/*
 * ptosim C API: what a foreign-language host (Python through ctypes or
 * pybind11) needs beyond ACL: registering memory it allocated itself as
 * device memory, the simulated SoC's facts, and streams without ACL's
 * init/set-device ceremony. Every call works before aclInit.
 *
 * Functions returning int return 0 on success or an ACL error code; the
 * message is then in ptosim_last_error() (the same text aclGetRecentErrMsg
 * returns on this thread).
 */
#ifndef PTOSIM_C_API_H_
#define PTOSIM_C_API_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Makes [ptr, ptr+bytes) count as device memory, as if it came from
 * aclrtMalloc: kernels may address it and aclrtMemcpy accepts it for the
 * device side. The caller keeps ownership and must unregister it before the
 * memory is freed. Fails on a null pointer, zero bytes, or a range that
 * overlaps any registered block.
 */
int ptosim_register_memory(void *ptr, uint64_t bytes);
/* Undoes ptosim_register_memory; ptr must be the registered base. */
int ptosim_unregister_memory(void *ptr);
/* 1 when [ptr, ptr+bytes) lies inside one registered device block. */
int ptosim_is_device_memory(const void *ptr, uint64_t bytes);
/* Tells initcheck that host code wrote [ptr, ptr+bytes) of device memory
 * directly (as aclrtMemcpy would have): a host framework computing on its
 * device tensors in place. Nothing happens without initcheck. */
void ptosim_host_wrote(const void *ptr, uint64_t bytes);

/* The simulated SoC (docs/soc-profiles.md), e.g. "Ascend910B2". */
const char *ptosim_soc_name(void);
/*
 * Selects the simulated SoC by a CANN SoC name or a profile name
 * (Ascend910B4, Ascend910_9599, Ascend950PR_9599, ...) and pins it: a kernel
 * library loaded later does not choose the SoC. The constructor of each
 * tools/simulator/<SoC>/lib/libruntime_camodel.so of the CANN-shaped root
 * calls it. PTO_SIM_SOC, when set, wins (with a warning if it differs).
 * Returns 0, or ACL_ERROR_INVALID_PARAM (100000) for an unknown name or after
 * the first launch.
 */
int ptosim_camodel_select(const char *cann_soc_name);
/* "A2A3" or "A5". */
const char *ptosim_target_name(void);
int ptosim_cube_core_count(void);
int ptosim_vector_core_count(void);
/* Bytes of Unified Buffer per Vector core of the simulated SoC. */
uint64_t ptosim_ub_bytes(void);
/* Always 1: this library is the simulator, never a real NPU runtime. */
int ptosim_simulator_mode(void);

/* Stream handles are aclrtStream values. */
void *ptosim_default_stream(void);
/*
 * The calling thread's current stream, as torch_npu keeps one per thread:
 * what torch.npu.set_stream / torch.npu.stream() selected in Python, read by
 * c10_npu::getCurrentNPUStream() in C++ extensions. NULL (the initial value)
 * means the default stream; ptosim_current_stream returns the default
 * stream's handle then.
 */
void *ptosim_current_stream(void);
void ptosim_set_current_stream(void *stream);
void *ptosim_create_stream(void);
int ptosim_destroy_stream(void *stream);
/*
 * Waits for the stream's queued launches; NULL means the default stream.
 * timeout_s <= 0 uses PTO_SYNC_TIMEOUT_S (default 60). Returns 0,
 * ACL_ERROR_RT_STREAM_SYNC_TIMEOUT (507046) after the timeout, or the first
 * launch error since the last synchronisation.
 */
int ptosim_synchronize(void *stream, double timeout_s);
/* Waits for every live stream of the device, each up to timeout_s (<= 0: the
 * default); the first failure's code, with its message in ptosim_last_error.
 * What the simulated torch_npu runs before a host operator on npu tensors. */
int ptosim_synchronize_all(double timeout_s);
/* PTO_SYNC_TIMEOUT_S, else 60. */
double ptosim_default_sync_timeout_s(void);

const char *ptosim_last_error(void);

/*
 * Simulated time (docs/cost-model.md). The cost model times launches when
 * PTO_SIM_TRACE, PTO_SIM_PROFILE or PTO_SIM_TIME is set, or after
 * ptosim_enable_timing(1) (quietly: no stderr line, no files).
 * ptosim_last_launch_time_us returns the simulated time in microseconds of
 * the calling process's most recent completed timed launch, negative when
 * none completed yet.
 */
double ptosim_last_launch_time_us(void);
/* Turns timing of later launches on (1) or back to the environment's choice (0); returns 0. */
int ptosim_enable_timing(int on);
/*
 * The process's simulated device clock in microseconds: the latest simulated
 * time that a completed timed launch, a stream's work or a host thread
 * reached. Each stream has its own clock (its launches add up; streams not
 * ordered by events run side by side), so read it after synchronising the
 * streams (docs/semantics.md, "Simulated time of streams"); the trace's
 * timestamps are on the same axis.
 */
double ptosim_simulated_time_us(void);

#ifdef __cplusplus
}
#endif

#endif /* PTOSIM_C_API_H_ */
