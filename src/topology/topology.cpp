#include <dlbkit/topology/topology.hpp>

#include <dlbkit/error.hpp>
#include <dlbkit/topology/generators.hpp>

#include "topology_builder.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cassert>
#include <cstdlib>
#include <limits>
#include <map>
#include <mutex>
#include <utility>

namespace dlbkit {

struct Topology::Data {
  std::string spec;
  TopologyKind kind = TopologyKind::file;
  int order = 0;
  std::vector<int> extents;
  std::vector<std::uint32_t> offsets;
  NeighborLists lists;
  std::size_t min_degree = 0;
  std::size_t max_degree = 0;
  // Torus and ring: every node has the same slots, so one list of dimensions serves all.
  std::vector<EdgeDimension> slot_dimensions;
  // Mesh: the mixed-radix place value of each axis, to tell an edge's axis from its ends.
  std::vector<std::uint32_t> strides;

  // File graphs only, computed on first use. Data is shared by all copies of a Topology,
  // so each value is computed once per graph, whichever copy or thread asks first.
  mutable std::once_flag table_once;
  mutable std::vector<std::uint16_t> table;  // N x N hop counts when N <= kTableLimit
  mutable std::once_flag diameter_once;
  mutable int diameter = 0;
  mutable std::once_flag bipartite_once;
  mutable bool bipartite = false;
  // Topology::shared: derived structure, any kind of graph.
  mutable std::mutex shared_mutex;
  mutable std::map<std::pair<std::type_index, std::string>, std::shared_ptr<const void>> shared;

