// The `uts` app: a UTS tree (apps/uts.hpp), standard or custom, counted by the runtimes. A
// task is one node (its 24 bytes: digest and height); executing it counts it and spawns its
// children, whose digests it computes (one SHA-1 each), as the reference UTS implementation does.

#include <dlbkit/apps/runtime_apps.hpp>
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

class Uts final : public Application<uts::Node, UtsCount> {
public:
  explicit Uts(uts::TreeParams tree) : tree_(tree), child_count_(tree) {}

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

  void combine(UtsCount& into, const UtsCount& o) const override {
    into.nodes += o.nodes;
    into.leaves += o.leaves;
    into.max_depth = std::max(into.max_depth, o.max_depth);
  }

  nlohmann::json report(const UtsCount& r) const override {
    return {{"nodes", r.nodes}, {"leaves", r.leaves}, {"max_depth", r.max_depth}};
  }

private:
  uts::TreeParams tree_;
  uts::ChildCounter child_count_;  // the table count_sequential uses: the same cost per node
};

}  // namespace

AppInfo uts_app_info() {
  return AppInfo{
      .name = "uts",
      .description = "Unbalanced Tree Search: count a UTS tree (SHA-1 node ids), one task per node",
      .source = "Olivier et al., UTS: An Unbalanced Tree Search Benchmark, LCPC 2006",
      .params =
          {
              {.name = "tree", .type = ParamType::text, .default_value = "T1",
               .description = "a standard tree (T1, T3L, ...), optionally followed by key=value changes, or "
                              "key=value pairs, as `dlbkit uts --tree` reads them: T1,seed=7 (docs/apps/uts.md)"},
          },
      .create =
          [](const Parameters& p) -> std::unique_ptr<AnyApplication> {
        const std::string& spec = p.text("tree");
        try {
          return std::make_unique<Uts>(uts::parse_tree(spec));
        } catch (const InputError& e) {
          throw InputError(fmt::format("app uts: parameter tree={}: {}", spec, e.what()));
        }
      },
  };
}

}  // namespace dlbkit
