#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/objects/detail/object_engine.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/objects/detail/protocol_driver.hpp>
#include <dlbkit/objects/speed_estimate.hpp>
#include <dlbkit/phases/figures.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/speeds.hpp>
#include <dlbkit/phases/vt_data.hpp>
#include <dlbkit/runtime/detail/distributed_engine.hpp>
#include <dlbkit/runtime/serialization.hpp>
#include <dlbkit/sim/timeline.hpp>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <condition_variable>
#include <deque>
#include <cstring>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <limits>
#include <mutex>
#include <numeric>
#include <thread>

namespace dlbkit::detail {

namespace {

template <class T>
std::vector<T> read_all(std::span<const std::byte> in) {
  std::vector<T> out(in.size() / sizeof(T));
  if (!out.empty()) std::memcpy(out.data(), in.data(), out.size() * sizeof(T));
  return out;
}

// The workers' loads' max, mean and imbalance max / mean - 1 (0 without load).
void set_loads(ObjectPhaseFigures& figures, const std::vector<double>& loads) {
  double sum = 0;
  for (double l : loads) {
    figures.max_load = std::max(figures.max_load, l);
    sum += l;
  }
  figures.mean_load = loads.empty() ? 0 : sum / static_cast<double>(loads.size());
  figures.imbalance = figures.mean_load > 0 ? figures.max_load / figures.mean_load - 1 : 0;
}

// One communication per (sender, receiver) pair, its messages and bytes summed (vt's LB data
// counts them so). A sender's messages are all in its own process's list.
std::vector<ObjectCommunication> by_pair(std::span<const ObjectCommunication> communications) {
  std::vector<ObjectCommunication> out(communications.begin(), communications.end());
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return std::pair(a.from, a.to) < std::pair(b.from, b.to); });
  std::size_t kept = 0;
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (kept > 0 && out[kept - 1].from == out[k].from && out[kept - 1].to == out[k].to) {
      out[kept - 1].messages += out[k].messages;
      out[kept - 1].bytes += out[k].bytes;
    } else {
      out[kept++] = out[k];
    }
  }
  out.resize(kept);
  return out;
}

}  // namespace

struct ObjectEngine::Mpi {
  std::unique_ptr<detail::DistributedEngine> engine;
};

// The threads of the local workers but the first, which is the calling thread: each waits for
// a new generation of work, runs it and says it is done. Waiting spins a little before it
// sleeps: a phase's two hand-overs (the work, the delivery) then cost microseconds, where a
// sleeping thread's wake-up costs tens of them. No spinning when the workers outnumber the
// cores: a spinning thread would hold a core another worker needs.
struct ObjectEngine::Team {
  explicit Team(std::size_t size)
      : errors(size), spins(size <= std::max(1u, std::thread::hardware_concurrency()) ? 20000 : 0) {
    try {
      for (std::size_t w = 1; w < size; ++w) threads.emplace_back([this, w] { serve(w); });
    } catch (...) {
      stop();  // the threads started, before the error goes on
      throw;
    }
  }
  ~Team() { stop(); }
  void stop() {
    {
      const std::lock_guard lock(mutex);
      stopping = true;
      generation.fetch_add(1, std::memory_order_release);
    }
    wake.notify_all();
    for (std::thread& t : threads) t.join();
  }
  void run(const std::function<void(std::size_t)>& f) {
    work = &f;
    pending.store(threads.size(), std::memory_order_relaxed);
    {
      const std::lock_guard lock(mutex);  // a thread about to sleep sees the new generation
      generation.fetch_add(1, std::memory_order_release);
    }
    wake.notify_all();
    errors[0] = nullptr;
    try {
      f(0);
    } catch (...) {
      errors[0] = std::current_exception();
    }
    if (!spin_until([&] { return pending.load(std::memory_order_acquire) == 0; })) {
      std::unique_lock lock(mutex);
      done.wait(lock, [&] { return pending.load(std::memory_order_acquire) == 0; });
    }
  }
  void serve(std::size_t w) {
    std::uint64_t seen = 0;
    for (;;) {
      if (!spin_until([&] { return generation.load(std::memory_order_acquire) != seen; })) {
        std::unique_lock lock(mutex);
        wake.wait(lock, [&] { return generation.load(std::memory_order_acquire) != seen; });
      }
      seen = generation.load(std::memory_order_acquire);
      if (stopping) return;
      errors[w] = nullptr;
      try {
        (*work)(w);
      } catch (...) {
        errors[w] = std::current_exception();
      }
      if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1) {
        const std::lock_guard lock(mutex);  // the caller is spinning or waiting under it
        done.notify_one();
      }
    }
  }
  template <class Ready>
  bool spin_until(Ready ready) const {
    for (std::uint32_t k = 0; k < spins; ++k) {
      if (ready()) return true;
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#endif
    }
    return ready();
  }

  std::vector<std::thread> threads;
  std::vector<std::exception_ptr> errors;  // by local worker, of the last run
  const std::uint32_t spins;
  std::mutex mutex;
  std::condition_variable wake, done;
  const std::function<void(std::size_t)>* work = nullptr;
  std::atomic<std::uint64_t> generation{0};
  std::atomic<std::size_t> pending{0};
  bool stopping = false;  // written under the mutex before the last generation
};

