// The synthetic iterative workloads (workloads/builtin_phase_workloads.hpp). Each is a 2-D mesh of
// objects cut into one block per node, the decomposition a stencil or particle code starts
// from; the loads drift and the balancer has to follow them.

#include <dlbkit/error.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <numbers>
#include <optional>

namespace dlbkit {

namespace {

/// Most objects a synthetic workload makes (ObjectIndex is 32 bits; memory ~100 bytes each).
constexpr double kMaxObjects = 1e8;

/// The largest divisor of n that is at most sqrt(n): n = d x (n / d), as square as n allows.
std::size_t near_square_divisor(std::size_t n) {
  std::size_t best = 1;
  for (std::size_t d = 1; d * d <= n; ++d)
    if (n % d == 0) best = d;
  return best;
}

/// The mesh: nodes in a px x py grid, each holding a bx x by block of objects; object (x, y)
/// has index y * width + x.
struct Mesh {
  std::size_t px = 1, py = 1, bx = 1, by = 1, width = 1, height = 1;

  Mesh(std::size_t nodes, std::size_t per_node) {
    if (static_cast<double>(nodes) * static_cast<double>(per_node) > kMaxObjects)
      throw InputError(fmt::format("{} nodes x {} objects per node; accepted: at most {:.0e} objects in all", nodes,
                                   per_node, kMaxObjects));
    py = near_square_divisor(nodes);
    px = nodes / py;
    by = near_square_divisor(per_node);
    bx = per_node / by;
    width = px * bx;
    height = py * by;
  }
  std::size_t objects() const { return width * height; }
  NodeId node_of(std::size_t x, std::size_t y) const { return static_cast<NodeId>((y / by) * px + x / bx); }
  /// Squared distance on the mesh with wrap-around (a hot spot leaving one edge enters the other).
  double wrapped_distance2(double x, double y, double cx, double cy) const {
    double dx = std::fabs(x - cx), dy = std::fabs(y - cy);
    dx = std::min(dx, static_cast<double>(width) - dx);
    dy = std::min(dy, static_cast<double>(height) - dy);
    return dx * dx + dy * dy;
  }
};

constexpr IntegerParam kObjectsPerNode{.name = "objects_per_node", .default_value = "100",
                                       .description = "objects in each node's block of the mesh", .min = 1, .max = 1e6};
constexpr DurationParam kBaseLoad{.name = "base_load", .default_value = "1ms",
                                  .description = "an object's load outside any hot region", .min = 1, .max = 1e12};
constexpr RealParam kHaloBytes{.name = "halo_bytes", .default_value = "8192",
                               .description = "bytes each pair of neighbouring objects exchanges per phase (0: none)",
                               .min = 0, .max = 1e12};

/// The first phase every synthetic workload starts from: the mesh's objects at the base load,
/// each on its block's node, with the halo exchange between mesh neighbours.
Phase mesh_phase(const Mesh& mesh, std::size_t nodes, double base_load, double halo_bytes) {
  Phase phase{.nodes = nodes};
  phase.objects.resize(mesh.objects());
  phase.node_of.resize(mesh.objects());
  for (std::size_t y = 0; y < mesh.height; ++y)
    for (std::size_t x = 0; x < mesh.width; ++x) {
      const std::size_t i = y * mesh.width + x;
      phase.objects[i] = {.id = i, .load = base_load};
      phase.node_of[i] = mesh.node_of(x, y);
    }
  if (halo_bytes > 0) {
    // One entry per neighbouring pair, both directions in it (two messages), no wrap-around.
    phase.communications.reserve(2 * mesh.objects());
    for (std::size_t y = 0; y < mesh.height; ++y)
      for (std::size_t x = 0; x < mesh.width; ++x) {
        const auto i = static_cast<ObjectIndex>(y * mesh.width + x);
        if (x + 1 < mesh.width) phase.communications.push_back({i, i + 1, 2, 2 * halo_bytes});
        if (y + 1 < mesh.height)
          phase.communications.push_back({i, static_cast<ObjectIndex>(i + mesh.width), 2, 2 * halo_bytes});
      }
  }
  return phase;
}

/// What every mesh workload shares: its parameters and its mesh.
class MeshWorkload : public PhaseWorkload {
public:
  static std::vector<ParamSpec> mesh_params() { return {kObjectsPerNode, kBaseLoad, kHaloBytes}; }

protected:
  explicit MeshWorkload(const Parameters& p)
      : per_node_(static_cast<std::size_t>(p[kObjectsPerNode])),
        base_load_(to_seconds(p[kBaseLoad])),
        halo_bytes_(p[kHaloBytes]) {}

