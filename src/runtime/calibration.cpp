// The probes of `dlbkit calibrate`: applications and strategies that time the engine from
// inside a real run on two workers (docs/predict.md describes each measurement).
//
// Both workers run a driver task that polls until the probe is done, so each sees a message
// at its next check, as a busy worker does (an idle one would back off into sleep, and the
// round trip would time its wake-up); worker 0's agent times what the probe measures and
// tells worker 1 when to stop, worker 1's answers. Under MPI worker 1 is rank 1: its
// process has its own copy of the probe state, which it never reads for a figure (rank 1
// answers, rank 0 times).

#include "worker_core.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/sim/statistics.hpp>
#include <dlbkit/runtime/calibration.hpp>
#include <dlbkit/topology/generators.hpp>

#include <algorithm>
#include <array>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace dlbkit {

namespace {

using detail::clock_ns;

// A driver that goes this long between two polls lost its processor: the scheduler ran
// another thread (a poll that handles a message takes about a microsecond).
constexpr SimTime kLost = 50 * kMicrosecond;

// What a worker's driver shares with its agent; one cache line each, since under threads
// the two drivers write theirs at every poll.
struct alignas(64) Driver {
  bool done = false;        // the driver stops polling
  bool pause = false;       // the driver works without polling for a while, once
  std::uint64_t polls = 0;  // the driver's poll() calls so far: which check point a message came at
  SimTime last_poll = 0;    // clock_ns() before its latest poll()
  SimTime lost_until = 0;   // the end of its latest stretch of over kLost between two polls

  // Whether the worker lost its processor since `since` (clock_ns()), the current poll included.
  bool lost_since(SimTime since) const { return lost_until > since || clock_ns() - last_poll > kLost; }
};

// What the drivers, the agents and the caller share (in each process under MPI).
struct Probe {
  CalibrationOptions options;
  std::array<Driver, 2> drivers;   // worker 0's and worker 1's
  std::vector<double> samples;     // the figure's samples, ns (worker 0's agent writes them)
  int lost = 0;                    // round trips not sampled: a worker lost its processor
  std::vector<double> sends;       // the message run's other figures: per send,
  std::vector<double> handled;     // and per message handled
};

// The tasks: a driver on each worker; payload tasks (worker 0's) do nothing when executed.
template <std::size_t Bytes>
struct ProbeTask {
  std::uint32_t driver;
  std::array<std::byte, Bytes - sizeof(std::uint32_t)> payload;
};
struct NoResult {
  std::uint64_t unused;
};

template <std::size_t Bytes>
class ProbeApp final : public ReportedApplication<ProbeTask<Bytes>, NoResult> {  // an EngineRun's kind
public:
  enum class Drive { poll_until_done, time_polls };
  ProbeApp(Probe& probe, Drive drive, int payload_tasks) : probe_(probe), drive_(drive), payload_(payload_tasks) {}

  std::vector<ProbeTask<Bytes>> roots(NodeId worker, std::size_t) const override {
    if (worker != 0) {
      if (drive_ == Drive::time_polls) return {};  // worker 1 idles while worker 0 times its polls
      return {ProbeTask<Bytes>{1, {}}};
    }
    std::vector<ProbeTask<Bytes>> tasks(static_cast<std::size_t>(payload_) + 1, ProbeTask<Bytes>{0, {}});
    tasks.back().driver = 1;  // on top: executed first, the payload stays below for migrate()
    return tasks;
  }

  nlohmann::json report(const NoResult&) const override { return nullptr; }

  void execute(const ProbeTask<Bytes>& task, TaskContext<ProbeTask<Bytes>, NoResult>& ctx) override {
    if (task.driver == 0) return;
    if (drive_ == Drive::time_polls) return time_polls(ctx);
    Driver& self = probe_.drivers[ctx.worker()];
    self.last_poll = clock_ns();
    while (!self.done) {
      const SimTime now = clock_ns();
      if (now - self.last_poll > kLost) self.lost_until = now;
      self.last_poll = now;
      ++self.polls;
      ctx.poll();
      if (!self.pause) continue;
      self.pause = false;  // let a burst pile up in the mailbox: 200 us without a check
      for (const SimTime until = clock_ns() + 200 * kMicrosecond; clock_ns() < until;) {
      }
      self.last_poll = clock_ns();  // the pause is no lost processor
    }
  }