// The timeline's events of this process's workers, written at finish().
struct ObjectEngine::Timeline {
  std::vector<TimelineEvent> events;
  std::uint64_t arrows = 0;
};

ObjectEngine::ObjectEngine(ObjectRuntimeOptions options, std::optional<PhaseStrategyInfo> own,
                           Communicator communicator)
    : options_(std::move(options)), own_strategy_(std::move(own)) {
  if (own_strategy_) {
    if (!own_strategy_->create)
      throw InputError(fmt::format("phase strategy '{}' has no create(); accepted: a PhaseStrategyInfo that creates "
                                   "its strategy",
                                   own_strategy_->name));
    options_.strategy = own_strategy_->name;
  }
  detail::ResolvedEngine engine = detail::resolve_engine(options_.engine, communicator);
  engine_ = engine.name;
  if (engine.mpi) mpi_ = std::make_unique<Mpi>(Mpi{std::move(engine.mpi)});
  on_every_rank(*this, [&] {
    if (options_.load_model != "persistence" && options_.load_model != "linear")
      throw InputError(fmt::format("load model '{}'; accepted: persistence, linear", options_.load_model));
    if (options_.load_window < 2 || options_.load_window > 1000)
      throw InputError(fmt::format("load window {}; accepted: an integer from 2 to 1000", options_.load_window));
    if (options_.workers > 4096)
      throw InputError(fmt::format("workers {}; accepted: 0 (one per core) to 4096", options_.workers));
    if (!(options_.threshold >= 0))
      throw InputError(fmt::format("threshold {}; accepted: a number >= 0, or infinity", options_.threshold));
    work_model_ = parse_work_model(options_.work_model, "--work-model");
    const auto params = assignments(options_.params, "--param");
    strategy_ = own_strategy_ ? PhaseStrategyChoice{&*own_strategy_, Parameters::parse(own_strategy_->params, params,
                                                                                        "phase strategy " + own_strategy_->name)}
                              : builtin_phase_strategies().configure(options_.strategy, params);
    if (mpi_) {
      if (options_.workers != 0)
        throw InputError(fmt::format("--workers with --engine mpi: '{}'; accepted: none, the rank count is given to "
                                     "mpirun -np",
                                     options_.workers));
      workers_ = static_cast<std::size_t>(mpi_->engine->size());
    } else if (engine_ == "sequential") {
      workers_ = 1;
    } else {
      workers_ = options_.workers != 0 ? options_.workers : std::max(1u, std::thread::hardware_concurrency());
    }
    if (options_.topology == "auto") {
      topology_ = parse_topology(fmt::format("complete:{}", workers_));
    } else {
      topology_ = parse_topology(options_.topology);
      if (topology_->size() != workers_ && engine_ != "sequential")
        throw InputError(fmt::format("topology {} has {} nodes but {} workers run; accepted: a topology of {} nodes, "
                                     "or --topology auto",
                                     topology_->spec(), topology_->size(), workers_, workers_));
      if (engine_ == "sequential") topology_ = parse_topology("complete:1");
    }
    if (strategy_.info->check_topology && workers_ > 1) strategy_.info->check_topology(*topology_);
    if (engine_ == "sequential") {  // one worker: nothing to weigh
      options_.speeds.clear();
      options_.measure_speeds = false;
    }
    if (!options_.speeds.empty() || options_.measure_speeds) {
      const char* what = options_.measure_speeds ? "--speeds measured" : "--speeds";
      if (options_.measure_speeds && !options_.speeds.empty())
        throw InputError("ObjectRuntimeOptions: speeds declared and measure_speeds at once; accepted: one of them");
      if (!options_.speeds.empty()) check_speeds(options_.speeds, workers_, what);
      // A strategy blind to speeds would balance the loads as those of equal workers, worse
      // than the measured times themselves (docs/objects.md, Workers that differ in speed).
      if (!strategy_.info->weighs_speeds && strategy_.name() != "none")
        throw InputError(fmt::format("{} with strategy {}: its criterion balances loads, not times; accepted: "
                                     "{} with {}, or a strategy that declares weighs_speeds",
                                     what, strategy_.name(), what, fmt::join(strategies_weighing_speeds(), ", ")));
      speeds_ = options_.speeds;
      if (options_.measure_speeds) {
        speed_estimate_ = std::make_unique<SpeedEstimate>(workers_);
        speeds_ = speed_estimate_->speeds();
      }
    }
    // The linear load model fits every object's past loads, which a gather brings together;
    // the rank protocols balance loads, the gathered phase's strategies weigh the speeds.
    if (options_.load_model == "persistence" && speeds_.empty())
      protocol_ = runnable_rank_protocol(strategy_, work_model_);
  });
  if (mpi_) {
    first_local_ = static_cast<NodeId>(mpi_->engine->rank());
    local_workers_ = 1;
    mpi_->engine->barrier();  // one origin for every rank's times, to the barrier's skew
  } else {
    local_workers_ = workers_;
    team_ = std::make_unique<Team>(workers_);
  }
  origin_ = Clock::now();
  if (!options_.timeline.empty()) timeline_ = std::make_unique<Timeline>();
  for (const std::string& w : detail::launcher_warnings(engine_, mpi_ ? mpi_->engine.get() : nullptr)) warn(w);
}

