// aclnn tensor descriptors (aclnn/acl_meta.h), aclDataTypeSize, the
// runtime's queue and device queries (runtime/rt.h) and the SDMA queue query
// of pto-isa's SdmaWorkspaceManager, which gives streams SDMA queues
// (include/ptosim/sdma.hpp). docs/acl.md, docs/many-devices.md.
#include <acl/acl.h>
#include <aclnn/acl_meta.h>
#include <runtime/rt.h>
#include <ptosim/check.hpp>
#include <ptosim/runtime.hpp>
#include <ptosim/sdma.hpp>

#include "acl_internal.hpp"
#include "device_impl.hpp"
#include "hex.hpp"

#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct aclTensor {
    std::vector<int64_t> view, strides, storage;
    int64_t offset = 0;
    aclDataType dtype = ACL_DT_UNDEFINED;
    aclFormat format = ACL_FORMAT_UNDEFINED;
    void* data = nullptr;
    uint32_t magic = 0x54656e73;  // "Tens": a live descriptor
};

struct aclOpExecutor {
    std::string op;
    std::vector<uint64_t*> args;  // device addresses of the operator's tensors
};

namespace ptosim::acl_impl {
using ptolab::common::hex;
using ptosim::Device;
using ptosim::Stream;
namespace {

bool known_dtype(int t) {
    switch (t) {
    case ACL_FLOAT: case ACL_FLOAT16: case ACL_INT8: case ACL_INT32: case ACL_UINT8: case ACL_INT16: case ACL_UINT16:
    case ACL_UINT32: case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_BOOL: case ACL_STRING:
    case ACL_COMPLEX64: case ACL_COMPLEX128: case ACL_BF16: case ACL_INT4: case ACL_UINT1: case ACL_COMPLEX32:
    case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN: case ACL_FLOAT8_E8M0: case ACL_FLOAT6_E3M2:
    case ACL_FLOAT6_E2M3: case ACL_FLOAT4_E2M1: case ACL_FLOAT4_E1M2: return true;
    default: return false;
    }
}

bool known_format(int f) {
    switch (f) {
    case ACL_FORMAT_NCHW: case ACL_FORMAT_NHWC: case ACL_FORMAT_ND: case ACL_FORMAT_NC1HWC0: case ACL_FORMAT_FRACTAL_Z:
    case ACL_FORMAT_NC1HWC0_C04: case ACL_FORMAT_HWCN: case ACL_FORMAT_NDHWC: case ACL_FORMAT_FRACTAL_NZ:
    case ACL_FORMAT_NCDHW: case ACL_FORMAT_NDC1HWC0: case ACL_FRACTAL_Z_3D: case ACL_FORMAT_NC: case ACL_FORMAT_NCL:
        return true;
    default: return false;
    }
}

std::mutex g_tensors_mu;
std::map<const aclTensor*, bool> g_tensors;  // live descriptors

aclnnStatus bad(aclnnStatus code, std::string msg) {
    (void)fail(code, std::move(msg));
    return code;
}

aclnnStatus live(const char* fn, const aclTensor* t) {
    if (!t) return bad(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": tensor is null; pass a tensor from aclCreateTensor");
    std::lock_guard lk(g_tensors_mu);
    if (!g_tensors.count(t))
        return bad(ACLNN_ERR_PARAM_INVALID, std::string(fn) + ": tensor " + hex(t) +
                                                " is not a live tensor (already destroyed, or not from aclCreateTensor)");
    return ACLNN_SUCCESS;
}

aclnnStatus copy_out(const char* fn, const aclTensor* t, const std::vector<int64_t>& v, int64_t** out, uint64_t* n,
                     const char* what) {
    if (aclnnStatus e = live(fn, t)) return e;
    if (!out || !n)
        return bad(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": " + (!out ? what : "the count") +
                                                " pointer is null; pass the address of an int64_t* and of a uint64_t");
    *out = new int64_t[v.empty() ? 1 : v.size()];
    std::copy(v.begin(), v.end(), *out);
    *n = v.size();
    return ACLNN_SUCCESS;
}

// SDMA queues given to streams by aclnnShmemSdmaStarsQuery: a queue and a
// doorbell block of device memory per stream, released with the stream.
struct StreamQueue {
    void* sq = nullptr;
    void* doorbell = nullptr;
};
std::mutex g_sdma_mu;
std::map<Stream*, StreamQueue> g_sdma;

void release_queue(StreamQueue& q) {
    if (q.doorbell) sdma::remove_queue(q.doorbell);
    for (void* p : {q.sq, q.doorbell})
        if (p) {
            ptosim::check::gm_freed(p);
            (void)Device::get().release(p, true);
        }
    q = {};
}

void* device_block(uint64_t bytes) {
    void* p = Device::get().allocate(bytes, true, bytes);
    if (p) {
        std::memset(p, 0, bytes);
        ptosim::check::gm_allocated(p, bytes, nullptr);
        ptosim::check::gm_host_write(p, bytes);
    }
    return p;
}

// pto-isa's SdmaOpResInfo and HostStreamInfo (64 bytes each), as the
// workspace manager lays them out in device memory.
struct OpResInfo {
    uint64_t size, streams_addr, workspace_addr;
    uint8_t reserved[40];
};
struct HostStreamInfo {
    uint64_t stream, ctx;
    int32_t stream_id;
    uint32_t sq_id, cq_id, logic_cq_id;
    uint64_t cqe_addr;
    int32_t dev_id;
    uint8_t reserved[20];
};
static_assert(sizeof(OpResInfo) == 64 && sizeof(HostStreamInfo) == 64);

ptosim::Status device_span(const char* what, uint64_t addr, uint64_t bytes) {
    if (!Device::get().find(reinterpret_cast<const void*>(addr), bytes))
        return {ACL_ERROR_INVALID_PARAM, std::string("aclnnShmemSdmaStarsQuery: ") + what + " at " +
                                             hex(reinterpret_cast<void*>(addr)) + " (" + std::to_string(bytes) +
                                             " bytes) is not in device memory of this rank; pass aclrtMalloc'd blocks"};
    return {};
}

// The operator's work, on its stream: describes each stream's queue in the
// workspace.
ptosim::Status run_stars_query(uint64_t* in, uint64_t* out) {
    const uint64_t res_addr = in[0], ws_addr = in[1];
    if (auto st = device_span("the SdmaOpResInfo", res_addr, sizeof(OpResInfo)); !st.ok()) return st;
    OpResInfo res;
    std::memcpy(&res, reinterpret_cast<const void*>(res_addr), sizeof res);
    if (res.size == 0 || res.size > sdma::kMaxQueues)
        return {ACL_ERROR_INVALID_PARAM, "aclnnShmemSdmaStarsQuery: the SdmaOpResInfo lists " + std::to_string(res.size) +
                                             " streams; list 1 to " + std::to_string(sdma::kMaxQueues)};
    if (res.workspace_addr != ws_addr)
        return {ACL_ERROR_INVALID_PARAM, "aclnnShmemSdmaStarsQuery: the SdmaOpResInfo's workspace " +
                                             hex(reinterpret_cast<void*>(res.workspace_addr)) +
                                             " differs from the input's " + hex(reinterpret_cast<void*>(ws_addr))};
    if (auto st = device_span("the stream list", res.streams_addr, res.size * sizeof(HostStreamInfo)); !st.ok())
        return st;
    if (auto st = device_span("the SDMA workspace", ws_addr, sdma::kWorkspaceBytes); !st.ok()) return st;
    std::vector<HostStreamInfo> streams(res.size);
    std::memcpy(streams.data(), reinterpret_cast<const void*>(res.streams_addr), res.size * sizeof(HostStreamInfo));
    auto* ws = reinterpret_cast<uint8_t*>(ws_addr);
    for (uint64_t i = 0; i < res.size; ++i) {
        auto* st = reinterpret_cast<Stream*>(streams[i].stream);
        uint32_t flags = 0;
        if (!st || aclrtStreamGetFlags(st, &flags) != ACL_SUCCESS || !(flags & ACL_STREAM_DEVICE_USE_ONLY))
            return {ACL_ERROR_INVALID_PARAM,
                    "aclnnShmemSdmaStarsQuery: stream " + std::to_string(i) + " of the list (" +
                        hex(reinterpret_cast<void*>(streams[i].stream)) +
                        ") is not a live stream created with aclrtCreateStreamWithConfig(..., "
                        "ACL_STREAM_DEVICE_USE_ONLY); an SDMA queue belongs to such a stream"};
        StreamQueue q;
        {
            std::lock_guard lk(g_sdma_mu);
            auto it = g_sdma.find(st);
            if (it != g_sdma.end()) q = it->second;
        }
        if (!q.sq) {
            q.sq = device_block(uint64_t(sdma::kQueueDepth) * sdma::kSqeBytes);
            q.doorbell = device_block(sdma::kDoorbellBytes);
            if (!q.sq || !q.doorbell) {
                release_queue(q);
                return {ACL_ERROR_BAD_ALLOC, "aclnnShmemSdmaStarsQuery: out of device memory for the queue of stream " +
                                                 std::to_string(i)};
            }
            sdma::add_queue(q.sq, q.doorbell, sdma::kQueueDepth, static_cast<uint32_t>(streams[i].sq_id));
            std::lock_guard lk(g_sdma_mu);
            g_sdma[st] = q;
        }
        sdma::ChannelInfo ch{};
        ch.sq_base = reinterpret_cast<uint64_t>(q.sq);
        ch.sq_reg_base = reinterpret_cast<uint64_t>(q.doorbell);
        ch.sq_depth = sdma::kQueueDepth;
        ch.sq_id = streams[i].sq_id;
        ch.cq_id = streams[i].cq_id;
        ch.logic_cq_id = streams[i].logic_cq_id;
        ch.stream_id = static_cast<uint32_t>(streams[i].stream_id);
        ch.dev_id = static_cast<uint32_t>(streams[i].dev_id);
        std::memcpy(ws + sizeof(sdma::FlagInfo) + i * sizeof(sdma::ChannelInfo), &ch, sizeof ch);
    }
    sdma::FlagInfo fi{};
    fi.flag = sdma::kFlagInfoMagic;
    fi.total_queues = static_cast<uint32_t>(res.size);
    std::memcpy(ws, &fi, sizeof fi);
    ptosim::check::gm_host_write(ws, sdma::kContextBytes);
    out[0] = res.size;
    ptosim::check::gm_host_write(out, sizeof(uint64_t));
    return {};
}

aclnnStatus check_u64_vector(const char* fn, const char* name, const aclTensor* t, int64_t n) {
    if (aclnnStatus e = live(fn, t)) return e;
    if (t->dtype != ACL_UINT64 || t->view.size() != 1 || t->view[0] != n || !t->data)
        return bad(ACLNN_ERR_PARAM_INVALID, std::string(fn) + ": " + name + " must be a UINT64 tensor of shape [" +
                                                std::to_string(n) + "] with device data (pto-isa's "
                                                "SdmaWorkspaceManager makes it)");
    return ACLNN_SUCCESS;
}

}  // namespace

void sdma_stream_released(Stream* s) {
    StreamQueue q;
    {
        std::lock_guard lk(g_sdma_mu);
        auto it = g_sdma.find(s);
        if (it == g_sdma.end()) return;
        q = it->second;
        g_sdma.erase(it);
    }
    release_queue(q);
}

}  // namespace ptosim::acl_impl

