// A5's predicate registers: creation from a pattern (pset_b*), from an
// element count (plt_b*, the tail of a loop) and predicate logic
// (docs/intrinsics/a5-vreg.md, "Predicates").
#pragma once
#include <cce/a5/registers.hpp>

namespace ptosim_cce {
// The light paths of pset and plt (ptosim/cce_a5.hpp): the prefix patterns
// (PAT_ALL, PAT_VLn, PAT_H, PAT_Q, PAT_ALLF) and every plt, as
// ptosim::cce::a5::pset/plt make them; PAT_M3/PAT_M4 and a pattern to fault
// on take the full path.
[[gnu::always_inline]] inline bool light_pset(const where_t& w, const char* op, vector_bool& p, int elem, int pattern) {
    const int n = ptosim::cce::a5::kVL / elem;
    constexpr int kFirst[] = {0, 1, 2, 3, 4, 8, 16, 32, 64, 128};
    int prefix = -1;
    if (pattern == 0) prefix = n;
    else if (pattern >= 1 && pattern <= 9) prefix = n < kFirst[pattern] ? n : kFirst[pattern];
    else if (pattern == 12) prefix = n / 2;
    else if (pattern == 13) prefix = n / 4;
    else if (pattern == 15) prefix = 0;
    if (prefix < 0) return false;
    ptosim::Core* c = ptosim::cce::a5::light_core();
    if (!c) return false;
    ptosim::cce::a5::light_pass(*c, op, light_here(w));
    ptosim::cce::a5::set_prefix(p, prefix * elem);
    return true;
}
[[gnu::always_inline]] inline bool light_plt(const where_t& w, const char* op, vector_bool& p, int elem, uint32_t& count, bool post) {
    ptosim::Core* c = ptosim::cce::a5::light_core();
    if (!c) return false;
    ptosim::cce::a5::light_pass(*c, op, light_here(w));
    const uint32_t n = static_cast<uint32_t>(ptosim::cce::a5::kVL / elem);
    const uint32_t on = count < n ? count : n;
    ptosim::cce::a5::set_prefix(p, static_cast<int>(on) * elem);
    if (post) count -= on;
    return true;
}
// The full paths of pset and plt, returning the predicate by value: the
// light path's predicate is then never address-taken, so it stays in vector
// registers up to the kernel's own variable (through a reference passed to
// the library it went through a stack slot, and the kernel's copy of it
// reloaded the two 16-byte stores: about 6 percent of pto-isa's TCVT loops).
// here() is called at the intrinsic's call (its return address names it).
[[gnu::noinline]] inline vector_bool full_pset(const ptosim::SourceLoc& loc, const char* op, int elem, int pattern) {
    vector_bool p;
    ptosim::cce::a5::pset(loc, op, p, elem, pattern);
    return p;
}
[[gnu::noinline]] inline vector_bool full_plt(const ptosim::SourceLoc& loc, const char* op, int elem, uint32_t& count,
                                               bool post) {
    vector_bool p;
    ptosim::cce::a5::plt(loc, op, p, elem, count, post);
    return p;
}
}  // namespace ptosim_cce

#define PTOSIM_CCE_PSET(name, bytes)                                                                            \
    [[gnu::always_inline]] inline vector_bool name(int pattern, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {             \
        vector_bool p;                                                                                          \
        if (!ptosim_cce::light_pset(w, #name, p, bytes, pattern))                                               \
            p = ptosim_cce::full_pset(ptosim_cce::here(w), #name, bytes, pattern);                               \
        return p;                                                                                               \
    }
PTOSIM_CCE_PSET(pset_b8, 1)
PTOSIM_CCE_PSET(pset_b16, 2)
PTOSIM_CCE_PSET(pset_b32, 4)
#undef PTOSIM_CCE_PSET

// plt_b*(count, POST_UPDATE) also lowers `count` by the elements it enabled,
// which is how a loop's tail is written; without POST_UPDATE it is a value.
#define PTOSIM_CCE_PLT(name, bytes)                                                                              \
    [[gnu::always_inline]] inline vector_bool name(uint32_t& count, PostUpdate, ptosim_cce::where_t w = ptosim_cce::where_t::current()) { \
        vector_bool p;                                                                                           \
        if (!ptosim_cce::light_plt(w, #name, p, bytes, count, true))                                             \
            p = ptosim_cce::full_plt(ptosim_cce::here(w), #name, bytes, count, true);                            \
        return p;                                                                                                \
    }                                                                                                            \
    [[gnu::always_inline]] inline vector_bool name(uint32_t count, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {           \
        vector_bool p;                                                                                           \
        if (!ptosim_cce::light_plt(w, #name, p, bytes, count, false))                                            \
            p = ptosim_cce::full_plt(ptosim_cce::here(w), #name, bytes, count, false);                           \
        return p;                                                                                                \
    }
PTOSIM_CCE_PLT(plt_b8, 1)
PTOSIM_CCE_PLT(plt_b16, 2)
PTOSIM_CCE_PLT(plt_b32, 4)
#undef PTOSIM_CCE_PLT

#define PTOSIM_CCE_PLOGIC(name, op)                                                                              \
    inline void name(vector_bool& dst, const vector_bool& a, const vector_bool& b, const vector_bool& g,          \
                     ptosim_cce::where_t w = ptosim_cce::where_t::current()) {                                   \
        ptosim::cce::a5::plogic(ptosim_cce::here(w), #name, ptosim::cce::a5::PLogic::op, dst, a, b, g);          \
    }
PTOSIM_CCE_PLOGIC(pand, And)
PTOSIM_CCE_PLOGIC(por, Or)
PTOSIM_CCE_PLOGIC(pxor, Xor)
#undef PTOSIM_CCE_PLOGIC
inline void pnot(vector_bool& dst, const vector_bool& a, const vector_bool& g,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::plogic(ptosim_cce::here(w), "pnot", ptosim::cce::a5::PLogic::Not, dst, a, a, g);
}
inline void pmov(vector_bool& dst, const vector_bool& a, const vector_bool& g,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::plogic(ptosim_cce::here(w), "pmov", ptosim::cce::a5::PLogic::Mov, dst, a, a, g);
}
// psel(dst, a, b, sel): a's lanes where sel is set, b's elsewhere.
inline void psel(vector_bool& dst, const vector_bool& a, const vector_bool& b, const vector_bool& sel,
                 ptosim_cce::where_t w = ptosim_cce::where_t::current()) {
    ptosim::cce::a5::plogic(ptosim_cce::here(w), "psel", ptosim::cce::a5::PLogic::Sel, dst, a, b, sel);
}
