#include <dlbkit/core/parallel_for.hpp>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace dlbkit {

void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& f) {
  std::atomic<std::size_t> next{0};
  std::exception_ptr error;
  std::mutex error_mutex;
  const auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < count;) {
      try {
        f(i);
      } catch (...) {
        const std::lock_guard lock(error_mutex);
        if (!error) error = std::current_exception();
        next = count;  // stop handing out work
      }
    }
  };
  std::vector<std::thread> threads;
  for (unsigned j = 1; j < std::max(1u, jobs); ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
  if (error) std::rethrow_exception(error);
}

}  // namespace dlbkit
