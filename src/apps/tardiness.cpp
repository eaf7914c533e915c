#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/io/input_file.hpp>
#include <dlbkit/io/line_reader.hpp>
#include <dlbkit/core/number.hpp>
#include <dlbkit/io/output_file.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <istream>
#include <numeric>
#include <ostream>
#include <sstream>

namespace dlbkit {

namespace {

constexpr std::int64_t kMaxProcessing = 1'000'000'000;
constexpr std::int64_t kMaxDue = 1'000'000'000'000;

/// The jobs in fixed-size arrays, for the search's inner loop.
struct Jobs {
  int n = 0;
  std::array<std::int64_t, kMaxTardinessJobs> e{};
  std::array<std::int64_t, kMaxTardinessJobs> d{};
};

/// The jobs as given, or relabelled so that job k of the search is job order[k].
Jobs jobs_of(const TardinessInstance& instance, std::span<const int> order = {}) {
  Jobs jobs;
  jobs.n = instance.jobs();
  for (std::size_t k = 0; k < static_cast<std::size_t>(jobs.n); ++k) {
    const std::size_t j = order.empty() ? k : static_cast<std::size_t>(order[k]);
    jobs.e[k] = instance.processing[j];
    jobs.d[k] = instance.due[j];
  }
  return jobs;
}

using JobSet = std::uint32_t;  ///< bit j set: job j is not yet scheduled
static_assert(kMaxTardinessJobs <= 32);

[[noreturn]] void fail_step_budget() {
  throw InputError(fmt::format("the branch-and-bound search passed {:.0e} steps (about a minute) and was stopped; "
                               "accepted: instances and thresholds that search fewer (fewer jobs, a lower threshold, "
                               "or a larger task dimension)",
                               static_cast<double>(kTardinessStepBudget)));
}

/// Iterative depth-first branch and bound below one node (Sec. V-C). The node is at
/// `depth` with the jobs `free` still to schedule, completion time `time` and partial
/// tardiness `tardiness`. A child whose partial tardiness exceeds `bound` is pruned; a
/// child at depth `stop` is handed to `reach(partial tardiness)` with its prefix in
/// `prefix[0..stop)` and not expanded. `reach` may lower `bound`. Returns the search steps
/// (children formed). Children are tried in increasing job index.
template <class Reach>
std::uint64_t search(const Jobs& jobs, int depth, JobSet free, std::int64_t time, std::int64_t tardiness, int stop,
                     const std::int64_t& bound, std::array<int, kMaxTardinessJobs>& prefix, Reach&& reach) {
  assert(depth < stop && stop <= jobs.n);
  std::array<JobSet, kMaxTardinessJobs + 1> free_at{}, todo{};
  std::array<std::int64_t, kMaxTardinessJobs + 1> time_at{}, tardiness_at{};
  const int base = depth;
  free_at[static_cast<std::size_t>(depth)] = todo[static_cast<std::size_t>(depth)] = free;
  time_at[static_cast<std::size_t>(depth)] = time;
  tardiness_at[static_cast<std::size_t>(depth)] = tardiness;
  std::uint64_t steps = 0;
  for (;;) {
    const auto k = static_cast<std::size_t>(depth);
    if (todo[k] == 0) {
      if (depth == base) break;
      --depth;
      continue;
    }
    const int j = std::countr_zero(todo[k]);
    todo[k] &= todo[k] - 1;
    const auto jj = static_cast<std::size_t>(j);
    const std::int64_t completion = time_at[k] + jobs.e[jj];
    const std::int64_t partial = tardiness_at[k] + std::max<std::int64_t>(0, completion - jobs.d[jj]);  // eq. (37)
    if (++steps > kTardinessStepBudget) fail_step_budget();
    if (partial > bound) continue;
    prefix[k] = j;
    if (depth + 1 == stop) {
      reach(partial);
      continue;
    }
    if (depth + 2 == jobs.n) {  // the child has one free job: its one child is a leaf, formed here
      const int last = std::countr_zero(free_at[k] & ~(JobSet{1} << j));
      const auto ll = static_cast<std::size_t>(last);
      const std::int64_t total = partial + std::max<std::int64_t>(0, completion + jobs.e[ll] - jobs.d[ll]);
      ++steps;
      if (total > bound) continue;
      prefix[k + 1] = last;
      reach(total);
      continue;
    }
    ++depth;
    free_at[k + 1] = todo[k + 1] = free_at[k] & ~(JobSet{1} << j);
    time_at[k + 1] = completion;
    tardiness_at[k + 1] = partial;
  }
  return steps;
}

JobSet all_jobs(int n) { return (JobSet{1} << n) - 1; }

[[noreturn]] void file_error(const std::string& name, int line, const std::string& problem) {
  throw InputError(fmt::format("{}:{}: {}", name, line, problem));
}

}  // namespace

std::int64_t TardinessInstance::tardiness(std::span<const int> schedule) const {
  std::int64_t time = 0, total = 0;
  for (int j : schedule) {
    time += processing[static_cast<std::size_t>(j)];
    total += std::max<std::int64_t>(0, time - due[static_cast<std::size_t>(j)]);  // eq. (37)
  }
  return total;
}

TardinessInstance generate_tardiness_instance(int jobs, Rng& rng, const TardinessGeneratorParams& params) {
  if (jobs < 1 || jobs > kMaxTardinessJobs)
    throw InputError(fmt::format("tardiness instance: {} jobs is not accepted; accepted: 1 to {}", jobs, kMaxTardinessJobs));
  const auto check = [](double v, const char* what) {
    if (!(v >= 0 && v <= 1))
      throw InputError(fmt::format("tardiness instance: {} = {} is not accepted; accepted: a real number in [0, 1]", what, v));
  };
  check(params.tardiness_factor, "tardiness factor");
  check(params.due_date_range, "due date range");
  TardinessInstance instance;
  std::int64_t total = 0;
  for (int j = 0; j < jobs; ++j) {
    instance.processing.push_back(1 + static_cast<std::int64_t>(rng.below(100)));
    total += instance.processing.back();
  }
  const double P = static_cast<double>(total);
  const auto lo = static_cast<std::int64_t>(std::llround(P * (1 - params.tardiness_factor - params.due_date_range / 2)));
  const auto hi = static_cast<std::int64_t>(std::llround(P * (1 - params.tardiness_factor + params.due_date_range / 2)));
  for (int j = 0; j < jobs; ++j) {
    const std::int64_t d = lo + static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(hi - lo + 1)));
    instance.due.push_back(std::max<std::int64_t>(0, d));
  }
  return instance;
}

