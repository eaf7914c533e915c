#include <dlbkit/error.hpp>
#include <dlbkit/objects/balancer.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/gather_tree.hpp>
#include <dlbkit/phases/in_process_protocol.hpp>
#include <dlbkit/phases/rank_protocol.hpp>
#include <dlbkit/objects/detail/protocol_driver.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/runtime/detail/distributed_engine.hpp>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <map>
#include <type_traits>

namespace dlbkit {

namespace {

static_assert(std::is_trivially_copyable_v<PhaseObject> && std::is_trivially_copyable_v<LocalEdge> &&
              std::is_trivially_copyable_v<LocalBlock> && std::is_trivially_copyable_v<ObjectMove>);

// Bytes written in order and read back in the same order.
class Writer {
public:
  template <class T>
  void put(const T& value) {
    append_bytes(value, bytes);
  }
  template <class T>
  void put_all(const std::vector<T>& values) {
    put(std::uint64_t{values.size()});
    const std::size_t at = bytes.size();
    bytes.resize(at + values.size() * sizeof(T));
    if (!values.empty()) std::memcpy(bytes.data() + at, values.data(), values.size() * sizeof(T));
  }
  std::vector<std::byte> bytes;
};

class Reader {
public:
  explicit Reader(std::span<const std::byte> bytes) : bytes_(bytes) {}
  template <class T>
  T get() {
    T value;
    std::memcpy(&value, take(sizeof(T)), sizeof(T));
    return value;
  }
  template <class T>
  std::vector<T> get_all() {
    std::vector<T> values(get<std::uint64_t>());
    if (!values.empty()) std::memcpy(values.data(), take(values.size() * sizeof(T)), values.size() * sizeof(T));
    return values;
  }

  bool done() const { return at_ == bytes_.size(); }
  std::span<const std::byte> take_span(std::size_t n) { return {take(n), n}; }

private:
  const std::byte* take(std::size_t n) {
    if (bytes_.size() - at_ < n) throw std::logic_error("Balancer: a message ends too soon");
    at_ += n;
    return bytes_.data() + at_ - n;
  }
  std::span<const std::byte> bytes_;
  std::size_t at_ = 0;
};

std::vector<std::byte> encode(const LocalPhase& mine) {
  Writer w;
  w.put_all(mine.objects);
  w.put_all(mine.edges);
  w.put_all(mine.blocks);
  w.put(mine.working_bytes);
  w.put(mine.speed);
  return std::move(w.bytes);
}

LocalPhase decode_phase(std::span<const std::byte> bytes) {
  Reader r(bytes);
  LocalPhase mine;
  mine.objects = r.get_all<PhaseObject>();
  mine.edges = r.get_all<LocalEdge>();
  mine.blocks = r.get_all<LocalBlock>();
  mine.working_bytes = r.get<double>();
  mine.speed = r.get<double>();
  return mine;
}

// What every rank learns of a decision besides its own moves.
struct Figures {
  double imbalance_before, imbalance_after, bytes_migrated;
  std::uint64_t objects_migrated, messages, rounds;
};

std::vector<std::byte> encode(const MigrationPlan& plan) {
  Writer w;
  w.put_all(plan.departures);
  w.put_all(plan.arrivals);
  w.put(Figures{plan.imbalance_before, plan.imbalance_after, plan.bytes_migrated, plan.objects_migrated,
                plan.protocol_messages, plan.protocol_rounds});
  return std::move(w.bytes);
}

MigrationPlan decode_plan(std::span<const std::byte> bytes) {
  Reader r(bytes);
  MigrationPlan plan;
  plan.departures = r.get_all<ObjectMove>();
  plan.arrivals = r.get_all<ObjectMove>();
  const auto f = r.get<Figures>();
  plan.imbalance_before = f.imbalance_before;
  plan.imbalance_after = f.imbalance_after;
  plan.bytes_migrated = f.bytes_migrated;
  plan.objects_migrated = f.objects_migrated;
  plan.protocol_messages = f.messages;
  plan.protocol_rounds = f.rounds;
  return plan;
}

// Ranks' messages travelling together up or down the gather tree: (rank, bytes) each.
using Bundle = std::vector<std::pair<NodeId, std::vector<std::byte>>>;

std::vector<std::byte> encode(const Bundle& bundle) {
  Writer w;
  for (const auto& [rank, bytes] : bundle) {
    w.put(std::uint64_t{rank});
    w.put_all(bytes);
  }
  return std::move(w.bytes);
}

void append(Bundle& bundle, std::span<const std::byte> bytes) {
  for (Reader r(bytes); !r.done();) {
    const auto rank = static_cast<NodeId>(r.get<std::uint64_t>());
    bundle.emplace_back(rank, r.get_all<std::byte>());
  }
}

// Every rank's objects as one Phase, objects in id order, node r for rank r. InputError for an
// id on two ranks, an edge to an id no rank lists, a shared block whose bytes differ.
Phase assemble(std::span<const LocalPhase> ranks) {
  Phase phase{.nodes = ranks.size()};
  struct Entry {
    std::uint64_t id;
    NodeId rank;
    std::size_t local;
  };
  std::vector<Entry> entries;
  for (NodeId r = 0; r < ranks.size(); ++r)
    for (std::size_t k = 0; k < ranks[r].objects.size(); ++k) entries.push_back({ranks[r].objects[k].id, r, k});
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.id < b.id; });
  for (std::size_t i = 1; i < entries.size(); ++i)
    if (entries[i].id == entries[i - 1].id)
      throw InputError(fmt::format("Balancer: object {} is on ranks {} and {}; accepted: each id on one rank",
                                   entries[i].id, std::min(entries[i - 1].rank, entries[i].rank),
                                   std::max(entries[i - 1].rank, entries[i].rank)));
  if (entries.size() > std::numeric_limits<ObjectIndex>::max())
    throw InputError(fmt::format("Balancer: {} objects; accepted: at most 2^32 - 1", entries.size()));

