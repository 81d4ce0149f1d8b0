// Writing the files ptolab, ptocc and ptosim produce (results, logs, traces,
// profiles, golden files, cache entries): every write and the close are
// checked, and a failure names the file and the reason (docs/cli.md, "Writing
// files").
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <sys/types.h>

namespace ptolab::common {

// what(): "cannot write <path>: <strerror>", the path as the caller gave it.
struct WriteError : std::runtime_error {
    WriteError(const std::string& path, int err);
    std::string path;
    int error;
};

struct WriteOptions {
    // fsync the file and its directory before returning, for logs that must
    // survive a crash right after the write.
    bool durable = false;
};

// Replaces `path` with `data`. A regular file (or a missing one, or a symlink
// to either) is written to a temporary file in the same directory and renamed
// over it, keeping the old file's permission bits: readers and a killed
// writer see the old or the new contents, never a mix. Anything else (a
// device such as /dev/full or /dev/null, a FIFO, a socket) and any path under
// /dev or /proc (so /dev/stdout stays the process's stream even when that
// stream is a file) cannot be renamed onto: it is opened and written in
// place, appending. Throws WriteError; on failure a regular file is left as
// it was.
void write_file(const std::string& path, std::string_view data, WriteOptions options = {});

// Appends `data` in one write(2) call where the kernel allows, so that
// processes appending JSON lines to one log do not interleave inside a line.
// Creates the file. Throws WriteError.
void append_file(const std::string& path, std::string_view data);

// Overwrites the bytes of an existing file from `offset` on and cuts the file
// after them: for documents that grow in place (a trace whose closing
// brackets are rewritten after each launch). Throws WriteError.
void overwrite_tail(const std::string& path, off_t offset, std::string_view data);

}  // namespace ptolab::common
