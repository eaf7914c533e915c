#include <dlbkit/io/gnuplot.hpp>

#include <dlbkit/io/atomic_file.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <stdexcept>
#include <string_view>
#include <unistd.h>

namespace dlbkit {

bool gnuplot_installed() {
  const char* path = std::getenv("PATH");
  if (path == nullptr) return false;
  for (std::string_view rest = path; !rest.empty();) {
    const std::size_t colon = std::min(rest.find(':'), rest.size());
    const std::string dir(rest.substr(0, colon));
    const std::string program = (dir.empty() ? std::string(".") : dir) + "/gnuplot";
    if (::access(program.c_str(), X_OK) == 0) return true;
    rest.remove_prefix(std::min(colon + 1, rest.size()));
  }
  return false;
}

std::string gnuplot_png_header(const std::string& png, int width, int height, bool enhanced_text) {
  return fmt::format("set terminal pngcairo size {},{}{}\nset output '{}'\nset datafile separator ','\n", width,
                     height, enhanced_text ? "" : " noenhanced", png);
}

std::string gnuplot_string(const std::string& text) {
  std::string out = "'";
  for (const char c : text) out += c == '\'' ? std::string("''") : std::string(1, c);
  return out + "'";
}

void run_gnuplot(const std::string& script_path, const std::string& script) {
  AtomicFile file(script_path);  // never committed: the copy gnuplot runs, removed after
  file.write(script);
  file.close();
  const std::string command = fmt::format("gnuplot '{}' 2>&1", file.written());
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) throw std::runtime_error("cannot start gnuplot");
  std::string output;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) output += buffer;
  const int status = pclose(pipe);
  if (status != 0) {
    if (output.find("not found") != std::string::npos)
      throw std::runtime_error("gnuplot is not installed (Debian package gnuplot-nox)");
    throw std::runtime_error(fmt::format("gnuplot failed on {}: {}", script_path, output));
  }
  // gnuplot exits 0 even when it cannot write its picture (a full disk): check each one.
  for (std::size_t at = script.find("set output '"); at != std::string::npos; at = script.find("set output '", at)) {
    at += 12;
    const std::string png = script.substr(at, script.find('\'', at) - at);
    std::error_code ec;
    if (std::filesystem::file_size(png, ec) == 0 || ec)
      throw std::runtime_error(fmt::format("gnuplot wrote no picture to {} (script {})", png, script_path));
  }
}

}  // namespace dlbkit
