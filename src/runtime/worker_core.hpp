#pragma once
// One worker of a runtime engine: its task stack, its strategy agent and the NodeContext
// the agent sees, check points, timers and injected delays. The engines differ only in
// their Transport: how envelopes travel and how the end of the run is detected.
// Private to the runtime (the threads engine and the MPI engine include it).

#include <dlbkit/core/node_context.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/core/strategy.hpp>
#include <dlbkit/runtime/engine.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <exception>
#include <limits>
#include <memory>
#include <span>
#include <thread>
#include <time.h>
#include <vector>

namespace dlbkit::detail {

/// Processor time of the calling thread.
inline SimTime thread_cpu_ns() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<SimTime>(t.tv_sec) * kSecond + t.tv_nsec;
}

inline SimTime clock_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

/// A strategy message or a batch of task records (TaskStack::take_bottom format).
struct Envelope {
  enum class Type : std::uint8_t { message, tasks };
  NodeId from = 0;
  Type type = Type::message;
  std::uint32_t count = 0;  // tasks
  Message message{};
  std::vector<std::byte> records;
};

class WorkerCore;

class Transport {
public:
  virtual void send(NodeId to, Envelope&& envelope) = 0;
  /// Hands every envelope that has arrived for `core` to core.accept().
  virtual void receive(WorkerCore& core) = 0;
  /// Just before tasks leave `core` (the threads engine settles its task count here).
  virtual void before_tasks_leave(WorkerCore&) {}
  /// A batch of tasks was added to the worker's stack (the MPI engine's Safra counter).
  virtual void tasks_handled(WorkerCore&) {}
  virtual void bound_improved(WorkerCore&, std::int64_t) {}
  /// Called again and again while the worker holds no task; true when the run is over.
  virtual bool idle(WorkerCore& core) = 0;
  /// The waiting worker sleeps up to `time`. An engine that can tell when mail arrives (or
  /// the run ends) wakes it then; this one sleeps it out.
  virtual void pause(WorkerCore&, std::chrono::microseconds time) { std::this_thread::sleep_for(time); }
  /// A task of `core` threw `error`: stop every worker. The worker stops after this call.
  virtual void task_failed(WorkerCore& core, std::exception_ptr error) = 0;

protected:
  ~Transport() = default;
};

class WorkerCore final : public NodeContext, public WorkerPort::Hooks {
public:
  WorkerCore(ByteApplication& app, const RuntimeConfig& config, NodeId self, Transport& transport,
             std::atomic<std::int64_t>& bound, SimTime start)
      : app_(app),
        config_(config),
        topology_(*config.topology),
        self_(self),
        transport_(transport),
        agent_(config.strategy.create()),
        rng_(config.seed, self + 1),
        delay_rng_(config.seed ^ 0x5DEECE66DULL, self + 1),
        stack_(app.task_bytes()),
        port_(self, stack_, bound, *this),
        task_(app.task_bytes()),
        start_(start) {
    messages_by_kind_.assign(config.strategy.info->message_kinds.size() + 1, 0);
    if (config.timeline != nullptr && config.timeline->records(self)) {
      tracing_ = true;
      sent_to_.assign(topology_.size(), 0);
      received_from_.assign(topology_.size(), 0);
    }
  }

  /// The tasks this worker starts with.
  void push_roots() { app_.push_roots(self_, topology_.size(), stack_); }
  /// Its timeline's first span begins at `t` (ns of the run) instead of 0.
  void trace_from(SimTime t) { trace_mark_ = t; }

  /// Executes and balances until the transport says the run is over or stopped it.
  void run() {
    const SimTime cpu_start = thread_cpu_ns();
    last_check_ = last_look_ = clock_ns();
    notified_ = held_work();
    // A task or a strategy's callback (a parameter checked against the topology at
    // on_start) that throws stops the run everywhere; the error reaches the caller.
    try {
      loop();
    } catch (...) {
      executing_ = false;
      stopped_ = true;
      transport_.task_failed(*this, std::current_exception());
    }
    publish_progress();
    stats_.cpu = thread_cpu_ns() - cpu_start;
    if (tracing_) {
      trace_span(TimelineEvent::busy, trace_mark_, now());  // what is left since the last span
      config_.timeline->write(trace_);
      trace_.clear();
    }
  }

