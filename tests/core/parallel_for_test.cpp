// parallel_for: every call once, on several threads at once, and the first error back at the caller.

#include <dlbkit/core/parallel_for.hpp>

#include <atomic>
#include <gtest/gtest.h>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using dlbkit::parallel_for;

TEST(ParallelFor, CallsEveryIndexOnceAndPropagatesErrors) {
  std::vector<std::atomic<int>> calls(1000);
  parallel_for(calls.size(), 3, [&](std::size_t i) { ++calls[i]; });
  for (const auto& c : calls) EXPECT_EQ(c.load(), 1);
  EXPECT_THROW(parallel_for(10, 2, [](std::size_t i) {
                 if (i == 7) throw std::runtime_error("seven");
               }),
               std::runtime_error);
}

TEST(ParallelFor, RunsJobsThreadsAtOnceAndZeroJobsAsOne) {
  // Each call waits until `jobs` calls are under way: only `jobs` threads at once get through.
  std::mutex mutex;
  std::set<std::thread::id> threads;
  std::atomic<int> arrived{0};
  parallel_for(3, 3, [&](std::size_t) {
    ++arrived;
    while (arrived.load() < 3) std::this_thread::yield();
    const std::lock_guard lock(mutex);
    threads.insert(std::this_thread::get_id());
  });
  EXPECT_EQ(threads.size(), 3u);
  std::size_t calls = 0;
  parallel_for(4, 0, [&](std::size_t) { ++calls; });  // one thread: no race on calls
  EXPECT_EQ(calls, 4u);
}
