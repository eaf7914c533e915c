#include <dlbkit/core/number.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dlbkit {

namespace {

std::string bound_text(double v, ParamType type) {
  if (type == ParamType::duration) return format_duration(static_cast<SimTime>(v));
  return fmt::format("{}", v);
}

std::string range_text(const ParamSpec& spec) {
  // A real number's default bounds (+-1e300, which keep sums of such values finite) are
  // said when the other bound is given: "in [0, 1e+300]", not ">= 0" that 1e308 would meet.
  bool has_min = spec.min > -1e299, has_max = spec.max < 1e299;
  if (spec.type == ParamType::real && has_min != has_max) has_min = has_max = true;
  if (has_min && has_max) return fmt::format(" in [{}, {}]", bound_text(spec.min, spec.type), bound_text(spec.max, spec.type));
  if (has_min) return fmt::format(" >= {}", bound_text(spec.min, spec.type));
  if (has_max) return fmt::format(" <= {}", bound_text(spec.max, spec.type));
  return "";
}

}  // namespace

std::string ParamSpec::accepted() const {
  std::string text;
  switch (type) {
    case ParamType::integer: text = "an integer" + range_text(*this); break;
    case ParamType::real: text = "a real number" + range_text(*this); break;
    case ParamType::duration:
      text = fractional ? "a duration such as 6.3ns or 1.3us (fractions of a ns kept, at most 1e6 s)"
                        : "a duration such as 350us or 25ms (whole ns, at most 1e6 s)";
      text += range_text(*this);
      break;
    case ParamType::boolean: text = "true or false"; break;
    case ParamType::choice: text = "one of: " + fmt::format("{}", fmt::join(choices, ", ")); break;
    case ParamType::text: text = "text"; break;
  }
  if (allow_inf) text += ", or inf";
  if (allow_auto) text += ", or auto";
  return text;
}

std::uint64_t parse_unsigned(const std::string& text, const std::string& option, std::uint64_t max) {
  std::uint64_t value = 0;
  if (!parse_number(text, value) || value > max)
    throw InputError(fmt::format("{}: '{}' is not accepted; accepted: an integer from 0 to {}", option, excerpt(text), max));
  return value;
}

std::pair<std::string, std::string> split_assignment(const std::string& text, const std::string& what) {
  const auto eq = text.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
    throw InputError(fmt::format(
        "{}: '{}' is not of the form name=value; accepted: name=value with a non-empty name and value", what, excerpt(text)));
  return {text.substr(0, eq), text.substr(eq + 1)};
}

std::map<std::string, std::string> assignments(std::span<const std::string> items, const std::string& what) {
  std::map<std::string, std::string> out;
  for (const std::string& item : items) {
    auto [name, value] = split_assignment(item, what);
    if (!out.emplace(name, value).second) throw InputError(fmt::format("{}: '{}' is given twice", what, excerpt(name)));
  }
  return out;
}

Parameters Parameters::parse(std::span<const ParamSpec> specs, const std::map<std::string, std::string>& given,
                             const std::string& owner) {
  for (const auto& item : given) {
    const std::string& name = item.first;  // a variable, not a binding: Clang 14 cannot capture bindings
    const bool known = std::any_of(specs.begin(), specs.end(), [&](const ParamSpec& s) { return s.name == name; });
    if (!known) {
      std::vector<std::string> names;
      for (const auto& s : specs) names.push_back(s.name);
      throw InputError(fmt::format("{}: unknown parameter '{}'; accepted: {}", owner, excerpt(name),
                                   names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", "))));
    }
  }
  Parameters out;
  for (const auto& spec : specs) {
    const auto it = given.find(spec.name);
    const std::string text = it != given.end() ? it->second : spec.default_value;
    Value v{spec.type, text, 0, 0};
    const auto bad = [&] {
      throw InputError(fmt::format("{}: parameter {}={} is not accepted; accepted: {}", owner, spec.name, excerpt(text), spec.accepted()));
    };
    if (spec.allow_auto && text == "auto") {
      v.number = std::nan("");
      v.automatic = true;
    } else if (spec.allow_inf && (text == "inf" || text == "infinity")) {
      v.number = INFINITY;
    } else {
      switch (spec.type) {
        case ParamType::integer:
          if (!parse_number(text, v.whole)) bad();
          v.number = static_cast<double>(v.whole);
          break;
        case ParamType::real:
          if (!parse_number(text, v.number)) bad();
          break;
        case ParamType::duration:
          try {
            if (spec.fractional) {
              v.number = parse_fractional_duration(text, owner + " parameter " + spec.name);
              v.whole = std::llround(v.number);
            } else {
              v.whole = parse_duration(text, owner + " parameter " + spec.name);
              v.number = static_cast<double>(v.whole);
            }
          } catch (const InputError&) {
            bad();
          }
          break;
        case ParamType::boolean:
          if (text == "true" || text == "1") v.number = 1;
          else if (text == "false" || text == "0") v.number = 0;
          else bad();
          break;
        case ParamType::choice:
          if (std::find(spec.choices.begin(), spec.choices.end(), text) == spec.choices.end()) bad();
          break;
        case ParamType::text:
          break;
      }
      if (spec.type != ParamType::boolean && spec.type != ParamType::choice && spec.type != ParamType::text &&
          (v.number < spec.min || v.number > spec.max))
        bad();
    }
    out.values_.emplace_back(spec.name, std::move(v));
  }
  return out;
}

const Parameters::Value& Parameters::get(std::string_view name) const {
  for (const auto& [n, v] : values_)
    if (n == name) return v;
  assert(false && "parameter not declared");
  throw std::logic_error("undeclared parameter " + std::string(name));
}

double Parameters::real(std::string_view name) const { return get(name).number; }
long long Parameters::integer(std::string_view name) const { return get(name).whole; }
long long Parameters::duration(std::string_view name) const { return get(name).whole; }
double Parameters::fractional_duration(std::string_view name) const { return get(name).number; }
bool Parameters::boolean(std::string_view name) const { return get(name).number != 0; }
const std::string& Parameters::text(std::string_view name) const { return get(name).text; }
bool Parameters::is_auto(std::string_view name) const { return get(name).automatic; }

nlohmann::json Parameters::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [name, v] : values_) {
    if (v.automatic || v.type == ParamType::choice || v.type == ParamType::text || v.type == ParamType::duration ||
        std::isinf(v.number))
      j[name] = v.text;
    else if (v.type == ParamType::boolean)
      j[name] = v.number != 0;
    else if (v.type == ParamType::integer)
      j[name] = v.whole;
    else
      j[name] = v.number;
  }
  return j;
}

std::string Parameters::to_string() const {
  std::string s;
  for (const auto& [name, v] : values_) s += (s.empty() ? "" : " ") + name + "=" + v.text;
  return s;
}

}  // namespace dlbkit
