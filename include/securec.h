/*
 * Bounds-checked memory and string functions with the names, signatures and
 * error codes host and kernel code written for CANN expect from securec.h
 * (libc_sec). Implemented by libptosim (src/sim/securec.cpp); in the
 * CANN-shaped root libc_sec.so is libptosim (docs/drop-in.md).
 *
 * Every function checks destMax first (0 or above SECUREC_MEM_MAX_LEN /
 * SECUREC_STRING_MAX_LEN: ERANGE, destination untouched), then the
 * destination (NULL: EINVAL). Later failures clear the destination (the
 * memory functions zero destMax bytes, the string functions write '\0' at
 * dest[0]) and return the *_AND_RESET code. The print functions return the
 * number of characters written, or -1.
 */
#ifndef PTOLAB_SECUREC_H_
#define PTOLAB_SECUREC_H_

#include <stdarg.h>
#include <stddef.h>

#include "securectype.h"

#ifndef EOK
#define EOK 0
#endif
#ifndef EINVAL
#define EINVAL 22
#endif
#ifndef ERANGE
#define ERANGE 34
#endif
#ifndef EOVERLAP
#define EOVERLAP 54
#endif
#define EINVAL_AND_RESET (EINVAL | 128)
#define ERANGE_AND_RESET (ERANGE | 128)
#define EOVERLAP_AND_RESET (EOVERLAP | 128)

#ifdef __cplusplus
extern "C" {
#endif

typedef int errno_t;

errno_t memcpy_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memmove_s(void *dest, size_t destMax, const void *src, size_t count);
errno_t memset_s(void *dest, size_t destMax, int c, size_t count);
errno_t strcpy_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncpy_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
errno_t strcat_s(char *strDest, size_t destMax, const char *strSrc);
errno_t strncat_s(char *strDest, size_t destMax, const char *strSrc, size_t count);
int sprintf_s(char *strDest, size_t destMax, const char *format, ...) __attribute__((format(printf, 3, 4)));
int snprintf_s(char *strDest, size_t destMax, size_t count, const char *format, ...)
    __attribute__((format(printf, 4, 5)));
int vsprintf_s(char *strDest, size_t destMax, const char *format, va_list argList);
int vsnprintf_s(char *strDest, size_t destMax, size_t count, const char *format, va_list argList);
char *strtok_s(char *strToken, const char *strDelimit, char **context);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_SECUREC_H_ */