  std::size_t size() const { return offsets.size() - 1; }
  int bfs(NodeId source, std::vector<int>& dist, std::vector<NodeId>& queue,
          std::optional<NodeId> target = std::nullopt) const;
  const std::vector<std::uint16_t>& hop_table() const;
  int ifub_diameter() const;
};

namespace {

// 4096^2 hop counts of 16 bits = 32 MiB; past that, one BFS per distance() call.
constexpr std::size_t kTableLimit = 4096;

}  // namespace

// Breadth-first search into caller-owned buffers (reused across the all-pairs passes).
// Stops early once `target` is settled. Returns the eccentricity of `source` when run
// to completion.
int Topology::Data::bfs(NodeId source, std::vector<int>& dist, std::vector<NodeId>& queue,
                        std::optional<NodeId> target) const {
  std::fill(dist.begin(), dist.end(), -1);
  const NodeId* neighbors = lists.all();
  std::size_t head = 0;
  std::size_t tail = 0;
  dist[source] = 0;
  queue[tail++] = source;
  int far = 0;
  while (head < tail) {
    const NodeId v = queue[head++];
    if (target && v == *target) return dist[v];
    const int next = dist[v] + 1;
    for (std::uint32_t s = offsets[v]; s < offsets[v + 1]; ++s) {
      const NodeId u = neighbors[s];
      if (dist[u] < 0) {
        dist[u] = next;
        far = next;
        queue[tail++] = u;
      }
    }
  }
  return far;
}

// The exact diameter by iFUB (Crescenzi, Grossi, Habib, Lanzi, Marino, "On computing the
// diameter of real-world undirected graphs", TCS 514, 2013): from a central node u of
// eccentricity e, the nodes at distance i from u have eccentricity at most 2i, so once the
// largest eccentricity found among the farther nodes exceeds 2(i - 1) no closer node can
// beat it. A few breadth-first searches on most graphs (five on a path) instead of one per
// node; one per node at worst, as before. u is the middle of a longest path of a double
// sweep (from node 0 to its farthest a, from a to its farthest b).
int Topology::Data::ifub_diameter() const {
  const std::size_t n = size();
  const NodeId* neighbors = lists.all();
  std::vector<int> dist(n);
  std::vector<NodeId> queue(n);
  const auto farthest = [&](NodeId source) {
    bfs(source, dist, queue);
    return static_cast<NodeId>(std::max_element(dist.begin(), dist.end()) - dist.begin());
  };
  const NodeId a = farthest(0);
  const NodeId b = farthest(a);  // dist now holds the distances from a
  int lower = dist[b];
  // The middle of the path from a to b: walk back from b to distance lower / 2.
  const std::vector<int> from_a = dist;
  NodeId u = b;
  while (from_a[u] > lower / 2)
    for (std::uint32_t s = offsets[u]; s < offsets[u + 1]; ++s)
      if (from_a[neighbors[s]] == from_a[u] - 1) {
        u = neighbors[s];
        break;
      }
  const int e = bfs(u, dist, queue);  // queue: every node, nearest to u first (the graph is connected)
  const std::vector<NodeId> order = queue;
  const std::vector<int> from_u = dist;
  lower = std::max(lower, e);
  std::size_t at = n;
  for (int i = e; i > 0; --i) {
    for (; at > 0 && from_u[order[at - 1]] == i; --at) lower = std::max(lower, bfs(order[at - 1], dist, queue));
    if (lower > 2 * (i - 1)) break;  // every node nearer to u has eccentricity <= 2 (i - 1)
  }
  return lower;
}

// The all-pairs hop table of a file graph with N <= kTableLimit, built on first use.
const std::vector<std::uint16_t>& Topology::Data::hop_table() const {
  std::call_once(table_once, [this] {
    const std::size_t n = size();
    table.resize(n * n);
    std::vector<int> dist(n);
    std::vector<NodeId> queue(n);
    for (NodeId s = 0; s < n; ++s) {
      bfs(s, dist, queue);
      std::copy(dist.begin(), dist.end(), table.begin() + static_cast<std::ptrdiff_t>(s * n));
    }
  });
  return table;
}

std::optional<NodeId> first_unreachable(const std::vector<std::uint32_t>& offsets,
                                        const std::vector<NodeId>& neighbors) {
  const std::size_t n = offsets.size() - 1;
  std::vector<bool> seen(n, false);
  std::vector<NodeId> stack{0};
  seen[0] = true;
  std::size_t reached = 1;
  while (!stack.empty()) {
    const NodeId v = stack.back();
    stack.pop_back();
    for (std::uint32_t s = offsets[v]; s < offsets[v + 1]; ++s) {
      const NodeId u = neighbors[s];
      if (!seen[u]) {
        seen[u] = true;
        ++reached;
        stack.push_back(u);
      }
    }
  }
  if (reached == n) return std::nullopt;
  return static_cast<NodeId>(std::find(seen.begin(), seen.end(), false) - seen.begin());
}

std::optional<std::uint64_t> parse_decimal(std::string_view text) {
  if (text.empty()) return std::nullopt;
  constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
  std::uint64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    const auto digit = static_cast<std::uint64_t>(c - '0');
    value = value > (kMax - digit) / 10 ? kMax : value * 10 + digit;
  }
  return value;
}

Topology TopologyBuilder::finish() {
  auto data = std::make_shared<Topology::Data>();
  data->spec = std::move(spec);
  data->kind = kind;
  data->order = order;
  data->extents = std::move(extents);
  data->offsets = std::move(offsets);
  data->lists = fill ? NeighborLists(data->offsets, std::move(fill)) : NeighborLists(std::move(neighbors), data->offsets);

  const std::size_t n = data->offsets.size() - 1;
  data->min_degree = std::numeric_limits<std::size_t>::max();
  for (std::size_t v = 0; v < n; ++v) {
    const std::size_t deg = data->offsets[v + 1] - data->offsets[v];
    data->min_degree = std::min(data->min_degree, deg);
    data->max_degree = std::max(data->max_degree, deg);
  }

  for (std::size_t a = 0; a < data->extents.size(); ++a) {
    const int axis = static_cast<int>(a);
    if (data->kind == TopologyKind::torus || data->kind == TopologyKind::ring) {
      data->slot_dimensions.push_back({axis, +1});
      if (data->extents[a] > 2) data->slot_dimensions.push_back({axis, -1});
    } else if (data->kind == TopologyKind::mesh) {
      data->strides.push_back(a == 0 ? 1 : data->strides[a - 1] * static_cast<std::uint32_t>(data->extents[a - 1]));
    }
  }
  return Topology(std::move(data));
}