  void combine(NoResult&, const NoResult&) const override {}

private:
  // With poll_interval 0, every poll() looks at the clock and makes a check point.
  void time_polls(TaskContext<ProbeTask<Bytes>, NoResult>& ctx) {
    constexpr int kPolls = 1000;
    for (int r = 0; r < probe_.options.repetitions; ++r) {
      const SimTime start = clock_ns();
      for (int i = 0; i < kPolls; ++i) ctx.poll();
      probe_.samples.push_back(static_cast<double>(clock_ns() - start) / kPolls);
    }
    probe_.drivers[0].done = true;
  }

  Probe& probe_;
  Drive drive_;
  int payload_;
};

// --- the agents ---

class Quiet final : public Strategy {};

enum Kind : std::uint16_t { kPing, kPong, kSink, kBurstRequest, kBurst, kStop };

// Round trips (and task pairs) before the first sample: the first few of a run take 10 to
// 100 times longer (caches, the queues' first blocks, MPI's first messages).
constexpr int kWarmUp = 8;

// Worker 0's agent ends a probe: its own driver stops, and worker 1's at the message kStop.
class ProbeAgent : public Strategy {
public:
  explicit ProbeAgent(Probe& probe) : probe_(probe) {}
  void on_message(NodeContext&, NodeId, const Message& m) override {
    if (m.kind == kStop) probe_.drivers[1].done = true;
  }

protected:
  void finish(NodeContext& ctx) {
    probe_.drivers[0].done = true;
    ctx.send(1, Message::make(kStop, 0));
  }
  Probe& probe_;
};

// Ping-pongs of messages, then bursts of sends, then bursts handled at one check point.
class MessageAgent final : public ProbeAgent {
public:
  using ProbeAgent::ProbeAgent;

  void on_start(NodeContext& ctx) override {
    if (ctx.self() == 0) ping(ctx);
  }

  void on_message(NodeContext& ctx, NodeId from, const Message& m) override {
    const int reps = probe_.options.repetitions, burst = probe_.options.burst;
    switch (m.kind) {
      case kPing: {  // the answer says whether worker 1 lost its processor since its previous answer
        const bool lost = probe_.drivers[1].lost_since(answered_);
        answered_ = clock_ns();
        ctx.send(from, Message::make(kPong, lost));
        return;
      }
      case kSink: return;
      case kBurstRequest:
        for (int i = 0; i < burst; ++i) ctx.send(from, Message::make(kBurst, i));
        return;
      case kPong:
        if (round_trips_ < reps) {  // phase 1: the round trips, after kWarmUp unsampled ones
          // Those in which a worker lost its processor time the scheduler, not the message:
          // they are not sampled (up to 20 x reps of them; a busy machine may lose many).
          const bool lost = m.as<bool>() || probe_.drivers[0].lost_since(sent_);
          if (lost && round_trips_ >= 0 && probe_.lost < 20 * reps) ++probe_.lost;
          else if (round_trips_++ >= 0) probe_.samples.push_back(static_cast<double>(clock_ns() - sent_) / 2);
          if (round_trips_ < reps) return ping(ctx);
        }
        if (sends_ < reps) {  // phase 2: a burst of sends, then a ping to drain it
          ++sends_;
          const SimTime start = clock_ns();
          for (int i = 0; i < burst; ++i) ctx.send(1, Message::make(kSink, i));
          probe_.sends.push_back(static_cast<double>(clock_ns() - start) / burst);
          return ping(ctx);
        }
        return request_burst(ctx);
      case kBurst: {  // phase 3: the burst's messages handled at one check point
        if (probe_.drivers[0].polls != group_poll_) {
          group_poll_ = probe_.drivers[0].polls;
          group_start_ = clock_ns();
          group_size_ = 0;
        }
        ++group_size_;
        if (++burst_received_ < burst) return;
        if (group_size_ >= burst / 2)
          probe_.handled.push_back(static_cast<double>(clock_ns() - group_start_) / static_cast<double>(group_size_ - 1));
        // A burst split over check points gives no sample; a loaded machine may do that often.
        if (static_cast<int>(probe_.handled.size()) >= reps || ++bursts_ >= 4 * reps) return finish(ctx);
        return request_burst(ctx);
      }
      default: return ProbeAgent::on_message(ctx, from, m);
    }
  }

private:
  void ping(NodeContext& ctx) {
    sent_ = clock_ns();
    ctx.send(1, Message::make(kPing, 0));
  }
  void request_burst(NodeContext& ctx) {
    burst_received_ = 0;
    group_poll_ = ~std::uint64_t{0};
    probe_.drivers[0].pause = true;
    ctx.send(1, Message::make(kBurstRequest, 0));
  }

