#include "central.hpp"

#include <dlbkit/phases/flows.hpp>

#include <dlbkit/analysis/polynomial_schemes.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/speeds.hpp>
#include <dlbkit/rounds/diffusion_kernel.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <numeric>
#include <optional>

namespace dlbkit {

FlowStop FlowStop::from(const Parameters& p) {
  FlowStop stop{.tolerance = p[kFlowTolerance]};
  if (!p.is_auto(kFlowRounds)) stop.rounds = static_cast<std::uint64_t>(p[kFlowRounds]);
  return stop;
}

double FlowStop::factor(const std::vector<double>& loads, const FlowCapacities& capacities) const {
  // Where every capacity is 1 each step below is exact (x 1, / 1), the equal nodes' figure.
  const double total = capacities.empty() ? static_cast<double>(loads.size()) : capacities.total;
  const double mean = std::accumulate(loads.begin(), loads.end(), 0.0) / total;
  if (!(mean > 0)) return 1;
  double squares = 0;
  for (std::size_t v = 0; v < loads.size(); ++v) {
    const double e = loads[v] - capacities[v] * mean;
    squares += e * e / capacities[v];
  }
  return std::max(std::sqrt(capacities.spread) * std::sqrt(squares) / (tolerance * mean), 1.0);
}

FlowCapacities flow_capacities(std::span<const double> speeds, std::size_t nodes) {
  FlowCapacities c{.total = static_cast<double>(nodes)};
  if (std::adjacent_find(speeds.begin(), speeds.end(), std::not_equal_to<>()) == speeds.end()) return c;
  const double slowest = *std::min_element(speeds.begin(), speeds.end());
  c.total = 0;
  for (const double s : speeds) {
    c.of.push_back(s / slowest);
    c.total += c.of.back();
  }
  c.spread = *std::max_element(c.of.begin(), c.of.end());
  return c;
}

FlowCapacities flow_capacities(const Phase& phase) { return flow_capacities(node_speeds(phase), phase.nodes); }

double heterogeneous_gamma(double gamma, double spread) { return spread == 1 ? gamma : 1 - (1 - gamma) / spread; }

std::uint64_t FlowStop::limit(std::optional<std::uint64_t> predicted, const std::string& owner,
                              const std::string& why) const {
  if (rounds) return *rounds;
  if (!predicted)
    throw InputError(fmt::format("{}: rounds=auto, but {}, so the analysis gives no round count; accepted: rounds=N "
                                 "(1 to {}) or parameters under which the scheme converges",
                                 owner, why, static_cast<std::uint64_t>(kFlowRounds.max)));
  return std::clamp<std::uint64_t>(*predicted, 1, static_cast<std::uint64_t>(kFlowRounds.max));
}

double uniform_gamma(const Topology& topology, double alpha) {
  if (topology.size() < 2) return 0;
  if (!(alpha > 0)) return 1;
  // Once per topology and alpha: every rank's agent asks it (rank_protocol.hpp).
  return topology.shared<double>(fmt::format("uniform_gamma:{}", alpha), [alpha](const Topology& t) {
    return scheme_spectrum(DiffusionMatrix::uniform(t, alpha)).gamma;
  });
}

long long flow_hops(const Parameters& p, const Topology& topology, bool unequal) {
  if (!p.is_auto(kFlowHops)) return p[kFlowHops];
  return std::max(topology.diameter(), 1) + (unequal ? 1 : 0);
}

std::vector<ParamSpec> with_flow_params(std::vector<ParamSpec> scheme) {
  scheme.insert(scheme.end(), {kFlowRounds, kFlowTolerance});
  return with_realisation_params(std::move(scheme));
}

std::vector<ParamSpec> with_realisation_params(std::vector<ParamSpec> scheme) {
  scheme.insert(scheme.end(), {kFlowSelection, kFlowHops, kFlowTransit});
  return scheme;
}

namespace {

// The loads' imbalance is within the tolerance (a load-free network is balanced): max/mean - 1
// <= tolerance, the mean from the loads' sum in index order. That sum waits on each addition,
// so one pass takes the maximum and a sum over eight lanes, and the sum in order is taken only
// when the verdict could differ between the two. Either sum of n numbers is within
// (n - 1) u sum |l| of the exact one, to first order (u = 2^-53; Higham, Accuracy and Stability
// of Numerical Algorithms, Sec. 4.2): the slack below is twice both together. For a positive
// mean the verdict only turns from false to true as the mean grows, so the same verdict at both
// ends of an interval holding the sum in order is its verdict.
bool balanced_enough(const std::vector<double>& loads, double tolerance) {
  const std::size_t n = loads.size();
  const auto verdict = [&](double max, double sum) {
    const double mean = sum / static_cast<double>(n);
    return !(mean > 0) || max / mean - 1 <= tolerance;
  };
  constexpr std::size_t kLanes = 8;
  double sum[kLanes] = {}, size[kLanes] = {}, max[kLanes];
  std::fill(max, max + kLanes, -std::numeric_limits<double>::infinity());
  std::size_t v = 0;
  for (; v + kLanes <= n; v += kLanes)
    for (std::size_t k = 0; k < kLanes; ++k) {
      const double l = loads[v + k];
      sum[k] += l;
      size[k] += std::abs(l);
      max[k] = std::max(max[k], l);
    }
  for (; v < n; ++v) {
    sum[0] += loads[v];
    size[0] += std::abs(loads[v]);
    max[0] = std::max(max[0], loads[v]);
  }
  const double total = std::accumulate(sum, sum + kLanes, 0.0);
  const double largest = *std::max_element(max, max + kLanes);
  const double slack = 4 * static_cast<double>(n) * 0x1p-53 * std::accumulate(size, size + kLanes, 0.0);
  const double low = total - slack, high = total + slack;
  if (low > 0 && verdict(largest, low) == verdict(largest, high)) return verdict(largest, low);
  return verdict(largest, std::accumulate(loads.begin(), loads.end(), 0.0));
}

// With capacities: max l_v / c_v over sum l / sum c, less 1, within the tolerance, both in
// node order as a rank protocol's reductions take them.
bool balanced_enough(const std::vector<double>& loads, double tolerance, const FlowCapacities& capacities) {
  if (capacities.empty()) return balanced_enough(loads, tolerance);
  double sum = 0, most = -std::numeric_limits<double>::infinity();
  for (std::size_t v = 0; v < loads.size(); ++v) {
    sum += loads[v];
    most = std::max(most, loads[v] / capacities[v]);
  }
  const double mean = sum / capacities.total;
  return !(mean > 0) || most / mean - 1 <= tolerance;
}

// Each round's messages are the same, so each kind of round is counted once and repeated.
// The reductions before the rounds (`checks` of them): the loads' sum and maximum reduced
// along a tree, the verdict back down it.
void count_reductions(PhaseContext& ctx, std::uint64_t checks) {
  if (checks == 0) return;
  const Protocol::Mark mark = ctx.protocol().mark();
  detail::all_reduce(ctx);
  ctx.protocol().repeat_since(mark, checks - 1);
}

}  // namespace

IdealFlow polynomial_flow(PhaseContext& ctx, double alpha, const std::vector<double>& betas, std::uint64_t max_rounds,
                          double tolerance, const FlowCapacities& capacities) {
  const Topology& t = ctx.topology();
  const auto offsets = t.neighbor_offsets();
  const auto n = static_cast<NodeId>(t.size());
  IdealFlow flow{.edge = std::vector<double>(offsets.back(), 0.0), .loads = ctx.loads()};
  // The flow on an edge is alpha times the sum over the rounds of z_v - z_u, that is alpha
  // (Z_v - Z_u) with Z the sum of the z vectors: a node's sum is kept each round, and the
  // edges' flows computed once at the end.
  std::vector<double> z(n), scaled(n), next(n), z_sum(n, 0.0);
  // First-order diffusion (every beta 1, so z = l) is the round loop's diffusion kernel on the
  // loads, vectorised: its l_v + sum_u alpha (l_u - l_v) is the l_v - sum_u alpha (l_v - l_u)
  // of the loop below with every term negated, which is exact, so it gives the same bits.
  const bool first_order = std::all_of(betas.begin(), betas.end(), [](double b) { return b == 1.0; }) &&
                           alpha > 0 && 1 - alpha * static_cast<double>(t.max_degree()) >= 0 && capacities.empty();
  const std::optional<DiffusionKernel> kernel =
      first_order ? std::optional<DiffusionKernel>(std::in_place, DiffusionMatrix::uniform(t, alpha), false)
                  : std::nullopt;
  std::uint64_t checks = 0;
  while (flow.rounds < max_rounds) {
    ++checks;
    if (balanced_enough(flow.loads, tolerance, capacities)) break;
    if (kernel) {
      for (NodeId v = 0; v < n; ++v) z_sum[v] += flow.loads[v];
      kernel->update(flow.rounds, flow.loads, next, 0, n);
    } else {
      const double beta = betas[std::min<std::size_t>(flow.rounds, betas.size() - 1)];
      // z_v / c_v is what node v sends (z_v, exactly, where the capacities are all 1).
      for (NodeId v = 0; v < n; ++v) {
        z[v] = flow.rounds == 0 ? flow.loads[v] : (beta - 1.0) * z[v] + beta * flow.loads[v];
        scaled[v] = z[v] / capacities[v];
        z_sum[v] += scaled[v];
      }
      for (NodeId v = 0; v < n; ++v) {
        double sent = 0;
        for (const NodeId u : t.neighbors(v)) sent += alpha * (scaled[v] - scaled[u]);
        next[v] = flow.loads[v] - sent;
      }
    }
    flow.loads.swap(next);
    ++flow.rounds;
  }
  for (NodeId v = 0; v < n; ++v) {
    const auto nb = t.neighbors(v);
    for (std::size_t k = 0; k < nb.size(); ++k) flow.edge[offsets[v] + k] = alpha * (z_sum[v] - z_sum[nb[k]]);
  }
  count_reductions(ctx, checks);
  if (flow.rounds > 0) {  // a round: every node's load (or z) to each neighbour
    for (NodeId v = 0; v < n; ++v)
      for (const NodeId u : t.neighbors(v)) ctx.protocol().send(v, u);
    ctx.protocol().end_round();
    ctx.protocol().repeat_last_round(flow.rounds - 1);
  }
  return flow;
}

IdealFlow exchange_flow(PhaseContext& ctx, const EdgeColoring& colouring, double lambda, std::uint64_t max_rounds,
                        double tolerance, const FlowCapacities& capacities) {
  const Topology& t = ctx.topology();
  const auto offsets = t.neighbor_offsets();
  const std::size_t n = t.size(), colours = colouring.colors();
  IdealFlow flow{.edge = std::vector<double>(offsets.back(), 0.0), .loads = ctx.loads()};
  // Per colour, each node's partner across it (itself where it has none: it exchanges zero)
  // and what it has sent to it, so that a round is one pass without searches or branches.
  std::vector<NodeId> partner(colours * n);
  for (std::size_t c = 0; c < colours; ++c)
    std::iota(partner.begin() + c * n, partner.begin() + (c + 1) * n, NodeId{0});
  for (NodeId v = 0; v < n; ++v) {
    const auto nb = t.neighbors(v);
    for (std::size_t k = 0; k < nb.size(); ++k) partner[colouring.color(v, k) * n + v] = nb[k];
  }
  std::vector<double> sent(colours * n, 0.0), next(n);
  std::uint64_t checks = 0;
  while (flow.rounds < max_rounds) {
    ++checks;
    if (balanced_enough(flow.loads, tolerance, capacities) || colours == 0) break;
    const std::size_t first = (flow.rounds % colours) * n;
    const NodeId* p = partner.data() + first;
    double* f = sent.data() + first;
    const double* l = flow.loads.data();
    if (capacities.empty()) {
      for (NodeId v = 0; v < n; ++v) {
        const double y = lambda * (l[v] - l[p[v]]);
        f[v] += y;
        next[v] = l[v] - y;
      }
    } else {
      for (NodeId v = 0; v < n; ++v) {
        const double cv = capacities[v], cp = capacities[p[v]];
        const double y = exchange_weight(lambda, cv, cp) * (l[v] / cv - l[p[v]] / cp);
        f[v] += y;
        next[v] = l[v] - y;
      }
    }
    flow.loads.swap(next);
    ++flow.rounds;
  }
  for (NodeId v = 0; v < n; ++v)
    for (std::size_t k = 0; k < t.degree(v); ++k) flow.edge[offsets[v] + k] = sent[colouring.color(v, k) * n + v];
  count_reductions(ctx, checks);
  // A round of colour c: a message each way across each edge of that colour.
  for (std::uint32_t c = 0; c < colouring.colors() && c < flow.rounds; ++c) {
    for (NodeId v = 0; v < t.size(); ++v) {
      const auto nb = t.neighbors(v);
      for (std::size_t k = 0; k < nb.size(); ++k)
        if (colouring.color(v, k) == c) ctx.protocol().send(v, nb[k]);
    }
    ctx.protocol().end_round();
    ctx.protocol().repeat_last_round((flow.rounds - 1 - c) / colouring.colors());
  }
  return flow;
}

// A migration round (hop): the nodes act on their own, so the hop is one round of messages
// (one announcement per edge the node still owes flow to). The first hop involves every node;
// each later one the nodes that received objects in the hop before, as they are the only
// ones with something new to ship. A node takes its outgoing edges largest remaining flow
// first and fills each from the migratable objects it held when the hop began, as `selection`
// says. A refused move (no room under the memory bound) leaves the object for its next edges;
// an object some neighbour had no room for and that is still on that node at the end is
// reported. Nodes act in id order, so a receiver's room is what the nodes before it left.
void realise(PhaseContext& ctx, const IdealFlow& flow, const Parameters& p) {
  const Topology& t = ctx.topology();
  const Phase& phase = ctx.phase();
  const auto offsets = t.neighbor_offsets();
  const bool close_gap = p[kFlowSelection] == kFlowSelection.choice("greedy");
  const long long hops = flow_hops(p, t, !flow_capacities(phase).empty());
  std::vector<double> owed(flow.edge.size()), moved(flow.edge.size(), 0.0);
  for (std::size_t s = 0; s < owed.size(); ++s) owed[s] = std::max(flow.edge[s], 0.0);
  std::vector<NodeId> refused_at(phase.objects.size(), NodeMemory::kNowhere);
  // transit=forward: in the first hop a node ships of its own objects only the outflow its
  // inflow does not cover (its net excess); what it receives it passes on in later hops, from
  // the objects that arrived, so that flow through a node moves the objects of the flow's
  // sources, not the node's own.
  const bool forward = p[kFlowTransit] == kFlowTransit.choice("forward");
  std::vector<double> own_budget(t.size(), std::numeric_limits<double>::infinity());
  if (forward) {
    std::vector<double> in(t.size(), 0.0), out(t.size(), 0.0);
    for (NodeId v = 0; v < t.size(); ++v) {
      const auto nb = t.neighbors(v);
      for (std::size_t k = 0; k < nb.size(); ++k)
        if (flow.edge[offsets[v] + k] > 0) {
          out[v] += flow.edge[offsets[v] + k];
          in[nb[k]] += flow.edge[offsets[v] + k];
        }
    }
    for (NodeId v = 0; v < t.size(); ++v) own_budget[v] = std::max(0.0, out[v] - in[v]);
  }

  using Candidate = std::pair<double, ObjectIndex>;  // (load, object), ascending
  // held: what a node may ship in the next hop (its own objects, then with forward only what
  // it has received); own: with forward, its own objects after the first hop (they stay).
  std::vector<std::vector<Candidate>> held(t.size()), arrived(t.size());
  for (ObjectIndex o = 0; o < phase.objects.size(); ++o)
    if (phase.objects[o].migratable) held[ctx.node_of(o)].emplace_back(phase.objects[o].load, o);
  for (auto& h : held) std::sort(h.begin(), h.end());
  std::vector<NodeId> active(t.size()), receivers;
  std::iota(active.begin(), active.end(), NodeId{0});
  std::vector<Candidate> set_aside;
  std::vector<std::size_t> slots;
  for (long long hop = 0; hop < hops && !active.empty(); ++hop) {
    for (const NodeId v : active) {
      const auto nb = t.neighbors(v);
      slots.clear();
      for (std::size_t k = 0; k < nb.size(); ++k)
        if (owed[offsets[v] + k] > 0) {
          slots.push_back(offsets[v] + k);
          ctx.protocol().send(v, nb[k]);
        }
      std::stable_sort(slots.begin(), slots.end(), [&](std::size_t a, std::size_t b) { return owed[a] > owed[b]; });
      auto& candidates = held[v];
      for (const std::size_t s : slots) {
        const NodeId u = nb[s - offsets[v]];
        double& left = owed[s];
        set_aside.clear();  // refused by u
        // Without a memory bound no move is refused: the hops are followed in held and
        // arrived alone, and each object is moved once, at the end, to the node it ends on.
        const auto ship = [&](std::vector<Candidate>::iterator it) {
          const Candidate c = *it;
          candidates.erase(it);
          if (phase.has_memory && !ctx.move(c.second, u)) {
            refused_at[c.second] = v;
            set_aside.push_back(c);
            return false;
          }
          left -= c.first;
          moved[s] += c.first;
          if (arrived[u].empty()) receivers.push_back(u);
          arrived[u].push_back(c);
          return true;
        };
        // In the first hop with forward, the node's own objects cover only its net excess.
        double& budget = own_budget[v];
        while (left > 0 && budget > 0 && !candidates.empty()) {
          const double want = std::min(left, budget);
          auto it = std::upper_bound(candidates.begin(), candidates.end(), Candidate{want, ~ObjectIndex{0}});
          if (it != candidates.begin()) {
            const double load = std::prev(it)->first;
            if (ship(std::prev(it)) && hop == 0) budget -= load;  // the largest not above what is left
            continue;
          }
          // Every object is above what is left: the smallest closes the gap if it lands nearer.
          if (!close_gap || candidates.front().first - want >= want) break;
          const double load = candidates.front().first;
          if (ship(candidates.begin())) {
            if (hop == 0) budget -= load;
            break;
          }
        }
        for (const Candidate& c : set_aside)
          candidates.insert(std::upper_bound(candidates.begin(), candidates.end(), c), c);
      }
    }
    ctx.protocol().end_round();
    if (forward && hop == 0) {
      // From now on a node ships only what it receives; its own objects stay.
      for (auto& h : held) h.clear();
      std::fill(own_budget.begin(), own_budget.end(), std::numeric_limits<double>::infinity());
    }
    // What arrived can be shipped on in the next hop.
    std::sort(receivers.begin(), receivers.end());
    for (const NodeId u : receivers) {
      auto& h = held[u];
      std::sort(arrived[u].begin(), arrived[u].end());
      const auto middle = h.insert(h.end(), arrived[u].begin(), arrived[u].end());
      std::inplace_merge(h.begin(), middle, h.end());
      arrived[u].clear();
    }
    active.swap(receivers);
    receivers.clear();
  }

  if (!phase.has_memory)  // see ship
    for (NodeId u = 0; u < t.size(); ++u)
      for (const Candidate& c : held[u]) ctx.move(c.second, u);
  for (ObjectIndex o = 0; o < refused_at.size(); ++o)
    if (refused_at[o] == ctx.node_of(o)) ctx.could_not_place(o);

  double error = 0, total = 0;
  for (std::size_t s = 0; s < flow.edge.size(); ++s)
    if (flow.edge[s] > 0) {
      error += std::abs(moved[s] - flow.edge[s]);
      total += flow.edge[s];
    }
  ctx.set_flow_error(total > 0 ? error / total : 0.0);
}

}  // namespace dlbkit