Topology::Topology(std::shared_ptr<const Data> data) : data_(std::move(data)) {}
Topology::~Topology() = default;

const void* Topology::shared_value(std::type_index type, const std::string& key,
                                   const std::function<std::shared_ptr<const void>()>& make) const {
  const std::lock_guard lock(data_->shared_mutex);
  auto& slot = data_->shared[{type, key}];
  if (!slot) slot = make();
  return slot.get();
}

Topology Topology::from_adjacency(std::string spec, const std::vector<std::vector<NodeId>>& adjacency) {
  const std::size_t n = adjacency.size();
  if (n == 0)
    throw InputError(fmt::format("{}: the graph has no nodes; accepted: 1 to {} nodes", spec, kMaxTopologyNodes));
  if (n > kMaxTopologyNodes)
    throw InputError(fmt::format("{}: {} nodes is too many; accepted: at most {} nodes", spec, n, kMaxTopologyNodes));

  // Every (v, u) slot as one sortable key: duplicates become neighbours in the sorted
  // list, and the reverse slot of each edge is found by binary search.
  std::vector<std::uint64_t> keys;
  for (std::size_t v = 0; v < n; ++v) {
    for (const NodeId u : adjacency[v]) {
      if (u >= n)
        throw InputError(
            fmt::format("{}: node {} lists neighbour {}, which is out of range; accepted: 0 to {}", spec, v, u, n - 1));
      if (u == v)
        throw InputError(fmt::format(
            "{}: node {} lists itself (a self-loop); accepted: edges between two different nodes", spec, v));
      keys.push_back((std::uint64_t{v} << 32) | u);
    }
  }
  if (keys.size() > 2 * kMaxFileEdges)
    throw InputError(
        fmt::format("{}: {} edges is too many; accepted: at most {} edges", spec, keys.size() / 2, kMaxFileEdges));
  std::sort(keys.begin(), keys.end());
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto v = static_cast<NodeId>(keys[i] >> 32);
    const auto u = static_cast<NodeId>(keys[i]);
    if (i > 0 && keys[i] == keys[i - 1])
      throw InputError(fmt::format("{}: node {} lists neighbour {} twice; accepted: each neighbour once", spec, v, u));
    if (!std::binary_search(keys.begin(), keys.end(), (std::uint64_t{u} << 32) | v))
      throw InputError(fmt::format(
          "{}: node {} lists {} but node {} does not list {}; accepted: edges listed at both ends", spec, v, u, u, v));
  }

  TopologyBuilder b;
  b.spec = std::move(spec);
  b.kind = TopologyKind::file;
  b.offsets.reserve(n + 1);
  b.offsets.push_back(0);
  b.neighbors.reserve(keys.size());
  for (const auto& list : adjacency) {
    b.neighbors.insert(b.neighbors.end(), list.begin(), list.end());
    b.offsets.push_back(static_cast<std::uint32_t>(b.neighbors.size()));
  }
  if (const auto lost = first_unreachable(b.offsets, b.neighbors))
    throw InputError(
        fmt::format("{}: the graph is disconnected: node {} is unreachable from node 0; accepted: connected graphs",
                    b.spec, *lost));
  return b.finish();
}

const std::string& Topology::spec() const { return data_->spec; }
TopologyKind Topology::kind() const { return data_->kind; }
std::size_t Topology::size() const { return data_->offsets.size() - 1; }
std::size_t Topology::edge_count() const { return data_->lists.size() / 2; }
std::size_t Topology::min_degree() const { return data_->min_degree; }
std::size_t Topology::max_degree() const { return data_->max_degree; }

std::size_t Topology::degree(NodeId v) const {
  assert(v < size());
  return data_->offsets[v + 1] - data_->offsets[v];
}

std::span<const NodeId> Topology::neighbors(NodeId v) const {
  assert(v < size());
  const std::uint32_t begin = data_->offsets[v];
  return {data_->lists.with(v) + begin, data_->offsets[v + 1] - begin};
}

