#pragma once
// Whether two simulation results are one run's: every figure but the host's time. A
// parallel run's peak of pending tasks is an upper bound (each partition's own peak,
// summed), so a comparison with one leaves it out.

#include <dlbkit/sim/simulator.hpp>

#include <gtest/gtest.h>

#include <string>

namespace dlbkit::test {

enum class Peak { compared, left_out };

inline void expect_same_run(const SimulationResult& a, const SimulationResult& b, const std::string& what = {},
                            Peak peak = Peak::compared) {
  EXPECT_EQ(a.makespan, b.makespan) << what;
  EXPECT_EQ(a.total_work, b.total_work) << what;
  EXPECT_EQ(a.tasks_created, b.tasks_created) << what;
  EXPECT_EQ(a.tasks_completed, b.tasks_completed) << what;
  EXPECT_EQ(a.tasks_transferred, b.tasks_transferred) << what;
  EXPECT_EQ(a.events, b.events) << what;
  if (peak == Peak::compared) {
    EXPECT_EQ(a.peak_pending_tasks, b.peak_pending_tasks) << what;
  }
  EXPECT_EQ(a.message_kinds, b.message_kinds) << what;
  EXPECT_EQ(a.messages_by_kind, b.messages_by_kind) << what;
  ASSERT_EQ(a.nodes.size(), b.nodes.size()) << what;
  for (std::size_t v = 0; v < a.nodes.size(); ++v) {
    const NodeStats &x = a.nodes[v], &y = b.nodes[v];
    EXPECT_TRUE(x.busy == y.busy && x.overhead == y.overhead && x.finish == y.finish &&
                x.tasks_executed == y.tasks_executed && x.tasks_sent == y.tasks_sent &&
                x.tasks_received == y.tasks_received && x.messages_sent == y.messages_sent)
        << what << ", node " << v;
  }
}

}  // namespace dlbkit::test