  /// The mesh on `nodes` nodes and the workload's random stream from `seed`.
  void set_up(std::size_t nodes, std::uint64_t seed) {
    mesh_.emplace(nodes, per_node_);
    rng_ = Rng(seed, 0x91a5e);
  }
  /// set_up(), then the mesh's phase.
  Phase start(std::size_t nodes, std::uint64_t seed) {
    set_up(nodes, seed);
    return mesh_phase(*mesh_, nodes, base_load_, halo_bytes_);
  }

  std::size_t per_node_;
  double base_load_;
  double halo_bytes_;
  std::optional<Mesh> mesh_;
  Rng rng_{1};
  std::size_t phase_ = 0;  ///< phases drawn so far, the first one being 0
};

// hotspot: the load of object (x, y) in phase k is base x (1 + peak x exp(-d^2 / (2 r^2))),
// d its distance to the spot's centre, which starts at a random place and moves `speed`
// objects a phase along the mesh's diagonal, wrapping around; each load also varies by a
// uniform factor in [1 - noise, 1 + noise].
class HotSpot : public MeshWorkload {
public:
  static constexpr const char* name = "hotspot";
  static constexpr const char* description = "a hot spot moving across a 2-D mesh of objects";
  static constexpr const char* source = "the moving-feature stencil of measurement-based balancing studies";
  static constexpr RealParam kPeak{.name = "peak", .default_value = "10",
                                   .description = "extra load at the spot's centre, in base loads", .min = 0, .max = 1e6};
  static constexpr RealParam kRadius{.name = "radius", .default_value = "0.1",
                                     .description = "the spot's radius r, as a fraction of the mesh's width",
                                     .min = 1e-6, .max = 10};
  static constexpr RealParam kSpeed{.name = "speed", .default_value = "1",
                                    .description = "objects the spot moves each phase (along the diagonal)", .min = 0,
                                    .max = 1e6};
  static constexpr RealParam kNoise{.name = "noise", .default_value = "0.05",
                                    .description = "each load varies by a factor in [1 - noise, 1 + noise]", .min = 0,
                                    .max = 0.99};
  static std::vector<ParamSpec> params() {
    auto all = mesh_params();
    all.insert(all.end(), {kPeak, kRadius, kSpeed, kNoise});
    return all;
  }

  explicit HotSpot(const Parameters& p)
      : MeshWorkload(p), peak_(p[kPeak]), radius_(p[kRadius]), speed_(p[kSpeed]), noise_(p[kNoise]) {}

  Phase first_phase(std::size_t nodes, std::uint64_t seed) override {
    Phase phase = start(nodes, seed);
    cx_ = rng_.uniform() * static_cast<double>(mesh_->width);
    cy_ = rng_.uniform() * static_cast<double>(mesh_->height);
    draw(phase);
    return phase;
  }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    ++phase_;
    draw(phase);
    return {};
  }

private:
  void draw(Phase& phase) {
    const double step = speed_ * static_cast<double>(phase_) / std::numbers::sqrt2;
    const double cx = std::fmod(cx_ + step, static_cast<double>(mesh_->width));
    const double cy = std::fmod(cy_ + step, static_cast<double>(mesh_->height));
    const double r = radius_ * static_cast<double>(mesh_->width);
    for (std::size_t y = 0; y < mesh_->height; ++y)
      for (std::size_t x = 0; x < mesh_->width; ++x) {
        const double d2 = mesh_->wrapped_distance2(static_cast<double>(x) + 0.5, static_cast<double>(y) + 0.5, cx, cy);
        const double jitter = noise_ > 0 ? rng_.uniform(1 - noise_, 1 + noise_) : 1.0;
        phase.objects[y * mesh_->width + x].load = base_load_ * (1 + peak_ * std::exp(-d2 / (2 * r * r))) * jitter;
      }
  }