std::span<const std::uint32_t> Topology::neighbor_offsets() const { return data_->offsets; }

int Topology::neighbor_index(NodeId v, NodeId u) const {
  if (data_->kind == TopologyKind::hypercube) {  // neighbour i of v is v ^ 2^i (make_hypercube)
    const NodeId differs = u ^ v;
    // One bit set, tested without popcount (a library call on the baseline x86-64 target).
    return differs != 0 && (differs & (differs - 1)) == 0 ? std::countr_zero(differs) : -1;
  }
  const auto nb = neighbors(v);
  for (std::size_t i = 0; i < nb.size(); ++i)
    if (nb[i] == u) return static_cast<int>(i);
  return -1;
}

std::span<const int> Topology::extents() const { return data_->extents; }

std::vector<int> Topology::bfs_distances(NodeId source) const {
  assert(source < size());
  std::vector<int> dist(size());
  std::vector<NodeId> queue(size());
  data_->bfs(source, dist, queue);
  return dist;
}

int Topology::distance(NodeId u, NodeId v) const {
  assert(u < size() && v < size());
  const Data& g = *data_;
  switch (g.kind) {
    case TopologyKind::hypercube: return std::popcount(u ^ v);
    case TopologyKind::torus:
    case TopologyKind::ring:
    case TopologyKind::mesh: {
      int hops = 0;
      for (const int k : g.extents) {
        const auto ku = static_cast<NodeId>(k);
        const int d = std::abs(static_cast<int>(u % ku) - static_cast<int>(v % ku));
        hops += g.kind == TopologyKind::mesh ? d : std::min(d, k - d);
        u /= ku;
        v /= ku;
      }
      return hops;
    }
    case TopologyKind::complete: return u == v ? 0 : 1;
    case TopologyKind::tree: {
      // Heap order, 1-based: the depth is the bit width; lift the deeper node to the
      // other's depth, then both climb to the lowest common ancestor together.
      NodeId a = u + 1;
      NodeId b = v + 1;
      const int da = std::bit_width(a);
      const int db = std::bit_width(b);
      if (da > db)
        a >>= da - db;
      else
        b >>= db - da;
      return std::abs(da - db) + 2 * std::bit_width(a ^ b);
    }
    case TopologyKind::bisectional: {
      // AG91 Sec. 3.2: L = min(H, n - H).
      const int h = std::popcount(bisectional_word(g.order, u) ^ bisectional_word(g.order, v));
      return std::min(h, g.order - h);
    }
    case TopologyKind::odd: {
      // k = |A and B|. Two steps swap one element of the set, so an even walk needs
      // 2(n-1-k) steps; an odd walk must end beside B, inside B's complement, which holds
      // n-1-k elements of A, so it needs 2k+1 steps.
      const int n = g.order;
      const int k = std::popcount(odd_word(n, u) & odd_word(n, v));
      return std::min(2 * (n - 1 - k), 2 * k + 1);
    }
    case TopologyKind::file: break;
  }
  const std::size_t n = size();
  if (n <= kTableLimit) return g.hop_table()[std::size_t{u} * n + v];
  std::vector<int> dist(n);
  std::vector<NodeId> queue(n);
  return g.bfs(u, dist, queue, v);
}

int Topology::diameter() const {
  const Data& g = *data_;
  int sum = 0;
  switch (g.kind) {
    case TopologyKind::hypercube: return g.order;
    case TopologyKind::bisectional: return (g.order - 1) / 2;
    case TopologyKind::torus:
    case TopologyKind::ring:
      for (const int k : g.extents) sum += k / 2;
      return sum;
    case TopologyKind::mesh:
      for (const int k : g.extents) sum += k - 1;
      return sum;
    case TopologyKind::tree: return 2 * (g.order - 1);
    case TopologyKind::complete: return size() == 1 ? 0 : 1;
    case TopologyKind::odd: return g.order - 1;
    case TopologyKind::file: break;
  }
  std::call_once(g.diameter_once, [this, &g] {
    const std::size_t n = size();
    if (n <= kTableLimit) {
      const auto& table = g.hop_table();
      g.diameter = *std::max_element(table.begin(), table.end());
      return;
    }
    g.diameter = g.ifub_diameter();
  });
  return g.diameter;
}

