/*
 * ptolab ACL subset: devices, streams and memory.
 *
 * Semantics, checks and error codes of every function: docs/acl.md.
 */
#ifndef PTOLAB_ACL_ACL_RT_H_
#define PTOLAB_ACL_ACL_RT_H_

#include "acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum aclrtMemcpyKind {
    ACL_MEMCPY_HOST_TO_HOST = 0,
    ACL_MEMCPY_HOST_TO_DEVICE = 1,
    ACL_MEMCPY_DEVICE_TO_HOST = 2,
    ACL_MEMCPY_DEVICE_TO_DEVICE = 3,
    /* Direction inferred from where dst and src live. */
    ACL_MEMCPY_DEFAULT = 4
} aclrtMemcpyKind;

/*
 * Page policies only matter on hardware; the simulator accepts them all and
 * allocates ordinary host memory.
 */
typedef enum aclrtMemMallocPolicy {
    ACL_MEM_MALLOC_HUGE_FIRST = 0,
    ACL_MEM_MALLOC_HUGE_ONLY = 1,
    ACL_MEM_MALLOC_NORMAL_ONLY = 2,
    ACL_MEM_MALLOC_HUGE_FIRST_P2P = 3,
    ACL_MEM_MALLOC_HUGE_ONLY_P2P = 4,
    ACL_MEM_MALLOC_NORMAL_ONLY_P2P = 5,
    ACL_MEM_MALLOC_HUGE1G_ONLY = 6,
    ACL_MEM_MALLOC_HUGE1G_ONLY_P2P = 7,
    ACL_MEM_TYPE_LOW_BAND_WIDTH = 0x0100,
    ACL_MEM_TYPE_HIGH_BAND_WIDTH = 0x1000,
    ACL_MEM_ACCESS_USER_SPACE_READONLY = 0x100000
} aclrtMemMallocPolicy;

/* Flags of aclrtCreateStreamWithConfig (CANN's values; several may be or-ed). */
#define ACL_STREAM_FAST_LAUNCH 0x00000001U
#define ACL_STREAM_FAST_SYNC 0x00000002U
#define ACL_STREAM_PERSISTENT 0x00000004U
#define ACL_STREAM_HUGE 0x00000008U
#define ACL_STREAM_CPU_SCHEDULE 0x00000010U
#define ACL_STREAM_DEVICE_USE_ONLY 0x00000020U

/* Stream attributes (aclrtSetStreamAttribute, aclrtGetStreamAttribute). */
typedef enum {
    ACL_STREAM_ATTR_FAILURE_MODE = 1,
    ACL_STREAM_ATTR_FLOAT_OVERFLOW_CHECK = 2,
    ACL_STREAM_ATTR_USER_CUSTOM_TAG = 3,
    ACL_STREAM_ATTR_CACHE_OP_INFO = 4
} aclrtStreamAttr;

typedef union {
    uint64_t failureMode;       /* 0: continue after a failed task, 1: stop on failure */
    uint32_t overflowSwitch;    /* 0 or 1 */
    uint32_t userCustomTag;     /* any value */
    uint32_t cacheOpInfoSwitch; /* 0 or 1 */
    uint32_t reserve[4];
} aclrtStreamAttrValue;

/* Failure modes (aclrtStreamAttrValue.failureMode). */
typedef enum aclrtStreamFailureMode {
    ACL_CONTINUE_ON_FAILURE = 0,
    ACL_STOP_ON_FAILURE = 1
} aclrtStreamFailureMode;

/* Devices */
ACL_FUNC_VISIBILITY aclError aclrtSetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtResetDevice(int32_t deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDevice(int32_t *deviceId);
ACL_FUNC_VISIBILITY aclError aclrtGetDeviceCount(uint32_t *count);
ACL_FUNC_VISIBILITY const char *aclrtGetSocName(void);

/* Streams */
ACL_FUNC_VISIBILITY aclError aclrtCreateStream(aclrtStream *stream);
/* A stream created with flags (ACL_STREAM_*); priority must be 0 (reserved in CANN). */
ACL_FUNC_VISIBILITY aclError aclrtCreateStreamWithConfig(aclrtStream *stream, uint32_t priority, uint32_t flag);
/* The stream's id: 0 for the default stream (nullptr), 1, 2, ... in creation order. */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetId(aclrtStream stream, int32_t *streamId);
/* The flags the stream was created with (0 for aclrtCreateStream and the default stream). */
ACL_FUNC_VISIBILITY aclError aclrtStreamGetFlags(aclrtStream stream, uint32_t *flags);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);
ACL_FUNC_VISIBILITY aclError aclrtGetStreamAttribute(aclrtStream stream, aclrtStreamAttr stmAttrType,
                                                     aclrtStreamAttrValue *value);