  /// The transport saw the run stopped (a task threw somewhere): the worker leaves its
  /// loops at the next check.
  void stop() { stopped_ = true; }

  /// An envelope for this worker, from its transport (during receive()).
  void accept(Envelope&& e) {
    if (config_.max_delay <= 0) return handle(e);
    const SimTime now = clock_ns();
    const SimTime wait = static_cast<SimTime>(delay_rng_.below(static_cast<std::uint64_t>(config_.max_delay) + 1));
    last_release_ = std::max(last_release_, now + wait);  // in order of arrival
    held_.push_back(Held{last_release_, std::move(e)});
  }

  // --- NodeContext ---
  NodeId self() const override { return self_; }
  const Topology& topology() const override { return topology_; }
  /// A strategy asking for the load or for what could move may want to move work: an
  /// executing task that gave a split function splits first if the stack is empty (split
  /// on demand), and for what could move also when it says it holds more (offer_split).
  /// Without the split in load(), a strategy that weighs loads (RID answers a request with
  /// load() / 2) would see the executing task alone, 1, and move nothing.
  std::int64_t load() const override {
    offer_split();
    return held_work();
  }
  std::int64_t migratable() const override {
    offer_split(std::numeric_limits<std::size_t>::max());
    return static_cast<std::int64_t>(stack_.size() - next_task());
  }
  SimTime now() const override { return clock_ns() - start_; }
  Rng& rng() override { return rng_; }

  void send(NodeId to, const Message& message) override {
    ++messages_by_kind_[message.kind];
    ++stats_.messages_sent;
    Envelope e;
    e.from = self_;
    e.type = Envelope::Type::message;
    e.message = message;
    transport_.send(to, std::move(e));
  }

  std::int64_t migrate(NodeId to, std::int64_t amount, std::uint32_t max_hops) override {
    if (amount <= 0 || to == self_) return 0;
    Envelope e;
    e.from = self_;
    e.type = Envelope::Type::tasks;
    offer_split(static_cast<std::size_t>(amount));  // an executing task that holds the work splits first
    const std::size_t moved = stack_.take_bottom(static_cast<std::size_t>(amount), max_hops, e.records, next_task());
    if (moved == 0) return 0;
    e.count = static_cast<std::uint32_t>(moved);
    tasks_out_ += moved;
    stats_.tasks_sent += moved;
    ++stats_.messages_sent;
    ++messages_by_kind_.back();
    if (tracing_ && config_.timeline->records(to)) [[unlikely]]
      trace({.type = TimelineEvent::send, .node = self_, .time = now(), .value = static_cast<std::int64_t>(moved),
             .id = arrow(self_, to, sent_to_[to]++)});
    transport_.before_tasks_leave(*this);
    transport_.send(to, std::move(e));
    return static_cast<std::int64_t>(moved);
  }

  void set_timer(SimTime delay, std::uint64_t tag) override {
    timers_.push_back(Timer{clock_ns() + std::max<SimTime>(0, delay), tag});
    std::push_heap(timers_.begin(), timers_.end());
  }

  std::span<std::int64_t> neighbor_slots() override {
    if (neighbor_slots_.empty()) neighbor_slots_.assign(neighbors().size(), 0);
    return neighbor_slots_;
  }

  // --- WorkerPort::Hooks ---
  std::uint32_t poll_point(const SplitRef* split) override {
    const SimTime now = clock_ns();
    // Adapt the number of poll() calls between looks at the clock so that a look comes
    // about every poll_interval / 8: halve it or more after a long stretch, double it after
    // a short one, within [1, check_tasks].
    const SimTime since = now - last_look_, target = config_.poll_interval / 8;
    last_look_ = now;
    if (since > 2 * target)
      stride_ = static_cast<std::uint32_t>(std::max<SimTime>(1, stride_ * target / std::max<SimTime>(1, since)));
    else if (since < target / 2) stride_ = std::min(2 * stride_, config_.check_tasks);
    if (mail_hint() || now - last_check_ >= config_.poll_interval) {
      split_ = split;
      check_point();
      split_ = nullptr;
    }
    return stride_;
  }
  void bound_improved(std::int64_t bound) override { transport_.bound_improved(*this, bound); }

