// The `uts` app: a UTS tree (apps/uts.hpp), standard or custom, counted by the runtimes, in
// one of two modes (the `tasks` parameter):
// - node (the default): a task is one node (its 24 bytes: digest and height); executing it
//   counts it and spawns its children, whose digests it computes (one SHA-1 each), as the
//   reference UTS implementation does. The simulator's `uts` workload and `--record` mirror
//   this tree of tasks.
// - subtree: a task explores its subtree itself, depth first on a stack of its own, as X10
//   GLB's UTS does (Saraswat et al., PPoPP 2011): it counts nodes in the sequential
//   counter's loop, calls poll(split) per node, and gives work away only when a strategy
//   asks, as GLB does, though not GLB's halves (the split below says why). With
//   split=children it hands each unvisited child over as a task of its own and counts its
//   frontier as the work it holds: the worker's load and the stack a split leaves are then
//   node mode's, so the strategies that count tasks see the work, not the one or two tasks
//   a split by levels leaves.

#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/apps/uts.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <fmt/format.h>

namespace dlbkit {

namespace {

struct UtsCount {
  std::uint64_t nodes;
  std::uint64_t leaves;
  std::int32_t max_depth;
  std::int32_t reserved;
};

// What both task modes share: the tree, its child counts, and how counts combine.
template <class Task>
class UtsApp : public ReportedApplication<Task, UtsCount> {
public:
  explicit UtsApp(uts::TreeParams tree) : tree_(tree), child_count_(tree) {}

  void combine(UtsCount& into, const UtsCount& o) const override {
    into.nodes += o.nodes;
    into.leaves += o.leaves;
    into.max_depth = std::max(into.max_depth, o.max_depth);
  }

  nlohmann::json report(const UtsCount& r) const override {
    return {{"nodes", r.nodes}, {"leaves", r.leaves}, {"max_depth", r.max_depth}};
  }

protected:
  uts::TreeParams tree_;
  uts::ChildCounter child_count_;  // the table count_sequential uses: the same cost per node
};

class Uts final : public UtsApp<uts::Node> {
public:
  using UtsApp::UtsApp;

  std::vector<uts::Node> roots(NodeId worker, std::size_t) const override {
    if (worker != 0) return {};
    return {uts::root(tree_)};
  }

  void execute(const uts::Node& node, TaskContext<uts::Node, UtsCount>& ctx) override {
    UtsCount& r = ctx.result();
    ++r.nodes;
    r.max_depth = std::max(r.max_depth, node.height);
    const int children = child_count_(node);
    if (children == 0) ++r.leaves;
    for (int i = 0; i < children; ++i) ctx.spawn(uts::child(tree_, node, i));
  }
};

// tasks=subtree. A task is children [first, last) of `node` with their subtrees, or, when
// first < 0, the node itself with its whole subtree (the root). 32 bytes.
struct Subtree {
  uts::Node node;
  std::int32_t first, last;
};

class UtsSubtree final : public UtsApp<Subtree> {
public:
  UtsSubtree(uts::TreeParams tree, bool by_child) : UtsApp(tree), by_child_(by_child) {}

  std::vector<Subtree> roots(NodeId worker, std::size_t) const override {
    if (worker != 0) return {};
    return {Subtree{uts::root(tree_), -1, -1}};
  }