  std::map<std::int64_t, std::int32_t> block_index;  // by the program's block id
  for (NodeId r = 0; r < ranks.size(); ++r)
    for (const LocalBlock& block : ranks[r].blocks) {
      const auto [it, added] = block_index.emplace(block.id, static_cast<std::int32_t>(phase.block_bytes.size()));
      if (added) {
        phase.block_bytes.push_back(block.bytes);
        phase.block_ids.push_back(block.id);
      } else if (phase.block_bytes[it->second] != block.bytes) {
        throw InputError(fmt::format("Balancer: shared block {} has {} bytes on one rank and {} on rank {}; "
                                     "accepted: the same bytes on every rank",
                                     block.id, phase.block_bytes[it->second], block.bytes, r));
      }
    }

  bool has_memory = !phase.block_bytes.empty();
  for (const Entry& e : entries) {
    PhaseObject object = ranks[e.rank].objects[e.local];
    if (object.memory.block >= 0) object.memory.block = block_index.at(ranks[e.rank].blocks[object.memory.block].id);
    has_memory = has_memory || object.memory.footprint_bytes > 0 || object.memory.working_bytes > 0;
    phase.objects.push_back(object);
    phase.node_of.push_back(e.rank);
  }
  const auto index_of = [&](std::uint64_t id) -> std::optional<ObjectIndex> {
    const auto it = std::lower_bound(entries.begin(), entries.end(), id,
                                     [](const Entry& e, std::uint64_t v) { return e.id < v; });
    if (it == entries.end() || it->id != id) return std::nullopt;
    return static_cast<ObjectIndex>(it - entries.begin());
  };
  for (NodeId r = 0; r < ranks.size(); ++r)
    for (const LocalEdge& edge : ranks[r].edges) {
      const auto to = index_of(edge.to);
      if (!to)
        throw InputError(fmt::format("Balancer: rank {} gives an edge from object {} to object {}, which no rank "
                                     "lists; accepted: edges between objects of the ranks",
                                     r, edge.from, edge.to));
      phase.communications.push_back(
          {.from = *index_of(edge.from), .to = *to, .messages = edge.messages, .bytes = edge.bytes});
    }
  for (const LocalPhase& rank : ranks) has_memory = has_memory || rank.working_bytes > 0;
  if (has_memory) {
    phase.has_memory = true;
    for (const LocalPhase& rank : ranks) phase.node_working_bytes.push_back(rank.working_bytes);
  }
  // A rank's speed is vt's rank_alpha inverted: its work per unit of load (work_model.hpp).
  if (std::any_of(ranks.begin(), ranks.end(), [](const LocalPhase& rank) { return rank.speed != 1; }))
    for (const LocalPhase& rank : ranks) phase.node_alpha.push_back(1 / rank.speed);
  return phase;
}

