#include <ptolab/golden.hpp>

#include "file_write.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ptolab {

namespace {

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw GoldenError(path + ": " + what); }

// Read with read(2), not a stream: a directory opens as a stream and then
// throws from deep inside the library instead of saying what is wrong.
std::vector<unsigned char> slurp(const std::string& path) {
    const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) fail(path, std::string("cannot open: ") + std::strerror(errno) + "; check the path");
    struct stat st {};
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        fail(path, "is a directory; pass the output or golden file inside it");
    }
    std::vector<unsigned char> data;
    unsigned char buf[1 << 16];
    for (;;) {
        const ssize_t n = read(fd, buf, sizeof buf);
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) {
            const int err = errno;
            close(fd);
            fail(path, std::string("read error: ") + std::strerror(err));
        }
        if (n == 0) break;
        data.insert(data.end(), buf, buf + n);
    }
    close(fd);
    return data;
}

// The header is a Python dict literal; this reads the three keys NumPy writes
// and rejects anything else rather than guessing.
struct Header {
    std::string descr;
    std::optional<bool> fortran;
    std::optional<std::vector<int64_t>> shape;
};

struct Parser {
    const std::string& s;
    const std::string& path;
    size_t i = 0;
    void ws() {
        while (i < s.size() && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) ++i;
    }
    [[noreturn]] void bad(const std::string& what) {
        fail(path, "malformed .npy header (" + what + " at offset " + std::to_string(i) + " of '" + s +
                       "'); the file is corrupt or not written by numpy.save");
    }
    void expect(char c) {
        ws();
        if (i >= s.size() || s[i] != c) bad(std::string("expected '") + c + "'");
        ++i;
    }
    std::string str() {
        ws();
        if (i >= s.size() || (s[i] != '\'' && s[i] != '"')) bad("expected a string");
        char q = s[i++];
        size_t end = s.find(q, i);
        if (end == std::string::npos) bad("unterminated string");
        std::string v = s.substr(i, end - i);
        i = end + 1;
        return v;
    }
    bool boolean() {
        ws();
        if (s.compare(i, 4, "True") == 0) return i += 4, true;
        if (s.compare(i, 5, "False") == 0) return i += 5, false;
        bad("expected True or False");
    }
    std::vector<int64_t> tuple() {
        expect('(');
        std::vector<int64_t> v;
        for (;;) {
            ws();
            if (i < s.size() && s[i] == ')') return ++i, v;
            size_t start = i;
            while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i;
            if (start == i || i - start > 18) bad("expected a dimension");
            v.push_back(std::stoll(s.substr(start, i - start)));
            ws();
            if (i < s.size() && s[i] == 'L') ++i;  // Python 2 longs
            ws();
            if (i < s.size() && s[i] == ',') ++i;
        }
    }
    Header parse() {
        Header h;
        expect('{');
        for (;;) {
            ws();
            if (i < s.size() && s[i] == '}') break;
            std::string key = str();
            expect(':');
            if (key == "descr") {
                ws();
                if (i < s.size() && s[i] == '[')
                    fail(path, "holds a structured (record) dtype; save a plain numeric array instead");
                h.descr = str();
            } else if (key == "fortran_order") {
                h.fortran = boolean();
            } else if (key == "shape") {
                h.shape = tuple();
            } else {
                bad("unknown key '" + key + "'");
            }
            ws();
            if (i < s.size() && s[i] == ',') ++i;
        }
        if (h.descr.empty() || !h.fortran || !h.shape) bad("missing descr, fortran_order or shape");
        return h;
    }
};

