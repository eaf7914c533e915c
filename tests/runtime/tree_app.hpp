#pragma once
// Test support: an unbalanced tree to count (a binomial tree as in UTS, on a cheap hash),
// its count by plain recursion, and a task that takes a while and polls; the same tree with
// a task that throws; one long range task that can split on demand.

#include <dlbkit/runtime/application.hpp>
#include <dlbkit/runtime/engine.hpp>

#include <atomic>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>
#include <thread>

namespace dlbkit::test {

struct TreeNode {
  std::uint64_t id;
  std::uint32_t depth;
};
struct TreeCount {
  std::uint64_t nodes, leaves, id_sum;
};

inline std::uint64_t mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

class TreeApp final : public ReportedApplication<TreeNode, TreeCount> {
public:
  /// `root_children` under the root, then 4 children with probability q_per_10000.
  TreeApp(int root_children, int q_per_10000, int spin = 0)
      : root_children_(root_children), q_(q_per_10000), spin_(spin) {}

  int children(const TreeNode& n) const {
    if (n.depth == 0) return root_children_;
    return static_cast<int>(mix(n.id) % 10000) < q_ ? 4 : 0;
  }
  static TreeNode child(const TreeNode& n, int c) { return {mix(n.id * 31 + static_cast<std::uint64_t>(c)), n.depth + 1}; }

  std::vector<TreeNode> roots(NodeId worker, std::size_t) const override {
    if (worker == 0) return {TreeNode{1, 0}};
    return {};
  }
  void execute(const TreeNode& n, TaskContext<TreeNode, TreeCount>& ctx) override {
    for (int i = 0; i < spin_; ++i) {  // a longer task that polls
      spun_ = mix(spun_ + static_cast<std::uint64_t>(i));
      if (i % 64 == 0) ctx.poll();
    }
    TreeCount& r = ctx.result();
    ++r.nodes;
    r.id_sum += n.id;
    const int k = children(n);
    if (k == 0) ++r.leaves;
    for (int c = 0; c < k; ++c) ctx.spawn(child(n, c));
  }
  void combine(TreeCount& a, const TreeCount& b) const override {
    a.nodes += b.nodes;
    a.leaves += b.leaves;
    a.id_sum += b.id_sum;
  }
  nlohmann::json report(const TreeCount& c) const override {
    return {{"nodes", c.nodes}, {"leaves", c.leaves}, {"id_sum", c.id_sum}};
  }

  /// The count by recursion, independent of every engine.
  TreeCount expected() const {
    TreeCount c{};
    count(TreeNode{1, 0}, c);
    return c;
  }

private:
  void count(const TreeNode& n, TreeCount& c) const {
    ++c.nodes;
    c.id_sum += n.id;
    const int k = children(n);
    if (k == 0) ++c.leaves;
    for (int i = 0; i < k; ++i) count(child(n, i), c);
  }

  int root_children_, q_, spin_;
  inline static thread_local std::uint64_t spun_ = 0;
};

/// TreeApp's tree with tasks of a few microseconds that poll; worker `thrower` throws
/// std::runtime_error("node <id> is bad") from its task number `throw_after` (from 0).
class ThrowingTree final : public ReportedApplication<TreeNode, TreeCount> {
public:
  ThrowingTree(int thrower, long throw_after) : tree_(400, 2490, 200), thrower_(thrower), throw_after_(throw_after) {}

