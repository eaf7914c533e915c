#pragma once
// The progress line of the long commands (run, simulate, reproduce, demo).

#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace dlbkit::cli {

// While a command lasts over a second and stderr is a terminal: one line on stderr,
// rewritten four times a second, erased when the object goes (before the report). Nothing
// otherwise.
class ProgressLine {
public:
  // `command` starts the line ("dlbkit run").
  ProgressLine(bool wanted, std::string command);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  // What runs now; `detail`, called from the line's thread, says how far it is.
  void phase(std::string name, std::function<std::string()> detail = {});

private:
  void loop();

  const bool shown_;
  const std::string command_;
  bool printed_ = false, done_ = false;
  std::string phase_;
  std::function<std::string()> detail_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::thread thread_;
};

// The detail of a phase that simulates, from the simulations since the call: simulated
// time, events and their rate, tasks done; with `estimate`, the time left (one run of a
// closed workload: its tasks are all created at the start).
std::function<std::string()> simulation_progress(bool estimate);

}  // namespace dlbkit::cli
