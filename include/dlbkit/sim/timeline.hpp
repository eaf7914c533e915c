#pragma once
/// \file
/// The timeline both engines write: Chrome trace-event JSON, opened by Perfetto
/// (ui.perfetto.dev) and chrome://tracing. One track per node (pid 1, tid = node) with
/// spans ("X" events) of what the node did: busy executing tasks, idle, overhead
/// (sending and handling messages, checking for them); one counter ("C") of the node's
/// load (tasks held); task migrations as flow arrows ("s" at the sender, "f" at the
/// receiver). Times are microseconds from the start of the run. docs/timeline.md.
///
/// ```
/// dlbkit::Timeline timeline("run.json", "gm on hypercube:3", dlbkit::timeline_nodes("0-3", 8));
/// const dlbkit::TimelineEvent busy{.type = dlbkit::TimelineEvent::busy, .node = 0, .time = 0, .end = 5000};
/// timeline.write({&busy, 1});
/// timeline.commit();  // ends the JSON document and puts the file in place; throws when it could not be written
/// ```
/// Events are written as they come (nothing is held beyond a small buffer per node), so a
/// timeline's memory does not grow with the run. write() may be called from several
/// threads at once; per node, events come in time order. The file is an atomic output
/// (io/atomic_file.hpp): it is written beside `path` and takes its name at commit(); a
/// timeline destroyed before that (a run that failed) leaves no file and an old one as it was.

#include <dlbkit/core/time.hpp>
#include <dlbkit/io/atomic_file.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <mutex>
#include <span>
#include <string>
#include <vector>

namespace dlbkit {

struct TimelineEvent {
  enum Type : std::uint8_t {
    busy,      ///< span [time, end): executing tasks
    idle,      ///< span [time, end): holding no task
    overhead,  ///< span [time, end): sending, handling or checking for messages
    load,      ///< counter: the node holds `value` tasks from `time` on
    send,      ///< flow start: `value` tasks leave the node at `time` (arrow `id`)
    receive,   ///< flow end: `value` tasks reach the node at `time` (arrow `id`)
  };
  Type type = busy;
  NodeId node = 0;
  SimTime time = 0;         ///< ns from the start of the run
  SimTime end = 0;          ///< spans: their end (ns)
  std::int64_t value = 0;   ///< load: tasks held; send, receive: tasks moved
  std::uint64_t id = 0;     ///< send, receive: the arrow (the same at both ends, below 2^53)
};

/// The nodes a timeline records when --timeline-nodes is not given: the first ones.
inline constexpr std::size_t kTimelineDefaultNodes = 64;

/// Which of `nodes` nodes to record: `list` is "all", or comma-separated nodes and ranges
/// ("0-7,12"); empty: the first kTimelineDefaultNodes. Throws InputError naming a bad part
/// (not a number, a range backwards, a node of no such number).
std::vector<bool> timeline_nodes(const std::string& list, std::size_t nodes);

/// A short form of a selection for messages: "0-63 of 1024".
std::string describe_nodes(const std::vector<bool>& chosen);

class Timeline {
public:
  /// Opens `path` and writes the header and a name per chosen node (`own`: the nodes this
  /// process runs, when it runs a part of them: an MPI rank). Arrows are drawn between
  /// chosen nodes. Throws InputError naming the path when it cannot be written.
  Timeline(const std::string& path, const std::string& title, std::vector<bool> chosen,
           const std::vector<bool>& own = {});
  Timeline(const Timeline&) = delete;
  Timeline& operator=(const Timeline&) = delete;

  /// Whether node `node`'s events are recorded (the others' are dropped by write()).
  bool records(NodeId node) const { return node < chosen_.size() && chosen_[node]; }
  /// The run's node count.
  std::size_t nodes() const { return chosen_.size(); }
  /// Appends the events of recorded nodes. Thread-safe.
  void write(std::span<const TimelineEvent> events);
  /// Says that node `node`'s times are another clock's readings plus `offset`, right to
  /// within +- `error` (ns): a metadata event "clock_sync" (an MPI rank's, docs/timeline.md).
  void note_clock(NodeId node, SimTime offset, SimTime error);
  /// Ends the document and closes the file; throws InputError naming the path, with the
  /// reason of the first write that failed. The file is not in place yet: an MPI rank
  /// commits only when every rank finished.
  void finish();
  /// finish() if not done, then puts the file in place.
  void commit();

private:
  std::vector<bool> chosen_;
  std::mutex mutex_;
  AtomicFile file_;
  std::string line_;  // scratch
  bool ended_ = false;
};

}  // namespace dlbkit
