// Fuzz targets shared by the deterministic corpus runner (corpus_runner.cpp,
// run by ctest) and the libFuzzer entry points (libfuzzer_main.cpp, built
// with -DPTOLAB_LIBFUZZER=ON). A target returns normally for any input it
// handles as documented; a broken invariant aborts with a message.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ptolab_fuzz {

// The golden-file readers: the input as an .npy file, as raw .bin data, and
// its first line as a shape string.
void golden(const uint8_t* data, size_t size);
// ptocc's bisheng command-line model: the input split at newlines into
// arguments, parsed and resolved (lints included).
void options(const uint8_t* data, size_t size);
// The launch rewriter, with and without device asm, and the column map of
// every line it changed.
void rewrite(const uint8_t* data, size_t size);
// ptocc's post-processing of compiler diagnostics.
void diagnostics(const uint8_t* data, size_t size);

// Where the golden target writes its temporary files (a directory private to
// the process, created on first use).
const std::string& scratch_dir();

}  // namespace ptolab_fuzz