  // The loop of uts::count_sequential: one frame per level of the current path (the node,
  // its number of children, the next child to visit), leaves counted without a frame.
  void execute(const Subtree& task, TaskContext<Subtree, UtsCount>& ctx) override {
    struct Frame {
      uts::Node node;
      std::int32_t count, next;
    };
    std::vector<Frame> path;
    std::uint64_t nodes = 0, leaves = 0;
    std::uint64_t frontier = 0;  // the frames' unvisited children: a tasks=node worker's stack
    std::int32_t max_depth = 0;
    const auto visit = [&](const uts::Node& node) {
      ++nodes;
      max_depth = std::max(max_depth, node.height);
      const int n = child_count_(node);
      if (n == 0) ++leaves;
      else path.push_back({node, n, 0});
      frontier += static_cast<std::uint64_t>(n);
    };
    // The split hands the whole frontier to the worker's stack: every frame's unvisited
    // children become one task, oldest frame first, and this task ends. The strategy takes
    // its share from the bottom, the children nearest the root (the largest subtrees); the
    // worker goes on from the top, the deepest frame, in the order this loop would have
    // taken. (GLB's split gives the thief the upper half of every frame's children; a split
    // that kept the lower halves here left work_stealing half of a half to give, and on
    // T3L the 2 workers were idle 2.2 and 2.7 times as long, in two paired runs.)
    // split=children: a task per child instead, the last first, so that the worker goes on
    // in the same order; and the task's load is its frontier, as the strategies would count
    // it in node mode (poll's `remaining`).
    const auto split = [&] {
      for (Frame& f : path) {
        if (f.next == f.count) continue;
        if (!by_child_) ctx.spawn(Subtree{f.node, f.next, f.count});
        else
          for (std::int32_t i = f.count; i-- > f.next;) ctx.spawn(Subtree{f.node, i, i + 1});
        f.next = f.count;
      }
      frontier = 0;
    };
    if (task.first < 0) visit(task.node);
    else {
      path.push_back({task.node, task.last, task.first});
      frontier = static_cast<std::uint64_t>(task.last - task.first);
    }
    while (!path.empty()) {
      Frame& top = path.back();
      if (top.next == top.count) {
        path.pop_back();
        continue;
      }
      const uts::Node next = uts::child(tree_, top.node, top.next++);
      --frontier;
      visit(next);  // may reallocate path: `top` is not used after this
      if (by_child_) ctx.poll(split, frontier);
      else ctx.poll(split);
    }
    combine(ctx.result(), UtsCount{nodes, leaves, max_depth, 0});
  }

private:
  bool by_child_;
};

}  // namespace

AppInfo uts_app_info() {
  return AppInfo{
      .name = "uts",
      .description = "Unbalanced Tree Search: count a UTS tree (SHA-1 node ids), one task per node or per subtree",
      .source = "Olivier et al., UTS: An Unbalanced Tree Search Benchmark, LCPC 2006; tasks=subtree: Saraswat et al., "
                "Lifeline-based global load balancing, PPoPP 2011",
      .params =
          {
              {.name = "tree", .type = ParamType::text, .default_value = "T1",
               .description = "a standard tree (T1, T3L, ...), optionally followed by key=value changes, or "
                              "key=value pairs, as `dlbkit uts --tree` reads them: T1,seed=7 (docs/apps/uts.md)"},
              {.name = "tasks", .type = ParamType::choice, .default_value = "node",
               .description = "node: a task per tree node, which spawns its children (the simulator's uts workload "
                              "and --record follow this tree); subtree: a task walks its subtree itself, as the "
                              "sequential counter does, and hands its unvisited children over as tasks, one per level, "
                              "when a strategy asks for work (split on demand, as X10 GLB's UTS)",
               .choices = {"node", "subtree"}},
              {.name = "split", .type = ParamType::choice, .default_value = "levels",
               .description = "tasks=subtree only: what a split hands over; levels: each level's unvisited children as "
                              "one task; children: each unvisited child as a task of its own, the task's load its "
                              "unvisited children, so that the strategies that count tasks see what tasks=node shows "
                              "them",
               .choices = {"levels", "children"}},
          },
      .create =
          [](const Parameters& p) -> std::unique_ptr<AnyApplication> {
        const std::string& spec = p.text("tree");
        uts::TreeParams tree;
        try {
          tree = uts::parse_tree(spec);
          uts::check_size(tree);
        } catch (const InputError& e) {
          throw InputError(fmt::format("app uts: parameter tree={}: {}", spec, e.what()));
        }
        const bool by_child = p.text("split") == "children";
        if (p.text("tasks") == "subtree") return std::make_unique<UtsSubtree>(tree, by_child);
        if (by_child)
          throw InputError("app uts: parameter split=children is given with tasks=node; accepted: split=children with "
                           "tasks=subtree only (a node task has nothing to split)");
        return std::make_unique<Uts>(tree);
      },
  };
}

}  // namespace dlbkit
