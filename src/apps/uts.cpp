// UTS trees (Olivier et al., LCPC 2006). The definitions follow the reference
// implementation of the benchmark, release 2.1 (uts.c and its SHA-1 random number
// generator), which is what the published counts of sample_trees.sh were computed with;
// the floating-point expressions are written in the same order so that every draw, and
// therefore every count, is bit for bit the reference's.

// The SHA-1 digests come from OpenSSL's libcrypto through its low-level SHA1_Init/
// SHA1_Update/SHA1_Final, which OpenSSL 3.0 deprecates in favour of EVP. They are used
// deliberately: a digest of 24 bytes is the whole cost of a UTS node, and the low-level
// calls take about 77 ns per digest here against 112 ns for the fastest EVP sequence
// (a pre-initialised EVP_MD_CTX copied per digest) and 180 ns for EVP_Digest
// (docs/apps/uts.md, "The random number generator"). The deprecation is silenced for
// this file only; OpenSSL 3 still ships and supports the functions.
#define OPENSSL_SUPPRESS_DEPRECATED

#include <dlbkit/apps/uts.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>

#include <openssl/sha.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <span>

namespace dlbkit::uts {

namespace {

constexpr double kMaxB0 = 2147483647.0;      // the binomial root's children are an int
constexpr int kMaxGenMx = 1'000'000;         // cyclic trees reach 5 gen_mx levels
constexpr std::int32_t kMaxRootId = 2147483647;

using Digest = std::array<std::uint8_t, 20>;

Digest sha1(const std::uint8_t* data, std::size_t size) {
  SHA_CTX ctx;
  SHA1_Init(&ctx);
  SHA1_Update(&ctx, data, size);
  Digest out;
  SHA1_Final(out.data(), &ctx);
  return out;
}

void put_be32(std::uint8_t* out, std::uint32_t v) {
  out[0] = static_cast<std::uint8_t>(v >> 24);
  out[1] = static_cast<std::uint8_t>(v >> 16);
  out[2] = static_cast<std::uint8_t>(v >> 8);
  out[3] = static_cast<std::uint8_t>(v);
}

// rng_rand: the digest's last 4 bytes, big-endian, as a 31-bit non-negative integer;
// rng_toProb: that integer over 2^31, a uniform value in [0, 1).
double uniform(const Node& node) {
  const auto& s = node.state;
  const std::uint32_t r = (std::uint32_t{s[16]} << 24 | std::uint32_t{s[17]} << 16 | std::uint32_t{s[18]} << 8 |
                           std::uint32_t{s[19]}) &
                          0x7fffffffU;
  return static_cast<double>(r) / 2147483648.0;
}

// The target branching factor b_d of a geometric node at depth d (uts_numChildren_geo).
double geo_branching(const TreeParams& t, int depth) {
  if (depth == 0) return t.b0;
  const double d = depth;
  switch (t.shape) {
    case GeoShape::expdec:  // expected size polynomial in the depth
      return t.b0 * std::pow(d, -std::log(t.b0) / std::log(static_cast<double>(t.gen_mx)));
    case GeoShape::cyclic:  // the branching factor rises and falls with period gen_mx, for 5 periods
      if (depth > 5 * t.gen_mx) return 0.0;
      return std::pow(t.b0, std::sin(2.0 * 3.141592653589793 * d / static_cast<double>(t.gen_mx)));
    case GeoShape::fixed:  // the same distribution at every depth below gen_mx
      return depth < t.gen_mx ? t.b0 : 0.0;
    case GeoShape::linear:  // b_d decreases linearly to 0 at depth gen_mx
      break;
  }
  return t.b0 * (1.0 - d / static_cast<double>(t.gen_mx));
}

// The geometric distribution with mean b has P(n children) = p (1 - p)^n, p = 1 / (1 + b);
// the reference draws n by inverting its distribution function: floor(log(1 - u) / log(1 - p)).
// This is log(1 - p), the part that depends on the depth only.
double geo_log_1mp(const TreeParams& t, int depth) {
  const double p = 1.0 / (1.0 + geo_branching(t, depth));
  return std::log(1.0 - p);
}

int geo_children(double u, double log_1mp) {
  // b_d = 0 (p = 1): log(1 - u) / -inf is 0 for every u; skip the logarithm.
  if (log_1mp == -HUGE_VAL) return 0;
  const double n = std::floor(std::log(1.0 - u) / log_1mp);
  // Truncated at kMaxChildren as in the reference; compared as a double so that a huge
  // draw is never converted to int. log(1 - p) = 0 (p rounded to 0, b_d above 9e15) would
  // give -inf or NaN: unreachable with checked parameters, and mapped to kMaxChildren so
  // that the conversion stays defined.
  if (!(n >= 0)) return kMaxChildren;
  return n < kMaxChildren ? static_cast<int>(n) : kMaxChildren;
}

bool geometric_at(const TreeParams& t, int height) {
  return t.type == TreeType::geometric || (t.type == TreeType::hybrid && height < t.shift * t.gen_mx);
}

int binomial_children(const TreeParams& t, const Node& node) {
  if (t.type == TreeType::binomial && node.height == 0) return static_cast<int>(std::floor(t.b0));
  return uniform(node) < t.q ? t.m : 0;
}

const char* type_name(TreeType t) {
  switch (t) {
    case TreeType::binomial: return "binomial";
    case TreeType::geometric: return "geometric";
    case TreeType::hybrid: return "hybrid";
  }
  return "?";
}

const char* shape_name(GeoShape s) {
  switch (s) {
    case GeoShape::linear: return "linear";
    case GeoShape::expdec: return "expdec";
    case GeoShape::cyclic: return "cyclic";
    case GeoShape::fixed: return "fixed";
  }
  return "?";
}

TreeParams geometric(GeoShape shape, double b0, int gen_mx, std::int32_t root_id) {
  TreeParams t;
  t.type = TreeType::geometric;
  t.shape = shape;
  t.b0 = b0;
  t.gen_mx = gen_mx;
  t.root_id = root_id;
  return t;
}

TreeParams binomial(double b0, double q, int m, std::int32_t root_id) {
  TreeParams t;
  t.type = TreeType::binomial;
  t.b0 = b0;
  t.q = q;
  t.m = m;
  t.root_id = root_id;
  return t;
}

TreeParams hybrid(GeoShape shape, double b0, int gen_mx, double q, int m, std::int32_t root_id) {
  TreeParams t = geometric(shape, b0, gen_mx, root_id);
  t.type = TreeType::hybrid;
  t.q = q;
  t.m = m;
  return t;
}

// sample_trees.sh of the UTS 2.1 distribution: the parameters and the statistics it
// publishes for each tree (the XXL trees' leaves and depth are not published).
std::vector<PublishedTree> make_published_trees() {
  using S = GeoShape;
  return {
      {"T1", "Geometric [fixed]", geometric(S::fixed, 4, 10, 19), 4130071, 3305118, 10},
      {"T2", "Geometric [cyclic]", geometric(S::cyclic, 6, 16, 502), 4117769, 2342762, 81},
      {"T3", "Binomial", binomial(2000, 0.124875, 8, 42), 4112897, 3599034, 1572},
      {"T4", "Hybrid", hybrid(S::linear, 6, 16, 0.234375, 4, 1), 4132453, 3108986, 134},
      {"T5", "Geometric [linear dec.]", geometric(S::linear, 4, 20, 34), 4147582, 2181318, 20},
      {"T1L", "Geometric [fixed]", geometric(S::fixed, 4, 13, 29), 102181082, 81746377, 13},
      {"T2L", "Geometric [cyclic]", geometric(S::cyclic, 7, 23, 220), 96793510, 53791152, 67},
      {"T3L", "Binomial", binomial(2000, 0.200014, 5, 7), 111345631, 89076904, 17844},
      {"T1XL", "Geometric [fixed]", geometric(S::fixed, 4, 15, 29), 1635119272, 1308100063, 15},
      {"T1XXL", "Geometric [fixed]", geometric(S::fixed, 4, 15, 19), 4230646601, 0, 0},
      {"T3XXL", "Binomial", binomial(2000, 0.499995, 2, 316), 2793220501, 0, 0},
      {"T2XXL", "Binomial", binomial(2000, 0.499999995, 2, 0), 10612052303, 5306027151, 216370},
      {"T1WL", "Geometric [fixed]", geometric(S::fixed, 4, 18, 19), 270751679750, 216601257283, 18},
      {"T2WL", "Binomial", binomial(2000, 0.4999999995, 2, 559), 295393891003, 147696946501, 1021239},
      {"T3WL", "Binomial", binomial(2000, 0.4999995, 2, 559), 157063495159, 78531748579, 758577},
  };
}

std::string names_text() {
  std::string out;
  for (const PublishedTree& t : published_trees()) out += (out.empty() ? "" : ", ") + t.name;
  return out;
}

std::string number_text(double v) { return fmt::format("{}", v); }

}  // namespace

const std::vector<PublishedTree>& published_trees() {
  static const std::vector<PublishedTree> trees = make_published_trees();
  return trees;
}

const PublishedTree* find_published(std::string_view name) {
  for (const PublishedTree& t : published_trees())
    if (t.name == name) return &t;
  return nullptr;
}

std::vector<std::string> tree_names() {
  std::vector<std::string> names;
  for (const PublishedTree& t : published_trees()) names.push_back(t.name);
  return names;
}

TreeParams named_tree(std::string_view name) {
  if (const PublishedTree* t = find_published(name)) return t->params;
  throw InputError(fmt::format("unknown UTS tree '{}'; accepted: {}", name, names_text()));
}

void check(const TreeParams& t) {
  const auto fail = [](const std::string& what) { throw InputError("UTS tree: " + what); };
  if (!(t.b0 >= 0 && t.b0 <= kMaxB0)) fail(fmt::format("b0={} is not accepted; accepted: a real number in [0, {}]", t.b0, kMaxB0));
  if (t.root_id < 0) fail(fmt::format("seed={} is not accepted; accepted: an integer in [0, {}]", t.root_id, kMaxRootId));
  if (t.type != TreeType::binomial) {
    if (t.gen_mx < 1 || t.gen_mx > kMaxGenMx)
      fail(fmt::format("depth={} is not accepted; accepted: an integer in [1, {}]", t.gen_mx, kMaxGenMx));
    if (t.shape == GeoShape::expdec && t.type == TreeType::geometric && !(t.b0 > 1))
      fail(fmt::format("b0={} is not accepted with shape=expdec; accepted: b0 > 1 (with b0 <= 1 the branching factor "
                       "never falls below 1 and the tree may be infinite)",
                       t.b0));
  }
  if (t.type != TreeType::geometric) {
    if (!(t.q >= 0 && t.q <= 1)) fail(fmt::format("q={} is not accepted; accepted: a real number in [0, 1]", t.q));
    if (t.m < 0 || t.m > kMaxChildren)
      fail(fmt::format("m={} is not accepted; accepted: an integer in [0, {}]", t.m, kMaxChildren));
    // With m q < 1 every binomial subtree is finite (expected size 1 / (1 - m q)); with
    // m q >= 1 it may be infinite. The one exception admitted is a standard tree:
    // T3L has m q = 1.00007, and its published count shows that its seed gives a finite tree.
    const auto standard = [&] {
      return std::any_of(published_trees().begin(), published_trees().end(),
                         [&](const PublishedTree& p) { return p.params == t; });
    };
    if (!(t.m * t.q < 1) && !standard())
      fail(fmt::format("m={} with q={} gives m q = {} >= 1: the tree may be infinite; accepted: m q < 1 "
                       "(or exactly the parameters of a standard tree, such as T3L, known finite by its published count)",
                       t.m, t.q, t.m * t.q));
  }
  if (t.type == TreeType::hybrid && !(t.shift >= 0 && t.shift <= 1))
    fail(fmt::format("shift={} is not accepted; accepted: a real number in [0, 1]", t.shift));
}

void check_size(const TreeParams& t) {
  // A valid tree can still be far too large to search (T1 at depth=64: 4^64 nodes). Its
  // expected size is refused above a budget a hundred times the largest standard tree's:
  // geometric levels hold the product of the branching factors above them, and each node at
  // the first binomial level roots a subtree of expected size 1 / (1 - m q) (the binomial
  // root has floor(b0) such children). Standard trees with m q >= 1 (T3L) are finite by their
  // published counts and not estimated.
  constexpr double kMaxExpectedNodes = 1e13;  // T1WL: 2.7e11 nodes
  const double binomial_subtree = t.m * t.q < 1 ? 1 / (1 - t.m * t.q) : 0;
  if (t.type != TreeType::geometric && binomial_subtree == 0) return;
  double level = 1, total = 0;
  int d = 0;
  if (t.type == TreeType::binomial) {
    total = 1;
    level = std::floor(t.b0);
  } else {
    for (; geometric_at(t, d) && level > 1e-9 && total <= kMaxExpectedNodes && d <= 5 * t.gen_mx + 1000; ++d) {
      total += level;
      level *= geo_branching(t, d);
    }
  }
  if (t.type != TreeType::geometric) total += level * binomial_subtree;
  if (total > kMaxExpectedNodes)
    throw InputError(fmt::format("UTS tree: {} is expected to have more than {:.0e} nodes (the largest standard "
                                 "tree, T1WL, has 2.7e11): it would not end in practice; accepted: {}",
                                 to_string(t), kMaxExpectedNodes,
                                 t.type == TreeType::geometric ? "a smaller depth or b0" : "a smaller b0, m or q"));
}

TreeParams parse_tree(std::string_view text) {
  std::vector<std::string> items(1);
  for (char c : text) {
    if (c == ',')
      items.emplace_back();
    else
      items.back() += c;
  }
  if (items.front().empty())
    throw InputError(fmt::format("UTS tree '{}' is empty; accepted: a standard tree ({}), or key=value pairs such as "
                                 "type=geometric,shape=fixed,b0=4,depth=10,seed=19",
                                 text, names_text()));
  // The base: a standard tree named first ("T1L,seed=3"), or the defaults.
  TreeParams base;
  std::size_t first = 0;
  if (items.front().find('=') == std::string::npos) {
    const PublishedTree* named = find_published(items.front());
    if (named == nullptr)
      throw InputError(fmt::format("unknown UTS tree '{}'; accepted: {}, or key=value pairs such as "
                                   "type=geometric,shape=fixed,b0=4,depth=10,seed=19 (docs/apps/uts.md)",
                                   items.front(), names_text()));
    base = named->params;
    first = 1;
  }
  const std::vector<ParamSpec> specs = {
      {.name = "type", .type = ParamType::choice, .default_value = type_name(base.type),
       .choices = {"binomial", "geometric", "hybrid"}},
      {.name = "shape", .type = ParamType::choice, .default_value = shape_name(base.shape),
       .choices = {"linear", "expdec", "cyclic", "fixed"}},
      {.name = "b0", .type = ParamType::real, .default_value = number_text(base.b0), .min = 0, .max = kMaxB0},
      {.name = "depth", .type = ParamType::integer, .default_value = std::to_string(base.gen_mx), .min = 1, .max = kMaxGenMx},
      {.name = "q", .type = ParamType::real, .default_value = number_text(base.q), .min = 0, .max = 1},
      {.name = "m", .type = ParamType::integer, .default_value = std::to_string(base.m), .min = 0, .max = kMaxChildren},
      {.name = "seed", .type = ParamType::integer, .default_value = std::to_string(base.root_id), .min = 0, .max = kMaxRootId},
      {.name = "shift", .type = ParamType::real, .default_value = number_text(base.shift), .min = 0, .max = 1},
  };
  // The items in order up to the first empty one, which is an error after theirs.
  const auto rest = std::span<const std::string>(items).subspan(first);
  const auto empty = std::ranges::find(rest, std::string());
  const std::map<std::string, std::string> given = assignments({rest.begin(), empty}, "UTS tree");
  if (empty != rest.end())
    throw InputError(fmt::format("UTS tree '{}' has an empty item; accepted: items separated by single commas", text));
  const Parameters p = Parameters::parse(specs, given, "UTS tree");
  TreeParams t;
  const std::string& type = p.text("type");
  t.type = type == "binomial" ? TreeType::binomial : type == "hybrid" ? TreeType::hybrid : TreeType::geometric;
  // A key the tree type does not read is an error, never silently ignored ("T1,q=0.5").
  const std::vector<std::string> used =
      t.type == TreeType::binomial    ? std::vector<std::string>{"type", "b0", "q", "m", "seed"}
      : t.type == TreeType::geometric ? std::vector<std::string>{"type", "shape", "b0", "depth", "seed"}
                                      : std::vector<std::string>{"type", "shape", "b0", "depth", "q", "m", "seed", "shift"};
  for (const auto& [key, value] : given)
    if (std::ranges::find(used, key) == used.end())
      throw InputError(fmt::format("UTS tree '{}': {}={} does not apply to type={}; accepted: the keys {}", text, key,
                                   value, type, fmt::join(used, ", ")));
  const std::string& shape = p.text("shape");
  t.shape = shape == "expdec"   ? GeoShape::expdec
            : shape == "cyclic" ? GeoShape::cyclic
            : shape == "fixed"  ? GeoShape::fixed
                                : GeoShape::linear;
  t.b0 = p.real("b0");
  t.gen_mx = static_cast<int>(p.integer("depth"));
  t.q = p.real("q");
  t.m = static_cast<int>(p.integer("m"));
  t.root_id = static_cast<std::int32_t>(p.integer("seed"));
  t.shift = p.real("shift");
  check(t);
  return t;
}

std::string to_string(const TreeParams& t) {
  std::string out = fmt::format("type={}", type_name(t.type));
  if (t.type != TreeType::binomial) out += fmt::format(",shape={}", shape_name(t.shape));
  out += fmt::format(",b0={}", number_text(t.b0));
  if (t.type != TreeType::binomial) out += fmt::format(",depth={}", t.gen_mx);
  if (t.type != TreeType::geometric) out += fmt::format(",q={},m={}", number_text(t.q), t.m);
  if (t.type == TreeType::hybrid) out += fmt::format(",shift={}", number_text(t.shift));
  return out + fmt::format(",seed={}", t.root_id);
}

Node root(const TreeParams& params) {
  std::uint8_t seed[20] = {};
  put_be32(seed + 16, static_cast<std::uint32_t>(params.root_id));
  return Node{sha1(seed, sizeof seed), 0};
}

int child_count(const TreeParams& params, const Node& node) {
  if (geometric_at(params, node.height)) return geo_children(uniform(node), geo_log_1mp(params, node.height));
  return binomial_children(params, node);
}

ChildCounter::ChildCounter(const TreeParams& params) : params_(params) {
  if (params.type == TreeType::binomial) return;
  for (int depth = 0; depth < kTabulatedDepths; ++depth) log_1mp_.push_back(geo_log_1mp(params, depth));
}

int ChildCounter::operator()(const Node& node) const {
  if (!geometric_at(params_, node.height)) return binomial_children(params_, node);
  const auto depth = static_cast<std::size_t>(node.height);
  return geo_children(uniform(node),
                      depth < log_1mp_.size() ? log_1mp_[depth] : geo_log_1mp(params_, node.height));
}

Node child(const TreeParams&, const Node& parent, int index) {
  std::uint8_t input[24];
  std::memcpy(input, parent.state.data(), 20);
  put_be32(input + 20, static_cast<std::uint32_t>(index));
  return Node{sha1(input, sizeof input), parent.height + 1};
}

TreeCounts count_sequential(const TreeParams& params) {
  check(params);
  check_size(params);
  const ChildCounter children(params);

  // One frame per level of the current path: the node, its number of children and the
  // next child to visit. Leaves are counted without a frame.
  struct Frame {
    Node node;
    int count;
    int next;
  };
  TreeCounts counts;
  std::vector<Frame> path;
  const auto visit = [&](const Node& node) {
    ++counts.nodes;
    counts.max_depth = std::max(counts.max_depth, node.height);
    const int n = children(node);
    if (n == 0)
      ++counts.leaves;
    else
      path.push_back({node, n, 0});
  };
  visit(root(params));
  while (!path.empty()) {
    Frame& top = path.back();
    if (top.next == top.count) {
      path.pop_back();
      continue;
    }
    const Node next = child(params, top.node, top.next++);
    visit(next);  // may reallocate path: `top` is not used after this
  }
  return counts;
}

}  // namespace dlbkit::uts
