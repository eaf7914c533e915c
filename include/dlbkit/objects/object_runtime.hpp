#pragma once
/// \file
/// dlbkit::ObjectRuntime: persistent objects of an iterative program, measured in each phase
/// and moved between workers (threads or MPI ranks) by a phase strategy between phases, as
/// Charm++ and DARMA vt do for their programs, inside an ordinary one.
///
/// ```
/// struct Block { std::vector<double> u; template <class A> void serialize(A& a) { a(u); } };
/// using Halo = std::vector<double>;
///
/// dlbkit::ObjectRuntime<Block, Halo> rt(argc, argv);  // --engine --strategy --every --record ...
/// for (std::uint64_t id = 0; id < 64; ++id)            // each object on one worker of this process
///   if (rt.is_local(id % rt.workers())) rt.add(id, Block{...}, id % rt.workers());
/// for (int phase = 0; phase < 100; ++phase)
///   rt.run_phase([](Block& b, dlbkit::ObjectContext<Halo>& ctx) {
///     for (const auto& [from, halo] : ctx.received()) { ... }      // sent to it last phase
///     ...                                                           // the object's work
///     ctx.send((ctx.id() + 1) % 64, Halo{...});                     // reaches it next phase
///   });                                                             // balances every --every phases
/// const dlbkit::ObjectRunResult report = rt.finish();              // figures; --record, --timeline
/// ```
///
/// A phase runs every object's work once, each on the worker that holds it, the workers at
/// once, and times each call: that is the object's load (or ctx.set_load()'s). Messages sent
/// in a phase reach their objects, wherever they then live, before the next phase starts, in
/// the order of their senders' ids (and each sender's order): a program's results do not
/// depend on where its objects run. After every `every`-th phase (or one whose imbalance is
/// above `threshold`, or when the program calls balance()), the phase strategy reads the last
/// phase's loads (and, for a communication-aware one, the messages) and decides where each
/// object goes; the objects move (through serialization.hpp between processes) before the
/// next phase.
///
/// Engines as dlbkit::Runtime's (runtime.hpp): `threads` (a worker thread per node of the
/// topology), `mpi` (a worker per rank, on a duplicate of the given communicator), or
/// `sequential` (one worker). Under MPI the constructor, run_phase, balance, collect and finish
/// are collective. The work function
/// runs on several threads at once: it changes only its object and sends through ctx. An
/// exception thrown by it (or by a strategy, a serialiser, collect()'s function) comes out on
/// every rank; the runtime then refuses every call with an InputError and can only be
/// destroyed. docs/objects.md.