ObjectEngine::~ObjectEngine() = default;

int ObjectEngine::rank() const { return mpi_ ? mpi_->engine->rank() : 0; }
bool ObjectEngine::distributed() const { return mpi_ != nullptr; }
bool ObjectEngine::tracks_communications() const {
  return strategy_.info->reads_communications || work_model_.beta != 0 || !options_.record.empty();
}
std::int64_t ObjectEngine::now_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - origin_).count();
}

void ObjectEngine::warn(const std::string& warning) const {
  if (options_.quiet || rank() != 0) return;
  fmt::print(stderr, "dlbkit: warning: {}\n", warning);
}

void ObjectEngine::agree(std::exception_ptr error) const {
  if (mpi_) mpi_->engine->agree(error);
  else if (error) std::rethrow_exception(error);
}

std::vector<std::vector<std::byte>> ObjectEngine::all_gather(std::span<const std::byte> mine) const {
  return mpi_->engine->all_gather(mine);
}

void ObjectEngine::all_to_all(const std::vector<std::vector<std::byte>>& to,
                              std::vector<std::vector<std::byte>>& from) const {
  mpi_->engine->all_to_all_into(to, from);
}

void ObjectEngine::commit(const std::vector<std::pair<std::uint64_t, NodeId>>& mine) {
  std::vector<std::pair<std::uint64_t, NodeId>> all;
  if (mpi_) {
    std::vector<std::byte> bytes;
    for (const auto& [id, worker] : mine) {
      append_bytes(id, bytes);
      append_bytes(std::uint64_t{worker}, bytes);
    }
    for (const auto& from : mpi_->engine->all_gather(bytes)) {
      const auto words = read_all<std::uint64_t>(from);
      for (std::size_t k = 0; k + 1 < words.size(); k += 2)
        all.emplace_back(words[k], static_cast<NodeId>(words[k + 1]));
    }
  } else {
    all = mine;
  }
  std::sort(all.begin(), all.end());
  for (std::size_t i = 1; i < all.size(); ++i)
    if (all[i].first == all[i - 1].first)
      throw InputError(fmt::format("ObjectRuntime: object {} added twice (workers {} and {}); accepted: one object "
                                   "per id",
                                   all[i].first, all[i - 1].second, all[i].second));
  if (all.size() > std::numeric_limits<ObjectIndex>::max())
    throw InputError(fmt::format("ObjectRuntime: {} objects; accepted: at most 2^32 - 1", all.size()));
  ids_.clear();
  owners_.clear();
  for (const auto& [id, worker] : all) {
    ids_.push_back(id);
    owners_.push_back(worker);
  }
  dense_ = ids_.empty() || ids_.back() == ids_.size() - 1;  // sorted and unique: 0 to n - 1
  committed_ = true;
}

ObjectIndex ObjectEngine::search(std::uint64_t id) const {
  const auto it = std::lower_bound(ids_.begin(), ids_.end(), id);
  if (it == ids_.end() || *it != id)
    throw InputError(fmt::format("ObjectRuntime: no object {}; accepted: the id of an object added and not destroyed "
                                 "(changes take effect at the next phase)",
                                 id));
  return static_cast<ObjectIndex>(it - ids_.begin());
}

