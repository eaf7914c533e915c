// The total-tardiness branch and bound (WLR93 Sec. V-C) against exhaustive enumeration,
// its decomposition (Table V), the generator and the file format.

#include "../support/temp_path.hpp"

#include <dlbkit/apps/tardiness.hpp>
#include <dlbkit/error.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <numeric>
#include <set>
#include <sstream>

using namespace dlbkit;

namespace {

/// Every schedule's total tardiness, by enumerating all n! permutations.
std::vector<std::int64_t> all_tardinesses(const TardinessInstance& instance) {
  std::vector<int> order(static_cast<std::size_t>(instance.jobs()));
  std::iota(order.begin(), order.end(), 0);
  std::vector<std::int64_t> out;
  do out.push_back(instance.tardiness(order));
  while (std::next_permutation(order.begin(), order.end()));
  return out;
}

/// Random instances with n = 1..8 from a spread of generator settings.
std::vector<TardinessInstance> small_instances() {
  std::vector<TardinessInstance> out;
  Rng rng(37);
  for (int n = 1; n <= 8; ++n)
    for (double tf : {0.2, 0.6, 1.0})
      for (double rdd : {0.2, 1.0})
        for (int rep = 0; rep < 4; ++rep) out.push_back(generate_tardiness_instance(n, rng, {tf, rdd}));
  return out;
}

std::uint64_t unpruned_steps(int n) {  // sum_{k=1..n} n!/(n-k)!
  std::uint64_t sum = 0, term = 1;
  for (int k = 1; k <= n; ++k) sum += (term *= static_cast<std::uint64_t>(n - k + 1));
  return sum;
}

std::uint64_t factorial(int n) { return n <= 1 ? 1 : static_cast<std::uint64_t>(n) * factorial(n - 1); }

TardinessInstance example() {
  return TardinessInstance{.processing = {4, 7, 2, 9, 5, 3}, .due = {6, 12, 3, 30, 10, 8}};
}

}  // namespace

TEST(Tardiness, TardinessOfAScheduleFollowsEq37) {
  const TardinessInstance jobs = example();
  // Order 2,0,5,4,1,3: completions 2,6,9,14,21,30 against due 3,6,8,10,12,30.
  const std::vector<int> schedule = {2, 0, 5, 4, 1, 3};
  EXPECT_EQ(jobs.tardiness(schedule), 0 + 0 + 1 + 4 + 9 + 0);
}

TEST(Tardiness, OptimumEqualsExhaustiveEnumeration) {
  int checked = 0;
  for (const TardinessInstance& jobs : small_instances()) {
    const std::vector<std::int64_t> all = all_tardinesses(jobs);
    const TardinessOptimum best = solve_tardiness(jobs);
    SCOPED_TRACE(::testing::Message() << jobs.jobs() << " jobs, instance " << checked);
    EXPECT_EQ(best.tardiness, *std::min_element(all.begin(), all.end()));
    std::vector<int> sorted = best.schedule;
    std::sort(sorted.begin(), sorted.end());
    std::vector<int> expected(static_cast<std::size_t>(jobs.jobs()));
    std::iota(expected.begin(), expected.end(), 0);
    EXPECT_EQ(sorted, expected) << "the schedule is not a permutation of the jobs";
    EXPECT_EQ(jobs.tardiness(best.schedule), best.tardiness);
    ++checked;
  }
  EXPECT_EQ(checked, 8 * 3 * 2 * 4);
}

TEST(Tardiness, ThresholdModeCountsExactlyTheSchedulesWithin) {
  for (const TardinessInstance& jobs : small_instances()) {
    std::vector<std::int64_t> all = all_tardinesses(jobs);
    std::sort(all.begin(), all.end());
    const std::vector<std::int64_t> thresholds = {all.front() - 1, all.front(), all[all.size() / 4], all[all.size() / 2],
                                                  all.back() - 1, all.back(), kNoTardinessThreshold};
    for (std::int64_t T : thresholds) {
      const auto within = static_cast<std::uint64_t>(std::upper_bound(all.begin(), all.end(), T) - all.begin());
      EXPECT_EQ(count_schedules_within(jobs, T).schedules, within) << jobs.jobs() << " jobs, T = " << T;
    }
  }
}

