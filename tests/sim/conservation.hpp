#pragma once
// Test support: an observer that follows every task through the simulation and fails the
// test when a task is lost, duplicated, or executed where it is not.

#include <dlbkit/sim/observer.hpp>

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

}  // namespace dlbkit::test
