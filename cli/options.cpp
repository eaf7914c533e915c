// Option parsing shared by the commands.

#include "commands.hpp"

#include <dlbkit/core/number.hpp>
#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace dlbkit::cli {

namespace {

// The reason `text` is refused, in the tool's format; the option's name comes first (CLI11).
std::string refusal(const std::string& text, const std::string& accepted) {
  if (text.empty()) return fmt::format("'' is empty; accepted: {}", accepted);
  return fmt::format("'{}' is not accepted; accepted: {}", text, accepted);
}

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
            if (text.empty() || !kind.valid(text)) return refusal(text, fmt::format("{} ({})", kind.accepted, help));
            return {};
          },
          ""));
    }
  }
}

CLI::Validator integer_in(long long min, long long max) {
  const std::string accepted = fmt::format("an integer from {} to {}", min, max);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        long long x = 0;
        return parse_number(text, x) && x >= min && x <= max ? std::string() : refusal(text, accepted);
      },
      fmt::format("in [{}, {}]", min, max));
}

CLI::Validator one_of(const std::vector<std::string>& choices) {
  const std::string accepted = fmt::format("one of {}", fmt::join(choices, ", "));
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        return std::find(choices.begin(), choices.end(), text) != choices.end() ? std::string() : refusal(text, accepted);
      },
      fmt::format("{{{}}}", fmt::join(choices, ",")));
}

std::vector<bool> timeline_selection(const std::string& list, std::size_t nodes) {
  std::vector<bool> chosen = timeline_nodes(list, nodes);
  if (list.empty() && nodes > kTimelineDefaultNodes && launcher_rank() <= 0)
    fmt::print(stderr, "dlbkit: the timeline records nodes {} (the first {} by default); choose with --timeline-nodes "
                       "(e.g. 0-7,12 or all)\n",
               describe_nodes(chosen), kTimelineDefaultNodes);
  return chosen;
}

std::string json_text(const nlohmann::json& j, int indent) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace dlbkit::cli
