#pragma once
/// \file
/// ObjectRuntime's machinery (objects/object_runtime.hpp): each process's objects by worker,
/// the messages between them, a phase's run and the moves a balancing step decides. What
/// does not depend on the program's types is ObjectEngine's (object_engine.hpp).

#include <dlbkit/error.hpp>
#include <dlbkit/objects/detail/object_engine.hpp>
#include <dlbkit/runtime/serialization.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <exception>
#include <optional>
#include <span>
#include <type_traits>
#include <utility>
#include <vector>

namespace dlbkit {
template <class Message>
struct Received;
template <class Message>
class ObjectContext;
}  // namespace dlbkit

namespace dlbkit::detail {

template <class Object, class Message>
class ObjectStore {
public:
  /// `own`: a program's own strategy in place of options.strategy.
  ObjectStore(ObjectRuntimeOptions options, std::optional<PhaseStrategyInfo> own, Communicator communicator)
      : engine_(std::move(options), std::move(own), communicator), slots_(engine_.local_workers()),
        outbox_(engine_.local_workers(), std::vector<std::vector<Outgoing>>(engine_.workers())),
        communications_(engine_.local_workers()), set_loads_(engine_.local_workers()) {
    // A record's object sizes: what a migration ships of each object (put_sized's payload).
    engine_.measure_sizes_with([this](std::vector<double>& bytes) {
      std::vector<std::byte> scratch;
      for (const auto& mine : slots_)
        for (const Slot& s : mine) {
          to_bytes(s.object, scratch);
          bytes[s.index] = static_cast<double>(scratch.size());
        }
    });
  }

  const ObjectEngine& engine() const { return engine_; }
  std::size_t phases() const { return phases_; }

  void add(std::uint64_t id, Object object, NodeId worker) {
    if (engine_.committed())
      throw InputError(fmt::format("ObjectRuntime::add({}) after the first phase (or collect()); accepted: objects "
                                   "added before it",
                                   id));
    if (!engine_.is_local(worker))
      throw InputError(fmt::format("ObjectRuntime::add({}) on worker {}; accepted: a worker of this process ({} to {})",
                                   id, worker, engine_.first_local(), engine_.first_local() + engine_.local_workers() - 1));
    added_.emplace_back(id, worker);
    slots_[worker - engine_.first_local()].push_back({id, 0, std::move(object), {}});
  }

  template <class Work>
  void run_phase(Work& work) {
    usable([&] { phase(work); });
  }

  void balance() {
    if (phases_ == 0) throw InputError("ObjectRuntime::balance() before any phase; accepted: after run_phase()");
    usable([&] {
      if (engine_.step_due()) migrate();
      migrate();
    });
  }

  template <class F>
  void for_each_object(F& f) const {
    for (const auto& mine : slots_)
      for (const Slot& s : mine) f(s.id, s.object);
  }

  template <class F>
  auto collect(F& f) {
    using T = std::decay_t<std::invoke_result_t<F&, std::uint64_t, const Object&>>;
    std::vector<T> out;
    usable([&] {
      if (!engine_.committed()) commit();
      std::vector<std::pair<ObjectIndex, T>> mine;
      std::vector<std::byte> bytes;
      agreed([&] {
        for (const auto& slots : slots_)
          for (const Slot& s : slots) mine.emplace_back(s.index, f(s.id, s.object));
        if (engine_.distributed())
          for (const auto& [index, value] : mine) {  // each value alone: T needs no cereal of its own
            append_bytes(index, bytes);
            put_sized(bytes, value);
          }
      });
      if (engine_.distributed()) {
        const auto all = engine_.all_gather(bytes);
        agreed([&] {
          mine.clear();
          for (const std::vector<std::byte>& from : all)
            for (std::size_t at = 0; at < from.size();) {
              const auto index = get<ObjectIndex>(from, at);
              const auto size = get<std::uint64_t>(from, at);
              mine.emplace_back(index, from_bytes<T>(std::span(from).subspan(at, size)));
              at += size;
            }
        });
      }
      std::sort(mine.begin(), mine.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      out.reserve(mine.size());
      for (auto& entry : mine) out.push_back(std::move(entry.second));
    });
    return out;
  }

  ObjectRunResult finish() {
    ObjectRunResult out;
    usable([&] { out = engine_.finish(); });
    return out;
  }

private:
  using Outgoing = typename ObjectContext<Message>::Outgoing;
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
    if (engine_.step_due()) migrate();  // the step after the last phase, now that another runs
    engine_.begin_phase();
    std::vector<detail::Clock::time_point> work_end(slots_.size());
    std::vector<double> worker_load(slots_.size());
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
      // One count of ticks between objects (an object's load: its work and the clearing of
      // its inbox), then the counts in seconds by this worker's span on the steady clock.
      std::vector<std::pair<ObjectIndex, double>>& set = set_loads_[local];
      set.clear();
      const auto start = detail::Clock::now();
      const std::uint64_t first = detail::ticks();
      std::uint64_t last = first;
      for (Slot& s : slots_[local]) {
        ctx.received_ = &s.inbox;
        ctx.id_ = s.id;
        ctx.index_ = s.index;
        ctx.load_ = -1;
        work(s.object, ctx);
        s.inbox.clear();
        const std::uint64_t now = detail::ticks();
        loads_[s.index] = now > last ? static_cast<double>(now - last) : 0.0;
        last = std::max(last, now);
        if (ctx.load_ >= 0) set.emplace_back(s.index, ctx.load_);
      }
      work_end[local] = detail::Clock::now();
      const double seconds_per_tick =
          last > first ? std::chrono::duration<double>(work_end[local] - start).count() / static_cast<double>(last - first) : 0;
      double sum = 0;
      for (const Slot& s : slots_[local]) sum += loads_[s.index] *= seconds_per_tick;
      if (!set.empty()) {
        for (const auto& [index, seconds] : set) loads_[index] = seconds;
        sum = 0;
        for (const Slot& s : slots_[local]) sum += loads_[s.index];
      }
      worker_load[local] = sum;
    });
    engine_.end_work(work_end, worker_load);
    std::size_t messages = 0;
    for (const auto& mine : outbox_)
      for (const auto& to : mine) messages += to.size();
    const double message_bytes = deliver();
    last_communications_.clear();
    for (auto& c : communications_) {
      last_communications_.insert(last_communications_.end(), c.begin(), c.end());
      c.clear();
    }
    ++phases_;
    engine_.end_phase(loads_, last_communications_, messages, message_bytes);
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

