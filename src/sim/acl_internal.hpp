// What the ACL layer's files share: acl.cpp's checks and messages, and the
// hooks acl.cpp calls into the capture layer (acl_graph.cpp).
#pragma once
#include <acl/acl.h>
#include <ptosim/runtime.hpp>
#include <cstdint>
#include <string>

namespace ptosim::acl_impl {

// Stores `msg` for aclGetRecentErrMsg and returns `code`.
aclError fail(aclError code, std::string msg);
// ACL initialised and a device set, else UNINIT / NO_CTX with a message.
aclError require_device(const char* fn);
// NULL is the default stream; anything else must be a live stream.
aclError resolve_stream(const char* fn, aclrtStream stream, Stream** out);
aclError check_copy(const char* fn, void* dst, size_t destMax, const void* src, size_t count, aclrtMemcpyKind kind,
                    bool* dst_dev);
aclError check_fill(const char* fn, void* devPtr, size_t maxCount, size_t count, bool* is_dev);
// [p, p+bytes) as device memory (want_device) or host memory, within its block.
aclError check_side(const char* fn, const char* arg, const void* p, uint64_t bytes, bool want_device,
                    const char* kind);

// Hooks of the capture layer (acl_graph.cpp):
// An "unsafe" synchronous call (aclrtMemcpy, aclrtMemset, ...) while a
// capture's mode forbids it to this thread: ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT.
aclError graph_unsafe_call(const char* fn);
// Which captured task uses the device block at p ("" when none).
std::string graph_block_user(const void* p, uint64_t size);
// aclrtResetDevice/aclFinalize release the stream: captures on it are dropped.
void graph_stream_released(Stream* s);
// A stream is destroyed: the SDMA queue aclnnShmemSdmaStarsQuery gave it
// (aclnn.cpp) is released with it.
void sdma_stream_released(Stream* s);

}  // namespace ptosim::acl_impl
