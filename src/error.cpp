#include <dlbkit/error.hpp>

#include <chrono>
#include <cstdlib>
#include <fmt/format.h>
#include <string>
#include <string_view>
#include <thread>

namespace dlbkit {

namespace {

// The length of the valid UTF-8 sequence of 2 to 4 bytes at the start of `s`, or 0.
std::size_t utf8_length(std::string_view s) {
  const auto byte = [&](std::size_t i) { return i < s.size() ? static_cast<unsigned char>(s[i]) : 0U; };
  const unsigned lead = byte(0);
  std::size_t n = 0;
  unsigned low = 0x80, high = 0xBF;  // the range of the second byte, narrower where overlong or a surrogate
  if (lead >= 0xC2 && lead <= 0xDF) n = 2;
  else if (lead >= 0xE0 && lead <= 0xEF) n = 3, low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
  else if (lead >= 0xF0 && lead <= 0xF4) n = 4, low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
  else return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  return n;
}

}  // namespace

std::string excerpt(std::string_view text, std::size_t max_chars) {
  std::string out;
  std::size_t chars = 0;
  for (std::size_t i = 0; i < text.size(); ++chars) {
    if (chars == max_chars) return out + "...";
    const auto u = static_cast<unsigned char>(text[i]);
    const std::size_t n = u >= 0x80 ? utf8_length(text.substr(i)) : 1;
    if (n > 1) out.append(text.substr(i, n));
    else if (u == '\n') out += "\\n";
    else if (u == '\r') out += "\\r";
    else if (u == '\t') out += "\\t";
    else if (u < 0x20 || u >= 0x7f) out += fmt::format("\\x{:02x}", u);
    else out += text[i];
    i += n == 0 ? 1 : n;
  }
  return out;
}

int launcher_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMI_RANK", "PMIX_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

int print_error_here(const std::exception& error) {
  if (dynamic_cast<const HelpRequested*>(&error) != nullptr) {
    fmt::print("{}", error.what());
    return 0;
  }
  const bool input = dynamic_cast<const InputError*>(&error) != nullptr;
  // One line whatever the user typed: what the message echoes is escaped as in an excerpt.
  fmt::print(stderr, "dlbkit: {}: {}\n", input ? "error" : "failed", excerpt(error.what(), std::string_view::npos));
  return input ? 2 : 1;
}

int print_error(const std::exception& error) {
  if (launcher_rank() <= 0) return print_error_here(error);
  if (dynamic_cast<const HelpRequested*>(&error) != nullptr) return 0;  // no job to end: every rank exits 0
  // Every rank found the error (bad options are found before any rank talks to another), and
  // this rank's exit makes the launcher end the job: it waits a moment so that rank 0's line
  // is out before then (Open MPI drops what a killed rank had not yet forwarded).
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  return dynamic_cast<const InputError*>(&error) != nullptr ? 2 : 1;
}

}  // namespace dlbkit
