#pragma once
/// \file
/// Waiting for the other threads of a parallel simulation, whose windows last microseconds:
/// a thread spins briefly, then sleeps on the word it waits for (a futex), so that more
/// threads than cores, or other work on the machine, do not stall the run.

#include <atomic>
#include <cstdint>

namespace dlbkit {

/// Waits until `done()`. Whoever changes what done() reads then calls `notify(signal)`.
template <class Done>
void await(std::atomic<std::uint32_t>& signal, Done done) {
  for (unsigned spins = 0; spins < 1000; ++spins) {  // a few microseconds
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
  explicit SpinBarrier(unsigned threads) : threads_(threads) {}

  void arrive_and_wait() {
    const std::uint32_t generation = generation_.load(std::memory_order_acquire);
    if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
      arrived_.store(0, std::memory_order_relaxed);
      notify(generation_);
      return;
    }
    await(generation_, [&] { return generation_.load(std::memory_order_acquire) != generation; });
  }

private:
  const unsigned threads_;
  std::atomic<unsigned> arrived_{0};
  std::atomic<std::uint32_t> generation_{0};
};

}  // namespace dlbkit
