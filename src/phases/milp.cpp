// The exact reference (milp.hpp): a makespan MILP under the memory bound, solved twice with
// CBC, first for the least max load, then, with the max load held at the first answer, for the
// fewest migrations.
//
//   x[i][v] in {0, 1}   object i on node v (for each node where i fits alone; see candidates())
//   C >= 0              the makespan, in units of total load / total speed
//   sum_v x[i][v] = 1                                   each object on one node
//   alpha_v sum_i load_i x[i][v] <= C                   on every node (its time; alpha 1 without alphas)
//   and with a memory bound, memory.hpp's sum, in units of the bound, on every node (summed
//   over each memory group's nodes, with one):
//   own_v + sum_b block_b y[b][v] + sum_i footprint_i x[i][v] + w[v] <= 1
//     y[b][v] >= x[i][v] for i in block b   (a block counted once where any of its objects is)
//     w[v] >= working_i x[i][v]             (the largest working bytes)
//
// y and w are continuous: at an optimum they take the max of binaries, which is exact.
// Unmigratable objects are constants of their node, not variables.

#include <dlbkit/error.hpp>
#include <dlbkit/phases/lower_bound.hpp>
#include <dlbkit/phases/memory.hpp>
#include <dlbkit/phases/milp.hpp>

#include <coin/Cbc_C_Interface.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <memory>
#include <numeric>

namespace dlbkit {

namespace {

constexpr double kNoLimit = std::numeric_limits<double>::max();  // CBC's infinity (COIN_DBL_MAX)

struct Pair {
  ObjectIndex object;
  NodeId node;
};

/// The variables x: every (migratable object, node) where the object fits alone next to the
/// node's own working bytes (it cannot be anywhere else within the bound), its own node included.
std::vector<Pair> candidates(const Phase& phase, double bound) {
  const bool memory = phase.has_memory && std::isfinite(bound);
  std::vector<Pair> pairs;
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i) {
    const PhaseObject& o = phase.objects[i];
    if (!o.migratable) continue;
    const double alone = (o.memory.block >= 0 ? phase.block_bytes[o.memory.block] : 0.0) +
                         o.memory.footprint_bytes + o.memory.working_bytes;
    for (NodeId v = 0; v < phase.nodes; ++v)
      if (v == phase.node_of[i] || !memory || phase.node_working_bytes[v] + alone <= bound) pairs.push_back({i, v});
  }
  return pairs;
}

using Model = std::unique_ptr<Cbc_Model, decltype(&Cbc_deleteModel)>;

// The columns: C, then x of pairs[k] at kFirstX + k, then the memory's y and w.
constexpr int kC = 0, kFirstX = 1;

/// The model. stage 1: minimise C; stage 2: C at most `cap`, minimise the objects moved.
Model build(const Phase& phase, const std::vector<Pair>& pairs, double bound, std::size_t group, double unit, int stage,
            double cap) {
  Model model(Cbc_newModel(), &Cbc_deleteModel);
  Cbc_Model* m = model.get();
  Cbc_setLogLevel(m, 0);
  Cbc_setAllowableGap(m, 0);
  Cbc_setAllowableFractionGap(m, 0);
  // Tolerances far below a byte in a bound's units; a mapping is checked exactly all the same (fits()).
  Cbc_setParameter(m, "primalTolerance", "1e-9");
  Cbc_setParameter(m, "integerTolerance", "1e-9");
  Cbc_setParameter(m, "timeMode", "elapsed");
  const std::size_t n = phase.nodes;
  Cbc_addCol(m, "C", 0, stage == 1 ? kNoLimit : cap, stage == 1 ? 1 : 0, 0, 0, nullptr, nullptr);
  // Named: CBC matches a MIP start's values to the columns by their names.
  for (std::size_t k = 0; k < pairs.size(); ++k)
    Cbc_addCol(m, fmt::format("x{}", k).c_str(), 0, 1, stage == 2 && phase.node_of[pairs[k].object] == pairs[k].node ? -1 : 0,
               1, 0, nullptr, nullptr);

  // Each object on one node.
  std::vector<int> cols;
  std::vector<double> coefs;
  for (std::size_t k = 0; k < pairs.size();) {
    cols.clear();
    coefs.clear();
    const ObjectIndex i = pairs[k].object;
    for (; k < pairs.size() && pairs[k].object == i; ++k) {
      cols.push_back(kFirstX + static_cast<int>(k));
      coefs.push_back(1);
    }
    Cbc_addRow(m, "", static_cast<int>(cols.size()), cols.data(), coefs.data(), 'E', 1);
  }
  // The loads, and what the unmigratable objects fix on each node.
  std::vector<std::vector<int>> on_node(n);
  for (std::size_t k = 0; k < pairs.size(); ++k) on_node[pairs[k].node].push_back(static_cast<int>(k));
  std::vector<double> fixed_load(n, 0), fixed_bytes(n, 0), fixed_working(n, 0);
  std::vector<std::map<std::int32_t, bool>> fixed_blocks(n);
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i) {
    const PhaseObject& o = phase.objects[i];
    if (o.migratable) continue;
    const NodeId v = phase.node_of[i];
    fixed_load[v] += o.load;
    fixed_bytes[v] += o.memory.footprint_bytes;
    fixed_working[v] = std::max(fixed_working[v], o.memory.working_bytes);
    if (o.memory.block >= 0 && !fixed_blocks[v][o.memory.block]) {
      fixed_blocks[v][o.memory.block] = true;
      fixed_bytes[v] += phase.block_bytes[o.memory.block];
    }
  }
  for (NodeId v = 0; v < n; ++v) {
    cols = {kC};
    coefs = {-1};
    const double alpha = alpha_of(phase, v);
    for (int k : on_node[v]) {
      cols.push_back(kFirstX + k);
      coefs.push_back(phase.objects[pairs[static_cast<std::size_t>(k)].object].load * alpha / unit);
    }
    Cbc_addRow(m, "", static_cast<int>(cols.size()), cols.data(), coefs.data(), 'L', -fixed_load[v] * alpha / unit);
  }
  if (!phase.has_memory || !std::isfinite(bound)) return model;

