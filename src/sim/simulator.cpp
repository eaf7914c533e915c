#include "agent_array.hpp"
#include "block_list.hpp"
#include "byte_stream.hpp"
#include "event_key.hpp"
#include "event_queue.hpp"
#include "huge_pages.hpp"
#include "instant_ranks.hpp"
#include "observer_log.hpp"
#include "node_speed.hpp"
#include "spin_barrier.hpp"
#include "task_queues.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/sim/meter.hpp>
#include <dlbkit/sim/simulator.hpp>
#include <dlbkit/sim/workload.hpp>

#include <algorithm>
#include <array>
#include <cassert>
#include <chrono>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <limits>
#include <memory>
#include <mutex>
#include <new>
#include <numeric>
#include <optional>
#include <span>
#include <stdexcept>
#include <thread>
#include <type_traits>

namespace dlbkit {

Execution parse_execution(const std::string& text) {
  if (text == "fcfs") return Execution::fcfs;
  if (text == "processor_sharing" || text == "ps") return Execution::processor_sharing;
  if (text == "lifo") return Execution::lifo;
  throw InputError(fmt::format("unknown execution mode '{}'; accepted: fcfs, processor_sharing (or ps), lifo", text));
}

const char* to_string(Execution execution) {
  switch (execution) {
    case Execution::fcfs: return "fcfs";
    case Execution::processor_sharing: return "processor_sharing";
    case Execution::lifo: return "lifo";
  }
  return "fcfs";
}

std::uint64_t SimulationResult::messages() const {
  return std::accumulate(messages_by_kind.begin(), messages_by_kind.end(), std::uint64_t{0});
}

namespace {

// Simulated time must stay within 64 bits: a run whose costs add up past that is refused.
// The checks are on every event's path, the messages out of line.
[[noreturn, gnu::cold, gnu::noinline]] void fail_time_sum(SimTime t, SimTime delta) {
  throw std::runtime_error(fmt::format("simulated time overflows 64-bit nanoseconds ({} + {}); the cost model's "
                                       "or the workload's durations are too large",
                                       t, delta));
}
[[noreturn, gnu::cold, gnu::noinline]] void fail_time_product(SimTime unit, std::int64_t count) {
  throw std::runtime_error(fmt::format("simulated time overflows 64-bit nanoseconds ({} x {})", unit, count));
}

SimTime later(SimTime t, SimTime delta) {
  SimTime sum;
  if (__builtin_add_overflow(t, delta, &sum)) [[unlikely]] fail_time_sum(t, delta);
  return sum;
}

[[noreturn, gnu::cold, gnu::noinline]] void fail_time_at_speed(SimTime processor, double speed) {
  throw std::runtime_error(
      fmt::format("simulated time overflows 64-bit nanoseconds ({} ns at speed {})", processor, speed));
}

SimTime times(SimTime unit, std::int64_t count) {
  SimTime product;
  if (__builtin_mul_overflow(unit, count, &product)) [[unlikely]] fail_time_product(unit, count);
  return product;
}

constexpr SimTime kNever = std::numeric_limits<SimTime>::max();

enum class EventType : std::uint8_t { delivery, wake, arrival };

struct Event {
  SimTime time;
  EventKey key;  // unique, so (time, key) is a total order; its low bits hold the type
  NodeId node;
  std::uint32_t ref;  // delivery: in-flight slot
  EventType type() const { return static_cast<EventType>(key.type()); }
};

// Something on its way to a node's inbox. A message travels in its slot when only the first
// kSlotBody bytes of its body may be other than zero (a load, a request: most), else in a
// place of its own (large_message).
enum class Delivery : std::uint8_t { message, large_message, tasks, timer, local_arrival };

constexpr std::uint32_t kNone = 0xFFFFFFFFu;
constexpr std::size_t kSlotBody = 16;

// A slot is half a cache line, aligned so that it never straddles two: at the start every
// node messages every neighbour, and these slots with their events are then the largest
// share of the memory after the tasks.
struct alignas(32) InFlight {
  NodeId from;
  std::uint32_t next = kNone;  // the next slot in the receiver's inbox
  std::uint32_t ref = 0;       // tasks and local_arrival: the batch; large_message: its place in large_
  Delivery type;
  std::uint16_t kind = 0;                   // message: its kind
  std::array<std::byte, kSlotBody> body{};  // message: the body's first bytes; timer: the tag
};
static_assert(sizeof(InFlight) == 32, "a slot is half a cache line");

enum class Mode : std::uint8_t { idle, running, overhead };

// One node's state, in one array indexed by node: the fields an event touches fill the
// first two cache lines (its flags are bits, so that they do), the statistics of
// completions and sends and the node's random stream the third; the engine prefetches all
// three. The pending tasks are in the engine's pool.
struct alignas(64) Node {
  Mode mode = Mode::idle;
  bool has_current : 1 = false;
  bool poll_scheduled : 1 = false;  // while running: the pending wake is a poll point
  bool idle_notified : 1 = false;
  bool wake_carried : 1 = false;  // the latest wake is not queued: the reserve will queue it
  bool has_reserve : 1 = false;   // a wake entry of the node is queued (Engine::schedule_wake)
  bool woken : 1 = false;         // parallel runs: in the window's list of nodes woken (Engine::woken_)
  std::uint32_t inbox_head = kNone;  // arrived and not yet handled: a list through the slots
  std::uint32_t inbox_tail = kNone;
  TaskQueues::Queue queue;  // pending, front executes next
  Task current{};
  SimTime progress = 0;       // work done on `current` when its segment started
  SimTime segment_start = 0;  // when `current` last resumed
  std::int64_t notified_load = 0;
  SimTime overhead_until = 0;  // end of the latest overhead spell
  SimTime overhead = 0;
  // The latest wake scheduled (the one that counts), and the time of the reserve: the wake
  // entry in the queue furthest ahead, the node's only one at its time (Engine::schedule_wake).
  SimTime wake_at = 0, reserve_at = 0;
  EventKey wake_key;
  // NodeStats but overhead (above) and the migration counts, which few events touch (Engine::transfers_)
  SimTime busy = 0, finish = 0;
  std::uint64_t tasks_executed = 0, messages_sent = 0;
  Rng rng{0};  // the agent's (NodeContext::rng): stream v + 1 of the run's seed (NodeStates)
};
static_assert(offsetof(Node, busy) == 128, "what an event reads fills the first two cache lines");
static_assert(sizeof(Node) == 192, "a node's state is three cache lines");

// Processor sharing: a node's processes, each progressing at 1/n of the processor while
// the node runs. Remaining work is a double so that sharing needs no rounding; a process
// is done when less than half a nanosecond of work remains.
struct Process {
  Task task;
  double remaining;
};
struct SharedNode {
  std::vector<Process> processes;  // in order of admission: the back is the newest
  SimTime executed = 0;            // processor time spent executing, counts poll points
  SimTime next_completion = 0;     // while running: when the first process completes
};
constexpr double kDoneBelow = 0.5;

struct Transfers {
  std::uint64_t sent = 0, received = 0;  // tasks
};

// Every node's state, apart from the engine that advances it: a parallel run's partitions
// share these arrays, each writing only its own nodes' entries (docs/simulator.md,
// "Parallel windows"). A process that runs only the nodes [lo, hi) keeps the arrays whole,
// for the indexing, but gives the pages of the other nodes' entries back.
struct NodeStates {
  NodeStates(const SimulationConfig& config, NodeId lo, NodeId hi)
      : nodes(config.topology->size()),
        transfers(config.topology->size()),
        reported_load(config.observers.empty() ? 0 : config.topology->size(), -1),
        agents(config.strategy, config.topology->size(), lo, hi),
        lo_(lo),
        hi_(hi) {
    const std::size_t n = config.topology->size();
    if (config.execution == Execution::processor_sharing) shared.resize(n);
    if (config.cost.checks == Checks::engines) last_check.assign(n, 0);
    for (std::size_t i = lo; i < hi; ++i) nodes[i].rng = Rng(config.seed, i + 1);
    release_outside(nodes, lo, hi);
    release_outside(transfers, lo, hi);
  }
  explicit NodeStates(const SimulationConfig& config) : NodeStates(config, 0, static_cast<NodeId>(config.topology->size())) {}

  // Every node's neighbor_slots() in one array laid out as the topology's neighbour lists,
  // aligned so that a node of degree 8k takes k cache lines; made on the first request
  // (strategies that keep nothing per neighbour cost nothing), by one partition.
  void allocate_neighbor_slots(const Topology& topology) {
    std::call_once(slots_once, [&] {
      slot_begin = topology.neighbor_offsets();
      if (topology.min_degree() == topology.max_degree()) slot_degree = static_cast<std::uint32_t>(topology.max_degree());
      slots.assign(slot_begin.back(), 0);
      release_outside(slots, slot_begin[lo_], slot_begin[hi_]);
    });
  }

  std::vector<Node, HugePageAllocator<Node>> nodes;
  std::vector<Transfers> transfers;          // apart from the nodes: only migrations touch them
  std::vector<std::int64_t> reported_load;   // the observers' last on_load per node (sized only with observers)
  std::vector<SimTime> last_check;           // checks = engines: each node's latest check point (else empty)
  std::vector<SharedNode> shared;            // PS only
  AgentArray agents;
  std::vector<std::int64_t, HugePageAllocator<std::int64_t>> slots;  // neighbor_slots() of every node, 64-byte aligned
  std::span<const std::uint32_t> slot_begin;  // the topology's offsets: node v's are [slot_begin[v], slot_begin[v + 1])
  std::uint32_t slot_degree = 0;              // every node's degree where they are all alike, else 0
  std::once_flag slots_once;

private:
  // The pages of the entries before `from` and from `to` on (the other nodes').
  template <class Array>
  static void release_outside(Array& array, std::size_t from, std::size_t to) {
    using T = typename Array::value_type;
    static_assert(std::is_trivially_destructible_v<T>);
    release_pages(array.data(), from * sizeof(T));
    release_pages(array.data() + to, (array.size() - to) * sizeof(T));
  }

