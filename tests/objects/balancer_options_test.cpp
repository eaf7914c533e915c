// BalancerOptions::parse: the plan API's options from a command line, beside a program's own.

#include <dlbkit/error.hpp>
#include <dlbkit/objects/balancer.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

using dlbkit::BalancerOptions;

std::string error_of(const std::vector<const char*>& argv) {
  try {
    BalancerOptions::parse(static_cast<int>(argv.size()), argv.data());
  } catch (const dlbkit::InputError& e) {
    return e.what();
  }
  return "no error";
}

TEST(BalancerOptions, ReadsItsOptionsBesideTheProgramsAndRefusesBadOnes) {
  std::uint32_t cells = 0;
  const char* argv[] = {"p", "--strategy", "tempered", "--param", "rounds=3", "--param=fanout=2", "--cells", "9",
                        "--seed", "7", "--engine", "threads", "--memory-bound", "1e6", "--topology", "ring:2",
                        "--work-model", "beta=1e-9"};
  const BalancerOptions o = BalancerOptions::parse(std::size(argv), argv, {{"--cells", cells, 2, 100}});
  EXPECT_EQ(o.strategy, "tempered");
  EXPECT_EQ(o.params, (std::vector<std::string>{"rounds=3", "fanout=2"}));
  EXPECT_EQ(o.seed, 7u);
  EXPECT_EQ(o.engine, "threads");
  EXPECT_EQ(o.memory_bound, 1e6);
  EXPECT_EQ(o.topology, "ring:2");
  EXPECT_EQ(o.work_model, "beta=1e-9");
  EXPECT_EQ(cells, 9u);
  EXPECT_TRUE(std::isinf(BalancerOptions::parse(1, argv).memory_bound));
  for (const auto& [bad, says] : std::vector<std::pair<std::vector<const char*>, std::string>>{
           {{"p", "--engine", "sequential"}, "--engine 'sequential'; accepted: auto, mpi, threads"},
           {{"p", "--param", "x"}, "--param: 'x'"},
           {{"p", "--seed", "-1"}, "--seed"},
           {{"p", "--memory-bound", "-1"}, "--memory-bound"},
           {{"p", "--workers", "2"}, "unknown option '--workers'"},  // ObjectRuntime's, not the balancer's
           {{"p", "--every", "2"}, "unknown option '--every'"}}) {
    const std::string e = error_of(bad);
    EXPECT_NE(e.find(says), std::string::npos) << e;
  }
}

}  // namespace
