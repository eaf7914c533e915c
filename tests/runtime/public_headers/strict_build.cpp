// A user's program of both runtimes, built by tests/CMakeLists.txt at -O3 -Wall -Wextra
// -Werror with g++ and clang++ and every public header of runtime/ and objects/ included
// (-include): dlbkit's templates, instantiated as a program instantiates them, warn nothing
// (the runtime's bytes once gave two 30-line -Wstringop-overflow warnings at -O3). Compiled
// only, not run.

#include <dlbkit/objects/object_runtime.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <cereal/types/string.hpp>

#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace {

struct Node {
  std::uint32_t depth;
};

// A task and a result that travel through cereal.
struct Path {
  std::vector<int> steps;
  template <class Archive>
  void serialize(Archive& archive) {
    archive(steps);
  }
};

class Paths final : public dlbkit::Application<Path, std::map<int, std::uint64_t>> {
public:
  std::vector<Path> roots(dlbkit::NodeId worker, std::size_t) const override {
    return worker == 0 ? std::vector<Path>{Path{}} : std::vector<Path>{};
  }
  void execute(const Path& p, dlbkit::TaskContext<Path, std::map<int, std::uint64_t>>& ctx) override {
    ++ctx.result()[static_cast<int>(p.steps.size())];
    if (p.steps.size() < 8)
      for (int step : {1, 2}) {
        Path next = p;
        next.steps.push_back(step);
        ctx.spawn(next);
      }
  }
  void combine(std::map<int, std::uint64_t>& into, const std::map<int, std::uint64_t>& other) const override {
    for (const auto& [length, count] : other) into[length] += count;
  }
};

struct Block {
  std::vector<double> u;
  template <class Archive>
  void serialize(Archive& archive) {
    archive(u);
  }
};

// The README's program: a tree of trivially copyable tasks, a sum.
std::uint64_t count_nodes(dlbkit::Runtime& runtime, std::uint32_t depth) {
  return runtime.run(
      std::vector{Node{0}},
      [depth](const Node& n, auto& ctx) {
        ++ctx.result();
        if (n.depth < depth)
          for (int c = 0; c < 2; ++c) ctx.spawn(Node{n.depth + 1});
      },
      std::uint64_t{0}, std::plus<>{});
}

// Tasks and a result of text, the reduction by value.
std::string longest_word(dlbkit::Runtime& runtime) {
  return runtime.run(
      std::vector<std::string>{"a"},
      [](const std::string& w, auto& ctx) {
        if (w.size() < 4) ctx.spawn(w + "b");
        if (w.size() > ctx.result().size()) ctx.result() = w;
      },
      std::string(), [](const std::string& a, const std::string& b) { return a.size() >= b.size() ? a : b; });
}

// Objects with a serialised state and messages.
dlbkit::ObjectRunResult run_blocks(int argc, char** argv) {
  dlbkit::ObjectRuntime<Block, std::vector<double>> objects(argc, argv);
  if (objects.is_local(0))
    for (std::uint64_t id = 0; id < 8; ++id) objects.add(id, Block{std::vector<double>(4, 1.0)}, 0);
  for (int phase = 0; phase < 3; ++phase)
    objects.run_phase([](Block& b, dlbkit::ObjectContext<std::vector<double>>& ctx) {
      for (const auto& [from, halo] : ctx.received()) b.u[0] += halo[0];
      ctx.send((ctx.id() + 1) % 8, std::vector<double>{b.u[0] / 2});
    });
  objects.collect([](std::uint64_t, const Block& b) { return b.u[0]; });
  return objects.finish();
}

}  // namespace

int main(int argc, char** argv) try {
  std::uint32_t depth = 16;
  int shift = 0;
  double weight = 1;
  bool verbose = false;
  std::string name;
  dlbkit::Runtime runtime(dlbkit::RuntimeOptions::parse(
      argc, argv,
      {{"--depth", depth, 1, 30, "the tree's depth"}, {"--shift", shift}, {"--weight", weight, 0.0, 10.0},
       {"-v", verbose}, dlbkit::ProgramOption::positional("NAME", name)}));
  Paths paths;
  const std::uint64_t nodes = count_nodes(runtime, depth);
  const std::size_t lengths = runtime.run(paths).size();
  const std::string word = longest_word(runtime);
  const std::size_t migrated = run_blocks(argc, argv).objects_migrated;
  if (runtime.rank() == 0)
    std::printf("%s %llu %zu %s %s %zu %d %g %d\n", runtime.strategy().name().c_str(),
                static_cast<unsigned long long>(nodes), lengths, word.c_str(), name.c_str(), migrated, shift, weight,
                verbose);
  return 0;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