DType descr_dtype(const std::string& path, const std::string& descr, std::optional<DType> want) {
    if (descr.size() < 3) fail(path, "unsupported dtype descr '" + descr + "'");
    const char order = descr[0];
    const std::string code = descr.substr(1);
    if (order == '>' && code != "i1" && code != "u1" && code != "b1")
        fail(path, "holds big-endian data ('" + descr + "'); save it little-endian, e.g. np.save(path, "
                   "a.astype(a.dtype.newbyteorder('<')))");
    if (order != '<' && order != '|' && order != '=' && order != '>')
        fail(path, "unsupported dtype descr '" + descr + "'");
    if (want == DType::BFloat16 && (code == "u2" || code == "i2" || code == "V2")) return DType::BFloat16;
    if (code == "V2")
        fail(path, "holds 2-byte opaque values ('" + descr + "'), which is how bfloat16 is saved; pass --dtype "
                   "bfloat16 (Python: dtype='bfloat16')");
    std::optional<DType> d = parse_dtype(code);
    if (!d || code.size() != 2)
        fail(path, "unsupported dtype descr '" + descr + "'; supported: " + dtype_choices());
    if (want && *want != *d)
        fail(path, std::string("holds ") + dtype_name(*d) + " data but " + dtype_name(*want) +
                       " was requested; drop the dtype option or convert the file");
    return *d;
}

}  // namespace

std::vector<int64_t> parse_shape(const std::string& text) {
    std::vector<int64_t> v;
    std::string cur;
    auto flush = [&] {
        if (cur.empty()) return;
        size_t used = 0;
        long long n = -1;
        try {
            n = std::stoll(cur, &used);
        } catch (...) {
        }
        if (used != cur.size() || n < 0)
            throw GoldenError("shape '" + text + "': '" + cur + "' is not a non-negative whole number; write e.g. 2,3");
        v.push_back(n);
        cur.clear();
    };
    for (char c : text) {
        if (c == ',' || c == 'x' || c == 'X') {
            if (cur.empty() && c != ',') throw GoldenError("shape '" + text + "': empty dimension; write e.g. 2,3");
            flush();
        } else if (c == '(' || c == ')' || c == '[' || c == ']' || c == ' ') {
            flush();
        } else {
            cur += c;
        }
    }
    flush();
    return v;
}

Array read_npy(const std::string& path, std::optional<DType> dtype) {
    std::vector<unsigned char> data = slurp(path);
    static const unsigned char magic[] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
    if (data.empty())
        fail(path, "is empty (0 bytes): it was created but never written; check that the kernel or script that "
                   "makes it ran to the end");
    if (data.size() < 10 && std::memcmp(data.data(), magic, std::min<size_t>(data.size(), 6)) == 0)
        fail(path, "truncated .npy header: " + std::to_string(data.size()) +
                       " bytes, the fixed part alone is 10; regenerate it with numpy.save");
    if (data.size() < 10 || std::memcmp(data.data(), magic, 6) != 0)
        fail(path, "not a .npy file (no \\x93NUMPY magic); for raw data use a .bin name with --dtype and --shape");
    const int major = data[6];
    size_t hlen, off;
    if (major == 1) {
        hlen = data[8] | (data[9] << 8);
        off = 10;
    } else if (major == 2 || major == 3) {
        if (data.size() < 12) fail(path, "truncated .npy header");
        hlen = data[8] | (data[9] << 8) | (size_t(data[10]) << 16) | (size_t(data[11]) << 24);
        off = 12;
    } else {
        fail(path, ".npy format version " + std::to_string(major) + " is not supported (1, 2 and 3 are)");
    }
    if (data.size() < off + hlen)
        fail(path, "truncated .npy header: it declares " + std::to_string(hlen) + " header bytes, the file has " +
                       std::to_string(data.size() - off));
    std::string htext(reinterpret_cast<const char*>(data.data() + off), hlen);
    Header h = Parser{htext, path}.parse();
    if (*h.fortran)
        fail(path, "holds Fortran-order data; save a C-order copy with np.save(path, np.ascontiguousarray(a))");
    Array a;
    a.dtype = descr_dtype(path, h.descr, dtype);
    a.shape = *h.shape;
    int64_t n;
    try {
        n = element_count(a.shape);
    } catch (const CompareError& e) {
        fail(path, e.what());
    }
    const size_t itemsize = dtype_size(a.dtype);
    const size_t have = data.size() - off - hlen;
    // Compared by division first so an absurd header shape cannot overflow.
    const bool truncated = static_cast<uint64_t>(n) > have / itemsize;
    if (truncated || have != static_cast<size_t>(n) * itemsize)
        fail(path, std::string(truncated ? "truncated" : "has trailing bytes") + ": the header says " +
                       shape_string(a.shape) + " " + dtype_name(a.dtype) + " = " + std::to_string(n) + " elements of " +
                       std::to_string(itemsize) + " bytes, the file holds " + std::to_string(have) +
                       " data bytes; regenerate it with numpy.save");
    a.bytes.assign(data.begin() + off + hlen, data.end());
    return a;
}

