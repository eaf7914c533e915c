#pragma once
// Test support: an observer that follows every task through the simulation and fails the
// test when a task is lost, duplicated, or executed where it is not; a workload that
// exercises every way tasks appear.

#include <dlbkit/sim/observer.hpp>
#include <dlbkit/sim/workload.hpp>

#include <gtest/gtest.h>
#include <unordered_map>

namespace dlbkit::test {

class ConservationObserver final : public Observer {
public:
  void on_task_created(NodeId node, const Task& t, SimTime) override {
    EXPECT_TRUE(where_.emplace(t.id, node).second) << "task " << t.id << " created twice";
    ++created_;
  }
  void on_task_migrated(NodeId from, NodeId to, const Task& t, SimTime) override {
    auto it = where_.find(t.id);
    ASSERT_NE(it, where_.end()) << "unknown task " << t.id << " migrated";
    EXPECT_EQ(it->second, from) << "task " << t.id << " migrated from a node that does not hold it";
    EXPECT_NE(from, to);
    it->second = to;
  }
  void on_task_started(NodeId node, const Task& t, SimTime) override {
    auto it = where_.find(t.id);
    ASSERT_NE(it, where_.end()) << "unknown task " << t.id << " started";
    EXPECT_EQ(it->second, node) << "task " << t.id << " started on a node that does not hold it";
  }
  void on_task_completed(NodeId node, const Task& t, SimTime) override {
    auto it = where_.find(t.id);
    ASSERT_NE(it, where_.end()) << "task " << t.id << " completed twice or never created";
    EXPECT_EQ(it->second, node);
    where_.erase(it);
    ++completed_;
  }
  /// Every task created was completed exactly once.
  void expect_all_done() const {
    EXPECT_TRUE(where_.empty()) << where_.size() << " tasks never completed";
    EXPECT_EQ(created_, completed_);
    EXPECT_GT(created_, 0u);
  }
  std::uint64_t completed() const { return completed_; }

private:
  std::unordered_map<std::uint64_t, NodeId> where_;
  std::uint64_t created_ = 0, completed_ = 0;
};

// Tasks that spawn children when they complete, and arrivals from outside over time.
class DynamicWorkload final : public Workload {
public:
  void initial_tasks(const Topology& t, const CostModel&, Rng& rng, TaskSink& sink) override {
    for (int i = 0; i < 20; ++i)
      sink.add(static_cast<NodeId>(rng.below(t.size())), static_cast<SimTime>(1 + rng.below(900)) * kMicrosecond, 2);
    nodes_ = t.size();
  }
  void on_completed(const Task& done, NodeId node, Rng& rng, TaskSink& sink) override {
    if (done.tag == 0) return;
    for (int c = 0; c < 2; ++c) sink.add(node, static_cast<SimTime>(1 + rng.below(700)) * kMicrosecond, done.tag - 1);
  }
  std::optional<Arrival> next_arrival(SimTime now, Rng& rng) override {
    if (arrivals_++ == 60) return std::nullopt;
    return Arrival{now + static_cast<SimTime>(rng.exponential(1.0 / 200e3)), static_cast<NodeId>(rng.below(nodes_)),
                   static_cast<SimTime>(1 + rng.below(500)) * kMicrosecond, 1};
  }

private:
  std::size_t nodes_ = 1;
  int arrivals_ = 0;
};

}  // namespace dlbkit::test
