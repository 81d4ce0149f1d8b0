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
#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_RUNTIME_RT_H_ */