using namespace ptosim::acl_impl;
using ptolab::common::hex;
using ptosim::Stream;

extern "C" {

size_t aclDataTypeSize(aclDataType t) {
    switch (t) {
    case ACL_BOOL: case ACL_INT8: case ACL_UINT8: case ACL_HIFLOAT8: case ACL_FLOAT8_E5M2: case ACL_FLOAT8_E4M3FN:
    case ACL_FLOAT8_E8M0: return 1;
    case ACL_FLOAT16: case ACL_BF16: case ACL_INT16: case ACL_UINT16: return 2;
    case ACL_FLOAT: case ACL_INT32: case ACL_UINT32: case ACL_COMPLEX32: return 4;
    case ACL_INT64: case ACL_UINT64: case ACL_DOUBLE: case ACL_COMPLEX64: return 8;
    case ACL_COMPLEX128: return 16;
    default: return 0;
    }
}

aclTensor* aclCreateTensor(const int64_t* viewDims, uint64_t viewDimsNum, aclDataType dataType, const int64_t* stride,
                           int64_t offset, aclFormat format, const int64_t* storageDims, uint64_t storageDimsNum,
                           void* tensorData) {
    const char* fn = "aclCreateTensor";
    auto no = [&](std::string m) -> aclTensor* {
        (void)fail(ACLNN_ERR_PARAM_INVALID, std::string(fn) + ": " + m);
        return nullptr;
    };
    if (viewDimsNum > 0 && (!viewDims || !stride))
        return no(std::string(!viewDims ? "viewDims" : "stride") + " is null with viewDimsNum " +
                  std::to_string(viewDimsNum) + "; pass one entry per view dimension");
    if (storageDimsNum > 0 && !storageDims)
        return no("storageDims is null with storageDimsNum " + std::to_string(storageDimsNum));
    if (viewDimsNum > 8 || storageDimsNum > 8)
        return no("a tensor has at most 8 dimensions; viewDimsNum is " + std::to_string(viewDimsNum) +
                  ", storageDimsNum " + std::to_string(storageDimsNum));
    if (!known_dtype(dataType)) return no("dataType " + std::to_string(static_cast<int>(dataType)) + " is no aclDataType");
    if (!known_format(format)) return no("format " + std::to_string(static_cast<int>(format)) + " is no aclFormat");
    if (offset < 0) return no("offset " + std::to_string(offset) + " is negative; it counts elements into the storage");
    auto t = std::make_unique<aclTensor>();
    t->view.assign(viewDims, viewDims + viewDimsNum);
    t->strides.assign(stride, stride + viewDimsNum);
    t->storage.assign(storageDims, storageDims + storageDimsNum);
    t->offset = offset;
    t->dtype = dataType;
    t->format = format;
    t->data = tensorData;
    int64_t storage_elems = 1, last = offset;
    bool empty = false;
    for (uint64_t i = 0; i < viewDimsNum; ++i) {
        if (t->view[i] < 0) return no("view dimension " + std::to_string(i) + " is " + std::to_string(t->view[i]));
        if (t->strides[i] < 0) return no("stride " + std::to_string(i) + " is " + std::to_string(t->strides[i]));
        if (t->view[i] == 0) empty = true;
        else last += (t->view[i] - 1) * t->strides[i];
    }
    for (uint64_t i = 0; i < storageDimsNum; ++i) {
        if (t->storage[i] < 0) return no("storage dimension " + std::to_string(i) + " is " + std::to_string(t->storage[i]));
        storage_elems *= t->storage[i];
    }
    if (!empty && last >= storage_elems)
        return no("the view reaches element " + std::to_string(last) + " (offset " + std::to_string(offset) +
                  " plus (dim - 1) * stride per dimension) but the storage holds " + std::to_string(storage_elems) +
                  " elements; enlarge storageDims or shrink the view");
    aclTensor* p = t.release();
    std::lock_guard lk(g_tensors_mu);
    g_tensors[p] = true;
    return p;
}

aclnnStatus aclDestroyTensor(const aclTensor* tensor) {
    if (!tensor) return ACLNN_SUCCESS;  // as CANN: destroying nothing is fine
    if (aclnnStatus e = live("aclDestroyTensor", tensor)) return e;
    {
        std::lock_guard lk(g_tensors_mu);
        g_tensors.erase(tensor);
    }
    delete tensor;
    return ACLNN_SUCCESS;
}

aclnnStatus aclGetViewShape(const aclTensor* t, int64_t** d, uint64_t* n) {
    if (aclnnStatus e = live("aclGetViewShape", t)) return e;
    return copy_out("aclGetViewShape", t, t->view, d, n, "viewDims");
}
aclnnStatus aclGetStorageShape(const aclTensor* t, int64_t** d, uint64_t* n) {
    if (aclnnStatus e = live("aclGetStorageShape", t)) return e;
    return copy_out("aclGetStorageShape", t, t->storage, d, n, "storageDims");
}
aclnnStatus aclGetViewStrides(const aclTensor* t, int64_t** d, uint64_t* n) {
    if (aclnnStatus e = live("aclGetViewStrides", t)) return e;
    return copy_out("aclGetViewStrides", t, t->strides, d, n, "stridesValue");
}
aclnnStatus aclGetViewOffset(const aclTensor* t, int64_t* offset) {
    if (aclnnStatus e = live("aclGetViewOffset", t)) return e;
    if (!offset) return bad(ACLNN_ERR_PARAM_NULLPTR, "aclGetViewOffset: offset is null; pass the address of an int64_t");
    *offset = t->offset;
    return ACLNN_SUCCESS;
}
aclnnStatus aclGetFormat(const aclTensor* t, aclFormat* format) {
    if (aclnnStatus e = live("aclGetFormat", t)) return e;
    if (!format) return bad(ACLNN_ERR_PARAM_NULLPTR, "aclGetFormat: format is null; pass the address of an aclFormat");
    *format = t->format;
    return ACLNN_SUCCESS;
}
aclnnStatus aclGetDataType(const aclTensor* t, aclDataType* dataType) {
    if (aclnnStatus e = live("aclGetDataType", t)) return e;
    if (!dataType)
        return bad(ACLNN_ERR_PARAM_NULLPTR, "aclGetDataType: dataType is null; pass the address of an aclDataType");
    *dataType = t->dtype;
    return ACLNN_SUCCESS;
}
aclnnStatus aclGetRawTensorAddr(const aclTensor* t, void** addr) {
    if (aclnnStatus e = live("aclGetRawTensorAddr", t)) return e;
    if (!addr) return bad(ACLNN_ERR_PARAM_NULLPTR, "aclGetRawTensorAddr: addr is null; pass the address of a void*");
    *addr = t->data;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnShmemSdmaStarsQueryGetWorkspaceSize(const aclTensor* input, aclTensor* output,
                                                     uint64_t* workspaceSize, aclOpExecutor** executor) {
    const char* fn = "aclnnShmemSdmaStarsQueryGetWorkspaceSize";
    if (!workspaceSize || !executor)
        return bad(ACLNN_ERR_PARAM_NULLPTR, std::string(fn) + ": " + (!workspaceSize ? "workspaceSize" : "executor") +
                                                " is null; pass the address of a uint64_t and of an aclOpExecutor*");
    *executor = nullptr;
    if (aclnnStatus e = check_u64_vector(fn, "input", input, 2)) return e;
    if (aclnnStatus e = check_u64_vector(fn, "output", output, 1)) return e;
    auto* ex = new aclOpExecutor;
    ex->op = "aclnnShmemSdmaStarsQuery";
    ex->args = {static_cast<uint64_t*>(input->data) + input->offset, static_cast<uint64_t*>(output->data) + output->offset};
    *workspaceSize = 0;
    *executor = ex;
    return ACLNN_SUCCESS;
}

aclnnStatus aclnnShmemSdmaStarsQuery(void* /*workspace: none needed*/, uint64_t /*workspaceSize*/,
                                     aclOpExecutor* executor, aclrtStream stream) {
    const char* fn = "aclnnShmemSdmaStarsQuery";
    if (!executor || executor->op != fn)
        return bad(ACLNN_ERR_PARAM_INVALID, std::string(fn) + ": executor " + hex(executor) +
                                                " is not from aclnnShmemSdmaStarsQueryGetWorkspaceSize (each executor "
                                                "runs once)");
    if (aclError e = require_device(fn)) return e;
    Stream* st = nullptr;
    if (aclError e = resolve_stream(fn, stream, &st)) return e;
    std::unique_ptr<aclOpExecutor> ex(executor);  // an executor runs once
    uint64_t* in = ex->args[0];
    uint64_t* out = ex->args[1];
    ptosim::Status r = st->enqueue_host(fn, [in, out] { return run_stars_query(in, out); }, {}, {in, out});
    if (!r.ok()) return fail(r.code, std::string(fn) + ": " + r.message);
    return ACLNN_SUCCESS;
}

rtError_t rtStreamGetSqid(const void* stream, uint32_t* sqId) {
    if (!sqId) return fail(ACL_ERROR_RT_PARAM_INVALID, "rtStreamGetSqid: sqId is null; pass the address of a uint32_t");
    int32_t id = 0;
    if (aclError e = aclrtStreamGetId(const_cast<void*>(stream), &id)) return e;
    *sqId = static_cast<uint32_t>(id);
    return ACL_SUCCESS;
}

rtError_t rtStreamGetCqid(const void* stream, uint32_t* cqId, uint32_t* logicCqId) {
    if (!cqId || !logicCqId)
        return fail(ACL_ERROR_RT_PARAM_INVALID, std::string("rtStreamGetCqid: ") + (!cqId ? "cqId" : "logicCqId") +
                                                    " is null; pass the addresses of two uint32_t");
    int32_t id = 0;
    if (aclError e = aclrtStreamGetId(const_cast<void*>(stream), &id)) return e;
    *cqId = *logicCqId = static_cast<uint32_t>(id);
    return ACL_SUCCESS;
}

rtError_t rtGetDeviceInfo(uint32_t deviceId, int32_t moduleType, int32_t infoType, int64_t* value) {
    if (!value) return fail(ACL_ERROR_RT_PARAM_INVALID, "rtGetDeviceInfo: value is null; pass the address of an int64_t");
    uint32_t count = 0;
    (void)aclrtGetDeviceCount(&count);
    if (deviceId >= count)
        return fail(ACL_ERROR_RT_INVALID_DEVICEID, "rtGetDeviceInfo: device " + std::to_string(deviceId) +
                                                       " does not exist; there are " + std::to_string(count));
    constexpr int32_t kPhyDieId = 19;
    if (infoType == kPhyDieId) {
        *value = 0;
        return ACL_SUCCESS;
    }
    return fail(ACL_ERROR_RT_FEATURE_NOT_SUPPORT, "rtGetDeviceInfo: module " + std::to_string(moduleType) +
                                                      ", info type " + std::to_string(infoType) +
                                                      " is not simulated; ptosim answers info type 19 (the "
                                                      "physical die id: 0)");
}

}  // extern "C"