  SimTime sent_ = 0, answered_ = 0;  // clock_ns() of the latest ping (worker 0) and pong (worker 1)
  int round_trips_ = -kWarmUp, sends_ = 0, burst_received_ = 0, bursts_ = 0;
  std::uint64_t group_poll_ = 0;
  SimTime group_start_ = 0;
  int group_size_ = 0;
};

// Ping-pongs of tasks: worker 0 sends one of its payload tasks, then all `tasks` of them,
// and again, in turns; worker 1 sends them straight back. Taking the two sizes in turns
// pairs each sample with one taken at the same load of the machine.
class TaskAgent final : public ProbeAgent {
public:
  TaskAgent(Probe& probe, int tasks) : ProbeAgent(probe), tasks_(tasks) {}
  void on_start(NodeContext& ctx) override {
    if (ctx.self() == 0) send(ctx);
  }
  void on_tasks_arrived(NodeContext& ctx, NodeId from, std::int64_t count) override {
    if (ctx.self() != 0) {
      ctx.migrate(from, count);
      return;
    }
    const double one_way = static_cast<double>(ctx.now() - sent_) / 2;
    if (warm_up_ > 0) {  // kWarmUp unsampled pairs first
      if (count > 1) --warm_up_;
    } else if (count == 1) {
      single_ = one_way;
      probe_.samples.push_back(one_way);
    } else {
      probe_.sends.push_back(one_way);                                      // all tasks at once
      probe_.handled.push_back((one_way - single_) / static_cast<double>(tasks_ - 1));  // per further task
    }
    if (static_cast<int>(probe_.handled.size()) < probe_.options.repetitions) send(ctx);
    else finish(ctx);
  }

private:
  void send(NodeContext& ctx) {
    sent_ = ctx.now();
    ctx.migrate(1, many_ ? tasks_ : 1);
    many_ = !many_;
  }
  int tasks_;
  int warm_up_ = kWarmUp;
  bool many_ = false;
  double single_ = 0;
  SimTime sent_ = 0;
};

// One run of the engine on hypercube:1 with `app` and agents made by `make`.
void probe_run(const EngineRun& run, AnyApplication& app, std::function<std::unique_ptr<Strategy>()> make,
               SimTime poll_interval, const std::string& what) {
  StrategyInfo info{.name = "calibration-" + what,
                    .description = "a probe of dlbkit calibrate",
                    .source = "docs/predict.md",
                    .message_kinds = {"ping", "pong", "sink", "burst_request", "burst", "stop"},
                    .create = [make](const Parameters&) { return make(); }};
  const Topology pair = make_hypercube(1);
  RuntimeConfig config{.topology = &pair,
                       .strategy = StrategyChoice{&info, Parameters::parse({}, {}, "calibration")},
                       .poll_interval = poll_interval};
  run(app, config);
}

struct TaskFigures {
  double one_task = 0, all_tasks = 0, per_further_task = 0;
  std::size_t record = 0;
};

template <std::size_t Bytes>
TaskFigures task_ping_pong(const EngineRun& run, const CalibrationOptions& options) {
  Probe probe{.options = options};
  ProbeApp<Bytes> app(probe, ProbeApp<Bytes>::Drive::poll_until_done, options.tasks);
  probe_run(run, app, [&] { return std::make_unique<TaskAgent>(probe, options.tasks); }, 0,
            fmt::format("tasks-{}", Bytes));
  return {median(probe.samples), median(probe.sends), median(probe.handled), detail::TaskStack(app.task_bytes()).record_bytes()};
}

}  // namespace

