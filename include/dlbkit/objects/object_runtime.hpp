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
/// const dlbkit::ObjectRunReport report = rt.finish();              // figures; --record, --timeline
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
#include <dlbkit/objects/detail/object_engine.hpp>
#include <dlbkit/objects/object_report.hpp>
#include <dlbkit/objects/object_runtime_options.hpp>
#include <dlbkit/runtime/detail/mpi_registration.hpp>
#include <dlbkit/runtime/serialization.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
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

template <class Object, class Message>
class ObjectRuntime;

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
    if (track_) {
      double bytes = sizeof(Message);
      if constexpr (!travels_as_bytes<Message>) {
        to_bytes(message, scratch_);
        bytes = static_cast<double>(scratch_.size());
      }
      communications_->push_back({.from = index_, .to = target, .messages = 1, .bytes = bytes});
    }
    (*outbox_)[engine_->owners()[target]].push_back({target, id_, std::move(message)});
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
  friend class ObjectRuntime;
  struct Outgoing {
    ObjectIndex to;
    std::uint64_t from;
    Message message;
  };
  const detail::ObjectEngine* engine_ = nullptr;
  std::vector<std::vector<Outgoing>>* outbox_ = nullptr;  // by destination worker
  std::vector<ObjectCommunication>* communications_ = nullptr;
  bool track_ = false;
  std::vector<std::byte> scratch_;
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
      : ObjectRuntime(std::move(options), std::nullopt, communicator) {}
  /// Runs `strategy`, a program's own (phases/phase_strategy.hpp: its name, create(), its
  /// parameters), in place of options.strategy; options.params are its parameters.
  ObjectRuntime(ObjectRuntimeOptions options, PhaseStrategyInfo strategy, Communicator communicator = {})
      : ObjectRuntime(std::move(options), std::optional<PhaseStrategyInfo>(std::move(strategy)), communicator) {}

  const ObjectRuntimeOptions& options() const { return engine_.options(); }
  /// threads, mpi or sequential (`auto` resolved).
  const std::string& engine() const { return engine_.engine(); }
  const Topology& topology() const { return engine_.topology(); }
  /// P, the number of workers.
  std::size_t workers() const { return engine_.workers(); }
  /// This process's rank in the communicator; 0 for threads and sequential.
  int rank() const { return engine_.rank(); }
  /// Whether `worker` runs in this process (every worker with threads; the rank's under MPI).
  bool is_local(NodeId worker) const { return engine_.is_local(worker); }

  /// Gives the runtime an object, on `worker`, one of this process's; before the first phase.
  /// Ids are the program's, unique over every process (checked by the first phase).
  void add(std::uint64_t id, Object object, NodeId worker) {
    if (engine_.committed())
      throw InputError(fmt::format("ObjectRuntime::add({}) after the first phase (or collect()); accepted: objects "
                                   "added before it",
                                   id));
    if (!is_local(worker))
      throw InputError(fmt::format("ObjectRuntime::add({}) on worker {}; accepted: a worker of this process ({} to {})",
                                   id, worker, engine_.first_local(), engine_.first_local() + engine_.local_workers() - 1));
    added_.emplace_back(id, worker);
    slots_[worker - engine_.first_local()].push_back({id, 0, std::move(object), {}});
  }

  /// Runs one phase: work(Object&, ObjectContext<Message>&) on every object, then delivers the
  /// messages, then balances when a step is due. Collective.
  template <class Work>
  void run_phase(Work&& work) {
    static_assert(std::is_invocable_v<Work&, Object&, ObjectContext<Message>&>,
                  "dlbkit::ObjectRuntime::run_phase(work): work must be callable as "
                  "work(Object&, dlbkit::ObjectContext<Message>&)");
    usable([&] { phase(work); });
  }

  /// Balances now, on the last phase's loads, whatever `every` says. Collective.
  void balance() {
    if (phases_ == 0) throw InputError("ObjectRuntime::balance() before any phase; accepted: after run_phase()");
    usable([&] { migrate(); });
  }

  std::size_t phases() const { return phases_; }
  /// The worker that holds object `id` (InputError when there is none); after the first phase.
  NodeId worker_of(std::uint64_t id) const { return engine_.owners()[engine_.index_of(id)]; }
  /// Calls f(id, const Object&) for each of this process's objects, by worker, in id order.
  template <class F>
  void for_each_object(F&& f) const {
    for (const auto& mine : slots_)
      for (const Slot& s : mine) f(s.id, s.object);
  }

  /// f(id, const Object&) of every object of every process, in id order, on every rank (a
  /// checksum, a field to write): a T that serialization.hpp carries. Collective.
  template <class F>
  auto collect(F&& f) {
    using T = std::decay_t<std::invoke_result_t<F&, std::uint64_t, const Object&>>;
    std::vector<T> out;
    usable([&] {
      if (!engine_.committed()) commit();
      std::vector<std::pair<ObjectIndex, T>> mine;
      std::vector<std::byte> bytes;
      agreed([&] {
        for (const auto& slots : slots_)
          for (const Slot& s : slots) mine.emplace_back(s.index, f(s.id, s.object));
        if (engine_.distributed()) to_bytes(mine, bytes);
      });
      if (engine_.distributed()) {
        const auto all = engine_.all_gather(bytes);
        agreed([&] {
          mine.clear();
          for (const std::vector<std::byte>& from : all)
            for (auto& entry : from_bytes<std::vector<std::pair<ObjectIndex, T>>>(from)) mine.push_back(std::move(entry));
        });
      }
      std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      out.reserve(mine.size());
      for (auto& entry : mine) out.push_back(std::move(entry.second));
    });
    return out;
  }

  /// Ends the run: writes --record and --timeline where asked, and returns the figures, on
  /// every rank. Collective.
  ObjectRunReport finish() {
    ObjectRunReport out;
    usable([&] { out = engine_.finish(); });
    return out;
  }
  /// The figures so far.
  const ObjectRunReport& report() const { return engine_.report(); }

