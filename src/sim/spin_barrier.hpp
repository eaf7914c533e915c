#pragma once
/// \file
/// Waiting for the other threads of a parallel simulation, whose windows last microseconds
/// to milliseconds: a thread spins for a share of its own work between waits, then sleeps on
/// the word it waits for (a futex), so that other work on the machine does not stall the
/// run; with more threads than cores it sleeps at once. (Yielding the core between looks
/// instead made runs beside one busy process on 2 cores more than 12 times slower: the
/// waiting threads took the time of those they waited for. A fixed spin of 1 000 pauses,
/// 17 us on a host whose pause takes 17 ns, ended most waits of large runs in a sleep whose
/// wake-up cost more than the wait: docs/simulator.md, "Waiting at the barriers".)

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace dlbkit {

/// Waits until `done()`, spinning first for up to `spin` of host time (0 where the threads
/// outnumber the cores: the one waited for needs the core). Whoever changes what done()
/// reads then calls `notify(signal)`.
template <class Done>
void await(std::atomic<std::uint32_t>& signal, std::chrono::nanoseconds spin, Done done) {
  if (spin.count() > 0) {
    const auto until = std::chrono::steady_clock::now() + spin;
    do {
      for (int i = 0; i < 16; ++i) {  // the clock read between rounds of pauses
        if (done()) return;
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
      }
    } while (std::chrono::steady_clock::now() < until);
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
      : threads_(threads), may_spin_(threads <= std::thread::hardware_concurrency()) {}

  /// How long a wait spins before it sleeps, for a thread that worked `work` of host time
  /// since its last wait: half of that (a wait is for the others' share of like work), from
  /// 20 us to 1 ms; 0 where the threads outnumber the cores.
  std::chrono::nanoseconds spin(std::chrono::nanoseconds work) const {
    if (!may_spin_) return {};
    return std::clamp<std::chrono::nanoseconds>(work / 2, std::chrono::microseconds{20}, std::chrono::milliseconds{1});
  }

  /// Waits for every thread, spinning for `spin` before it sleeps; returns whether any of them
  /// arrived with `failed`, the same answer for all, so that they all stop at the same barrier.
  bool arrive_and_wait(bool failed, std::chrono::nanoseconds spin) {
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
    await(generation_, spin, [&] { return generation_.load(std::memory_order_acquire) != generation; });
    return failed_[slot].load(std::memory_order_relaxed);
  }

private:
  const unsigned threads_;
  const bool may_spin_;
  std::atomic<unsigned> arrived_{0};
  std::atomic<std::uint32_t> generation_{0};
  std::atomic<bool> failed_[2] = {false, false};  // by the generation's parity
};

}  // namespace dlbkit
