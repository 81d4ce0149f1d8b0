// ptolab._core: the comparison engine, golden readers and the simulator's C
// API for the ptolab package. Arrays cross as NumPy arrays (or anything with
// the buffer protocol, or torch tensors); their data pointers are taken here,
// in C++, never passed in from Python as integers.
#include <ptolab/compare.hpp>
#include <ptolab/golden.hpp>
#include <ptolab/proc.hpp>
#include <ptolab/vlog.hpp>
#include <ptosim/c_api.h>
#include <ptosim/check.hpp>
#include <ptosim/cost.hpp>
#include <ptosim/runtime.hpp>

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>

namespace py = pybind11;

namespace {

struct Buffer {
    const void* data = nullptr;
    uint64_t bytes = 0;
    std::vector<int64_t> shape;
    std::string format;  // buffer-protocol format, or a torch dtype name
    size_t itemsize = 0;
};

std::string torch_dtype_name(py::handle t) {
    std::string s = py::str(t.attr("dtype"));  // "torch.float16"
    return s.rfind("torch.", 0) == 0 ? s.substr(6) : s;
}

bool is_torch_tensor(py::handle o) {
    py::object cls = py::reinterpret_borrow<py::object>(py::type::handle_of(o));
    std::string mod = py::str(cls.attr("__module__"));
    return mod.rfind("torch", 0) == 0 && py::hasattr(o, "data_ptr") && py::hasattr(o, "element_size");
}

// Pointer and extent of a NumPy array, buffer or torch tensor; must be
// C-contiguous because kernels and the comparison read it flat.
Buffer buffer_of(py::handle o, const char* what) {
    Buffer b;
    if (is_torch_tensor(o)) {
        if (!o.attr("is_contiguous")().cast<bool>())
            throw py::value_error(std::string(what) + ": torch tensor is not contiguous; pass tensor.contiguous()");
        std::string dev = py::str(o.attr("device").attr("type"));
        if (dev != "cpu")
            throw py::value_error(std::string(what) + ": torch tensor is on '" + dev +
                                  "'; the simulator reads host memory, move it with tensor.cpu()");
        b.data = reinterpret_cast<const void*>(o.attr("data_ptr")().cast<uintptr_t>());
        b.itemsize = o.attr("element_size")().cast<size_t>();
        for (auto d : o.attr("shape")) b.shape.push_back(d.cast<int64_t>());
        b.bytes = o.attr("numel")().cast<uint64_t>() * b.itemsize;
        b.format = torch_dtype_name(o);
        return b;
    }
    py::buffer buf = py::reinterpret_borrow<py::buffer>(o);
    py::buffer_info info;
    try {
        info = buf.request();
    } catch (const std::exception&) {
        throw py::type_error(std::string(what) + ": expected a NumPy array, a ptolab tensor or a torch CPU tensor, got " +
                             std::string(py::str(py::type::handle_of(o).attr("__name__"))));
    }
    int64_t expect = info.itemsize;
    for (py::ssize_t d = info.ndim; d-- > 0;) {
        if (info.shape[d] > 1 && info.strides[d] != expect)
            throw py::value_error(std::string(what) + ": array is not C-contiguous; pass numpy.ascontiguousarray(a)");
        expect *= info.shape[d];
    }
    b.data = info.ptr;
    b.itemsize = static_cast<size_t>(info.itemsize);
    for (auto s : info.shape) b.shape.push_back(s);
    b.bytes = static_cast<uint64_t>(info.size) * info.itemsize;
    b.format = info.format;
    return b;
}

// The element type of a buffer: an explicit name wins (bfloat16 travels as
// uint16 bits in NumPy), else the buffer format or the torch dtype.
ptolab::DType dtype_of(const Buffer& b, const std::optional<std::string>& name, const char* what) {
    if (name) {
        auto d = ptolab::parse_dtype(*name);
        if (!d) throw py::value_error(std::string(what) + ": unknown dtype '" + *name + "'; use one of " + ptolab::dtype_choices());
        if (ptolab::dtype_size(*d) != b.itemsize)
            throw py::value_error(std::string(what) + ": dtype " + *name + " has " + std::to_string(ptolab::dtype_size(*d)) +
                                  "-byte elements but the array's are " + std::to_string(b.itemsize) + " bytes");
        return *d;
    }
    std::string f = b.format;
    if (auto d = ptolab::parse_dtype(f)) return *d;
    // Buffer-protocol codes: e f d b h i l q B H I L Q ? (optionally with a byte-order prefix)
    if (!f.empty() && (f[0] == '<' || f[0] == '=' || f[0] == '@' || f[0] == '|')) f = f.substr(1);
    if (f.size() == 1) {
        switch (f[0]) {
        case 'e': return ptolab::DType::Float16;
        case 'f': return ptolab::DType::Float32;
        case 'd': return ptolab::DType::Float64;
        case 'b': return ptolab::DType::Int8;
        case 'B': return ptolab::DType::UInt8;
        case '?': return ptolab::DType::Bool;
        case 'h': return ptolab::DType::Int16;
        case 'H': return ptolab::DType::UInt16;
        case 'i': return ptolab::DType::Int32;
        case 'I': return ptolab::DType::UInt32;
        case 'l': case 'q': return b.itemsize == 8 ? ptolab::DType::Int64 : ptolab::DType::Int32;
        case 'L': case 'Q': return b.itemsize == 8 ? ptolab::DType::UInt64 : ptolab::DType::UInt32;
        }
    }
    throw py::type_error(std::string(what) + ": unsupported element format '" + b.format + "'; use " + ptolab::dtype_choices());
}

py::dict report_dict(const ptolab::Report& r) {
    py::dict d;
    d["passed"] = r.passed;
    d["dtype"] = ptolab::dtype_name(r.dtype);
    d["expected_dtype"] = ptolab::dtype_name(r.expected_dtype);
    d["shape"] = py::tuple(py::cast(r.shape));
    d["count"] = r.count;
    d["mismatches"] = r.mismatches;
    d["nonfinite"] = r.nonfinite;
    d["rtol"] = r.rtol;
    d["atol"] = r.atol;
    d["default_tolerance"] = r.default_tolerance;
    d["max_abs_err"] = r.max_abs_err;
    d["max_rel_err"] = r.max_rel_err;
    d["rmse"] = r.rmse;
    d["rms_expected"] = r.rms_expected;
    d["relative_rmse"] = r.relative_rmse;
    d["r2"] = r.r2;
    py::list worst;
    for (const auto& e : r.worst) {
        py::dict w;
        w["index"] = py::tuple(py::cast(e.index));
        w["flat_index"] = e.flat;
        w["actual"] = e.actual;
        w["expected"] = e.expected;
        w["abs_err"] = e.abs_err;
        w["rel_err"] = e.rel_err;
        w["mismatched"] = e.mismatched;
        worst.append(w);
    }
    d["worst"] = worst;
    return d;
}

void check(int rc) {
    if (rc != 0) throw std::runtime_error(ptosim_last_error());
}

// Streams cross as capsules-free opaque objects: the handle never becomes a
// Python integer in this module's interface.
struct StreamHandle {
    void* handle = nullptr;
    bool owned = false;
};

void* stream_of(py::handle s) {
    if (s.is_none()) return nullptr;
    if (py::isinstance<StreamHandle>(s)) return s.cast<StreamHandle&>().handle;
    if (py::hasattr(s, "_handle")) return stream_of(s.attr("_handle"));
    throw py::type_error("expected a ptolab stream (ptolab.current_stream()) or None for the default stream");
}

}  // namespace