  NodeId lo_, hi_;  // the nodes whose entries this process touches
};

// Every node's figures at the end of a run whose last task completed at `makespan`.
std::vector<NodeStats> node_stats(const NodeStates& states, SimTime makespan, NodeId lo, NodeId hi) {
  std::vector<NodeStats> stats;
  stats.reserve(hi - lo);
  for (std::size_t v = lo; v < hi; ++v) {
    const Node& node = states.nodes[v];
    // The run ends with the last task; overhead spent after it is not part of the run.
    stats.push_back(NodeStats{.busy = node.busy,
                              .overhead = node.overhead - std::max<SimTime>(0, node.overhead_until - makespan),
                              .finish = node.finish,
                              .tasks_executed = node.tasks_executed,
                              .tasks_sent = states.transfers[v].sent,
                              .tasks_received = states.transfers[v].received,
                              .messages_sent = node.messages_sent});
  }
  return stats;
}

// Without observers to tell of each task's creation, FCFS queues take their initial tasks
// from the workload only as they run or travel, where it can defer them; null where not.
std::unique_ptr<DeferredTasks> deferred_initial_tasks(const SimulationConfig& config, Rng& workload_rng) {
  if (!config.observers.empty() || config.execution != Execution::fcfs) return nullptr;
  return config.workload->defer_initial_tasks(*config.topology, config.cost, workload_rng);
}

std::uint64_t tasks_in(const DeferredTasks& deferred, std::size_t nodes) {
  std::uint64_t total = 0;
  for (NodeId v = 0; v < nodes; ++v) total += deferred.count(v);
  return total;
}

// Partition k of `parts` has the nodes [bounds[k], bounds[k + 1]): contiguous blocks (a
// hypercube's sub-cubes when both counts are powers of two).
std::vector<NodeId> partition_bounds(std::size_t nodes, unsigned parts) {
  std::vector<NodeId> bounds;
  for (unsigned k = 0; k <= parts; ++k) bounds.push_back(static_cast<NodeId>(nodes * k / parts));
  return bounds;
}

// A run stopped by SimulationConfig::wall_seconds_limit at simulated time t, with the
// figures of `so_far` (a parallel run's: every partition's summed).
std::string wall_limit_message(const SimulationConfig& config, const SimulationResult& so_far, SimTime t) {
  return fmt::format(
      "simulation of strategy {} stopped at the limit of {} s of host time, after {} events at simulated time {}: "
      "{} of {} tasks completed",
      config.strategy.name(), config.wall_seconds_limit, so_far.events, format_duration(t), so_far.tasks_completed,
      so_far.tasks_created);
}

// The nodes [lo, hi) of a run, partition `index` of `count`: the whole run on one thread.
struct Partition {
  NodeId lo = 0, hi = 0;
  unsigned index = 0, count = 1;
};

// kSpeeds: some node's speed is not 1 (SimulationConfig::speeds). The engine of equal nodes
// is compiled without the conversions between processor time and a node's time, which would
// add 4% to its instructions (cachegrind, RID on hypercube:8). kParallel: a partition of a
// parallel run (ParallelRun); the one-thread engine is compiled without its checks (1.2% of
// its instructions, cachegrind, work stealing on hypercube:11).
template <bool kSpeeds, bool kParallel = false>
class Engine final : public NodeContext, private TaskSink {
public:
  Engine(const SimulationConfig& config, NodeStates& states, Partition part)
      : config_(config),
        topology_(*config.topology),
        cost_(config.cost),
        observers_(config.observers),
        states_(states),
        nodes_(states.nodes.data()),
        transfers_(states.transfers.data()),
        reported_load_(states.reported_load),
        last_check_(states.last_check),
        agents_(states.agents),
        shared_(states.shared),
        part_(part),
        workload_rng_(config.seed, 0),
        shared_mode_(config.execution == Execution::processor_sharing),
        lifo_mode_(config.execution == Execution::lifo),
        poll_cost_(config.strategy.info->checks_messages && config.cost.poll_interval > 0 ? config.cost.poll_cost
                                                                                          : 0),
        prefetching_(topology_.size() * sizeof(Node) > kPrefetchAbove),
        agent_second_line_(states.agents.stride() > 64) {
    mail_waits_ = cost_.checks == Checks::engines && cost_.mail == Mail::check_points && cost_.poll_interval > 0;
    result_.message_kinds = config.strategy.info->message_kinds;
    result_.message_kinds.push_back("task_transfer");
    task_kind_ = static_cast<int>(result_.message_kinds.size() - 1);
    instant_limit_ = instant_event_limit(config, topology_);
    result_.messages_by_kind.assign(result_.message_kinds.size(), 0);
    // At the start every node may message every neighbour: room for that many messages in
    // flight up front, so the slots are not copied while the burst grows (untouched room
    // costs address space, not memory).
    const std::size_t room = (2 * topology_.edge_count() + topology_.size()) / part.count;
    in_flight_.reserve(room);
    free_slots_.reserve(room);
  }

  // The whole run on this thread.
  SimulationResult run() {
    wall_start_ = std::chrono::steady_clock::now();
    place_initial_tasks();
    after_initial_tasks();
    // The start makes events before any event is handled: the arrivals' creator, then each
    // node's, ranked at instant -1.
    keys_.creator(-1, 0);
    schedule_next_arrival(0);
    start_nodes();
    while (!heap_.empty() && !(held_ == 0 && !arrival_pending_)) {
      const Event e = heap_.pop();
      if (prefetching_) prefetch_ahead();
      handle(e);
    }
    if (held_ != 0) fail_out_of_events(result_.tasks_created - result_.tasks_completed, result_.tasks_created);
    report_progress(result_.makespan);
    result_.nodes = node_stats(states_, result_.makespan, 0, static_cast<NodeId>(states_.nodes.size()));
    result_.wall_seconds = seconds_since(wall_start_);
    return std::move(result_);
  }

  // The engines check inside a task only at its poll() calls: tasks that never poll are
  // looked into at their end.
  void after_initial_tasks() {
    if (cost_.checks == Checks::engines && !config_.workload->tasks_poll()) {
      checks_inside_tasks_ = false;
      poll_cost_ = 0;
    }
  }

  // Each node's start, ranked at instant -1 by its id (after the arrivals' creator).
  void start_nodes() {
    started_ = true;
    for (NodeId v = part_.lo; v < part_.hi; ++v) {
      keys_.creator(-1, std::uint64_t{v} + 1);
      nodes_[v].notified_load = node_load(v);
      begin(v, 0);
      agents_[v].on_start(*this);
      finish(v, 0, false);
    }
  }

  // Handles event e; false for a wake that a later one superseded (skipped, not counted).
  // Inlined by force into the loops, as it was into the one loop before partitions had
  // their own.
  [[gnu::always_inline]] bool handle(const Event& e) {
    Node& node = nodes_[e.node];
    if (e.type() == EventType::wake && !wake_due(node, e)) return false;
    if (++result_.events > config_.event_limit) fail_event_limit(e.time);
    if (result_.events % MeterShare::kEvery == 0) [[unlikely]] {
      report_progress(e.time);
      if (config_.wall_seconds_limit > 0 && seconds_since(wall_start_) > config_.wall_seconds_limit)
        fail_wall_limit(e.time);
    }
    if (e.time != instant_) {
      instant_ = e.time;
      instant_events_ = 0;
    } else if (++instant_events_ > instant_limit_ &&
               instant_events_ > instant_limit_ + kInstantEventsPerTask * result_.tasks_created) {
      fail_time_stands_still(e.time);
    }
    // A partition's own events are named by their place in its window's list (instant_ranks.hpp).
    keys_.creator(e.time, parallel_ ? log_.next_place() : instant_events_);
    switch (e.type()) {
      case EventType::delivery: deliver(e.node, e.ref, e.time); break;
      case EventType::wake: wake(e.node, e.time); break;
      case EventType::arrival: arrive(e.time); break;
    }
    return true;
  }

  [[noreturn]] void fail_out_of_events(std::uint64_t unfinished, std::uint64_t created) const {
    throw std::logic_error(fmt::format("simulation of strategy {} ran out of events with {} of {} tasks not completed",
                                       config_.strategy.name(), unfinished, created));
  }

  // This engine's nodes' initial tasks, drawn from `deferred` as they are taken; `total`
  // of them in the run.
  void defer_initial_tasks(DeferredTasks& deferred, std::uint64_t total) {
    if (total > TaskPacker::kIds) fail_task_ids();
    for (NodeId v = part_.lo; v < part_.hi; ++v) {
      tasks_.defer(deferred, nodes_[v].queue, v);
      result_.tasks_created += nodes_[v].queue.size();
      held_ += nodes_[v].queue.size();
    }
    next_task_id_ = total + part_.index;  // the deferred tasks have the ids before
    deferred_place_ = deferred.place();
  }

  // --- As one partition of a parallel run (ParallelRun) ---

  // Something a partition sends another at a window's end: an event at one of its nodes
  // with what it delivers.
  struct Crossing {
    Event event;
    InFlight item;
    std::uint32_t first = 0, count = 0;  // tasks: their place in Outbox::tasks; large: in Outbox::large
  };
  struct Outbox {
    std::vector<Crossing> items;
    std::vector<Task> tasks;
    std::vector<std::byte> states;  // the tasks' states, task_state_bytes() each (a tree search's nodes)
    std::vector<Message> large;
  };

  void begin_parallel(std::chrono::steady_clock::time_point wall_start, std::span<const NodeId> bounds) {
    wall_start_ = wall_start;
    bounds_ = bounds;
    outboxes_.resize(part_.count);
    woken_ = std::make_unique_for_overwrite<NodeId[]>(part_.hi - part_.lo);
    state_bytes_ = config_.workload->task_state_bytes();
  }
  TaskSink& sink() { return *this; }
  // The observers' calls go to `log` instead, to be replayed in the run's order.
  void observe_through(Observer* log) { observers_ = {log}; }
  const SimulationResult& result() const { return result_; }
  std::int64_t held() const { return held_; }
  // Where this partition stopped at the host-time limit, or -1.
  SimTime stopped_at() const { return stopped_at_; }
  WindowLog& log() { return log_; }
  const Outbox& outbox(unsigned to) const { return outboxes_[to]; }
  SimTime next_time() const { return heap_.empty() ? kNever : heap_.earliest(); }

  // The window [start, end): events due from `end` on, and those for another partition,
  // wait in later_ for its end.
  void open_window(SimTime start, SimTime end) {
    window_start_ = start;
    window_end_ = end;
    log_.clear();
  }

  // Handles the events due before `end`. With `may_pause`, stops before the first when the
  // partition holds no task, or after the one that leaves it none: what follows may be
  // past the run's end. True when it paused.
  bool run_until(SimTime end, bool may_pause) {
    if (may_pause && held_ == 0) return true;
    while (heap_.top_before(end) != nullptr) {
      const Event e = heap_.pop();
      if (prefetching_) prefetch_ahead();
      if (!handle(e)) continue;
      log_.add(e.time, e.key, instant_events_);
      if (may_pause && held_ == 0) return true;
    }
    return false;
  }

  // The next event due at `t` that is not a superseded wake (those are skipped as handle()
  // skips them), or null.
  const Event* next_at(SimTime t) {
    for (;;) {
      const Event* e = heap_.top_before(t + 1);
      if (e == nullptr || e->type() != EventType::wake) return e;
      const Node& node = nodes_[e->node];
      const bool carried = node.has_reserve && e->time == node.reserve_at && node.wake_carried;
      if (!carried && e->key == node.wake_key) return e;
      const Event skipped = heap_.pop();
      wake_due(nodes_[skipped.node], skipped);
    }
  }
  // Handles the event next_at() gave.
  void handle_next() {
    const Event e = heap_.pop();
    handle(e);
    log_.add(e.time, e.key, instant_events_);
  }

  // After the window's ranks are known: the events kept for later take the run's ranks, and
  // those for other partitions go to their outboxes with what they deliver. Returns the
  // earliest time of this partition's events and of those it sends.
  SimTime pack() {
    for (const NodeId v : std::span(woken_.get(), woken_count_)) {
      nodes_[v].wake_key = log_.global_key(nodes_[v].wake_key, window_start_);
      nodes_[v].woken = false;
    }
    woken_count_ = 0;
    for (Outbox& out : outboxes_) {
      out.items.clear();
      out.tasks.clear();
      out.states.clear();
      out.large.clear();
    }
    std::size_t kept = 0;
    SimTime earliest = next_time();
    for (std::size_t i = 0; i < later_.size(); ++i) {
      Event e = later_[i];
      earliest = std::min(earliest, e.time);
      e.key = log_.global_key(e.key, window_start_);
      if (owns(e.node)) {
        later_[kept++] = e;
        continue;
      }
      Outbox& out = outboxes_[partition_of(bounds_, e.node)];
      Crossing c{e, in_flight_[e.ref]};
      free_slots_.push_back(e.ref);
      if (c.item.type == Delivery::tasks) {
        auto& batch = batches_[c.item.ref];
        c.first = static_cast<std::uint32_t>(out.tasks.size());
        c.count = static_cast<std::uint32_t>(batch.size());
        out.tasks.insert(out.tasks.end(), batch.begin(), batch.end());
        if (state_bytes_ > 0) export_states(batch, out.states);
        held_ -= static_cast<std::int64_t>(batch.size());
        release_batch(c.item.ref);
      } else if (c.item.type == Delivery::large_message) {
        c.first = static_cast<std::uint32_t>(out.large.size());
        out.large.push_back(large_[c.item.ref]);
        free_large_.push_back(c.item.ref);
      }
      out.items.push_back(c);
    }
    later_.truncate(kept);
    log_.release();
    return earliest;
  }

  // The workload's states of tasks that leave the partition, after `states`.
  void export_states(std::span<const Task> tasks, std::vector<std::byte>& states) {
    const std::size_t at = states.size();
    states.resize(at + tasks.size() * state_bytes_);
    for (std::size_t i = 0; i < tasks.size(); ++i)
      config_.workload->export_state(tasks[i], part_.index, std::span(states).subspan(at + i * state_bytes_, state_bytes_));
  }

  // Once the outboxes are sent (processes: copied into the bytes sent): a burst's room goes back.
  void clear_outboxes() {
    for (Outbox& out : outboxes_)
      if (out.items.capacity() > kBurst) out = Outbox{};
  }

