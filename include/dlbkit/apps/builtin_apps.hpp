#pragma once
/// \file
/// The applications `dlbkit run` executes on the runtimes, created by name with typed
/// parameters like strategies and workloads:
/// - `busy`: WLR93's artificial tasks (Sec. V-A, Table III) as real busy loops;
/// - `bnb`: branch and bound for total tardiness (WLR93 Sec. V-C) with best-bound sharing,
///   or counting within a fixed threshold (apps/bnb_search.hpp);
/// - `uts`: the Unbalanced Tree Search benchmark, its standard trees or custom ones (apps/uts.hpp);
/// - `queens`: an N-Queens count with coarse tasks that never poll.
/// docs/runtime.md describes them.
///
/// ```
/// auto app = dlbkit::builtin_apps().configure("bnb", {{"n", "12"}}).create();
/// dlbkit::RuntimeResult r = dlbkit::run_sequential(*app, 1);
/// ```

#include <dlbkit/core/registry.hpp>
#include <dlbkit/runtime/any_application.hpp>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlbkit {

struct AppInfo {
  static constexpr const char* kind = "app";
  std::string name;
  std::string description;  ///< one line
  std::string source;       ///< paper and section
  std::vector<ParamSpec> params;
  std::function<std::unique_ptr<AnyApplication>(const Parameters&)> create;
};

using AppRegistry = Registry<AppInfo>;
using AppChoice = Choice<AppInfo>;

/// Immutable, built on first use.
const AppRegistry& builtin_apps();

AppInfo busy_app_info();
AppInfo bnb_app_info();
AppInfo uts_app_info();
AppInfo queens_app_info();

struct TardinessInstance;
/// The `bnb` app on a given instance; `m` as the parameter (0 to instance.jobs()); with a
/// threshold, in threshold mode (apps/bnb_search.hpp).
std::unique_ptr<AnyApplication> make_bnb_app(const TardinessInstance& instance, int m,
                                             std::optional<std::int64_t> threshold = std::nullopt);

/// One busy loop of the `busy` app: 1000 steps of a xorshift generator on `x`, returned
/// (about a microsecond; WLR93's loop took 1.3 us on the iPSC/2).
std::uint64_t busy_loop(std::uint64_t x);

}  // namespace dlbkit
