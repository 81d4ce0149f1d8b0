// The vector unit's mode, mask and control registers, the DMA pad value, and
// the fault of an intrinsic ptosim declares but does not execute
// (docs/intrinsics/registers.md).
#include <ptosim/cce.hpp>

#include <string>

namespace ptosim::cce {

const char* to_string(Dt d) {
    static const char* const names[] = {"float", "half", "bfloat16_t", "int32_t", "uint32_t", "int16_t",
                                        "uint16_t", "int8_t", "uint8_t", "int64_t", "uint64_t",
                                        "float8_e4m3_t", "float8_e5m2_t", "hifloat8_t"};
    return names[static_cast<int>(d)];
}

namespace {
OpRecord scalar_record(const char* op, const SourceLoc& loc) {
    OpRecord r;
    r.op = op;
    r.pipe = Pipe::S;
    r.loc = loc;
    return r;
}
}  // namespace

void set_mask_count(const SourceLoc& loc) {
    Core& c = core();
    dispatch(c, scalar_record("set_mask_count", loc));
    c.vec.counter = true;
    c.vec.mode_set = true;
    c.mask_norm_set = true;  // the mode is initialised (docs/checkers.md, "synccheck")
}

void set_ctrl(const SourceLoc& loc, uint64_t v) {
    Core& c = core();
    dispatch(c, scalar_record("set_ctrl", loc));
    c.vec.ctrl = v;
}

uint64_t get_ctrl() { return core().vec.ctrl; }

void set_mov_pad_val(const SourceLoc& loc, uint64_t v) {
    Core& c = core();
    dispatch(c, scalar_record("set_mov_pad_val", loc));
    c.vec.pad_val = v;
}

void not_simulated(const char* name, const void* caller) {
    SourceLoc at = caller_loc(caller);
    if (!at.known()) at = core().last_loc;
    fault(at, std::string("the CCE intrinsic ") + name +
                  " is declared but not simulated by ptosim yet; docs/intrinsics/README.md lists what runs, or build "
                  "with ptolab's own PTO headers (ptocc --pto-headers=ptolab)");
}

}  // namespace ptosim::cce
