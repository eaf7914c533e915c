#include "event_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <queue>
#include <random>
#include <tuple>
#include <vector>

namespace {

struct Item {
  std::int64_t time;
  std::uint64_t key;
};
struct Later {
  bool operator()(const Item& a, const Item& b) const { return std::tie(a.time, a.key) > std::tie(b.time, b.key); }
};

// The radix heap pops exactly what a binary heap pops: bursts at one time, times from a
// nanosecond to seconds ahead, items pushed at the time just popped, and items pushed
// again later with an older key (as the simulator's reserve wakes are).
TEST(EventQueue, PopsInTheOrderOfTimeThenKey) {
  std::mt19937_64 rng(7);
  dlbkit::EventQueue<Item> queue;
  std::priority_queue<Item, std::vector<Item>, Later> reference;
  std::vector<Item> held;  // popped items to push again later, at or after their time
  std::uint64_t key = 0;
  std::int64_t now = 0;
  const auto push = [&](const Item& item) {
    queue.push(item);
    reference.push(item);
  };
  for (int i = 0; i < 5000; ++i) push(Item{(i % 3) * 1000, key++});  // start-up bursts
  for (int step = 0; step < 300000; ++step) {
    const std::uint64_t r = rng();
    if (!reference.empty() && r % 3 != 0) {
      ASSERT_EQ(queue.size(), reference.size());
      const Item got = queue.pop();
      const Item want = reference.top();
      reference.pop();
      ASSERT_EQ(got.time, want.time) << "step " << step;
      ASSERT_EQ(got.key, want.key) << "step " << step;
      now = got.time;
      if (r % 7 == 0) held.push_back(Item{now, key++});
    } else if (!held.empty() && r % 5 == 0) {
      Item item = held.back();  // an older key, at the current time or later
      held.pop_back();
      item.time = now + static_cast<std::int64_t>((r >> 8) % 2);
      push(item);
    } else {
      const int scale = static_cast<int>((r >> 8) % 32);
      const auto ahead = static_cast<std::int64_t>((r >> 16) % (std::uint64_t{1} << scale));
      push(Item{now + ahead, key++});
    }
  }
  while (!reference.empty()) {
    const Item got = queue.pop();
    ASSERT_EQ(got.time, reference.top().time);
    ASSERT_EQ(got.key, reference.top().key);
    reference.pop();
  }
  EXPECT_TRUE(queue.empty());
}

}  // namespace

TEST(EventQueue, ARunKeptAliveByZeroTimePushesDoesNotGrow) {
  // A far item at the end of the run, and each pop pushing an item at the time popped (a
  // zero-time message): the run never runs out, and its popped head used to be kept.
  dlbkit::EventQueue<Item> q;
  std::uint64_t key = 0;
  q.push({16, key++});
  q.push({31, key++});  // the same bucket as 16: one run of both
  for (int i = 0; i < 1'000'000; ++i) {
    const Item item = q.pop();
    ASSERT_EQ(item.time, 16);
    q.push({16, key++});
  }
  EXPECT_EQ(q.size(), 2u);
  EXPECT_LT(q.held(), 10'000u);
  EXPECT_EQ(q.pop().time, 16);
  EXPECT_EQ(q.pop().time, 31);
}