namespace {

void append_changes(const TableChanges& c, std::vector<std::byte>& out) {
  append_bytes(static_cast<std::uint64_t>(c.error.size()), out);
  for (char ch : c.error) append_bytes(ch, out);
  append_bytes(static_cast<std::uint64_t>(c.births.size()), out);
  for (const TableChanges::Birth& b : c.births) {
    append_bytes(b.id, out);
    append_bytes(std::uint64_t{b.worker}, out);
    append_bytes(static_cast<std::uint64_t>(b.kind), out);
    append_bytes(b.parent, out);
    append_bytes(b.load, out);
    append_bytes(static_cast<std::uint64_t>(b.parts.size()), out);
    for (const auto& [index, share] : b.parts) {
      append_bytes(std::uint64_t{index}, out);
      append_bytes(share, out);
    }
  }
  append_bytes(static_cast<std::uint64_t>(c.deaths.size()), out);
  for (ObjectIndex i : c.deaths) append_bytes(std::uint64_t{i}, out);
  append_bytes(static_cast<std::uint64_t>(c.moves.size()), out);
  for (const auto& [id, worker] : c.moves) {
    append_bytes(id, out);
    append_bytes(std::uint64_t{worker}, out);
  }
}

TableChanges read_changes(std::span<const std::byte> in) {
  TableChanges c;
  if (in.empty()) return c;
  std::size_t at = 0;
  const auto next = [&]<class T>(T value) {
    std::memcpy(&value, in.data() + at, sizeof value);
    at += sizeof value;
    return value;
  };
  const auto word = [&] { return next(std::uint64_t{}); };
  c.error.resize(word());
  for (char& ch : c.error) ch = next(char{});
  c.births.resize(word());
  for (TableChanges::Birth& b : c.births) {
    b.id = word();
    b.worker = static_cast<NodeId>(word());
    b.kind = static_cast<TableChanges::Kind>(word());
    b.parent = word();
    b.load = next(0.0);
    b.parts.resize(word());
    for (auto& [index, share] : b.parts) {
      index = static_cast<ObjectIndex>(word());
      share = next(0.0);
    }
  }
  c.deaths.resize(word());
  for (ObjectIndex& i : c.deaths) i = static_cast<ObjectIndex>(word());
  c.moves.resize(word());
  for (auto& [id, worker] : c.moves) {
    id = word();
    worker = static_cast<NodeId>(word());
  }
  return c;
}

std::string made_by(const TableChanges::Birth& b) {
  switch (b.kind) {
    case TableChanges::split_off: return fmt::format("split({})'s child {}", b.parent, b.id);
    case TableChanges::merged: return fmt::format("merge of {}, ... into {}", b.parent, b.id);
    default: return fmt::format("add({})", b.id);
  }
}

}  // namespace

std::optional<Renumbering> ObjectEngine::recommit(const TableChanges& mine) {
  std::vector<TableChanges> gathered;
  std::vector<const TableChanges*> all{&mine};
  if (mpi_) {
    std::vector<std::byte> bytes;
    if (!mine.empty()) append_changes(mine, bytes);
    for (const auto& from : mpi_->engine->all_gather(bytes)) gathered.push_back(read_changes(from));
    all.clear();
    for (const TableChanges& c : gathered) all.push_back(&c);
  }
  bool changed = false;
  for (const TableChanges* c : all) {
    if (!c->error.empty()) throw InputError(c->error);
    changed = changed || !c->empty();
  }
  if (!changed) return std::nullopt;
  // The survivors and the births by id: an id twice is the later birth's fault, named by the
  // call that made it.
  struct Entry {
    std::uint64_t id;
    NodeId worker;
    ObjectIndex old;
    const TableChanges::Birth* birth;
  };
  std::vector<bool> dead(ids_.size(), false);
  for (const TableChanges* c : all)
    for (ObjectIndex i : c->deaths) dead[i] = true;
  std::vector<Entry> entries;
  for (ObjectIndex i = 0; i < ids_.size(); ++i)
    if (!dead[i]) entries.push_back({ids_[i], owners_[i], i, nullptr});
  for (const TableChanges* c : all)
    for (const TableChanges::Birth& b : c->births) entries.push_back({b.id, b.worker, Renumbering::none, &b});
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
  for (std::size_t k = 1; k < entries.size(); ++k)
    if (entries[k].id == entries[k - 1].id) {  // the later is at fault: survivors come first
      const Entry& born = entries[k];
      const Entry& other = entries[k - 1];
      throw InputError(fmt::format("ObjectRuntime::{}: id {} is already in use, by {}; accepted: an id that no other "
                                   "object holds",
                                   made_by(*born.birth), born.id,
                                   other.birth ? made_by(*other.birth)
                                               : fmt::format("the object on worker {}", other.worker)));
    }
  if (entries.size() > std::numeric_limits<ObjectIndex>::max())
    throw InputError(fmt::format("ObjectRuntime: {} objects; accepted: at most 2^32 - 1", entries.size()));
  for (const TableChanges* c : all)
    for (const auto& [id, worker] : c->moves)
      if (const ObjectIndex i = index_of(id); dead[i])
        throw InputError(fmt::format("ObjectRuntime::move({}, {}): the object is destroyed before the next phase; "
                                     "accepted: a move of an object that stays",
                                     id, worker));
  double mean = 0;  // a birth without a load of its own: the mean of every object's last load
  if (!report_.phases.empty() && !ids_.empty())
    mean = report_.phases.back().mean_load * static_cast<double>(workers_) / static_cast<double>(ids_.size());
  Renumbering r;
  r.new_of.assign(ids_.size(), Renumbering::none);
  r.old_of.resize(entries.size());
  r.load.assign(entries.size(), 0.0);
  ids_.resize(entries.size());
  owners_.resize(entries.size());
  for (ObjectIndex k = 0; k < entries.size(); ++k) {
    const Entry& e = entries[k];
    ids_[k] = e.id;
    owners_[k] = e.worker;
    r.old_of[k] = e.old;
    if (e.birth) r.load[k] = std::isnan(e.birth->load) ? mean : e.birth->load;
    else r.new_of[e.old] = k;
  }
  dense_ = ids_.empty() || ids_.back() == ids_.size() - 1;
  for (std::vector<double>& past : history_) {  // the linear model's: a birth's past is its parts'
    std::vector<double> now(entries.size(), 0.0);
    for (ObjectIndex k = 0; k < entries.size(); ++k) {
      if (!entries[k].birth) {
        now[k] = past[entries[k].old];
      } else if (entries[k].birth->parts.empty()) {
        now[k] = r.load[k];
      } else {
        for (const auto& [index, share] : entries[k].birth->parts) now[k] += share * past[index];
      }
    }
    past.swap(now);
  }
  gathered_phases_ = std::numeric_limits<std::size_t>::max();  // last_phase_ holds the old table
  if (speed_estimate_) speed_estimate_->renumber(r.old_of);
  for (const TableChanges* c : all) {
    report_.objects_created += c->births.size();
    report_.objects_destroyed += c->deaths.size();
    moves_.insert(moves_.end(), c->moves.begin(), c->moves.end());
  }
  return r;
}