TEST(Tardiness, NoThresholdSearchesTheWholeTree) {
  for (int n = 1; n <= 9; ++n) {
    Rng rng(static_cast<std::uint64_t>(n));
    const TardinessCount all = count_schedules_within(generate_tardiness_instance(n, rng), kNoTardinessThreshold);
    EXPECT_EQ(all.schedules, factorial(n));
    EXPECT_EQ(all.steps, unpruned_steps(n)) << n << " jobs";
  }
}

TEST(Tardiness, StepsCountEveryNodeFormedIncludingPrunedOnes) {
  // Two jobs of 5 due at 5. The root's children, job 0 and job 1, are on time: 2 steps.
  // Each has one child, the other job, late by 5: 2 more steps, pruned when T < 5.
  const TardinessInstance jobs{.processing = {5, 5}, .due = {5, 5}};
  const TardinessCount c = count_schedules_within(jobs, 0);
  EXPECT_EQ(c.steps, 4u);
  EXPECT_EQ(c.schedules, 0u);
  const TardinessCount c5 = count_schedules_within(jobs, 5);
  EXPECT_EQ(c5.steps, 4u);
  EXPECT_EQ(c5.schedules, 2u);
  // A prefix's own node is not a step of its subtree.
  const std::vector<int> prefix = {1};
  EXPECT_EQ(count_schedules_within(jobs, 5, prefix).steps, 1u);
}

TEST(Tardiness, ThresholdSearchDoesNotDependOnTheOrderOfTheJobs) {
  // Relabelling the jobs changes the order in which the search tries them, not the tree.
  Rng rng(5);
  for (int rep = 0; rep < 10; ++rep) {
    const TardinessInstance jobs = generate_tardiness_instance(9, rng);
    std::vector<int> perm(9);
    std::iota(perm.begin(), perm.end(), 0);
    for (int i = 8; i > 0; --i) std::swap(perm[static_cast<std::size_t>(i)], perm[rng.below(static_cast<std::uint64_t>(i) + 1)]);
    TardinessInstance shuffled;
    for (int j : perm) {
      shuffled.processing.push_back(jobs.processing[static_cast<std::size_t>(j)]);
      shuffled.due.push_back(jobs.due[static_cast<std::size_t>(j)]);
    }
    const std::int64_t T = solve_tardiness(jobs).tardiness * 5 / 4;
    const TardinessCount a = count_schedules_within(jobs, T), b = count_schedules_within(shuffled, T);
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(a.schedules, b.schedules);
    EXPECT_EQ(solve_tardiness(shuffled).tardiness, solve_tardiness(jobs).tardiness);
  }
}

TEST(Tardiness, DecompositionSumsToTheSequentialSearchInAnyOrder) {
  Rng rng(11);
  for (int rep = 0; rep < 6; ++rep) {
    const TardinessInstance jobs = generate_tardiness_instance(8, rng);
    const std::int64_t optimum = solve_tardiness(jobs).tardiness;
    for (std::int64_t T : {optimum, optimum + optimum / 3, kNoTardinessThreshold}) {
      const TardinessCount sequential = count_schedules_within(jobs, T);
      for (int m = 1; m <= 8; ++m) {
        const TardinessDecomposition d = decompose_tardiness(jobs, m, T);
        // Spread the tasks over 4 "processors" at random and solve each processor's
        // share in a shuffled order.
        std::vector<std::size_t> order(d.tasks.size());
        std::iota(order.begin(), order.end(), 0);
        for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
        std::vector<TardinessCount> per_processor(4);
        for (std::size_t i : order) {
          const TardinessCount c = count_schedules_within(jobs, T, d.tasks[i].prefix);
          TardinessCount& p = per_processor[rng.below(4)];
          p.steps += c.steps;
          p.schedules += c.schedules;
        }
        std::uint64_t steps = d.steps_above, schedules = 0;
        for (const TardinessCount& p : per_processor) {
          steps += p.steps;
          schedules += p.schedules;
        }
        EXPECT_EQ(steps, sequential.steps) << "m = " << m << ", T = " << T;
        EXPECT_EQ(schedules, sequential.schedules) << "m = " << m << ", T = " << T;
      }
    }
  }
}

