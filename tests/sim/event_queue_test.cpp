#include "event_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

namespace {

struct QueueItem {
  std::int64_t time;
  std::uint64_t key;
};
struct Later {
  bool operator()(const QueueItem& a, const QueueItem& b) const { return std::tie(a.time, a.key) > std::tie(b.time, b.key); }
};

using Reference = std::priority_queue<QueueItem, std::vector<QueueItem>, Later>;

// Pops both to the end: the same items in the same order.
void expect_pops_as(dlbkit::EventQueue<QueueItem>& queue, Reference& reference) {
  while (!reference.empty()) {
    const QueueItem got = queue.pop();
    ASSERT_EQ(got.time, reference.top().time);
    ASSERT_EQ(got.key, reference.top().key);
    reference.pop();
  }
  EXPECT_TRUE(queue.empty());
}

// The radix heap pops exactly what a binary heap pops: bursts at one time, times from a
// nanosecond to seconds ahead, items pushed at the time just popped, and items pushed
// again later with an older key (as the simulator's reserve wakes are).
TEST(EventQueue, PopsInTheOrderOfTimeThenKey) {
  std::mt19937_64 rng(7);
  dlbkit::EventQueue<QueueItem> queue;
  Reference reference;
  std::vector<QueueItem> held;  // popped items to push again later, at or after their time
  std::uint64_t key = 0;
  std::int64_t now = 0;
  const auto push = [&](const QueueItem& item) {
    queue.push(item);
    reference.push(item);
  };
  for (int i = 0; i < 5000; ++i) push(QueueItem{(i % 3) * 1000, key++});  // start-up bursts
  for (int step = 0; step < 300000; ++step) {
    const std::uint64_t r = rng();
    if (!reference.empty() && r % 3 != 0) {
      ASSERT_EQ(queue.size(), reference.size());
      const QueueItem got = queue.pop();
      const QueueItem want = reference.top();
      reference.pop();
      ASSERT_EQ(got.time, want.time) << "step " << step;
      ASSERT_EQ(got.key, want.key) << "step " << step;
      now = got.time;
      if (r % 7 == 0) held.push_back(QueueItem{now, key++});
    } else if (!held.empty() && r % 5 == 0) {
      QueueItem item = held.back();  // an older key, at the current time or later
      held.pop_back();
      item.time = now + static_cast<std::int64_t>((r >> 8) % 2);
      push(item);
    } else {
      const int scale = static_cast<int>((r >> 8) % 32);
      const auto ahead = static_cast<std::int64_t>((r >> 16) % (std::uint64_t{1} << scale));
      push(QueueItem{now + ahead, key++});
    }
  }
  expect_pops_as(queue, reference);
}

// As a parallel run uses it: windows [W, W + L) popped through top_before(), W the
// earliest item, pushes at or after the time popped within, and after each window items
// at or after its end (from other partitions), which top_before() must still take in order
// however far it looked, some of them in dense bursts (buckets larger than a run).
TEST(EventQueue, WindowsPopInTheOrderOfTimeThenKey) {
  std::mt19937_64 rng(11);
  dlbkit::EventQueue<QueueItem> queue;
  Reference reference;
  std::uint64_t key = 0;
  const auto push = [&](std::int64_t time) {
    queue.push(QueueItem{time, key});
    reference.push(QueueItem{time, key++});
  };
  const auto ahead = [&](int max_scale) {
    const std::uint64_t r = rng();
    return static_cast<std::int64_t>((r >> 8) % (std::uint64_t{1} << (r % max_scale)));
  };
  for (int i = 0; i < 3000; ++i) push(ahead(24));
  for (int window = 0; window < 20000 && !reference.empty(); ++window) {
    ASSERT_EQ(queue.earliest(), reference.top().time) << "window " << window;
    const std::int64_t end = queue.earliest() + 1 + ahead(12);
    while (const QueueItem* top = queue.top_before(end)) {
      ASSERT_EQ(top->time, reference.top().time) << "window " << window;
      ASSERT_EQ(top->key, reference.top().key) << "window " << window;
      const QueueItem got = queue.pop();
      ASSERT_EQ(got.key, reference.top().key);
      reference.pop();
      if (rng() % 2 == 0) push(got.time + ahead(16));
      if (rng() % 3 == 0) push(got.time + ahead(24));
    }
    if (!reference.empty()) {
      ASSERT_GE(reference.top().time, end);
    }
    for (int i = static_cast<int>(rng() % 4); i > 0; --i) push(end + ahead(14));
    if (window % 500 == 0)
      for (int i = 0; i < 400; ++i) push(end + 1000 + ahead(7));  // a dense burst
    ASSERT_EQ(queue.size(), reference.size());
  }
  expect_pops_as(queue, reference);
}

}  // namespace

TEST(EventQueue, ARunKeptAliveByZeroTimePushesDoesNotGrow) {
  // A far item at the end of the run, and each pop pushing an item at the time popped (a
  // zero-time message): the run never runs out, and its popped head used to be kept.
  dlbkit::EventQueue<QueueItem> q;
  std::uint64_t key = 0;
  q.push({16, key++});
  q.push({31, key++});  // the same bucket as 16: one run of both
  for (int i = 0; i < 1'000'000; ++i) {
    const QueueItem item = q.pop();
    ASSERT_EQ(item.time, 16);
    q.push({16, key++});
  }
  EXPECT_EQ(q.size(), 2u);
  EXPECT_LT(q.held(), 10'000u);
  EXPECT_EQ(q.pop().time, 16);
  EXPECT_EQ(q.pop().time, 31);
}