bool Topology::bipartite() const {
  const Data& g = *data_;
  switch (g.kind) {
    case TopologyKind::hypercube:
    case TopologyKind::mesh:
    case TopologyKind::tree: return true;
    case TopologyKind::torus:
    case TopologyKind::ring: return std::all_of(g.extents.begin(), g.extents.end(), [](int k) { return k % 2 == 0; });
    case TopologyKind::complete: return size() <= 2;
    case TopologyKind::bisectional:  // n odd: keeping bits 0..n-1 in turn closes an n-cycle
    case TopologyKind::odd:          // odd girth 2n-1
      return false;
    case TopologyKind::file: break;
  }
  std::call_once(g.bipartite_once, [this, &g] {
    // The graph is connected, so one BFS from node 0 colours it by distance parity.
    const std::vector<int> dist = bfs_distances(0);
    g.bipartite = true;
    for (NodeId v = 0; v < size() && g.bipartite; ++v)
      for (const NodeId u : neighbors(v))
        if (dist[u] % 2 == dist[v] % 2) g.bipartite = false;
  });
  return g.bipartite;
}

std::optional<EdgeDimension> Topology::edge_dimension(NodeId v, std::size_t neighbor_index) const {
  assert(neighbor_index < degree(v));
  const Data& g = *data_;
  switch (g.kind) {
    case TopologyKind::hypercube: return EdgeDimension{static_cast<int>(neighbor_index), 0};
    case TopologyKind::torus:
    case TopologyKind::ring: return g.slot_dimensions[neighbor_index];
    case TopologyKind::mesh: {
      // Border nodes skip slots, so recover the axis from the id difference: axes of
      // extent > 1 have distinct strides, and only they carry edges.
      const NodeId u = neighbors(v)[neighbor_index];
      const std::uint32_t step = u > v ? u - v : v - u;
      for (std::size_t a = 0; a < g.extents.size(); ++a)
        if (g.extents[a] > 1 && g.strides[a] == step) return EdgeDimension{static_cast<int>(a), u > v ? +1 : -1};
      assert(false && "mesh edge along no axis");
      return std::nullopt;
    }
    default: return std::nullopt;
  }
}

// ---- parse_topology -------------------------------------------------------------------

