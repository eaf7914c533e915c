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
#include <limits>
#include <numeric>
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
    // A record's object sizes: what a migration after the phase ships of each object (pack's
    // bytes): the object and the messages it has not read yet, which move with it (relocate);
    // and the times to pack and unpack them, which depend on their types as much as on the
    // bytes. Each is packed into a buffer of its own, made anew, and unpacked from it.
    engine_.measure_sizes_with([this](std::vector<double>& bytes, std::vector<double>& pack_seconds,
                                      std::vector<double>& unpack_seconds) {
      for (const auto& mine : slots_)
        for (const Slot& s : mine) {
          std::vector<std::byte> packed;
          auto start = detail::Clock::now();
          pack(s, packed);
          pack_seconds[s.index] = std::chrono::duration<double>(detail::Clock::now() - start).count();
          bytes[s.index] = static_cast<double>(packed.size());
          std::size_t at = 0;
          start = detail::Clock::now();
          const Slot copy = unpack(packed, at);
          unpack_seconds[s.index] = std::chrono::duration<double>(detail::Clock::now() - start).count();
        }
    });
  }

  const ObjectEngine& engine() const { return engine_; }
  std::size_t phases() const { return phases_; }

  // Bad input, before the first phase too, waits for the next collective call (fail): thrown
  // here on one rank, it would leave the others waiting in that call.
  void add(std::uint64_t id, Object object, NodeId worker, std::optional<double> load) {
    if (!engine_.is_local(worker))
      return fail(fmt::format("ObjectRuntime::add({}) on worker {}; accepted: a worker of this process ({} to {})", id,
                              worker, engine_.first_local(), engine_.first_local() + engine_.local_workers() - 1));
    if (load && !(*load >= 0 && *load <= 1e12))
      return fail(fmt::format("ObjectRuntime::add({}) with load {}; accepted: seconds in [0, 1e12]", id, *load));
    if (engine_.committed())
      return born(TableChanges::added, id, id, worker, load ? *load : mean_load(worker), {}, std::move(object));
    added_.emplace_back(id, worker);
    slots_[worker - engine_.first_local()].push_back({id, 0, std::move(object), {}});
  }

  void remove(std::uint64_t id) {
    if (const ObjectIndex i = held("remove", id); i != Renumbering::none) kill(i);
  }

  void split(std::uint64_t id, std::span<const std::uint64_t> children, std::vector<Object> objects,
             std::span<const double> weights) {
    const ObjectIndex i = held("split", id);
    if (i == Renumbering::none) return;
    if (children.empty() || objects.size() != children.size() ||
        (!weights.empty() && weights.size() != children.size()))
      return fail(fmt::format("ObjectRuntime::split({}) into {} ids, {} objects and {} weights; accepted: as many "
                              "objects as ids (at least one), and as many weights or none",
                              id, children.size(), objects.size(), weights.size()));
    for (double w : weights)
      if (!(w >= 0 && w <= 1e6))
        return fail(fmt::format("ObjectRuntime::split({}) with weight {}; accepted: a fraction of the parent's load "
                                "from 0 to 1e6",
                                id, w));
    const NodeId worker = engine_.owners()[i];
    const double load = loads_[i];
    kill(i);
    for (std::size_t k = 0; k < children.size(); ++k) {
      const double share = weights.empty() ? 1.0 / static_cast<double>(children.size()) : weights[k];
      born(TableChanges::split_off, children[k], id, worker, load * share, {{i, share}}, std::move(objects[k]));
    }
  }

  void merge(std::span<const std::uint64_t> ids, std::uint64_t id, Object object, double weight) {
    if (ids.empty()) return fail(fmt::format("ObjectRuntime::merge of no object into {}; accepted: one or more", id));
    if (!(weight >= 0 && weight <= 1e6))
      return fail(fmt::format("ObjectRuntime::merge into {} with weight {}; accepted: a fraction of the parts' load "
                              "from 0 to 1e6",
                              id, weight));
    const ObjectIndex first = find(ids[0]);
    for (std::uint64_t from : ids)  // on workers of one process or not, the same words
      if (const ObjectIndex i = find(from); first != Renumbering::none && i != Renumbering::none &&
                                            engine_.owners()[i] != engine_.owners()[first])
        return fail(fmt::format("ObjectRuntime::merge: object {} on worker {} and object {} on worker {}; accepted: "
                                "objects on one worker (move them there first: move() takes effect at the next "
                                "phase)",
                                ids[0], engine_.owners()[first], from, engine_.owners()[i]));
    std::vector<std::pair<ObjectIndex, double>> parts;
    double load = 0;
    for (std::uint64_t from : ids) {
      const ObjectIndex i = held("merge", from);
      if (i == Renumbering::none) return;
      kill(i);
      parts.emplace_back(i, weight);
      load += weight * loads_[i];
    }
    const NodeId worker = engine_.owners()[parts[0].first];
    born(TableChanges::merged, id, ids[0], worker, load, std::move(parts), std::move(object));
  }

  void move(std::uint64_t id, NodeId worker) {
    if (held("move", id) == Renumbering::none) return;
    if (worker >= engine_.workers())
      return fail(fmt::format("ObjectRuntime::move({}, {}); accepted: a worker from 0 to {}", id, worker,
                              engine_.workers() - 1));
    changes_.moves.emplace_back(id, worker);
  }

  template <class Work>
  void run_phase(Work& work) {
    usable([&] { phase(work); });
  }

  void balance() {
    if (phases_ == 0) throw InputError("ObjectRuntime::balance() before any phase; accepted: after run_phase()");
    usable([&] {
      sync();
      if (engine_.step_due()) migrate();
      migrate();
      take_moves();
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
      sync();
      std::vector<std::pair<ObjectIndex, T>> mine;
      std::vector<std::byte> bytes;
      on_every_rank(engine_, [&] {
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
        on_every_rank(engine_, [&] {
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
    usable([&] {
      sync();
      out = engine_.finish();
    });
    return out;
  }

private:
  using Outgoing = typename ObjectContext<Message>::Outgoing;
  using Inboxes = typename ObjectContext<Message>::Inboxes;
  struct Slot {
    std::uint64_t id;
    ObjectIndex index;
    Object object;
    Inboxes inboxes;  // the messages not yet read are in inboxes[phases_ % 2] between phases
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
  template <class Work>
  void phase(Work& work) {
    sync();
    if (engine_.step_due()) migrate();  // the step after the last phase, now that another runs
    take_moves();
    engine_.begin_phase();
    std::vector<detail::Clock::time_point> work_end(slots_.size());
    std::vector<double> worker_load(slots_.size());
    std::vector<std::size_t> sent(slots_.size());
    const bool track = engine_.tracks_communications();
    const std::size_t unread = phases_ % 2;
    engine_.for_each_worker([&](NodeId w) {
      const std::size_t local = w - engine_.first_local();
      ObjectContext<Message> ctx;
      ctx.engine_ = &engine_;
      ctx.outbox_ = &outbox_[local];
      ctx.inboxes_ = inboxes_.data();
      ctx.unread_ = unread;
      ctx.direct_ = !counts_bytes();
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
        ctx.received_ = &s.inboxes[unread];
        ctx.id_ = s.id;
        ctx.index_ = s.index;
        ctx.load_ = -1;
        work(s.object, ctx);
        s.inboxes[unread].clear();
        const std::uint64_t now = std::max(detail::ticks(), last);  // a count that went back: 0
        loads_[s.index] = static_cast<double>(static_cast<std::int64_t>(now - last));  // signed: one instruction
        last = now;
        if (ctx.load_ >= 0) set.emplace_back(s.index, ctx.load_);
      }
      work_end[local] = detail::Clock::now();
      sent[local] = ctx.sent_;
      const double seconds_per_tick =
          last > first ? std::chrono::duration<double>(work_end[local] - start).count() / static_cast<double>(last - first) : 0;
      double sum = 0;  // over the indices, not the slots: a pass over 4 bytes an object, not a slot's
      for (ObjectIndex i : indices_[local]) sum += loads_[i] *= seconds_per_tick;
      if (!set.empty()) {
        for (const auto& [index, seconds] : set) loads_[index] = seconds;
        sum = 0;
        for (ObjectIndex i : indices_[local]) sum += loads_[i];
      }
      worker_load[local] = sum;
    });
    engine_.end_work(work_end, worker_load);
    const std::size_t messages = std::accumulate(sent.begin(), sent.end(), std::size_t{0});
    if (engine_.records() && engine_.distributed()) on_every_rank(engine_, [&] { measure_packing(); });
    const double message_bytes = deliver(1 - unread);
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

  // Every collective call starts here: the table made or changed (add, remove, split, merge,
  // move since the last phase), and a bad change an InputError on every rank.
  void sync() {
    if (!engine_.committed()) {
      on_every_rank(engine_, [&] {
        if (!changes_.error.empty()) throw InputError(changes_.error);
      });
      commit();
      return;
    }
    if (changes_.empty() && !engine_.distributed()) return;  // the phases' usual path
    const TableChanges mine = std::exchange(changes_, {});
    std::vector<std::pair<NodeId, Slot>> born = std::exchange(born_, {});
    dying_.clear();
    const std::optional<Renumbering> r = engine_.recommit(mine);
    if (!r) return;
    for (auto& slots : slots_) {
      std::erase_if(slots, [&](const Slot& s) { return r->new_of[s.index] == Renumbering::none; });
      for (Slot& s : slots) s.index = r->new_of[s.index];
    }
    for (auto& [worker, s] : born) {
      s.index = engine_.index_of(s.id);
      slots_[worker - engine_.first_local()].push_back(std::move(s));
    }
    for (auto& slots : slots_)
      std::sort(slots.begin(), slots.end(), [](const Slot& a, const Slot& b) { return a.index < b.index; });
    index_slots();
    std::vector<double> loads(r->old_of.size());
    for (ObjectIndex k = 0; k < loads.size(); ++k)
      loads[k] = r->old_of[k] != Renumbering::none ? loads_[r->old_of[k]] : r->load[k];
    loads_.swap(loads);
    // The last phase's communications between objects that stay, for a step that reads them.
    std::erase_if(last_communications_, [&](ObjectCommunication& c) {
      c.from = r->new_of[c.from];
      c.to = r->new_of[c.to];
      return c.from == Renumbering::none || c.to == Renumbering::none;
    });
  }

  // A change's bad input: kept until the next collective call, which throws it on every rank.
  void fail(std::string message) {
    if (changes_.error.empty()) changes_.error = std::move(message);
  }
  // The index of `id`, one of this process's objects unchanged since the last phase; none
  // (and fail()) otherwise.
  ObjectIndex held(const char* call, std::uint64_t id) {
    if (!changes_.error.empty()) return Renumbering::none;  // the first error is the one told
    if (!engine_.committed()) {
      fail(fmt::format("ObjectRuntime::{}({}) before the first phase; accepted: after it (before it, add() the objects "
                       "to start with)",
                       call, id));
      return Renumbering::none;
    }
    const ObjectIndex i = find(id);
    if (i == Renumbering::none) {
      fail(fmt::format("ObjectRuntime::{}({}): no object {}; accepted: an object that ran the last phase", call, id,
                       id));
    } else if (!engine_.is_local(engine_.owners()[i])) {
      fail(fmt::format("ObjectRuntime::{}({}): the object is on worker {}; accepted: an object of this process's "
                       "workers ({} to {})",
                       call, id, engine_.owners()[i], engine_.first_local(),
                       engine_.first_local() + engine_.local_workers() - 1));
    } else if (!dying_.empty() && dying_[i]) {
      fail(fmt::format("ObjectRuntime::{}({}): the object is already removed, split or merged; accepted: an object "
                       "unchanged since the last phase",
                       call, id));
    } else {
      return i;
    }
    return Renumbering::none;
  }
  // The index of `id` in the table, none when it has none.
  ObjectIndex find(std::uint64_t id) const {
    const auto& ids = engine_.ids();
    const auto it = std::lower_bound(ids.begin(), ids.end(), id);
    return it == ids.end() || *it != id ? Renumbering::none : static_cast<ObjectIndex>(it - ids.begin());
  }
  void kill(ObjectIndex i) {
    if (dying_.empty()) dying_.assign(engine_.ids().size(), 0);
    dying_[i] = 1;
    changes_.deaths.push_back(i);
  }
  void born(TableChanges::Kind kind, std::uint64_t id, std::uint64_t parent, NodeId worker, double load,
            std::vector<std::pair<ObjectIndex, double>> parts, Object object) {
    if (!changes_.error.empty()) return;
    changes_.births.push_back({id, worker, kind, parent, load, std::move(parts)});
    born_.emplace_back(worker, Slot{id, 0, std::move(object), {}});
  }
  // A new object's load without a parent's: the mean of its worker's objects' last loads (NaN
  // when it has none: the engine takes every object's mean).
  double mean_load(NodeId worker) const {
    const auto& mine = slots_[worker - engine_.first_local()];
    if (mine.empty()) return std::numeric_limits<double>::quiet_NaN();
    double sum = 0;
    for (const Slot& s : mine) sum += loads_[s.index];
    return sum / static_cast<double>(mine.size());
  }

  // Each message of the outboxes to its object's inbox `next`, by sender id; the bytes sent to
  // other processes.
  double deliver(std::size_t next) {
    const bool count = counts_bytes();
    if (!engine_.distributed()) {
      engine_.for_each_worker([&](NodeId w) {
        std::vector<std::byte> scratch;
        Unsorted unsorted;
        for (std::size_t from = 0; from < outbox_.size(); ++from) {
          for (Outgoing& m : outbox_[from][w]) {
            if (count) count_bytes(from, m, scratch);
            post((*inboxes_[m.to])[next], m.from, std::move(m.message), unsorted);
          }
          outbox_[from][w].clear();
        }
        sort_inboxes(unsorted);
      });
      return 0;
    }
    const auto me = static_cast<NodeId>(engine_.rank());
    std::vector<std::vector<std::byte>>& to = emptied_sends();
    double bytes = 0;
    Unsorted unsorted;
    on_every_rank(engine_, [&] {
      std::vector<std::byte> scratch;
      for (NodeId r = 0; r < engine_.workers(); ++r) {
        for (Outgoing& m : outbox_[0][r]) {
          if (r == me) {
            if (count) count_bytes(0, m, scratch);
            post((*inboxes_[m.to])[next], m.from, std::move(m.message), unsorted);
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
    engine_.all_to_all(to, received_);
    on_every_rank(engine_, [&] {
      for (const std::vector<std::byte>& bytes : received_) {
        std::size_t at = 0;
        while (at < bytes.size()) {
          const auto target = get<ObjectIndex>(bytes, at);
          const auto from = get<std::uint64_t>(bytes, at);
          const auto size = get<std::uint64_t>(bytes, at);
          post((*inboxes_[target])[next], from, from_bytes<Message>(std::span(bytes).subspan(at, size)), unsorted);
          at += size;
        }
      }
      sort_inboxes(unsorted);
    });
    return bytes;
  }

  // A record's price of the messages between processes (ObjectEngine::measured_packing), under
  // MPI (threads pack nothing): this process's messages of the phase, wherever they go, up to
  // kKeptBytes of them, packed as deliver() packs those that leave the process, into a buffer
  // kept for the next phase as deliver()'s are, then unpacked from it into messages as
  // deliver() does.
  void measure_packing() {
    std::vector<std::byte>& packed = packing_;
    packed.clear();
    double bytes = 0;
    const auto start = detail::Clock::now();
    for (const auto& by_destination : outbox_)
      for (const std::vector<Outgoing>& messages : by_destination)
        for (auto m = messages.begin(); m != messages.end() && packed.size() < kKeptBytes; ++m) {
          append_bytes(m->to, packed);
          append_bytes(m->from, packed);
          bytes += static_cast<double>(put_sized(packed, m->message));
        }
    const auto packed_at = detail::Clock::now();
    std::vector<Message>& unpacked = unpacked_;
    for (std::size_t at = 0; at < packed.size();) {
      at += sizeof(ObjectIndex) + sizeof(std::uint64_t);
      const auto size = get<std::uint64_t>(packed, at);
      unpacked.push_back(from_bytes<Message>(std::span(packed).subspan(at, size)));
      at += size;
    }
    const auto end = detail::Clock::now();
    unpacked.clear();
    engine_.measured_packing(std::chrono::duration<double>(packed_at - start).count(),
                             std::chrono::duration<double>(end - packed_at).count(), bytes);
  }

  // A message's bytes in its communication, where its type does not tell them (send()).
  template <class T>
  static constexpr bool sized = travels_as_bytes<T> || travels_as_block<T>;
  // Whether a delivery counts the messages' bytes: then every message goes by the outbox.
  bool counts_bytes() const { return !sized<Message> && engine_.tracks_communications(); }
  void count_bytes(std::size_t sender_worker, const Outgoing& m, std::vector<std::byte>& scratch) {
    if constexpr (!sized<Message>) {
      to_bytes(m.message, scratch);
      communications_[sender_worker][m.record].bytes = static_cast<double>(scratch.size());
    }
  }

  // The inboxes a delivery left out of sender order (an inbox once for each message that came
  // after a later sender's), sorted after it: no pass over every inbox.
  using Unsorted = std::vector<std::vector<Received<Message>>*>;
  // Inlined: GCC made it a call, a tenth of a small object's cost.
  [[gnu::always_inline]] static void post(std::vector<Received<Message>>& inbox, std::uint64_t from, Message&& message,
                                          Unsorted& unsorted) {
    if (!inbox.empty() && inbox.back().from > from) unsorted.push_back(&inbox);
    inbox.push_back({from, std::move(message)});
  }
  static void sort_inboxes(const Unsorted& unsorted) {
    const auto by_sender = [](const auto& a, const auto& b) { return a.from < b.from; };
    for (std::vector<Received<Message>>* inbox : unsorted)  // sorted already when listed twice
      if (!std::is_sorted(inbox->begin(), inbox->end(), by_sender))
        std::stable_sort(inbox->begin(), inbox->end(), by_sender);
  }

  // The strategy's decision, then each object that changes worker moves, with its inbox.
  void migrate() {
    const std::vector<NodeId> old = engine_.owners();
    const double bytes = relocate(old, engine_.decide(loads_, last_communications_));
    engine_.end_migration(old, bytes);
  }

  // The program's moves, after the balancing step if one was due: they hold for the next phase.
  void take_moves() {
    if (!engine_.moves_pending()) return;
    const std::vector<NodeId> old = engine_.owners();
    relocate(old, engine_.take_moves());
  }

  // Each object whose worker is `now`'s, not `old`'s, moves there with its inbox; the bytes
  // this process sent.
  double relocate(const std::vector<NodeId>& old, const std::vector<NodeId>& now) {
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
      // deliver()'s buffers, idle between phases: their pages are the process's already.
      std::vector<std::vector<std::byte>>& to = emptied_sends();
      received_.resize(engine_.workers());  // rooms() below lists the same buffers after the exchange
      const std::vector<std::size_t> room = rooms();
      auto& mine = slots_[0];
      on_every_rank(engine_, [&] {
        auto stays =
            std::stable_partition(mine.begin(), mine.end(), [&](const Slot& s) { return now[s.index] == old[s.index]; });
        for (auto it = stays; it != mine.end(); ++it) {
          std::vector<std::byte>& out = to[now[it->index]];
          const std::size_t before = out.size();
          pack(*it, out);
          bytes += static_cast<double>(out.size() - before);
        }
        mine.erase(stays, mine.end());
      });
      engine_.all_to_all(to, received_);
      on_every_rank(engine_, [&] {
        for (const std::vector<std::byte>& in : received_) {
          std::size_t at = 0;
          while (at < in.size()) mine.push_back(unpack(in, at));
        }
      });
      // A large migration's room is not kept for the phases' messages: what it grew goes when
      // all the buffers would hold more than kKeptBytes.
      const std::vector<std::size_t> now_room = rooms();
      if (std::accumulate(now_room.begin(), now_room.end(), std::size_t{0}) > kKeptBytes) {
        std::size_t k = 0;
        for (auto* buffers : {&sent_, &received_})
          for (std::vector<std::byte>& buffer : *buffers)
            if (buffer.capacity() > room[k++]) std::vector<std::byte>().swap(buffer);
      }
    }
    for (auto& mine : slots_)
      std::sort(mine.begin(), mine.end(), [](const Slot& a, const Slot& b) { return a.index < b.index; });
    index_slots();
    return bytes;
  }

  // deliver()'s send buffers, one a rank, emptied with their room kept.
  std::vector<std::vector<std::byte>>& emptied_sends() {
    sent_.resize(engine_.workers());
    for (auto& buffer : sent_) buffer.clear();
    return sent_;
  }

  // The capacity of each of deliver()'s buffers, those sent then those received.
  std::vector<std::size_t> rooms() const {
    std::vector<std::size_t> room;
    for (const auto* buffers : {&sent_, &received_})
      for (const std::vector<std::byte>& buffer : *buffers) room.push_back(buffer.capacity());
    return room;
  }

  // What a migration ships of an object (relocate): its index and id, the object, and the
  // messages it has not read yet.
  void pack(const Slot& slot, std::vector<std::byte>& out) const {
    append_bytes(slot.index, out);
    append_bytes(slot.id, out);
    put_sized(out, slot.object);
    const auto& inbox = slot.inboxes[phases_ % 2];
    append_bytes(static_cast<std::uint64_t>(inbox.size()), out);
    for (const Received<Message>& r : inbox) {
      append_bytes(r.from, out);
      put_sized(out, r.message);
    }
  }
  // The slot that pack wrote at `at`, which it moves past.
  Slot unpack(const std::vector<std::byte>& in, std::size_t& at) const {
    Slot s{0, get<ObjectIndex>(in, at), {}, {}};
    s.id = get<std::uint64_t>(in, at);
    const auto size = get<std::uint64_t>(in, at);
    s.object = from_bytes<Object>(std::span(in).subspan(at, size));
    at += size;
    const auto messages = get<std::uint64_t>(in, at);
    for (std::uint64_t k = 0; k < messages; ++k) {
      const auto from = get<std::uint64_t>(in, at);
      const auto length = get<std::uint64_t>(in, at);
      s.inboxes[phases_ % 2].push_back({from, from_bytes<Message>(std::span(in).subspan(at, length))});
      at += length;
    }
    return s;
  }

  void index_slots() {
    inboxes_.assign(engine_.ids().size(), nullptr);
    indices_.resize(slots_.size());
    for (std::size_t w = 0; w < slots_.size(); ++w) {
      indices_[w].clear();
      for (Slot& s : slots_[w]) {
        inboxes_[s.index] = &s.inboxes;
        indices_[w].push_back(s.index);
      }
    }
  }

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
  // Since the last phase: the table's changes, the new objects (by worker), the objects
  // removed, split or merged (by index, when any).
  TableChanges changes_;
  std::vector<std::pair<NodeId, Slot>> born_;
  std::vector<char> dying_;
  std::vector<std::vector<Slot>> slots_;                      // by local worker, in index order
  std::vector<std::vector<std::vector<Outgoing>>> outbox_;    // by local worker, by destination worker
  std::vector<std::vector<ObjectCommunication>> communications_;  // by local worker (when tracked)
  std::vector<Inboxes*> inboxes_;        // by index: a local object's, in its slot
  std::vector<std::vector<ObjectIndex>> indices_;  // by local worker: its slots' indices, in order
  std::vector<double> loads_;            // by index; this process's objects' are written
  std::vector<std::vector<std::pair<ObjectIndex, double>>> set_loads_;  // by local worker: ctx.set_load()'s
  std::vector<ObjectCommunication> last_communications_;  // the last phase's, this process's
  // deliver()'s buffers between processes, kept from phase to phase: a phase's messages take
  // about the bytes of the last one's, and buffers made afresh each phase are fresh pages.
  // relocate() uses them too, and frees the room it added when they hold more than kKeptBytes.
  std::vector<std::vector<std::byte>> sent_, received_;
  static constexpr std::size_t kKeptBytes = std::size_t{16} << 20;  // as the MPI transport's spares
  // measure_packing()'s, kept likewise (a record's only).
  std::vector<std::byte> packing_;
  std::vector<Message> unpacked_;
  std::size_t phases_ = 0;
  bool broken_ = false;  // a call failed: the runtime refuses the next ones
};

}  // namespace dlbkit::detail
