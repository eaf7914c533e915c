#include <dlbkit/error.hpp>
#include <dlbkit/rounds/round_loop.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cmath>
#include <thread>

namespace dlbkit {

namespace {

// Nodes per block. Sums are taken per block and then over blocks in order, whatever the
// number of threads (round_loop.hpp).
constexpr std::size_t kBlock = 8192;

template <class Load>
struct BlockStats {
  double squares = 0;  // sum of (w - w_bar)^2
  Load min = 0, max = 0;
};

template <class Load>
BlockStats<Load> block_stats(const Load* w, std::size_t count, double mean) {
  // Four interleaved partial sums (a fixed order for a given block) keep the additions from
  // waiting on one another.
  double squares[4] = {0, 0, 0, 0};
  Load lo = w[0], hi = w[0];
  std::size_t k = 0;
  for (; k + 4 <= count; k += 4)
    for (std::size_t lane = 0; lane < 4; ++lane) {
      const double e = static_cast<double>(w[k + lane]) - mean;
      squares[lane] += e * e;
      lo = std::min(lo, w[k + lane]);
      hi = std::max(hi, w[k + lane]);
    }
  for (; k < count; ++k) {
    const double e = static_cast<double>(w[k]) - mean;
    squares[k % 4] += e * e;
    lo = std::min(lo, w[k]);
    hi = std::max(hi, w[k]);
  }
  return {(squares[0] + squares[1]) + (squares[2] + squares[3]), lo, hi};
}

template <class Load>
double block_total(const std::vector<Load>& w) {
  if constexpr (std::is_integral_v<Load>) {
    Load total = 0;
    for (const Load x : w) total += x;
    return static_cast<double>(total);
  } else {
    double total = 0;
    for (std::size_t b = 0; b < w.size(); b += kBlock) {
      double part = 0;
      for (std::size_t k = b; k < std::min(w.size(), b + kBlock); ++k) part += w[k];
      total += part;
    }
    return total;
  }
}

template <class Load>
RoundLoopResult run(const RoundKernel& kernel, std::vector<Load>& load, const RoundLoopOptions& o) {
  const std::size_t n = load.size();
  if (n != kernel.size() || n == 0)
    throw InputError(fmt::format("the load vector has {} entries for a kernel on {} nodes", n, kernel.size()));
  if (o.threads != 1 && o.threads != 2)
    throw InputError(fmt::format("threads {} is not accepted; accepted: 1 or 2", o.threads));

  RoundLoopResult r;
  r.total_initial = block_total(load);
  const double mean = r.total_initial / static_cast<double>(n);
  const std::size_t blocks = (n + kBlock - 1) / kBlock;
  std::vector<BlockStats<Load>> stats(blocks);
  std::vector<Load> spare(n);
  Load* current = load.data();
  Load* next = spare.data();

  double error = 0;
  double spread = 0;
  const auto reduce = [&] {
    double squares = 0;
    Load lo = stats[0].min, hi = stats[0].max;
    for (std::size_t b = 0; b < blocks; ++b) {
      squares += stats[b].squares;
      lo = std::min(lo, stats[b].min);
      hi = std::max(hi, stats[b].max);
    }
    error = std::sqrt(squares);
    spread = static_cast<double>(hi) - static_cast<double>(lo);
  };
  const auto rule_met = [&](std::uint64_t steps) {
    switch (o.until.kind) {
      case StopRule::Kind::steps: return steps >= o.until.steps;
      case StopRule::Kind::eps: return r.initial_error == 0 || error <= o.until.threshold * r.initial_error;
      case StopRule::Kind::balanced: return spread <= o.until.threshold;
    }
    return true;
  };

  for (std::size_t b = 0; b < blocks; ++b)
    stats[b] = block_stats(current + b * kBlock, std::min(kBlock, n - b * kBlock), mean);
  reduce();
  r.initial_error = error;
  if (o.trace) r.trace.push_back(error);
  if (o.record_loads) r.loads.assign(current, current + n);

  std::uint64_t steps = 0;
  bool stop = rule_met(0) || o.max_steps == 0;
  r.stop_rule_met = rule_met(0);
  const auto start = std::chrono::steady_clock::now();
  std::barrier sync(o.threads);
  const auto worker = [&](int k) {
    const std::size_t first = blocks * static_cast<std::size_t>(k) / static_cast<std::size_t>(o.threads);
    const std::size_t last = blocks * static_cast<std::size_t>(k + 1) / static_cast<std::size_t>(o.threads);
    while (!stop) {
      const std::span<const Load> in(current, n);
      const std::span<Load> out(next, n);
      for (std::size_t b = first; b < last; ++b) {
        const std::size_t begin = b * kBlock, count = std::min(kBlock, n - begin);
        kernel.update(steps, in, out, static_cast<NodeId>(begin), static_cast<NodeId>(begin + count));
        stats[b] = block_stats(next + begin, count, mean);
      }
      sync.arrive_and_wait();
      if (k == 0) {
        std::swap(current, next);
        ++steps;
        reduce();
        if (o.trace) r.trace.push_back(error);
        if (o.record_loads) r.loads.insert(r.loads.end(), current, current + n);
        r.stop_rule_met = rule_met(steps);
        stop = r.stop_rule_met || steps >= o.max_steps;
      }
      sync.arrive_and_wait();
    }
  };
  if (o.threads == 2) {
    std::jthread helper(worker, 1);
    worker(0);
  } else {
    worker(0);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (current != load.data()) std::copy(current, current + n, load.begin());
  r.steps = steps;
  r.total_final = block_total(load);
  r.final_error = error;
  r.relative_error = r.initial_error > 0 ? error / r.initial_error : 0.0;
  r.max_min_difference = spread;
  return r;
}

}  // namespace

RoundLoopResult run_rounds(const RoundKernel& kernel, std::vector<double>& load, const RoundLoopOptions& options) {
  return run(kernel, load, options);
}

RoundLoopResult run_rounds(const RoundKernel& kernel, std::vector<std::int64_t>& load, const RoundLoopOptions& options) {
  return run(kernel, load, options);
}

nlohmann::json to_json(const RoundLoopResult& r) {
  nlohmann::json j = {
      {"steps", r.steps},
      {"stop_rule_met", r.stop_rule_met},
      {"max_min_difference", r.max_min_difference},
      {"initial_error", r.initial_error},
      {"final_error", r.final_error},
      {"relative_error", r.relative_error},
      {"total_initial", r.total_initial},
      {"total_final", r.total_final},
      {"seconds", r.seconds},
  };
  if (!r.trace.empty()) j["trace"] = r.trace;
  return j;
}

}  // namespace dlbkit