// Each rank's plan from a decision on the assembled phase. The central protocol: every rank
// but the root sends its objects to the root, which sends each its plan, along `tree`.
std::vector<MigrationPlan> plans_of(const Phase& phase, const Rebalanced& decision, const GatherTree& tree) {
  std::vector<MigrationPlan> plans(phase.nodes);
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    const NodeId from = phase.node_of[i], to = decision.mapping[i];
    if (from == to) continue;
    plans[from].departures.push_back({phase.objects[i].id, to});
    plans[to].arrivals.push_back({phase.objects[i].id, from});
  }
  for (MigrationPlan& plan : plans) {
    plan.imbalance_before = decision.before.imbalance;
    plan.imbalance_after = decision.after.imbalance;
    plan.objects_migrated = decision.objects_migrated;
    plan.bytes_migrated = decision.bytes_migrated;
    plan.protocol_messages = 2 * (phase.nodes - 1);
    plan.protocol_rounds = phase.nodes < 2 ? 0 : tree.flat() ? 2 : 4;
  }
  return plans;
}

// A rank's part of the figures of a distributed step, summed (or maximised) over the ranks.
struct RankFigures {
  double load_before = 0, load_after = 0, departures = 0, bytes = 0, messages = 0;
};

RankFigures rank_figures(const LocalPhase& mine, const RankPlan& plan) {
  RankFigures f{.load_after = plan.load_after, .departures = static_cast<double>(plan.departures.size()),
                .messages = static_cast<double>(plan.figures.messages)};
  for (const PhaseObject& o : mine.objects) f.load_before += o.load;
  std::vector<std::uint64_t> leaving;
  for (const ObjectMove& d : plan.departures) leaving.push_back(d.id);
  std::sort(leaving.begin(), leaving.end());
  for (const PhaseObject& o : mine.objects)
    if (std::binary_search(leaving.begin(), leaving.end(), o.id)) f.bytes += o.memory.shipped_bytes();
  return f;
}

