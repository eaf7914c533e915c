#include <dlbkit/io/atomic_file.hpp>
#include <dlbkit/error.hpp>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

namespace dlbkit {

namespace {

std::atomic<unsigned> next_temporary{0};

// O_EXCL: a name nobody else has; the mode of a new file, 0666 less the umask, or the
// mode of the file it will replace.
int create_beside(const std::string& path, std::string& name, const struct stat* existing) {
  for (;;) {
    name = fmt::format("{}.tmp-{}-{}", path, ::getpid(), next_temporary.fetch_add(1));
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0 && existing != nullptr) ::fchmod(fd, existing->st_mode & 07777);
    if (fd >= 0 || errno != EEXIST) return fd;
  }
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  struct stat st {};
  const bool exists = ::stat(path_.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) fail(EISDIR);
  if (exists && ::access(path_.c_str(), W_OK) != 0) fail(errno);  // a rename would pass over its protection
  std::string target = path_;
  if (exists && !S_ISREG(st.st_mode)) {
    file_ = std::fopen(path_.c_str(), "w");
  } else {
    // A symbolic link stays one: the file it names is replaced.
    if (char* real = exists ? ::realpath(path_.c_str(), nullptr) : nullptr; real != nullptr) {
      target = real;
      std::free(real);
    }
    std::string name;
    const int fd = create_beside(target, name, exists ? &st : nullptr);
    if (fd < 0) fail(errno);
    temporary_.emplace(std::move(name));
    file_ = ::fdopen(fd, "w");
    if (file_ == nullptr) ::close(fd);
  }
  if (file_ == nullptr) fail(errno);
  target_ = std::move(target);
}

AtomicFile::~AtomicFile() {
  if (file_ != nullptr) std::fclose(file_);
}

void AtomicFile::write(std::string_view text) {
  if (file_ == nullptr || error_ != 0) return;
  if (std::fwrite(text.data(), 1, text.size(), file_) != text.size()) error_ = errno != 0 ? errno : EIO;
}

void AtomicFile::close() {
  if (file_ == nullptr) return;
  if (error_ == 0 && std::fflush(file_) != 0) error_ = errno;
  if (std::fclose(file_) != 0 && error_ == 0) error_ = errno;
  file_ = nullptr;
  if (error_ != 0) fail(error_);
}

void AtomicFile::commit() {
  close();
  if (error_ != 0) fail(error_);  // closed by an earlier close() that threw
  if (!temporary_) return;
  if (std::rename(temporary_->path().c_str(), target_.c_str()) != 0) fail(errno);
  temporary_->keep();
}

const std::string& AtomicFile::written() const { return temporary_ ? temporary_->path() : path_; }

void AtomicFile::fail(int err) const {
  throw InputError(fmt::format("{}: cannot be written ({}); accepted: a path to a writable file", path_,
                               std::strerror(err)));
}

}  // namespace dlbkit