ACL_FUNC_VISIBILITY aclError aclrtSetStreamFailureMode(aclrtStream stream, uint64_t mode);
/* The current device's context (one per device, made by aclrtSetDevice). */
ACL_FUNC_VISIBILITY aclError aclrtGetCurrentContext(aclrtContext *context);
ACL_FUNC_VISIBILITY aclError aclrtDestroyStream(aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStream(aclrtStream stream);
/* timeout in milliseconds; -1 waits without limit. */
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeStreamWithTimeout(aclrtStream stream, int32_t timeout);

/* Memory */
ACL_FUNC_VISIBILITY aclError aclrtMalloc(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* aclrtMallocWithCfg's attributes (CANN's layout): the module id is
 * accepted and ignored; a device id must be 0, the process's device. */
typedef enum {
    ACL_RT_MEM_ATTR_RSV = 0,
    ACL_RT_MEM_ATTR_MODULE_ID = 1,
    ACL_RT_MEM_ATTR_DEVICE_ID = 2,
} aclrtMallocAttrType;
typedef union {
    uint16_t moduleId;
    uint32_t deviceId;
    uint8_t rsv[8];
} aclrtMallocAttrValue;
typedef struct {
    aclrtMallocAttrType attr;
    aclrtMallocAttrValue value;
} aclrtMallocAttribute;
typedef struct {
    aclrtMallocAttribute *attrs;
    size_t numAttrs;
} aclrtMallocConfig;
ACL_FUNC_VISIBILITY aclError aclrtMallocWithCfg(void **devPtr, size_t size, aclrtMemMallocPolicy policy,
                                                aclrtMallocConfig *cfg);
/* As aclrtMalloc; the block is the size rounded up to 32 bytes, without aclrtMalloc's extra 32. */
ACL_FUNC_VISIBILITY aclError aclrtMallocAlign32(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
/* As aclrtMalloc (the simulator has no cache to bypass). */
ACL_FUNC_VISIBILITY aclError aclrtMallocCached(void **devPtr, size_t size, aclrtMemMallocPolicy policy);
ACL_FUNC_VISIBILITY aclError aclrtMallocHost(void **hostPtr, size_t size);
ACL_FUNC_VISIBILITY aclError aclrtFree(void *devPtr);
ACL_FUNC_VISIBILITY aclError aclrtFreeHost(void *hostPtr);
ACL_FUNC_VISIBILITY aclError aclrtMemcpy(void *dst, size_t destMax, const void *src, size_t count,
                                         aclrtMemcpyKind kind);
ACL_FUNC_VISIBILITY aclError aclrtMemset(void *devPtr, size_t maxCount, int32_t value, size_t count);

/* Asynchronous copies and memsets: queued on the stream, checked at the call. */
ACL_FUNC_VISIBILITY aclError aclrtMemcpyAsync(void *dst, size_t destMax, const void *src, size_t count,
                                              aclrtMemcpyKind kind, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtMemsetAsync(void *devPtr, size_t maxCount, int32_t value, size_t count,
                                              aclrtStream stream);

/* Cache maintenance of device memory (CANN's aclrtCmoType values). As CANN
 * documents, only ACL_RT_CMO_TYPE_PREFETCH is supported; the other types
 * return ACL_ERROR_RT_FEATURE_NOT_SUPPORT. The prefetch is a stream-ordered
 * task that changes no byte; under the cost model it puts the range's lines
 * in the simulated L2 and takes the transfer's time (docs/acl.md). */
typedef enum aclrtCmoType {
    ACL_RT_CMO_TYPE_PREFETCH = 0,
    ACL_RT_CMO_TYPE_WRITEBACK,
    ACL_RT_CMO_TYPE_INVALID,
    ACL_RT_CMO_TYPE_FLUSH,
} aclrtCmoType;
ACL_FUNC_VISIBILITY aclError aclrtCmoAsync(void *src, size_t size, aclrtCmoType cmoType, aclrtStream stream);

/* Events: ordering between streams, and completion of a stream's work so far. */
ACL_FUNC_VISIBILITY aclError aclrtCreateEvent(aclrtEvent *event);
ACL_FUNC_VISIBILITY aclError aclrtDestroyEvent(aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtRecordEvent(aclrtEvent event, aclrtStream stream);
ACL_FUNC_VISIBILITY aclError aclrtStreamWaitEvent(aclrtStream stream, aclrtEvent event);
ACL_FUNC_VISIBILITY aclError aclrtSynchronizeEvent(aclrtEvent event);
/* Milliseconds of simulated device time between the latest records of two events (docs/acl.md). */
ACL_FUNC_VISIBILITY aclError aclrtEventElapsedTime(float *ms, aclrtEvent startEvent, aclrtEvent endEvent);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_ACL_ACL_RT_H_ */