  // What another partition packed for this one, then the events kept for later, join the queue.
  void unpack(const Outbox& from) {
    for (const Crossing& c : from.items) unpack(c, from.tasks, from.states, from.large);
  }
  // One crossing, whose tasks (and their states) or large message are in `tasks` and `large`.
  void unpack(const Crossing& c, std::span<const Task> tasks, std::span<const std::byte> states,
              std::span<const Message> large) {
    InFlight item = c.item;
    item.next = kNone;
    if (item.type == Delivery::tasks) {
      item.ref = new_batch();
      auto& batch = batches_[item.ref];
      batch.assign(tasks.begin() + c.first, tasks.begin() + c.first + c.count);
      if (state_bytes_ > 0)
        for (std::uint32_t i = 0; i < c.count; ++i)
          batch[i].tag = config_.workload->import_state(part_.index, states.subspan((c.first + i) * state_bytes_, state_bytes_));
      held_ += c.count;
    } else if (item.type == Delivery::large_message) {
      item.ref = place(large_, free_large_, large[c.first]);
    }
    heap_.push(Event{c.event.time, c.event.key, c.event.node, new_slot(item)});
  }
  void push_later() {
    if (later_.size() > kBurst) {  // the start's: room made once, so that it is not held twice over
      for (std::size_t i = 0; i < later_.size(); ++i) heap_.expect(later_[i]);
      heap_.make_room();
    }
    later_.drain([&](const Event& e) { heap_.push(e); });
  }

  void report_progress(SimTime t) { meter_.report(result_.events, result_.tasks_created, result_.tasks_completed, t); }

  // --- NodeContext: what the strategy of node `current_` sees during a callback ---
  NodeId self() const override { return current_; }
  const Topology& topology() const override { return topology_; }
  std::int64_t load() const override { return node_load(current_); }
  std::int64_t migratable() const override {
    return shared_mode_ ? node_load(current_) : static_cast<std::int64_t>(nodes_[current_].queue.size());
  }
  SimTime now() const override { return cursor_; }
  Rng& rng() override { return nodes_[current_].rng; }

  void send(NodeId to, const Message& message) override {
    assert(message.kind < task_kind_ && "message kind not declared in StrategyInfo::message_kinds");
    cursor_ = later(cursor_, on_node(current_, cost_.send_overhead));
    ++result_.messages_by_kind[message.kind];
    ++nodes_[current_].messages_sent;
    for (Observer* o : observers_) o->on_message_sent(current_, to, message.kind, cursor_);
    push(later(cursor_, transit(to, 0)), EventType::delivery, to, message_slot(message));
  }

  std::int64_t migrate(NodeId to, std::int64_t amount, std::uint32_t max_hops) override {
    assert(to != current_ && to < topology_.size());
    Node& node = nodes_[current_];
    // Task selection: the most recently queued tasks that may still travel (lifo: the
    // oldest, the ones a runtime worker would execute last); the ones passed over go back
    // in their order.
    std::int64_t moved = shared_mode_ ? select_processes(to, amount, max_hops) : 0;
    while (!shared_mode_ && moved < amount && !node.queue.empty()) {
      Task t = lifo_mode_ ? tasks_.pop_front(node.queue, current_) : tasks_.pop_back(node.queue, current_);
      if (t.hops >= max_hops) {
        passed_over_.push_back(t);
        continue;
      }
      ++t.hops;
      for (Observer* o : observers_) o->on_task_migrated(current_, to, t, cursor_);
      outgoing_.push_back(t);
      ++moved;
    }
    while (!passed_over_.empty()) {
      if (lifo_mode_) tasks_.push_front(node.queue, passed_over_.back());
      else tasks_.push_back(node.queue, passed_over_.back());
      passed_over_.pop_back();
    }
    const std::size_t per_message = static_cast<std::size_t>(cost_.tasks_per_message);
    for (std::size_t first = 0; first < outgoing_.size(); first += per_message) {
      const std::size_t n = std::min(per_message, outgoing_.size() - first);
      const std::uint32_t batch = new_batch();
      batches_[batch].assign(outgoing_.begin() + static_cast<std::ptrdiff_t>(first),
                             outgoing_.begin() + static_cast<std::ptrdiff_t>(first + n));
      cursor_ = later(cursor_, on_node(current_, cost_.send_overhead));
      ++result_.messages_by_kind[static_cast<std::size_t>(task_kind_)];
      ++nodes_[current_].messages_sent;
      for (Observer* o : observers_) o->on_message_sent(current_, to, task_kind_, cursor_);
      const std::uint32_t slot = new_slot(InFlight{current_, kNone, batch, Delivery::tasks});
      push(later(cursor_, transit(to, static_cast<std::int64_t>(n))), EventType::delivery, to, slot);
    }
    outgoing_.clear();
    result_.tasks_transferred += static_cast<std::uint64_t>(moved);
    migrations_since_completion_ += static_cast<std::uint64_t>(moved);
    if (migrations_since_completion_ > stall_limit()) fail_stalled();
    transfers_[current_].sent += static_cast<std::uint64_t>(moved);
    return moved;
  }

  void set_timer(SimTime delay, std::uint64_t tag) override {
    assert(delay >= 0);
    InFlight item{current_, kNone, 0, Delivery::timer};
    std::memcpy(item.body.data(), &tag, sizeof tag);
    const std::uint32_t slot = new_slot(item);
    push(later(cursor_, delay), EventType::delivery, current_, slot);
  }

  std::span<std::int64_t> neighbor_slots() override {
    if (slot_begin_.empty()) allocate_neighbor_slots();
    const std::uint32_t begin = slot_start(current_);
    return {slots_ + begin, slot_start(current_ + 1) - begin};
  }

private:
  [[gnu::cold, gnu::noinline]] void allocate_neighbor_slots() {
    states_.allocate_neighbor_slots(topology_);
    slots_ = states_.slots.data();
    slot_begin_ = states_.slot_begin;
    slot_degree_ = states_.slot_degree;
  }
  // Where node v's neighbour slots start: v x degree on a network whose nodes have one degree
  // (a hypercube, a torus), without reading the offsets, which at 2^22 nodes miss the caches
  // on the path of every prefetch (docs/simulator.md, "Profile at 2^22").
  std::uint32_t slot_start(NodeId v) const { return slot_degree_ != 0 ? v * slot_degree_ : slot_begin_[v]; }

  // --- TaskSink: tasks created by the workload land in a node's queue ---
  void add(NodeId node, SimTime work, std::uint32_t tag) override {
    check_task(node, work);
    const Task t{new_task_id(), work, 0, tag};
    ++result_.tasks_created;
    ++held_;
    for (Observer* o : observers_) o->on_task_created(node, t, cursor_);
    if (started_ && node != completing_) {
      // A task created at another node than the one completing (dynamic_load's relocations)
      // reaches it as a local arrival, handled like a message (and never re-entrantly): an
      // idle node wakes for it, its strategy hears of it, and a running node's PS shares
      // change only at its own events. A task created where one completes joins at once.
      const std::uint32_t batch = new_batch();
      batches_[batch].push_back(t);
      push(cursor_, EventType::delivery, node, new_slot(InFlight{node, kNone, batch, Delivery::local_arrival}));
    } else {
      admit(node, t);
    }
  }

  void place_initial_tasks() {
    deferred_tasks_ = deferred_initial_tasks(config_, workload_rng_);
    if (!deferred_tasks_) {
      config_.workload->initial_tasks(topology_, cost_, workload_rng_, *this);
      return;
    }
    defer_initial_tasks(*deferred_tasks_, tasks_in(*deferred_tasks_, topology_.size()));
  }

  // The task pool numbers tasks in 32 bits (packed_task.hpp).
  std::uint64_t new_task_id() {
    if (next_task_id_ >= TaskPacker::kIds) [[unlikely]] fail_task_ids();
    const std::uint64_t id = next_task_id_;
    next_task_id_ += part_.count;  // a partition's ids: its index modulo the partitions
    return id;
  }
  [[noreturn, gnu::cold, gnu::noinline]] void fail_task_ids() const {
    throw std::runtime_error(fmt::format("simulation of strategy {} stopped at simulated time {}: the workload "
                                         "creates more than {} tasks, the most one run can number",
                                         config_.strategy.name(), format_duration(cursor_), TaskPacker::kIds));
  }

  std::int64_t node_load(NodeId v) const {
    const Node& n = nodes_[v];
    const auto load = static_cast<std::int64_t>(n.queue.size()) + (n.has_current ? 1 : 0);
    return shared_mode_ ? load + static_cast<std::int64_t>(shared_[v].processes.size()) : load;
  }

  // A task joins node v: the queue's back (FCFS), or the running processes (PS).
  void admit(NodeId v, const Task& t) {
    if (shared_mode_) [[unlikely]] admit_shared(v, t);
    else tasks_.push_back(nodes_[v].queue, t);
  }
  [[gnu::cold, gnu::noinline]] void admit_shared(NodeId v, const Task& t) {
    shared_[v].processes.push_back(Process{t, static_cast<double>(t.work)});
    for (Observer* o : observers_) o->on_task_started(v, t, cursor_);
  }

  // PS task selection for migrate(): the newest processes that may still travel. A process
  // leaves with its remaining work; the part done here counts as this node's busy time.
  [[gnu::cold, gnu::noinline]] std::int64_t select_processes(NodeId to, std::int64_t amount, std::uint32_t max_hops) {
    auto& processes = shared_[current_].processes;
    Node& node = nodes_[current_];
    std::int64_t moved = 0;
    for (std::size_t i = processes.size(); i-- > 0 && moved < amount;) {
      Task t = processes[i].task;
      if (t.hops >= max_hops) continue;
      const SimTime rest = std::clamp<SimTime>(static_cast<SimTime>(std::ceil(processes[i].remaining)), 1, t.work);
      node.busy += on_node(current_, t.work - rest);
      result_.total_work += t.work - rest;
      t.work = rest;
      ++t.hops;
      processes.erase(processes.begin() + static_cast<std::ptrdiff_t>(i));
      for (Observer* o : observers_) o->on_task_migrated(current_, to, t, cursor_);
      outgoing_.push_back(t);
      ++moved;
    }
    std::reverse(outgoing_.begin(), outgoing_.end());  // they travel in their order of admission
    return moved;
  }

  SimTime transit(NodeId to, std::int64_t tasks) const {
    if (to == current_) return 0;
    // Strategies talk to neighbours almost always: no distance query for them (a file
    // topology answers distance() by breadth-first search).
    const SimTime hops = topology_.neighbor_index(current_, to) >= 0 ? 1 : topology_.distance(current_, to);
    return later(later(cost_.latency, times(cost_.per_hop, hops - 1)), task_time(tasks));
  }

  // The network time of `tasks` tasks: fixed, or exponential with that mean (AG91 Sec. 6).
  SimTime task_time(std::int64_t tasks) const {
    const SimTime mean = times(cost_.per_task, tasks);
    if (cost_.transfer != TransferDistribution::exponential || mean == 0) return mean;
    return static_cast<SimTime>(std::llround(network_rng_.exponential(1.0 / static_cast<double>(mean))));
  }

  void push(SimTime time, EventType type, NodeId node, std::uint32_t ref) {
    queue(Event{time, keys_.next(static_cast<unsigned>(type)), node, ref});
  }

  // An event joins the queue; in a parallel window one due from the window's end on, or at
  // another partition's node, waits in later_ for the window's end.
  [[gnu::always_inline]] void queue(const Event& e) {
    if (parallel_ && (e.time >= window_end_ || !owns(e.node))) return queue_later(e);
    heap_.push(e);
  }
  void queue_later(const Event& e) {
    if (e.time < window_end_) fail_lookahead(e);
    later_.push_back(e);
  }

  bool owns(NodeId v) const { return v - part_.lo < part_.hi - part_.lo; }

  [[noreturn, gnu::cold, gnu::noinline]] void fail_lookahead(const Event& e) const {
    throw std::logic_error(fmt::format("parallel simulation: an event for node {} at {} reaches another partition "
                                       "within the window ending at {}",
                                       e.node, format_duration(e.time), format_duration(window_end_)));
  }

