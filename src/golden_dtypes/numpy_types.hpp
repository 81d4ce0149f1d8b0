// The NumPy side of ptolab's golden-script element types: scalar types,
// dtypes, casts, ufunc loops and np.dot for element types defined by an
// encode/decode pair, and create_module() to publish a set of them as a
// Python module. ml_dtypes.cpp and en_dtypes.cpp each include this once
// and name their module; everything here is internal to that module.
//
// The modules exist because pto-isa's gen_data.py scripts import the
// ml_dtypes and en_dtypes packages, which are not packaged for Debian. They
// implement what those scripts use (casts, tofile/fromfile, arithmetic,
// comparisons, reductions, np.dot) and nothing else. The numerics are
// ptosim's own codecs (ptosim/float16.hpp, ptosim/float8.hpp), so a golden
// is made with the same rounding the simulator implements.
// docs/conformance-run.md.
//
// Built on NumPy's legacy user-dtype API (PyArray_RegisterDataType and
// friends), the one NumPy 1.x offers.
#pragma once
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#include <numpy/arrayobject.h>
#include <numpy/ufuncobject.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <type_traits>

#include "ptosim/float16.hpp"
#include "ptosim/float8.hpp"

namespace {

using ptosim::MiniFormat;
using ptosim::MiniRound;

// Every conversion into a type goes through float32 first, as the
// packages' casts do (float64 and integer sources included), so a script
// writes the same files here as on a machine with the packages.

// A one-byte element type over one of ptosim's mini-float codecs. Spec
// gives the format, its rounding, and the names the module publishes. The
// 4-bit formats take one element per byte, in the low nibble, as the
// packages that define them store them. Conversions do not saturate: a
// format with Inf overflows to it, E4M3FN to NaN, the 4-bit formats (no
// Inf, no NaN) to their largest value. Converting back is exact.
template <class Spec>
struct MiniFloat {
    using Bits = uint8_t;
    static constexpr const char* name = Spec::name;
    static constexpr const char* qualified_name = Spec::qualified_name;
    static constexpr char type_char = Spec::type_char;
    static constexpr unsigned code_mask = ptosim::mini_code_count(Spec::format) - 1;
    static Bits encode(float f) { return static_cast<Bits>(ptosim::mini_encode(Spec::format, f, Spec::round, false)); }
    static float decode(Bits b) { return table[b & code_mask]; }
    static inline const auto table = [] {
        std::array<float, 256> t{};
        for (unsigned c = 0; c <= code_mask; ++c) t[c] = static_cast<float>(ptosim::mini_decode(Spec::format, c));
        return t;
    }();
};

template <class T>
struct Registry {
    static inline PyTypeObject* type = nullptr;
    static inline int type_num = NPY_NOTYPE;
    static inline PyArray_ArrFuncs funcs;
    static inline PyArray_Descr descr;
};

template <class T>
struct Scalar {
    PyObject_HEAD
    typename T::Bits bits;
};

// Element access through memcpy: NumPy hands user-type loops strided and
// possibly unaligned pointers.
template <class V>
V load(const void* p) {
    V v;
    std::memcpy(&v, p, sizeof v);
    return v;
}
template <class V>
void store(void* p, V v) {
    std::memcpy(p, &v, sizeof v);
}
template <class T>
float load_value(const void* p) { return T::decode(load<typename T::Bits>(p)); }
template <class T>
void store_value(void* p, float f) { store(p, T::encode(f)); }

template <class T>
bool is_scalar(PyObject* o) { return PyObject_IsInstance(o, reinterpret_cast<PyObject*>(Registry<T>::type)) == 1; }
template <class T>
float scalar_value(PyObject* o) { return T::decode(reinterpret_cast<Scalar<T>*>(o)->bits); }

template <class T>
PyObject* make_scalar(typename T::Bits bits) {
    PyTypeObject* type = Registry<T>::type;
    PyObject* o = type->tp_alloc(type, 0);
    if (o) reinterpret_cast<Scalar<T>*>(o)->bits = bits;
    return o;
}

// Any Python number, NumPy scalar, 0-d array or numeric string to the
// type's bits; false with a Python error set otherwise.
template <class T>
bool to_bits(PyObject* o, typename T::Bits* out) {
    if (is_scalar<T>(o)) {
        *out = reinterpret_cast<Scalar<T>*>(o)->bits;
        return true;
    }
    PyObject* f = nullptr;
    if (PyUnicode_Check(o) || PyBytes_Check(o)) {
        f = PyFloat_FromString(o);
    } else if (PyFloat_Check(o) || PyLong_Check(o) || PyArray_IsScalar(o, Generic) || PyArray_IsZeroDim(o) ||
               PyNumber_Check(o)) {
        f = PyNumber_Float(o);
    } else {
        PyErr_Format(PyExc_TypeError, "expected a number, got %s", Py_TYPE(o)->tp_name);
        return false;
    }
    if (!f) return false;
    const double d = PyFloat_AsDouble(f);
    Py_DECREF(f);
    if (d == -1.0 && PyErr_Occurred()) return false;
    *out = T::encode(static_cast<float>(d));
    return true;
}

namespace ops {
// NumPy's float semantics for each ufunc, on the float value.
struct Add { float operator()(float a, float b) const { return a + b; } };
struct Subtract { float operator()(float a, float b) const { return a - b; } };
struct Multiply { float operator()(float a, float b) const { return a * b; } };
struct Divide { float operator()(float a, float b) const { return a / b; } };
struct Power { float operator()(float a, float b) const { return std::pow(a, b); } };
// maximum/minimum propagate NaN, fmax/fmin ignore it.
struct Maximum { float operator()(float a, float b) const { return std::isnan(a) || a >= b ? a : b; } };
struct Minimum { float operator()(float a, float b) const { return std::isnan(a) || a <= b ? a : b; } };
struct Fmax { float operator()(float a, float b) const { return std::fmax(a, b); } };
struct Fmin { float operator()(float a, float b) const { return std::fmin(a, b); } };
struct Negative { float operator()(float a) const { return -a; } };
struct Positive { float operator()(float a) const { return a; } };
struct Absolute { float operator()(float a) const { return std::fabs(a); } };
struct Sign { float operator()(float a) const { return std::isnan(a) ? a : a > 0 ? 1.0f : a < 0 ? -1.0f : a; } };
struct Rint { float operator()(float a) const { return std::nearbyint(a); } };
struct Floor { float operator()(float a) const { return std::floor(a); } };
struct Ceil { float operator()(float a) const { return std::ceil(a); } };
struct Trunc { float operator()(float a) const { return std::trunc(a); } };
struct Sqrt { float operator()(float a) const { return std::sqrt(a); } };
struct Square { float operator()(float a) const { return a * a; } };
struct Reciprocal { float operator()(float a) const { return 1.0f / a; } };
struct Exp { float operator()(float a) const { return std::exp(a); } };
struct Log { float operator()(float a) const { return std::log(a); } };
struct Eq { bool operator()(float a, float b) const { return a == b; } };
struct Ne { bool operator()(float a, float b) const { return a != b; } };
struct Lt { bool operator()(float a, float b) const { return a < b; } };
struct Le { bool operator()(float a, float b) const { return a <= b; } };
struct Gt { bool operator()(float a, float b) const { return a > b; } };
struct Ge { bool operator()(float a, float b) const { return a >= b; } };
struct IsNan { bool operator()(float a) const { return std::isnan(a); } };
struct IsInf { bool operator()(float a) const { return std::isinf(a); } };
struct IsFinite { bool operator()(float a) const { return std::isfinite(a); } };
struct SignBit { bool operator()(float a) const { return std::signbit(a); } };
}  // namespace ops

// --- The scalar type -------------------------------------------------------

template <class T>
PyObject* scalar_new(PyTypeObject*, PyObject* args, PyObject* kwds) {
    if (kwds && PyDict_Size(kwds)) {
        PyErr_Format(PyExc_TypeError, "%s() takes no keyword arguments", T::name);
        return nullptr;
    }
    if (PyTuple_Size(args) != 1) {
        PyErr_Format(PyExc_TypeError, "%s() takes exactly one argument", T::name);
        return nullptr;
    }
    PyObject* arg = PyTuple_GetItem(args, 0);
    if (is_scalar<T>(arg)) {
        Py_INCREF(arg);
        return arg;
    }
    if (PyArray_Check(arg) && PyArray_NDIM(reinterpret_cast<PyArrayObject*>(arg)) > 0)
        return PyArray_CastToType(reinterpret_cast<PyArrayObject*>(arg),
                                  PyArray_DescrFromType(Registry<T>::type_num), 0);
    typename T::Bits bits;
    if (!to_bits<T>(arg, &bits)) return nullptr;
    return make_scalar<T>(bits);
}

// The float value with six significant digits, as C++ streams print it.
template <class T>
PyObject* scalar_repr(PyObject* self) {
    const float f = scalar_value<T>(self);
    char buf[64];
    if (std::isnan(f)) std::snprintf(buf, sizeof buf, "nan");
    else if (std::isinf(f)) std::snprintf(buf, sizeof buf, f < 0 ? "-inf" : "inf");
    else std::snprintf(buf, sizeof buf, "%g", static_cast<double>(f));
    return PyUnicode_FromString(buf);
}

template <class T>
Py_hash_t scalar_hash(PyObject* self) {
    return _Py_HashDouble(self, static_cast<double>(scalar_value<T>(self)));
}

template <class T>
PyObject* scalar_float(PyObject* self) { return PyFloat_FromDouble(scalar_value<T>(self)); }

template <class T>
PyObject* scalar_int(PyObject* self) {
    PyObject* f = scalar_float<T>(self);
    if (!f) return nullptr;
    PyObject* i = PyNumber_Long(f);  // raises on NaN and Inf, as int(float) does
    Py_DECREF(f);
    return i;
}

template <class T>
int scalar_bool(PyObject* self) { return scalar_value<T>(self) != 0.0f; }

template <class T>
PyObject* scalar_negative(PyObject* self) { return make_scalar<T>(T::encode(-scalar_value<T>(self))); }
template <class T>
PyObject* scalar_positive(PyObject* self) {
    Py_INCREF(self);
    return self;
}
template <class T>
PyObject* scalar_absolute(PyObject* self) { return make_scalar<T>(T::encode(std::fabs(scalar_value<T>(self)))); }

// Two scalars of the type compute in float and round back; anything else
// goes through NumPy's array arithmetic (its promotion rules decide).
template <class T, class Op>
PyObject* scalar_binary(PyObject* a, PyObject* b, binaryfunc fallback) {
    if (is_scalar<T>(a) && is_scalar<T>(b))
        return make_scalar<T>(T::encode(Op{}(scalar_value<T>(a), scalar_value<T>(b))));
    return fallback(a, b);
}
template <class T>
PyObject* scalar_add(PyObject* a, PyObject* b) {
    return scalar_binary<T, ops::Add>(a, b, PyArray_Type.tp_as_number->nb_add);
}
template <class T>
PyObject* scalar_subtract(PyObject* a, PyObject* b) {
    return scalar_binary<T, ops::Subtract>(a, b, PyArray_Type.tp_as_number->nb_subtract);
}
template <class T>
PyObject* scalar_multiply(PyObject* a, PyObject* b) {
    return scalar_binary<T, ops::Multiply>(a, b, PyArray_Type.tp_as_number->nb_multiply);
}
template <class T>
PyObject* scalar_divide(PyObject* a, PyObject* b) {
    return scalar_binary<T, ops::Divide>(a, b, PyArray_Type.tp_as_number->nb_true_divide);
}

template <class T>
PyObject* scalar_richcompare(PyObject* a, PyObject* b, int op) {
    if (!is_scalar<T>(a) || !is_scalar<T>(b)) return PyGenericArrType_Type.tp_richcompare(a, b, op);
    const float x = scalar_value<T>(a), y = scalar_value<T>(b);
    bool r = false;
    switch (op) {
        case Py_LT: r = x < y; break;
        case Py_LE: r = x <= y; break;
        case Py_EQ: r = x == y; break;
        case Py_NE: r = x != y; break;
        case Py_GT: r = x > y; break;
        case Py_GE: r = x >= y; break;
        default: Py_RETURN_NOTIMPLEMENTED;
    }
    if (r) Py_RETURN_TRUE;
    Py_RETURN_FALSE;
}

template <class T>
PyObject* scalar_format(PyObject* self, PyObject* spec) {
    PyObject* f = scalar_float<T>(self);
    if (!f) return nullptr;
    PyObject* s = PyObject_Format(f, spec);
    Py_DECREF(f);
    return s;
}

template <class T>
PyMethodDef scalar_methods[] = {
    {"__format__", reinterpret_cast<PyCFunction>(scalar_format<T>), METH_O, nullptr},
    {nullptr, nullptr, 0, nullptr},
};

template <class T>
PyType_Slot scalar_slots[] = {
    {Py_tp_new, reinterpret_cast<void*>(scalar_new<T>)},
    {Py_tp_repr, reinterpret_cast<void*>(scalar_repr<T>)},
    {Py_tp_str, reinterpret_cast<void*>(scalar_repr<T>)},
    {Py_tp_hash, reinterpret_cast<void*>(scalar_hash<T>)},
    {Py_tp_richcompare, reinterpret_cast<void*>(scalar_richcompare<T>)},
    {Py_tp_methods, reinterpret_cast<void*>(scalar_methods<T>)},
    {Py_nb_add, reinterpret_cast<void*>(scalar_add<T>)},
    {Py_nb_subtract, reinterpret_cast<void*>(scalar_subtract<T>)},
    {Py_nb_multiply, reinterpret_cast<void*>(scalar_multiply<T>)},
    {Py_nb_true_divide, reinterpret_cast<void*>(scalar_divide<T>)},
    {Py_nb_negative, reinterpret_cast<void*>(scalar_negative<T>)},
    {Py_nb_positive, reinterpret_cast<void*>(scalar_positive<T>)},
    {Py_nb_absolute, reinterpret_cast<void*>(scalar_absolute<T>)},
    {Py_nb_bool, reinterpret_cast<void*>(scalar_bool<T>)},
    {Py_nb_float, reinterpret_cast<void*>(scalar_float<T>)},
    {Py_nb_int, reinterpret_cast<void*>(scalar_int<T>)},
    {0, nullptr},
};

template <class T>
PyType_Spec scalar_spec = {T::qualified_name, static_cast<int>(sizeof(Scalar<T>)), 0,
                           Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE, scalar_slots<T>};

// --- Array functions ---------------------------------------------------------

template <class T>
PyObject* arr_getitem(void* data, void*) { return PyFloat_FromDouble(load_value<T>(data)); }

template <class T>
int arr_setitem(PyObject* item, void* data, void*) {
    typename T::Bits bits;
    if (!to_bits<T>(item, &bits)) return -1;
    store(data, bits);
    return 0;
}

template <class T>
void arr_copyswapn(void* dst, npy_intp dstride, void* src, npy_intp sstride, npy_intp n, int swap, void*) {
    constexpr size_t size = sizeof(typename T::Bits);
    char* d = static_cast<char*>(dst);
    const char* s = static_cast<const char*>(src);
    for (npy_intp i = 0; i < n; ++i) {
        char* p = d + i * dstride;
        if (s) std::memcpy(p, s + i * sstride, size);
        if (swap && size == 2) std::swap(p[0], p[1]);
    }
}

template <class T>
void arr_copyswap(void* dst, void* src, int swap, void* arr) { arr_copyswapn<T>(dst, 0, src, 0, 1, swap, arr); }

template <class T>
npy_bool arr_nonzero(void* data, void*) { return load_value<T>(data) != 0.0f; }

// NaNs sort last, as NumPy sorts floats.
template <class T>
int arr_compare(const void* a, const void* b, void*) {
    const float x = load_value<T>(a), y = load_value<T>(b);
    if (x < y || (!std::isnan(x) && std::isnan(y))) return -1;
    if (y < x || (std::isnan(x) && !std::isnan(y))) return 1;
    return 0;
}

// The first NaN wins, as for NumPy's floats.
template <class T, bool Max>
int arr_argextreme(void* data, npy_intp n, npy_intp* index, void*) {
    const char* p = static_cast<const char*>(data);
    constexpr size_t size = sizeof(typename T::Bits);
    *index = 0;
    if (n <= 0) return 0;
    float best = load_value<T>(p);
    for (npy_intp i = 0; i < n && !std::isnan(best); ++i) {
        const float v = load_value<T>(p + i * size);
        if (std::isnan(v) || (Max ? v > best : v < best)) {
            best = v;
            *index = i;
        }
    }
    return 0;
}

// np.arange's continuation of the first two elements.
template <class T>
int arr_fill(void* buffer, npy_intp length, void*) {
    char* p = static_cast<char*>(buffer);
    constexpr size_t size = sizeof(typename T::Bits);
    const float start = load_value<T>(p), delta = load_value<T>(p + size) - start;
    for (npy_intp i = 2; i < length; ++i) store_value<T>(p + i * size, start + static_cast<float>(i) * delta);
    return 0;
}

// np.dot: float products summed in float, one rounding at the end.
template <class T>
void arr_dot(void* a, npy_intp as, void* b, npy_intp bs, void* out, npy_intp n, void*) {
    const char* pa = static_cast<const char*>(a);
    const char* pb = static_cast<const char*>(b);
    float acc = 0.0f;
    for (npy_intp i = 0; i < n; ++i) acc += load_value<T>(pa + i * as) * load_value<T>(pb + i * bs);
    store_value<T>(out, acc);
}

// --- Casts -------------------------------------------------------------------

// Float to integer truncates toward zero and wraps to the width; NaN, Inf
// and values beyond int64 give int64's minimum first (what x86-64's
// conversion instruction gives for NumPy's own float casts).
template <class I>
I float_to_int(float f) {
    const double d = f;
    if constexpr (std::is_unsigned_v<I>) {
        if (d >= 0.0 && d < 18446744073709551616.0) return static_cast<I>(static_cast<uint64_t>(d));
    }
    const bool fits = d > -9223372036854775808.0 && d < 9223372036854775808.0;
    return static_cast<I>(fits ? static_cast<int64_t>(d) : std::numeric_limits<int64_t>::min());
}

// From and to NumPy's own types. half is read and written with ptosim's
// binary16 codec. half and bool get tag types of their own because npy_half
// is just npy_uint16 and npy_bool is npy_ubyte.
struct Half {
    uint16_t bits;
};
struct Bool {
    npy_bool value;
};
template <class V>
float other_to_float(const void* p) {
    if constexpr (std::is_same_v<V, Half>) return ptosim::half_bits_to_float(load<uint16_t>(p));
    else if constexpr (std::is_same_v<V, Bool>) return load<npy_bool>(p) ? 1.0f : 0.0f;
    else return static_cast<float>(load<V>(p));
}
template <class V>
void float_to_other(void* p, float f) {
    if constexpr (std::is_same_v<V, Half>) store(p, ptosim::float_to_half_bits(f));
    else if constexpr (std::is_same_v<V, Bool>) store<npy_bool>(p, f != 0.0f);  // NaN is true
    else if constexpr (std::is_floating_point_v<V>) store(p, static_cast<V>(f));
    else store(p, float_to_int<V>(f));
}

template <class T, class V>
void cast_from_other(void* from, void* to, npy_intp n, void*, void*) {
    const char* s = static_cast<const char*>(from);
    char* d = static_cast<char*>(to);
    for (npy_intp i = 0; i < n; ++i) store_value<T>(d + i * sizeof(typename T::Bits), other_to_float<V>(s + i * sizeof(V)));
}
template <class T, class V>
void cast_to_other(void* from, void* to, npy_intp n, void*, void*) {
    const char* s = static_cast<const char*>(from);
    char* d = static_cast<char*>(to);
    for (npy_intp i = 0; i < n; ++i) float_to_other<V>(d + i * sizeof(V), load_value<T>(s + i * sizeof(typename T::Bits)));
}
template <class From, class To>
void cast_between(void* from, void* to, npy_intp n, void*, void*) {
    const char* s = static_cast<const char*>(from);
    char* d = static_cast<char*>(to);
    for (npy_intp i = 0; i < n; ++i)
        store_value<To>(d + i * sizeof(typename To::Bits), load_value<From>(s + i * sizeof(typename From::Bits)));
}

template <class T, class V>
bool register_cast_pair(int other) {
    PyArray_Descr* od = PyArray_DescrFromType(other);
    const bool ok = PyArray_RegisterCastFunc(od, Registry<T>::type_num, cast_from_other<T, V>) == 0 &&
                    PyArray_RegisterCastFunc(&Registry<T>::descr, other, cast_to_other<T, V>) == 0;
    Py_DECREF(od);
    return ok;
}

template <class T>
bool register_casts() {
    bool ok = register_cast_pair<T, Bool>(NPY_BOOL) && register_cast_pair<T, npy_byte>(NPY_BYTE) &&
              register_cast_pair<T, npy_ubyte>(NPY_UBYTE) && register_cast_pair<T, npy_short>(NPY_SHORT) &&
              register_cast_pair<T, npy_ushort>(NPY_USHORT) && register_cast_pair<T, npy_int>(NPY_INT) &&
              register_cast_pair<T, npy_uint>(NPY_UINT) && register_cast_pair<T, npy_long>(NPY_LONG) &&
              register_cast_pair<T, npy_ulong>(NPY_ULONG) && register_cast_pair<T, npy_longlong>(NPY_LONGLONG) &&
              register_cast_pair<T, npy_ulonglong>(NPY_ULONGLONG) && register_cast_pair<T, Half>(NPY_HALF) &&
              register_cast_pair<T, npy_float>(NPY_FLOAT) && register_cast_pair<T, npy_double>(NPY_DOUBLE) &&
              register_cast_pair<T, npy_longdouble>(NPY_LONGDOUBLE);
    if (!ok) return false;
    // The promotions the ml_dtypes package declares: the type widens safely
    // to float32/float64 (so mixed arithmetic with them computes there), and
    // bool and 8-bit integers count as fitting into it.
    for (int to : {NPY_FLOAT, NPY_DOUBLE, NPY_LONGDOUBLE})
        if (PyArray_RegisterCanCast(&Registry<T>::descr, to, NPY_NOSCALAR) < 0) return false;
    for (int from : {NPY_BOOL, NPY_UBYTE, NPY_BYTE}) {
        PyArray_Descr* fd = PyArray_DescrFromType(from);
        const int r = PyArray_RegisterCanCast(fd, Registry<T>::type_num, NPY_NOSCALAR);
        Py_DECREF(fd);
        if (r < 0) return false;
    }
    return true;
}

template <class From, class To>
bool register_cross_cast() {
    return PyArray_RegisterCastFunc(&Registry<From>::descr, Registry<To>::type_num, cast_between<From, To>) == 0;
}

// --- Ufunc loops -------------------------------------------------------------

template <class T, class Op>
void loop_unary(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        store_value<T>(args[1] + i * steps[1], Op{}(load_value<T>(args[0] + i * steps[0])));
}
template <class T, class Op>
void loop_binary(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        store_value<T>(args[2] + i * steps[2],
                       Op{}(load_value<T>(args[0] + i * steps[0]), load_value<T>(args[1] + i * steps[1])));
}
template <class T, class Op>
void loop_compare(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        store<npy_bool>(args[2] + i * steps[2],
                        Op{}(load_value<T>(args[0] + i * steps[0]), load_value<T>(args[1] + i * steps[1])));
}
template <class T, class Op>
void loop_predicate(char** args, const npy_intp* dims, const npy_intp* steps, void*) {
    for (npy_intp i = 0; i < dims[0]; ++i)
        store<npy_bool>(args[1] + i * steps[1], Op{}(load_value<T>(args[0] + i * steps[0])));
}

template <class T>
bool register_loop(PyObject* numpy, const char* name, PyUFuncGenericFunction fn, const int* types) {
    PyObject* ufunc = PyObject_GetAttrString(numpy, name);
    if (!ufunc) return false;
    const int r = PyUFunc_RegisterLoopForType(reinterpret_cast<PyUFuncObject*>(ufunc), Registry<T>::type_num, fn,
                                              types, nullptr);
    Py_DECREF(ufunc);
    return r == 0;
}

template <class T>
bool register_ufuncs(PyObject* numpy) {
    // NumPy keeps the pointer, so the signatures outlive the call.
    static int unary[2], binary[3], compare[3], predicate[2];
    const int t = Registry<T>::type_num;
    unary[0] = unary[1] = t;
    binary[0] = binary[1] = binary[2] = t;
    compare[0] = compare[1] = t;
    compare[2] = NPY_BOOL;
    predicate[0] = t;
    predicate[1] = NPY_BOOL;
    struct Entry {
        const char* name;
        PyUFuncGenericFunction fn;
        const int* types;
    };
    const Entry entries[] = {
        {"add", loop_binary<T, ops::Add>, binary},
        {"subtract", loop_binary<T, ops::Subtract>, binary},
        {"multiply", loop_binary<T, ops::Multiply>, binary},
        {"true_divide", loop_binary<T, ops::Divide>, binary},
        {"power", loop_binary<T, ops::Power>, binary},
        {"maximum", loop_binary<T, ops::Maximum>, binary},
        {"minimum", loop_binary<T, ops::Minimum>, binary},
        {"fmax", loop_binary<T, ops::Fmax>, binary},
        {"fmin", loop_binary<T, ops::Fmin>, binary},
        {"negative", loop_unary<T, ops::Negative>, unary},
        {"positive", loop_unary<T, ops::Positive>, unary},
        {"absolute", loop_unary<T, ops::Absolute>, unary},
        {"fabs", loop_unary<T, ops::Absolute>, unary},
        {"sign", loop_unary<T, ops::Sign>, unary},
        {"rint", loop_unary<T, ops::Rint>, unary},
        {"floor", loop_unary<T, ops::Floor>, unary},
        {"ceil", loop_unary<T, ops::Ceil>, unary},
        {"trunc", loop_unary<T, ops::Trunc>, unary},
        {"sqrt", loop_unary<T, ops::Sqrt>, unary},
        {"square", loop_unary<T, ops::Square>, unary},
        {"reciprocal", loop_unary<T, ops::Reciprocal>, unary},
        {"exp", loop_unary<T, ops::Exp>, unary},
        {"log", loop_unary<T, ops::Log>, unary},
        {"equal", loop_compare<T, ops::Eq>, compare},
        {"not_equal", loop_compare<T, ops::Ne>, compare},
        {"less", loop_compare<T, ops::Lt>, compare},
        {"less_equal", loop_compare<T, ops::Le>, compare},
        {"greater", loop_compare<T, ops::Gt>, compare},
        {"greater_equal", loop_compare<T, ops::Ge>, compare},
        {"isnan", loop_predicate<T, ops::IsNan>, predicate},
        {"isinf", loop_predicate<T, ops::IsInf>, predicate},
        {"isfinite", loop_predicate<T, ops::IsFinite>, predicate},
        {"signbit", loop_predicate<T, ops::SignBit>, predicate},
    };
    for (const Entry& e : entries)
        if (!register_loop<T>(numpy, e.name, e.fn, e.types)) return false;
    return true;
}

// --- Registration ------------------------------------------------------------

template <class T>
bool register_type(PyObject* module, PyObject* numpy) {
    // A subclass of np.generic only (not np.floating), as in the ml_dtypes
    // package: scripts test np.issubdtype(t, np.floating) to pick NumPy's
    // own float handling (np.finfo), which these types do not support.
    PyObject* bases = PyTuple_Pack(1, reinterpret_cast<PyObject*>(&PyGenericArrType_Type));
    if (!bases) return false;
    PyObject* type = PyType_FromSpecWithBases(&scalar_spec<T>, bases);
    Py_DECREF(bases);
    if (!type) return false;
    Registry<T>::type = reinterpret_cast<PyTypeObject*>(type);

    PyArray_ArrFuncs& f = Registry<T>::funcs;
    PyArray_InitArrFuncs(&f);
    f.getitem = arr_getitem<T>;
    f.setitem = arr_setitem<T>;
    f.copyswap = arr_copyswap<T>;
    f.copyswapn = arr_copyswapn<T>;
    f.nonzero = arr_nonzero<T>;
    f.compare = arr_compare<T>;
    f.argmax = arr_argextreme<T, true>;
    f.argmin = arr_argextreme<T, false>;
    f.fill = arr_fill<T>;
    f.dotfunc = arr_dot<T>;

    PyArray_Descr& d = Registry<T>::descr;
    std::memset(&d, 0, sizeof d);
    Py_SET_TYPE(&d, &PyArrayDescr_Type);
    Py_SET_REFCNT(&d, 1);
    d.typeobj = Registry<T>::type;
    d.kind = 'V';  // the ml_dtypes package's kind: not one of NumPy's float kinds
    d.type = T::type_char;
    d.byteorder = '=';
    d.flags = NPY_USE_SETITEM;
    d.elsize = sizeof(typename T::Bits);
    d.alignment = alignof(typename T::Bits);
    d.f = &f;
    d.hash = -1;
    Registry<T>::type_num = PyArray_RegisterDataType(&d);
    if (Registry<T>::type_num < 0) return false;

    // np.dtype("bfloat16") and friends.
    PyObject* sctypes = PyObject_GetAttrString(numpy, "sctypeDict");
    if (!sctypes || PyDict_SetItemString(sctypes, T::name, type) < 0) {
        Py_XDECREF(sctypes);
        return false;
    }
    Py_DECREF(sctypes);

    if (!register_casts<T>() || !register_ufuncs<T>(numpy)) return false;
    Py_INCREF(type);
    return PyModule_AddObject(module, T::name, type) == 0;
}

template <class From, class... Ts>
bool register_casts_from() {
    return ((std::is_same_v<From, Ts> || register_cross_cast<From, Ts>()) && ...);
}

// The module `def` names, with the types Ts registered in NumPy and casts
// between every pair of them.
template <class... Ts>
PyObject* create_module(PyModuleDef* def) {
    import_array1(nullptr);
    import_umath1(nullptr);
    PyObject* numpy = PyImport_ImportModule("numpy");
    if (!numpy) return nullptr;
    PyObject* m = PyModule_Create(def);
    const bool ok = m && (register_type<Ts>(m, numpy) && ...) && (register_casts_from<Ts, Ts...>() && ...) &&
                    PyModule_AddStringConstant(m, "__version__", "0+ptolab") == 0 &&
                    PyModule_AddStringConstant(m, "implementation", "ptolab") == 0;
    Py_DECREF(numpy);
    if (!ok) {
        if (!PyErr_Occurred())
            PyErr_Format(PyExc_RuntimeError, "%s: registering the NumPy types failed", def->m_name);
        Py_XDECREF(m);
        return nullptr;
    }
    return m;
}

}  // namespace

