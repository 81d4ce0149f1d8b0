// A5 has no L1 -> GM data path, for the raw intrinsic as for TSTORE of a Mat tile.
// expect: copy_cbuf_to_gm: A5 has no L1 -> GM path (as TSTORE of a Mat tile)
#include <pto/pto-inst.hpp>
void kernel(uint8_t* gm) {
    copy_cbuf_to_gm(gm, reinterpret_cast<uint8_t*>(uintptr_t{0}), 0, 1, 1, 0, 0);
}