  // The next event's node, agent and delivery are far apart in memory at large N: their
  // cache lines load while the current event is handled. Inlined by force: as a function of
  // its own GCC finds it free of side effects (a prefetch writes nothing) and deletes the
  // call (docs/simulator.md, "The prefetch that was not there").
  // An event at 2^16 nodes takes about one memory access, so lines asked for only one event
  // ahead come late: those of the event two after the next are asked for too (each event's
  // lines are then asked for three events ahead and again one ahead, in case it joined the
  // queue's run since; docs/simulator.md, "Two events ahead").
  [[gnu::always_inline]] void prefetch_ahead() const {
    if (const Event* next = heap_.peek()) prefetch(*next);
    if (const Event* later = heap_.peek_after(2)) prefetch(*later);
  }
  [[gnu::always_inline]] void prefetch(const Event& next) const {
    __builtin_prefetch(&nodes_[next.node]);
    __builtin_prefetch(reinterpret_cast<const char*>(&nodes_[next.node]) + 64);
    __builtin_prefetch(reinterpret_cast<const char*>(&nodes_[next.node]) + 128);
    __builtin_prefetch(&agents_[next.node]);
    if (agent_second_line_) __builtin_prefetch(reinterpret_cast<const char*>(&agents_[next.node]) + 64);
    if (deferred_place_.stride != 0 && next.type() == EventType::wake)  // a wake may start the next task
      __builtin_prefetch(reinterpret_cast<const void*>(deferred_place_.origin + next.node * deferred_place_.stride));
    if (next.type() == EventType::delivery) __builtin_prefetch(&in_flight_[next.ref]);
    if (!slot_begin_.empty()) {  // the neighbour loads a message handled at the event updates
      const auto first = reinterpret_cast<std::uintptr_t>(slots_ + slot_start(next.node)) & ~std::uintptr_t{63};
      const auto end = reinterpret_cast<std::uintptr_t>(slots_ + slot_start(next.node + 1));
      for (std::uintptr_t line = first; line < end; line += 64) __builtin_prefetch(reinterpret_cast<const void*>(line));
    }
  }

  // A node's latest wake is the one that counts; those it supersedes are skipped when they
  // come up. Most are completions that a message put back (handling it costs time): so
  // that they do not crowd the queue, a node keeps track of one queued wake, its reserve,
  // and a wake at or after the reserve is not queued: the reserve, when it comes up, queues
  // it with the same time and key, so the events come in the same order. The wakes queued
  // while a reserve waits are earlier than it, so it is the node's only entry at its time.
  void schedule_wake(NodeId v, SimTime time) {
    Node& node = nodes_[v];
    node.wake_at = time;
    node.wake_key = keys_.next(static_cast<unsigned>(EventType::wake));
    node.wake_carried = node.has_reserve && node.reserve_at <= time;
    if (parallel_ && !node.woken) {
      assert(owns(v) && "a partition wakes its own nodes only");
      node.woken = true;
      woken_[woken_count_++] = v;
    }
    if (node.wake_carried) return;
    queue(Event{time, node.wake_key, v, 0});
    if (!node.has_reserve) {
      node.has_reserve = true;
      node.reserve_at = time;
    }
  }

  // Whether wake entry e of a node is its latest wake; the reserve queues the latest wake
  // when that waits on it.
  bool wake_due(Node& node, const Event& e) {
    if (node.has_reserve && e.time == node.reserve_at) {
      node.has_reserve = false;
      if (node.wake_carried) {
        node.wake_carried = false;
        queue(Event{node.wake_at, node.wake_key, e.node, 0});
        node.has_reserve = true;
        node.reserve_at = node.wake_at;
        return false;
      }
    }
    return e.key == node.wake_key;
  }

  // A place in `items` for `item`: one freed before, else a new one.
  template <class Items>
  static std::uint32_t place(Items& items, std::vector<std::uint32_t>& free, const typename Items::value_type& item) {
    if (free.empty()) {
      items.push_back(item);
      return static_cast<std::uint32_t>(items.size() - 1);
    }
    const std::uint32_t i = free.back();
    free.pop_back();
    items[i] = item;
    return i;
  }

  std::uint32_t new_slot(const InFlight& item) { return place(in_flight_, free_slots_, item); }

  // A message sent by the current node: in its slot, or in large_ when it does not fit.
  std::uint32_t message_slot(const Message& m) {
    std::uint64_t tail[2];
    std::memcpy(tail, m.body.data() + kSlotBody, sizeof tail);
    if ((m.reserved[0] | m.reserved[1] | m.reserved[2] | tail[0] | tail[1]) != 0) [[unlikely]]
      return new_slot(InFlight{current_, kNone, place(large_, free_large_, m), Delivery::large_message});
    InFlight item{current_, kNone, 0, Delivery::message, m.kind};
    std::memcpy(item.body.data(), m.body.data(), kSlotBody);
    return new_slot(item);
  }

  // The message of a message slot, byte for byte as sent.
  Message message_of(const InFlight& item) {
    if (item.type == Delivery::large_message) [[unlikely]] {
      free_large_.push_back(item.ref);
      return large_[item.ref];
    }
    Message m;
    m.kind = item.kind;
    std::memcpy(m.body.data(), item.body.data(), kSlotBody);
    return m;
  }

  std::uint32_t new_batch() {
    if (free_batches_.empty()) {
      batches_.emplace_back();
      return static_cast<std::uint32_t>(batches_.size() - 1);
    }
    const std::uint32_t b = free_batches_.back();
    free_batches_.pop_back();
    return b;
  }

  void release_batch(std::uint32_t b) {
    batches_[b].clear();
    free_batches_.push_back(b);
  }

  // Node v's `processor` time (as a node of speed 1 spends it) in simulated time, and back:
  // the processor time v does in `elapsed` (node_speed.hpp).
  SimTime on_node(NodeId v, SimTime processor) const {
    if constexpr (!kSpeeds) return processor;
    const SimTime t = time_at_speed(processor, config_.speeds[v]);
    if (t < 0) [[unlikely]] fail_time_at_speed(processor, config_.speeds[v]);
    return t;
  }
  SimTime processor_of(NodeId v, SimTime elapsed) const {
    if constexpr (!kSpeeds) return elapsed;
    return processor_at_speed(elapsed, config_.speeds[v]);
  }

  // The time of a poll point due at `at` for a message that arrived at t. A node slower than 1
  // takes more than a nanosecond per nanosecond of work: the work done by t may end before t,
  // and the check is then at t, never in the past.
  static SimTime poll_time(SimTime t, SimTime at) {
    if constexpr (!kSpeeds) return at;
    return std::max(t, at);
  }

  // Poll points fall at every multiple of poll_interval of work: a task's work (FCFS) or the
  // node's executed processor time (PS). Each costs poll_cost (WLR93 V-B: messages are
  // checked every 100 loops), computed here rather than with an event per check.

  // The time a node needs to do `work` from `from`: the work plus a check at each poll
  // point in (from, from + work].
  SimTime stretched(SimTime from, SimTime work) const {
    if (poll_cost_ == 0) return work;
    const SimTime p = cost_.poll_interval;
    return later(work, times(poll_cost_, (from + work) / p - from / p));
  }

  // The inverse: the work done in `elapsed` from `from`; during a check it stands still.
  SimTime executed_in(SimTime from, SimTime elapsed) const {
    if (poll_cost_ == 0) return elapsed;
    const SimTime p = cost_.poll_interval;
    const SimTime to_first = p - from % p;  // in (0, p]
    if (elapsed <= to_first) return elapsed;
    const SimTime after = elapsed - to_first - poll_cost_;  // past the first check
    if (after <= 0) return to_first;
    const SimTime k = after / (p + poll_cost_);
    return to_first + k * p + std::min(after - k * (p + poll_cost_), p);
  }

  // The first poll point at or after `done` of processor time: every poll_interval, or at
  // once when that is 0.
  SimTime next_poll_point(SimTime done) const {
    const SimTime p = cost_.poll_interval;
    return p == 0 ? done : (done + p - 1) / p * p;
  }

  // Something reached node v's inbox: an idle node looks at once, a busy one at its next
  // poll point (or at the task's end, when tasks do not poll), one busy with overhead when
  // that is over.
  void deliver(NodeId v, std::uint32_t slot, SimTime t) {
    Node& node = nodes_[v];
    in_flight_[slot].next = kNone;
    if (node.inbox_tail == kNone) node.inbox_head = slot;
    else in_flight_[node.inbox_tail].next = slot;
    node.inbox_tail = slot;
    if (node.mode == Mode::idle) {
      settle(v, t);
    } else if (node.mode == Mode::running && !node.poll_scheduled && checks_inside_tasks_) {
      if (shared_mode_) [[unlikely]] {
        poll_shared(v, t);
        return;
      }
      const SimTime poll =
          next_poll_point(node.progress + executed_in(node.progress, processor_of(v, t - node.segment_start)));
      if (poll < node.current.work) {  // otherwise the completion is the next check
        schedule_wake(v, poll_time(t, node.segment_start + on_node(v, stretched(node.progress, poll - node.progress))));
        node.poll_scheduled = true;
      }
    }
  }

  // PS: poll points are counted in the node's processor time, whatever it is shared among.
  [[gnu::cold, gnu::noinline]] void poll_shared(NodeId v, SimTime t) {
    Node& node = nodes_[v];
    const SharedNode& s = shared_[v];
    const SimTime poll =
        next_poll_point(s.executed + executed_in(s.executed, processor_of(v, t - node.segment_start)));
    const SimTime at = poll_time(t, node.segment_start + on_node(v, stretched(s.executed, poll - s.executed)));
    if (at < s.next_completion) {
      schedule_wake(v, at);
      node.poll_scheduled = true;
    }
  }

  void wake(NodeId v, SimTime t) {
    Node& node = nodes_[v];
    if (node.mode == Mode::running && shared_mode_) [[unlikely]] {
      run_shared(v, t);
    } else if (node.mode == Mode::running) {
      const SimTime elapsed = t - node.segment_start;
      const SimTime done = node.progress + executed_in(node.progress, processor_of(v, elapsed));
      const SimTime checks = elapsed - on_node(v, done - node.progress);
      node.overhead += checks;
      if (!observers_.empty()) [[unlikely]] report_execution(v, node.segment_start, t, checks);
      if (done >= node.current.work) {
        complete(v, t);
        return settle(v, t, true);
      }
      node.progress = done;  // paused at a poll point
    }
    settle(v, t);
  }

  // PS: node v ran from segment_start to t, each of its n processes getting 1/n of it;
  // those left with no work complete, in their order of admission.
  [[gnu::cold, gnu::noinline]] void run_shared(NodeId v, SimTime t) {
    Node& node = nodes_[v];
    SharedNode& s = shared_[v];
    const SimTime elapsed = t - node.segment_start;
    const SimTime executed = executed_in(s.executed, processor_of(v, elapsed));
    const SimTime checks = elapsed - on_node(v, executed);
    node.overhead += checks;
    if (!observers_.empty()) [[unlikely]] report_execution(v, node.segment_start, t, checks);
    s.executed += executed;
    node.segment_start = t;
    const double served = static_cast<double>(executed) / static_cast<double>(s.processes.size());
    std::size_t kept = 0;
    for (Process& p : s.processes) {
      p.remaining -= served;
      if (p.remaining < kDoneBelow) finished_.push_back(p.task);
      else s.processes[kept++] = p;
    }
    s.processes.resize(kept);
    completing_ = v;
    for (const Task& task : finished_) record_completion(v, task, t);
    completing_ = kNoNode;
    finished_.clear();
  }

  // For the observers: node v executed from `begin` to `end`, `checks` of it spent on poll points.
  [[gnu::cold, gnu::noinline]] void report_execution(NodeId v, SimTime begin, SimTime end, SimTime checks) {
    for (Observer* o : observers_) {
      if (end - checks > begin) o->on_activity(v, Activity::busy, begin, end - checks);
      if (checks > 0) o->on_activity(v, Activity::overhead, end - checks, end);
    }
  }

