#include <dlbkit/apps/bnb_search.hpp>
#include <dlbkit/workloads/bnb_workload.hpp>
#include <dlbkit/sim/workload.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/sim/pending_nodes.hpp>

#include <cmath>
#include <fmt/format.h>
#include <optional>

namespace dlbkit {

namespace {

class BranchAndBound final : public Workload {
public:
  static constexpr const char* name = "bnb";
  static constexpr const char* description =
      "branch-and-bound total tardiness: subtrees at depth n-m as tasks, work = real search steps x step_time";
  static constexpr const char* source = "WLR93 Sec. V-C, Table V, Fig. 8";
  static constexpr IntegerParam kM{.name = "m", .default_value = "8",
      .description = "task dimension: jobs left free in each task, 1 to n (Table V: 6 to 9)", .min = 1,
      .max = kMaxTardinessJobs};
  static constexpr DurationParam kStepTime{.name = "step_time", .default_value = "150us",
      .description = "processor time of one search step (WLR93 Sec. V-C: about 150 us); a fraction of a ns is kept "
                     "(6.3ns), each task's work is its steps x step_time rounded to whole ns",
      .min = 1, .fractional = true};
  static constexpr ChoiceParam kPlacement{.name = "placement", .default_value = "blocks",
      .description = "the tasks at depth n-m, in depth-first order, dealt to the nodes in contiguous blocks (each "
                     "node its own branch, as in the paper) or cyclic; or tree: the bnb app's tasks in threshold "
                     "mode, split from the root on node 0",
      .choices = {"blocks", "cyclic", "tree"}};
  /// The parameters of the search, which the instance does not fix.
  static std::vector<ParamSpec> search_params() {
    std::vector<ParamSpec> params{kM};
    for (ParamSpec& spec : bnb_threshold_params()) params.push_back(std::move(spec));
    params.push_back(kStepTime);
    params.push_back(kPlacement);
    return params;
  }
  /// With a generated instance.
  static std::vector<ParamSpec> params() {
    std::vector<ParamSpec> params = bnb_instance_params("auto");
    for (ParamSpec& spec : search_params()) params.push_back(std::move(spec));
    return params;
  }

  // tree: children appear as tasks complete.
  bool closed() const override { return placement_ != kPlacement.choice("tree"); }

  explicit BranchAndBound(const Parameters& p) : BranchAndBound(p, std::nullopt) {}

  BranchAndBound(const Parameters& p, std::optional<TardinessInstance> fixed)
      : params_(p),
        fixed_(std::move(fixed)),
        m_(static_cast<int>(p[kM])),
        step_time_(p.fractional_duration(kStepTime.name)),
        placement_(p[kPlacement]) {
    const int n = fixed_ ? fixed_->jobs() : static_cast<int>(p.integer("n"));
    if (m_ > n)
      throw InputError(fmt::format("workload bnb: parameter m={} is not accepted for n = {} jobs; accepted: 1 to {}", m_, n, n));
  }

  void initial_tasks(const Topology& topology, const CostModel&, Rng& rng, TaskSink& sink) override {
    const TardinessInstance instance = fixed_ ? *fixed_ : bnb_instance(params_, &rng);
    const std::int64_t threshold = bnb_threshold(params_, instance);
    if (placement_ == kPlacement.choice("tree")) return start_tree(instance, threshold, sink);
    const TardinessDecomposition tasks = decompose_tardiness(instance, m_, threshold);
    if (tasks.tasks.empty()) no_task(instance, threshold);
    const std::size_t s = tasks.tasks.size(), N = topology.size();
    for (std::size_t i = 0; i < s; ++i) {
      const std::uint64_t steps = count_schedules_within(instance, threshold, tasks.tasks[i].prefix).steps;
      const auto node = static_cast<NodeId>(placement_ == kPlacement.choice("cyclic") ? i % N : i * N / s);
      sink.add(node, work_of(steps), static_cast<std::uint32_t>(i));
    }
  }