  // --- for the transports and the engines ---
  std::int64_t held_tasks() const { return static_cast<std::int64_t>(stack_.size()) + (executing_ ? 1 : 0); }
  /// The load the strategy sees: held_tasks(), with the executing task counted as the work
  /// it says it still holds (TaskContext::poll(split, remaining)), at least 1.
  std::int64_t held_work() const {
    const auto executing = executing_ ? std::max<std::uint64_t>(1, port_.remaining()) : 0;
    return static_cast<std::int64_t>(stack_.size() + executing);
  }
  /// Held, sent and received task counts: spawned - completed = delta(held) + delta(sent) - delta(received).
  std::uint64_t tasks_out() const { return tasks_out_; }
  std::uint64_t tasks_in() const { return tasks_in_; }
  /// The threads engine's mailbox counter: a cheap look per task for new mail.
  void watch(const std::atomic<std::uint64_t>* posted) { posted_ = posted; }
  std::uint64_t& seen_posted() { return seen_posted_; }
  WorkerStats stats(SimTime elapsed) const {
    WorkerStats s = stats_;
    s.busy = std::max<SimTime>(0, elapsed - s.idle);
    return s;
  }
  const std::vector<std::uint64_t>& messages_by_kind() const { return messages_by_kind_; }

private:
  // run()'s work, which a task or the strategy may leave by an exception.
  void loop() {
    agent_->on_start(*this);
    while (!stopped_) {
      if (!stack_.empty()) idle_notified_ = false;
      while (!stack_.empty() && !stopped_) {
        stack_.pop(task_);
        port_.set_remaining(0);
        executing_ = true;
        app_.execute_bytes(task_, port_);  // an exception ends run()'s try
        executing_ = false;
        ++stats_.tasks_executed;
        if (mail_hint()) check_point();
        else port_.poll();  // the same countdown as the task's own poll() calls
      }
      if (stopped_) break;
      check_point();
      if (!stack_.empty() || stopped_) continue;
      if (!idle_notified_) {
        idle_notified_ = true;
        agent_->on_idle(*this);
        continue;
      }
      wait_for_work();
    }
  }

  struct Timer {
    SimTime due;
    std::uint64_t tag;
    bool operator<(const Timer& o) const { return due > o.due; }  // a min-heap
  };
  struct Held {
    SimTime release;
    Envelope envelope;
  };

  // Between two tasks and while waiting, the top of the stack is the task this worker
  // executes next, as a simulated node starts its next task at once: it is not migratable
  // (WLR93 IV-A fn. 2). Else a waiting worker that received one task could hand it on in
  // the same check point, to a thief whose request came with it, and wait for work its
  // strategy, told of the arrival, no longer asks for.
  std::size_t next_task() const { return !executing_ && !stack_.empty() ? 1 : 0; }

  // The executing task splits (when it gave a split function: once per check point) when
  // the stack is empty, or when a strategy wants more than the stack holds (a migration of
  // `wanted` tasks, or a look at all that could move) while the task says it holds more
  // work (poll(split, remaining)): the strategy then finds on the stack the work the load
  // showed it.
  void offer_split(std::size_t wanted = 1) const {
    if (split_ == nullptr) return;
    if (!stack_.empty() && (stack_.size() >= wanted || port_.remaining() == 0)) return;
    const SplitRef* split = split_;
    split_ = nullptr;  // the split itself may ask again
    const std::size_t before = stack_.size();
    (*split)();
    if (stack_.size() == before) return;
    ++stats_.splits;
    port_.set_remaining(0);  // what the task kept is unknown until its next poll(): counted as 1
  }

  bool mail_hint() const { return posted_ != nullptr && posted_->load(std::memory_order_relaxed) != seen_posted_; }

