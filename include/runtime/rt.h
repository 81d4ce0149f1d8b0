/*
 * ptolab subset of CANN's runtime/rt.h, the runtime umbrella header: the
 * error type and the headers of include/runtime/ ptolab provides.
 */
#ifndef PTOLAB_RUNTIME_RT_H_
#define PTOLAB_RUNTIME_RT_H_

#include <runtime/rt_ffts.h>

#endif /* PTOLAB_RUNTIME_RT_H_ */
