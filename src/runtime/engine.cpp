#include "worker_core.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/runtime/engine.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>

namespace dlbkit {

// --- TaskStack ---

namespace detail {

namespace {

std::size_t padded(std::size_t bytes) { return (bytes + 7) / 8 * 8; }

}  // namespace

std::size_t TaskStack::length_of(const std::byte* record) const {
  if (!serialised()) return stride_;
  std::uint32_t bytes;
  std::memcpy(&bytes, record, sizeof bytes);
  return 2 * kFrame + padded(bytes);
}

void TaskStack::grow(std::size_t more) {
  // Reuse the space below the bottom first (migrations take from there), else double.
  if (base_ > 0 && base_ >= data_.size() / 2) {
    std::memmove(data_.data(), data_.data() + base_, top_ - base_);
    top_ -= base_;
    base_ = 0;
    if (top_ + more <= data_.size()) return;
  }
  data_.resize(std::max({std::size_t{64} * stride_, 2 * data_.size(), top_ + more}));
}

void TaskStack::push_serialised(const void* task, std::size_t bytes, std::uint32_t hops) {
  const std::uint64_t length = 2 * kFrame + padded(bytes);
  reserve(length);
  std::byte* at = data_.data() + top_;
  const auto size = static_cast<std::uint32_t>(bytes);
  std::memcpy(at, &size, sizeof size);
  std::memcpy(at + sizeof size, &hops, sizeof hops);
  std::memcpy(at + kFrame, task, bytes);
  std::memcpy(at + length - kFrame, &length, sizeof length);
  top_ += length;
  ++count_;
}

std::span<const std::byte> TaskStack::pop_serialised() {
  std::uint64_t length;
  std::memcpy(&length, data_.data() + top_ - kFrame, sizeof length);
  top_ -= length;
  --count_;
  std::uint32_t bytes;
  std::memcpy(&bytes, data_.data() + top_, sizeof bytes);
  return {data_.data() + top_ + kFrame, bytes};
}

std::size_t TaskStack::take_bottom(std::size_t amount, std::uint32_t max_hops, std::vector<std::byte>& out,
                                   std::size_t keep) {
  const std::size_t movable = size() - std::min(keep, size());  // the bottom records that may move
  amount = std::min(amount, movable);
  out.clear();
  if (amount == 0) return 0;
  const std::size_t hops_at = hops_offset();
  const auto add_hop = [hops_at](std::byte* record) {
    std::uint32_t hops;
    std::memcpy(&hops, record + hops_at, sizeof hops);
    ++hops;
    std::memcpy(record + hops_at, &hops, sizeof hops);
  };
  if (max_hops == 0xFFFFFFFFu) {  // no hop limit: one contiguous block
    std::size_t end = base_;
    for (std::size_t i = 0; i < amount; ++i) end += length_of(data_.data() + end);
    out.assign(data_.begin() + static_cast<std::ptrdiff_t>(base_), data_.begin() + static_cast<std::ptrdiff_t>(end));
    for (std::size_t at = 0; at < out.size(); at += length_of(out.data() + at)) add_hop(out.data() + at);
    base_ = end;
    count_ -= amount;
    if (base_ == top_) base_ = top_ = 0;
    return amount;
  }
  // GM's hop limit: tasks that travelled max_hops times stay, the others keep their order.
  std::size_t moved = 0, kept = base_;
  for (std::size_t at = base_, i = 0; at < top_; ++i) {
    const std::size_t length = length_of(data_.data() + at);
    std::uint32_t hops;
    std::memcpy(&hops, data_.data() + at + hops_at, sizeof hops);
    if (moved < amount && i < movable && hops < max_hops) {
      const std::size_t o = out.size();
      out.insert(out.end(), data_.begin() + static_cast<std::ptrdiff_t>(at),
                 data_.begin() + static_cast<std::ptrdiff_t>(at + length));
      add_hop(out.data() + o);
      ++moved;
    } else {
      if (kept != at) std::memmove(data_.data() + kept, data_.data() + at, length);
      kept += length;
    }
    at += length;
  }
  top_ = kept;
  count_ -= moved;
  return moved;
}

void TaskStack::push_records(const std::byte* records, std::size_t count) {
  std::size_t length = 0;
  for (std::size_t i = 0; i < count; ++i) length += length_of(records + length);
  reserve(length);
  std::memcpy(data_.data() + top_, records, length);
  top_ += length;
  count_ += count;
}

}  // namespace detail

// --- results ---

TaskFailure::TaskFailure(int rank, const std::string& what, std::exception_ptr cause)
    : std::runtime_error(what), rank_(rank), cause_(std::move(cause)) {}

std::uint64_t RuntimeResult::tasks_executed() const {
  std::uint64_t n = 0;
  for (const auto& w : workers) n += w.tasks_executed;
  return n;
}
std::uint64_t RuntimeResult::tasks_moved() const {
  std::uint64_t n = 0;
  for (const auto& w : workers) n += w.tasks_sent;
  return n;
}
std::uint64_t RuntimeResult::messages() const {
  return std::accumulate(messages_by_kind.begin(), messages_by_kind.end(), std::uint64_t{0});
}

double efficiency(const RuntimeResult& sequential, const RuntimeResult& parallel) {
  const double p = static_cast<double>(parallel.workers.size());
  if (parallel.elapsed_seconds <= 0 || p == 0) return 0;
  return sequential.elapsed_seconds / (p * parallel.elapsed_seconds);
}

double cpu_efficiency(const RuntimeResult& sequential, const RuntimeResult& parallel) {
  SimTime total = 0;
  for (const auto& w : parallel.workers) total += w.cpu;
  if (total <= 0 || sequential.workers.empty()) return 0;
  return static_cast<double>(sequential.workers[0].cpu) / static_cast<double>(total);
}

std::string format_figures(const RuntimeResult& r) {
  std::string out = fmt::format("  tasks executed       {}\n", r.tasks_executed());
  out += fmt::format("  tasks moved          {}\n", r.tasks_moved());
  std::string kinds;
  for (std::size_t k = 0; k < r.message_kinds.size(); ++k)
    kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", r.message_kinds[k], r.messages_by_kind[k]);
  out += fmt::format("  messages             {}   ({})\n", r.messages(), kinds);
  out += "\n  worker   busy s    idle s     CPU s  idle CPU s   executed      sent  received    splits\n";
  for (std::size_t w = 0; w < r.workers.size(); ++w) {
    const WorkerStats& s = r.workers[w];
    out += fmt::format("  {:>6} {:>8.4f} {:>9.4f} {:>9.4f} {:>11.4f} {:>10} {:>9} {:>9} {:>9}\n", w,
                       to_seconds(s.busy), to_seconds(s.idle), to_seconds(s.cpu), to_seconds(s.idle_cpu),
                       s.tasks_executed, s.tasks_sent, s.tasks_received, s.splits);
  }
  return out;
}

bool same_result(const AnyApplication& app, const RuntimeResult& sequential, const RuntimeResult& parallel) {
  const nlohmann::json a = app.report_bytes(sequential.result.data());
  const nlohmann::json b = app.report_bytes(parallel.result.data());
  const auto keys = app.exact_keys();
  if (keys.empty()) return a == b;
  for (const auto& k : keys)
    if (a.value(k, nlohmann::json()) != b.value(k, nlohmann::json())) return false;
  return true;
}

// --- the sequential run: a plain loop, the baseline of efficiency ---

namespace {

class NoHooks final : public detail::WorkerPort::Hooks {
public:
  std::uint32_t poll_point(const detail::SplitRef*) override { return 1u << 30; }
  void bound_improved(std::int64_t) override {}
};

}  // namespace

RuntimeResult run_sequential(detail::ByteApplication& app, std::size_t workers) {
  if (workers == 0) throw InputError("sequential run: the roots of 0 workers; accepted: at least 1");
  app.prepare(1);
  detail::TaskStack stack(app.task_bytes());
  for (NodeId w = 0; w < workers; ++w) app.push_roots(w, workers, stack);
  std::atomic<std::int64_t> bound{app.initial_bound()};
  NoHooks hooks;
  detail::WorkerPort port(0, stack, bound, hooks);
  detail::TaskBuffer task(app.task_bytes());
  WorkerStats stats;
  const SimTime cpu_start = detail::thread_cpu_ns();
  const SimTime start = detail::clock_ns();
  while (!stack.empty()) {
    stack.pop(task);
    app.execute_bytes(task, port);
    ++stats.tasks_executed;
  }
  const SimTime elapsed = detail::clock_ns() - start;
  stats.cpu = detail::thread_cpu_ns() - cpu_start;
  stats.busy = elapsed;
  RuntimeResult r;
  r.engine = "sequential";
  r.elapsed_seconds = to_seconds(elapsed);
  r.workers = {stats};
  r.message_kinds = {"task_transfer"};
  r.messages_by_kind = {0};
  r.result = app.partial(0);
  return r;
}

std::vector<std::string> start_warnings(const detail::ByteApplication& app, const RuntimeConfig& config) {
  if (config.strategy.info == nullptr || !config.strategy.info->start_warning || config.topology == nullptr) return {};
  const std::size_t n = config.topology->size();
  std::vector<std::int64_t> loads(n);
  for (NodeId w = 0; w < n; ++w) {
    detail::TaskStack roots(app.task_bytes());
    app.push_roots(w, n, roots);
    loads[w] = static_cast<std::int64_t>(roots.size());
  }
  if (std::optional<std::string> warning = config.strategy.info->start_warning(config.strategy.params, loads))
    return {std::move(*warning)};
  return {};
}

namespace detail {

void add_warnings(const ByteApplication& app, const RuntimeConfig& config, RuntimeResult& r) {
  r.warnings = start_warnings(app, config);
  std::size_t starved = 0;
  for (const WorkerStats& w : r.workers) starved += w.tasks_executed == 0 ? 1 : 0;
  if (r.workers.size() > 1 && r.tasks_moved() == 0 && starved > 0 && config.strategy.name() != "none")
    r.warnings.push_back(fmt::format("no task moved: {} of the {} workers executed none; strategy {} with {} did not "
                                     "balance this run",
                                     starved, r.workers.size(), config.strategy.name(),
                                     config.strategy.params.to_string().empty() ? std::string("its defaults")
                                                                                : config.strategy.params.to_string()));
}

void check_engine_config(const RuntimeConfig& config, const std::string& engine) {
  if (config.strategy.info == nullptr) throw InputError(engine + ": no strategy given");
  if (config.strategy.info->check_topology) config.strategy.info->check_topology(*config.topology);
  if (config.check_tasks == 0) throw InputError(engine + ": check_tasks 0; accepted: at least 1");
}

std::vector<std::byte> combine_partials(const ByteApplication& app, std::span<const std::byte> partials) {
  const std::size_t bytes = app.result_bytes();
  if (bytes == 0) return {};  // serialised results: dlbkit::Runtime combines them
  std::vector<std::byte> out(partials.begin(), partials.begin() + static_cast<std::ptrdiff_t>(bytes));
  for (std::size_t at = bytes; at < partials.size(); at += bytes) app.combine_bytes(out.data(), partials.data() + at);
  return out;
}

RuntimeResult collect(const std::string& engine, const RuntimeConfig& config, double elapsed_seconds,
                      const std::vector<WorkerStats>& workers, const std::vector<std::uint64_t>& messages_by_kind) {
  RuntimeResult r;
  r.engine = engine;
  r.elapsed_seconds = elapsed_seconds;
  r.workers = workers;
  r.message_kinds = config.strategy.info->message_kinds;
  r.message_kinds.push_back("task_transfer");
  r.messages_by_kind = messages_by_kind;
  return r;
}

}  // namespace detail

}  // namespace dlbkit
