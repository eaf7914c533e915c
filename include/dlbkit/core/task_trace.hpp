#pragma once
/// \file
/// The task tree of a real run with each task's measured duration: what `dlbkit run
/// --record PATH` writes and the simulator's `trace` workload replays. docs/trace-format.md
/// describes the bytes.
///
/// A task is named by the worker that executed it and its index among that worker's
/// tasks (TaskRef); a task's parent is the task that spawned it, a root has none but the
/// worker whose stack it started on. Writing streams: each worker appends its records to a
/// section file of its own (about 4 to 10 bytes a task), and merge_task_trace() puts the
/// sections after a header into one file. Reading gives the tree in compact arrays
/// (16 bytes a task), tasks numbered densely in the order of the file.
///
/// ```
/// dlbkit::TaskTraceSection section("run.trace.part0", 0);
/// section.add(dlbkit::TaskRef::root(0), 1500);            // task (0, 0): a root, 1.5 us
/// section.add(dlbkit::TaskRef::task(0, 0), 900);          // task (0, 1): a child of (0, 0)
/// section.close();
/// dlbkit::AtomicFile out("run.trace");
/// dlbkit::merge_task_trace(out, 1, {"run.trace.part0"});
/// out.commit();
/// dlbkit::TaskTree tree = dlbkit::load_task_trace("run.trace");  // 2 tasks, 1 root
/// ```
///
/// Not thread-safe: one section belongs to one worker.

#include <dlbkit/core/time.hpp>
#include <dlbkit/io/atomic_file.hpp>
#include <dlbkit/io/temporary_files.hpp>

#include <cstdint>
#include <fstream>
#include <iosfwd>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace dlbkit {

/// A task's parent as it travels with the task: the parent's (worker, index), or for a
/// root the worker it started on. 8 bytes.
struct TaskRef {
  std::uint64_t bits = 0;
  static constexpr std::uint64_t kRoot = 1ULL << 63;
  static TaskRef root(std::uint32_t origin) { return {kRoot | (static_cast<std::uint64_t>(origin) << 32)}; }
  static TaskRef task(std::uint32_t worker, std::uint32_t index) {
    return {(static_cast<std::uint64_t>(worker) << 32) | index};
  }
  bool is_root() const { return (bits & kRoot) != 0; }
  std::uint32_t worker() const { return static_cast<std::uint32_t>((bits & ~kRoot) >> 32); }  ///< or the origin
  std::uint32_t index() const { return static_cast<std::uint32_t>(bits); }
};

/// The most tasks a trace may hold (tasks are numbered in 32 bits).
inline constexpr std::uint64_t kMaxTraceTasks = 0xFFFFFFFEULL;

/// One worker's records, streamed to a file of its own through a small buffer.
class TaskTraceSection {
public:
  /// Creates (truncates) `path`; an unwritable path is an InputError naming it. The file is
  /// a temporary (io/temporary_files.hpp): removed with this object unless merged before.
  TaskTraceSection(std::string path, std::uint32_t worker);
  /// The index the next add() gets: the executing task's own name, known before it ends.
  std::uint32_t next_index() const { return static_cast<std::uint32_t>(count_); }
  /// Appends the task (worker, next_index()) with its parent, duration (ns, >= 0) and the
  /// poll() calls it made (the section keeps their sum).
  void add(TaskRef parent, SimTime duration, std::uint64_t poll_calls = 0);
  /// Writes what is buffered and closes the file; an I/O error is an InputError.
  void close();
  std::uint64_t count() const { return count_; }
  const std::string& path() const { return file_.path(); }

private:
  void flush();
  TemporaryFile file_;
  std::uint32_t worker_;
  std::uint64_t count_ = 0;
  std::uint64_t poll_calls_ = 0;
  std::string buffer_;
  std::ofstream out_;
};

/// Writes the trace to `out`: the header for `workers` workers, then each section file in
/// turn (a missing file is an InputError), then the end record; closes `out` (a failed
/// write is an InputError) and removes the section files. The caller commits `out`.
void merge_task_trace(AtomicFile& out, std::uint32_t workers, std::span<const std::string> sections);

/// A task tree in compact arrays. Task i's children are children[first_child[i] ..
/// first_child[i + 1]), in the order of the file.
struct TaskTree {
  std::uint32_t workers = 0;              ///< of the recorded run
  std::vector<SimTime> duration;          ///< per task, ns
  std::vector<std::uint32_t> first_child; ///< size tasks() + 1
  std::vector<std::uint32_t> children;
  std::vector<std::uint32_t> roots;       ///< tasks without a parent
  std::vector<std::uint32_t> root_origin; ///< the worker each root started on
  /// The file's sections in order: tasks first .. first + count - 1 are (worker, 0 .. count - 1).
  struct Section {
    std::uint32_t worker = 0;
    std::uint64_t first = 0, count = 0;
  };
  std::vector<Section> sections;
  /// The poll() calls the recorded tasks made; unknown in a version 1 file.
  std::optional<std::uint64_t> poll_calls;
  std::uint64_t tasks() const { return duration.size(); }
  SimTime total_duration() const;
};

/// Reads the format; every defect (bad magic, a truncated record, a parent that names no
/// task, a cycle, bytes after the end) is an InputError "name: problem; accepted: ...".
TaskTree read_task_trace(std::istream& in, const std::string& name);
/// Reads a file; an unreadable file is an InputError naming it.
TaskTree load_task_trace(const std::string& path);

}  // namespace dlbkit