#include <dlbkit/error.hpp>
#include <dlbkit/objects/detail/object_store.hpp>
#include <dlbkit/objects/object_run_result.hpp>
#include <dlbkit/objects/object_runtime_options.hpp>
#include <dlbkit/runtime/detail/mpi_registration.hpp>
#include <dlbkit/runtime/serialization.hpp>

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlbkit {

/// A message as its object receives it: the sender's id and the message.
template <class Message>
struct Received {
  std::uint64_t from = 0;
  Message message;
};

/// What the work function knows of its object and how it sends.
template <class Message>
class ObjectContext {
public:
  std::uint64_t id() const { return id_; }
  NodeId worker() const { return worker_; }
  /// The phase running, from 0.
  std::size_t phase() const { return phase_; }
  /// The messages sent to this object in the last phase, by sender id.
  std::span<const Received<Message>> received() const { return *received_; }
  /// Sends `message` to the object `to`, which receives it in the next phase. InputError when
  /// there is no object `to`.
  void send(std::uint64_t to, Message message) {
    const ObjectIndex target = engine_->index_of(to);
    const NodeId owner = engine_->owners()[target];
    std::uint32_t record = 0;
    if (track_) {
      // The bytes: known from the type, or counted where the message is delivered, beyond
      // the timed work (serialised there anyway between processes).
      record = static_cast<std::uint32_t>(communications_->size());
      communications_->push_back(
          {.from = index_, .to = target, .messages = 1, .bytes = static_cast<double>(known_size(message).value_or(0))});
    }
    ++sent_;
    // To an object of this worker: straight to the inbox it reads next phase (this worker's
    // objects run in id order, so its inboxes stay in sender order); else by the outbox.
    if (owner == worker_ && direct_) (*inboxes_[target])[1 - unread_].push_back({id_, std::move(message)});
    else (*outbox_)[owner].push_back({target, record, id_, std::move(message)});
  }
  /// The load the balancer sees for this object in this phase, in seconds, in place of the
  /// measured time (a model of the program's own).
  void set_load(double seconds) {
    if (!(seconds >= 0 && seconds <= 1e12))
      throw InputError(fmt::format("ObjectContext::set_load({}); accepted: seconds in [0, 1e12]", seconds));
    load_ = seconds;
  }

private:
  template <class, class>
  friend class detail::ObjectStore;
  struct Outgoing {
    ObjectIndex to;
    std::uint32_t record;  // its entry in the sender worker's communications (when tracked)
    std::uint64_t from;
    Message message;
  };
  // An object's inboxes: the one it reads in a phase (`unread_`), the other filled for the next.
  using Inboxes = std::array<std::vector<Received<Message>>, 2>;
  const detail::ObjectEngine* engine_ = nullptr;
  std::vector<std::vector<Outgoing>>* outbox_ = nullptr;  // by destination worker
  Inboxes* const* inboxes_ = nullptr;                      // by index: this process's objects'
  std::size_t unread_ = 0;
  bool direct_ = false;  // whether messages to this worker's objects skip the outbox
  std::size_t sent_ = 0;
  std::vector<ObjectCommunication>* communications_ = nullptr;
  bool track_ = false;
  const std::vector<Received<Message>>* received_ = nullptr;
  std::uint64_t id_ = 0;
  ObjectIndex index_ = 0;
  NodeId worker_ = 0;
  std::size_t phase_ = 0;
  double load_ = -1;  // < 0: measured
};

template <class Object, class Message>
class ObjectRuntime {
public:
  /// Options from the command line (ObjectRuntimeOptions::parse). Throws InputError for bad
  /// options, an unknown strategy, a topology the strategy refuses or not of the rank count;
  /// the same on every rank.
  ObjectRuntime(int argc, char** argv, Communicator communicator = {})
      : ObjectRuntime(ObjectRuntimeOptions::parse(argc, argv), communicator) {}
  explicit ObjectRuntime(ObjectRuntimeOptions options = {}, Communicator communicator = {})
      : store_(std::move(options), std::nullopt, communicator) {}
  /// Runs `strategy`, a program's own (phases/phase_strategy.hpp: its name, create(), its
  /// parameters), in place of options.strategy; options.params are its parameters.
  ObjectRuntime(ObjectRuntimeOptions options, PhaseStrategyInfo strategy, Communicator communicator = {})
      : store_(std::move(options), std::optional<PhaseStrategyInfo>(std::move(strategy)), communicator) {}

  const ObjectRuntimeOptions& options() const { return store_.engine().options(); }
  /// threads, mpi or sequential (`auto` resolved).
  const std::string& engine() const { return store_.engine().engine(); }
  const Topology& topology() const { return store_.engine().topology(); }
  /// P, the number of workers.
  std::size_t workers() const { return store_.engine().workers(); }
  /// This process's rank in the communicator; 0 for threads and sequential.
  int rank() const { return store_.engine().rank(); }
  /// Whether `worker` runs in this process (every worker with threads; the rank's under MPI).
  bool is_local(NodeId worker) const { return store_.engine().is_local(worker); }

  /// Gives the runtime an object, on `worker`, one of this process's. Ids are the program's,
  /// unique over every process (checked by the next phase). Before the first phase, the
  /// objects to start with; after it, a new object from the next phase on, whose load until
  /// measured is `load` seconds, or without it the mean of its worker's objects' last loads.
  void add(std::uint64_t id, Object object, NodeId worker, std::optional<double> load = std::nullopt) {
    store_.add(id, std::move(object), worker, load);
  }

  /// Objects that come and go, after the first phase: each call names objects of this
  /// process, and takes effect at the next collective call (run_phase, balance, collect,
  /// finish), which throws a bad one's InputError on every rank (an id in use, an object not
  /// here, a merge across workers) and leaves the runtime refusing further calls. Until then
  /// worker_of() and for_each_object() show the last phase's objects. docs/objects.md.
  ///
  /// Destroys the object `id`, and the messages it has not read.
  void remove(std::uint64_t id) { store_.remove(id); }
  /// The object `id` becomes `objects`, with ids `children`, on its worker, and is destroyed
  /// (its unread messages with it). Each child's load until measured: the parent's last load
  /// times its weight, 1/k for each of k children without `weights` (equal shares); weights
  /// that sum above 1 are children that cost more than their parent (a refined mesh cell).
  void split(std::uint64_t id, const std::vector<std::uint64_t>& children, std::vector<Object> objects,
             const std::vector<double>& weights = {}) {
    store_.split(id, children, std::move(objects), weights);
  }
  /// The objects `ids`, all on one worker, become `object` with id `id` there (their unread
  /// messages are dropped); its load until measured is the sum of theirs, times `weight`
  /// (below 1: a coarsened cell that costs less than its children).
  void merge(const std::vector<std::uint64_t>& ids, std::uint64_t id, Object object, double weight = 1) {
    store_.merge(ids, id, std::move(object), weight);
  }
  /// The object `id` goes to `worker` (any process's) for the next phase, after the balancing
  /// step if one is due: how a program brings objects together for a merge.
  void move(std::uint64_t id, NodeId worker) { store_.move(id, worker); }

  /// Runs one phase: work(Object&, ObjectContext<Message>&) on every object, then delivers the
  /// messages, then balances when a step is due. Collective.
  template <class Work>
  void run_phase(Work&& work) {
    static_assert(std::is_invocable_v<Work&, Object&, ObjectContext<Message>&>,
                  "dlbkit::ObjectRuntime::run_phase(work): work must be callable as "
                  "work(Object&, dlbkit::ObjectContext<Message>&)");
    store_.run_phase(work);
  }

  /// Balances now, on the last phase's loads, whatever `every` says. Collective.
  void balance() { store_.balance(); }

  std::size_t phases() const { return store_.phases(); }
  /// The worker that holds object `id` (InputError when there is none); after the first phase.
  NodeId worker_of(std::uint64_t id) const { return store_.engine().owners()[store_.engine().index_of(id)]; }
  /// Calls f(id, const Object&) for each of this process's objects, by worker, in id order.
  template <class F>
  void for_each_object(F&& f) const {
    store_.for_each_object(f);
  }

  /// f(id, const Object&) of every object of every process, in id order, on every rank (a
  /// checksum, a field to write): a T that serialization.hpp carries. Collective.
  template <class F>
  auto collect(F&& f) {
    return store_.collect(f);
  }

  /// Ends the run: writes --record and --timeline where asked, and returns the figures, on
  /// every rank. Collective.
  ObjectRunResult finish() { return store_.finish(); }
  /// The figures so far.
  const ObjectRunResult& report() const { return store_.engine().report(); }

private:
  detail::ObjectStore<Object, Message> store_;
};

}  // namespace dlbkit
