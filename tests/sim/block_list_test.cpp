#include "block_list.hpp"
#include "huge_pages.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace {

struct Item {  // the size of the simulator's events
  std::int64_t time;
  std::uint64_t key[2];
  std::uint64_t rest;
};

std::vector<std::int64_t> drained(dlbkit::BlockList<Item>& list) {
  std::vector<std::int64_t> times;
  list.drain([&](const Item& item) { times.push_back(item.time); });
  return times;
}

// Appends, compaction in place and draining keep the items and their order across the
// blocks' ends, and the list is used again after each drain.
TEST(BlockList, KeepsItsItemsInOrderAcrossBlocks) {
  constexpr std::int64_t kPerBlock = dlbkit::kHugePage / sizeof(Item);
  dlbkit::BlockList<Item> list;
  EXPECT_TRUE(drained(list).empty());
  for (const std::int64_t count : {std::int64_t{1}, kPerBlock, kPerBlock + 1, 3 * kPerBlock + 17, std::int64_t{5}}) {
    SCOPED_TRACE(count);
    for (std::int64_t i = 0; i < count; ++i) list.push_back(Item{i, {}, 0});
    ASSERT_EQ(list.size(), static_cast<std::size_t>(count));
    // Keep the odd ones, as the simulator keeps its own nodes' events.
    std::size_t kept = 0;
    for (std::size_t i = 0; i < list.size(); ++i)
      if (list[i].time % 2 == 1) list[kept++] = list[i];
    list.truncate(kept);
    for (std::int64_t i = 0; i < 3; ++i) list.push_back(Item{count + i, {}, 0});  // appends after the truncation
    std::vector<std::int64_t> expected;
    for (std::int64_t i = 1; i < count; i += 2) expected.push_back(i);
    for (std::int64_t i = 0; i < 3; ++i) expected.push_back(count + i);
    EXPECT_EQ(drained(list), expected);
    EXPECT_TRUE(list.empty());
  }
}

#if defined(__linux__)
// Released pages leave the process's resident memory and read as zeros; the pages around
// them keep their contents.
TEST(HugePages, ReleasedPagesAreNoLongerResident) {
  constexpr std::size_t kBytes = 4 * dlbkit::kHugePage;
  auto* bytes = static_cast<unsigned char*>(dlbkit::allocate_huge(kBytes));
  std::memset(bytes, 7, kBytes);
  const std::size_t page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::size_t from = dlbkit::kHugePage + 100, to = 3 * dlbkit::kHugePage - 100;  // not on page boundaries
  dlbkit::release_pages(bytes + from, to - from);
  std::vector<unsigned char> resident(kBytes / page);
  ASSERT_EQ(::mincore(bytes, kBytes, resident.data()), 0);
  for (std::size_t p = 0; p < resident.size(); ++p) {
    const bool inside = p * page >= from && (p + 1) * page <= to;
    EXPECT_EQ((resident[p] & 1) != 0, !inside) << "page " << p;
  }
  EXPECT_EQ(bytes[from - 1], 7);  // the partial pages at both ends are kept
  EXPECT_EQ(bytes[from + page], 0);
  EXPECT_EQ(bytes[to], 7);
  dlbkit::free_huge(bytes, kBytes);
}
#endif

}  // namespace