const std::vector<NodeId>& ObjectEngine::take_moves() {
  for (const auto& [id, worker] : moves_) owners_[index_of(id)] = worker;
  moves_.clear();
  if (last_phase_.node_of.size() == owners_.size()) last_phase_.node_of = owners_;  // as decide()'s
  return owners_;
}

void ObjectEngine::for_each_worker(const std::function<void(NodeId)>& f) {
  on_every_rank(*this, [&] {
    if (!team_) return f(first_local_);
    team_->run([&](std::size_t local) { f(static_cast<NodeId>(local)); });
    for (const std::exception_ptr& e : team_->errors)
      if (e) std::rethrow_exception(e);
  });
}

void ObjectEngine::begin_phase() { phase_start_ns_ = now_ns(); }

void ObjectEngine::end_work(const std::vector<Clock::time_point>& work_end, const std::vector<double>& worker_loads) {
  local_loads_ = worker_loads;
  work_end_ns_.clear();
  for (const Clock::time_point& t : work_end)
    work_end_ns_.push_back(std::chrono::duration_cast<std::chrono::nanoseconds>(t - origin_).count());
}

Phase ObjectEngine::gather_phase(const std::vector<double>& loads, std::span<const ObjectCommunication> sent) {
  Phase phase{.nodes = workers_};
  phase.node_of = owners_;
  phase.objects.resize(ids_.size());
  for (ObjectIndex i = 0; i < ids_.size(); ++i) phase.objects[i] = {.id = ids_[i], .load = loads[i]};
  // 0: not known (no record)
  std::vector<double> sizes(ids_.size(), 0.0), serialize(ids_.size(), 0.0), deserialize(ids_.size(), 0.0);
  if (!options_.record.empty() && measure_sizes_) {
    on_every_rank(*this, [&] {  // a serialiser's, on every rank before the gathering below
      measure_sizes_(sizes, serialize, deserialize);
    });
  }
  for (ObjectIndex i = 0; i < ids_.size(); ++i) {
    phase.objects[i].memory.serialized_bytes = sizes[i];
    phase.objects[i].memory.serialize_seconds = serialize[i];
    phase.objects[i].memory.deserialize_seconds = deserialize[i];
  }
  const std::vector<ObjectCommunication> communications = by_pair(sent);
  if (!mpi_) {
    phase.communications = communications;
    return phase;
  }
  std::vector<std::byte> mine;
  const auto count = static_cast<std::uint64_t>(std::count_if(owners_.begin(), owners_.end(), [&](NodeId w) { return is_local(w); }));
  append_bytes(std::exchange(packing_, {}), mine);
  append_bytes(count, mine);
  for (ObjectIndex i = 0; i < ids_.size(); ++i)
    if (is_local(owners_[i])) {
      append_bytes(i, mine);
      append_bytes(loads[i], mine);
      append_bytes(sizes[i], mine);
      append_bytes(serialize[i], mine);
      append_bytes(deserialize[i], mine);
    }
  for (const ObjectCommunication& c : communications) append_bytes(c, mine);
  std::array<double, 3> packing{};  // summed over the processes
  for (const std::vector<std::byte>& from : mpi_->engine->all_gather(mine)) {
    std::size_t at = 0;
    std::array<double, 3> theirs;
    std::memcpy(&theirs, from.data(), sizeof theirs);
    at += sizeof theirs;
    for (std::size_t k = 0; k < 3; ++k) packing[k] += theirs[k];
    std::uint64_t n = 0;
    std::memcpy(&n, from.data() + at, sizeof n);
    at += sizeof n;
    for (std::uint64_t k = 0; k < n; ++k) {
      ObjectIndex i = 0;
      double figures[4];  // load, bytes, serialize and deserialize seconds
      std::memcpy(&i, from.data() + at, sizeof i);
      std::memcpy(figures, from.data() + at + sizeof i, sizeof figures);
      at += sizeof i + sizeof figures;
      phase.objects[i].load = figures[0];
      phase.objects[i].memory.serialized_bytes = figures[1];
      phase.objects[i].memory.serialize_seconds = figures[2];
      phase.objects[i].memory.deserialize_seconds = figures[3];
    }
    for (; at + sizeof(ObjectCommunication) <= from.size(); at += sizeof(ObjectCommunication)) {
      ObjectCommunication c;
      std::memcpy(&c, from.data() + at, sizeof c);
      phase.communications.push_back(c);
    }
  }
  if (packing[2] > 0) {
    phase.message_serialize_seconds_per_byte = packing[0] / packing[2];
    phase.message_deserialize_seconds_per_byte = packing[1] / packing[2];
  }
  return phase;
}