  // --- the timeline (only when tracing_) ---
  void trace(const TimelineEvent& e) {
    trace_.push_back(e);
    if (trace_.size() >= 4096) {
      config_.timeline->write(trace_);
      trace_.clear();
    }
  }
  // A span from `begin` to `end` (ns of the run); the time since the previous span was busy.
  void trace_span(TimelineEvent::Type type, SimTime begin, SimTime end) {
    if (begin > trace_mark_) trace({.type = TimelineEvent::busy, .node = self_, .time = trace_mark_, .end = begin});
    if (end > begin) trace({.type = type, .node = self_, .time = begin, .end = end});
    trace_mark_ = std::max(trace_mark_, end);
  }
  // The load counter: on a change, at most every 100 us while the load stays above 0.
  void trace_load(SimTime t) {
    const std::int64_t held = held_work();
    if (held == traced_load_ || (held != 0 && traced_load_ != 0 && t - traced_load_at_ < 100 * kMicrosecond)) return;
    traced_load_ = held;
    traced_load_at_ = t;
    trace({.type = TimelineEvent::load, .node = self_, .time = t, .value = held});
  }
  // The arrow of the k-th transfer from `from` to `to`: both ends count their transfers
  // alike (envelopes between two workers arrive in order). Unique below 2^53 for up to
  // 2^16 workers and 2^20 transfers between two of them.
  std::uint64_t arrow(NodeId from, NodeId to, std::uint64_t k) const {
    const std::uint64_t pair = (std::uint64_t{from} * topology_.size() + to) & ((std::uint64_t{1} << 33) - 1);
    return (pair << 20) | (k & ((std::uint64_t{1} << 20) - 1));
  }

  // Until work arrives, the run is over or stopped, measuring idle wall and processor time.
  void wait_for_work() {
    const SimTime idle_start = clock_ns(), idle_cpu_start = thread_cpu_ns();
    if (tracing_) [[unlikely]] trace_load(idle_start - start_);
    waiting_ = true;
    for (unsigned spins = 0;; ++spins) {
      if (transport_.idle(*this)) {
        stopped_ = true;
        break;
      }
      const std::uint64_t sent = stats_.messages_sent;
      check_point();
      if (!stack_.empty() || stopped_) break;
      if (stats_.messages_sent != sent) spins = 0;  // it asked for work: the answer comes soon
      backoff(spins);
    }
    waiting_ = false;
    const SimTime idle_end = clock_ns();
    stats_.idle += idle_end - idle_start;
    stats_.idle_cpu += thread_cpu_ns() - idle_cpu_start;
    if (tracing_) [[unlikely]] {
      trace_span(TimelineEvent::idle, idle_start - start_, idle_end - start_);
      trace_load(idle_end - start_);
    }
  }

  void handle(Envelope& e) {
    ++handled_;
    if (e.type == Envelope::Type::message) {
      agent_->on_message(*this, e.from, e.message);
      return;
    }
    stack_.push_records(e.records.data(), e.count);
    if (tracing_ && config_.timeline->records(e.from)) [[unlikely]]
      trace({.type = TimelineEvent::receive, .node = self_, .time = now(), .value = e.count,
             .id = arrow(e.from, self_, received_from_[e.from]++)});
    tasks_in_ += e.count;
    stats_.tasks_received += e.count;
    transport_.tasks_handled(*this);
    agent_->on_tasks_arrived(*this, e.from, e.count);
  }

  void publish_progress() {
    if (config_.progress == nullptr) return;
    config_.progress->fetch_add(stats_.tasks_executed - published_, std::memory_order_relaxed);
    published_ = stats_.tasks_executed;
  }

