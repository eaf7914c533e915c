#include "packed_task.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace {

using dlbkit::PackedTask;
using dlbkit::Task;
using dlbkit::TaskPacker;

void expect_same(const Task& a, const Task& b) {
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.work, b.work);
  EXPECT_EQ(a.hops, b.hops);
  EXPECT_EQ(a.tag, b.tag);
}

// Every field comes back as it was at the ends of its range: the largest id and tag, the
// 1e6 s a task may take, and hop counts on both sides of the table's threshold, for tasks
// packed again after they were unpacked (a task passed over by migrate()).
TEST(PackedTask, TasksComeBackAsTheyWerePacked) {
  static_assert(sizeof(PackedTask) == 16);
  const std::vector<Task> tasks = {
      {0, 0, 0, 0},
      {TaskPacker::kIds - 1, 1'000'000 * dlbkit::kSecond, TaskPacker::kManyHops - 1, 0xFFFFFFFFu},
      {7, 3, TaskPacker::kManyHops, 1},
      {8, 5, TaskPacker::kManyHops + 1, 2},
      {9, 123'456'789, 0xFFFFFFFFu, 3},
  };
  TaskPacker packer;
  std::vector<PackedTask> packed;
  for (const Task& t : tasks) packed.push_back(packer.pack(t));
  for (int round = 0; round < 2; ++round) {
    for (std::size_t i = packed.size(); i-- > 0;) {  // in another order than packed
      const Task t = packer.unpack(packed[i]);
      expect_same(t, tasks[i]);
      packed[i] = packer.pack(t);
    }
  }
}

}  // namespace
