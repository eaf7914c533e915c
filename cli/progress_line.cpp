#include "progress_line.hpp"

#include <dlbkit/sim/meter.hpp>

#include <chrono>
#include <cstdio>
#include <fmt/format.h>
#include <unistd.h>

namespace dlbkit::cli {

ProgressLine::ProgressLine(bool wanted, std::string command)
    : shown_(wanted && isatty(STDERR_FILENO) == 1), command_(std::move(command)) {
  if (shown_) thread_ = std::thread([this] { loop(); });
}

ProgressLine::~ProgressLine() {
  if (!shown_) return;
  {
    const std::lock_guard lock(mutex_);
    done_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (printed_) fmt::print(stderr, "\r\033[K");
}

void ProgressLine::phase(std::string name, std::function<std::string()> detail) {
  const std::lock_guard lock(mutex_);
  phase_ = std::move(name);
  detail_ = std::move(detail);
}

void ProgressLine::loop() {
  using namespace std::chrono_literals;
  const auto start = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, 250ms, [this] { return done_; })) {
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    if (elapsed < 1s) continue;
    fmt::print(stderr, "\r\033[K{}: {:.1f} s, {}{}", command_, elapsed.count(), phase_, detail_ ? detail_() : "");
    std::fflush(stderr);
    printed_ = true;
  }
}

std::function<std::string()> simulation_progress(bool estimate) {
  const SimulationMeter& m = simulation_meter();
  struct Sample {
    std::chrono::steady_clock::time_point time;
    std::uint64_t events;
  };
  const Sample first{std::chrono::steady_clock::now(), m.events.load()};
  const std::uint64_t created0 = m.tasks_created.load(), completed0 = m.tasks_completed.load();
  return [&m, estimate, first, created0, completed0, last = first, rate = 0.0]() mutable -> std::string {
    const Sample now{std::chrono::steady_clock::now(), m.events.load()};
    if (now.events == first.events) return {};  // nothing simulated yet (or no simulator)
    const double seconds = std::chrono::duration<double>(now.time - last.time).count();
    if (seconds >= 0.9) {  // the rate over the last second or so
      rate = static_cast<double>(now.events - last.events) / seconds;
      last = now;
    }
    const auto created = static_cast<double>(m.tasks_created.load() - created0);
    const auto completed = static_cast<double>(m.tasks_completed.load() - completed0);
    std::string text = fmt::format(", simulated {:.3f} s, {:.1f} M events ({:.2f} M/s), {:.0f}% of {:.0f} tasks done",
                                   to_seconds(m.simulated.load()), static_cast<double>(now.events - first.events) / 1e6,
                                   rate / 1e6, created > 0 ? 100 * completed / created : 0.0, created);
    if (estimate && completed > 0) {
      const double elapsed = std::chrono::duration<double>(now.time - first.time).count();
      text += fmt::format(", about {:.0f} s left", elapsed * (created - completed) / completed);
    }
    return text;
  };
}

}  // namespace dlbkit::cli
