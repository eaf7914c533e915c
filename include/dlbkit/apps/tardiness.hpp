#pragma once
/// \file
/// Single-machine total tardiness (WLR93 Sec. V-C, eq. 37) and the depth-first branch and
/// bound of the paper: instances, a seeded generator, a text file format, and the search in
/// its two modes (find the optimum; count every schedule within a fixed threshold), with
/// the paper's decomposition of the tree into tasks (Table V). docs/apps/tardiness.md
/// describes all of it.
///
/// ```
/// dlbkit::Rng rng(1);
/// dlbkit::TardinessInstance jobs = dlbkit::generate_tardiness_instance(11, rng);
/// dlbkit::TardinessOptimum best = dlbkit::solve_tardiness(jobs);          // optimise mode
/// dlbkit::TardinessCount within = dlbkit::count_schedules_within(jobs, best.tardiness + 50);
/// dlbkit::TardinessDecomposition tasks = dlbkit::decompose_tardiness(jobs, 8, best.tardiness + 50);
/// ```
///
/// The search builds schedules front to back: a tree node at depth k is a prefix of k
/// distinct jobs, its children append one more job. A prefix's partial tardiness (the
/// tardiness of its jobs, eq. 37 summed over the prefix) never decreases along a branch,
/// so a branch whose partial tardiness exceeds the bound is pruned.
///
/// Search step: forming one node, i.e. appending a job to a prefix, computing its
/// completion time and tardiness and testing the new partial tardiness against the bound.
/// A node that fails the test is a step too (it was searched and pruned); its children
/// are never formed. The root (the empty prefix) is not a step. With no pruning a subtree
/// of m free jobs takes sum_{k=1..m} m!/(m-k)! steps (about e m!).
///
/// No global state: every function may be called from several threads at once.

#include <dlbkit/core/random.hpp>

#include <cstdint>
#include <iosfwd>
#include <limits>
#include <span>
#include <string>
#include <vector>

namespace dlbkit {

/// The most jobs an instance may have: 20! < 2^63, so every count fits in 64 bits.
inline constexpr int kMaxTardinessJobs = 20;
/// A single search that forms more nodes than this stops with an InputError instead of
/// running for hours (n = 14 and up with a loose threshold): about a minute of search.
inline constexpr std::uint64_t kTardinessStepBudget = 20'000'000'000ULL;
/// The most tasks a decomposition may produce (each holds its prefix).
inline constexpr std::size_t kMaxTardinessTasks = 10'000'000;
/// The threshold that prunes nothing.
inline constexpr std::int64_t kNoTardinessThreshold = std::numeric_limits<std::int64_t>::max();

/// J jobs on one processor: job j takes processing time e_j and is due at d_j (eq. 37).
struct TardinessInstance {
  std::vector<std::int64_t> processing;  ///< e_j >= 1
  std::vector<std::int64_t> due;         ///< d_j >= 0

  int jobs() const { return static_cast<int>(processing.size()); }
  /// T = sum_j max(0, X_j - d_j) of eq. (37) for a complete schedule (the jobs in order).
  std::int64_t tardiness(std::span<const int> schedule) const;
  bool operator==(const TardinessInstance&) const = default;
};

/// The generator's distribution, after Potts and Van Wassenhove (1982, 1985): e_j uniform
/// integer in [1, 100]; with P = sum e_j, d_j uniform integer in
/// [P (1 - TF - RDD/2), P (1 - TF + RDD/2)], clamped below at 0. TF (tardiness factor)
/// moves the due dates earlier, RDD (relative range of due dates) spreads them.
struct TardinessGeneratorParams {
  double tardiness_factor = 0.6;   ///< TF in [0, 1]
  double due_date_range = 0.6;     ///< RDD in [0, 1]
};

/// A random instance of `jobs` jobs (1 to kMaxTardinessJobs) drawn from `rng`. Throws
/// InputError for a job count or a TF/RDD out of range.
TardinessInstance generate_tardiness_instance(int jobs, Rng& rng, const TardinessGeneratorParams& params = {});

/// The text format (docs/apps/tardiness.md): '#' starts a comment, blank lines are
/// skipped; the first line is "jobs N", then N lines "e_j d_j" of integers. `name` is used
/// in error messages, which read "name:line: problem; accepted: ..." (InputError).
TardinessInstance read_tardiness_instance(std::istream& in, const std::string& name);
/// Reads a file; an unreadable file is an InputError naming it.
TardinessInstance load_tardiness_instance(const std::string& path);
/// Writes the format read_tardiness_instance reads, with a header comment.
void write_tardiness_instance(std::ostream& out, const TardinessInstance& instance);
/// Writes a file; an unwritable file is an InputError naming it.
void save_tardiness_instance(const std::string& path, const TardinessInstance& instance);

/// The job indices in earliest-due-date order: by due date, then by processing time, then
/// by index. solve_tardiness tries the jobs in this order, and it is the first incumbent.
std::vector<int> edd_order(const TardinessInstance& instance);

/// Optimise mode: the bound is the best complete schedule found so far.
struct TardinessOptimum {
  std::int64_t tardiness = 0;
  std::vector<int> schedule;  ///< job indices in processing order
  std::uint64_t steps = 0;    ///< search steps (nodes searched)
};

/// Finds an optimal schedule. The search starts from the earliest-due-date schedule as
/// the incumbent, tries jobs in earliest-due-date order at every node and prunes a prefix
/// whose partial tardiness is >= the incumbent's (it cannot lead to a strictly better
/// schedule), as in WLR93 Sec. V-C. The steps therefore depend on the search order.
TardinessOptimum solve_tardiness(const TardinessInstance& instance);

/// Threshold mode: the paper's fixed requirement (Sec. V-C).
struct TardinessCount {
  std::uint64_t steps = 0;      ///< search steps (nodes searched)
  std::uint64_t schedules = 0;  ///< complete schedules with total tardiness <= threshold
};

/// Counts every complete schedule that starts with `prefix` (distinct job indices, fewer
/// than jobs()) and has total tardiness <= `threshold`, pruning each prefix whose partial
/// tardiness exceeds it. Steps are those below `prefix`: its own node is not counted.
/// The searched tree does not depend on the order of the search.
TardinessCount count_schedules_within(const TardinessInstance& instance, std::int64_t threshold,
                                      std::span<const int> prefix = {});

/// One task of the decomposition: a prefix of n - m jobs whose subtree is searched whole.
struct TardinessTask {
  std::vector<int> prefix;
  std::int64_t partial_tardiness = 0;
};

/// The tree cut at depth n - m (WLR93 Table V): the prefixes at that depth that survive
/// the threshold are the tasks (s = n!/m! of them with no threshold). count_schedules_within
/// on a task gives its steps; the sequential search's steps equal steps_above plus the sum
/// of the tasks' steps, and its schedules the sum of the tasks' schedules.
struct TardinessDecomposition {
  int task_dimension = 0;            ///< m: the jobs each task leaves free
  std::vector<TardinessTask> tasks;  ///< in depth-first (lexicographic) order
  std::uint64_t steps_above = 0;     ///< nodes searched at depths 1..n-m, tasks and pruned prefixes included
};

/// Throws InputError unless 1 <= task_dimension <= jobs().
TardinessDecomposition decompose_tardiness(const TardinessInstance& instance, int task_dimension,
                                           std::int64_t threshold);

}  // namespace dlbkit
