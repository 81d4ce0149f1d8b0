#include "file_write.hpp"

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ptolab::common {

WriteError::WriteError(const std::string& p, int err)
    : std::runtime_error("cannot write " + p + ": " + std::strerror(err)), path(p), error(err) {}

namespace {

// An open descriptor whose writes and close are all checked; a failure
// throws WriteError naming `shown`, the path the caller gave.
class CheckedFd {
public:
    CheckedFd(int fd, std::string shown) : fd_(fd), shown_(std::move(shown)) {
        if (fd_ < 0) throw WriteError(shown_, errno);
    }
    CheckedFd(const CheckedFd&) = delete;
    CheckedFd& operator=(const CheckedFd&) = delete;
    ~CheckedFd() {
        if (fd_ >= 0) ::close(fd_);
    }
    int fd() const { return fd_; }
    void write_all(std::string_view data, off_t offset = -1) {
        size_t done = 0;
        while (done < data.size()) {
            const ssize_t n = offset < 0 ? ::write(fd_, data.data() + done, data.size() - done)
                                         : ::pwrite(fd_, data.data() + done, data.size() - done,
                                                    offset + static_cast<off_t>(done));
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) throw WriteError(shown_, errno);
            if (n == 0) throw WriteError(shown_, EIO);
            done += static_cast<size_t>(n);
        }
    }
    void sync() {
        if (::fsync(fd_) != 0 && errno != EINVAL && errno != EROFS) throw WriteError(shown_, errno);
    }
    // Some file systems (NFS) report a failed write-back only here.
    void close() {
        const int fd = fd_;
        fd_ = -1;
        if (::close(fd) != 0 && errno != EINTR) throw WriteError(shown_, errno);
    }

private:
    int fd_;
    std::string shown_;
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// The file a rename must replace: `path` itself, or the target of its
// symlinks (renaming onto the link would replace the link). Empty when the
// path must be written in place.
std::string rename_target(const std::string& path) {
    std::string abs = path;
    if (!starts_with(abs, "/")) {
        char cwd[PATH_MAX];
        if (getcwd(cwd, sizeof cwd)) abs = std::string(cwd) + "/" + path;
    }
    if (starts_with(abs, "/dev/") || starts_with(abs, "/proc/")) return "";
    struct stat st {};
    if (stat(path.c_str(), &st) != 0) return errno == ENOENT ? path : "";  // a dangling link: let the temp file fail
    if (!S_ISREG(st.st_mode)) return "";
    struct stat lst {};
    if (lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char* real = realpath(path.c_str(), nullptr);
        if (!real) return "";
        std::string r = real;
        std::free(real);
        return r;
    }
    return path;
}

std::string directory_of(const std::string& path) {
    const size_t slash = path.rfind('/');
    if (slash == std::string::npos) return ".";
    return slash == 0 ? "/" : path.substr(0, slash);
}

void write_in_place(const std::string& path, std::string_view data) {
    CheckedFd f(::open(path.c_str(), O_WRONLY | O_APPEND | O_CLOEXEC), path);
    f.write_all(data);
    f.close();
}

}  // namespace

void write_file(const std::string& path, std::string_view data, WriteOptions options) {
    const std::string target = rename_target(path);
    if (target.empty()) return write_in_place(path, data);

    mode_t mode = 0666;  // a new file: as open(2) with the umask would make it
    bool keep_mode = false;
    struct stat st {};
    if (stat(target.c_str(), &st) == 0) {
        mode = st.st_mode & 07777;
        keep_mode = true;
    }
    const std::string dir = directory_of(target);
    const size_t slash = target.rfind('/');
    const std::string name = slash == std::string::npos ? target : target.substr(slash + 1);
    static std::atomic<unsigned> serial{0};
    std::string tmp;
    int fd = -1;
    for (int attempt = 0; fd < 0; ++attempt) {
        tmp = dir + "/." + name + ".tmp" + std::to_string(getpid()) + "-" + std::to_string(serial++);
        fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
        if (fd < 0 && (errno != EEXIST || attempt > 100)) throw WriteError(path, errno);
    }
    try {
        CheckedFd f(fd, path);
        if (keep_mode && fchmod(f.fd(), mode) != 0) throw WriteError(path, errno);  // the umask narrowed it
        f.write_all(data);
        if (options.durable) f.sync();
        f.close();
        if (::rename(tmp.c_str(), target.c_str()) != 0) throw WriteError(path, errno);
    } catch (...) {
        ::unlink(tmp.c_str());
        throw;
    }
    if (options.durable) {
        // Makes the rename itself survive a crash.
        CheckedFd d(::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), dir);
        d.sync();
        d.close();
    }
}

void append_file(const std::string& path, std::string_view data) {
    CheckedFd f(::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666), path);
    f.write_all(data);
    f.close();
}

void overwrite_tail(const std::string& path, off_t offset, std::string_view data) {
    CheckedFd f(::open(path.c_str(), O_WRONLY | O_CLOEXEC), path);
    f.write_all(data, offset);
    struct stat st {};
    if (fstat(f.fd(), &st) == 0 && S_ISREG(st.st_mode) &&
        ftruncate(f.fd(), offset + static_cast<off_t>(data.size())) != 0)
        throw WriteError(path, errno);
    f.close();
}

}  // namespace ptolab::common
