/*
 * ptolab ACL subset: base types and error codes.
 *
 * Names and numeric values follow Huawei CANN's public acl_base.h and
 * rt_error_codes.h so that host code written for ACL compiles unchanged and
 * can compare return values against the same constants. Only the part of the
 * API that ptolab implements is declared (docs/acl.md lists it).
 */
#ifndef PTOLAB_ACL_ACL_BASE_H_
#define PTOLAB_ACL_ACL_BASE_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ACL_FUNC_VISIBILITY __attribute__((visibility("default")))
#else
#define ACL_FUNC_VISIBILITY
#endif

typedef int aclError;
typedef void *aclrtStream;
typedef void *aclrtEvent;
typedef void *aclrtContext;
typedef void *aclmdlRI;     /* a model runtime instance: a captured stream's work (acl/acl_mdl.h) */
typedef void *aclrtTaskGrp; /* a task group of a captured model */
typedef uint16_t aclFloat16;

/* Plain `static const int` (as CANN declares them) keeps the header valid C. */
static const int ACL_SUCCESS = 0;
static const int ACL_ERROR_NONE = 0;

/* Parameter and lifecycle errors (100xxx). */
static const int ACL_ERROR_INVALID_PARAM = 100000;
static const int ACL_ERROR_UNINITIALIZE = 100001;
static const int ACL_ERROR_REPEAT_INITIALIZE = 100002;
static const int ACL_ERROR_INVALID_FILE = 100003;
static const int ACL_ERROR_REPEAT_FINALIZE = 100037;

/* Resource errors (200xxx). */
static const int ACL_ERROR_BAD_ALLOC = 200000;
static const int ACL_ERROR_API_NOT_SUPPORT = 200001;
static const int ACL_ERROR_INVALID_DEVICE = 200002;
static const int ACL_ERROR_FEATURE_UNSUPPORTED = 200006;

/* Internal errors (500xxx). */
static const int ACL_ERROR_INTERNAL_ERROR = 500000;
static const int ACL_ERROR_FAILURE = 500001;
static const int ACL_ERROR_RT_FAILURE = 500003;

/* Runtime errors, CANN's rt_error_codes.h. */
static const int ACL_RT_SUCCESS = 0;
static const int ACL_ERROR_RT_PARAM_INVALID = 107000;
static const int ACL_ERROR_RT_INVALID_DEVICEID = 107001;
static const int ACL_ERROR_RT_CONTEXT_NULL = 107002;
static const int ACL_ERROR_RT_STREAM_CONTEXT = 107003;
static const int ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID = 107006;
static const int ACL_ERROR_RT_INVALID_MEMORY_TYPE = 107016;
static const int ACL_ERROR_RT_INVALID_HANDLE = 107017;
/* Capturing stream work into a model runtime instance (acl/acl_mdl.h). */
static const int ACL_ERROR_RT_CAPTURE_DEPENDENCY = 107024;
static const int ACL_ERROR_RT_STREAM_UNJOINED = 107025;
static const int ACL_ERROR_RT_MODEL_CAPTURED = 107026;
static const int ACL_ERROR_RT_STREAM_CAPTURED = 107027;
static const int ACL_ERROR_RT_EVENT_CAPTURED = 107028;
static const int ACL_ERROR_RT_STREAM_NOT_CAPTURED = 107029;
static const int ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT = 107030;
static const int ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT = 107031;
static const int ACL_ERROR_STREAM_CAPTURE_CONFLICT = 107032;
static const int ACL_ERROR_STREAM_TASK_GROUP_STATUS = 107033;
static const int ACL_ERROR_STREAM_TASK_GROUP_INTR = 107034;
static const int ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED = 107036;
static const int ACL_ERROR_RT_MODEL_RUNNING = 107037;
static const int ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD = 107038;
static const int ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED = 507903;
static const int ACL_ERROR_RT_FEATURE_NOT_SUPPORT = 207000;
static const int ACL_ERROR_RT_MEMORY_ALLOCATION = 207001;
static const int ACL_ERROR_RT_MEMORY_FREE = 207002;
static const int ACL_ERROR_RT_NO_DEVICE = 207004;
static const int ACL_ERROR_RT_INTERNAL_ERROR = 507000;
static const int ACL_ERROR_RT_AICORE_TIMEOUT = 507014;
static const int ACL_ERROR_RT_AICORE_EXCEPTION = 507015;
static const int ACL_ERROR_RT_AICORE_TRAP_EXCEPTION = 507016;
static const int ACL_ERROR_RT_VECTOR_CORE_TIMEOUT = 507034;
static const int ACL_ERROR_RT_VECTOR_CORE_EXCEPTION = 507035;
static const int ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION = 507036;
static const int ACL_ERROR_RT_STREAM_SYNC_TIMEOUT = 507046;
static const int ACL_ERROR_RT_EVENT_SYNC_TIMEOUT = 507047;