TardinessInstance read_tardiness_instance(std::istream& in, const std::string& name) {
  TardinessInstance instance;
  int expected = -1, line_no = 0;
  std::string line;
  LineReader lines(in, name);
  while (lines.next(line)) {
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string::npos) line.resize(hash);
    std::istringstream fields(line);
    std::vector<std::string> words;
    for (std::string w; fields >> w;) words.push_back(w);
    if (words.empty()) continue;
    if (expected < 0) {
      std::int64_t n = 0;
      if (words.size() != 2 || words[0] != "jobs" || !parse_number(words[1], n))
        file_error(name, line_no, fmt::format("expected 'jobs N', found '{}'", line));
      if (n < 1 || n > kMaxTardinessJobs)
        file_error(name, line_no, fmt::format("jobs {} is not accepted; accepted: 1 to {}", n, kMaxTardinessJobs));
      expected = static_cast<int>(n);
      continue;
    }
    if (instance.jobs() == expected)
      file_error(name, line_no, fmt::format("'{}' after the {} jobs; accepted: exactly {} job lines", line, expected, expected));
    std::int64_t e = 0, d = 0;
    if (words.size() != 2 || !parse_number(words[0], e) || !parse_number(words[1], d))
      file_error(name, line_no,
                 fmt::format("expected 'processing_time due_date' (two integers) for job {}, found '{}'", instance.jobs(), line));
    if (e < 1 || e > kMaxProcessing)
      file_error(name, line_no, fmt::format("processing time {} is not accepted; accepted: 1 to {}", e, kMaxProcessing));
    if (d < 0 || d > kMaxDue)
      file_error(name, line_no, fmt::format("due date {} is not accepted; accepted: 0 to {}", d, kMaxDue));
    instance.processing.push_back(e);
    instance.due.push_back(d);
  }
  if (expected < 0) file_error(name, line_no, "no 'jobs N' line: the file holds no instance");
  if (instance.jobs() != expected)
    file_error(name, line_no, fmt::format("the file ends after {} of its {} jobs", instance.jobs(), expected));
  return instance;
}

TardinessInstance load_tardiness_instance(const std::string& path) {
  std::ifstream in = open_input_file(path, fmt::format("tardiness instance file {}", path), LineReader::kMaxBytes,
                                     "a text file of a 'jobs N' line and N 'processing_time due_date' lines");
  return read_tardiness_instance(in, path);
}

