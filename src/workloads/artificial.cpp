#include <dlbkit/apps/artificial_tasks.hpp>
#include <dlbkit/sim/workload.hpp>

#include <cassert>
#include <cstdint>
#include <memory>
#include <vector>

namespace dlbkit {

namespace {

// The tasks drawn when taken: per node, the stream where its first task not yet taken is
// drawn (48 bytes a node, where 100 tasks held take 1 600). A task from the back of the
// list passes over the draws of the ones before it.
class DeferredArtificial final : public DeferredTasks {
public:
  DeferredArtificial(const ArtificialTasks& tasks, std::size_t nodes, SimTime loop_time, Rng& rng)
      : draws_(tasks.draws(nodes, loop_time)), g_(static_cast<std::uint32_t>(tasks.granularity())) {
    lists_.reserve(nodes);
    for (std::size_t v = 0; v < nodes; ++v) {
      const double bound = draws_.node(rng);
      lists_.push_back({rng, bound, 0});
      ArtificialTasks::Draws::skip(rng, g_);
    }
  }

  std::uint32_t count(NodeId /*v*/) const override { return g_; }

  Task take_front(NodeId v) override {
    List& list = lists_[v - first_];
    return {first_id(v) + list.taken++, draws_.task(list.next, list.bound), 0, 0};
  }

  Task take_back(NodeId v, std::uint32_t left) override {
    const List& list = lists_[v - first_];
    Rng rng = list.next;
    ArtificialTasks::Draws::skip(rng, left - 1);
    return {first_id(v) + list.taken + left - 1, draws_.task(rng, list.bound), 0, 0};
  }

  void keep_only(NodeId first, NodeId last) override {
    assert(first >= first_ && last >= first && last - first_ <= lists_.size());
    std::vector<List>(lists_.begin() + (first - first_), lists_.begin() + (last - first_)).swap(lists_);
    first_ = first;
  }

  Place place() const override {
    return {reinterpret_cast<std::uintptr_t>(lists_.data()) - std::uintptr_t{first_} * sizeof(List), sizeof(List)};
  }

private:
  struct List {
    Rng next;             // draws the first task not yet taken
    double bound;         // of the node's tasks' tau
    std::uint32_t taken;  // from the front
  };
  std::uint64_t first_id(NodeId v) const { return std::uint64_t{v} * g_; }

  ArtificialTasks::Draws draws_;
  std::uint32_t g_;
  std::vector<List> lists_;  // of the nodes from first_ on
  NodeId first_ = 0;
};

/// The artificial workload of WLR93 Sec. V-A (Table III).
///
/// Its tasks are apps/artificial_tasks.hpp's draw (eq. 33-35), the same as the runtime's `busy`
/// app; a loop costs the cost model's loop_time (1.3 us on the iPSC/2).
class Artificial final : public Workload {
public:
  static constexpr const char* name = "artificial";
  static constexpr const char* description =
      "WLR93's random busy-loop tasks: g tasks per node, node loads uniform around L/N";
  static constexpr const char* source = "WLR93 Sec. V-A, Table III";
  static std::vector<ParamSpec> params() { return artificial_task_params(); }

  bool closed() const override { return true; }
  explicit Artificial(const Parameters& p) : tasks_(p) {}

  void initial_tasks(const Topology& topology, const CostModel& cost, Rng& rng, TaskSink& sink) override {
    tasks_.draw(topology.size(), cost.loop_time, rng, [&](NodeId node, SimTime work) { sink.add(node, work); });
  }

  std::unique_ptr<DeferredTasks> defer_initial_tasks(const Topology& topology, const CostModel& cost,
                                                     Rng& rng) override {
    return std::make_unique<DeferredArtificial>(tasks_, topology.size(), cost.loop_time, rng);
  }

private:
  ArtificialTasks tasks_;
};

}  // namespace

WorkloadInfo artificial_workload_info() { return workload_info<Artificial>(); }

}  // namespace dlbkit