TEST(Tardiness, TasksAreThePrefixesSurvivingTheThreshold) {
  Rng rng(3);
  for (int rep = 0; rep < 8; ++rep) {
    const TardinessInstance jobs = generate_tardiness_instance(7, rng, {0.8, 0.4});
    std::vector<std::int64_t> all = all_tardinesses(jobs);
    std::sort(all.begin(), all.end());
    const std::int64_t T = all[all.size() / 10];
    for (int m = 1; m <= 7; ++m) {
      const int depth = 7 - m;
      // Every prefix of length n - m whose partial tardiness is within T, by enumeration.
      std::set<std::vector<int>> expected;
      std::vector<int> order = {0, 1, 2, 3, 4, 5, 6};
      do {
        const std::vector<int> prefix(order.begin(), order.begin() + depth);
        if (jobs.tardiness(prefix) <= T) expected.insert(prefix);
      } while (std::next_permutation(order.begin(), order.end()));
      const TardinessDecomposition d = decompose_tardiness(jobs, m, T);
      std::set<std::vector<int>> got;
      for (const TardinessTask& t : d.tasks) {
        got.insert(t.prefix);
        EXPECT_EQ(t.partial_tardiness, jobs.tardiness(t.prefix));
      }
      EXPECT_EQ(got.size(), d.tasks.size()) << "a task appears twice";
      EXPECT_EQ(got, expected) << "m = " << m;
      EXPECT_TRUE(std::is_sorted(d.tasks.begin(), d.tasks.end(),
                                 [](const TardinessTask& a, const TardinessTask& b) { return a.prefix < b.prefix; }));
    }
  }
}

TEST(Tardiness, TableVTaskCountsWithoutThreshold) {
  // WLR93 Table V, n = 11: s = n!/m!. The paper prints 56440 for m = 6; 11!/6! = 55440.
  Rng rng(1);
  const TardinessInstance jobs = generate_tardiness_instance(11, rng);
  const std::vector<std::pair<int, std::size_t>> table = {{6, 55440}, {7, 7920}, {8, 990}, {9, 110}};
  for (const auto& [m, s] : table) {
    const TardinessDecomposition d = decompose_tardiness(jobs, m, kNoTardinessThreshold);
    EXPECT_EQ(d.tasks.size(), s) << "m = " << m;
    EXPECT_EQ(d.tasks.size(), factorial(11) / factorial(m));
  }
  // One task of dimension m takes sum_{k=1..m} m!/(m-k)! steps unpruned.
  const TardinessDecomposition d9 = decompose_tardiness(jobs, 9, kNoTardinessThreshold);
  EXPECT_EQ(count_schedules_within(jobs, kNoTardinessThreshold, d9.tasks[17].prefix).steps, unpruned_steps(9));
}

TEST(Tardiness, WholeTreeAsOneTask) {
  const TardinessInstance jobs = example();
  const TardinessDecomposition d = decompose_tardiness(jobs, jobs.jobs(), 10);
  ASSERT_EQ(d.tasks.size(), 1u);
  EXPECT_TRUE(d.tasks[0].prefix.empty());
  EXPECT_EQ(d.steps_above, 0u);
  EXPECT_THROW(decompose_tardiness(jobs, 0, 10), InputError);
  EXPECT_THROW(decompose_tardiness(jobs, 7, 10), InputError);
}