void ObjectEngine::end_phase(const std::vector<double>& loads, std::span<const ObjectCommunication> communications,
                             std::size_t messages, double message_bytes) {
  // The workers' loads and each process's phase time, on every process.
  std::vector<double> worker_load(workers_, 0.0);
  std::copy(local_loads_.begin(), local_loads_.end(), worker_load.begin() + first_local_);
  const std::int64_t end = now_ns();
  double seconds = static_cast<double>(end - phase_start_ns_) * 1e-9;
  // When the last worker's work ended, from the phase's start: before it, a worker that is
  // done waits (idle); after it, the runtime delivers and counts (overhead).
  std::int64_t last_work = 0;
  for (std::int64_t t : work_end_ns_) last_work = std::max(last_work, t - phase_start_ns_);
  auto sent = static_cast<double>(messages);
  if (mpi_) {
    std::vector<std::byte> mine;
    append_bytes(worker_load[first_local_], mine);
    append_bytes(seconds, mine);
    append_bytes(static_cast<double>(last_work), mine);
    append_bytes(sent, mine);
    append_bytes(message_bytes, mine);
    const auto all = mpi_->engine->all_gather(mine);
    sent = message_bytes = 0;
    for (std::size_t r = 0; r < all.size(); ++r) {
      const auto values = read_all<double>(all[r]);
      worker_load[r] = values[0];
      seconds = std::max(seconds, values[1]);
      last_work = std::max(last_work, static_cast<std::int64_t>(values[2]));
      sent += values[3];
      message_bytes += values[4];
    }
  }
  ObjectPhaseFigures figures{.seconds = seconds,
                             .messages = sent,
                             .message_bytes = message_bytes,
                             .delivery_seconds = std::max(0.0, seconds - static_cast<double>(last_work) * 1e-9)};
  set_loads(figures, worker_load);
  const std::size_t done = report_.phases.size() + 1;
  const bool moves = own_strategy_ || strategy_.name() != "none";  // none's step would decide nothing
  figures.balanced = moves && workers_ > 1 &&
                     ((options_.every > 0 && done % options_.every == 0) || figures.imbalance > options_.threshold);
  step_due_ = figures.balanced;
  report_.phases.push_back(figures);
  report_.phase_seconds += seconds;
  if (timeline_)
    for (std::size_t k = 0; k < local_workers_; ++k) {
      const auto node = static_cast<NodeId>(first_local_ + k);
      const SimTime busy_end = work_end_ns_[k], idle_end = std::max(busy_end, phase_start_ns_ + last_work);
      timeline_->events.push_back({.type = TimelineEvent::busy, .node = node, .time = phase_start_ns_, .end = busy_end});
      if (idle_end > busy_end)
        timeline_->events.push_back({.type = TimelineEvent::idle, .node = node, .time = busy_end, .end = idle_end});
      timeline_->events.push_back(
          {.type = TimelineEvent::overhead, .node = node, .time = idle_end, .end = std::max(idle_end, end)});
    }
  if (!options_.record.empty() || options_.load_model == "linear" || speed_estimate_)
    gather_last_phase(loads, communications);
  if (!speeds_.empty()) report_.phases.back().speeds = speeds_;
  if (!options_.record.empty()) record_last_phase();
  if (options_.load_model == "linear") {
    std::vector<double>& past = history_.emplace_back(last_phase_.objects.size());
    for (std::size_t i = 0; i < past.size(); ++i) past[i] = last_phase_.objects[i].load;
    if (history_.size() > options_.load_window) history_.pop_front();
  }
}

void ObjectEngine::gather_last_phase(const std::vector<double>& loads,
                                     std::span<const ObjectCommunication> communications) {
  if (gathered_phases_ == report_.phases.size()) return;
  last_phase_ = gather_phase(loads, communications);
  gathered_phases_ = report_.phases.size();
  if (speed_estimate_ && estimated_phases_ != gathered_phases_) {  // once a phase, on every process alike
    std::vector<double> times(last_phase_.objects.size());
    for (std::size_t i = 0; i < times.size(); ++i) times[i] = last_phase_.objects[i].load;
    speed_estimate_->observe(last_phase_.node_of, times);
    speeds_ = speed_estimate_->speeds();
    estimated_phases_ = gathered_phases_;
  }
  if (speeds_.empty()) return;
  // An object's load: its time x the speed of the worker where it ran.
  set_speeds(last_phase_, speeds_, "--speeds");
  for (std::size_t i = 0; i < last_phase_.objects.size(); ++i) last_phase_.objects[i].load *= speeds_[last_phase_.node_of[i]];
}

