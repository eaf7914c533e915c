// The user's header alone: <dlbkit/runtime/runtime.hpp> brings no JSON (but the forward
// declarations of the strategy's parameters), fmt or OpenSSL header (a program of
// dlbkit::Runtime needs none of them), and is enough to run a program of the lambda form and
// of the class form and to name its strategy. Included first, before anything that could
// bring them.

#include <dlbkit/runtime/runtime.hpp>

#ifdef INCLUDE_NLOHMANN_JSON_HPP_
#error "<dlbkit/runtime/runtime.hpp> includes nlohmann/json.hpp"
#endif
#ifdef FMT_VERSION
#error "<dlbkit/runtime/runtime.hpp> includes fmt"
#endif
#ifdef OPENSSL_VERSION_NUMBER
#error "<dlbkit/runtime/runtime.hpp> includes OpenSSL"
#endif

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <type_traits>
#include <vector>

namespace {

struct Countdown final : dlbkit::Application<int, std::uint64_t> {
  std::vector<int> roots(dlbkit::NodeId worker, std::size_t) const override { return worker == 0 ? std::vector{12} : std::vector<int>{}; }
  void execute(const int& n, dlbkit::TaskContext<int, std::uint64_t>& ctx) override {
    ++ctx.result();
    for (int c = 0; c < 2 && n > 0; ++c) ctx.spawn(n - 1);
  }
  void combine(std::uint64_t& into, const std::uint64_t& other) const override { into += other; }
};

}  // namespace

TEST(UserHeader, RunsBothFormsWithNothingElse) {
  dlbkit::Runtime runtime(dlbkit::RuntimeOptions{.workers = 2, .quiet = true});
  Countdown app;
  EXPECT_EQ(runtime.run(app), 8191u);  // a binary tree of depth 12
  EXPECT_EQ(runtime.run(std::vector{12}, [](int n, auto& ctx) {
              ++ctx.result();
              for (int c = 0; c < 2 && n > 0; ++c) ctx.spawn(n - 1);
            }, std::uint64_t{0}, std::plus<>{}),
            8191u);
  EXPECT_EQ(runtime.last_run().tasks_executed(), 8191u);
  EXPECT_EQ(runtime.strategy().name(), "work_stealing");
}

// Only the runtime makes a task's context: a program cannot make one of its own from the
// engine's parts.
TEST(UserHeader, ATaskContextIsMadeByTheRuntimeOnly) {
  EXPECT_FALSE((std::is_constructible_v<dlbkit::TaskContext<int, std::uint64_t>, dlbkit::detail::WorkerPort&,
                                        std::uint64_t&>));
}
