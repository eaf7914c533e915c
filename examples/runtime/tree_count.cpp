// Counting the nodes of an unbalanced tree on 4 worker threads with work stealing, and
// checking the count against the sequential run: the whole application API in one file.
//
//   cmake --build build --target dlbkit_example_tree_count && build/bin/dlbkit_example_tree_count

#include <dlbkit/runtime/application.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/strategies/builtin.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <cstdio>

// A task: one tree node. Trivially copyable: it travels between workers as bytes.
struct Node {
  std::uint64_t id;
  std::uint32_t depth;
};

// The result: a sum over the tasks.
struct Count {
  std::uint64_t nodes;
  std::uint64_t leaves;
};

class TreeCount final : public dlbkit::Application<Node, Count> {
public:
  // Worker 0 starts with the root; the others start empty.
  std::vector<Node> roots(dlbkit::NodeId worker, std::size_t) const override {
    if (worker == 0) return {Node{1, 0}};
    return {};
  }
  // A node has 0 or 4 children, decided by a hash of its id (a binomial tree, as in UTS).
  void execute(const Node& node, dlbkit::TaskContext<Node, Count>& ctx) override {
    ++ctx.result().nodes;
    const int children = node.depth == 0 ? 2000 : (mix(node.id) % 10000 < 2495 ? 4 : 0);
    if (children == 0) ++ctx.result().leaves;
    for (int c = 0; c < children; ++c) ctx.spawn(Node{mix(node.id * 31 + static_cast<std::uint64_t>(c)), node.depth + 1});
  }
  void combine(Count& into, const Count& other) const override {
    into.nodes += other.nodes;
    into.leaves += other.leaves;
  }
  nlohmann::json report(const Count& c) const override { return {{"nodes", c.nodes}, {"leaves", c.leaves}}; }

private:
  static std::uint64_t mix(std::uint64_t z) {  // splitmix64's finaliser
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
};

int main() {
  TreeCount app;
  const dlbkit::Topology topology = dlbkit::parse_topology("hypercube:2");  // 4 workers
  const dlbkit::RuntimeConfig config{.topology = &topology,
                                     .strategy = dlbkit::builtin_strategies().configure("work_stealing", {})};
  const dlbkit::RuntimeResult parallel = dlbkit::run_threads(app, config);
  const dlbkit::RuntimeResult sequential = dlbkit::run_sequential(app, topology.size());
  std::printf("tree: %s\n", app.report_bytes(parallel.result.data()).dump().c_str());
  std::printf("same as sequential: %s\n", dlbkit::same_result(app, sequential, parallel) ? "yes" : "no");
  std::printf("tasks moved between the 4 workers: %s\n", parallel.tasks_moved() > 0 ? "some" : "none");
  return dlbkit::same_result(app, sequential, parallel) ? 0 : 1;
}