  double peak_, radius_, speed_, noise_;
  double cx_ = 0, cy_ = 0;
};

// amr: adaptive mesh refinement in bursts. After each phase a burst starts with probability
// `rate` at a random centre and lasts `lifetime` phases. A cell of the mesh whose centre is
// within `radius` of the centres of n bursts is refined to level min(n, max_level): an object
// of level L splits into 4 children of level L + 1 (a 2-D cell in four, each child on its
// parent's node), and when bursts end, children are coarsened back into their parent (on its
// first child's node). A level multiplies a region's load by `factor`: each child carries
// factor / 4 of its parent's load (4: a child holds as many cells as its parent; 1: the load
// is split). Objects that share an edge, at any levels, exchange the halo.
class Amr : public MeshWorkload {
public:
  static constexpr const char* name = "amr";
  static constexpr const char* description = "adaptive refinement bursts: cells split into 4 children, later merged";
  static constexpr const char* source = "block-structured AMR codes (refine, then coarsen)";
  static constexpr RealParam kRate{.name = "rate", .default_value = "0.3",
                                   .description = "probability that a refinement burst starts after a phase", .min = 0,
                                   .max = 1};
  static constexpr RealParam kRadius{.name = "radius", .default_value = "0.08",
                                     .description = "a burst's radius, as a fraction of the mesh's width", .min = 1e-6,
                                     .max = 10};
  static constexpr IntegerParam kLifetime{.name = "lifetime", .default_value = "10",
                                          .description = "phases a burst lasts before it coarsens", .min = 1, .max = 1e9};
  static constexpr RealParam kFactor{.name = "factor", .default_value = "4",
                                     .description = "load multiplier of one refinement level (each of 4 children "
                                                    "carries factor / 4 of its parent's load)",
                                     .min = 1, .max = 1e3};
  static constexpr IntegerParam kMaxLevel{.name = "max_level", .default_value = "3",
                                          .description = "most refinement levels where bursts overlap", .min = 0, .max = 20};
  static std::vector<ParamSpec> params() {
    auto all = mesh_params();
    all.insert(all.end(), {kRate, kRadius, kLifetime, kFactor, kMaxLevel});
    return all;
  }

  explicit Amr(const Parameters& p)
      : MeshWorkload(p),
        rate_(p[kRate]),
        radius_(p[kRadius]),
        lifetime_(static_cast<std::size_t>(p[kLifetime])),
        factor_(p[kFactor]),
        max_level_(static_cast<int>(p[kMaxLevel])) {}