namespace {

struct SpecForm {
  std::string_view family;
  std::string_view form;
  std::string_view what;
  std::string limits;
};

const std::vector<SpecForm>& spec_form_table() {
  static const std::vector<SpecForm> table = {
      {"hypercube", "hypercube:d", "binary d-cube Q_d",
       fmt::format("1 <= d <= {} (2 to {} nodes)", kMaxHypercubeDimension, kMaxTopologyNodes)},
      {"torus", "torus:AxBx...", "wrap-around grid",
       fmt::format("1 to {} extents, each >= 2, at most {} nodes in total", kMaxAxes, kMaxTopologyNodes)},
      {"mesh", "mesh:AxBx...", "grid without wrap-around",
       fmt::format("1 to {} extents, each >= 1, at most {} nodes in total", kMaxAxes, kMaxTopologyNodes)},
      {"ring", "ring:N", "cycle", fmt::format("3 <= N <= {}", kMaxTopologyNodes)},
      {"tree", "tree:binary:L", "complete binary tree of L levels",
       fmt::format("1 <= L <= {} (1 to {} nodes)", kMaxTreeLevels, (std::size_t{1} << kMaxTreeLevels) - 1)},
      {"complete", "complete:N", "complete graph K_N", fmt::format("1 <= N <= {}", kMaxCompleteNodes)},
      {"bisectional", "bisectional:n", "bisectional network B_n (AG91 Sec. 3.2)",
       fmt::format("odd n, {} <= n <= {} (4 to {} nodes)", kMinBisectional, kMaxBisectional, kMaxTopologyNodes)},
      {"odd", "odd:n", "odd graph O_n (AG91 Sec. 3.3)",
       fmt::format("{} <= n <= {} (3 to {} nodes)", kMinOdd, kMaxOdd, odd_node_count(kMaxOdd))},
      {"file", "file:PATH", "edge-list file (docs/topology-files.md)",
       fmt::format("a connected graph of at most {} nodes", kMaxTopologyNodes)},
  };
  return table;
}

const SpecForm* find_form(std::string_view family) {
  for (const SpecForm& f : spec_form_table())
    if (f.family == family) return &f;
  return nullptr;
}

[[noreturn]] void reject(const std::string& spec, const std::string& problem, const SpecForm& form) {
  throw InputError(fmt::format("{}: {}; accepted: {} with {}", excerpt(spec), problem, form.form, form.limits));
}

// Parses one numeric field. Values past int are rejected here; the generator checks the
// rest against the family's own limits.
int parse_field(const std::string& spec, std::string_view text, std::string_view what, const SpecForm& form) {
  if (text.empty()) reject(spec, fmt::format("missing {}", what), form);
  const auto value = parse_decimal(text);
  if (!value) reject(spec, fmt::format("{} '{}' is not a number", what, excerpt(text)), form);
  if (*value > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    reject(spec, fmt::format("{} {} is out of range", what, excerpt(text)), form);
  return static_cast<int>(*value);
}

std::vector<int> parse_extents(const std::string& spec, std::string_view text, const SpecForm& form) {
  std::vector<int> extents;
  for (;;) {
    const std::size_t x = text.find('x');
    extents.push_back(parse_field(spec, text.substr(0, x), fmt::format("extent (axis {})", extents.size()), form));
    if (x == std::string_view::npos) return extents;
    text.remove_prefix(x + 1);
  }
}

}  // namespace

const std::vector<std::string>& topology_spec_forms() {
  static const std::vector<std::string> lines = [] {
    std::vector<std::string> out;
    for (const SpecForm& f : spec_form_table()) out.push_back(fmt::format("{:<15} {}; {}", f.form, f.what, f.limits));
    return out;
  }();
  return lines;
}

Topology parse_topology(const std::string& spec) {
  const std::size_t colon = spec.find(':');
  const std::string_view family = std::string_view(spec).substr(0, colon);
  const SpecForm* form = find_form(family);
  if (form == nullptr) {
    std::string accepted;
    for (const SpecForm& f : spec_form_table()) accepted += fmt::format("{}{}", accepted.empty() ? "" : ", ", f.form);
    throw InputError(fmt::format("{}: unknown topology family '{}'; accepted: {}", spec, family, accepted));
  }
  const std::string_view arg =
      colon == std::string::npos ? std::string_view{} : std::string_view(spec).substr(colon + 1);

  if (family == "file") {
    if (arg.empty())
      throw InputError(
          fmt::format("{}: missing path; accepted: file:PATH naming an edge-list file ({})", spec, form->what));
    return load_edge_list(std::string(arg));
  }
  if (family == "hypercube") return make_hypercube(parse_field(spec, arg, "dimension", *form));
  if (family == "torus") return make_torus(parse_extents(spec, arg, *form));
  if (family == "mesh") return make_mesh(parse_extents(spec, arg, *form));
  if (family == "ring") return make_ring(parse_field(spec, arg, "node count", *form));
  if (family == "complete") return make_complete(parse_field(spec, arg, "node count", *form));
  if (family == "bisectional") return make_bisectional(parse_field(spec, arg, "n", *form));
  if (family == "odd") return make_odd(parse_field(spec, arg, "n", *form));
  // tree:binary:L names the arity so that other trees can be added without a new family.
  const std::size_t colon2 = arg.find(':');
  const std::string_view arity = arg.substr(0, colon2);
  if (arity != "binary") reject(spec, fmt::format("tree kind '{}' is not supported", arity), *form);
  const std::string_view levels = colon2 == std::string_view::npos ? std::string_view{} : arg.substr(colon2 + 1);
  return make_binary_tree(parse_field(spec, levels, "levels", *form));
}

}  // namespace dlbkit
