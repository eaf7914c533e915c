#include <dlbkit/error.hpp>

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <string_view>
#include <thread>

namespace dlbkit {

namespace {

// An error is one line whatever the user typed: control characters echoed from the input
// (a newline in a spec, an escape sequence) are written as C escapes.
std::string one_line(std::string_view message) {
  std::string out;
  for (const char c : message) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '\n') out += "\\n";
    else if (c == '\r') out += "\\r";
    else if (c == '\t') out += "\\t";
    else if (u < 0x20 || u == 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += c;
  }
  return out;
}

}  // namespace

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

int print_error_here(const std::exception& error) {
  const bool input = dynamic_cast<const InputError*>(&error) != nullptr;
  fmt::print(stderr, "dlbkit: {}: {}\n", input ? "error" : "failed", one_line(error.what()));
  return input ? 2 : 1;
}

int print_error(const std::exception& error) {
  if (launcher_rank() <= 0) return print_error_here(error);
  // Every rank found the error (bad options are found before any rank talks to another), and
  // this rank's exit makes the launcher end the job: it waits a moment so that rank 0's line
  // is out before then (Open MPI drops what a killed rank had not yet forwarded).
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  return dynamic_cast<const InputError*>(&error) != nullptr ? 2 : 1;
}

}  // namespace dlbkit
