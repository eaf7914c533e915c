#include <dlbkit/analysis/hadamard.hpp>
#include <dlbkit/analysis/spheres.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <bit>
#include <fmt/format.h>
#include <limits>
#include <span>
#include <stdexcept>

namespace dlbkit {

namespace {

std::uint64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t b = 1;
  for (int i = 1; i <= k; ++i) b = b * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return b;
}

// The node ids of the generators (topology/generators.hpp): Q_n the word itself, B_n the
// low n-1 bits of the even-weight word, O_n the colex rank of the weight-(n-1) word.
NodeId node_of(TopologyKind kind, int n, std::uint64_t word) {
  switch (kind) {
    case TopologyKind::hypercube: return static_cast<NodeId>(word);
    case TopologyKind::bisectional:
      if (std::popcount(word) % 2 != 0) throw std::logic_error("B_n scheduler word of odd weight");
      return static_cast<NodeId>(word & ((std::uint64_t{1} << (n - 1)) - 1));
    case TopologyKind::odd: {
      if (std::popcount(word) != n - 1) throw std::logic_error("O_n scheduler word of weight other than n-1");
      std::uint64_t rank = 0;
      int i = 1;
      for (std::uint64_t w = word; w != 0; w &= w - 1, ++i) rank += binomial(std::countr_zero(w), i);
      return static_cast<NodeId>(rank);
    }
    default: throw std::logic_error("node_of: not a Q_n, B_n or O_n topology");
  }
}

// Hadamard order each family needs for degree n (AG91 Sec. 4.3), 0 when there is no rule.
int needed_order(TopologyKind kind, int n) {
  switch (kind) {
    case TopologyKind::hypercube: {
      const int order[] = {n, n - 1, n - 2, n + 1};
      return n >= 3 ? order[n % 4] : 0;
    }
    case TopologyKind::bisectional: return n % 4 == 1 ? n - 1 : n + 1;
    case TopologyKind::odd: return n % 2 == 0 ? 2 * n : 0;
    default: return 0;
  }
}

std::string family_sizes(TopologyKind kind, int lo, int hi, int step, const char* name) {
  std::vector<int> sizes;
  for (int n = lo; n <= hi; n += step) {
    const int h = needed_order(kind, n);
    if (h >= 4 && has_hadamard(h)) sizes.push_back(n);
  }
  std::string text;
  for (int s : sizes) text += (text.empty() ? "" : ", ") + std::to_string(s);
  return fmt::format("{}:{{{}}}", name, text);
}

// Breadth-first search from `sources` out to `radius` only: calls visit(node, distance to
// the nearest source) for every node of the ball, so a sphere costs its own size, not the
// network's.
class Ball {
public:
  explicit Ball(const Topology& t) : topology_(t), seen_(t.size(), 0) {}

  template <class Visit>
  void walk(NodeId source, int radius, Visit&& visit) {
    walk(std::span(&source, 1), radius, visit);
  }

  template <class Visit>
  void walk(std::span<const NodeId> sources, int radius, Visit&& visit) {
    ++stamp_;
    frontier_.clear();
    for (NodeId x : sources)
      if (seen_[x] != stamp_) {
        seen_[x] = stamp_;
        frontier_.push_back(x);
      }
    for (int d = 0; !frontier_.empty(); ++d) {
      for (NodeId v : frontier_) visit(v, d);
      if (d == radius) break;
      next_.clear();
      for (NodeId v : frontier_)
        for (NodeId u : topology_.neighbors(v))
          if (seen_[u] != stamp_) {
            seen_[u] = stamp_;
            next_.push_back(u);
          }
      frontier_.swap(next_);
    }
  }

private:
  const Topology& topology_;
  std::vector<std::uint32_t> seen_;
  std::uint32_t stamp_ = 0;
  std::vector<NodeId> frontier_, next_;
};

// Every node's distance to the nearest node of `set` (-1 if none reaches it): one
// breadth-first search from all, without a radius.
std::vector<int> distance_to_set(const Topology& topology, const std::vector<NodeId>& set) {
  std::vector<int> dist(topology.size(), -1);
  Ball(topology).walk(set, std::numeric_limits<int>::max(), [&](NodeId v, int d) { dist[v] = d; });
  return dist;
}

}  // namespace