  // Memory, in units of the bound: y and w columns after the x's; one row a group.
  int next = kFirstX + static_cast<int>(pairs.size());
  std::vector<int> row_cols;
  std::vector<double> row_coefs;
  double free = 1;
  for (NodeId v = 0; v < n; ++v) {
    const int w = next++;
    Cbc_addCol(m, "", fixed_working[v] / bound, kNoLimit, 0, 0, 0, nullptr, nullptr);
    std::map<std::int32_t, int> y;  // block -> its column on v
    row_cols.push_back(w);
    row_coefs.push_back(1);
    for (int k : on_node[v]) {
      const ObjectMemory& mem = phase.objects[pairs[static_cast<std::size_t>(k)].object].memory;
      const int x = kFirstX + k;
      row_cols.push_back(x);
      row_coefs.push_back(mem.footprint_bytes / bound);
      if (mem.working_bytes > fixed_working[v]) {
        const int link[] = {x, w};
        const double by[] = {mem.working_bytes / bound, -1};
        Cbc_addRow(m, "", 2, link, by, 'L', 0);
      }
      if (mem.block >= 0 && !fixed_blocks[v].contains(mem.block)) {
        auto [it, added] = y.try_emplace(mem.block, next);
        if (added) {
          ++next;
          Cbc_addCol(m, "", 0, 1, 0, 0, 0, nullptr, nullptr);
          row_cols.push_back(it->second);
          row_coefs.push_back(phase.block_bytes[mem.block] / bound);
        }
        const int link[] = {x, it->second};
        const double by[] = {1, -1};
        Cbc_addRow(m, "", 2, link, by, 'L', 0);
      }
    }
    free -= (phase.node_working_bytes[v] + fixed_bytes[v]) / bound;
    if (v + 1 == n || (v + 1) % group == 0) {  // the group's last node
      Cbc_addRow(m, "", static_cast<int>(row_cols.size()), row_cols.data(), row_coefs.data(), 'L', free);
      row_cols.clear();
      row_coefs.clear();
      free = 1;
    }
  }
  return model;
}

/// The mapping of a solution (each migratable object where its x is 1).
std::vector<NodeId> mapping_of(const Phase& phase, const std::vector<Pair>& pairs, const double* x) {
  std::vector<NodeId> mapping = phase.node_of;
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (x[kFirstX + k] > 0.5) mapping[pairs[k].object] = pairs[k].node;
  return mapping;
}

/// The x values of `mapping` as a MIP start (column indices and values).
void start_from(Cbc_Model* m, const std::vector<Pair>& pairs, const std::vector<NodeId>& mapping) {
  std::vector<int> cols(pairs.size());
  std::vector<double> values(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    cols[k] = kFirstX + static_cast<int>(k);
    values[k] = mapping[pairs[k].object] == pairs[k].node ? 1 : 0;
  }
  Cbc_setMIPStartI(m, static_cast<int>(cols.size()), cols.data(), values.data());
}

/// Whether `mapping` keeps every node (each group of `group` nodes) within the bound, as
/// NodeMemory counts (the solver's answer holds only within its tolerances).
bool fits(const Phase& phase, const std::vector<NodeId>& mapping, double bound, std::size_t group) {
  if (!phase.has_memory) return true;
  const NodeMemory memory(phase, mapping);
  for (std::size_t v = 0; v < phase.nodes; v += group)
    if (memory.of_group(static_cast<NodeId>(v), group) > bound) return false;
  return true;
}

