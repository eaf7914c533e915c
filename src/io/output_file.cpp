#include <dlbkit/io/output_file.hpp>
#include <dlbkit/error.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>

namespace dlbkit {

void write_text_file(const std::string& path, std::string_view text) {
  const auto fail = [&](int err) {
    throw InputError(fmt::format("{}: cannot be written ({}); accepted: a path to a writable file", path, std::strerror(err)));
  };
  std::FILE* file = std::fopen(path.c_str(), "w");
  if (file == nullptr) fail(errno);
  const bool written = std::fwrite(text.data(), 1, text.size(), file) == text.size() && std::fflush(file) == 0;
  const int err = errno;
  if (std::fclose(file) != 0 || !written) fail(written ? errno : err);
}

}  // namespace dlbkit
