#pragma once
/// \file
/// Waiting for the other threads of a parallel simulation, whose windows last microseconds:
/// a thread spins briefly, then yields its core between looks, so that other work on the
/// machine does not stall the run; with more threads than cores it yields at once.

#include <atomic>
#include <cstdint>
#include <thread>

namespace dlbkit {

/// Waits until `done()`: spinning first for `spins` rounds (0 where the threads outnumber
/// the cores: the one waited for needs the core), then yielding the core between looks.
template <class Done>
void await(unsigned spins, Done done) {
  for (; spins > 0; --spins) {
    if (done()) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  while (!done()) std::this_thread::yield();
}

class SpinBarrier {
public:
  explicit SpinBarrier(unsigned threads)
      : threads_(threads), spins_(threads <= std::thread::hardware_concurrency() ? kSpins : 0) {}

  static constexpr unsigned kSpins = 1000;  // some 50 us
  unsigned spins() const { return spins_; }

  void arrive_and_wait() {
    const std::uint32_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      generation_.fetch_add(1, std::memory_order_release);
      return;
    }
    await(spins_, [&] { return generation_.load(std::memory_order_acquire) != generation; });
  }

private:
  const unsigned threads_;
  const unsigned spins_;
  std::atomic<unsigned> arrived_{0};
  std::atomic<std::uint32_t> generation_{0};
};

}  // namespace dlbkit