  Phase first_phase(std::size_t nodes, std::uint64_t seed) override {
    set_up(nodes, seed);
    bursts_.clear();
    maybe_burst();
    level_ = levels();
    return refined_phase(nodes);
  }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    ++phase_;
    std::erase_if(bursts_, [&](const Burst& b) { return phase_ >= b.until; });
    maybe_burst();
    std::vector<std::uint8_t> level = levels();
    if (level == level_) return {};  // the same objects: their loads follow their levels
    std::vector<ObjectOrigin> origins;
    for (std::size_t r = 0; r < level.size(); ++r) {
      const int from = level_[r], to = level[r];
      if (from == to) continue;
      const std::size_t side = std::size_t{1} << to;
      for (std::size_t y = 0; y < side; ++y)
        for (std::size_t x = 0; x < side; ++x)
          origins.push_back({.id = id(r, to, x, y),
                             // a child from the parent that covers it; a parent from its first child
                             .from = to > from ? id(r, from, x >> (to - from), y >> (to - from))
                                               : id(r, from, x << (from - to), y << (from - to))});
    }
    level_ = std::move(level);
    phase = refined_phase(phase.nodes);
    return origins;
  }

private:
  struct Burst {
    double cx, cy;
    std::size_t until;
  };
  void maybe_burst() {
    if (rng_.uniform() < rate_)
      bursts_.push_back({rng_.uniform() * static_cast<double>(mesh_->width),
                         rng_.uniform() * static_cast<double>(mesh_->height), phase_ + lifetime_});
  }
  /// Each cell's level: the bursts over its centre, up to max_level.
  std::vector<std::uint8_t> levels() const {
    const double r = radius_ * static_cast<double>(mesh_->width);
    std::vector<std::uint8_t> level(mesh_->objects(), 0);
    for (std::size_t y = 0; y < mesh_->height; ++y)
      for (std::size_t x = 0; x < mesh_->width; ++x) {
        int n = 0;
        for (const Burst& b : bursts_)
          if (mesh_->wrapped_distance2(static_cast<double>(x) + 0.5, static_cast<double>(y) + 0.5, b.cx, b.cy) <= r * r)
            ++n;
        level[y * mesh_->width + x] = static_cast<std::uint8_t>(std::min(n, max_level_));
      }
    return level;
  }
  /// The id of the object at (x, y) of cell r's 2^L x 2^L children: cell r's quadtree numbered
  /// by levels (q = 0 the cell, 4q + 1 + c its children, c = 2 dy + dx), times the cells, plus
  /// r (an unrefined cell's id is its index in the mesh).
  std::uint64_t id(std::size_t r, int level, std::size_t x, std::size_t y) const {
    std::uint64_t q = 0;
    for (int l = level - 1; l >= 0; --l) q = 4 * q + 1 + 2 * ((y >> l) & 1) + ((x >> l) & 1);
    return q * mesh_->objects() + r;
  }
  /// The phase of the cells at their levels: each cell's objects (row by row of its children)
  /// on its block's node, each pair that shares an edge with the halo. Unrefined, it is
  /// mesh_phase's.
  Phase refined_phase(std::size_t nodes) const {
    double objects = 0;
    for (const int l : level_) objects += std::ldexp(1.0, 2 * l);
    if (objects > kMaxObjects)
      throw InputError(fmt::format("phase workload amr: phase {} is refined to {:.0f} objects; accepted: at most "
                                   "{:.0e} objects in all (a lower max_level, radius or rate)",
                                   phase_, objects, kMaxObjects));
    Phase phase{.nodes = nodes};
    std::vector<ObjectIndex> first(level_.size());  // each cell's first object
    for (std::size_t y = 0; y < mesh_->height; ++y)
      for (std::size_t x = 0; x < mesh_->width; ++x) {
        const std::size_t r = y * mesh_->width + x, side = std::size_t{1} << level_[r];
        const double load = base_load_ * std::pow(factor_ / 4, level_[r]);
        first[r] = static_cast<ObjectIndex>(phase.objects.size());
        for (std::size_t cy = 0; cy < side; ++cy)
          for (std::size_t cx = 0; cx < side; ++cx) {
            phase.objects.push_back({.id = id(r, level_[r], cx, cy), .load = load});
            phase.node_of.push_back(mesh_->node_of(x, y));
          }
      }
    if (halo_bytes_ == 0) return phase;
    const auto link = [&](ObjectIndex a, ObjectIndex b) { phase.communications.push_back({a, b, 2, 2 * halo_bytes_}); };
    // The objects along the edge of cells a and b (b right of a, or below it): at the finer
    // level each of its objects meets one of the coarser side.
    const auto edge = [&](std::size_t a, std::size_t b, bool right) {
      const int la = level_[a], lb = level_[b], fine = std::max(la, lb);
      const std::size_t sa = std::size_t{1} << la, sb = std::size_t{1} << lb;
      for (std::size_t j = 0; j < (std::size_t{1} << fine); ++j) {
        const std::size_t ja = j >> (fine - la), jb = j >> (fine - lb);
        link(static_cast<ObjectIndex>(first[a] + (right ? ja * sa + sa - 1 : (sa - 1) * sa + ja)),
             static_cast<ObjectIndex>(first[b] + (right ? jb * sb : jb)));
      }
    };
    for (std::size_t y = 0; y < mesh_->height; ++y)
      for (std::size_t x = 0; x < mesh_->width; ++x) {
        const std::size_t r = y * mesh_->width + x, side = std::size_t{1} << level_[r];
        for (std::size_t cy = 0; cy < side; ++cy)
          for (std::size_t cx = 0; cx < side; ++cx) {
            const auto i = static_cast<ObjectIndex>(first[r] + cy * side + cx);
            if (cx + 1 < side) link(i, i + 1);
            if (cy + 1 < side) link(i, static_cast<ObjectIndex>(i + side));
          }
        if (x + 1 < mesh_->width) edge(r, r + 1, true);
        if (y + 1 < mesh_->height) edge(r, r + mesh_->width, false);
      }
    return phase;
  }