  // Each message to its object's inbox, by sender id; the bytes sent to other processes.
  double deliver() {
    const bool count = engine_.tracks_communications();  // the bytes of a type that does not know them
    if (!engine_.distributed()) {
      engine_.for_each_worker([&](NodeId w) {
        const std::size_t local = w - engine_.first_local();
        std::vector<std::byte> scratch;
        for (std::size_t from = 0; from < outbox_.size(); ++from) {
          for (Outgoing& m : outbox_[from][w]) {
            if (count) count_bytes(from, m, scratch);
            slot(m.to).inbox.push_back({m.from, std::move(m.message)});
          }
          outbox_[from][w].clear();
        }
        sort_inboxes(local);
      });
      return 0;
    }
    const auto me = static_cast<NodeId>(engine_.rank());
    std::vector<std::vector<std::byte>> to(engine_.workers());
    double bytes = 0;
    agreed([&] {
      std::vector<std::byte> scratch;
      for (NodeId r = 0; r < engine_.workers(); ++r) {
        for (Outgoing& m : outbox_[0][r]) {
          if (r == me) {
            if (count) count_bytes(0, m, scratch);
            slot(m.to).inbox.push_back({m.from, std::move(m.message)});
            continue;
          }
          append_bytes(m.to, to[r]);
          append_bytes(m.from, to[r]);
          const std::uint64_t size = put_sized(to[r], m.message);
          if constexpr (!sized<Message>)
            if (count) communications_[0][m.record].bytes = static_cast<double>(size);
        }
        outbox_[0][r].clear();
        bytes += static_cast<double>(to[r].size());
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
    return bytes;
  }

  // A message's bytes in its communication, where its type does not tell them (send()).
  template <class T>
  static constexpr bool sized = travels_as_bytes<T> || travels_as_block<T>;
  void count_bytes(std::size_t sender_worker, const Outgoing& m, std::vector<std::byte>& scratch) {
    if constexpr (!sized<Message>) {
      to_bytes(m.message, scratch);
      communications_[sender_worker][m.record].bytes = static_cast<double>(scratch.size());
    }
  }

  void sort_inboxes(std::size_t local) {
    const auto by_sender = [](const auto& a, const auto& b) { return a.from < b.from; };
    for (Slot& s : slots_[local])  // stable_sort takes a buffer from the heap even when sorted
      if (!std::is_sorted(s.inbox.begin(), s.inbox.end(), by_sender))
        std::stable_sort(s.inbox.begin(), s.inbox.end(), by_sender);
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

  // The byte count of `value`'s serialisation, then the bytes; returns the count.
  template <class T>
  static std::uint64_t put_sized(std::vector<std::byte>& out, const T& value) {
    const std::size_t at = out.size();
    append_bytes(std::uint64_t{0}, out);
    append_bytes(value, out);
    const std::uint64_t size = out.size() - at - sizeof(std::uint64_t);
    std::memcpy(out.data() + at, &size, sizeof size);
    return size;
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
  std::vector<std::vector<std::pair<ObjectIndex, double>>> set_loads_;  // by local worker: ctx.set_load()'s
  std::vector<ObjectCommunication> last_communications_;  // the last phase's, this process's
  std::size_t phases_ = 0;
  bool broken_ = false;  // a call failed: the runtime refuses the next ones
};

}  // namespace dlbkit::detail