void ObjectEngine::record_last_phase() {
  on_every_rank(*this, [&] {
    if (rank() != 0) return;
    if (!record_) record_ = std::make_unique<VtPhasesWriter>(options_.record, workers_);
    record_->write(last_phase_);
  });
}

Phase ObjectEngine::predicted_phase() const {
  Phase next = last_phase_;
  if (options_.load_model != "linear" || history_.size() < 2) return next;
  // vt's LinearRegression: x = -m .. -1 for the last m phases, read at x = 0.
  const auto m = static_cast<double>(history_.size());
  const double mean_x = -(m + 1) / 2;
  double sxx = 0;
  for (std::size_t k = 0; k < history_.size(); ++k) sxx += (-m + static_cast<double>(k) - mean_x) * (-m + static_cast<double>(k) - mean_x);
  for (std::size_t i = 0; i < next.objects.size(); ++i) {
    double mean_y = 0;
    for (const auto& past : history_) mean_y += past[i];
    mean_y /= m;
    double sxy = 0;
    for (std::size_t k = 0; k < history_.size(); ++k) sxy += (-m + static_cast<double>(k) - mean_x) * (history_[k][i] - mean_y);
    next.objects[i].load = std::max(0.0, mean_y + sxy / sxx * (0 - mean_x));
  }
  return next;
}

const std::vector<NodeId>& ObjectEngine::decide(const std::vector<double>& loads,
                                                std::span<const ObjectCommunication> communications) {
  balance_start_ns_ = now_ns();
  step_due_ = false;
  ObjectBalanceFigures step{.after_phase = report_.phases.size() - 1};
  if (protocol_ && workers_ > 1) {
    owners_ = decide_by_protocol(loads, step);
    if (last_phase_.node_of.size() == owners_.size()) last_phase_.node_of = owners_;  // as below
    step.decide_seconds = static_cast<double>(now_ns() - balance_start_ns_) * 1e-9;
    report_.balances.push_back(step);
    return owners_;
  }
  gather_last_phase(loads, communications);
  std::vector<NodeId> mapping = owners_;
  on_every_rank(*this, [&] {
    if (rank() != 0 || workers_ <= 1) return;
    const Rebalanced r = rebalance(strategy_, predicted_phase(), *topology_,
                                   {.work_model = work_model_, .seed = options_.seed + step.after_phase});
    mapping = r.mapping;
    step.imbalance_before = r.before.imbalance;
    step.imbalance_after = r.after.imbalance;
  });
  if (mpi_) {
    std::vector<std::byte> mine;
    if (rank() == 0) {
      for (NodeId w : mapping) append_bytes(w, mine);
      append_bytes(step.imbalance_before, mine);
      append_bytes(step.imbalance_after, mine);
    }
    const std::vector<std::byte> from_root = mpi_->engine->all_gather(mine)[0];
    std::memcpy(mapping.data(), from_root.data(), mapping.size() * sizeof(NodeId));
    std::memcpy(&step.imbalance_before, from_root.data() + mapping.size() * sizeof(NodeId), sizeof(double));
    std::memcpy(&step.imbalance_after, from_root.data() + mapping.size() * sizeof(NodeId) + sizeof(double),
                sizeof(double));
  }
  owners_ = std::move(mapping);
  last_phase_.node_of = owners_;  // its loads stay those measured, for a step right after
  step.decide_seconds = static_cast<double>(now_ns() - balance_start_ns_) * 1e-9;
  report_.balances.push_back(step);
  return owners_;
}

std::vector<NodeId> ObjectEngine::decide_by_protocol(const std::vector<double>& loads, ObjectBalanceFigures& step) {
  std::vector<LocalPhase> mine(local_workers_);  // ids in increasing order: an object's index
  for (ObjectIndex i = 0; i < ids_.size(); ++i)
    if (is_local(owners_[i])) mine[owners_[i] - first_local_].objects.push_back({.id = ids_[i], .load = loads[i]});
  const std::uint64_t seed = options_.seed + step.after_phase;
  std::vector<RankPlan> plans;
  const double unbounded = std::numeric_limits<double>::infinity();
  if (mpi_) plans.push_back(detail::run_rank_protocol(*mpi_->engine, protocol_, mine[0], *topology_, unbounded, seed));
  else plans = run_protocol_in_process(protocol_, mine, *topology_, unbounded, seed);
  // Every process learns every move (each object's owner is known everywhere, for its
  // messages) and every worker's load before and after.
  std::vector<double> before(workers_, 0.0), after(workers_, 0.0);
  std::vector<NodeId> mapping = owners_;
  const auto apply = [&](std::span<const std::byte> bytes) {
    for (const ObjectMove& d : read_all<ObjectMove>(bytes))
      mapping[index_of(d.id)] = d.rank;
  };
  std::vector<std::vector<std::byte>> moves(local_workers_);
  for (std::size_t k = 0; k < local_workers_; ++k) {
    for (const ObjectMove& d : plans[k].departures) append_bytes(d, moves[k]);
    for (const PhaseObject& o : mine[k].objects) before[first_local_ + k] += o.load;
    after[first_local_ + k] = plans[k].load_after;
  }
  if (mpi_) {
    append_bytes(before[first_local_], moves[0]);
    append_bytes(after[first_local_], moves[0]);
    const auto all = mpi_->engine->all_gather(moves[0]);
    for (std::size_t r = 0; r < all.size(); ++r) {
      const std::size_t n = all[r].size() - 2 * sizeof(double);
      apply(std::span(all[r]).first(n));
      std::memcpy(&before[r], all[r].data() + n, sizeof(double));
      std::memcpy(&after[r], all[r].data() + n + sizeof(double), sizeof(double));
    }
  } else {
    for (const auto& bytes : moves) apply(bytes);
  }
  const auto imbalance = [&](const std::vector<double>& l) {
    const double mean = std::accumulate(l.begin(), l.end(), 0.0) / static_cast<double>(l.size());
    return mean > 0 ? *std::max_element(l.begin(), l.end()) / mean - 1 : 0.0;
  };
  step.imbalance_before = imbalance(before);
  step.imbalance_after = imbalance(after);
  return mapping;
}

