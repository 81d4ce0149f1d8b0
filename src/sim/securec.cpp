// securec.h for the simulator (include/securec.h describes the rules).
#include <securec.h>

#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace {

bool overlap(const void* a, size_t na, const void* b, size_t nb) {
    auto x = reinterpret_cast<uintptr_t>(a), y = reinterpret_cast<uintptr_t>(b);
    return x < y + nb && y < x + na;
}

// The checks shared by the string functions before anything is written.
errno_t string_precheck(char* dest, size_t destMax) {
    if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    return EOK;
}

size_t bounded_len(const char* s, size_t max) {
    const void* z = std::memchr(s, '\0', max);
    return z ? static_cast<size_t>(static_cast<const char*>(z) - s) : max;
}

// Appends at most `count` characters of src to dest (count == SIZE_MAX: all).
errno_t cat(char* dest, size_t destMax, const char* src, size_t count) {
    if (errno_t e = string_precheck(dest, destMax)) return e;
    if (src == nullptr || (count > SECUREC_STRING_MAX_LEN && count != SIZE_MAX)) {
        dest[0] = '\0';
        return src == nullptr ? EINVAL_AND_RESET : ERANGE_AND_RESET;
    }
    size_t used = bounded_len(dest, destMax);
    if (used == destMax) {  // no terminator inside destMax
        dest[0] = '\0';
        return EINVAL_AND_RESET;
    }
    size_t n = bounded_len(src, count == SIZE_MAX ? destMax - used : count);
    if (count == SIZE_MAX && n == destMax - used) n = destMax;  // src longer than the room left
    if (used + n >= destMax) {
        dest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    if (overlap(dest, used + n + 1, src, n + 1)) {
        dest[0] = '\0';
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest + used, src, n);
    dest[used + n] = '\0';
    return EOK;
}

// Copies at most `count` characters of src (count == SIZE_MAX: all).
errno_t copy(char* dest, size_t destMax, const char* src, size_t count) {
    if (errno_t e = string_precheck(dest, destMax)) return e;
    if (src == nullptr || (count > SECUREC_STRING_MAX_LEN && count != SIZE_MAX)) {
        dest[0] = '\0';
        return src == nullptr ? EINVAL_AND_RESET : ERANGE_AND_RESET;
    }
    size_t n = bounded_len(src, count == SIZE_MAX ? destMax : count);
    if (n >= destMax) {
        dest[0] = '\0';
        return ERANGE_AND_RESET;
    }
    if (overlap(dest, n + 1, src, n + 1)) {
        dest[0] = '\0';
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, n);
    dest[n] = '\0';
    return EOK;
}

// vsnprintf with securec's rules; count == SIZE_MAX means "no count limit".
int print(char* dest, size_t destMax, size_t count, const char* format, va_list ap) {
    if (destMax == 0 || destMax > SECUREC_STRING_MAX_LEN || dest == nullptr) return -1;
    if (format == nullptr || (count != SIZE_MAX && count > SECUREC_STRING_MAX_LEN)) {
        dest[0] = '\0';
        return -1;
    }
    va_list copy_ap;
    va_copy(copy_ap, ap);
    int need = std::vsnprintf(nullptr, 0, format, copy_ap);
    va_end(copy_ap);
    if (need < 0) {
        dest[0] = '\0';
        return -1;
    }
    const size_t len = static_cast<size_t>(need);
    if (count != SIZE_MAX && count < destMax && len > count) {
        // Truncated to count characters on purpose: the text is kept.
        std::vsnprintf(dest, count + 1, format, ap);
        return -1;
    }
    if (len >= destMax) {
        dest[0] = '\0';
        return -1;
    }
    std::vsnprintf(dest, destMax, format, ap);
    return need;
}

// The argument checks memcpy_s and memmove_s share; EOK means copy.
errno_t mem_copy_args(void* dest, size_t destMax, const void* src, size_t count) {
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (src == nullptr) {
        std::memset(dest, 0, destMax);
        return EINVAL_AND_RESET;
    }
    if (count > destMax) {
        std::memset(dest, 0, destMax);
        return ERANGE_AND_RESET;
    }
    return EOK;
}
}  // namespace

extern "C" {

errno_t memcpy_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (const errno_t e = mem_copy_args(dest, destMax, src, count); e != EOK) return e;
    if (count == 0 || dest == src) return EOK;
    if (overlap(dest, count, src, count)) {
        std::memset(dest, 0, destMax);
        return EOVERLAP_AND_RESET;
    }
    std::memcpy(dest, src, count);
    return EOK;
}

errno_t memmove_s(void* dest, size_t destMax, const void* src, size_t count) {
    if (const errno_t e = mem_copy_args(dest, destMax, src, count); e != EOK) return e;
    if (count != 0) std::memmove(dest, src, count);
    return EOK;
}

errno_t memset_s(void* dest, size_t destMax, int c, size_t count) {
    if (destMax == 0 || destMax > SECUREC_MEM_MAX_LEN) return ERANGE;
    if (dest == nullptr) return EINVAL;
    if (count > destMax) {
        std::memset(dest, c, destMax);  // fill what fits
        return ERANGE_AND_RESET;
    }
    std::memset(dest, c, count);
    return EOK;
}

errno_t strcpy_s(char* strDest, size_t destMax, const char* strSrc) { return copy(strDest, destMax, strSrc, SIZE_MAX); }
errno_t strncpy_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    return copy(strDest, destMax, strSrc, count);
}
errno_t strcat_s(char* strDest, size_t destMax, const char* strSrc) { return cat(strDest, destMax, strSrc, SIZE_MAX); }
errno_t strncat_s(char* strDest, size_t destMax, const char* strSrc, size_t count) {
    return cat(strDest, destMax, strSrc, count);
}

int vsprintf_s(char* strDest, size_t destMax, const char* format, va_list argList) {
    return print(strDest, destMax, SIZE_MAX, format, argList);
}
int vsnprintf_s(char* strDest, size_t destMax, size_t count, const char* format, va_list argList) {
    return print(strDest, destMax, count, format, argList);
}
int sprintf_s(char* strDest, size_t destMax, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    int r = print(strDest, destMax, SIZE_MAX, format, ap);
    va_end(ap);
    return r;
}
int snprintf_s(char* strDest, size_t destMax, size_t count, const char* format, ...) {
    va_list ap;
    va_start(ap, format);
    int r = print(strDest, destMax, count, format, ap);
    va_end(ap);
    return r;
}

char* strtok_s(char* strToken, const char* strDelimit, char** context) {
    if (context == nullptr || strDelimit == nullptr) return nullptr;
    if (strToken == nullptr && *context == nullptr) return nullptr;
    return strtok_r(strToken, strDelimit, context);
}

}  // extern "C"