std::string scheduler_set_sizes() {
  // The families' own limits (topology/generators.hpp): hypercube 1..24, bisectional odd
  // 3..25, odd 2..12.
  return fmt::format("{}; {}; {}", family_sizes(TopologyKind::hypercube, 1, 24, 1, "hypercube"),
                     family_sizes(TopologyKind::bisectional, 3, 25, 2, "bisectional"),
                     family_sizes(TopologyKind::odd, 2, 12, 1, "odd"));
}

SchedulerSet scheduler_set(const Topology& topology) {
  const TopologyKind kind = topology.kind();
  const int n = static_cast<int>(topology.degree(0));
  const int h = needed_order(kind, n);
  if (h < 4 || !has_hadamard(h)) {
    std::string why;
    if (kind == TopologyKind::odd && n % 2 != 0)
      why = fmt::format("O_n needs a Hadamard matrix of order 2n = {}, which is not a multiple of 4", 2 * n);
    else if (h > 0 && h < 4)
      why = fmt::format("the network is too small for a Hadamard code (order {})", h);
    else if (h > 0)
      why = fmt::format("no Hadamard matrix of order {} is built", h);
    else
      why = "scheduler sets are defined for the hypercube, bisectional and odd networks only (AG91 Sec. 4.3)";
    throw InputError(fmt::format("{}: no scheduler set: {}; accepted: {}", topology.spec(), why, scheduler_set_sizes()));
  }
  const HadamardMatrix matrix = hadamard(h);
  const std::vector<std::uint64_t> m = zero_one_rows(matrix);  // row 0 is the all-0 word
  const std::vector<std::uint64_t> mc = complement_rows(m, h);  // row 0 is the all-1 word
  SchedulerSet set;
  set.n = n;
  set.hadamard_order = h;
  set.hadamard_construction = matrix.construction;
  std::vector<std::uint64_t>& c = set.codewords;
  switch (kind) {
    case TopologyKind::hypercube:
      set.family = fmt::format("Q_{}", n);
      set.word_length = n;
      if (n % 4 == 0) {  // Theorem 2: the rows of M and M^C
        set.rule = "n = 0 mod 4: rows of M and M^C";
        c = m;
        c.insert(c.end(), mc.begin(), mc.end());
      } else if (n % 4 == 1) {  // Case a: a 0 column before M, a 1 column before M^C
        set.rule = "Case a (n = 1 mod 4): M with a 0 column, M^C with a 1 column, order n-1";
        for (std::uint64_t r : m) c.push_back(r << 1);
        for (std::uint64_t r : mc) c.push_back((r << 1) | 1);
      } else if (n % 4 == 2) {  // Case b: columns 01 before M, 10 before M^C; 00 and 11 for the constant rows
        set.rule = "Case b (n = 2 mod 4): M with columns 01 (all-0 row: 00), M^C with 10 (all-1 row: 11), order n-2";
        for (std::size_t i = 0; i < m.size(); ++i) c.push_back((m[i] << 2) | (i == 0 ? 0b00 : 0b10));
        for (std::size_t i = 0; i < mc.size(); ++i) c.push_back((mc[i] << 2) | (i == 0 ? 0b11 : 0b01));
      } else {  // Case c: the truncated M and M^C (column 0 dropped), the constant rows kept
        set.rule = "Case c (n = 3 mod 4): M and M^C of order n+1 truncated (all-0 column dropped)";
        const auto t = drop_first_column(m);
        c = t;
        const auto tc = complement_rows(t, n);
        c.insert(c.end(), tc.begin(), tc.end());
      }
      break;
    case TopologyKind::bisectional:
      set.family = fmt::format("B_{}", n);
      set.word_length = n;
      if (n % 4 == 1) {
        set.rule = "M only (Case a, n = 1 mod 4): M of order n-1 with a 0 column";
        for (std::uint64_t r : m) c.push_back(r << 1);
      } else {
        set.rule = "M only (Lemma 1, n = 3 mod 4): M of order n+1 truncated, all-0 row kept";
        c = drop_first_column(m);
      }
      break;
    case TopologyKind::odd: {
      set.family = fmt::format("O_{}", n);
      set.word_length = 2 * n - 1;
      // Lemma 1: the truncated M without its all-0 row, 2n-1 words of length 2n-1. Its rows
      // weigh n; O_n's vertices weigh n-1, so the words are taken complemented (the paper's
      // O_6 generator 10111000101 weighs 6 and is not a vertex of O_6 as printed).
      set.rule = "Lemma 1: truncated M of order 2n without its all-0 row, complemented to weight n-1";
      std::vector<std::uint64_t> t = drop_first_column(m);
      t.erase(t.begin());
      c = complement_rows(t, 2 * n - 1);
      break;
    }
    default: break;
  }
  for (std::uint64_t w : c) set.schedulers.push_back(node_of(kind, n, w));
  return set;
}