  // For the observers: node v's load at t, when it changed since its last report.
  [[gnu::cold, gnu::noinline]] void report_load(NodeId v, SimTime t) {
    const std::int64_t load = node_load(v);
    if (load == reported_load_[v]) return;
    reported_load_[v] = load;
    for (Observer* o : observers_) o->on_load(v, load, t);
  }

  void complete(NodeId v, SimTime t) {
    Node& node = nodes_[v];
    const Task task = node.current;
    node.has_current = false;
    completing_ = v;
    record_completion(v, task, t);
    completing_ = kNoNode;
  }

  void record_completion(NodeId v, const Task& task, SimTime t) {
    Node& node = nodes_[v];
    node.busy += on_node(v, task.work);
    node.finish = t;
    ++node.tasks_executed;
    ++result_.tasks_completed;
    --held_;
    migrations_since_completion_ = 0;
    result_.total_work += task.work;
    result_.makespan = std::max(result_.makespan, t);
    for (Observer* o : observers_) o->on_task_completed(v, task, t);
    cursor_ = t;
    config_.workload->on_completed(task, v, workload_rng_, *this);  // children join the queue
  }

  void arrive(SimTime t) {
    arrival_pending_ = false;
    const Arrival a = next_arrival_;
    assert(a.node < topology_.size());
    const std::uint32_t batch = new_batch();
    batches_[batch].push_back(Task{new_task_id(), a.work, 0, a.tag});
    ++result_.tasks_created;
    ++held_;
    for (Observer* o : observers_) o->on_task_created(a.node, batches_[batch].back(), t);
    deliver(a.node, new_slot(InFlight{a.node, kNone, batch, Delivery::local_arrival}), t);
    schedule_next_arrival(t);
  }

  void schedule_next_arrival(SimTime now) {
    if (auto a = config_.workload->next_arrival(now, workload_rng_)) {
      if (a->time < now) throw std::logic_error("workload produced an arrival in the past");
      check_task(a->node, a->work);
      next_arrival_ = *a;
      arrival_pending_ = true;
      push(a->time, EventType::arrival, a->node, 0);
    }
  }

  void begin(NodeId v, SimTime t) {
    current_ = v;
    cursor_ = t;
  }

  // Node v looks at its inbox at time t: each message costs handle_cost, each callback's
  // sends cost send_overhead, then the strategy hears of a changed load. With mail =
  // check_points, at the end of a task (`task_ended`) with more to run the inbox waits for
  // the node's next check point.
  void settle(NodeId v, SimTime t, bool task_ended = false) {
    begin(v, t);
    Node& node = nodes_[v];
    Strategy& agent = agents_[v];
    const bool waits = task_ended && mail_waits_ && between_checks(v, t);
    std::uint32_t slot = waits ? kNone : node.inbox_head;
    const bool handled = slot != kNone;
    if (handled) node.inbox_head = node.inbox_tail = kNone;
    while (slot != kNone) {
      const InFlight item = in_flight_[slot];
      free_slots_.push_back(slot);
      slot = item.next;
      switch (item.type) {
        case Delivery::message:
        case Delivery::large_message:
          cursor_ = later(cursor_, on_node(v, cost_.handle_cost));
          agent.on_message(*this, item.from, message_of(item));
          break;
        case Delivery::tasks: {
          cursor_ = later(cursor_, on_node(v, cost_.handle_cost));
          auto& tasks = batches_[item.ref];
          for (const Task& task : tasks) admit(v, task);
          for (Observer* o : observers_)
            for (const Task& task : tasks) o->on_task_arrived(v, item.from, task, cursor_);
          const auto count = static_cast<std::int64_t>(tasks.size());
          transfers_[v].received += static_cast<std::uint64_t>(count);
          release_batch(item.ref);
          agent.on_tasks_arrived(*this, item.from, count);
          break;
        }
        case Delivery::timer: {
          std::uint64_t tag;
          std::memcpy(&tag, item.body.data(), sizeof tag);
          agent.on_timer(*this, tag);
          break;
        }
        case Delivery::local_arrival:
          admit(v, batches_[item.ref].front());
          release_batch(item.ref);
          agent.on_task_submitted(*this);
          break;
      }
    }
    finish(v, t, handled);
  }

  // With checks = engines: node v, busy at t, is less than poll_interval (of its processor
  // time) past its last check point, so nothing but something handled makes t one.
  bool between_checks(NodeId v, SimTime t) const {
    return node_load(v) != 0 && t - last_check_[v] < on_node(v, cost_.poll_interval);
  }

  // With checks = engines, node v makes a check point at t, where it looks at its load: when
  // it `handled` something (a message, tasks, a timer), every poll_interval, or out of tasks.
  bool check_point(NodeId v, SimTime t, bool handled) {
    if (last_check_.empty()) return true;  // each_event
    if (!handled && between_checks(v, t)) return false;
    last_check_[v] = t;
    return true;
  }

  // After node v's callbacks at time t (`handled`: they handled something from its inbox):
  // report a changed load, then either stay busy with the overhead spent, or resume or start
  // a task, or go idle.
  void finish(NodeId v, SimTime t, bool handled) {
    Node& node = nodes_[v];
    Strategy& agent = agents_[v];
    if (check_point(v, t, handled) && node_load(v) != node.notified_load) {
      agent.on_load_change(*this);
      node.notified_load = node_load(v);
    }
    if (node_load(v) == 0) {
      if (!node.idle_notified) {
        node.idle_notified = true;
        agent.on_idle(*this);
      }
    } else {
      node.idle_notified = false;
    }
    node.poll_scheduled = false;
    if (!observers_.empty()) [[unlikely]] {
      report_load(v, t);
      if (cursor_ > t)
        for (Observer* o : observers_) o->on_activity(v, Activity::overhead, t, cursor_);
    }
    if (cursor_ > t) {
      node.overhead += cursor_ - t;
      node.overhead_until = cursor_;
      node.mode = Mode::overhead;
      schedule_wake(v, cursor_);
      return;
    }
    if (shared_mode_) [[unlikely]] {
      resume_shared(v, t);
      return;
    }
    if (!node.has_current && !node.queue.empty()) {
      node.current = lifo_mode_ ? tasks_.pop_back(node.queue, v) : tasks_.pop_front(node.queue, v);
      node.has_current = true;
      node.progress = 0;
      for (Observer* o : observers_) o->on_task_started(v, node.current, t);
    }
    if (node.has_current) {
      node.mode = Mode::running;
      node.segment_start = t;
      schedule_wake(v, later(t, on_node(v, stretched(node.progress, node.current.work - node.progress))));
      result_.peak_pending_tasks = std::max(result_.peak_pending_tasks, static_cast<std::uint64_t>(held_));
    } else {
      node.mode = Mode::idle;
    }
  }

  // PS: node v runs its processes from t until the first completes, or goes idle.
  [[gnu::cold, gnu::noinline]] void resume_shared(NodeId v, SimTime t) {
    Node& node = nodes_[v];
    SharedNode& s = shared_[v];
    if (s.processes.empty()) {
      node.mode = Mode::idle;
      return;
    }
    double least = s.processes.front().remaining;
    for (const Process& p : s.processes) least = std::min(least, p.remaining);
    const auto n = static_cast<double>(s.processes.size());
    node.mode = Mode::running;
    node.segment_start = t;
    s.next_completion =
        later(t, on_node(v, stretched(s.executed, std::max<SimTime>(1, static_cast<SimTime>(std::ceil(least * n))))));
    schedule_wake(v, s.next_completion);
    result_.peak_pending_tasks = std::max(result_.peak_pending_tasks, static_cast<std::uint64_t>(held_));
  }

  // A workload's task must be at a node that exists and take between 0 and a million
  // seconds (bad workload parameters, such as a huge total load, end up here).
  void check_task(NodeId node, SimTime work) const {
    if (node >= topology_.size())
      throw std::logic_error(fmt::format("workload placed a task at node {} of {}", node, topology_.size()));
    if (work < 0 || work > 1'000'000 * kSecond)
      throw std::runtime_error(fmt::format("workload produced a task of {} ns; accepted: 0 to 1e6 s (check the "
                                           "workload's parameters and the cost model's loop_time)",
                                           work));
  }

  [[noreturn]] void fail_time_stands_still(SimTime t) const {
    throw std::runtime_error(fmt::format(
        "simulation of strategy {} stopped at simulated time {}: {} events happened without time passing, so the "
        "strategy is moving tasks or messages back and forth in zero time; give the cost model a nonzero latency "
        "or handle_cost",
        config_.strategy.name(), format_duration(t), instant_events_));
  }

  std::uint64_t stall_limit() const {
    if (config_.stall_migration_limit != 0) return config_.stall_migration_limit;
    return 10'000 * static_cast<std::uint64_t>(std::max<std::int64_t>(held_, 0)) + 1'000'000;
  }

  [[noreturn]] void fail_stalled() const {
    throw std::runtime_error(fmt::format(
        "simulation of strategy {} stopped at simulated time {}: {} task migrations since the last task completed, "
        "with {} of {} tasks unfinished; the strategy moves tasks back and forth without finishing them",
        config_.strategy.name(), format_duration(cursor_), migrations_since_completion_, held_, result_.tasks_created));
  }

  static double seconds_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }

  [[noreturn]] void fail_wall_limit(SimTime t) {
    stopped_at_ = t;
    throw EventLimitReached(wall_limit_message(config_, result_, t));
  }

  [[noreturn]] void fail_event_limit(SimTime t) const {
    throw EventLimitReached(fmt::format(
        "simulation of strategy {} stopped after {} events at simulated time {}: {} of {} tasks not completed; "
        "the strategy keeps the machine busy without finishing the work (raise the event limit if the run is "
        "only long)",
        config_.strategy.name(), config_.event_limit, format_duration(t),
        result_.tasks_created - result_.tasks_completed, result_.tasks_created));
  }

