#pragma once
/// \file
/// Components created by name, with a description, the paper section they follow and
/// typed parameters. Strategies and workloads each have a registry of this shape.
///
/// ```
/// const auto& registry = dlbkit::builtin_strategies();           // strategies/builtin.hpp
/// dlbkit::StrategyChoice rid = registry.configure("rid", {{"u", "0.9"}});
/// std::unique_ptr<dlbkit::Strategy> agent = rid.create();         // one per node
/// ```

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/strategy.hpp>
#include <dlbkit/error.hpp>

#include <cassert>
#include <functional>
#include <map>
#include <memory>
#include <string>
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

struct StrategyInfo {
  static constexpr const char* kind = "strategy";
  std::string name;
  std::string description;  ///< one line
  std::string source;       ///< paper and section it implements, e.g. "WLR93 III-C"
  std::vector<ParamSpec> params;
  std::vector<std::string> message_kinds;  ///< Message::kind indexes this list
  std::function<std::unique_ptr<Strategy>(const Parameters&)> create;
  /// Where set, throws InputError when the strategy cannot run on the topology, naming the
  /// topology and what is accepted. simulate() calls it before the run.
  std::function<void(const Topology&)> check_topology;
  /// Whether a busy node looks for messages at its poll points, paying the cost model's
  /// poll_cost at each; NOBAL does not (WLR93 Table IV: its times are the bare loads).
  bool checks_messages = true;
};

using StrategyRegistry = Registry<StrategyInfo>;
using StrategyChoice = Choice<StrategyInfo>;

}  // namespace dlbkit