/// The busiest node's time, alpha x load (its load without alphas).
double max_load(const Phase& phase, const std::vector<NodeId>& mapping) {
  const std::vector<double> loads = node_loads(phase, mapping);
  double most = 0;
  for (NodeId v = 0; v < phase.nodes; ++v) most = std::max(most, loads[v] * alpha_of(phase, v));
  return most;
}

}  // namespace

MilpResult solve_milp(const Phase& phase, const MilpOptions& options) {
  check_phase(phase, "the phase");
  if (!(options.time_limit > 0) || !std::isfinite(options.time_limit))
    throw InputError(fmt::format("time limit {} s; accepted: a number of seconds > 0", options.time_limit));
  if (std::isnan(options.memory_bound) || options.memory_bound < 0)
    throw InputError(fmt::format("memory bound {}; accepted: a number of bytes >= 0", options.memory_bound));
  if (options.memory_group == 0) throw InputError("memory group 0; accepted: a number of nodes >= 1");
  const std::size_t size = phase.objects.size() * phase.nodes;
  if (size > kMilpMaxPairs)
    throw InputError(fmt::format("the exact reference of {} objects on {} nodes ({} pairs); accepted: at most {} "
                                 "objects x nodes",
                                 phase.objects.size(), phase.nodes, size, kMilpMaxPairs));
  const auto start = std::chrono::steady_clock::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };

  MilpResult result;
  result.mapping = phase.node_of;
  const double cheap = max_load_lower_bound(phase, options.memory_bound);
  result.max_load_lower_bound = cheap;
  const double total = std::accumulate(phase.objects.begin(), phase.objects.end(), 0.0,
                                       [](double sum, const PhaseObject& o) { return sum + o.load; });
  const double unit = total > 0 ? total / total_speed(phase) : 1.0;
  const std::vector<Pair> pairs = candidates(phase, options.memory_bound);

  // Stage 1: the least max load, from the better start (CBC drops one that breaks the bound),
  // in at most 3/4 of the time when it is not done, so that stage 2 has some.
  const bool hinted = options.start.size() == phase.node_of.size() &&
                      fits(phase, options.start, options.memory_bound, options.memory_group) &&
                      max_load(phase, options.start) < max_load(phase, phase.node_of);
  const Model first = build(phase, pairs, options.memory_bound, options.memory_group, unit, 1, 0);
  Cbc_Model* m = first.get();
  Cbc_setColLower(m, kC, cheap / unit);
  Cbc_setMaximumSeconds(m, 0.75 * options.time_limit);
  start_from(m, pairs, hinted ? options.start : phase.node_of);
  Cbc_solve(m);
  result.infeasible = Cbc_isProvenInfeasible(m) != 0;
  const double* x = Cbc_bestSolution(m);
  const double proven = Cbc_getBestPossibleObjValue(m) * unit;
  if (std::isfinite(proven) && !result.infeasible) result.max_load_lower_bound = std::max(cheap, proven);
  if (x != nullptr && !result.infeasible) result.mapping = mapping_of(phase, pairs, x);
  result.out_of_time = Cbc_isSecondsLimitReached(m) != 0;
  if (x == nullptr || result.infeasible || !fits(phase, result.mapping, options.memory_bound, options.memory_group)) {
    result.mapping = phase.node_of;
    result.wall_seconds = elapsed();
    return result;
  }
  result.found = true;
  result.max_load = max_load(phase, result.mapping);
  result.optimal = Cbc_isProvenOptimal(m) != 0;
  if (result.optimal) result.max_load_lower_bound = result.max_load;

  // Stage 2: the fewest migrations at that max load, from stage 1's mapping.
  const double left = options.time_limit - elapsed();
  if (left > 0) {
    const Model second =
        build(phase, pairs, options.memory_bound, options.memory_group, unit, 2, result.max_load / unit * (1 + 1e-9));
    m = second.get();
    Cbc_setMaximumSeconds(m, left);
    start_from(m, pairs, result.mapping);
    Cbc_solve(m);
    result.out_of_time = result.out_of_time || Cbc_isSecondsLimitReached(m) != 0;
    if ((x = Cbc_bestSolution(m)) != nullptr) {
      std::vector<NodeId> fewer = mapping_of(phase, pairs, x);
      // Kept only when it keeps the max load (it may differ from stage 1's by the rounding of a sum).
      if (max_load(phase, fewer) <= result.max_load * (1 + 1e-9) &&
          fits(phase, fewer, options.memory_bound, options.memory_group)) {
        result.mapping = std::move(fewer);
        result.migrations_minimal = Cbc_isProvenOptimal(m) != 0;
      }
    }
  }
  result.max_load = max_load(phase, result.mapping);
  for (std::size_t i = 0; i < phase.objects.size(); ++i)
    if (result.mapping[i] != phase.node_of[i]) ++result.objects_migrated;
  result.out_of_time = result.out_of_time || left <= 0;
  result.wall_seconds = elapsed();
  return result;
}

}  // namespace dlbkit