static Array raw_array(const std::string& path, std::vector<unsigned char> data, DType dtype,
                       const std::vector<int64_t>& shape) {
    const size_t itemsize = dtype_size(dtype);
    Array a;
    a.dtype = dtype;
    a.shape = shape;
    int64_t n;
    try {
        n = element_count(shape);
    } catch (const CompareError& e) {
        fail(path, e.what());
    }
    const uint64_t want = static_cast<uint64_t>(n) * itemsize;
    if (data.size() != want) {
        std::string hint = data.size() % itemsize == 0
                               ? " (it holds " + std::to_string(data.size() / itemsize) + " " + dtype_name(dtype) +
                                     " elements)"
                               : " (not a whole number of " + std::string(dtype_name(dtype)) + " elements)";
        fail(path, "size mismatch: shape " + shape_string(shape) + " " + dtype_name(dtype) + " needs " +
                       std::to_string(want) + " bytes, the file has " + std::to_string(data.size()) + hint +
                       "; check --dtype and --shape, or whether the file was truncated");
    }
    a.bytes = std::move(data);
    return a;
}

Array read_bin(const std::string& path, DType dtype, const std::vector<int64_t>& shape) {
    return raw_array(path, slurp(path), dtype, shape);
}

Array read_golden(const std::string& path, std::optional<DType> dtype, std::optional<std::vector<int64_t>> shape) {
    const bool npy = path.size() >= 4 && path.compare(path.size() - 4, 4, ".npy") == 0;
    if (npy) {
        Array a = read_npy(path, dtype);
        if (shape && *shape != a.shape) {
            if (element_count(*shape) != element_count(a.shape))
                fail(path, "holds shape " + shape_string(a.shape) + ", which cannot be viewed as the requested " +
                               shape_string(*shape));
            a.shape = *shape;  // same elements, another view: as numpy reshape
        }
        return a;
    }
    if (!dtype)
        fail(path, "raw file needs its element type: pass --dtype (one of " + std::string(dtype_choices()) +
                       "), or save the golden with numpy.save as .npy");
    if (shape) return raw_array(path, slurp(path), *dtype, *shape);
    // Without a shape a raw file is flat; its size must still be whole elements.
    std::vector<unsigned char> data = slurp(path);
    const uint64_t size = data.size();
    if (size % dtype_size(*dtype) != 0)
        fail(path, "size " + std::to_string(size) + " bytes is not a whole number of " + dtype_name(*dtype) +
                       " elements; check --dtype, or whether the file was truncated");
    return raw_array(path, std::move(data), *dtype, {static_cast<int64_t>(size / dtype_size(*dtype))});
}

void write_npy(const std::string& path, const Array& a) {
    std::string descr;
    switch (a.dtype) {
    case DType::BFloat16: descr = "<u2"; break;
    case DType::Int8: descr = "|i1"; break;
    case DType::UInt8: descr = "|u1"; break;
    case DType::Bool: descr = "|b1"; break;
    default: {
        static const char* codes[] = {"f2", "", "f4", "f8", "", "i2", "i4", "i8", "", "u2", "u4", "u8"};
        descr = std::string("<") + codes[static_cast<int>(a.dtype)];
    }
    }
    std::string shape = shape_string(a.shape);
    std::string h = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    const size_t total = 10 + h.size() + 1;
    h.append((64 - total % 64) % 64, ' ');
    h += '\n';
    const unsigned char pre[] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0, static_cast<unsigned char>(h.size() & 0xff),
                                 static_cast<unsigned char>(h.size() >> 8)};
    std::string file(reinterpret_cast<const char*>(pre), sizeof pre);
    file += h;
    file.append(reinterpret_cast<const char*>(a.bytes.data()), a.bytes.size());
    try {
        common::write_file(path, file);
    } catch (const common::WriteError& e) {
        throw GoldenError(e.what());
    }
}

}  // namespace ptolab
