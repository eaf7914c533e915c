// The threads engine: one worker thread per node, mailboxes of moodycamel::ConcurrentQueue
// (FIFO per producer, so the envelopes one worker sends another arrive in order).
//
// Termination: a shared count of live tasks (created and not completed, wherever they are:
// stacks, executing, mailboxes). Workers add their own changes lazily: at idle check
// points, and always before tasks leave them. Then the shared count is 0 only when no task
// is left: a task whose creation is not yet added is still with the worker that created
// it, and that worker's unfinished or unreported parent keeps the count above 0.
//
// A waiting worker that backs off into sleep is woken by the next envelope posted to it, or
// by the end of the run, not at the end of its sleep: a task sent to an idle worker starts
// within a wake-up, as in the simulator, where it starts at its arrival.

#include "worker_core.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/runtime/engine.hpp>

#include <concurrentqueue/concurrentqueue.h>

#include <fmt/format.h>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace dlbkit {

namespace {

using detail::Envelope;
using detail::WorkerCore;

// The first exception a task threw, and the flag that stops every worker.
struct Failure {
  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::exception_ptr first;
};

struct alignas(64) Mailbox {
  moodycamel::ConcurrentQueue<Envelope> queue;
  alignas(64) std::atomic<std::uint64_t> posted{0};
  std::atomic<bool> sleeping{false};  // its worker sleeps or is about to: a sender of tasks rings
  std::mutex mutex;
  std::condition_variable bell;

  // Wakes the worker if it sleeps. The sender's post and the sleeper's flag are both
  // sequentially consistent, so either the sender sees the flag or the sleeper sees the post.
  void ring() {
    if (!sleeping.load()) return;
    const std::lock_guard lock(mutex);
    bell.notify_one();
  }
};

class ThreadsTransport final : public detail::Transport {
public:
  ThreadsTransport(std::vector<Mailbox>& boxes, std::atomic<std::int64_t>& live, Failure& failure)
      : boxes_(boxes), live_(live), failure_(failure) {}

  // Tasks wake a sleeping receiver; a strategy message waits for its next look (at most its
  // back-off sleep, 320 us), as under MPI. Waking costs the sender a system call and, on this
  // 2-core machine, about 6 us in all: RID's load updates to an idle worker made the busy one
  // take 1.3 times as long as the sequential run (docs/predict.md, "What a prediction models").
  void send(NodeId to, Envelope&& e) override {
    Mailbox& box = boxes_[to];
    const bool tasks = e.type == detail::Envelope::Type::tasks;
    box.queue.enqueue(std::move(e));
    box.posted.fetch_add(1);
    if (tasks) box.ring();
  }

  void receive(WorkerCore& core) override {
    if (failure_.stop.load(std::memory_order_relaxed)) return core.stop();
    Mailbox& box = boxes_[core.self()];
    const std::uint64_t posted = box.posted.load(std::memory_order_acquire);
    if (posted == core.seen_posted()) return;
    core.seen_posted() = posted;
    Envelope batch[16];
    for (;;) {
      const std::size_t n = box.queue.try_dequeue_bulk(batch, 16);
      for (std::size_t i = 0; i < n; ++i) core.accept(std::move(batch[i]));
      if (n < 16) break;
    }
  }

  void before_tasks_leave(WorkerCore& core) override { settle(core); }

  bool idle(WorkerCore& core) override {
    settle(core);
    return over();
  }

  void pause(WorkerCore& core, std::chrono::microseconds time) override {
    Mailbox& box = boxes_[core.self()];
    box.sleeping.store(true);
    {
      std::unique_lock lock(box.mutex);
      box.bell.wait_for(lock, time, [&] { return box.posted.load() != core.seen_posted() || over(); });
    }
    box.sleeping.store(false, std::memory_order_relaxed);
  }

  void task_failed(WorkerCore&, std::exception_ptr error) override {
    {
      const std::lock_guard lock(failure_.mutex);
      if (!failure_.first) failure_.first = std::move(error);
      failure_.stop.store(true);
    }
    wake_all();
  }

private:
  // Adds this worker's spawned - completed since the last time to the shared count.
  void settle(WorkerCore& core) {
    const std::int64_t held = core.held_tasks();
    const std::int64_t delta = (held - reported_held_) + static_cast<std::int64_t>(core.tasks_out() - reported_out_) -
                               static_cast<std::int64_t>(core.tasks_in() - reported_in_);
    reported_held_ = held;
    reported_out_ = core.tasks_out();
    reported_in_ = core.tasks_in();
    if (delta != 0 && live_.fetch_add(delta) + delta == 0) wake_all();  // the last task is done
  }

  bool over() const { return live_.load() == 0 || failure_.stop.load(); }
  void wake_all() {
    for (Mailbox& box : boxes_) box.ring();
  }

  std::vector<Mailbox>& boxes_;
  std::atomic<std::int64_t>& live_;
  Failure& failure_;
  std::int64_t reported_held_ = 0;
  std::uint64_t reported_out_ = 0, reported_in_ = 0;
};

}  // namespace

RuntimeResult run_threads(detail::ByteApplication& app, const RuntimeConfig& config) {
  if (config.topology == nullptr || config.topology->size() == 0)
    throw InputError("threads engine: no topology; accepted: a topology of at least one node");
  detail::check_engine_config(config, "threads engine");
  const std::size_t n = config.topology->size();
  if (n > 4096) throw InputError(fmt::format("threads engine: {} workers; accepted: at most 4096", n));

  app.prepare(n);
  std::vector<Mailbox> boxes(n);
  std::atomic<std::int64_t> live{0};
  Failure failure;
  std::atomic<std::int64_t> bound{app.initial_bound()};
  std::vector<std::unique_ptr<ThreadsTransport>> transports;
  std::vector<std::unique_ptr<WorkerCore>> cores;
  const SimTime start = detail::clock_ns();
  for (NodeId w = 0; w < n; ++w) {
    transports.push_back(std::make_unique<ThreadsTransport>(boxes, live, failure));
    cores.push_back(std::make_unique<WorkerCore>(app, config, w, *transports.back(), bound, start));
    cores.back()->watch(&boxes[w].posted);
    cores.back()->push_roots();
  }
  // The roots are the first live tasks: each worker reports them as its own.
  for (NodeId w = 0; w < n; ++w) transports[w]->before_tasks_leave(*cores[w]);

  std::vector<std::thread> threads;
  const SimTime run_start = detail::clock_ns();
  for (NodeId w = 0; w < n; ++w)
    threads.emplace_back([&cores, w] { cores[w]->run(); });
  for (auto& t : threads) t.join();
  const SimTime elapsed = detail::clock_ns() - run_start;
  if (failure.first) std::rethrow_exception(failure.first);

  std::vector<WorkerStats> stats;
  std::vector<std::uint64_t> by_kind(config.strategy.info->message_kinds.size() + 1, 0);
  for (const auto& core : cores) {
    stats.push_back(core->stats(elapsed));
    for (std::size_t k = 0; k < by_kind.size(); ++k) by_kind[k] += core->messages_by_kind()[k];
  }
  RuntimeResult r = detail::collect("threads", config, to_seconds(elapsed), stats, by_kind);
  std::vector<std::byte> partials;
  for (NodeId w = 0; w < n; ++w) {
    const auto p = app.partial(w);
    partials.insert(partials.end(), p.begin(), p.end());
  }
  r.result = detail::combine_partials(app, partials);
  detail::add_warnings(app, config, r);
  return r;
}

}  // namespace dlbkit