  double rate_, radius_;
  std::size_t lifetime_;
  double factor_;
  int max_level_;
  std::vector<Burst> bursts_;
  std::vector<std::uint8_t> level_;  // each cell's refinement level (max_level <= 20)
};

// particles: each object is a cell holding particles; its load is base + per_particle x count.
// The particles start as a uniform background plus a Gaussian cloud at a random place; each
// phase a fraction `velocity` of every cell's particles moves one cell along +x (advection,
// wrapping around) and a fraction `diffusion` spreads evenly to the four neighbours (wrapping
// too), so that the particles are conserved and the cloud drifts and widens.
class Particles : public MeshWorkload {
public:
  static constexpr const char* name = "particles";
  static constexpr const char* description = "particles drifting and spreading between cells; load follows the count";
  static constexpr const char* source = "particle-in-cell codes (advection-diffusion of the particle density)";
  static constexpr RealParam kBackground{.name = "background", .default_value = "10",
                                         .description = "particles in every cell at the start", .min = 0, .max = 1e9};
  static constexpr RealParam kCloud{.name = "cloud", .default_value = "200",
                                    .description = "extra particles at the cloud's centre", .min = 0, .max = 1e9};
  static constexpr RealParam kRadius{.name = "radius", .default_value = "0.1",
                                     .description = "the cloud's radius, as a fraction of the mesh's width", .min = 1e-6,
                                     .max = 10};
  static constexpr DurationParam kPerParticle{.name = "per_particle", .default_value = "10us",
                                              .description = "load of one particle", .min = 0, .max = 1e12};
  static constexpr RealParam kVelocity{.name = "velocity", .default_value = "0.5",
                                       .description = "fraction of a cell's particles moving one cell along x per phase",
                                       .min = 0, .max = 1};
  static constexpr RealParam kDiffusion{.name = "diffusion", .default_value = "0.05",
                                        .description = "fraction of a cell's particles spreading to its neighbours per phase",
                                        .min = 0, .max = 1};
  static std::vector<ParamSpec> params() {
    auto all = mesh_params();
    all.insert(all.end(), {kBackground, kCloud, kRadius, kPerParticle, kVelocity, kDiffusion});
    return all;
  }

  explicit Particles(const Parameters& p)
      : MeshWorkload(p),
        background_(p[kBackground]),
        cloud_(p[kCloud]),
        radius_(p[kRadius]),
        per_particle_(to_seconds(p[kPerParticle])),
        velocity_(p[kVelocity]),
        diffusion_(p[kDiffusion]) {
    if (velocity_ + diffusion_ > 1)
      throw InputError(fmt::format("phase workload particles: velocity {} + diffusion {} > 1; accepted: a sum of at "
                                   "most 1 (no cell gives more particles than it has)",
                                   velocity_, diffusion_));
  }

