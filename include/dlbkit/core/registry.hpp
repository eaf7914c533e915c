#pragma once
/// \file
/// Components created by name, with a description, the paper section they follow and
/// typed parameters. Strategies and workloads each have a registry of this shape.
///
/// ```
/// const auto& registry = dlbkit::builtin_strategies();           // strategies/builtin_strategies.hpp
/// dlbkit::StrategyChoice rid = registry.configure("rid", {{"u", "0.9"}});
/// std::unique_ptr<dlbkit::Strategy> agent = rid.create();         // one per node
/// ```

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/strategy.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace dlbkit {

/// An Info with validated parameters: everything needed to create the component.
template <class Info>
struct Choice {
  const Info* info = nullptr;
  Parameters params;

  auto create() const { return info->create(params); }
  const std::string& name() const { return info->name; }
};

/// `Info` has name, description, source, params, create(const Parameters&) and a static
/// `kind` ("strategy", "workload") used in messages.
template <class Info>
class Registry {
public:
  /// Adds a component; a second one with the same name is a programming error.
  void add(Info info) {
    for ([[maybe_unused]] const auto& known : items_) assert(known.name != info.name);
    items_.push_back(std::move(info));
  }
  /// Throws InputError listing the known names when `name` is unknown.
  const Info& find(const std::string& name) const {
    for (const auto& item : items_)
      if (item.name == name) return item;
    std::string names;
    for (const auto& item : items_) names += (names.empty() ? "" : ", ") + item.name;
    throw InputError("unknown " + std::string(Info::kind) + " '" + name + "'; accepted: " + names);
  }
  /// find() plus Parameters::parse().
  Choice<Info> configure(const std::string& name, const std::map<std::string, std::string>& params) const {
    const Info& info = find(name);
    return Choice<Info>{&info, Parameters::parse(info.params, params, std::string(Info::kind) + " " + name)};
  }
  const std::vector<Info>& all() const { return items_; }

private:
  std::vector<Info> items_;
};

/// How to build a strategy's agent in storage its engine owns: the simulator keeps every
/// node's agent in one array (a million agents allocated one by one would be scattered over
/// the heap, and each node's first event would miss on it).
struct InPlace {
  std::size_t size = 0;
  std::size_t align = 0;
  /// Builds the agent at `where` (size bytes, aligned to align); null: the engine uses create().
  Strategy* (*construct)(void* where, const Parameters&) = nullptr;
};

/// InPlace for a strategy class S built as S(params).
template <class S>
InPlace in_place_of() {
  static_assert(std::is_base_of_v<Strategy, S>);
  return {sizeof(S), alignof(S), [](void* where, const Parameters& p) -> Strategy* { return ::new (where) S(p); }};
}

struct StrategyInfo {
  static constexpr const char* kind = "strategy";
  std::string name;
  std::string description;  ///< one line
  std::string source;       ///< paper and section it implements, e.g. "WLR93 III-C"
  std::vector<ParamSpec> params;
  std::vector<std::string> message_kinds;  ///< Message::kind indexes this list
  std::function<std::unique_ptr<Strategy>(const Parameters&)> create;
  /// The same agent built in place (in_place_of<S>()); where unset, the simulator calls create().
  InPlace in_place;
  /// Where set, throws InputError when the strategy cannot run on the topology, naming the
  /// topology and what is accepted. simulate() calls it before the run.
  std::function<void(const Topology&)> check_topology;
  /// Where set, a one-line warning when the strategy, with these parameters, cannot balance a
  /// run that starts with these loads (tasks on each node), or nullopt. The runtime's engines
  /// call it before a run and report it among the run's warnings.
  std::function<std::optional<std::string>(const Parameters&, std::span<const std::int64_t>)> start_warning;
  /// Whether a busy node looks for messages at its poll points, paying the cost model's
  /// poll_cost at each; NOBAL does not (WLR93 Table IV: its times are the bare loads).
  bool checks_messages = true;
};

/// The registry entry of a strategy class S, which declares itself once, in static members:
///   name, description, source       the texts of StrategyInfo
///   message_kinds                   an array of names indexed by its message-kind enum
///                                   (std::array<const char*, kKinds>: a missing name is null)
///   params()                        its ParamSpecs (optional: none)
///   check_topology(const Topology&) optional, as StrategyInfo::check_topology
///   start_warning(const Parameters&, std::span<const std::int64_t>)
///                                   optional, as StrategyInfo::start_warning
///   checks_messages                 optional, as StrategyInfo::checks_messages
/// and a constructor from its validated Parameters, from which both create() and in_place
/// build the agent.
template <class S>
StrategyInfo strategy_info() {
  StrategyInfo info{.name = S::name,
                    .description = S::description,
                    .source = S::source,
                    .create = [](const Parameters& p) -> std::unique_ptr<Strategy> { return std::make_unique<S>(p); },
                    .in_place = in_place_of<S>()};
  if constexpr (requires { S::params(); }) info.params = S::params();
  if constexpr (requires { S::message_kinds; }) {
    static_assert(std::ranges::none_of(S::message_kinds, [](const char* kind) { return kind == nullptr; }),
                  "a message kind without a name");
    info.message_kinds.assign(S::message_kinds.begin(), S::message_kinds.end());
  }
  if constexpr (requires(const Topology& t) { S::check_topology(t); }) info.check_topology = S::check_topology;
  if constexpr (requires(const Parameters& p, std::span<const std::int64_t> loads) { S::start_warning(p, loads); })
    info.start_warning = S::start_warning;
  if constexpr (requires { S::checks_messages; }) info.checks_messages = S::checks_messages;
  return info;
}

using StrategyRegistry = Registry<StrategyInfo>;
using StrategyChoice = Choice<StrategyInfo>;

}  // namespace dlbkit