PYBIND11_MODULE(_core, m) {
    m.doc() = "ptolab's C++ core: comparison engine, golden files, simulator facts and streams";

    py::register_exception<ptolab::CompareError>(m, "CompareError", PyExc_ValueError);
    py::register_exception<ptolab::GoldenError>(m, "GoldenError", PyExc_ValueError);

    py::class_<ptolab::Report>(m, "Report")
        .def_property_readonly("passed", [](const ptolab::Report& r) { return r.passed; })
        .def("as_dict", &report_dict)
        .def("summary_line", &ptolab::summary_line, py::arg("label"))
        .def("format", &ptolab::format_report, py::arg("label"))
        .def("json", &ptolab::report_json, py::arg("label"), py::arg("indent") = 2);

    m.def(
        "compare",
        [](py::handle actual, py::handle expected, std::optional<double> rtol, std::optional<double> atol,
           bool equal_nan, int worst, bool check_dtype, std::optional<std::string> actual_dtype,
           std::optional<std::string> expected_dtype) {
            Buffer a = buffer_of(actual, "actual"), e = buffer_of(expected, "expected");
            ptolab::ArrayView av{a.data, dtype_of(a, actual_dtype, "actual"), a.shape};
            ptolab::ArrayView ev{e.data, dtype_of(e, expected_dtype, "expected"), e.shape};
            ptolab::CompareOptions o;
            o.rtol = rtol;
            o.atol = atol;
            o.equal_nan = equal_nan;
            o.worst_count = worst;
            o.check_dtype = check_dtype;
            py::gil_scoped_release nogil;
            return ptolab::compare(av, ev, o);
        },
        py::arg("actual"), py::arg("expected"), py::arg("rtol") = py::none(), py::arg("atol") = py::none(),
        py::arg("equal_nan") = false, py::arg("worst") = 8, py::arg("check_dtype") = true,
        py::arg("actual_dtype") = py::none(), py::arg("expected_dtype") = py::none(),
        "Compares two C-contiguous arrays with the seed's tolerances; returns a Report.");

    m.def("default_tolerance", [](const std::string& name) {
        auto d = ptolab::parse_dtype(name);
        if (!d) throw py::value_error("unknown dtype '" + name + "'; use one of " + ptolab::dtype_choices());
        auto t = ptolab::default_tolerance(*d);
        return py::make_tuple(t.rtol, t.atol);
    });
    m.def("canonical_dtype", [](const std::string& name) -> py::object {
        auto d = ptolab::parse_dtype(name);
        if (!d) return py::none();
        return py::str(ptolab::dtype_name(*d));
    });

    m.def(
        "read_golden",
        [](const std::string& path, std::optional<std::string> dtype, std::optional<std::vector<int64_t>> shape) {
            std::optional<ptolab::DType> d;
            if (dtype) {
                d = ptolab::parse_dtype(*dtype);
                if (!d) throw py::value_error("unknown dtype '" + *dtype + "'; use one of " + ptolab::dtype_choices());
            }
            ptolab::Array a = ptolab::read_golden(path, d, shape);
            // NumPy has no bfloat16: its bits come back as uint16, with the name alongside.
            static const char* np_names[] = {"float16", "uint16", "float32", "float64", "int8", "int16", "int32",
                                             "int64", "uint8", "uint16", "uint32", "uint64", "bool"};
            py::dtype dt(np_names[static_cast<int>(a.dtype)]);
            py::array out(dt, a.shape);
            std::memcpy(out.mutable_data(), a.bytes.data(), a.bytes.size());
            return py::make_tuple(out, ptolab::dtype_name(a.dtype));
        },
        py::arg("path"), py::arg("dtype") = py::none(), py::arg("shape") = py::none());

    m.def("bf16_from_float32", [](py::array_t<float, py::array::c_style | py::array::forcecast> a) {
        py::array_t<uint16_t> out(std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim()));
        const float* src = a.data();
        uint16_t* dst = out.mutable_data();
        for (py::ssize_t i = 0; i < a.size(); ++i) dst[i] = ptolab::float_to_bf16(src[i]);
        return out;
    }, "float32 values -> bfloat16 bits (uint16), rounding to nearest even");
    m.def("bf16_to_float32", [](py::array_t<uint16_t, py::array::c_style | py::array::forcecast> a) {
        py::array_t<float> out(std::vector<py::ssize_t>(a.shape(), a.shape() + a.ndim()));
        const uint16_t* src = a.data();
        float* dst = out.mutable_data();
        for (py::ssize_t i = 0; i < a.size(); ++i) dst[i] = ptolab::bf16_to_float(src[i]);
        return out;
    }, "bfloat16 bits (uint16) -> float32 values, exactly");

    m.def("result_lines", &ptolab::result_lines);

    // --- simulator -------------------------------------------------------
    m.def("register_memory", [](py::handle array) {
        Buffer b = buffer_of(array, "register_memory");
        check(ptosim_register_memory(const_cast<void*>(b.data), b.bytes));
    }, "Registers an array's memory as simulated device memory (bounds-checked by kernels).");
    m.def("unregister_memory", [](py::handle array) {
        Buffer b = buffer_of(array, "unregister_memory");
        check(ptosim_unregister_memory(const_cast<void*>(b.data)));
    });
    m.def("is_device_memory", [](py::handle array) {
        Buffer b = buffer_of(array, "is_device_memory");
        return ptosim_is_device_memory(b.data, b.bytes) != 0;
    });
    m.def("soc_name", [] { return std::string(ptosim_soc_name()); });
    // The simulated SoC's figures for rooflines (docs/soc-profiles.md): peaks
    // of the whole chip from the cost model's per-core rates.
    m.def("soc_profile", [] {
        const ptosim::SocProfile* p = ptosim::find_soc(ptosim_soc_name());
        if (!p) throw std::runtime_error("the simulated SoC has no profile");
        const ptosim::cost::Params c = ptosim::cost::params_for(*p);
        py::dict d;
        d["name"] = p->name;
        d["target"] = ptosim_target_name();
        d["cube_cores"] = p->aic;
        d["vector_cores"] = p->aiv;
        d["clock_ghz"] = c.clock_ghz;
        d["gm_gbps"] = c.gm_gbps;
        d["cube_fp16_tflops"] = 2.0 * c.cube_fp16 * c.clock_ghz * p->aic / 1e3;
        d["vector_gbps"] = c.vec_plain * c.clock_ghz * p->aiv;
        return d;
    });
    m.def("target_name", [] { return std::string(ptosim_target_name()); });
    m.def("cube_core_count", &ptosim_cube_core_count);
    m.def("vector_core_count", &ptosim_vector_core_count);
    m.def("ub_bytes", &ptosim_ub_bytes);
    m.def("simulator_mode", [] { return ptosim_simulator_mode() != 0; });
    m.def("default_sync_timeout_s", &ptosim_default_sync_timeout_s);
    // Simulated time (docs/cost-model.md): Event timing on the simulator.
    m.def("enable_timing", [](bool on) { ptosim_enable_timing(on ? 1 : 0); });
    m.def("simulated_time_us", &ptosim_simulated_time_us);
    m.def("last_launch_time_us", &ptosim_last_launch_time_us);
    // The checkers (docs/checkers.md): "" or the error naming a bad word.
    m.def("check_configure", [](const std::string& tools) { return ptosim::check::configure(tools); });
    m.def("check_take_reports", [] {
        std::vector<std::string> out;
        for (const auto& r : ptosim::check::take_reports()) out.push_back(ptosim::check::format_json(r));
        return out;
    });

    py::class_<StreamHandle>(m, "StreamHandle")
        .def_property_readonly("_as_parameter_", [](const StreamHandle& s) {
            // ctypes reads this attribute when the stream is a foreign-call argument.
            py::object ctypes = py::module_::import("ctypes");
            return ctypes.attr("c_void_p")(reinterpret_cast<uintptr_t>(s.handle));
        })
        .def_property_readonly("is_default", [](const StreamHandle& s) { return !s.owned; });
    m.def("default_stream", [] { return StreamHandle{ptosim_default_stream(), false}; });
    m.def("create_stream", [] { return StreamHandle{ptosim_create_stream(), true}; });
    m.def("destroy_stream", [](StreamHandle& s) {
        if (!s.owned || !s.handle) throw py::value_error("only a stream from create_stream can be destroyed, once");
        void* h = s.handle;
        s.handle = nullptr;
        py::gil_scoped_release nogil;
        check(ptosim_destroy_stream(h));
    });
    // Returns (code, message): the Python layer turns a timeout into TimeoutError.
    m.def("synchronize", [](py::handle stream, double timeout_s) {
        void* h = stream_of(stream);
        int rc;
        {
            py::gil_scoped_release nogil;
            rc = ptosim_synchronize(h, timeout_s);
        }
        return py::make_tuple(rc, rc ? std::string(ptosim_last_error()) : std::string());
    }, py::arg("stream"), py::arg("timeout_s") = 0.0);

    m.def("process_timeout", [] {
        auto l = ptolab::process_timeout_from_env();
        return py::make_tuple(l.seconds, l.source);
    });
}