// Every rank's plan of a distributed step from the ranks' figures.
void set_figures(MigrationPlan& plan, std::span<const RankFigures> ranks, std::uint64_t rounds) {
  double total = 0, max_before = 0, max_after = 0;
  for (const RankFigures& f : ranks) {
    total += f.load_before;
    max_before = std::max(max_before, f.load_before);
    max_after = std::max(max_after, f.load_after);
    plan.objects_migrated += static_cast<std::size_t>(f.departures);
    plan.bytes_migrated += f.bytes;
    plan.protocol_messages += static_cast<std::uint64_t>(f.messages);
  }
  const double mean = total / static_cast<double>(ranks.size());
  plan.imbalance_before = mean > 0 ? max_before / mean - 1 : 0;
  plan.imbalance_after = mean > 0 ? max_after / mean - 1 : 0;
  plan.protocol_rounds = rounds;
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

struct Balancer::Impl {
  BalancerOptions options;
  std::optional<PhaseStrategyInfo> own;  // strategy points into it
  PhaseStrategyChoice strategy;
  WorkModel work_model;
  std::string engine;
  std::unique_ptr<detail::DistributedEngine> mpi;
  /// The strategy's rank protocol, where it has one for these parameters and weighs loads;
  /// empty: the central path.
  RankProtocolFactory protocol;
  std::uint64_t plans = 0;

  Topology topology(std::size_t ranks) const {
    const Topology t = options.topology == "auto" ? parse_topology(fmt::format("complete:{}", ranks))
                                                  : parse_topology(options.topology);
    if (t.size() != ranks)
      throw InputError(fmt::format("Balancer: topology {} has {} nodes but {} ranks; accepted: a topology of {} "
                                   "nodes, or auto",
                                   t.spec(), t.size(), ranks, ranks));
    if (strategy.info->check_topology && ranks > 1) strategy.info->check_topology(t);
    return t;
  }

  void agree(std::exception_ptr error) const {
    if (mpi) mpi->agree(error);
    else if (error) std::rethrow_exception(error);
  }

  // Each rank's bytes up the gather tree to the root (which ends with every rank's, the others
  // with none), and each rank's part of the root's down to it (each ends with its own).
  Bundle pass_up(const GatherTree& tree, Bundle bundle) const {
    const auto rank = static_cast<NodeId>(mpi->rank());
    bundle = split(std::move(bundle), [&](NodeId) { return tree.leader(rank); });
    if (!tree.flat()) bundle = split(std::move(bundle), [](NodeId) { return NodeId{0}; });
    return bundle;
  }
  Bundle pass_down(const GatherTree& tree, Bundle bundle) const {
    if (!tree.flat()) bundle = split(std::move(bundle), [&](NodeId r) { return tree.leader(r); });
    return split(std::move(bundle), [](NodeId r) { return r; });
  }
  // Sends each entry (r, bytes) to via(r): what every rank sent this one.
  template <class Via>
  Bundle split(Bundle bundle, Via via) const {
    std::vector<Bundle> parts(mpi->size());
    for (auto& entry : bundle) parts[via(entry.first)].push_back(std::move(entry));
    std::vector<std::vector<std::byte>> out(mpi->size());
    for (std::size_t r = 0; r < parts.size(); ++r)
      if (!parts[r].empty()) out[r] = encode(parts[r]);
    Bundle in;
    for (const auto& bytes : mpi->all_to_all(out)) append(in, bytes);
    return in;
  }

  // Collective: this rank's plan from the strategy's rank protocol, after the ids and edges
  // are checked over the ranks without gathering them.
  MigrationPlan plan_by_protocol(const LocalPhase& mine, std::chrono::steady_clock::time_point start) {
    check_ids(mine);
    const std::size_t size = static_cast<std::size_t>(mpi->size());
    std::optional<Topology> t;
    on_every_rank(*this, [&] { t = topology(size); });
    const RankPlan rank = detail::run_rank_protocol(*mpi, protocol, mine, *t, options.memory_bound, options.seed);
    const RankFigures f = rank_figures(mine, rank);
    std::vector<RankFigures> figures;
    for (const auto& bytes : mpi->all_gather(std::as_bytes(std::span(&f, 1)))) {
      RankFigures each;
      std::memcpy(&each, bytes.data(), sizeof each);
      figures.push_back(each);
    }
    MigrationPlan plan;
    plan.departures = rank.departures;
    plan.arrivals = rank.arrivals;
    set_figures(plan, figures, rank.figures.rounds);
    plan.number_ = ++plans;
    plan.decision_seconds = seconds_since(start);
    return plan;
  }

  // Collective: an id on two ranks, or an edge to an id no rank lists, is the same InputError
  // on every rank. Each id is checked at rank id mod P (a directory, as Zoltan's), so no rank
  // holds more than its share of the ids.
  void check_ids(const LocalPhase& mine) const {
    const auto size = static_cast<std::uint64_t>(mpi->size());
    std::vector<std::vector<std::byte>> to(size);
    // To each rank: the ids whose directory it keeps, then the edges' targets it is asked about.
    std::vector<std::vector<std::uint64_t>> ids(size), asked(size);
    for (const PhaseObject& o : mine.objects) ids[o.id % size].push_back(o.id);
    for (const LocalEdge& e : mine.edges) asked[e.to % size].push_back(e.to);
    for (std::uint64_t r = 0; r < size; ++r) {
      Writer w;
      w.put_all(ids[r]);
      w.put_all(asked[r]);
      to[r] = std::move(w.bytes);
    }
    std::vector<std::pair<std::uint64_t, int>> held;  // (id, rank)
    std::vector<std::pair<std::uint64_t, int>> queries;
    const auto from = mpi->all_to_all(to);
    for (std::size_t r = 0; r < from.size(); ++r) {
      Reader reader(from[r]);
      for (std::uint64_t id : reader.get_all<std::uint64_t>()) held.emplace_back(id, static_cast<int>(r));
      for (std::uint64_t id : reader.get_all<std::uint64_t>()) queries.emplace_back(id, static_cast<int>(r));
    }
    std::sort(held.begin(), held.end());
    on_every_rank(*this, [&] {
      for (std::size_t k = 1; k < held.size(); ++k)
        if (held[k].first == held[k - 1].first)
          throw InputError(fmt::format("Balancer: object {} is on ranks {} and {}; accepted: each id on one rank",
                                       held[k].first, held[k - 1].second, held[k].second));
      std::sort(queries.begin(), queries.end());
      for (const auto& [id, r] : queries) {
        const auto it = std::lower_bound(held.begin(), held.end(), std::pair<std::uint64_t, int>(id, -1));
        if (it == held.end() || it->first != id)
          throw InputError(fmt::format("Balancer: rank {} gives an edge to object {}, which no rank lists; accepted: "
                                       "edges between objects of the ranks",
                                       r, id));
      }
    });
  }

  Rebalanced decide(const Phase& phase) const {
    return rebalance(strategy, phase, topology(phase.nodes),
                     {.memory_bound = options.memory_bound, .work_model = work_model, .seed = options.seed});
  }
};

Balancer::Balancer(BalancerOptions options, std::optional<PhaseStrategyInfo> own, Communicator communicator)
    : impl_(std::make_unique<Impl>()) {
  Impl& b = *impl_;
  b.options = std::move(options);
  b.own = std::move(own);
  // No engine yet: an error here is the same on every rank without talking.
  if (b.options.engine == "sequential") throw InputError("Balancer engine 'sequential'; accepted: auto, mpi, threads");
  detail::ResolvedEngine engine = detail::resolve_engine(b.options.engine, communicator);
  b.engine = engine.name;
  b.mpi = std::move(engine.mpi);
  on_every_rank(b, [&] {
    if (b.own && !b.own->create)
      throw InputError(fmt::format("phase strategy '{}' has no create(); accepted: a PhaseStrategyInfo that creates "
                                   "its strategy",
                                   b.own->name));
    if (b.own) b.options.strategy = b.own->name;
    if (!(b.options.memory_bound > 0))
      throw InputError(fmt::format("Balancer memory bound {}; accepted: bytes > 0, or infinity", b.options.memory_bound));
    b.work_model = parse_work_model(b.options.work_model, "Balancer work model");
    const auto params = assignments(b.options.params, "Balancer parameter");
    b.strategy = b.own ? PhaseStrategyChoice{&*b.own, Parameters::parse(b.own->params, params,
                                                                        "phase strategy " + b.own->name)}
                       : builtin_phase_strategies().configure(b.options.strategy, params);
    if (b.options.topology != "auto") (void)parse_topology(b.options.topology);
    b.protocol = runnable_rank_protocol(b.strategy, b.work_model);
  });
  if (!b.mpi) return;
  // The same decision everywhere needs the same options everywhere.
  const std::string mine = fmt::format(
      "strategy {} {}, topology {}, seed {}, memory bound {}, work model {}, flat gather up to {}", b.options.strategy,
      fmt::join(b.options.params, " "), b.options.topology, b.options.seed, b.options.memory_bound,
      b.options.work_model, b.options.flat_gather_up_to);
  const auto all = b.mpi->all_gather(std::as_bytes(std::span(mine)));
  for (std::size_t r = 1; r < all.size(); ++r)
    if (!std::equal(all[r].begin(), all[r].end(), all[0].begin(), all[0].end()))
      throw InputError(fmt::format("Balancer: rank {} has {} where rank 0 has {}; accepted: the same options on "
                                   "every rank",
                                   r, std::string(reinterpret_cast<const char*>(all[r].data()), all[r].size()),
                                   std::string(reinterpret_cast<const char*>(all[0].data()), all[0].size())));
}

Balancer::~Balancer() = default;

const BalancerOptions& Balancer::options() const { return impl_->options; }
const std::string& Balancer::engine() const { return impl_->engine; }
int Balancer::rank() const { return impl_->mpi ? impl_->mpi->rank() : 0; }
int Balancer::size() const { return impl_->mpi ? impl_->mpi->size() : 1; }

std::vector<MigrationPlan> Balancer::plan(std::span<const LocalPhase> ranks) {
  const auto start = std::chrono::steady_clock::now();
  if (impl_->mpi)
    throw InputError("Balancer::plan(every rank's objects) under MPI; accepted: plan(this rank's objects)");
  if (ranks.empty()) throw InputError("Balancer::plan: no rank; accepted: at least one rank's objects");
  for (std::size_t r = 0; r < ranks.size(); ++r) check_local_phase(ranks[r], fmt::format("Balancer: rank {}", r));
  const Phase phase = assemble(ranks);  // checks ids and edges over the ranks
  std::vector<MigrationPlan> plans;
  if (impl_->protocol && ranks.size() > 1) {
    const auto rank_plans = run_protocol_in_process(impl_->protocol, ranks, impl_->topology(ranks.size()),
                                                    impl_->options.memory_bound, impl_->options.seed);
    std::vector<RankFigures> figures;
    for (std::size_t r = 0; r < ranks.size(); ++r) figures.push_back(rank_figures(ranks[r], rank_plans[r]));
    for (const RankPlan& rank : rank_plans) {
      MigrationPlan& plan = plans.emplace_back();
      plan.departures = rank.departures;
      plan.arrivals = rank.arrivals;
      set_figures(plan, figures, rank.figures.rounds);
    }
  } else {
    plans = plans_of(phase, impl_->decide(phase), GatherTree(ranks.size(), impl_->options.flat_gather_up_to));
  }
  const std::uint64_t number = ++impl_->plans;
  for (MigrationPlan& plan : plans) {
    plan.number_ = number;
    plan.decision_seconds = seconds_since(start);
  }
  return plans;
}

MigrationPlan Balancer::plan(const LocalPhase& mine) {
  Impl& b = *impl_;
  if (!b.mpi) return std::move(plan(std::span(&mine, 1)).front());
  const auto start = std::chrono::steady_clock::now();
  const int rank = b.mpi->rank(), size = b.mpi->size();
  on_every_rank(b, [&] { check_local_phase(mine, fmt::format("Balancer: rank {}", rank)); });

  if (b.protocol) return b.plan_by_protocol(mine, start);
  // Gather to the root, decide there, scatter: each an all-to-all or two (through the group
  // leaders of gather_tree.hpp) where only one side sends.
  const GatherTree tree(static_cast<std::size_t>(size), b.options.flat_gather_up_to);
  Bundle bundle;
  bundle.emplace_back(rank, encode(mine));
  bundle = b.pass_up(tree, std::move(bundle));
  on_every_rank(b, [&] {
    if (rank != 0) return;
    std::vector<LocalPhase> ranks(size);
    for (const auto& [r, bytes] : bundle) ranks[r] = decode_phase(bytes);
    const Phase phase = assemble(ranks);
    const std::vector<MigrationPlan> plans = plans_of(phase, b.decide(phase), tree);
    bundle.clear();
    for (int r = 0; r < size; ++r) bundle.emplace_back(r, encode(plans[r]));
  });
  bundle = b.pass_down(tree, std::move(bundle));
  MigrationPlan plan = decode_plan(bundle.at(0).second);
  plan.number_ = ++b.plans;
  plan.decision_seconds = seconds_since(start);
  return plan;
}

void Balancer::migrate_bytes(MigrationPlan& plan,
                             const std::function<void(std::uint64_t, std::vector<std::byte>&)>& pack,
                             const std::function<void(std::uint64_t, std::span<const std::byte>)>& unpack) {
  Impl& b = *impl_;
  on_every_rank(b, [&] {
    if (plan.carried_out_)
      throw InputError(fmt::format("Balancer::migrate: plan {} was carried out already; accepted: each plan once",
                                   plan.number_));
    if (plan.number_ != b.plans)
      throw InputError(fmt::format("Balancer::migrate: plan {} is not this balancer's latest ({}); accepted: the "
                                   "plan the last plan() returned",
                                   plan.number_, b.plans));
  });
  plan.carried_out_ = true;
  if (!b.mpi) {  // one process: nothing travels
    if (!plan.departures.empty() || !plan.arrivals.empty())
      throw InputError("Balancer::migrate with threads; accepted: under MPI (threads share the objects: move them)");
    return;
  }
  // Each departure as (id, size, bytes) to its rank, in id order; then each arrival unpacked.
  std::vector<ObjectMove> departures = plan.departures;
  std::sort(departures.begin(), departures.end(), [](const ObjectMove& a, const ObjectMove& b) { return a.id < b.id; });
  std::vector<std::vector<std::byte>> to(b.mpi->size());
  std::vector<std::byte> scratch;
  on_every_rank(b, [&] {
    for (const ObjectMove& d : departures) {
      scratch.clear();
      pack(d.id, scratch);
      append_bytes(d.id, to[d.rank]);
      append_bytes(std::uint64_t{scratch.size()}, to[d.rank]);
      to[d.rank].insert(to[d.rank].end(), scratch.begin(), scratch.end());
    }
  });
  const auto received = b.mpi->all_to_all(to);
  struct Arrival {
    std::uint64_t id;
    std::span<const std::byte> bytes;
  };
  std::vector<Arrival> arrivals;
  for (const auto& from : received)
    for (Reader r(from); !r.done();) {
      const auto id = r.get<std::uint64_t>();
      arrivals.push_back({id, r.take_span(r.get<std::uint64_t>())});
    }
  std::sort(arrivals.begin(), arrivals.end(), [](const Arrival& a, const Arrival& b) { return a.id < b.id; });
  on_every_rank(b, [&] {
    for (const Arrival& a : arrivals) unpack(a.id, a.bytes);
  });
}

}  // namespace dlbkit
