// Option parsing shared by the commands.

#include "commands.hpp"

#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>

namespace dlbkit::cli {

std::uint64_t parse_unsigned(const std::string& text, const std::string& option, std::uint64_t max) {
  std::uint64_t value = 0;
  if (!parse_number(text, value) || value > max)
    throw InputError(fmt::format("{}: '{}' is not accepted; accepted: an integer from 0 to {}", option, text, max));
  return value;
}

namespace {

// What an option's CLI11 type accepts, and whether `text` is one: numbers go through the
// shared reader (no hex, no blanks), so CLI11's own, laxer conversion only ever sees decimals.
struct ValueKind {
  const char* accepted;
  bool (*valid)(const std::string& text);
};

template <class T>
bool is_number(const std::string& text) {
  T x{};
  return parse_number(text, x);
}

ValueKind value_kind(const std::string& type_name) {
  if (type_name == "INT") return {"a decimal integer", is_number<long long>};
  if (type_name == "UINT") return {"a decimal whole number", is_number<unsigned long long>};
  if (type_name == "FLOAT") return {"a finite decimal number", is_number<double>};
  return {"a non-empty value", [](const std::string&) { return true; }};
}

}  // namespace

void check_option_values(CLI::App& app) {
  for (CLI::App* command : app.get_subcommands([](CLI::App*) { return true; })) {
    check_option_values(*command);
    for (CLI::Option* option : command->get_options()) {
      if (option->get_expected_min() == 0) continue;  // a flag
      const ValueKind kind = value_kind(option->get_type_name());
      const std::string help = fmt::format("see dlbkit {} --help", command->get_name());
      option->check(CLI::Validator(
          [kind, help](std::string& text) -> std::string {
            if (text.empty()) return fmt::format("'' is empty; accepted: {} ({})", kind.accepted, help);
            if (!kind.valid(text)) return fmt::format("'{}' is not accepted; accepted: {} ({})", text, kind.accepted, help);
            return {};
          },
          ""));
    }
  }
}

}  // namespace dlbkit::cli