  void check_point() {
    publish_progress();
    const SimTime now = clock_ns();
    last_check_ = now;
    const std::uint64_t handled_before = handled_;
    transport_.receive(*this);
    while (!held_.empty() && held_.front().release <= now) {
      Envelope e = std::move(held_.front().envelope);
      held_.pop_front();
      handle(e);
    }
    while (!timers_.empty() && timers_.front().due <= now) {
      std::pop_heap(timers_.begin(), timers_.end());
      const std::uint64_t tag = timers_.back().tag;
      timers_.pop_back();
      ++handled_;
      agent_->on_timer(*this, tag);
    }
    if (held_work() != notified_) {  // not load(): the engine's own look splits nothing
      agent_->on_load_change(*this);
      notified_ = held_work();
    }
    if (tracing_ && !waiting_) [[unlikely]] {
      // A check point that handled something is overhead; an empty look is part of busy.
      if (handled_ != handled_before) trace_span(TimelineEvent::overhead, now - start_, clock_ns() - start_);
      trace_load(now - start_);
    }
  }

  // Waiting for work: spin briefly, yield, then sleep from 10 us doubling up to 320 us,
  // so that an idle worker leaves the processor to the busy ones (the transport may wake it
  // sooner); a worker that has just sent a message (a steal request, say) starts again from
  // spinning.
  void backoff(unsigned spins) {
    if (spins < 64) return;
    if (spins < 128) return std::this_thread::yield();
    const unsigned doublings = std::min(5u, (spins - 128) / 8);
    transport_.pause(*this, std::chrono::microseconds(10u << doublings));
  }

  ByteApplication& app_;
  const RuntimeConfig& config_;
  const Topology& topology_;
  NodeId self_;
  Transport& transport_;
  std::unique_ptr<Strategy> agent_;
  Rng rng_, delay_rng_;
  std::vector<std::int64_t> neighbor_slots_;  // the agent's, sized on its first request
  TaskStack stack_;
  mutable WorkerPort port_;  // mutable: a split on a strategy's look resets the task's remaining work
  TaskBuffer task_;
  SimTime start_;
  bool executing_ = false;
  bool idle_notified_ = false;
  bool stopped_ = false;
  mutable const SplitRef* split_ = nullptr;  // the executing task's, during a check point in its poll()
  std::uint32_t stride_ = 1;                 // poll() calls between looks at the clock
  SimTime last_check_ = 0, last_look_ = 0;
  std::int64_t notified_ = 0;
  std::uint64_t tasks_out_ = 0, tasks_in_ = 0;
  std::uint64_t published_ = 0;  // tasks_executed already added to config_.progress
  const std::atomic<std::uint64_t>* posted_ = nullptr;
  std::uint64_t seen_posted_ = 0;
  std::vector<Timer> timers_;
  std::deque<Held> held_;
  SimTime last_release_ = 0;
  mutable WorkerStats stats_;  // mutable: migratable() counts splits
  std::vector<std::uint64_t> messages_by_kind_;
  std::uint64_t handled_ = 0;  // envelopes and timers handled
  // The timeline: this worker's buffer, the end of its last span, its transfers per peer.
  bool tracing_ = false;
  bool waiting_ = false;  // in wait_for_work: its check points are part of the idle span
  std::vector<TimelineEvent> trace_;
  SimTime trace_mark_ = 0, traced_load_at_ = 0;
  std::int64_t traced_load_ = -1;
  std::vector<std::uint64_t> sent_to_, received_from_;
};

/// The checks of `config` every engine makes after those of its topology: a strategy is
/// given, it accepts the topology, check_tasks is at least 1. The InputErrors begin with
/// `engine` ("threads engine").
void check_engine_config(const RuntimeConfig& config, const std::string& engine);

/// The workers' partial results, one after another in worker order, combined into one.
std::vector<std::byte> combine_partials(const ByteApplication& app, std::span<const std::byte> partials);

/// start_warnings() and the end-of-run ones into r.warnings.
void add_warnings(const ByteApplication& app, const RuntimeConfig& config, RuntimeResult& r);

/// Sums the per-worker figures of an engine into a RuntimeResult (result left empty).
RuntimeResult collect(const std::string& engine, const RuntimeConfig& config, double elapsed_seconds,
                      const std::vector<WorkerStats>& workers, const std::vector<std::uint64_t>& messages_by_kind);

}  // namespace dlbkit::detail