SphereStructure analyze_spheres(const Topology& topology, const SchedulerSet& set) {
  SphereStructure s;
  s.nodes = topology.size();
  s.degree = static_cast<int>(topology.degree(0));
  const auto& c = set.schedulers;
  s.min_distance = std::numeric_limits<int>::max();
  for (std::size_t i = 0; i < c.size(); ++i)
    for (std::size_t j = i + 1; j < c.size(); ++j) {
      const int d = topology.distance(c[i], c[j]);
      ++s.pair_distances[d];
      s.min_distance = std::min(s.min_distance, d);
    }
  if (c.size() < 2) s.min_distance = 0;
  // Covering radius: multi-source BFS from C (AG91 Sec. 3 definition).
  const std::vector<int> dist = distance_to_set(topology, c);
  s.covering_radius = *std::max_element(dist.begin(), dist.end());
  Ball ball(topology);
  for (std::size_t k = 0; k < c.size(); ++k) {
    std::vector<std::size_t> v(static_cast<std::size_t>(s.covering_radius) + 1, 0);
    ball.walk(c[k], s.covering_radius, [&](NodeId, int d) { ++v[static_cast<std::size_t>(d)]; });
    if (k == 0) s.valencies = v;
    else if (v != s.valencies)
      throw std::logic_error(fmt::format("{}: spheres of schedulers 0 and {} differ in size", topology.spec(), k));
  }
  for (std::size_t v : s.valencies) s.sphere_size += v;
  return s;
}

std::vector<std::vector<std::uint32_t>> sphere_membership(const Topology& topology, const std::vector<NodeId>& schedulers,
                                                          int range) {
  std::vector<std::vector<std::uint32_t>> member(topology.size());
  Ball ball(topology);
  for (std::uint32_t k = 0; k < schedulers.size(); ++k)
    ball.walk(schedulers[k], range, [&](NodeId v, int) { member[v].push_back(k); });
  return member;
}

std::vector<SharingRow> sharing_distribution(const Topology& topology, const SchedulerSet& set, int range) {
  if (range < 0) throw InputError(fmt::format("range {}: accepted: 0 or more", range));
  const std::vector<int> nearest = distance_to_set(topology, set.schedulers);
  std::vector<std::size_t> covered(topology.size(), 0);  // the spheres that hold each node
  Ball ball(topology);
  for (NodeId x : set.schedulers) ball.walk(x, range, [&](NodeId v, int) { ++covered[v]; });
  const int r = *std::max_element(nearest.begin(), nearest.end());
  std::vector<SharingRow> rows(static_cast<std::size_t>(r) + 1);
  for (int d = 0; d <= r; ++d) rows[static_cast<std::size_t>(d)].distance = d;
  for (NodeId v = 0; v < topology.size(); ++v) {
    SharingRow& row = rows[static_cast<std::size_t>(nearest[v])];
    ++row.nodes;
    ++row.spheres[covered[v]];
  }
  return rows;
}

}  // namespace dlbkit