  const SimulationConfig& config_;
  const Topology& topology_;
  const CostModel& cost_;
  std::vector<Observer*> observers_;
  NodeStates& states_;
  Node* const nodes_;  // states_'s arrays, as the hot paths use them
  Transfers* const transfers_;
  std::vector<std::int64_t>& reported_load_;
  std::vector<SimTime>& last_check_;
  AgentArray& agents_;
  std::vector<SharedNode>& shared_;
  std::int64_t* slots_ = nullptr;              // states_.slots, once a node asked for them
  std::span<const std::uint32_t> slot_begin_;  // states_.slot_begin, likewise
  std::uint32_t slot_degree_ = 0;              // states_.slot_degree, likewise
  const Partition part_;
  std::unique_ptr<DeferredTasks> deferred_tasks_;  // on one thread: the workload's initial tasks not drawn at the start, or none
  TaskQueues tasks_;                               // the pending tasks of this engine's nodes
  Rng workload_rng_;
  mutable Rng network_rng_{config_.seed, ~std::uint64_t{0}};  // random transfer times; apart from the nodes' streams
  EventQueue<Event> heap_;
  std::vector<InFlight, HugePageAllocator<InFlight>> in_flight_;
  std::vector<std::uint32_t> free_slots_;
  std::vector<Message> large_;  // messages that do not fit a slot (message_slot)
  std::vector<std::uint32_t> free_large_;
  std::vector<std::vector<Task>> batches_;
  std::vector<std::uint32_t> free_batches_;
  std::vector<Task> outgoing_, passed_over_;  // migrate()'s scratch
  bool shared_mode_;                          // Execution::processor_sharing
  bool lifo_mode_;                            // Execution::lifo
  SimTime poll_cost_;                         // of a check; 0 for a strategy that does not check
  bool checks_inside_tasks_ = true;           // false: a running task is looked into at its end
  bool mail_waits_ = false;                   // mail = check_points: between tasks, mail waits for a check
  // Smaller machines' state stays in the caches, where prefetches only cost instructions
  // (processor time with / without, paired: 1.10 at 2^11 RID nodes, 0.98 at 2^12, 0.91 and
  // 1.00 at 2^13, 0.69 at 2^14): the engine prefetches when its nodes' state outgrows an L2.
  static constexpr std::size_t kPrefetchAbove = std::size_t{1} << 20;  // bytes of node state
  const bool prefetching_;
  const bool agent_second_line_;       // the agents are one array, each over a cache line
  DeferredTasks::Place deferred_place_;  // where the lists of initial tasks not yet taken are
  bool started_ = false;                      // initial tasks placed
  std::vector<Task> finished_;                // run_shared()'s scratch
  static constexpr NodeId kNoNode = ~NodeId{0};
  NodeId completing_ = kNoNode;               // the node whose completions are being recorded
  KeyMaker keys_;  // the keys of the events the event being handled creates
  std::uint64_t next_task_id_ = part_.index;
  int task_kind_ = 0;
  Arrival next_arrival_{};
  bool arrival_pending_ = false;
  NodeId current_ = 0;
  SimTime cursor_ = 0;
  // Zero-time livelock guard: far more events at one instant than a start-up broadcast of
  // every node to every neighbour can produce, plus room per task for a legitimate burst
  // (millions of zero-work tasks, or halves of a huge queue stolen in zero time, each task
  // moving a few times and completing at one instant).
  static constexpr std::uint64_t kInstantEventsPerTask = 64;
  SimTime instant_ = -1;
  std::uint64_t instant_events_ = 0;
  SimTime stopped_at_ = -1;  // the simulated time at which the host-time limit stopped it
  std::uint64_t migrations_since_completion_ = 0;  // livelock guard: tasks bouncing, none finishing
  std::uint64_t instant_limit_ = 0;
  // A parallel run's partition: the events handled in the window, their ranks in the run's
  // terms, the events for after it, the nodes that scheduled a wake in it, what goes to
  // the other partitions, and the partitions' first nodes.
  static constexpr bool parallel_ = kParallel;
  SimTime window_start_ = 0, window_end_ = 0;  // the start's: its keys (at instant -1) are the run's
  WindowLog log_;
  static constexpr std::size_t kBurst = std::size_t{1} << 16;  // later events that push_later makes room for first
  BlockList<Event> later_;  // the start's burst passes through it: blocks, given back as they drain
  // Each once (Node::woken), emptied by pack(): room for every node of the partition, so that
  // adding one is a store (its pages count as they are written).
  std::unique_ptr<NodeId[]> woken_;
  std::size_t woken_count_ = 0;
  std::vector<Outbox> outboxes_;
  std::size_t state_bytes_ = 0;  // Workload::task_state_bytes(), in a parallel run
  std::span<const NodeId> bounds_;
  // Tasks this engine holds: at its nodes, on their way between them, and on their way to
  // them from or to another partition until the window's exchange; on one thread, the tasks
  // created and not completed.
  std::int64_t held_ = 0;
  std::chrono::steady_clock::time_point wall_start_;
  SimulationResult result_;
  MeterShare meter_;  // for a progress display
};

// The initial tasks of a run in partitions, each to its node's partition: to that
// partition's engine, or dropped where this process does not hold it (a null sink), so that
// the workload's stream is drawn whole, as on one thread.
struct PartitionDispatch final : TaskSink {
  PartitionDispatch(std::span<const NodeId> bounds, std::vector<TaskSink*> sinks)
      : bounds_(bounds), sinks_(std::move(sinks)) {}
  void add(NodeId node, SimTime work, std::uint32_t tag) override {
    if (node >= bounds_.back())
      throw std::logic_error(fmt::format("workload placed a task at node {} of {}", node, bounds_.back()));
    if (TaskSink* sink = sinks_[partition_of(bounds_, node)]) sink->add(node, work, tag);
  }
  std::span<const NodeId> bounds_;  // partition k has the nodes [bounds_[k], bounds_[k + 1])
  std::vector<TaskSink*> sinks_;
};

// A run in partitions of the nodes, one a thread, each advancing through windows no longer
// than the lookahead (the shortest time in which an event at one node can make one at
// another), with what crosses between partitions exchanged at each window's end and the
// events of instants two partitions share ranked as the whole run ranks them: the same run
// as on one thread, event for event (docs/simulator.md, "Parallel windows").
template <bool kSpeeds>
class ParallelRun {
public:
  ParallelRun(const SimulationConfig& config, unsigned parts, SimTime lookahead)
      : config_(config), states_(config), lookahead_(lookahead), bounds_(partition_bounds(config.topology->size(), parts)),
        barrier_(parts), errors_(parts), ranked_(parts) {
    for (unsigned k = 0; k < parts; ++k)
      parts_.push_back(std::make_unique<Engine<kSpeeds, true>>(config, states_, Partition{bounds_[k], bounds_[k + 1], k, parts}));
    next_.resize(parts);
    for (auto& part : parts_) logs_.push_back(&part->log());
    if (!config.observers.empty()) {
      for (auto& part : parts_) {
        observer_logs_.push_back(std::make_unique<ObserverLog>(part->log(), placed_));
        part->observe_through(observer_logs_.back().get());
      }
      replay_.emplace(config.observers);
    }
  }

  SimulationResult run() {
    const auto wall_start = std::chrono::steady_clock::now();
    config_.workload->split(bounds_);  // before its first task: each partition keeps its tasks' states
    Rng rng(config_.seed, 0);  // the workload's stream, as on one thread
    deferred_ = deferred_initial_tasks(config_, rng);
    if (deferred_) {
      const std::uint64_t total = tasks_in(*deferred_, config_.topology->size());
      for (auto& part : parts_) part->defer_initial_tasks(*deferred_, total);
    } else {
      std::vector<TaskSink*> sinks;
      for (auto& part : parts_) sinks.push_back(&part->sink());
      PartitionDispatch dispatch(bounds_, std::move(sinks));
      config_.workload->initial_tasks(*config_.topology, config_.cost, rng, dispatch);
    }
    for (auto& part : parts_) {
      part->begin_parallel(wall_start, bounds_);
      part->after_initial_tasks();
    }
    for (auto& log : observer_logs_) log->set_phase(ObserverLog::Phase::start);
    {
      std::vector<std::jthread> threads;
      for (unsigned k = 1; k < parts_.size(); ++k) threads.emplace_back([this, k] { advance(k); });
      advance(0);
    }
    SimulationResult result = parts_[0]->result();
    for (std::size_t k = 1; k < parts_.size(); ++k) {
      const SimulationResult& r = parts_[k]->result();
      result.makespan = std::max(result.makespan, r.makespan);
      result.total_work += r.total_work;
      result.tasks_created += r.tasks_created;
      result.tasks_completed += r.tasks_completed;
      result.tasks_transferred += r.tasks_transferred;
      result.events += r.events;
      result.peak_pending_tasks += r.peak_pending_tasks;  // an upper bound: each partition's own peak
      for (std::size_t i = 0; i < result.messages_by_kind.size(); ++i)
        result.messages_by_kind[i] += r.messages_by_kind[i];
    }
    for (std::size_t k = 0; k < parts_.size(); ++k) {
      if (!errors_[k]) continue;
      // A partition at the host-time limit: the whole run's figures, not its own.
      if (parts_[k]->stopped_at() >= 0) throw EventLimitReached(wall_limit_message(config_, result, parts_[k]->stopped_at()));
      std::rethrow_exception(errors_[k]);
    }
    replay_observers();  // the last window's calls
    if (ran_out_ && result.tasks_completed != result.tasks_created)
      parts_[0]->fail_out_of_events(result.tasks_created - result.tasks_completed, result.tasks_created);
    for (auto& part : parts_) part->report_progress(result.makespan);
    result.nodes = node_stats(states_, result.makespan, 0, static_cast<NodeId>(states_.nodes.size()));
    result.threads = static_cast<unsigned>(parts_.size());
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return result;
  }

private:
  using Part = Engine<kSpeeds, true>;

  // Runs f for partition k; returns false when it threw. The error stops every thread at
  // the next barrier, which tells them all alike (a thread checking a shared flag on its
  // own could leave while another, that had looked before, waits for it).
  template <class F>
  bool guarded(unsigned k, F&& f) {
    try {
      f();
      return true;
    } catch (...) {
      errors_[k] = std::current_exception();
      return false;
    }
  }

  // Thread k's part of the run: windows, each ended by ranking the events of the instants
  // two partitions shared (each thread a slice of the window) and by packing what crosses;
  // three barriers a window.
  void advance(unsigned k) {
    Part& me = *parts_[k];
    bool failed = !guarded(k, [&] { me.start_nodes(); });
    if (!observer_logs_.empty()) observer_logs_[k]->set_phase(ObserverLog::Phase::events);
    std::chrono::nanoseconds spin = barrier_.spin({});  // this thread's waits: a share of its window's work
    for (unsigned window = 0;; ++window) {
      failed = failed || !guarded(k, [&] { next_[k] = me.pack(); });
      if (barrier_.arrive_and_wait(failed, spin)) return;
      failed = !guarded(k, [&] {
        for (std::size_t from = 0; from < parts_.size(); ++from)
          if (from != k) me.unpack(parts_[from]->outbox(k));
        me.push_later();
      });
      const SimTime start = *std::min_element(next_.begin(), next_.end());
      if (start == kNever) {  // nothing left anywhere, yet tasks are (the end makes them none)
        if (k == 0) ran_out_ = true;
        return;
      }
      const SimTime end = start > kNever - lookahead_ ? kNever : start + lookahead_;
      me.open_window(start, end);
      ranked_[k].store(std::numeric_limits<SimTime>::min(), std::memory_order_relaxed);  // read after the next barrier
      bool paused = false;
      const auto work_start = std::chrono::steady_clock::now();
      failed = failed || !guarded(k, [&] { paused = me.run_until(end, true); });
      spin = barrier_.spin(std::chrono::steady_clock::now() - work_start);
      Decision& decision = decisions_[window % 2];
      if (ends_here(decision, paused && !failed, spin)) {
        if (!barrier_.arrive_and_wait(false, spin) && k == 0) guarded(0, [&] { finish(start); });
        return;
      }
      if (paused && !failed) failed = !guarded(k, [&] { me.run_until(end, false); });
      if (barrier_.arrive_and_wait(failed, spin)) return;
      if (k == 0) decisions_[(window + 1) % 2].reset();  // its last use ended before this barrier
      if (!replay_) {
        failed = !guarded(k, [&] { rank_slice(k, start, end, spin); });
      } else if (k == 0) {  // the observers' calls follow the whole window's ranks
        failed = !guarded(0, [&] {
          rank_shared_instants(logs_, start, kNever);
          replay_observers();
        });
      }
      if (barrier_.arrive_and_wait(failed, spin)) return;
    }
  }

  // Thread k ranks the shared instants of its slice of the window [start, end): the k-th of
  // as many equal spans of time as threads (a window without an end: thread 0 all of it).
  // Where a merge needs the ranks of a creator's instant in an earlier slice, it waits until
  // that slice's thread has passed it.
  void rank_slice(unsigned k, SimTime start, SimTime end, std::chrono::nanoseconds spin) {
    const auto parts = static_cast<SimTime>(parts_.size());
    const auto slice = [&](SimTime j) {
      if (end == kNever) return j == 0 ? start : kNever;
      return j == parts ? kNever : start + (end - start) * j / parts;
    };
    struct Passed {  // the slice done, also when a merge throws: none waits for it then
      ParallelRun& run;
      unsigned k;
      ~Passed() {
        run.ranked_[k].store(kNever, std::memory_order_release);
        notify(run.ranking_);
      }
    } passed{*this, k};
    const SimTime from = slice(k);
    rank_shared_instants(
        logs_, start, from, slice(k + 1),
        [&](SimTime c) {
          if (c >= from) return;
          unsigned j = k - 1;
          while (slice(j) > c) --j;
          await(ranking_, spin, [&] { return ranked_[j].load(std::memory_order_acquire) >= c; });
        },
        [&](SimTime t) { ranked_[k].store(t, std::memory_order_release); });
  }

  // The observers' calls so far, in the run's order: the events' ranks are known.
  void replay_observers() {
    if (replay_) replay_->replay(observer_logs_, logs_);
  }

