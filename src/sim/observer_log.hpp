#pragma once
/// \file
/// The observers of a parallel run (docs/simulator.md, "Parallel windows"). Each partition
/// records the calls its events make, each beside the event that made it; at a window's end,
/// once every event's rank in the run is known, the calls of all partitions are replayed to
/// the run's observers in the order of one thread's run, with the task ids one thread gives:
/// the observers see the very calls of a one-thread run.

#include "instant_ranks.hpp"

#include <dlbkit/sim/observer.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <unordered_map>
#include <vector>

namespace dlbkit {

/// One partition's record of observer calls.
class ObserverLog final : public Observer {
public:
  /// When a call was made: as the workload placed the initial tasks (one thread places them
  /// all, in the run's order), as the partition's nodes started, or during an event.
  enum class Phase : std::uint8_t { placement, start, events };

  /// `events`: the partition's list of the events it handled in the window, whose next
  /// place names the event being handled; `placed`: the run's count of placement calls.
  ObserverLog(const WindowLog& events, std::uint64_t& placed) : events_(events), placed_(placed) {}

  void set_phase(Phase phase) { phase_ = phase; }

  void on_task_created(NodeId node, const Task& task, SimTime t) override { add({Kind::created, node, 0, task, t}); }
  void on_task_started(NodeId node, const Task& task, SimTime t) override { add({Kind::started, node, 0, task, t}); }
  void on_task_completed(NodeId node, const Task& task, SimTime t) override {
    add({Kind::completed, node, 0, task, t});
  }
  void on_task_migrated(NodeId from, NodeId to, const Task& task, SimTime t) override {
    add({Kind::migrated, from, to, task, t});
  }
  void on_message_sent(NodeId from, NodeId to, int kind, SimTime t) override {
    add({Kind::sent, from, to, Task{}, t, kind});
  }
  void on_task_arrived(NodeId to, NodeId from, const Task& task, SimTime t) override {
    add({Kind::arrived, to, from, task, t});
  }
  void on_activity(NodeId node, Activity activity, SimTime begin, SimTime end) override {
    add({Kind::activity, node, 0, Task{}, begin, end, activity});
  }
  void on_load(NodeId node, std::int64_t load, SimTime t) override { add({Kind::load, node, 0, Task{}, t, load}); }

private:
  friend class ObserverReplay;
  enum class Kind : std::uint8_t { created, started, completed, migrated, sent, arrived, activity, load };
  struct Call {
    Kind kind;
    NodeId a, b;
    Task task;
    SimTime t;
    std::int64_t value = 0;  // a message's kind, an activity's end, a load
    Activity activity = Activity::busy;
    Phase phase = Phase::placement;
    std::uint64_t order = 0;  // placement: the run's count; events: the event's place in the window's list
  };

  void add(Call call) {
    call.phase = phase_;
    call.order = phase_ == Phase::placement ? placed_++ : phase_ == Phase::events ? events_.next_place() : 0;
    calls_.push_back(call);
  }

  const WindowLog& events_;
  std::uint64_t& placed_;
  Phase phase_ = Phase::placement;
  std::vector<Call> calls_;
};

/// Hands the partitions' recorded calls to the run's observers in the run's order.
class ObserverReplay {
public:
  explicit ObserverReplay(const std::vector<Observer*>& observers) : observers_(observers) {}

  /// Replays and clears every call recorded so far; partition p's calls made during events
  /// name events of `windows[p]`, whose ranks in the run are known.
  void replay(std::span<const std::unique_ptr<ObserverLog>> logs, std::span<WindowLog* const> windows) {
    const std::size_t parts = logs.size();
    std::vector<std::size_t> at(parts, 0);
    const auto head = [&](std::size_t p) -> const ObserverLog::Call* {
      return at[p] < logs[p]->calls_.size() ? &logs[p]->calls_[at[p]] : nullptr;
    };
    // Placement, in the run's order; the nodes' starts, in the order of the partitions.
    for (;;) {
      std::size_t best = parts;
      for (std::size_t p = 0; p < parts; ++p)
        if (const auto* c = head(p); c && c->phase == ObserverLog::Phase::placement &&
                                     (best == parts || c->order < head(best)->order))
          best = p;
      if (best == parts) break;
      play(logs[best]->calls_[at[best]++]);
    }
    for (std::size_t p = 0; p < parts; ++p)
      for (const auto* c = head(p); c && c->phase == ObserverLog::Phase::start; c = head(p)) play(logs[p]->calls_[at[p]++]);
    // The events' calls, by the events' times and ranks in the run.
    const auto rank = [&](std::size_t p) {
      const HandledEvent& e = windows[p]->events()[head(p)->order];
      return std::pair{e.time, e.rank};
    };
    for (;;) {
      std::size_t best = parts;
      for (std::size_t p = 0; p < parts; ++p)
        if (head(p) && (best == parts || rank(p) < rank(best))) best = p;
      if (best == parts) break;
      const std::uint64_t event = head(best)->order;
      for (const auto* c = head(best); c && c->order == event; c = head(best)) play(logs[best]->calls_[at[best]++]);
    }
    for (const auto& log : logs) log->calls_.clear();
  }

private:
  // A partition's task id in the run's terms: one thread numbers tasks as they are created.
  Task run_task(const ObserverLog::Call& call) {
    Task task = call.task;
    if (call.kind == ObserverLog::Kind::created) {
      ids_[task.id] = next_id_;
      task.id = next_id_++;
      return task;
    }
    const auto it = ids_.find(task.id);
    if (it == ids_.end()) throw std::logic_error("parallel simulation: an observer call names a task never created");
    task.id = it->second;
    if (call.kind == ObserverLog::Kind::completed) ids_.erase(it);
    return task;
  }

  void play(const ObserverLog::Call& c) {
    using Kind = ObserverLog::Kind;
    const Task task = c.kind == Kind::sent || c.kind == Kind::activity || c.kind == Kind::load ? Task{} : run_task(c);
    for (Observer* o : observers_) {
      switch (c.kind) {
        case Kind::created: o->on_task_created(c.a, task, c.t); break;
        case Kind::started: o->on_task_started(c.a, task, c.t); break;
        case Kind::completed: o->on_task_completed(c.a, task, c.t); break;
        case Kind::migrated: o->on_task_migrated(c.a, c.b, task, c.t); break;
        case Kind::sent: o->on_message_sent(c.a, c.b, static_cast<int>(c.value), c.t); break;
        case Kind::arrived: o->on_task_arrived(c.a, c.b, task, c.t); break;
        case Kind::activity: o->on_activity(c.a, c.activity, c.t, c.value); break;
        case Kind::load: o->on_load(c.a, c.value, c.t); break;
      }
    }
  }

  const std::vector<Observer*>& observers_;
  std::unordered_map<std::uint64_t, std::uint64_t> ids_;  // a live task's id in its partition → in the run
  std::uint64_t next_id_ = 0;
};

}  // namespace dlbkit