void write_tardiness_instance(std::ostream& out, const TardinessInstance& instance) {
  out << "# single-machine total tardiness instance (WLR93 eq. 37); docs/apps/tardiness.md\n"
      << "jobs " << instance.jobs() << "\n# processing_time due_date\n";
  for (int j = 0; j < instance.jobs(); ++j)
    out << instance.processing[static_cast<std::size_t>(j)] << ' ' << instance.due[static_cast<std::size_t>(j)] << '\n';
}

void save_tardiness_instance(const std::string& path, const TardinessInstance& instance) {
  std::ostringstream text;
  write_tardiness_instance(text, instance);
  write_text_file(path, text.str());
}

std::vector<int> edd_order(const TardinessInstance& instance) {
  std::vector<int> edd(static_cast<std::size_t>(instance.jobs()));
  std::iota(edd.begin(), edd.end(), 0);
  std::stable_sort(edd.begin(), edd.end(), [&](int a, int b) {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    return instance.due[ua] != instance.due[ub] ? instance.due[ua] < instance.due[ub]
                                                : instance.processing[ua] < instance.processing[ub];
  });
  return edd;
}

TardinessOptimum solve_tardiness(const TardinessInstance& instance) {
  const int n = instance.jobs();
  assert(n >= 1 && n <= kMaxTardinessJobs);
  // Relabel the jobs in earliest-due-date order: the children of every node are then
  // tried in that order, and the EDD schedule (the identity) is the first incumbent.
  const std::vector<int> edd = edd_order(instance);
  const Jobs jobs = jobs_of(instance, edd);
  TardinessOptimum best;
  best.tardiness = instance.tardiness(edd);
  std::array<int, kMaxTardinessJobs> prefix{}, best_prefix{};
  std::iota(best_prefix.begin(), best_prefix.begin() + n, 0);
  std::int64_t bound = best.tardiness - 1;  // only a strictly better schedule is worth finding
  best.steps = search(jobs, 0, all_jobs(n), 0, 0, n, bound, prefix, [&](std::int64_t total) {
    best.tardiness = total;
    bound = total - 1;
    best_prefix = prefix;
  });
  for (int k = 0; k < n; ++k) best.schedule.push_back(edd[static_cast<std::size_t>(best_prefix[static_cast<std::size_t>(k)])]);
  return best;
}

TardinessCount count_schedules_within(const TardinessInstance& instance, std::int64_t threshold,
                                      std::span<const int> prefix) {
  const int n = instance.jobs();
  assert(n >= 1 && n <= kMaxTardinessJobs && static_cast<int>(prefix.size()) < n);
  JobSet free = all_jobs(n);
  std::int64_t time = 0, tardiness = 0;
  std::array<int, kMaxTardinessJobs> path{};
  for (std::size_t k = 0; k < prefix.size(); ++k) {
    const int j = prefix[k];
    assert(j >= 0 && j < n && (free >> j & 1));
    free &= ~(JobSet{1} << j);
    time += instance.processing[static_cast<std::size_t>(j)];
    tardiness += std::max<std::int64_t>(0, time - instance.due[static_cast<std::size_t>(j)]);
    path[k] = j;
  }
  TardinessCount count;
  const std::int64_t bound = threshold;
  count.steps = search(jobs_of(instance), static_cast<int>(prefix.size()), free, time, tardiness, n, bound, path,
                       [&](std::int64_t) { ++count.schedules; });
  return count;
}

TardinessDecomposition decompose_tardiness(const TardinessInstance& instance, int task_dimension, std::int64_t threshold) {
  const int n = instance.jobs();
  if (task_dimension < 1 || task_dimension > n)
    throw InputError(fmt::format("task dimension m = {} is not accepted for {} jobs; accepted: 1 to {}", task_dimension, n, n));
  TardinessDecomposition out;
  out.task_dimension = task_dimension;
  const int depth = n - task_dimension;
  if (depth == 0) {
    out.tasks.push_back(TardinessTask{});  // the whole tree is one task
    return out;
  }
  std::array<int, kMaxTardinessJobs> prefix{};
  const std::int64_t bound = threshold;
  out.steps_above = search(jobs_of(instance), 0, all_jobs(n), 0, 0, depth, bound, prefix, [&](std::int64_t partial) {
    if (out.tasks.size() == kMaxTardinessTasks)
      throw InputError(fmt::format("task dimension m = {} cuts this {}-job tree into more than {} tasks; accepted: a "
                                   "larger m or a lower threshold",
                                   task_dimension, n, kMaxTardinessTasks));
    out.tasks.push_back(TardinessTask{std::vector<int>(prefix.begin(), prefix.begin() + depth), partial});
  });
  return out;
}

}  // namespace dlbkit