  // Whether the run ends in this window: every partition paused holding no task. A
  // partition that reached the window's end holding tasks says at once that it does not,
  // so that those waiting go on.
  struct Decision {
    std::atomic<unsigned> arrived{0};  // partitions done with the window's first pass
    std::atomic<bool> holding{false};  // one of them holds tasks at the window's end
    void reset() {
      arrived.store(0, std::memory_order_relaxed);
      holding.store(false, std::memory_order_relaxed);
    }
  };
  bool ends_here(Decision& d, bool paused, std::chrono::nanoseconds spin) {
    if (!paused) d.holding.store(true, std::memory_order_release);
    const unsigned parts = static_cast<unsigned>(parts_.size());
    d.arrived.fetch_add(1, std::memory_order_acq_rel);
    notify(news_);
    if (!paused) return false;
    await(news_, spin, [&] {
      return d.holding.load(std::memory_order_acquire) || d.arrived.load(std::memory_order_acquire) == parts;
    });
    return !d.holding.load(std::memory_order_acquire);
  }

  // Every partition holds no task: the run's last task completed in this window, with the
  // latest of the partitions' last completions. Each partition handles what comes before
  // it in the run's order, and nothing after (thread 0, the others done).
  void finish(SimTime start) {
    const std::size_t parts = parts_.size();
    SimTime last = -1;
    std::vector<std::size_t> last_completion(parts, SIZE_MAX);  // in the log, where it is at `last`
    for (const auto& part : parts_)
      if (!part->log().events().empty()) last = std::max(last, part->log().events().back().time);
    if (last < 0) return;  // no task at all: no event either
    for (std::size_t p = 0; p < parts; ++p) {
      const auto events = parts_[p]->log().events();
      if (!events.empty() && events.back().time == last) last_completion[p] = events.size() - 1;
    }
    for (auto& part : parts_) part->run_until(last, false);
    rank_shared_instants(logs_, start, last);
    // The instant `last`: the events handled at it and those due at it, merged in key order;
    // the latter are handled as they come, until every partition's last completion is in.
    std::vector<std::size_t> at(parts);
    std::size_t waiting = 0;
    for (std::size_t p = 0; p < parts; ++p) {
      const auto events = parts_[p]->log().events();
      at[p] = static_cast<std::size_t>(std::lower_bound(events.begin(), events.end(), last,
                                                        [](const HandledEvent& e, SimTime t) { return e.time < t; }) -
                                       events.begin());
      waiting += last_completion[p] != SIZE_MAX ? 1 : 0;
    }
    for (std::uint64_t rank = 0; waiting > 0; ++rank) {
      std::size_t best = parts;
      EventKey best_key;
      for (std::size_t p = 0; p < parts; ++p) {
        const WindowLog& log = parts_[p]->log();
        EventKey key;
        if (at[p] < log.events().size()) {
          key = log.events()[at[p]].key;
        } else if (const Event* e = parts_[p]->next_at(last)) {
          key = e->key;
        } else {
          continue;
        }
        key = log.global_key(key, start);
        if (best == parts || key < best_key) {
          best = p;
          best_key = key;
        }
      }
      if (best == parts) throw std::logic_error("parallel simulation: the last completion was not found");
      Part& part = *parts_[best];
      if (at[best] == part.log().events().size()) part.handle_next();
      part.log().events()[at[best]].rank = rank;
      if (at[best] == last_completion[best]) --waiting;
      ++at[best];
    }
  }

  const SimulationConfig& config_;
  NodeStates states_;
  const SimTime lookahead_;
  std::unique_ptr<DeferredTasks> deferred_;  // every partition's nodes' initial tasks, or none
  const std::vector<NodeId> bounds_;  // partition k has the nodes [bounds_[k], bounds_[k + 1])
  std::vector<std::unique_ptr<Part>> parts_;
  SpinBarrier barrier_;
  std::vector<std::exception_ptr> errors_;
  Decision decisions_[2];                // the even windows', the odd ones'
  std::atomic<std::uint32_t> news_{0};   // bumped as a decision changes
  std::vector<std::atomic<SimTime>> ranked_;  // by thread: its slice's shared instants are ranked up to this time
  std::atomic<std::uint32_t> ranking_{0};     // bumped as a slice is done
  std::vector<SimTime> next_;  // each partition's next event time
  std::vector<WindowLog*> logs_;
  std::uint64_t placed_ = 0;  // the observers' calls as the initial tasks were placed
  std::vector<std::unique_ptr<ObserverLog>> observer_logs_;  // with observers: each partition's calls
  std::optional<ObserverReplay> replay_;
  bool ran_out_ = false;
};

// A run in partitions of the nodes, one a process of `group` (an MPI launch): the windows of
// ParallelRun, with what a thread there reads of the others' state exchanged as bytes.
// Each window takes an all-to-all (what crosses, with each partition's next event time) and
// an all-gather of whether the partitions hold tasks at its end with the events they
// handled, which every process ranks alike. A failure anywhere travels in the bytes of the
// next collective and stops every process there (docs/simulator.md, "Across processes").
template <bool kSpeeds>
class ProcessRun {
public:
  ProcessRun(const SimulationConfig& config, const ProcessGroup& group, SimTime lookahead)
      : config_(config), group_(group), me_(static_cast<unsigned>(group.rank())),
        parts_(static_cast<unsigned>(group.size())), bounds_(partition_bounds(config.topology->size(), parts_)),
        states_(config, bounds_[me_], bounds_[me_ + 1]), lookahead_(lookahead) {
    part_ = std::make_unique<Part>(config, states_, Partition{bounds_[me_], bounds_[me_ + 1], me_, parts_});
    copies_.resize(parts_);
    for (unsigned p = 0; p < parts_; ++p) logs_.push_back(p == me_ ? &part_->log() : &copies_[p]);
  }

  SimulationResult run() {
    const auto wall_start = std::chrono::steady_clock::now();
    Part& me = *part_;
    on_every_rank(group_, [&] {
      config_.workload->split(bounds_);  // before its first task: each partition keeps its tasks' states
      Rng rng(config_.seed, 0);  // the workload's stream, as on one thread
      deferred_ = deferred_initial_tasks(config_, rng);
      if (deferred_) {
        deferred_->keep_only(bounds_[me_], bounds_[me_ + 1]);  // count() still answers for every node
        me.defer_initial_tasks(*deferred_, tasks_in(*deferred_, config_.topology->size()));
      } else {
        std::vector<TaskSink*> sinks(parts_, nullptr);  // the other processes' partitions: dropped
        sinks[me_] = &me.sink();
        PartitionDispatch dispatch(bounds_, std::move(sinks));
        config_.workload->initial_tasks(*config_.topology, config_.cost, rng, dispatch);
      }
      me.begin_parallel(wall_start, bounds_);
      me.after_initial_tasks();
      me.start_nodes();
    });
    windows();
    return result(wall_start);
  }

private:
  using Part = Engine<kSpeeds, true>;

  // Runs f, keeping what it throws for the next agreement.
  template <class F>
  void guarded(std::exception_ptr& error, F&& f) {
    if (error) return;
    try {
      f();
    } catch (...) {
      error = std::current_exception();
    }
  }

  // ParallelRun::advance, with the barriers as collectives: an all-to-all and an all-gather
  // a window (two all-gathers when some partitions stopped holding no task and others not).
  void windows() {
    Part& me = *part_;
    std::exception_ptr error;
    for (;;) {
      SimTime next = kNever;
      guarded(error, [&] { next = me.pack(); });
      for (WindowLog& copy : copies_) copy.release();
      const SimTime start = exchange(error, next);
      guarded(error, [&] { me.push_later(); });
      if (start == kNever) {  // nothing left anywhere, yet tasks are (the end makes them none)
        group_.agree(error);
        ran_out_ = true;
        return;
      }
      const SimTime end = start > kNever - lookahead_ ? kNever : start + lookahead_;
      me.open_window(start, end);
      bool paused = false;
      guarded(error, [&] { paused = me.run_until(end, true); });
      const unsigned stopped = gather_logs(error, paused);
      if (stopped == parts_) {
        finish(error, start);
        return;
      }
      if (stopped > 0) {
        if (paused) guarded(error, [&] { me.run_until(end, false); });
        gather_logs(error, false);
      }
      guarded(error, [&] { rank_shared_instants(logs_, start, kNever); });
    }
  }

  // The bytes of a collective begin with whether their process has failed; when one has,
  // every process throws its error (ProcessGroup::agree) instead of going on. A partition
  // stopped at the host-time limit says the whole run's figures, as one thread does.
  std::vector<std::vector<std::byte>> checked(std::vector<std::vector<std::byte>> in, const std::exception_ptr& error) {
    for (const auto& bytes : in) {
      if (bytes.at(0) == std::byte{0}) continue;
      const SimulationResult run = summed();
      const SimTime t = part_->stopped_at();
      group_.agree(t >= 0 ? std::make_exception_ptr(EventLimitReached(wall_limit_message(config_, run, t))) : error);
    }
    return in;
  }
  static ByteWriter failure(const std::exception_ptr& error) {
    ByteWriter w;
    w.put(static_cast<std::uint8_t>(error ? 1 : 0));
    return w;
  }

  // What crosses to each partition, in rounds of at most round_bytes() of crossings each,
  // which join the queue as they arrive: the start's burst crosses too (a message a node),
  // and its bytes sent and received are never held whole. The first round carries each
  // partition's next event time, the rounds it needs, and the tasks and large messages its
  // crossings deliver; every process takes as many rounds as the most any needs. Returns
  // where the next window starts, the same in every process, so that all take one branch.
  SimTime exchange(std::exception_ptr& error, SimTime next) {
    Part& me = *part_;
    const Rounds<typename Part::Crossing> split(group_);
    std::uint64_t rounds = 1;
    for (unsigned to = 0; to < parts_; ++to)
      if (to != me_) rounds = std::max(rounds, split.needed(me.outbox(to).items.size()));
    const Round mine{next, rounds, split};
    SimTime start = kNever;
    std::vector<Delivered> delivered(parts_);
    for (std::uint64_t round = 0; round < rounds; ++round) {
      std::vector<std::vector<std::byte>> in;
      {
        std::vector<std::vector<std::byte>> out(parts_);
        for (unsigned to = 0; to < parts_; ++to) out[to] = packed(error, mine, round, to);
        in = checked(group_.all_to_all(out), error);
      }
      for (unsigned from = 0; from < parts_; ++from) {
        ByteReader r(in[from]);
        r.skip<std::uint8_t>();
        if (round == 0) {
          start = std::min(start, r.get<SimTime>());
          rounds = std::max(rounds, r.get<std::uint64_t>());
        }
        if (from != me_) guarded(error, [&] { unpack(r, round, delivered[from]); });
        std::vector<std::byte>().swap(in[from]);  // a burst's round: its bytes go before the next are read
      }
    }
    me.clear_outboxes();
    return start;
  }

  // How a window's collective splits a list it carries: at most round_bytes() of it a round.
  template <class T>
  struct Rounds {
    explicit Rounds(const ProcessGroup& group) : per_round(std::max<std::size_t>(1, group.round_bytes() / sizeof(T))) {}
    std::uint64_t needed(std::size_t count) const { return (count + per_round - 1) / per_round; }
    std::span<const T> part(std::span<const T> items, std::uint64_t round) const {
      const std::size_t first = std::min<std::size_t>(items.size(), round * per_round);
      return items.subspan(first, std::min(per_round, items.size() - first));
    }
    std::size_t per_round;
  };
  // This process's part of an exchange: its next event time, its rounds, how it splits its crossings.
  struct Round {
    SimTime next;
    std::uint64_t rounds;
    Rounds<typename Part::Crossing> split;
  };
  // What a partition's crossings deliver, sent in the first round.
  struct Delivered {
    std::vector<Task> tasks;
    std::vector<std::byte> states;
    std::vector<Message> large;
  };