double EngineCosts::per_byte() const {
  return std::max(0.0, (per_big_task - per_task) / static_cast<double>(big_record - small_record));
}

CostModel EngineCosts::model(const std::string& name, std::size_t record_bytes) const {
  const auto ns = [](double x) { return static_cast<SimTime>(std::llround(std::max(0.0, x))); };
  CostModel c;
  c.name = name;
  c.loop_time = 1'300;
  c.poll_interval = options.poll_interval;
  c.poll_cost = ns(check);
  c.send_overhead = ns(send);
  c.handle_cost = ns(handle);
  c.latency = ns(one_way_message - send - handle);
  c.per_hop = 0;
  const double extra_bytes = static_cast<double>(record_bytes) - static_cast<double>(small_record);
  c.per_task = ns(per_task + per_byte() * std::max(0.0, extra_bytes));
  c.per_byte = per_byte();
  c.tasks_per_message = 1'000'000;
  c.checks = Checks::engines;  // a worker looks at its load at its check points only
  // threads: a busy worker reads its mailbox's counter after each task; MPI: it looks for
  // messages at its check points only
  c.mail = engine == "mpi" ? Mail::check_points : Mail::each_task;
  return c;
}

nlohmann::json EngineCosts::to_json() const {
  return {{"engine", engine},
          {"statistic", "median"},
          {"repetitions", options.repetitions},
          {"burst", options.burst},
          {"tasks_per_transfer", options.tasks},
          {"poll_interval", exact_duration(options.poll_interval)},
          {"one_way_message_ns", one_way_message},
          {"round_trips_lost", round_trips_lost},
          {"send_ns", send},
          {"handle_ns", handle},
          {"one_way_1_task_ns", one_way_task},
          {"one_way_tasks_ns", one_way_tasks},
          {"task_record_bytes", small_record},
          {"big_task_record_bytes", big_record},
          {"per_task_ns", per_task},
          {"per_big_task_ns", per_big_task},
          {"per_byte_ns", per_byte()},
          {"check_ns", check}};
}

EngineCosts measure_engine_costs(const std::string& engine, const EngineRun& run, const CalibrationOptions& options) {
  for (const auto& [name, value] : {std::pair{"repetitions", options.repetitions}, std::pair{"burst", options.burst},
                                    std::pair{"tasks", options.tasks}})
    if (value < 2 || value > 1'000'000)
      throw InputError(fmt::format("calibration {} {}; accepted: 2 to 1000000", name, value));
  EngineCosts costs{.engine = engine, .options = options};
  {  // the check: poll() with poll_interval 0 looks at the clock and checks every time
    Probe probe{.options = options};
    ProbeApp<16> app(probe, ProbeApp<16>::Drive::time_polls, 0);
    probe_run(run, app, [] { return std::make_unique<Quiet>(); }, 0, "check");
    costs.check = median(probe.samples);
  }
  {  // messages: round trips, sends, handling
    Probe probe{.options = options};
    ProbeApp<16> app(probe, ProbeApp<16>::Drive::poll_until_done, 0);
    probe_run(run, app, [&] { return std::make_unique<MessageAgent>(probe); }, 0, "messages");
    costs.one_way_message = median(probe.samples);
    costs.round_trips_lost = probe.lost;
    costs.send = median(probe.sends);
    costs.handle = median(probe.handled);
  }
  const TaskFigures small = task_ping_pong<16>(run, options), big = task_ping_pong<4096>(run, options);
  costs.one_way_task = small.one_task;
  costs.one_way_tasks = small.all_tasks;
  costs.per_task = small.per_further_task;
  costs.per_big_task = big.per_further_task;
  costs.small_record = small.record;
  costs.big_record = big.record;
  return costs;
}

}  // namespace dlbkit
