// Option parsing shared by the commands.

#include "commands.hpp"

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>

#include <charconv>
#include <fmt/format.h>

namespace dlbkit::cli {

std::uint64_t parse_unsigned(const std::string& text, const std::string& option, std::uint64_t max) {
  std::uint64_t value = 0;
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(text.data(), last, value);
  if (ec != std::errc() || end != last || text.empty() || value > max)
    throw InputError(fmt::format("{}: '{}' is not accepted; accepted: an integer from 0 to {}", option, text, max));
  return value;
}

std::map<std::string, std::string> assignments(const std::vector<std::string>& items, const std::string& what) {
  std::map<std::string, std::string> out;
  for (const std::string& item : items) {
    auto [name, value] = split_assignment(item, what);
    if (!out.emplace(name, value).second) throw InputError(fmt::format("{}: '{}' is given twice", what, name));
  }
  return out;
}

}  // namespace dlbkit::cli