private:
  using Outgoing = typename ObjectContext<Message>::Outgoing;
  ObjectRuntime(ObjectRuntimeOptions options, std::optional<PhaseStrategyInfo> own, Communicator communicator)
      : engine_(std::move(options), std::move(own), communicator), slots_(engine_.local_workers()),
        outbox_(engine_.local_workers(), std::vector<std::vector<Outgoing>>(engine_.workers())),
        communications_(engine_.local_workers()) {}
  struct Slot {
    std::uint64_t id;
    ObjectIndex index;
    Object object;
    std::vector<Received<Message>> inbox;
  };

  // Runs a public call's body; after an exception the runtime refuses every call (its
  // objects and messages may be half moved).
  template <class F>
  void usable(F&& body) {
    if (broken_)
      throw InputError("ObjectRuntime: a call after one that failed; accepted: a new ObjectRuntime after an error");
    try {
      body();
    } catch (...) {
      broken_ = true;
      throw;
    }
  }
  // Runs `f`; an exception in it on any rank comes out on every rank, before the collective
  // that follows, which the others would otherwise wait in.
  template <class F>
  void agreed(F&& f) {
    std::exception_ptr error;
    try {
      f();
    } catch (...) {
      error = std::current_exception();
    }
    engine_.agree(error);
  }

  template <class Work>
  void phase(Work& work) {
    if (!engine_.committed()) commit();
    engine_.begin_phase();
    std::vector<detail::Clock::time_point> work_end(slots_.size());
    const bool track = engine_.tracks_communications();
    engine_.for_each_worker([&](NodeId w) {
      const std::size_t local = w - engine_.first_local();
      ObjectContext<Message> ctx;
      ctx.engine_ = &engine_;
      ctx.outbox_ = &outbox_[local];
      ctx.communications_ = &communications_[local];
      ctx.track_ = track;
      ctx.worker_ = w;
      ctx.phase_ = phases_;
      for (Slot& s : slots_[local]) {
        ctx.received_ = &s.inbox;
        ctx.id_ = s.id;
        ctx.index_ = s.index;
        ctx.load_ = -1;
        const auto start = detail::Clock::now();
        work(s.object, ctx);
        const auto end = detail::Clock::now();
        loads_[s.index] = ctx.load_ >= 0 ? ctx.load_ : std::chrono::duration<double>(end - start).count();
        s.inbox.clear();
      }
      work_end[local] = detail::Clock::now();
    });
    engine_.end_work(work_end);
    deliver();
    last_communications_.clear();
    for (auto& c : communications_) {
      last_communications_.insert(last_communications_.end(), c.begin(), c.end());
      c.clear();
    }
    ++phases_;
    if (engine_.end_phase(loads_, last_communications_)) migrate();
  }

  // The first phase: the table of every process's objects, and each slot's index in it.
  void commit() {
    engine_.commit(added_);
    for (auto& mine : slots_)
      for (Slot& s : mine) s.index = engine_.index_of(s.id);
    std::vector<std::pair<std::uint64_t, NodeId>>().swap(added_);
    for (auto& mine : slots_)
      std::sort(mine.begin(), mine.end(), [](const Slot& a, const Slot& b) { return a.index < b.index; });
    index_slots();
    loads_.assign(engine_.ids().size(), 0.0);
  }

  // Each message to its object's inbox, by sender id.
  void deliver() {
    if (!engine_.distributed()) {
      engine_.for_each_worker([&](NodeId w) {
        const std::size_t local = w - engine_.first_local();
        for (auto& from : outbox_) {
          for (Outgoing& m : from[w]) slot(m.to).inbox.push_back({m.from, std::move(m.message)});
          from[w].clear();
        }
        sort_inboxes(local);
      });
      return;
    }
    const auto me = static_cast<NodeId>(engine_.rank());
    std::vector<std::vector<std::byte>> to(engine_.workers());
    agreed([&] {
      for (NodeId r = 0; r < engine_.workers(); ++r) {
        for (Outgoing& m : outbox_[0][r]) {
          if (r == me) {
            slot(m.to).inbox.push_back({m.from, std::move(m.message)});
            continue;
          }
          append_bytes(m.to, to[r]);
          append_bytes(m.from, to[r]);
          put_sized(to[r], m.message);
        }
        outbox_[0][r].clear();
      }
    });
    const auto received = engine_.all_to_all(to);
    agreed([&] {
      for (const std::vector<std::byte>& bytes : received) {
        std::size_t at = 0;
        while (at < bytes.size()) {
          const auto target = get<ObjectIndex>(bytes, at);
          const auto from = get<std::uint64_t>(bytes, at);
          const auto size = get<std::uint64_t>(bytes, at);
          slot(target).inbox.push_back({from, from_bytes<Message>(std::span(bytes).subspan(at, size))});
          at += size;
        }
      }
      sort_inboxes(0);
    });
  }

  void sort_inboxes(std::size_t local) {
    for (Slot& s : slots_[local])
      std::stable_sort(s.inbox.begin(), s.inbox.end(), [](const auto& a, const auto& b) { return a.from < b.from; });
  }

  // The strategy's decision, then each object that changes worker moves, with its inbox.
  void migrate() {
    const std::vector<NodeId> old = engine_.owners();
    const std::vector<NodeId>& now = engine_.decide(loads_, last_communications_);
    double bytes = 0;
    if (!engine_.distributed()) {
      std::vector<std::vector<Slot>> moved(slots_.size());
      for (auto& mine : slots_) {
        auto stays = std::stable_partition(mine.begin(), mine.end(), [&](const Slot& s) { return now[s.index] == old[s.index]; });
        for (auto it = stays; it != mine.end(); ++it) moved[now[it->index] - engine_.first_local()].push_back(std::move(*it));
        mine.erase(stays, mine.end());
      }
      for (std::size_t w = 0; w < slots_.size(); ++w)
        for (Slot& s : moved[w]) slots_[w].push_back(std::move(s));
    } else {
      std::vector<std::vector<std::byte>> to(engine_.workers());
      auto& mine = slots_[0];
      agreed([&] {
        auto stays =
            std::stable_partition(mine.begin(), mine.end(), [&](const Slot& s) { return now[s.index] == old[s.index]; });
        for (auto it = stays; it != mine.end(); ++it) {
          std::vector<std::byte>& out = to[now[it->index]];
          const std::size_t before = out.size();
          append_bytes(it->index, out);
          append_bytes(it->id, out);
          put_sized(out, it->object);
          append_bytes(static_cast<std::uint64_t>(it->inbox.size()), out);
          for (const Received<Message>& r : it->inbox) {
            append_bytes(r.from, out);
            put_sized(out, r.message);
          }
          bytes += static_cast<double>(out.size() - before);
        }
        mine.erase(stays, mine.end());
      });
      const auto received = engine_.all_to_all(to);
      agreed([&] {
        for (const std::vector<std::byte>& in : received) {
          std::size_t at = 0;
          while (at < in.size()) {
            Slot s{0, get<ObjectIndex>(in, at), {}, {}};
            s.id = get<std::uint64_t>(in, at);
            const auto size = get<std::uint64_t>(in, at);
            s.object = from_bytes<Object>(std::span(in).subspan(at, size));
            at += size;
            const auto messages = get<std::uint64_t>(in, at);
            for (std::uint64_t k = 0; k < messages; ++k) {
              const auto from = get<std::uint64_t>(in, at);
              const auto length = get<std::uint64_t>(in, at);
              s.inbox.push_back({from, from_bytes<Message>(std::span(in).subspan(at, length))});
              at += length;
            }
            mine.push_back(std::move(s));
          }
        }
      });
    }
    for (auto& mine : slots_)
      std::sort(mine.begin(), mine.end(), [](const Slot& a, const Slot& b) { return a.index < b.index; });
    index_slots();
    engine_.end_migration(old, bytes);
  }

  void index_slots() {
    position_.assign(engine_.ids().size(), 0);
    for (auto& mine : slots_)
      for (std::size_t k = 0; k < mine.size(); ++k) position_[mine[k].index] = static_cast<std::uint32_t>(k);
  }
  Slot& slot(ObjectIndex index) { return slots_[engine_.owners()[index] - engine_.first_local()][position_[index]]; }

  // The byte count of `value`'s serialisation, then the bytes.
  template <class T>
  static void put_sized(std::vector<std::byte>& out, const T& value) {
    const std::size_t at = out.size();
    append_bytes(std::uint64_t{0}, out);
    append_bytes(value, out);
    const std::uint64_t size = out.size() - at - sizeof(std::uint64_t);
    std::memcpy(out.data() + at, &size, sizeof size);
  }
  template <class T>
  static T get(const std::vector<std::byte>& in, std::size_t& at) {
    T value;
    std::memcpy(&value, in.data() + at, sizeof(T));
    at += sizeof(T);
    return value;
  }

  detail::ObjectEngine engine_;
  std::vector<std::pair<std::uint64_t, NodeId>> added_;
  std::vector<std::vector<Slot>> slots_;                      // by local worker, in index order
  std::vector<std::vector<std::vector<Outgoing>>> outbox_;    // by local worker, by destination worker
  std::vector<std::vector<ObjectCommunication>> communications_;  // by local worker (when tracked)
  std::vector<std::uint32_t> position_;  // a local object's place in its worker's slots
  std::vector<double> loads_;            // by index; this process's objects' are written
  std::vector<ObjectCommunication> last_communications_;  // the last phase's, this process's
  std::size_t phases_ = 0;
  bool broken_ = false;  // a call failed: the runtime refuses the next ones
};

}  // namespace dlbkit