  // With throw_after < 0 the thrower's roots() throws, before any task runs.
  std::vector<TreeNode> roots(NodeId w, std::size_t n) const override {
    if (throw_after_ < 0 && static_cast<int>(w) == thrower_)
      throw std::runtime_error("the root of worker " + std::to_string(w) + " is bad");
    return tree_.roots(w, n);
  }
  void execute(const TreeNode& t, TaskContext<TreeNode, TreeCount>& ctx) override {
    if (static_cast<int>(ctx.worker()) == thrower_ && executed_++ == throw_after_)
      throw std::runtime_error("node " + std::to_string(t.id) + " is bad");
    ++ctx.result().nodes;
    ctx.result().id_sum += t.id;
    const int k = tree_.children(t);
    if (k == 0) ++ctx.result().leaves;
    for (int c = 0; c < k; ++c) ctx.spawn(TreeApp::child(t, c));
    for (int i = 0; i < 200; ++i) {  // a few microseconds of work that polls
      spun_ = mix(spun_ + static_cast<std::uint64_t>(i));
      ctx.poll();
    }
  }
  void combine(TreeCount& a, const TreeCount& b) const override { tree_.combine(a, b); }
  nlohmann::json report(const TreeCount& c) const override { return tree_.report(c); }
  TreeCount expected() const { return tree_.expected(); }

private:
  TreeApp tree_;
  int thrower_;
  long throw_after_;
  long executed_ = 0;  // the thrower's only
  inline static thread_local std::uint64_t spun_ = 0;
};

/// One long task: a range of elements of about a microsecond each. With split on demand the
/// task gives away the upper half of what is left whenever a strategy wants its work; with
/// `estimate` it also tells the engine how many elements it still holds. With `patient` (on
/// threads only: it counts in this process), after its first 1000 elements (or its last, when a
/// split left it fewer) worker 0 keeps polling, without executing, until
/// other workers have executed a fifth of the range or 30 s have passed, so that a loaded
/// machine that leaves the other threads unscheduled cannot let worker 0 finish alone (a
/// strategy that never moves work still fails the test, after the 30 s).
struct Range {
  std::uint64_t begin, end;
};
struct RangeSum {
  std::uint64_t sum;
  std::uint64_t by_worker[4];  // elements each worker executed
};

class RangeApp final : public ReportedApplication<Range, RangeSum> {
public:
  RangeApp(std::uint64_t n, bool split, bool estimate = false, bool patient = false)
      : n_(n), split_(split), estimate_(estimate), patient_(patient) {}
  static std::uint64_t element(std::uint64_t i) {
    std::uint64_t z = i;
    for (int k = 0; k < 100; ++k) z = mix(z + 1);
    return z >> 40;
  }
  std::vector<Range> roots(NodeId worker, std::size_t) const override {
    return worker == 0 ? std::vector<Range>{{0, n_}} : std::vector<Range>{};
  }
  void execute(const Range& r, TaskContext<Range, RangeSum>& ctx) override {
    std::uint64_t end = r.end;
    for (std::uint64_t i = r.begin; i < end; ++i) {
      ctx.result().sum += element(i);
      ++ctx.result().by_worker[ctx.worker()];
      if (ctx.worker() != 0) away_.fetch_add(1, std::memory_order_relaxed);
      if (!split_) {
        ctx.poll();
        continue;
      }
      const auto split = [&] {
        if (end - i < 2) return;
        const std::uint64_t mid = i + 1 + (end - i - 1) / 2;
        ctx.spawn(Range{mid, end});
        end = mid;
      };
      const auto poll = [&] {
        if (estimate_) ctx.poll(split, end - i);
        else ctx.poll(split);
      };
      poll();
      if (patient_ && ctx.worker() == 0 && (i - r.begin == 1000 || i + 1 == end) && !waited_.exchange(true)) {
        const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
        while (away_.load(std::memory_order_relaxed) < n_ / 5 && std::chrono::steady_clock::now() < deadline) {
          poll();
          std::this_thread::yield();
        }
      }
    }
  }
  void combine(RangeSum& a, const RangeSum& b) const override {
    a.sum += b.sum;
    for (int w = 0; w < 4; ++w) a.by_worker[w] += b.by_worker[w];
  }
  nlohmann::json report(const RangeSum& s) const override { return {{"sum", s.sum}}; }
  RangeSum parse(const RuntimeResult& r) const {
    RangeSum s;
    std::memcpy(&s, r.result.data(), sizeof s);
    return s;
  }

private:
  std::uint64_t n_;
  bool split_, estimate_, patient_;
  std::atomic<std::uint64_t> away_{0};  // elements executed by workers other than 0
  std::atomic<bool> waited_{false};
};

}  // namespace dlbkit::test
