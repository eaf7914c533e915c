// partition: the communication-aware central balancer through a graph partitioner, Scotch's
// repartitioning (SCOTCH_graphRepartFixed of its library, Scotch 7 user's guide):
// the objects are the graph's vertices, weighed by their loads; the communications its edges,
// weighed by their bytes; Scotch cuts it into one part per node within the balance ratio
// `imbalance`, minimising the cut bytes plus the cost of the objects that leave their old
// part (`migration_weight`). Unmigratable objects are fixed to their nodes.
//
// Why Scotch among the partitioners Debian ships: it is maintained (Inria, 7.0.3 in Debian
// 12), has repartitioning with migration costs and fixed vertices in its sequential library;
// METIS in Debian is 5.1.0 of 2013 and Zoltan comes only with the whole of Trilinos.
//
// The default strategy is Scotch's recursive bipartitioning (SCOTCH_STRATRECURSIVE): its
// k-way default takes a time that grows with the parts times the vertices (1 024 nodes x 100
// objects: 1.1 s; 4 096 x 100: 19 s), recursive bipartitioning with their logarithm
// (4 096 x 100: 0.4 s). Scotch weighs migrations only against cut edges: on a phase without
// communication it moves nearly every object. From 2^20 objects on, Scotch partitions groups of
// up to four light objects that exchange bytes on one node, with a leaner recursive strategy
// (pair_up, lean_recursive): 65 536 nodes x 100 objects of the hot spot in a fifth of the time.
//
// Scotch does not know the memory bound: its partition is applied object by object through
// ctx.move, which refuses what does not fit (could_not_place).
//
// On nodes of unequal speed the target is Scotch's weighted complete graph (SCOTCH_archCmpltw,
// each node weighted by its speed; SCOTCH_graphRemapFixed, of which SCOTCH_graphRepartFixed is
// the unweighted case): each part's load in proportion to its node's speed, within the ratio.

#include "central.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/phases/speeds.hpp>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <fmt/format.h>
#include <numeric>
#include <tuple>
#include <stdexcept>
#include <string>
#include <utility>

#include <scotch.h>

// Scotch reports its errors through these functions, which the program that embeds it may
// provide instead of libscotcherr's (which print to stderr) or libscotcherrexit's (which also
// exit). These record the message, which check_scotch() turns into an exception, and drop
// the warnings: a library neither prints nor exits. Exported, so that libscotch finds them
// before libscotcherr's in a shared module built with hidden symbols too.
namespace {
thread_local std::string scotch_error;
}  // namespace

extern "C" [[gnu::visibility("default")]] void SCOTCH_errorProg(const char* const) {}

