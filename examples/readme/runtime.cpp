#include <dlbkit/runtime/runtime.hpp>
#include <cstdio>

struct Node { unsigned depth; };  // a task: it travels between workers as its bytes

int main(int argc, char** argv) try {
  dlbkit::Runtime runtime(argc, argv);  // --engine --strategy --workers ... or the defaults
  const std::uint64_t nodes = runtime.run(std::vector{Node{0}},     // the roots
      [](const Node& n, auto& ctx) {                                // one task
        ++ctx.result();
        if (n.depth < 20) for (int c = 0; c < 2; ++c) ctx.spawn(Node{n.depth + 1});
      }, std::uint64_t{0}, std::plus<>{});                          // the result, on every rank
  if (runtime.rank() == 0) std::printf("%llu nodes\n", (unsigned long long)nodes);
} catch (const std::exception& e) { return dlbkit::print_error(e); }
