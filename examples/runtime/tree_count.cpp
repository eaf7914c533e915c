// Counting the nodes of an unbalanced tree with dlbkit::Runtime, and checking the count
// against the sequential engine's: the lambda form in one file. Any of dlbkit's options
// chooses the engine and the strategy (one worker per core by default):
//
//   cmake --build build --target dlbkit_example_tree_count && build/bin/dlbkit_example_tree_count
//   build/bin/dlbkit_example_tree_count --strategy sid --workers 4

#include <dlbkit/runtime/runtime.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

// A task: one tree node. Trivially copyable: it travels between workers as its bytes.
struct Node {
  std::uint64_t id;
  std::uint32_t depth;
};

// The result: a sum over the tasks.
struct Count {
  std::uint64_t nodes = 0, leaves = 0;
};

std::uint64_t mix(std::uint64_t z) {  // splitmix64's finaliser
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// A node has 0 or 4 children, decided by a hash of its id (a binomial tree, as in UTS); the
// root has 2000.
Count count_tree(dlbkit::Runtime& runtime) {
  return runtime.run(
      std::vector{Node{1, 0}},
      [](const Node& node, auto& ctx) {
        ++ctx.result().nodes;
        const int children = node.depth == 0 ? 2000 : (mix(node.id) % 10000 < 2495 ? 4 : 0);
        if (children == 0) ++ctx.result().leaves;
        for (int c = 0; c < children; ++c)
          ctx.spawn(Node{mix(node.id * 31 + static_cast<std::uint64_t>(c)), node.depth + 1});
      },
      Count{}, [](Count& into, const Count& other) {
        into.nodes += other.nodes;
        into.leaves += other.leaves;
      });
}

}  // namespace

int main(int argc, char** argv) try {
  dlbkit::Runtime runtime(argc, argv);
  const Count parallel = count_tree(runtime);
  const std::size_t moved = runtime.last_run().tasks_moved();
  dlbkit::Runtime sequential(dlbkit::RuntimeOptions{.engine = "sequential"});
  const Count expected = count_tree(sequential);
  const bool same = parallel.nodes == expected.nodes && parallel.leaves == expected.leaves;
  if (runtime.rank() == 0) {
    std::printf("tree: %llu nodes, %llu leaves\n", static_cast<unsigned long long>(parallel.nodes),
                static_cast<unsigned long long>(parallel.leaves));
    std::printf("same as sequential: %s\n", same ? "yes" : "no");
    std::printf("tasks moved between the %zu workers: %zu\n", runtime.workers(), moved);
  }
  return same ? 0 : 1;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
