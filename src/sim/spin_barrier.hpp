#pragma once
/// \file
/// Waiting for the other threads of a parallel simulation, whose windows last microseconds:
/// a thread spins briefly, then sleeps on the word it waits for (a futex), so that other
/// work on the machine does not stall the run; with more threads than cores it sleeps at once.
/// (Yielding the core between looks instead made runs beside one busy process on 2 cores
/// more than 12 times slower: the waiting threads took the time of those they waited for.)

#include <atomic>
#include <cstdint>
#include <thread>

namespace dlbkit {

/// Waits until `done()`, spinning first for `spins` rounds (0 where the threads outnumber
/// the cores: the one waited for needs the core). Whoever changes what done() reads then
/// calls `notify(signal)`.
template <class Done>
void await(std::atomic<std::uint32_t>& signal, unsigned spins, Done done) {
  for (; spins > 0; --spins) {
    if (done()) return;
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#endif
  }
  for (;;) {
    const std::uint32_t seen = signal.load(std::memory_order_acquire);
    if (done()) return;
    signal.wait(seen, std::memory_order_acquire);
  }
}

inline void notify(std::atomic<std::uint32_t>& signal) {
  signal.fetch_add(1, std::memory_order_acq_rel);
  signal.notify_all();
}

class SpinBarrier {
public:
  explicit SpinBarrier(unsigned threads)
      : threads_(threads), spins_(threads <= std::thread::hardware_concurrency() ? kSpins : 0) {}

  static constexpr unsigned kSpins = 1000;  // some 50 us
  unsigned spins() const { return spins_; }

  /// Waits for every thread; returns whether any of them arrived with `failed`, the same
  /// answer for all, so that they all stop at the same barrier.
  bool arrive_and_wait(bool failed = false) {
    const std::uint32_t generation = generation_.load(std::memory_order_acquire);
    const unsigned slot = generation % 2;
    if (failed) failed_[slot].store(true, std::memory_order_relaxed);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      // The other slot is free: its last readers passed the barrier before arriving at this one.
      failed_[1 - slot].store(false, std::memory_order_relaxed);
      notify(generation_);
      return failed_[slot].load(std::memory_order_relaxed);
    }
    await(generation_, spins_, [&] { return generation_.load(std::memory_order_acquire) != generation; });
    return failed_[slot].load(std::memory_order_relaxed);
  }

private:
  const unsigned threads_;
  const unsigned spins_;
  std::atomic<unsigned> arrived_{0};
  std::atomic<std::uint32_t> generation_{0};
  std::atomic<bool> failed_[2] = {false, false};  // by the generation's parity
};

}  // namespace dlbkit
