#pragma once
/// \file
/// Typed, validated parameters for strategies, workloads and cost models.
/// A component declares its parameters as ParamSpecs; user text ("u=0.9", "l_low=inf") is
/// checked against them once, at the edge, and an unknown name or a bad value is an
/// InputError that names it and lists what is accepted.

#include <array>
#include <cassert>
#include <map>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace dlbkit {

/// text: any text, which the component reads and checks itself (a UTS tree spec).
enum class ParamType { integer, real, duration, boolean, choice, text };

struct ParamSpec {
  std::string name;
  ParamType type = ParamType::real;
  std::string default_value;  ///< in user syntax; "auto" where the component derives it
  std::string description;
  double min = -1e300;        ///< inclusive bounds for integer, real and duration (in ns)
  double max = 1e300;
  bool allow_inf = false;     ///< a real that may be "inf"
  bool allow_auto = false;    ///< the value "auto" means: the component derives it
  bool fractional = false;    ///< a duration that may be a fraction of a nanosecond (a time per unit of work)
  std::vector<std::string> choices;  ///< for ParamType::choice
  /// The values besides the default that `dlbkit advise` tries (docs/cli.md): its search,
  /// every combination of the searched parameters' values, the default first. Empty: advise
  /// keeps the default.
  std::vector<std::string> search;

  /// "real in [0, 1]", "integer >= 1, or auto", "one of: sender, receiver".
  std::string accepted() const;
};

/// A parameter declared once, at compile time, with the fields of ParamSpec and its type: a
/// component lists it among its ParamSpecs and reads its value with it (Parameters::operator[]),
/// so that the name is written in one place.
///
/// ```
/// static constexpr RealParam kU{.name = "u", .default_value = "0.9", .description = "...", .min = 1e-9, .max = 1};
/// static std::vector<ParamSpec> params() { return {kU}; }
/// explicit Rid(const Parameters& p) : update_(p[kU]) {}
/// ```
template <ParamType Type>
struct Param {
  std::string_view name;
  std::string_view default_value;
  std::string_view description;
  double min = -1e300;
  double max = 1e300;
  bool allow_inf = false;
  bool allow_auto = false;
  bool fractional = false;
  std::array<std::string_view, 8> choices{};  ///< for ParamType::choice (at most 8); the empty ones unused
  std::array<std::string_view, 4> search{};   ///< as ParamSpec::search (at most 4); the empty ones unused

  /// `value` as one of the choices, checked when compiled (a value that is none of them does
  /// not compile): `p[kMode] == kMode.choice("pull")`.
  consteval std::string_view choice(std::string_view value) const {
    for (std::string_view c : choices)
      if (!c.empty() && c == value) return value;
    throw "not one of the parameter's choices";
  }

  /// The same parameter with another search: for one shared by components that try
  /// different values of it (`kLoadUpdateFactor.searching({"0.5"})` in a params() list).
  consteval Param searching(std::array<std::string_view, 4> values) const {
    Param p = *this;
    p.search = values;
    return p;
  }

  operator ParamSpec() const {  // implicit: a Param is listed where ParamSpecs are
    ParamSpec spec{.name = std::string(name), .type = Type, .default_value = std::string(default_value),
                   .description = std::string(description), .min = min, .max = max, .allow_inf = allow_inf,
                   .allow_auto = allow_auto, .fractional = fractional};
    for (std::string_view choice : choices)
      if (!choice.empty()) spec.choices.emplace_back(choice);
    for (std::string_view value : search)
      if (!value.empty()) spec.search.emplace_back(value);
    return spec;
  }
};
using IntegerParam = Param<ParamType::integer>;
using RealParam = Param<ParamType::real>;
using DurationParam = Param<ParamType::duration>;
using BooleanParam = Param<ParamType::boolean>;
using ChoiceParam = Param<ParamType::choice>;
using TextParam = Param<ParamType::text>;

/// Parameter values after validation. Reading a name that was not declared is a bug
/// (asserted), not an input error.
class Parameters {
public:
  Parameters() = default;

  /// Validates `given` (name -> text) against `specs`; missing names take their defaults.
  /// `owner` names the component in error messages ("strategy rid").
  static Parameters parse(std::span<const ParamSpec> specs, const std::map<std::string, std::string>& given,
                          const std::string& owner);

  double real(std::string_view name) const;        ///< real or integer; inf allowed if declared
  long long integer(std::string_view name) const;
  long long duration(std::string_view name) const; ///< nanoseconds (a fractional duration rounded)
  double fractional_duration(std::string_view name) const;  ///< nanoseconds, the fraction kept
  bool boolean(std::string_view name) const;
  const std::string& text(std::string_view name) const;  ///< the value as written (choices, text)
  bool is_auto(std::string_view name) const;

  /// The value of `param` as its type reads it: real(), integer(), duration() (whole ns; a
  /// fractional duration is read by fractional_duration()), boolean() or text().
  template <ParamType Type>
  decltype(auto) operator[](const Param<Type>& param) const {
    if constexpr (Type == ParamType::real) return real(param.name);
    if constexpr (Type == ParamType::integer) return integer(param.name);
    if constexpr (Type == ParamType::duration) {
      assert(!param.fractional);
      return duration(param.name);
    }
    if constexpr (Type == ParamType::boolean) return boolean(param.name);
    if constexpr (Type == ParamType::choice || Type == ParamType::text) return text(param.name);
  }
  template <ParamType Type>
  bool is_auto(const Param<Type>& param) const { return is_auto(param.name); }

  /// {name: value}, numbers as numbers, so a run can be repeated from its JSON.
  nlohmann::json to_json() const;
  /// "u=0.9 l_low=auto ...", in declaration order.
  std::string to_string() const;

private:
  struct Value {
    ParamType type;
    std::string text;
    double number = 0;   // every numeric type; NaN for auto; a fractional duration's exact ns
    long long whole = 0; // integer and duration (ns), exact (a fractional duration: rounded)
    bool automatic = false; // "auto" where the spec allows it (a text value "auto" is just text)
  };
  const Value& get(std::string_view name) const;
  std::vector<std::pair<std::string, Value>> values_;
};

/// An unsigned option read as text and checked: from_chars, the whole text, at most `max`
/// (a parser that wraps "-1" round to 2^64 - 1 would not do). Throws InputError naming
/// `option`, the text and the range.
std::uint64_t parse_unsigned(const std::string& text, const std::string& option, std::uint64_t max);
/// Splits "name=value" into its two parts; throws InputError naming `text` otherwise.
std::pair<std::string, std::string> split_assignment(const std::string& text, const std::string& what);
/// Items "name=value" (split_assignment) as a map; a name given twice is an InputError
/// naming `what`.
std::map<std::string, std::string> assignments(std::span<const std::string> items, const std::string& what);

}  // namespace dlbkit