  Phase first_phase(std::size_t nodes, std::uint64_t seed) override {
    Phase phase = start(nodes, seed);
    const double cx = rng_.uniform() * static_cast<double>(mesh_->width);
    const double cy = rng_.uniform() * static_cast<double>(mesh_->height);
    const double r = radius_ * static_cast<double>(mesh_->width);
    count_.resize(mesh_->objects());
    for (std::size_t y = 0; y < mesh_->height; ++y)
      for (std::size_t x = 0; x < mesh_->width; ++x)
        count_[y * mesh_->width + x] =
            background_ +
            cloud_ * std::exp(-mesh_->wrapped_distance2(static_cast<double>(x) + 0.5, static_cast<double>(y) + 0.5,
                                                        cx, cy) /
                              (2 * r * r));
    draw(phase);
    return phase;
  }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    ++phase_;
    const std::size_t w = mesh_->width, h = mesh_->height;
    next_.assign(count_.size(), 0.0);
    for (std::size_t y = 0; y < h; ++y)
      for (std::size_t x = 0; x < w; ++x) {
        const double c = count_[y * w + x];
        const double spread = diffusion_ * c / 4;
        next_[y * w + x] += c * (1 - velocity_ - diffusion_);
        next_[y * w + (x + 1) % w] += velocity_ * c + spread;
        next_[y * w + (x + w - 1) % w] += spread;
        next_[((y + 1) % h) * w + x] += spread;
        next_[((y + h - 1) % h) * w + x] += spread;
      }
    count_.swap(next_);
    draw(phase);
    return {};
  }

private:
  void draw(Phase& phase) {
    for (std::size_t i = 0; i < count_.size(); ++i) phase.objects[i].load = base_load_ + per_particle_ * count_[i];
  }

  double background_, cloud_, radius_, per_particle_, velocity_, diffusion_;
  std::vector<double> count_, next_;
};

// random_walk: each object's load starts uniform in [base / 2, 3 base / 2] and is multiplied
// each phase by exp(sigma x z), z standard normal, kept within [base / spread, base x spread].
class RandomWalk : public MeshWorkload {
public:
  static constexpr const char* name = "random_walk";
  static constexpr const char* description = "each object's load a multiplicative random walk";
  static constexpr const char* source = "loads drifting without structure (a null model)";
  static constexpr RealParam kSigma{.name = "sigma", .default_value = "0.1",
                                    .description = "standard deviation of the log-load's step per phase", .min = 0,
                                    .max = 10};
  static constexpr RealParam kSpread{.name = "spread", .default_value = "100",
                                     .description = "loads stay within [base / spread, base x spread]", .min = 1,
                                     .max = 1e9};
  static std::vector<ParamSpec> params() {
    auto all = mesh_params();
    all.insert(all.end(), {kSigma, kSpread});
    return all;
  }

  explicit RandomWalk(const Parameters& p) : MeshWorkload(p), sigma_(p[kSigma]), spread_(p[kSpread]) {}

  Phase first_phase(std::size_t nodes, std::uint64_t seed) override {
    Phase phase = start(nodes, seed);
    for (PhaseObject& object : phase.objects) object.load = clamp(base_load_ * rng_.uniform(0.5, 1.5));
    return phase;
  }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    ++phase_;
    for (PhaseObject& object : phase.objects) object.load = clamp(object.load * std::exp(sigma_ * normal()));
    return {};
  }

private:
  double clamp(double load) const { return std::clamp(load, base_load_ / spread_, base_load_ * spread_); }
  double normal() {  // Box-Muller, from the workload's own stream, its two draws in this order
    const double r = std::sqrt(-2 * std::log(rng_.uniform_open()));
    return r * std::cos(2 * std::numbers::pi * rng_.uniform());
  }

  double sigma_, spread_;
};

}  // namespace

const PhaseWorkloadRegistry& builtin_phase_workloads() {
  static const PhaseWorkloadRegistry registry = [] {
    PhaseWorkloadRegistry r;
    r.add(phase_workload_info<HotSpot>());
    r.add(phase_workload_info<Amr>());
    r.add(phase_workload_info<Particles>());
    r.add(phase_workload_info<RandomWalk>());
    return r;
  }();
  return registry;
}

}  // namespace dlbkit
