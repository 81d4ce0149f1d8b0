/*
 * ptolab subset of CANN's runtime/rt.h, the runtime umbrella header: the
 * error type and the headers of include/runtime/ ptolab provides.
 */
#ifndef PTOLAB_RUNTIME_RT_H_
#define PTOLAB_RUNTIME_RT_H_

#include <runtime/rt_ffts.h>

#ifdef __cplusplus
extern "C" {
#endif
/* Device and stream calls of CANN's runtime: ACL's aclrtSetDevice,
 * aclrtCreateStream (the priority is ignored) and aclrtDestroyStream, with
 * ACL's codes. */
rtError_t rtSetDevice(int32_t device);
rtError_t rtStreamCreate(void **stream, int32_t priority);
rtError_t rtStreamDestroy(void *stream);
/* A stream's submission and completion queue ids: its ACL stream id
 * (aclrtStreamGetId), one queue pair per stream. */
rtError_t rtStreamGetSqid(const void *stream, uint32_t *sqId);
rtError_t rtStreamGetCqid(const void *stream, uint32_t *cqId, uint32_t *logicCqId);
/* Device information: infoType 19 (the physical die id) answers 0, the
 * simulated device having one die; other types are refused. */
rtError_t rtGetDeviceInfo(uint32_t deviceId, int32_t moduleType, int32_t infoType, int64_t *value);
#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_RUNTIME_RT_H_ */
