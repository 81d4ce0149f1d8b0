// A5's predicate registers: creation from a pattern (pset_b*), from an
// element count (plt_b*, the tail of a loop) and predicate logic
// (docs/intrinsics/a5-vreg.md, "Predicates").
#pragma once
#include <cce/a5/registers.hpp>

#define PTOSIM_CCE_PSET(name, bytes)                                                                            \
    inline vector_bool name(int pattern, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {             \
        vector_bool p;                                                                                          \
        ptosim::cce::a5::pset(ptosim_cce::here(w), #name, p, bytes, pattern);                                   \
        return p;                                                                                               \
    }
PTOSIM_CCE_PSET(pset_b8, 1)
PTOSIM_CCE_PSET(pset_b16, 2)
PTOSIM_CCE_PSET(pset_b32, 4)
#undef PTOSIM_CCE_PSET

// plt_b*(count, POST_UPDATE) also lowers `count` by the elements it enabled,
// which is how a loop's tail is written; without POST_UPDATE it is a value.
#define PTOSIM_CCE_PLT(name, bytes)                                                                              \
    inline vector_bool name(uint32_t& count, PostUpdate, ptosim_cce::where_t w = ptosim_cce::where_t::current()) { \
        vector_bool p;                                                                                           \
        ptosim::cce::a5::plt(ptosim_cce::here(w), #name, p, bytes, count, true);                                 \
        return p;                                                                                                \
    }                                                                                                            \
    inline vector_bool name(uint32_t count, ptosim_cce::where_t w = ptosim_cce::where_t::current()) {           \
        vector_bool p;                                                                                           \
        ptosim::cce::a5::plt(ptosim_cce::here(w), #name, p, bytes, count, false);                                \
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
