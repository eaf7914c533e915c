#include <dlbkit/error.hpp>
#include <dlbkit/rounds/balance_time.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>

namespace dlbkit {

namespace {

// One step of a kernel: applies it and returns the shifts it took.
template <class Kernel, class Step>
BalanceResult drive(const Kernel& kernel, std::vector<std::int64_t>& load, const BalanceOptions& o, int dimensions,
                    Step step) {
  const std::size_t n = load.size();
  if (n != kernel.size() || n == 0)
    throw InputError(fmt::format("the load vector has {} entries for a kernel on {} nodes", n, kernel.size()));
  for (std::size_t i = 0; i < n; ++i)
    if (load[i] < 0)
      throw InputError(fmt::format("load {} of node {} is not accepted; accepted: loads >= 0 (load elements)",
                                   load[i], i));
  BalanceResult r;
  r.tolerance = o.tolerance.value_or(dimensions);
  for (const std::int64_t x : load) r.total_initial += x;
  const bool can_share = r.total_initial >= static_cast<std::int64_t>(n);
  std::vector<std::int64_t> next(n);

  // max - min, and whether `previous` differs, in one pass.
  bool changed = true;
  const auto check = [&](const std::vector<std::int64_t>* previous) {
    std::int64_t lo = load[0], hi = load[0], diff = 0;
    const std::int64_t* w = load.data();
    const std::int64_t* p = previous ? previous->data() : w;
    for (std::size_t i = 0; i < n; ++i) {
      lo = std::min(lo, w[i]);
      hi = std::max(hi, w[i]);
      diff |= w[i] ^ p[i];
    }
    changed = diff != 0;
    r.max_min_difference = hi - lo;
    r.shared = lo >= 1;
    r.balanced = r.max_min_difference <= r.tolerance;
    if (r.shared && !r.shifts_to_sharing) {
      r.shifts_to_sharing = r.shifts;
      r.steps_to_sharing = r.steps;
    }
    if (r.balanced && !r.shifts_to_balancing) {
      r.shifts_to_balancing = r.shifts;
      r.steps_to_balancing = r.steps;
    }
    if (o.record) r.trace.push_back({r.shifts, load});
    return o.stop_when_balanced && r.balanced && (r.shared || !can_share);
  };

  const auto start = std::chrono::steady_clock::now();
  bool done = check(nullptr);
  int unchanged = 0;  // consecutive steps that changed nothing
  while (!done && r.shifts < o.max_shifts) {
    r.shifts += step(load, next, r.steps);
    load.swap(next);
    ++r.steps;
    done = check(&next);
    unchanged = changed ? 0 : unchanged + 1;
    if (!done && o.stop_when_balanced && unchanged >= dimensions) {
      r.fixed_point = true;
      break;
    }
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  for (const std::int64_t x : load) r.total_final += x;
  return r;
}

}  // namespace

BalanceResult run_to_balance(const LiquidKernel& kernel, std::vector<std::int64_t>& load,
                             const BalanceOptions& options) {
  const auto n = static_cast<NodeId>(kernel.size());
  return drive(kernel, load, options, kernel.dimensions(),
               [&](const std::vector<std::int64_t>& w, std::vector<std::int64_t>& next, std::uint64_t t) {
                 kernel.update(t, w, next, 0, n);
                 return std::uint64_t{1};  // one shift per sub-step
               });
}

BalanceResult run_to_balance(const NnaKernel& kernel, std::vector<std::int64_t>& load, const BalanceOptions& options) {
  const auto n = static_cast<NodeId>(kernel.size());
  return drive(kernel, load, options, 1,
               [&](const std::vector<std::int64_t>& w, std::vector<std::int64_t>& next, std::uint64_t t) {
                 const std::uint64_t shifts = kernel.shifts(w);
                 kernel.update(t, w, next, 0, n);
                 return shifts;
               });
}

nlohmann::json to_json(const BalanceResult& r) {
  const auto opt = [](const std::optional<std::uint64_t>& x) { return x ? nlohmann::json(*x) : nlohmann::json(nullptr); };
  nlohmann::json j = {{"shifts", r.shifts},
                      {"steps", r.steps},
                      {"shifts_to_sharing", opt(r.shifts_to_sharing)},
                      {"shifts_to_balancing", opt(r.shifts_to_balancing)},
                      {"steps_to_sharing", opt(r.steps_to_sharing)},
                      {"steps_to_balancing", opt(r.steps_to_balancing)},
                      {"shared", r.shared},
                      {"balanced", r.balanced},
                      {"fixed_point", r.fixed_point},
                      {"tolerance", r.tolerance},
                      {"total_initial", r.total_initial},
                      {"total_final", r.total_final},
                      {"max_min_difference", r.max_min_difference},
                      {"seconds", r.seconds}};
  if (!r.trace.empty()) {
    nlohmann::json t = nlohmann::json::array();
    for (const BalanceSnapshot& s : r.trace) t.push_back({{"shifts", s.shifts}, {"loads", s.loads}});
    j["trace"] = t;
  }
  return j;
}

}  // namespace dlbkit
