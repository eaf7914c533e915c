#include "huge_pages.hpp"
#include "pooled_deques.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <random>
#include <vector>

namespace {

// Many queues in one pool do what as many std::deques do, through pushes and pops at both
// ends that leave queues empty and grow others past several chunks (blocks are reused by
// any queue; the first chunk is on small pages, the later ones on huge pages).
TEST(PooledDeques, BehaveAsOneDequeEach) {
  constexpr std::size_t kQueues = 64;
  dlbkit::PooledDeques<std::uint64_t, 16> pool;
  std::vector<dlbkit::PooledDeques<std::uint64_t, 16>::Queue> queues(kQueues);
  std::vector<std::deque<std::uint64_t>> reference(kQueues);
  std::mt19937_64 rng(11);
  std::uint64_t next = 0, held = 0, most = 0;
  for (int step = 0; step < 3'000'000; ++step) {
    const std::size_t q = rng() % kQueues;
    // Grow for the first half, then shrink: the pool reaches about 900 000 items.
    const bool grow = rng() % 100 < (step < 1'500'000 ? 80u : 20u);
    if (grow) {
      if (rng() % 2) {
        pool.push_back(queues[q], next);
        reference[q].push_back(next);
      } else {
        pool.push_front(queues[q], next);
        reference[q].push_front(next);
      }
      ++next;
      most = std::max(most, ++held);
    } else if (!reference[q].empty()) {
      ASSERT_EQ(pool.front(queues[q]), reference[q].front());
      if (rng() % 2) {
        ASSERT_EQ(pool.pop_front(queues[q]), reference[q].front());
        reference[q].pop_front();
      } else {
        ASSERT_EQ(pool.pop_back(queues[q]), reference[q].back());
        reference[q].pop_back();
      }
      --held;
    }
    ASSERT_EQ(queues[q].size, reference[q].size());
  }
  const std::size_t per_chunk = dlbkit::kHugePage / (16 * sizeof(std::uint64_t) + 8) * 16;  // items
  EXPECT_GT(most, 3 * per_chunk);
  for (std::size_t q = 0; q < kQueues; ++q)
    while (!reference[q].empty()) {
      ASSERT_EQ(pool.pop_front(queues[q]), reference[q].front());
      reference[q].pop_front();
    }
}

// Below 2 MiB an allocation comes from operator new, from 2 MiB on from a mapping of its
// own: both aligned to 64 bytes, writable and readable to their last byte.
TEST(HugePages, AllocationsAreAlignedAndUsable) {
  for (std::size_t bytes : {std::size_t{64}, std::size_t{4096}, dlbkit::kHugePage - 8, dlbkit::kHugePage,
                            3 * dlbkit::kHugePage + 100}) {
    auto* p = static_cast<unsigned char*>(dlbkit::allocate_huge(bytes));
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 64, 0u) << bytes;
    for (std::size_t i = 0; i < bytes; i += 4096) p[i] = static_cast<unsigned char>(i);
    p[bytes - 1] = 7;
    for (std::size_t i = 0; i < bytes; i += 4096) EXPECT_EQ(p[i], static_cast<unsigned char>(i));
    EXPECT_EQ(p[bytes - 1], 7);
    dlbkit::free_huge(p, bytes);
  }
  std::vector<std::int64_t, dlbkit::HugePageAllocator<std::int64_t>> v(1 << 20, 3);  // 8 MiB
  v.push_back(4);  // grows: a new mapping, the old one returned
  EXPECT_EQ(v.front(), 3);
  EXPECT_EQ(v.back(), 4);
}

}  // namespace
