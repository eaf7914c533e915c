// Option parsing shared by the commands.

#include "commands.hpp"

#include <dlbkit/error.hpp>

#include <charconv>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

std::uint64_t parse_unsigned(const std::string& text, const std::string& option, std::uint64_t max) {
  std::uint64_t value = 0;
  const char* last = text.data() + text.size();
  auto [end, ec] = std::from_chars(text.data(), last, value);
  if (ec != std::errc() || end != last || text.empty() || value > max)
    throw InputError(fmt::format("{}: '{}' is not accepted; accepted: an integer from 0 to {}", option, text, max));
  return value;
}

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace dlbkit::cli