extern "C" [[gnu::visibility("default")]] void SCOTCH_errorPrint(const char* const format, ...) {
  char line[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(line, sizeof line, format, args);
  va_end(args);
  if (!scotch_error.empty()) scotch_error += "; ";
  scotch_error += line;
}

extern "C" [[gnu::visibility("default")]] void SCOTCH_errorPrintW(const char* const, ...) {}

namespace dlbkit {

namespace {

static_assert(sizeof(SCOTCH_Num) == sizeof(std::int32_t), "Debian's default scotch.h: 32-bit SCOTCH_Num");

/// The vertices' weights (the objects' loads, or the target nodes' speeds): Scotch's are
/// integers whose sum must fit a 32-bit SCOTCH_Num; the values scaled so that the largest is
/// 10^6 and their sum at most 2^30, each at least 1 (a zero load weighs one unit).
std::vector<SCOTCH_Num> vertex_weights(const std::vector<double>& loads) {
  double largest = 0, sum = 0;
  for (double v : loads) largest = std::max(largest, v), sum += v;
  const double scale = largest > 0 ? std::min(1e6 / largest, 0x1p30 / sum) : 0;
  std::vector<SCOTCH_Num> weights(loads.size());
  for (std::size_t i = 0; i < loads.size(); ++i)
    weights[i] = std::max<SCOTCH_Num>(1, static_cast<SCOTCH_Num>(std::llround(loads[i] * scale)));
  return weights;
}

void check_scotch(int status, const char* call) {
  if (status == 0) return;
  std::string message = std::exchange(scotch_error, {});
  throw std::runtime_error(fmt::format("Scotch's {} failed: {}", call, message.empty() ? "no message" : message));
}

/// From this many objects on, partition() groups them first (pair_up) and bipartitions leaner
/// (lean_recursive).
constexpr std::size_t kPairFrom = std::size_t{1} << 20;

/// SCOTCH_STRATRECURSIVE's strategy (SCOTCH_stratGraphMapBuild) made leaner: each bipartition
/// one multilevel run, not the better of two, refined by Fiduccia-Mattheyses alone (no
/// diffusion on a band graph), with fewer passes. On the hot spot at 6.5 M objects: the same
/// imbalance after (0.080 against 0.079), in 40% of the time.
std::string lean_recursive(double imbalance) {
  return fmt::format("r{{job=t,bal={0},map=t,poli=S,sep=m{{asc=f{{move=80,pass=2,bal={0},type=b}},"
                     "low=h{{pass=3}}f{{move=80,pass=2,bal={0},type=b}},vert=120,rat=0.7}}}}",
                     imbalance);
}

/// Replaces Scotch's graph (verttab, edgetab, edlotab: compressed adjacency; velotab, vmlotab:
/// loads and migration costs; old and fixed parts, -1 free) by one of pairs of its vertices:
/// each vertex, in order, joins the unpaired neighbour with its old part and fixedness that
/// it has the heaviest edge to (heavy-edge matching, the first step of Scotch's own
/// coarsening, kept within a node so that a pair has one old part), where the two weigh at
/// most 1/32 of a part's mean load (heavy objects stay single, so that the balance stays as
/// fine as with objects). A pair weighs and costs the sum of its two; its edges are
/// theirs to other pairs, summed. group[v]: v's pair.
void pair_up(SCOTCH_Num parts_count, std::vector<SCOTCH_Num>& verttab, std::vector<SCOTCH_Num>& edgetab,
             std::vector<SCOTCH_Num>& edlotab, std::vector<SCOTCH_Num>& velotab, std::vector<SCOTCH_Num>& vmlotab,
             std::vector<SCOTCH_Num>& old_parts, std::vector<SCOTCH_Num>& parts, std::vector<SCOTCH_Num>& group) {
  const std::size_t n = velotab.size();
  constexpr SCOTCH_Num kNone = -1;
  std::vector<SCOTCH_Num> mate(n, kNone), first;  // first[g]: the vertex that opened pair g
  group.assign(n, kNone);
  const double limit = std::accumulate(velotab.begin(), velotab.end(), 0.0) / static_cast<double>(parts_count) / 32;
  for (std::size_t v = 0; v < n; ++v) {
    if (mate[v] != kNone) continue;
    SCOTCH_Num best = static_cast<SCOTCH_Num>(v), heaviest = -1;
    for (SCOTCH_Num e = verttab[v]; e < verttab[v + 1]; ++e) {
      const SCOTCH_Num u = edgetab[e];
      if (mate[u] == kNone && static_cast<std::size_t>(u) != v && old_parts[u] == old_parts[v] &&
          parts[u] == parts[v] && edlotab[e] > heaviest && velotab[u] + velotab[v] <= limit)
        best = u, heaviest = edlotab[e];
    }
    mate[v] = best;
    mate[best] = static_cast<SCOTCH_Num>(v);
    group[v] = group[best] = static_cast<SCOTCH_Num>(first.size());
    first.push_back(static_cast<SCOTCH_Num>(v));
  }
  const std::size_t pairs = first.size();
  std::vector<SCOTCH_Num> pverttab(pairs + 1, 0), pedgetab, pedlotab, pvelotab(pairs, 0), pvmlotab(pairs, 0),
      pold(pairs), pparts(pairs), at(pairs, kNone);  // at[h]: where pair h is in the current pair's edges
  pedgetab.reserve(edgetab.size() / 2);
  pedlotab.reserve(edgetab.size() / 2);
  for (std::size_t g = 0; g < pairs; ++g) {
    const SCOTCH_Num v = first[g], members[] = {v, mate[v]};
    const auto start = static_cast<SCOTCH_Num>(pedgetab.size());
    pold[g] = old_parts[v];
    pparts[g] = parts[v];
    for (int m = 0; m < (mate[v] == v ? 1 : 2); ++m) {
      const SCOTCH_Num w = members[m];
      pvelotab[g] += velotab[w];
      pvmlotab[g] += vmlotab[w];
      for (SCOTCH_Num e = verttab[w]; e < verttab[w + 1]; ++e) {
        const SCOTCH_Num h = group[edgetab[e]];
        if (h == static_cast<SCOTCH_Num>(g)) continue;
        if (at[h] < start) {  // a new neighbour of pair g
          at[h] = static_cast<SCOTCH_Num>(pedgetab.size());
          pedgetab.push_back(h);
          pedlotab.push_back(edlotab[e]);
        } else {
          pedlotab[at[h]] += edlotab[e];
        }
      }
    }
    pverttab[g + 1] = static_cast<SCOTCH_Num>(pedgetab.size());
  }
  verttab.swap(pverttab);
  edgetab.swap(pedgetab);
  edlotab.swap(pedlotab);
  velotab.swap(pvelotab);
  vmlotab.swap(pvmlotab);
  old_parts.swap(pold);
  parts.swap(pparts);
}

class Partition : public PhaseStrategy {
public:
  static constexpr const char* name = "partition";
  static constexpr const char* description =
      "central: Scotch's repartitioning, balancing loads against cut bytes and migrations";
  static constexpr const char* source = "Scotch 7 SCOTCH_graphRepartFixed (Pellegrini, Inria)";
  static constexpr bool weighs_speeds = true;
  static constexpr bool reads_communications = true;
  static constexpr RealParam kMigration{
      .name = "migration_weight", .default_value = "1",
      .description = "cost of migrating an object, in cut edges of the mean bytes (Scotch's migration cost)",
      .min = 0, .max = 1e6, .search = {"0.1", "10"}};
  static constexpr RealParam kImbalance{
      .name = "imbalance", .default_value = "0.05",
      .description = "Scotch's balance ratio: parts' loads within (1 + imbalance) x the mean", .min = 0, .max = 1};
  static constexpr ChoiceParam kStrategy{
      .name = "strategy", .default_value = "recursive",
      .description = "Scotch's strategy flag (SCOTCH_STRATRECURSIVE, DEFAULT, QUALITY, SPEED, BALANCE)",
      .choices = {"recursive", "default", "quality", "speed", "balance"}};
  static std::vector<ParamSpec> params() { return {kMigration, kImbalance, kStrategy}; }

  explicit Partition(const Parameters& p)
      : migration_weight_(p[kMigration]), imbalance_(p[kImbalance]), flags_(flags(p[kStrategy])) {}

  void rebalance(PhaseContext& ctx) override {
    const Phase& phase = ctx.phase();
    if (ctx.nodes() < 2 || phase.objects.empty()) return;
    detail::gather_to_root(ctx);
    const std::vector<SCOTCH_Num> parts = partition(ctx);
    // The plan through ctx.move: a node may take an object only once others have left it, so
    // the refused moves are tried once more after the first pass.
    std::vector<ObjectIndex> refused;
    for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
      if (!ctx.move(i, static_cast<NodeId>(parts[i]))) refused.push_back(i);
    for (ObjectIndex i : refused)
      if (!ctx.move(i, static_cast<NodeId>(parts[i]))) ctx.could_not_place(i);
    detail::scatter_from_root(ctx);
  }

private:
  static SCOTCH_Num flags(const std::string& strategy) {
    if (strategy == "quality") return SCOTCH_STRATQUALITY;
    if (strategy == "speed") return SCOTCH_STRATSPEED;
    if (strategy == "balance") return SCOTCH_STRATBALANCE;
    if (strategy == "recursive") return SCOTCH_STRATRECURSIVE;
    return SCOTCH_STRATDEFAULT;
  }

  std::vector<SCOTCH_Num> partition(PhaseContext& ctx) const {
    const Phase& phase = ctx.phase();
    const std::size_t n = phase.objects.size();
    if (n >= static_cast<std::size_t>(1) << 30)
      throw InputError(fmt::format("partition: {} objects; accepted: fewer than 2^30 (Scotch's 32-bit numbers)", n));

    // Edges: the bytes between two objects, both ways summed; the graph holds each edge twice.
    struct Edge {
      ObjectIndex a, b;
      double bytes;
    };
    std::vector<Edge> edges;
    for (const ObjectCommunication& c : phase.communications)
      if (c.from != c.to && c.bytes > 0) edges.push_back({std::min(c.from, c.to), std::max(c.from, c.to), c.bytes});
    std::sort(edges.begin(), edges.end(), [](const Edge& x, const Edge& y) { return std::tie(x.a, x.b) < std::tie(y.a, y.b); });
    std::vector<double> edge_bytes;
    std::vector<std::vector<std::pair<ObjectIndex, std::size_t>>> adjacent(n);  // (neighbour, edge)
    for (std::size_t k = 0; k < edges.size(); ++k) {
      if (k > 0 && edges[k].a == edges[k - 1].a && edges[k].b == edges[k - 1].b) {
        edge_bytes.back() += edges[k].bytes;
        continue;
      }
      adjacent[edges[k].a].emplace_back(edges[k].b, edge_bytes.size());
      adjacent[edges[k].b].emplace_back(edges[k].a, edge_bytes.size());
      edge_bytes.push_back(edges[k].bytes);
    }
    // The costs Scotch minimises, in bytes: the cut edges' bytes plus, for each object that
    // leaves its node, migration_weight x the mean edge's bytes (1 without communication),
    // in proportion to the bytes the object ships when the phase has memory. Scotch adds them
    // in 32-bit integers (Kgraph's commload): one scale for both, the largest cost 10^6 and
    // their sum at most 2^30, each edge at least 1; emraval 1 then weighs them one to one
    // (0: no migration cost).
    std::vector<double> migration(n, 0.0);
    {
      double mean_edge = 1, mean_shipped = 0;
      if (!edge_bytes.empty())
        mean_edge = std::accumulate(edge_bytes.begin(), edge_bytes.end(), 0.0) / static_cast<double>(edge_bytes.size());
      for (const PhaseObject& o : phase.objects) mean_shipped += o.memory.shipped_bytes();
      mean_shipped /= static_cast<double>(n);
      for (std::size_t i = 0; i < n; ++i) {
        const double shipped = phase.objects[i].memory.shipped_bytes();
        migration[i] = migration_weight_ * mean_edge * (mean_shipped > 0 ? shipped / mean_shipped : 1);
      }
    }
    double largest = 0, sum = 0;
    for (double b : edge_bytes) largest = std::max(largest, b), sum += 2 * b;  // each edge twice
    for (double c : migration) largest = std::max(largest, c), sum += c;
    const double scale = largest > 0 ? std::min(1e6 / largest, 0x1p30 / sum) : 0;
    std::vector<SCOTCH_Num> edge_weight(edge_bytes.size()), vmlotab(n);
    for (std::size_t e = 0; e < edge_bytes.size(); ++e)
      edge_weight[e] = std::max<SCOTCH_Num>(1, static_cast<SCOTCH_Num>(std::llround(edge_bytes[e] * scale)));
    for (std::size_t i = 0; i < n; ++i) vmlotab[i] = static_cast<SCOTCH_Num>(std::llround(migration[i] * scale));
    const double emraval = migration_weight_ > 0 ? 1 : 0;

    std::vector<SCOTCH_Num> verttab(n + 1, 0), edgetab, edlotab;
    edgetab.reserve(2 * edge_bytes.size());
    edlotab.reserve(2 * edge_bytes.size());
    for (std::size_t v = 0; v < n; ++v) {
      for (auto [u, e] : adjacent[v]) {
        edgetab.push_back(static_cast<SCOTCH_Num>(u));
        edlotab.push_back(edge_weight[e]);
      }
      verttab[v + 1] = static_cast<SCOTCH_Num>(edgetab.size());
    }

    std::vector<double> loads(n);
    for (std::size_t i = 0; i < n; ++i) loads[i] = phase.objects[i].load;
    std::vector<SCOTCH_Num> velotab = vertex_weights(loads);

    std::vector<SCOTCH_Num> old_parts(n), parts(n);
    for (std::size_t i = 0; i < n; ++i) {
      old_parts[i] = static_cast<SCOTCH_Num>(ctx.node_of(static_cast<ObjectIndex>(i)));
      parts[i] = phase.objects[i].migratable ? -1 : old_parts[i];  // fixed vertices
    }

    // At millions of objects Scotch's time (the vertices times log2 of the nodes, its levels of
    // bipartitions) is cut by partitioning groups of up to four light objects that exchange the
    // most bytes (pairs of pairs), and by a leaner recursive bipartitioning.
    std::vector<SCOTCH_Num> group;  // each object's vertex in Scotch's graph (empty: its own)
    if (n >= kPairFrom) {
      group.resize(n);
      std::iota(group.begin(), group.end(), SCOTCH_Num{0});
      for (int level = 0; level < 2; ++level) {
        std::vector<SCOTCH_Num> pair;
        pair_up(static_cast<SCOTCH_Num>(ctx.nodes()), verttab, edgetab, edlotab, velotab, vmlotab, old_parts, parts,
                pair);
        for (SCOTCH_Num& g : group) g = pair[g];
      }
    }

    scotch_error.clear();
    Scotch scotch;
    // A context of its own: one thread, deterministic, its random generator seeded from the
    // run's seed (Scotch 7 otherwise runs threads whose results differ from run to run).
    check_scotch(SCOTCH_contextOptionSetNum(&scotch.context, SCOTCH_OPTIONNUMDETERMINISTIC, 1), "contextOptionSetNum");
    check_scotch(SCOTCH_contextRandomClone(&scotch.context), "contextRandomClone");
    SCOTCH_contextRandomSeed(&scotch.context, static_cast<SCOTCH_Num>(ctx.rng().below(std::uint64_t{1} << 31)));
    check_scotch(SCOTCH_contextThreadSpawn(&scotch.context, 1, nullptr), "contextThreadSpawn");
    check_scotch(SCOTCH_graphBuild(&scotch.graph, 0, static_cast<SCOTCH_Num>(velotab.size()), verttab.data(), nullptr,
                                   velotab.data(), nullptr, static_cast<SCOTCH_Num>(edgetab.size()), edgetab.data(),
                                   edlotab.data()),
                 "graphBuild");
    check_scotch(SCOTCH_contextBindGraph(&scotch.context, &scotch.graph, &scotch.bound), "contextBindGraph");
    const auto nodes = static_cast<SCOTCH_Num>(ctx.nodes());
    // The remapping flag makes Scotch weigh the migrations (without it emraval is ignored).
    if (flags_ == SCOTCH_STRATRECURSIVE && !group.empty())
      check_scotch(SCOTCH_stratGraphMap(&scotch.strat, lean_recursive(imbalance_).c_str()), "stratGraphMap");
    else
      check_scotch(SCOTCH_stratGraphMapBuild(&scotch.strat, flags_ | SCOTCH_STRATREMAP, nodes, imbalance_),
                   "stratGraphMapBuild");
    if (phase.node_alpha.empty()) {
      check_scotch(SCOTCH_graphRepartFixed(&scotch.bound, nodes, old_parts.data(), emraval, vmlotab.data(),
                                           &scotch.strat, parts.data()),
                   "graphRepartFixed");
    } else {
      const std::vector<SCOTCH_Num> weights = vertex_weights(node_speeds(phase));
      check_scotch(SCOTCH_archCmpltw(&scotch.arch, nodes, weights.data()), "archCmpltw");
      check_scotch(SCOTCH_graphRemapFixed(&scotch.bound, &scotch.arch, old_parts.data(), emraval, vmlotab.data(),
                                          &scotch.strat, parts.data()),
                   "graphRemapFixed");
    }
    if (group.empty()) return parts;
    std::vector<SCOTCH_Num> object_parts(n);
    for (std::size_t i = 0; i < n; ++i) object_parts[i] = parts[group[i]];
    return object_parts;
  }
  /// Scotch's objects of one call, released in any case.
  struct Scotch {
    SCOTCH_Context context;
    SCOTCH_Graph graph, bound;  // bound: the graph seen through the context
    SCOTCH_Strat strat;
    SCOTCH_Arch arch;  // the weighted target, on nodes of unequal speed
    Scotch() {
      check_scotch(SCOTCH_contextInit(&context), "contextInit");
      SCOTCH_graphInit(&graph);
      SCOTCH_graphInit(&bound);
      SCOTCH_stratInit(&strat);
      check_scotch(SCOTCH_archInit(&arch), "archInit");
    }
    ~Scotch() {
      SCOTCH_archExit(&arch);
      SCOTCH_stratExit(&strat);
      SCOTCH_graphExit(&bound);
      SCOTCH_graphExit(&graph);
      SCOTCH_contextExit(&context);
    }
  };

  double migration_weight_;
  double imbalance_;
  SCOTCH_Num flags_;
};

}  // namespace

PhaseStrategyInfo partition_phase_strategy_info() { return phase_strategy_info<Partition>(); }

}  // namespace dlbkit
