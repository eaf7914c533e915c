// dlbkit::runtime alone: a tree of tasks counted by work stealing on 2 worker threads. The
// user's header brings neither JSON nor OpenSSL (checked below, at compile time).

#include <dlbkit/runtime/runtime.hpp>

#ifdef INCLUDE_NLOHMANN_JSON_HPP_
#error "dlbkit/runtime/runtime.hpp includes nlohmann/json.hpp"
#endif
#ifdef OPENSSL_VERSION_NUMBER
#error "dlbkit/runtime/runtime.hpp includes OpenSSL"
#endif

#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

struct Node {
  std::uint32_t depth;
};

int main() {
  dlbkit::RuntimeOptions options;
  options.strategy = "work_stealing";
  options.workers = 2;
  dlbkit::Runtime runtime(options);
  // A complete binary tree of depth 16: 2^17 - 1 nodes.
  const std::uint64_t nodes = runtime.run(
      std::vector{Node{0}},
      [](const Node& n, auto& ctx) {
        ++ctx.result();
        if (n.depth < 16) {
          ctx.spawn(Node{n.depth + 1});
          ctx.spawn(Node{n.depth + 1});
        }
      },
      std::uint64_t{0}, std::plus<>{});
  std::printf("binary tree of depth 16: %llu nodes on %zu workers\n", static_cast<unsigned long long>(nodes),
              runtime.workers());
  return nodes == (1u << 17) - 1 ? 0 : 1;
}