  // What this partition sends partition `to` in a round of an exchange.
  std::vector<std::byte> packed(const std::exception_ptr& error, const Round& mine, std::uint64_t round,
                                unsigned to) const {
    ByteWriter w = failure(error);
    if (round == 0) {
      w.put(mine.next);
      w.put(mine.rounds);
    }
    if (to == me_ || error) return std::move(w.bytes());
    const auto& box = part_->outbox(to);
    if (round == 0) {
      w.put_all(std::span(box.tasks));
      w.put_all(std::span(box.states));
      w.put_all(std::span(box.large));
    }
    w.put_all(mine.split.part(box.items, round));
    return std::move(w.bytes());
  }
  // Joins a round of what another partition sent to the queue.
  void unpack(ByteReader& r, std::uint64_t round, Delivered& from) {
    if (round == 0) {
      from.tasks = r.get_all<Task>();
      from.states = r.get_all<std::byte>();
      from.large = r.get_all<Message>();
    }
    r.for_each<typename Part::Crossing>(
        [&](const typename Part::Crossing& c) { part_->unpack(c, from.tasks, from.states, from.large); });
  }

  // Every partition's window log, for rank_shared_instants, which every process runs alike
  // (as thread 0 does), keeping the ranks of its own: the others' logs arrive in copies kept
  // from window to window, in rounds of at most round_bytes() of events from each (a
  // window of the start's burst handles 4 million events a process at 2^22 nodes: 128 MB,
  // which would otherwise be held four times over as bytes sent and received). The first
  // round carries whether each partition stopped holding no task and its log's length.
  // Returns how many partitions stopped so.
  unsigned gather_logs(const std::exception_ptr& error, bool paused) {
    const auto events = std::span<const HandledEvent>(part_->log().events());
    const Rounds<HandledEvent> split(group_);
    std::uint64_t rounds = 1;
    unsigned stopped = 0;
    for (std::uint64_t round = 0; round < rounds; ++round) {
      std::vector<std::vector<std::byte>> all;
      {
        ByteWriter w = failure(error);
        if (round == 0) {
          w.put(static_cast<std::uint8_t>(paused ? 0 : 1));
          w.put(static_cast<std::uint64_t>(events.size()));
        }
        w.put_all(split.part(events, round));
        all = checked(group_.all_gather(w.bytes()), error);
      }
      for (unsigned p = 0; p < parts_; ++p) {
        ByteReader r(all[p]);
        r.skip<std::uint8_t>();
        if (round == 0) {
          stopped += r.get<std::uint8_t>() == 0 ? 1 : 0;
          const auto count = r.get<std::uint64_t>();
          rounds = std::max(rounds, split.needed(count));
          if (p != me_) {
            copies_[p].clear();
            copies_[p].reserve(count);
          }
        }
        if (p != me_) r.for_each<HandledEvent>([&](const HandledEvent& e) { copies_[p].add(e.time, e.key, e.rank); });
        std::vector<std::byte>().swap(all[p]);
      }
    }
    return stopped;
  }

  // ParallelRun::finish: every partition holds no task. The events at the last instant are
  // merged one at a time, each process offering its next in key order.
  void finish(std::exception_ptr& error, SimTime start) {
    Part& me = *part_;
    WindowLog& log = me.log();
    SimTime last = -1;
    std::size_t waiting = 0;  // partitions whose last completion is at `last`, not yet ranked
    for (const WindowLog* l : logs_)
      if (!l->events().empty()) last = std::max(last, l->events().back().time);
    for (const WindowLog* l : logs_) waiting += !l->events().empty() && l->events().back().time == last ? 1 : 0;
    if (last < 0) {  // no task at all: no event either
      group_.agree(error);
      return;
    }
    const std::size_t last_completion =
        !log.events().empty() && log.events().back().time == last ? log.events().size() - 1 : SIZE_MAX;
    guarded(error, [&] { me.run_until(last, false); });
    gather_logs(error, true);
    guarded(error, [&] { rank_shared_instants(logs_, start, last); });
    const auto events = log.events();
    std::size_t at = static_cast<std::size_t>(
        std::lower_bound(events.begin(), events.end(), last, [](const HandledEvent& e, SimTime t) { return e.time < t; }) -
        events.begin());
    struct Offer {
      std::uint8_t has = 0, last_completion = 0;
      EventKey key;
    };
    for (std::uint64_t rank = 0; waiting > 0; ++rank) {
      Offer offer;
      guarded(error, [&] {
        if (at < log.events().size()) {
          offer = {1, 0, log.events()[at].key};
        } else if (const Event* e = me.next_at(last)) {
          offer = {1, 0, e->key};
        }
        offer.key = log.global_key(offer.key, start);
        offer.last_completion = at == last_completion ? 1 : 0;
      });
      ByteWriter w = failure(error);
      w.put(offer);
      unsigned best = parts_;
      Offer best_offer;
      const auto offers = checked(group_.all_gather(w.bytes()), error);
      for (unsigned p = 0; p < parts_; ++p) {
        const auto o = ByteReader(offers[p]).skip<std::uint8_t>().get<Offer>();
        if (o.has != 0 && (best == parts_ || o.key < best_offer.key)) {
          best = p;
          best_offer = o;
        }
      }
      if (best == parts_) throw std::logic_error("parallel simulation: the last completion was not found");
      if (best == me_) {
        guarded(error, [&] {
          if (at == log.events().size()) me.handle_next();
          log.events()[at++].rank = rank;
        });
      }
      if (best_offer.last_completion != 0) --waiting;
    }
    group_.agree(error);
  }

  // The run's result: every partition's figures summed, every node's in node order.
  SimulationResult result(std::chrono::steady_clock::time_point wall_start) {
    SimulationResult result = summed();
    if (ran_out_ && result.tasks_completed != result.tasks_created)
      part_->fail_out_of_events(result.tasks_created - result.tasks_completed, result.tasks_created);
    part_->report_progress(result.makespan);
    // Each node's figures from the process that ran it.
    ByteWriter ours;
    const std::vector<NodeStats> mine_by_node = node_stats(states_, result.makespan, bounds_[me_], bounds_[me_ + 1]);
    ours.put_all(std::span(mine_by_node));
    for (const auto& bytes : group_.all_gather(ours.bytes())) {
      const auto nodes = ByteReader(bytes).get_all<NodeStats>();
      result.nodes.insert(result.nodes.end(), nodes.begin(), nodes.end());
    }
    result.processes = parts_;
    result.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
    return result;
  }

  // Collective: the whole run's figures so far, every partition's summed (not its nodes').
  SimulationResult summed() const {
    const SimulationResult& mine = part_->result();
    ByteWriter w;
    for (const auto x : {mine.makespan, mine.total_work}) w.put(x);
    for (const auto x : {mine.tasks_created, mine.tasks_completed, mine.tasks_transferred, mine.events,
                         mine.peak_pending_tasks})
      w.put(x);
    w.put_all(std::span(mine.messages_by_kind));
    const auto figures = group_.all_gather(w.bytes());
    SimulationResult result = mine;
    result.makespan = result.total_work = 0;
    result.tasks_created = result.tasks_completed = result.tasks_transferred = result.events = 0;
    result.peak_pending_tasks = 0;
    std::fill(result.messages_by_kind.begin(), result.messages_by_kind.end(), 0);
    for (const auto& bytes : figures) {
      ByteReader r(bytes);
      result.makespan = std::max(result.makespan, r.get<SimTime>());
      result.total_work += r.get<SimTime>();
      result.tasks_created += r.get<std::uint64_t>();
      result.tasks_completed += r.get<std::uint64_t>();
      result.tasks_transferred += r.get<std::uint64_t>();
      result.events += r.get<std::uint64_t>();
      result.peak_pending_tasks += r.get<std::uint64_t>();  // an upper bound: each partition's own peak
      const auto kinds = r.get_all<std::uint64_t>();
      for (std::size_t i = 0; i < kinds.size() && i < result.messages_by_kind.size(); ++i)
        result.messages_by_kind[i] += kinds[i];
    }
    return result;
  }

  const SimulationConfig& config_;
  const ProcessGroup& group_;
  const unsigned me_, parts_;
  const std::vector<NodeId> bounds_;  // partition k has the nodes [bounds_[k], bounds_[k + 1])
  NodeStates states_;                 // this process touches only its own nodes' entries
  const SimTime lookahead_;
  std::unique_ptr<DeferredTasks> deferred_;  // this process's nodes' initial tasks (keep_only), or none
  std::unique_ptr<Part> part_;
  std::vector<WindowLog> copies_;  // the other partitions' window logs (this one's stays empty)
  std::vector<WindowLog*> logs_;   // every partition's: this one's own, the others' copies
  bool ran_out_ = false;
};

// The lookahead of a parallel run: the least time from an event at one node to the event
// it makes at another (a message or tasks sent: the sender's send overhead, at its speed,
// and the network's latency); or, in `because`, why the run stays on one thread.
SimTime parallel_lookahead(const SimulationConfig& config, unsigned parts, std::string& because) {
  const CostModel& cost = config.cost;
  if (parts <= 1) because = "one thread asked for";
  else if (config.topology->size() < 2) because = "one node";
  else if (!config.workload->runs_apart())
    because = "the workload shares its state between nodes (tasks created at other nodes, arrivals, or a shared "
              "stream)";
  else if (cost.transfer == TransferDistribution::exponential)
    because = "exponential transfer times draw from one stream";
  if (!because.empty()) return 0;
  SimTime overhead = cost.send_overhead;
  for (const double s : config.speeds)
    if (const SimTime t = time_at_speed(cost.send_overhead, s); t >= 0) overhead = std::min(overhead, t);
  if (cost.latency <= 0 && overhead <= 0) {
    because = "the cost model has no lookahead: a message can reach another node in zero time (latency and "
              "send_overhead are 0)";
    return 0;
  }
  return later(cost.latency, overhead);
}

}  // namespace

std::uint64_t instant_event_limit(const SimulationConfig& config, const Topology& topology) {
  return config.instant_event_limit != 0 ? config.instant_event_limit
                                         : std::max<std::uint64_t>(10'000'000, 64 * (topology.edge_count() + topology.size()));
}

SimulationResult simulate(const SimulationConfig& config) {
  if (config.topology == nullptr) throw InputError("simulate: no topology given");
  if (config.workload == nullptr) throw InputError("simulate: no workload given");
  if (config.strategy.info == nullptr) throw InputError("simulate: no strategy given");
  if (config.cost.tasks_per_message < 1)
    throw InputError(fmt::format("simulate: tasks_per_message={} cannot carry tasks; accepted: 1 or more",
                                 config.cost.tasks_per_message));
  if (config.strategy.info->check_topology) config.strategy.info->check_topology(*config.topology);
  if (!config.speeds.empty() && config.speeds.size() != config.topology->size())
    throw InputError(fmt::format("simulate: {} speeds for {} nodes; accepted: one per node, or none (every node at "
                                 "speed 1)",
                                 config.speeds.size(), config.topology->size()));
  if (const std::size_t v = first_bad_speed(config.speeds); v < config.speeds.size())
    throw InputError(
        fmt::format("simulate: node {}'s speed is {}; accepted: a finite number > 0", v, config.speeds[v]));
  const bool speeds = std::any_of(config.speeds.begin(), config.speeds.end(), [](double s) { return s != 1; });
  const int processes = config.processes != nullptr ? config.processes->size() : 1;
  if (processes > 1 && !config.observers.empty())
    throw InputError("simulate: observers (a timeline, a load history) in a run on several processes; accepted: "
                     "observers on one process, on any number of threads");
  std::string because;
  const SimTime lookahead =
      parallel_lookahead(config, processes > 1 ? static_cast<unsigned>(processes) : config.threads, because);
  if (processes > 1 && because.empty()) {
    if (speeds) return ProcessRun<true>(config, *config.processes, lookahead).run();
    return ProcessRun<false>(config, *config.processes, lookahead).run();
  }
  if (processes == 1 && because.empty()) {
    const auto parts = static_cast<unsigned>(std::min<std::size_t>(config.threads, config.topology->size()));
    if (speeds) return ParallelRun<true>(config, parts, lookahead).run();
    return ParallelRun<false>(config, parts, lookahead).run();
  }
  SimulationResult result = [&] {
    NodeStates states(config);
    if (speeds) return Engine<true>(config, states, Partition{0, static_cast<NodeId>(config.topology->size())}).run();
    return Engine<false>(config, states, Partition{0, static_cast<NodeId>(config.topology->size())}).run();
  }();
  if (config.threads > 1 || processes > 1) result.one_thread_because = because;
  return result;
}

}  // namespace dlbkit
