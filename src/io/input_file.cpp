#include <dlbkit/io/input_file.hpp>
#include <dlbkit/error.hpp>

#include <cerrno>
#include <fmt/format.h>
#include <sys/stat.h>
#include <system_error>

namespace dlbkit {

namespace {

// What a path that is not a regular file is, in the words of the error.
const char* kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

[[noreturn]] void refuse(std::string_view name, std::string_view problem, std::string_view accepted) {
  throw InputError(fmt::format("{}: {}; accepted: {}", name, problem, accepted));
}

}  // namespace

std::ifstream open_input_file(const std::string& path, std::string_view name, std::uint64_t max_bytes,
                              std::string_view accepted) {
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0)
    refuse(name, fmt::format("cannot be read ({})", std::error_code(errno, std::generic_category()).message()), accepted);
  if (!S_ISREG(info.st_mode)) refuse(name, kind_of(info.st_mode), accepted);
  if (static_cast<std::uint64_t>(info.st_size) > max_bytes)
    refuse(name, fmt::format("{} bytes, larger than {} bytes", info.st_size, max_bytes), accepted);
  std::ifstream in(path, std::ios::binary);
  if (!in) refuse(name, "cannot be read", accepted);
  return in;
}

std::string read_input_file(const std::string& path, std::string_view name, std::uint64_t max_bytes,
                            std::string_view accepted) {
  std::ifstream in = open_input_file(path, name, max_bytes, accepted);
  std::string text;
  char chunk[1 << 16];
  while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
    text.append(chunk, static_cast<std::size_t>(in.gcount()));
    if (text.size() > max_bytes) refuse(name, fmt::format("larger than {} bytes", max_bytes), accepted);
  }
  if (in.bad()) refuse(name, "cannot be read", accepted);
  return text;
}

}  // namespace dlbkit
