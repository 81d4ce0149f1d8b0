/*
 * ptolab subset of CANN's aclnn/acl_meta.h: tensor descriptors of the aclnn
 * two-phase operator API. A descriptor holds a view (shape, strides, offset
 * in elements) over a storage (shape) of device memory, with an element type
 * and a format; it does not own the memory. docs/acl.md, "aclnn tensors".
 */
#ifndef PTOLAB_ACLNN_ACL_META_H_
#define PTOLAB_ACLNN_ACL_META_H_

#include <acl/acl_base.h>
#include <acl/acl_rt.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef int32_t aclnnStatus;
/* aclnn's status codes (CANN's values). */
static const aclnnStatus ACLNN_SUCCESS = 0;
static const aclnnStatus ACLNN_ERR_PARAM_NULLPTR = 161001;
static const aclnnStatus ACLNN_ERR_PARAM_INVALID = 161002;

typedef struct aclTensor aclTensor;
typedef struct aclOpExecutor aclOpExecutor;

/*
 * A descriptor of viewDimsNum dims viewDims with strides `stride` (in
 * elements, one per view dim) starting `offset` elements into a storage of
 * storageDims at tensorData. NULL (and a message for aclGetRecentErrMsg) when
 * an argument is invalid or the view reaches past the storage.
 */
ACL_FUNC_VISIBILITY aclTensor *aclCreateTensor(const int64_t *viewDims, uint64_t viewDimsNum, aclDataType dataType,
                                               const int64_t *stride, int64_t offset, aclFormat format,
                                               const int64_t *storageDims, uint64_t storageDimsNum,
                                               void *tensorData);
ACL_FUNC_VISIBILITY aclnnStatus aclDestroyTensor(const aclTensor *tensor);

/* Queries. The arrays are allocated with new[]; the caller frees them with delete[]. */
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewShape(const aclTensor *tensor, int64_t **viewDims, uint64_t *viewDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetStorageShape(const aclTensor *tensor, int64_t **storageDims,
                                                   uint64_t *storageDimsNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewStrides(const aclTensor *tensor, int64_t **stridesValue,
                                                  uint64_t *stridesNum);
ACL_FUNC_VISIBILITY aclnnStatus aclGetViewOffset(const aclTensor *tensor, int64_t *offset);
ACL_FUNC_VISIBILITY aclnnStatus aclGetFormat(const aclTensor *tensor, aclFormat *format);
ACL_FUNC_VISIBILITY aclnnStatus aclGetDataType(const aclTensor *tensor, aclDataType *dataType);
ACL_FUNC_VISIBILITY aclnnStatus aclGetRawTensorAddr(const aclTensor *tensor, void **addr);

/*
 * The SDMA queue query of pto-isa's SdmaWorkspaceManager (CANN's opapi
 * operator of the same name). input: UINT64 [2] = {device address of the
 * SdmaOpResInfo (count of queues, device array of HostStreamInfo, workspace),
 * SDMA workspace}; output: UINT64 [1], receives the number of queues written.
 * Each HostStreamInfo's stream must come from aclrtCreateStreamWithConfig with
 * ACL_STREAM_DEVICE_USE_ONLY: the operator gives it a submission queue and a
 * doorbell and describes them in the workspace. docs/many-devices.md, "SDMA".
 */
ACL_FUNC_VISIBILITY aclnnStatus aclnnShmemSdmaStarsQueryGetWorkspaceSize(const aclTensor *input, aclTensor *output,
                                                                         uint64_t *workspaceSize,
                                                                         aclOpExecutor **executor);
ACL_FUNC_VISIBILITY aclnnStatus aclnnShmemSdmaStarsQuery(void *workspace, uint64_t workspaceSize,
                                                         aclOpExecutor *executor, aclrtStream stream);

#ifdef __cplusplus
}
#endif

#endif /* PTOLAB_ACLNN_ACL_META_H_ */
