#pragma once
/// \file
/// What the simulations of this process have done so far, for a progress display (the CLI's
/// progress line). Every run adds its counts every 65 536 events and at its end, so
/// reading costs a run nothing; runs at once in several threads add to the same counts.

#include <dlbkit/core/time.hpp>

#include <atomic>
#include <cstdint>

namespace dlbkit {

struct SimulationMeter {
  std::atomic<std::uint64_t> events{0};
  std::atomic<std::uint64_t> tasks_created{0};
  std::atomic<std::uint64_t> tasks_completed{0};
  std::atomic<SimTime> simulated{0};  ///< the simulated time a run reached when it last reported
};

/// The process's meter.
SimulationMeter& simulation_meter();

/// One run's share of the meter: report() adds what changed since the last report.
class MeterShare {
public:
  static constexpr std::uint64_t kEvery = 1u << 16;  ///< events between two reports

  void report(std::uint64_t events, std::uint64_t created, std::uint64_t completed, SimTime now) {
    SimulationMeter& m = simulation_meter();
    m.events.fetch_add(events - events_, std::memory_order_relaxed);
    m.tasks_created.fetch_add(created - created_, std::memory_order_relaxed);
    m.tasks_completed.fetch_add(completed - completed_, std::memory_order_relaxed);
    m.simulated.store(now, std::memory_order_relaxed);
    events_ = events;
    created_ = created;
    completed_ = completed;
  }

private:
  std::uint64_t events_ = 0, created_ = 0, completed_ = 0;
};

}  // namespace dlbkit