TEST(Tardiness, GeneratorIsSeededAndFollowsItsDistribution) {
  Rng a(9), b(9), c(10);
  const TardinessInstance x = generate_tardiness_instance(20, a), y = generate_tardiness_instance(20, b),
                          z = generate_tardiness_instance(20, c);
  EXPECT_EQ(x, y);
  EXPECT_NE(x, z);
  Rng rng(1);
  for (int rep = 0; rep < 200; ++rep) {
    const double tf = rng.uniform(), rdd = rng.uniform();
    const TardinessInstance jobs = generate_tardiness_instance(1 + static_cast<int>(rng.below(20)), rng, {tf, rdd});
    ASSERT_EQ(jobs.processing.size(), jobs.due.size());
    const double P = std::accumulate(jobs.processing.begin(), jobs.processing.end(), 0.0);
    for (int j = 0; j < jobs.jobs(); ++j) {
      const auto e = jobs.processing[static_cast<std::size_t>(j)], d = jobs.due[static_cast<std::size_t>(j)];
      EXPECT_GE(e, 1);
      EXPECT_LE(e, 100);
      EXPECT_GE(d, 0);
      EXPECT_GE(d, std::floor(P * (1 - tf - rdd / 2)) - 1);
      EXPECT_LE(d, std::ceil(P * (1 - tf + rdd / 2)) + 1);
    }
  }
  EXPECT_THROW(generate_tardiness_instance(0, rng), InputError);
  EXPECT_THROW(generate_tardiness_instance(21, rng), InputError);
  EXPECT_THROW(generate_tardiness_instance(5, rng, {1.5, 0.5}), InputError);
}

TEST(TardinessFile, RoundTrip) {
  Rng rng(4);
  for (int n : {1, 7, 20}) {
    const TardinessInstance jobs = generate_tardiness_instance(n, rng);
    std::stringstream text;
    write_tardiness_instance(text, jobs);
    EXPECT_EQ(read_tardiness_instance(text, "mem"), jobs);
  }
  const auto path = dlbkit::test::temp_path("tardiness.txt");
  save_tardiness_instance(path.string(), example());
  EXPECT_EQ(load_tardiness_instance(path.string()), example());
  std::filesystem::remove(path);
  EXPECT_THROW(load_tardiness_instance((path.parent_path() / "no/such/dir/x.txt").string()), InputError);
}

TEST(TardinessFile, CommentsAndBlankLinesAreSkipped) {
  std::istringstream text("# an instance\n\njobs 2   # two jobs\n  3 4\n# between\n5 0\n\n");
  EXPECT_EQ(read_tardiness_instance(text, "f"), (TardinessInstance{.processing = {3, 5}, .due = {4, 0}}));
}

TEST(TardinessFile, MalformedFilesNameTheLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "f.txt:0: no 'jobs N' line"},
      {"# nothing\n\n", "f.txt:2: no 'jobs N' line"},
      {"3 4\n", "f.txt:1: expected 'jobs N'"},
      {"jobs\n", "f.txt:1: expected 'jobs N'"},
      {"jobs x\n", "f.txt:1: expected 'jobs N'"},
      {"jobs 0\n", "f.txt:1: jobs 0 is not accepted"},
      {"# c\njobs 21\n", "f.txt:2: jobs 21 is not accepted"},
      {"jobs 2\n1 2\n3\n", "f.txt:3: expected 'processing_time due_date'"},
      {"jobs 2\n1 2\n3 4 5\n", "f.txt:3: expected 'processing_time due_date'"},
      {"jobs 2\n1 2\n3 x\n", "f.txt:3: expected 'processing_time due_date'"},
      {"jobs 2\n1.5 2\n", "f.txt:2: expected 'processing_time due_date'"},
      {"jobs 2\n0 2\n", "f.txt:2: processing time 0 is not accepted"},
      {"jobs 2\n1 -2\n", "f.txt:2: due date -2 is not accepted"},
      {"jobs 2\n1 2\n\n", "f.txt:3: the file ends after 1 of its 2 jobs"},
      {"jobs 1\n1 2\n3 4\n", "f.txt:3: '3 4' after the 1 jobs"},
  };
  for (const auto& [text, message] : cases) {
    std::istringstream in(text);
    try {
      read_tardiness_instance(in, "f.txt");
      ADD_FAILURE() << "no error for '" << text << "'";
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(message), std::string::npos) << e.what() << " should contain: " << message;
    }
  }
}