void ObjectEngine::end_migration(const std::vector<NodeId>& old_owners, double bytes) {
  ObjectBalanceFigures& step = report_.balances.back();
  const std::int64_t end = now_ns();
  std::size_t moved = 0;
  for (ObjectIndex i = 0; i < owners_.size(); ++i) moved += old_owners[i] != owners_[i];
  if (mpi_) {
    std::vector<std::byte> mine;
    append_bytes(bytes, mine);
    double total = 0;
    for (const auto& from : mpi_->engine->all_gather(mine)) total += read_all<double>(from)[0];
    bytes = total;
  }
  step.objects_migrated = moved;
  step.bytes_migrated = bytes;
  step.migrate_seconds = static_cast<double>(end - balance_start_ns_) * 1e-9 - step.decide_seconds;
  report_.objects_migrated += moved;
  report_.balancing_seconds += step.decide_seconds + step.migrate_seconds;
  report_.decide_seconds += step.decide_seconds;
  report_.migrate_seconds += step.migrate_seconds;
  if (timeline_) {
    for (std::size_t k = 0; k < local_workers_; ++k)
      timeline_->events.push_back({.type = TimelineEvent::overhead,
                                   .node = static_cast<NodeId>(first_local_ + k),
                                   .time = balance_start_ns_,
                                   .end = end});
    // An arrow per pair of workers that objects moved between, drawn by both ends' process.
    std::vector<std::pair<NodeId, NodeId>> pairs;
    for (ObjectIndex i = 0; i < owners_.size(); ++i)
      if (old_owners[i] != owners_[i]) pairs.emplace_back(old_owners[i], owners_[i]);
    std::sort(pairs.begin(), pairs.end());
    for (std::size_t a = 0; a < pairs.size();) {
      std::size_t b = a;
      while (b < pairs.size() && pairs[b] == pairs[a]) ++b;
      const std::uint64_t arrow = ++timeline_->arrows;
      const auto count = static_cast<std::int64_t>(b - a);
      if (is_local(pairs[a].first))
        timeline_->events.push_back({.type = TimelineEvent::send, .node = pairs[a].first, .time = balance_start_ns_,
                                     .value = count, .id = arrow});
      if (is_local(pairs[a].second))
        timeline_->events.push_back(
            {.type = TimelineEvent::receive, .node = pairs[a].second, .time = end, .value = count, .id = arrow});
      a = b;
    }
  }
}

ObjectRunResult ObjectEngine::finish() {
  if (step_due_) report_.phases.back().balanced = false;  // no phase would run on its mapping
  step_due_ = false;
  std::exception_ptr error;
  if (timeline_) {
    std::vector<TimelineEvent> all = timeline_->events;
    if (mpi_) {
      std::vector<std::byte> mine;
      for (const TimelineEvent& e : timeline_->events) append_bytes(e, mine);
      all.clear();
      for (const auto& from : mpi_->engine->all_gather(mine)) {
        const auto events = read_all<TimelineEvent>(from);
        all.insert(all.end(), events.begin(), events.end());
      }
    }
    if (rank() == 0) {
      try {
        dlbkit::Timeline out(options_.timeline, fmt::format("{} on {} objects, {} engine", strategy_.name(), ids_.size(), engine_),
                             std::vector<bool>(workers_, true));
        std::stable_sort(all.begin(), all.end(), [](const TimelineEvent& a, const TimelineEvent& b) { return a.time < b.time; });
        out.write(all);
        out.commit();
      } catch (...) {
        error = std::current_exception();
      }
    }
    timeline_->events.clear();
  }
  if (!options_.record.empty() && rank() == 0 && !error) {
    try {
      if (record_) record_->commit();
      else if (report_.phases.empty()) write_vt_phases({}, options_.record);  // files without a phase
      record_.reset();  // a second finish() leaves the files as they are
    } catch (...) {
      error = std::current_exception();
    }
  }
  agree(error);
  return report_;
}

}  // namespace dlbkit::detail