  // placement=tree: the app's tasks (BnbTaskTree in threshold mode), from the root on node 0.
  void on_completed(const Task& done, NodeId node, Rng&, TaskSink& sink) override {
    if (!tree_ || done.tag == kWhole) return;
    const Prefix p = pending_.take(node, done.tag);
    tree_->split(p, [this] { return bound_; }, [](const Prefix&) {}, [&](const Prefix& c) { add(node, c, sink); });
  }

  // placement=tree: a prefix's children are made from it and the fixed bound alone, so
  // partitions run apart, each with the prefixes of its tasks; a task searched whole has none.
  bool runs_apart() const override { return true; }
  std::size_t task_state_bytes() const override { return closed() ? 0 : 1 + sizeof(Prefix); }
  void split(std::span<const NodeId> bounds) override { pending_.split(bounds); }
  void export_state(const Task& task, unsigned part, std::span<std::byte> out) override {
    out[0] = std::byte{task.tag == kWhole};
    if (task.tag != kWhole) pending_.export_node(part, task.tag, out.subspan(1));
  }
  std::uint32_t import_state(unsigned part, std::span<const std::byte> state) override {
    return state[0] == std::byte{1} ? kWhole : pending_.import_node(part, state.subspan(1));
  }

private:
  using Prefix = BnbTaskTree::Prefix;
  static constexpr std::uint32_t kWhole = 0xFFFFFFFFu;  // the tag of a task searched whole: no children

  void start_tree(const TardinessInstance& instance, std::int64_t threshold, TaskSink& sink) {
    if (count_schedules_within(instance, threshold).schedules == 0) no_task(instance, threshold);
    tree_.emplace(instance, m_);
    bound_ = threshold_bound(threshold);
    add(0, tree_->root(), sink);
  }

  // A task's work: its search whole, or forming its children.
  void add(NodeId node, const Prefix& p, TaskSink& sink) {
    std::uint64_t steps = 0;
    if (tree_->searched_whole(p)) {
      Prefix q = p;
      tree_->search(q, [this] { return bound_; }, [](const Prefix&) {}, [] {}, steps);
      sink.add(node, work_of(steps), kWhole);
      return;
    }
    steps = tree_->jobs() - static_cast<int>(p.depth);
    sink.add(node, work_of(steps), pending_.put(node, p));
  }

  SimTime work_of(std::uint64_t steps) const {
    const std::optional<SimTime> work = units_work(steps, step_time_);
    if (!work || *work > 1'000'000 * kSecond)
      throw InputError(fmt::format("bnb: a task of {} search steps at step_time={} takes more than 1e6 s; accepted: "
                                   "a shorter step_time or a smaller task dimension m",
                                   steps, params_.text(kStepTime.name)));
    return *work;
  }

  [[noreturn]] static void no_task(const TardinessInstance& instance, std::int64_t threshold) {
    throw InputError(fmt::format("workload bnb: threshold={} leaves no task; accepted: a threshold >= the optimum {}",
                                 threshold, solve_tardiness(instance).tardiness));
  }

  Parameters params_;
  std::optional<TardinessInstance> fixed_;
  int m_;
  double step_time_;  // ns, a fraction allowed
  std::string placement_;
  std::optional<BnbTaskTree> tree_;  // placement=tree
  std::int64_t bound_ = 0;
  PendingNodes<Prefix> pending_;
};

}  // namespace

WorkloadInfo bnb_workload_info() { return workload_info<BranchAndBound>(); }

WorkloadInfo bnb_workload_info(TardinessInstance instance) {
  WorkloadInfo info = workload_info<BranchAndBound>();
  info.description = fmt::format("branch-and-bound total tardiness on a fixed {}-job instance", instance.jobs());
  info.params = BranchAndBound::search_params();
  info.create = [instance = std::move(instance)](const Parameters& p) {
    return std::make_unique<BranchAndBound>(p, instance);
  };
  return info;
}

}  // namespace dlbkit