/* Element types of tensors (CANN's aclDataType, same values). */
typedef enum {
    ACL_DT_UNDEFINED = -1,
    ACL_FLOAT = 0,
    ACL_FLOAT16 = 1,
    ACL_INT8 = 2,
    ACL_INT32 = 3,
    ACL_UINT8 = 4,
    ACL_INT16 = 6,
    ACL_UINT16 = 7,
    ACL_UINT32 = 8,
    ACL_INT64 = 9,
    ACL_UINT64 = 10,
    ACL_DOUBLE = 11,
    ACL_BOOL = 12,
    ACL_STRING = 13,
    ACL_COMPLEX64 = 16,
    ACL_COMPLEX128 = 17,
    ACL_BF16 = 27,
    ACL_INT4 = 29,
    ACL_UINT1 = 30,
    ACL_COMPLEX32 = 33,
    ACL_HIFLOAT8 = 34,
    ACL_FLOAT8_E5M2 = 35,
    ACL_FLOAT8_E4M3FN = 36,
    ACL_FLOAT8_E8M0 = 37,
    ACL_FLOAT6_E3M2 = 38,
    ACL_FLOAT6_E2M3 = 39,
    ACL_FLOAT4_E2M1 = 40,
    ACL_FLOAT4_E1M2 = 41
} aclDataType;

/* Memory layouts of tensors (CANN's aclFormat, same values). */
typedef enum {
    ACL_FORMAT_UNDEFINED = -1,
    ACL_FORMAT_NCHW = 0,
    ACL_FORMAT_NHWC = 1,
    ACL_FORMAT_ND = 2,
    ACL_FORMAT_NC1HWC0 = 3,
    ACL_FORMAT_FRACTAL_Z = 4,
    ACL_FORMAT_NC1HWC0_C04 = 12,
    ACL_FORMAT_HWCN = 16,
    ACL_FORMAT_NDHWC = 27,
    ACL_FORMAT_FRACTAL_NZ = 29,
    ACL_FORMAT_NCDHW = 30,
    ACL_FORMAT_NDC1HWC0 = 32,
    ACL_FRACTAL_Z_3D = 33,
    ACL_FORMAT_NC = 35,
    ACL_FORMAT_NCL = 47
} aclFormat;

/*
 * Bytes of one element of a data type (CANN's aclDataTypeSize): 0 for
 * ACL_DT_UNDEFINED, ACL_STRING and the sub-byte types (INT4, UINT1, FP4, FP6,
 * which pack several elements per byte), and for values that are no type.
 */
ACL_FUNC_VISIBILITY size_t aclDataTypeSize(aclDataType dataType);

/*
 * Message of the most recent failed call on the calling thread, or "" when
 * none failed yet. Never returns NULL, so it is always safe to print.
 */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

/*
 * IEEE binary16 <-> float, as CANN's acl_base.h declares them: aclFloat16 is
 * the raw 16-bit pattern. Float to half rounds to nearest even; values beyond
 * the half range become infinities, NaN stays NaN.
 */
ACL_FUNC_VISIBILITY float aclFloat16ToFloat(aclFloat16 value);
ACL_FUNC_VISIBILITY aclFloat16 aclFloatToFloat16(float value);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_ACL_ACL_BASE_H_ */
