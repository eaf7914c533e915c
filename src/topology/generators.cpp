#include <dlbkit/topology/generators.hpp>

#include <dlbkit/io/input_file.hpp>
#include <dlbkit/io/line_reader.hpp>
#include <dlbkit/error.hpp>

#include "topology_builder.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cassert>
#include <cerrno>
#include <fstream>
#include <limits>
#include <system_error>
#include <tuple>

namespace dlbkit {
namespace {

constexpr int kMaxOddWordBits = 2 * kMaxOdd - 1;

// kBinomial[m][k] = C(m, k) for m <= 2 * kMaxOdd - 1: ranks weight-(n-1) words of O_n.
constexpr auto kBinomial = [] {
  std::array<std::array<std::uint32_t, kMaxOddWordBits + 1>, kMaxOddWordBits + 1> c{};
  for (std::size_t m = 0; m <= kMaxOddWordBits; ++m) {
    c[m][0] = 1;
    for (std::size_t k = 1; k <= m; ++k) c[m][k] = c[m - 1][k - 1] + c[m - 1][k];
  }
  return c;
}();

std::string join_extents(const std::vector<int>& extents) { return fmt::format("{}", fmt::join(extents, "x")); }

TopologyBuilder start(std::string spec, TopologyKind kind, int order, std::size_t nodes, std::size_t slots) {
  TopologyBuilder b;
  b.spec = std::move(spec);
  b.kind = kind;
  b.order = order;
  b.offsets.resize(nodes + 1);
  b.neighbors.resize(slots);
  return b;
}

// Checks a torus or mesh shape and returns its node count.
std::size_t grid_nodes(const std::string& spec, const std::vector<int>& extents, int min_extent) {
  const std::string accepted =
      fmt::format("1 to {} extents, each >= {}, at most {} nodes in total", kMaxAxes, min_extent, kMaxTopologyNodes);
  if (extents.empty() || extents.size() > static_cast<std::size_t>(kMaxAxes))
    throw InputError(fmt::format("{}: {} extents is out of range; accepted: {}", spec, extents.size(), accepted));
  std::uint64_t nodes = 1;
  bool saturated = false;
  for (std::size_t a = 0; a < extents.size(); ++a) {
    const int k = extents[a];
    if (k < min_extent)
      throw InputError(fmt::format("{}: extent {} (axis {}) is out of range; accepted: {}", spec, k, a, accepted));
    const auto uk = static_cast<std::uint64_t>(k);
    if (nodes > std::numeric_limits<std::uint64_t>::max() / uk)
      saturated = true;
    else
      nodes *= uk;
  }
  if (saturated || nodes > kMaxTopologyNodes)
    throw InputError(fmt::format("{}: {} nodes is too many; accepted: {}", spec,
                                 saturated ? std::string("more than 2^64") : std::to_string(nodes), accepted));
  return static_cast<std::size_t>(nodes);
}

// Torus, ring and mesh: mixed radix with axis 0 fastest; per axis the +1 neighbour, then
// the -1 neighbour (skipped when it equals the +1 one, or, without wrap, off the border).
Topology make_grid(std::string spec, TopologyKind kind, int order, std::vector<int> extents, std::size_t n, bool wrap) {
  TopologyBuilder b = start(std::move(spec), kind, order, n, 0);
  // Node v's list, written at `out` when given; returns its length.
  const auto list = [extents, wrap](NodeId v, NodeId* out) {
    std::uint32_t len = 0;
    std::uint32_t stride = 1;
    NodeId rest = v;
    for (const int extent : extents) {
      const auto k = static_cast<std::uint32_t>(extent);
      const std::uint32_t c = rest % k;
      rest /= k;
      const std::uint32_t s = stride;
      stride *= k;
      const bool up = wrap || c + 1 < k;
      const bool down = wrap ? k > 2 : c > 0;
      if (out != nullptr) {
        if (up) out[len] = c + 1 < k ? v + s : v - (k - 1) * s;
        if (down) out[len + (up ? 1 : 0)] = c > 0 ? v - s : v + (k - 1) * s;
      }
      len += (up ? 1 : 0) + (down ? 1 : 0);
    }
    return len;
  };
  // A torus's or ring's nodes all have node 0's degree; a mesh's border nodes fewer.
  const std::uint32_t degree = list(0, nullptr);
  std::uint32_t pos = 0;
  for (NodeId v = 0; v < n; ++v) {
    b.offsets[v] = pos;
    pos += wrap ? degree : list(v, nullptr);
  }
  b.offsets[n] = pos;
  b.fill = list;
  b.extents = std::move(extents);
  return b.finish();
}

void check_bisectional(int n) {
  if (n < kMinBisectional || n > kMaxBisectional)
    throw InputError(
        fmt::format("bisectional:{}: n = {} is out of range; accepted: odd n from {} to {} (4 to {} nodes)", n, n,
                    kMinBisectional, kMaxBisectional, kMaxTopologyNodes));
  if (n % 2 == 0)
    throw InputError(fmt::format("bisectional:{}: n = {} is even; accepted: odd n from {} to {} (4 to {} nodes)", n, n,
                                 kMinBisectional, kMaxBisectional, kMaxTopologyNodes));
}

void check_odd(int n) {
  if (n < kMinOdd || n > kMaxOdd)
    throw InputError(fmt::format("odd:{}: n = {} is out of range; accepted: {} to {} (3 to {} nodes)", n, n, kMinOdd,
                                 kMaxOdd, odd_node_count(kMaxOdd)));
}

}  // namespace

std::size_t odd_node_count(int n) {
  assert(n >= kMinOdd && n <= kMaxOdd);
  return kBinomial[static_cast<std::size_t>(2 * n - 1)][static_cast<std::size_t>(n - 1)];
}

Topology make_hypercube(int d) {
  const std::string spec = fmt::format("hypercube:{}", d);
  if (d < 1 || d > kMaxHypercubeDimension)
    throw InputError(fmt::format("{}: dimension {} is out of range; accepted: 1 to {} (2 to {} nodes)", spec, d,
                                 kMaxHypercubeDimension, kMaxTopologyNodes));
  const std::uint32_t n = std::uint32_t{1} << d;
  const auto ud = static_cast<std::uint32_t>(d);
  TopologyBuilder b = start(spec, TopologyKind::hypercube, d, n, 0);
  for (NodeId v = 0; v <= n; ++v) b.offsets[v] = v * ud;
  b.fill = [ud](NodeId v, NodeId* list) {
    for (std::uint32_t i = 0; i < ud; ++i) list[i] = v ^ (NodeId{1} << i);
  };
  b.extents.assign(static_cast<std::size_t>(d), 2);
  return b.finish();
}

Topology make_torus(const std::vector<int>& extents) {
  std::string spec = "torus:" + join_extents(extents);
  const std::size_t n = grid_nodes(spec, extents, 2);
  return make_grid(std::move(spec), TopologyKind::torus, static_cast<int>(extents.size()), extents, n, true);
}

Topology make_mesh(const std::vector<int>& extents) {
  std::string spec = "mesh:" + join_extents(extents);
  const std::size_t n = grid_nodes(spec, extents, 1);
  return make_grid(std::move(spec), TopologyKind::mesh, static_cast<int>(extents.size()), extents, n, false);
}

Topology make_ring(int n) {
  std::string spec = fmt::format("ring:{}", n);
  if (n < 3 || static_cast<std::size_t>(n) > kMaxTopologyNodes) {
    const std::string hint = n == 1 || n == 2 ? fmt::format(" (use complete:{} for {} nodes)", n, n) : "";
    throw InputError(
        fmt::format("{}: {} nodes is out of range; accepted: 3 to {} nodes{}", spec, n, kMaxTopologyNodes, hint));
  }
  return make_grid(std::move(spec), TopologyKind::ring, n, {n}, static_cast<std::size_t>(n), true);
}

Topology make_binary_tree(int levels) {
  const std::string spec = fmt::format("tree:binary:{}", levels);
  if (levels < 1 || levels > kMaxTreeLevels)
    throw InputError(fmt::format("{}: {} levels is out of range; accepted: 1 to {} levels (1 to {} nodes)", spec,
                                 levels, kMaxTreeLevels, (std::size_t{1} << kMaxTreeLevels) - 1));
  const std::uint32_t n = (std::uint32_t{1} << levels) - 1;
  TopologyBuilder b = start(spec, TopologyKind::tree, levels, n, 2 * (std::size_t{n} - 1));
  NodeId* out = b.neighbors.data();
  std::uint32_t pos = 0;
  for (NodeId v = 0; v < n; ++v) {
    b.offsets[v] = pos;
    if (v > 0) out[pos++] = (v - 1) / 2;
    if (2 * v + 1 < n) out[pos++] = 2 * v + 1;
    if (2 * v + 2 < n) out[pos++] = 2 * v + 2;
  }
  b.offsets[n] = pos;
  return b.finish();
}

Topology make_complete(int n) {
  const std::string spec = fmt::format("complete:{}", n);
  if (n < 1 || n > kMaxCompleteNodes)
    throw InputError(fmt::format("{}: {} nodes is out of range; accepted: 1 to {} nodes", spec, n, kMaxCompleteNodes));
  const auto un = static_cast<std::uint32_t>(n);
  TopologyBuilder b = start(spec, TopologyKind::complete, n, un, std::size_t{un} * (un - 1));
  NodeId* out = b.neighbors.data();
  for (NodeId v = 0; v < un; ++v) {
    b.offsets[v] = v * (un - 1);
    for (NodeId u = 0; u < un; ++u)
      if (u != v) *out++ = u;
  }
  b.offsets[un] = un * (un - 1);
  return b.finish();
}

std::uint64_t bisectional_word(int n, NodeId v) {
  check_bisectional(n);
  assert(v < (NodeId{1} << (n - 1)));
  // The top bit restores even weight.
  return std::uint64_t{v} | (std::uint64_t{static_cast<unsigned>(std::popcount(v)) & 1U} << (n - 1));
}

Topology make_bisectional(int n) {
  check_bisectional(n);
  const std::uint32_t nodes = std::uint32_t{1} << (n - 1);
  const auto un = static_cast<std::uint32_t>(n);
  TopologyBuilder b =
      start(fmt::format("bisectional:{}", n), TopologyKind::bisectional, n, nodes, std::size_t{nodes} * un);
  const std::uint64_t all = (std::uint64_t{1} << n) - 1;
  const std::uint64_t low = nodes - 1;
  NodeId* out = b.neighbors.data();
  for (NodeId v = 0; v < nodes; ++v) {
    b.offsets[v] = v * un;
    const std::uint64_t w = bisectional_word(n, v);
    // Neighbours are at Hamming distance n-1: every bit flips except the one kept.
    for (std::uint32_t kept = 0; kept < un; ++kept)
      *out++ = static_cast<NodeId>((w ^ all ^ (std::uint64_t{1} << kept)) & low);
  }
  b.offsets[nodes] = nodes * un;
  return b.finish();
}

std::uint64_t odd_word(int n, NodeId v) {
  check_odd(n);
  assert(v < odd_node_count(n));
  // Colex unranking: v = sum over the set bits p_1 < ... < p_{n-1} of C(p_i, i).
  std::uint64_t word = 0;
  std::uint32_t rest = v;
  std::size_t p = static_cast<std::size_t>(2 * n - 2);
  for (std::size_t i = static_cast<std::size_t>(n - 1); i >= 1; --i) {
    while (kBinomial[p][i] > rest) --p;
    word |= std::uint64_t{1} << p;
    rest -= kBinomial[p][i];
    --p;
  }
  return word;
}

Topology make_odd(int n) {
  check_odd(n);
  const auto nodes = static_cast<std::uint32_t>(odd_node_count(n));
  const auto un = static_cast<std::uint32_t>(n);
  TopologyBuilder b = start(fmt::format("odd:{}", n), TopologyKind::odd, n, nodes, std::size_t{nodes} * un);
  const std::uint32_t mask = (std::uint32_t{1} << (2 * n - 1)) - 1;
  std::uint32_t word = (std::uint32_t{1} << (n - 1)) - 1;  // the smallest weight-(n-1) word
  std::array<std::uint32_t, kMaxOdd> p{};                  // bits of the complement, ascending
  std::array<std::uint32_t, kMaxOdd + 1> below{};          // rank part of p[0..j) at their own index
  std::array<std::uint32_t, kMaxOdd + 1> above{};          // rank part of p(j..n) moved down one index
  NodeId* out = b.neighbors.data();
  for (NodeId v = 0; v < nodes; ++v) {
    b.offsets[v] = v * un;
    // Neighbours: the n-element complement with one element dropped (disjoint, so at
    // Hamming distance 2n-2). Dropping a higher element gives a smaller word, so going
    // from the highest down lists the neighbours by increasing id.
    std::uint32_t rest = ~word & mask;
    for (std::uint32_t i = 0; i < un; ++i) {
      p[i] = static_cast<std::uint32_t>(std::countr_zero(rest));
      rest &= rest - 1;
    }
    for (std::uint32_t j = 0; j < un; ++j) below[j + 1] = below[j] + kBinomial[p[j]][j + 1];
    above[un - 1] = 0;
    for (std::uint32_t j = un - 1; j > 0; --j) above[j - 1] = above[j] + kBinomial[p[j]][j];
    for (std::uint32_t j = un; j-- > 0;) *out++ = below[j] + above[j];
    // Gosper's hack: the next larger word of the same weight.
    const std::uint32_t t = word | (word - 1);
    word = (t + 1) | (((~t & (t + 1)) - 1) >> (std::countr_zero(word) + 1));
  }
  b.offsets[nodes] = nodes * un;
  return b.finish();
}

// ---- edge-list files (docs/topology-files.md) ------------------------------------------

Topology load_edge_list(const std::string& path) {
  constexpr std::string_view kFormat = "the edge-list format of docs/topology-files.md";
  std::ifstream in = open_input_file(path, path, LineReader::kMaxBytes, fmt::format("a readable file in {}", kFormat));

  struct Edge {
    NodeId u;
    NodeId v;
    std::size_t line;
    NodeId lo() const { return std::min(u, v); }
    NodeId hi() const { return std::max(u, v); }
  };
  std::vector<Edge> edges;
  std::size_t nodes = 0;  // 0 until the header is read
  std::string accepted_ids;
  std::string line;
  std::size_t line_no = 0;
  const auto at_line = [&](const std::string& problem) {
    return InputError(fmt::format("{}:{}: {}", path, line_no, problem));
  };
  LineReader lines(in, path);
  while (lines.next(line)) {
    ++line_no;
    std::string_view text = line;
    text = text.substr(0, text.find('#'));
    constexpr std::string_view kBlank = " \t\r\v\f";
    std::array<std::string_view, 3> field;
    std::size_t fields = 0;
    for (std::size_t at = text.find_first_not_of(kBlank); at != std::string_view::npos;
         at = text.find_first_not_of(kBlank, at)) {
      const std::size_t end = std::min(text.find_first_of(kBlank, at), text.size());
      if (fields < field.size()) field[fields] = text.substr(at, end - at);
      ++fields;
      at = end;
    }
    if (fields == 0) continue;
    text = text.substr(text.find_first_not_of(kBlank));
    text = text.substr(0, text.find_last_not_of(kBlank) + 1);

    if (nodes == 0) {
      if (fields != 2 || field[0] != "nodes")
        throw at_line(
            fmt::format("missing header, the first data line is '{}'; accepted: 'nodes N' before the edges", text));
      const auto count = parse_decimal(field[1]);
      if (!count)
        throw at_line(fmt::format("node count '{}' is not a number; accepted: 1 to {}", field[1], kMaxTopologyNodes));
      if (*count < 1 || *count > kMaxTopologyNodes)
        throw at_line(fmt::format("node count {} is out of range; accepted: 1 to {}", field[1], kMaxTopologyNodes));
      nodes = static_cast<std::size_t>(*count);
      accepted_ids = fmt::format("0 to {} (the header says nodes {})", nodes - 1, nodes);
      continue;
    }
    if (field[0] == "nodes")
      throw at_line(fmt::format("second header '{}'; accepted: one 'nodes N' line, before the edges", text));
    if (fields != 2)
      throw at_line(fmt::format("malformed edge line '{}'; accepted: two node ids 'u v', each {}", text, accepted_ids));
    std::array<NodeId, 2> id{};
    for (std::size_t i = 0; i < 2; ++i) {
      const auto value = parse_decimal(field[i]);
      if (!value)
        throw at_line(fmt::format("malformed edge line '{}', '{}' is not a node id; accepted: 'u v' with ids {}", text,
                                  field[i], accepted_ids));
      if (*value >= nodes)
        throw at_line(fmt::format("node id {} is out of range; accepted: {}", field[i], accepted_ids));
      id[i] = static_cast<NodeId>(*value);
    }
    if (id[0] == id[1]) throw at_line(fmt::format("self-loop '{}'; accepted: edges between two different nodes", text));
    if (edges.size() == kMaxFileEdges)
      throw at_line(fmt::format("more than {} edges; accepted: at most {} edges", kMaxFileEdges, kMaxFileEdges));
    edges.push_back({id[0], id[1], line_no});
  }
  if (in.bad()) {
    throw InputError(
        fmt::format("{}: read error after line {}; accepted: a readable file in {}", path, line_no, kFormat));
  }
  if (nodes == 0)
    throw InputError(
        fmt::format("{}: missing header, the file has no data lines; accepted: 'nodes N' before the edges", path));

  // Sorted by end points, then by line: a repeated edge sits right after its first listing.
  std::sort(edges.begin(), edges.end(), [](const Edge& a, const Edge& b) {
    return std::tuple(a.lo(), a.hi(), a.line) < std::tuple(b.lo(), b.hi(), b.line);
  });
  const Edge* repeat = nullptr;
  const Edge* first = nullptr;
  for (std::size_t i = 1; i < edges.size(); ++i) {
    if (edges[i].lo() == edges[i - 1].lo() && edges[i].hi() == edges[i - 1].hi() &&
        (repeat == nullptr || edges[i].line < repeat->line)) {
      repeat = &edges[i];
      first = &edges[i - 1];
    }
  }
  if (repeat != nullptr)
    throw InputError(
        fmt::format("{}:{}: duplicate edge '{} {}' (line {} has '{} {}'); accepted: each undirected edge once", path,
                    repeat->line, repeat->u, repeat->v, first->line, first->u, first->v));

  TopologyBuilder b = start("file:" + path, TopologyKind::file, 0, nodes, 2 * edges.size());
  for (const Edge& e : edges) {
    ++b.offsets[e.u + 1];
    ++b.offsets[e.v + 1];
  }
  for (std::size_t v = 0; v < nodes; ++v) b.offsets[v + 1] += b.offsets[v];
  // Filling in sorted edge order lists, for each node x, first the lower ends of edges
  // (lo, x) by increasing lo, then the higher ends of (x, hi) by increasing hi: ascending.
  std::vector<std::uint32_t> fill(b.offsets.begin(), b.offsets.end() - 1);
  for (const Edge& e : edges) {
    b.neighbors[fill[e.lo()]++] = e.hi();
    b.neighbors[fill[e.hi()]++] = e.lo();
  }
  if (const auto lost = first_unreachable(b.offsets, b.neighbors))
    throw InputError(fmt::format(
        "{}: the graph is disconnected: node {} is unreachable from node 0; accepted: connected graphs", path, *lost));
  return b.finish();
}

}  // namespace dlbkit
