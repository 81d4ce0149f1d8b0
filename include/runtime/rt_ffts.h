/*
 * ptolab subset of CANN's runtime/rt_ffts.h: the FFTS control address that
 * host code passes to kernels using cross-core synchronisation.
 */
#ifndef PTOLAB_RUNTIME_RT_FFTS_H_
#define PTOLAB_RUNTIME_RT_FFTS_H_

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Guarded so another ptolab runtime header can declare the same typedef (C99 forbids repeating it). */
#ifndef PTOLAB_RT_ERROR_T_DEFINED
#define PTOLAB_RT_ERROR_T_DEFINED
typedef int32_t rtError_t;
#endif

#ifndef RT_ERROR_NONE
#define RT_ERROR_NONE 0
#endif

/*
 * Writes the simulated device's FFTS control block address to *addr and its
 * length in bytes to *len. Returns RT_ERROR_NONE, or ACL_ERROR_RT_PARAM_INVALID
 * (107000) when addr or len is NULL.
 */
#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
rtError_t rtGetC2cCtrlAddr(uint64_t *addr, uint32_t *len);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_RUNTIME_RT_FFTS_H_ */
