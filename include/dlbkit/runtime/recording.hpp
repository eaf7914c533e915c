#pragma once
/// \file
/// Recording a run's task tree (core/task_trace.hpp): RecordingApplication wraps an
/// application so that each task carries its parent's name (8 more bytes, appended to the
/// task's own) and each worker appends every task it executes, with the wall time its
/// execute() took, to a section file of its own, `<path>.part<worker>`. After the run,
/// finish() closes the sections, merges them into the trace and puts it at `path`; under
/// MPI each rank closes its own (close_sections()), and after a barrier one rank merges
/// them all (merge_sections(), then commit()), so the ranks need a file system they share.
/// The trace is an atomic output (io/atomic_file.hpp) and the sections are temporaries: a
/// run that fails, or an object destroyed before commit(), leaves neither, and an existing
/// trace as it was.
///
/// ```
/// dlbkit::RecordingApplication recorded(*app, "uts.trace");
/// dlbkit::RuntimeResult r = dlbkit::run_threads(recorded, config);
/// recorded.finish();                                   // uts.trace: one record per task
/// ```
/// dlbkit::Runtime records each of its runs so with RuntimeOptions::record (`--record`).
///
/// A task's duration includes the check points its own poll() calls reached, as the
/// worker's busy time does.

#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/runtime/any_application.hpp>

#include <memory>
#include <string>
#include <vector>

namespace dlbkit {

class RecordingApplication final : public AnyApplication {
public:
  /// `inner` must outlive this object; its report is this one's when it has one (an
  /// AnyApplication). Throws check_path()'s InputError.
  RecordingApplication(detail::ByteApplication& inner, std::string path);
  /// Throws InputError when a trace cannot be written at `path` (empty, a folder that does
  /// not exist, ...); leaves nothing.
  static void check_path(const std::string& path);

  std::size_t task_bytes() const override;
  std::size_t result_bytes() const override { return inner_.result_bytes(); }
  void prepare(std::size_t workers) override;
  void push_roots(NodeId worker, std::size_t workers, detail::TaskStack& stack) const override;
  void execute_bytes(std::span<const std::byte> task, detail::WorkerPort& port) override;
  std::vector<std::byte> partial(NodeId worker) const override { return inner_.partial(worker); }
  void combine_bytes(std::byte* into, const std::byte* other) const override { inner_.combine_bytes(into, other); }
  nlohmann::json report_bytes(const std::byte* result) const override {
    return reported_ ? reported_->report_bytes(result) : nullptr;
  }
  std::vector<std::string> exact_keys() const override {
    return reported_ ? reported_->exact_keys() : std::vector<std::string>{};
  }
  std::int64_t initial_bound() const override { return inner_.initial_bound(); }

  /// Closes the sections this process wrote (every worker's, or this rank's).
  void close_sections();
  /// Merges every worker's section file into the trace, not yet in place, and removes them.
  void merge_sections();
  /// Puts the merged trace at the path (nothing if this process merged none).
  void commit();
  /// All three: the threads engine's end of a run.
  void finish() {
    close_sections();
    merge_sections();
    commit();
  }
  /// Tasks recorded by this process.
  std::uint64_t recorded() const;

private:
  struct alignas(64) Slot {  // one worker's: a cache line of its own
    std::unique_ptr<TaskTraceSection> section;
    TaskRef running;
  };
  TaskTraceSection& section(NodeId worker) const;

  detail::ByteApplication& inner_;
  const AnyApplication* reported_;  // inner_, where it has a report
  std::string path_;
  std::size_t workers_ = 0;
  mutable std::vector<Slot> slots_;  // mutable: push_roots opens a worker's section
  std::unique_ptr<AtomicFile> out_;   // the merged trace
};

}  // namespace dlbkit
