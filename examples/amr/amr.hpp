#pragma once
// The mesh and the run of amr.cpp: a 1-D domain [0, 1) of coarse cells, each a persistent
// object of dlbkit::ObjectRuntime, refined where a front passes. A cell near the front splits
// into 4 children (up to `levels` times); the children behind it merge back into their
// parent. Every process keeps the whole mesh (each cell's level and place, not its state),
// which changes the same way wherever the cells run, and asks the runtime for the changes of
// the cells it holds.

#include <dlbkit/objects/object_runtime.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace amr {

struct Settings {
  std::uint32_t cells = 64;     // coarse cells
  std::uint32_t levels = 2;     // refinements of a coarse cell, at most
  std::uint32_t phases = 40;    // phases (time steps) of each run
  std::uint32_t work = 20000;   // integer steps of a coarse cell a phase; of a cell of level L, L + 1 times as many
  double width = 0.1;           // a cell of level L is refined within width / 2^L of the front
  bool set_loads = false;       // each cell's load its work (L + 1), not its measured time
  bool json = false;
};

// A cell: its place in the mesh and its state. Trivially copyable: it travels as its bytes.
struct Cell {
  std::uint32_t level = 0;
  std::uint64_t index = 0;  // among the cells of its level, from the left
  std::uint64_t value = 0;
};

// SplitMix64's finaliser: the cells' integer work, exact on every machine.
inline std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// The front's place in phase `phase`: it crosses the domain once over the run.
inline double front_at(std::uint32_t phase, std::uint32_t phases) { return (phase + 0.5) / phases; }

// A cell's work in one phase: (level + 1) x `work` steps.
inline void step(Cell& c, std::size_t phase, const Settings& s) {
  std::uint64_t v = mix(c.value ^ phase);
  const std::uint64_t steps = std::uint64_t{c.level + 1} * s.work;
  for (std::uint64_t k = 0; k < steps; ++k) v = mix(v + k);
  c.value = v;
}

// The mesh's cells by id, and the changes of each gap between phases.
class Mesh {
public:
  explicit Mesh(const Settings& s) : s_(s) {
    for (std::uint64_t i = 0; i < s.cells; ++i) leaves_[id(0, i)] = {0, i, -1};
  }
  // A cell's id: the cells of level L after those of the coarser levels.
  std::uint64_t id(std::uint32_t level, std::uint64_t index) const {
    std::uint64_t offset = 0, count = s_.cells;
    for (std::uint32_t l = 0; l < level; ++l, count *= 4) offset += count;
    return offset + index;
  }
  std::vector<std::uint64_t> children(std::uint32_t level, std::uint64_t index) const {
    std::vector<std::uint64_t> out;
    for (std::uint64_t k = 0; k < 4; ++k) out.push_back(id(level + 1, 4 * index + k));
    return out;
  }

  struct Family {
    std::uint32_t level;  // the parent's
    std::uint64_t index;
  };
  struct Changes {
    std::vector<Family> merges;      // the families marked at the last gap, merged now
    std::vector<Family> splits;      // the cells split now
    std::vector<Family> marks;       // the families to merge at the next gap: moved together now
  };
  // The changes after phase `phase`, as the front stands for the next: the families marked
  // then merge, the cells near the front split, and the families whose parent is far from it
  // are marked (their children are brought onto one worker for the merge: a merge needs them
  // there, and a balancing step may have spread them). A cell changes only from the gap
  // after the one that made it, when it is in the runtime's table.
  Changes next(std::uint32_t phase) {
    const double front = front_at(phase + 1, s_.phases);
    const int gap = static_cast<int>(phase);
    Changes out;
    out.merges = std::move(marked_);
    marked_.clear();
    for (const Family& f : out.merges) {
      for (std::uint64_t child : children(f.level, f.index)) leaves_.erase(child);
      leaves_[id(f.level, f.index)] = {f.level, f.index, gap};
    }
    for (const auto& [cell, leaf] : leaves_)
      if (leaf.born < gap && near(leaf.level, leaf.index, front)) out.splits.push_back({leaf.level, leaf.index});
    for (const Family& f : out.splits) {
      leaves_.erase(id(f.level, f.index));
      for (std::uint64_t k = 0; k < 4; ++k)
        leaves_[id(f.level + 1, 4 * f.index + k)] = {f.level + 1, 4 * f.index + k, gap};
    }
    for (const auto& [cell, leaf] : leaves_) {
      if (leaf.level == 0 || leaf.index % 4 != 0 || near(leaf.level - 1, leaf.index / 4, front)) continue;
      bool all = true;  // the 4 siblings, each a cell older than this gap
      for (std::uint64_t sibling : children(leaf.level - 1, leaf.index / 4)) {
        const auto it = leaves_.find(sibling);
        all = all && it != leaves_.end() && it->second.born < gap;
      }
      if (all) marked_.push_back({leaf.level - 1, leaf.index / 4});
    }
    out.marks = marked_;
    created_ += 4 * out.splits.size() + out.merges.size();
    destroyed_ += out.splits.size() + 4 * out.merges.size();
    return out;
  }
  std::size_t cells() const { return leaves_.size(); }
  std::size_t created() const { return created_; }
  std::size_t destroyed() const { return destroyed_; }

private:
  // Whether a cell is to be refined: below the finest level, within width / 2^level of the front.
  bool near(std::uint32_t level, std::uint64_t index, double front) const {
    if (level >= s_.levels) return false;
    const double size = 1.0 / (static_cast<double>(s_.cells) * static_cast<double>(std::uint64_t{1} << (2 * level)));
    const double lo = static_cast<double>(index) * size, hi = lo + size;
    const double distance = front < lo ? lo - front : front > hi ? front - hi : 0.0;
    return distance < s_.width / static_cast<double>(std::uint64_t{1} << level);
  }
  struct Leaf {
    std::uint32_t level;
    std::uint64_t index;
    int born;  // the gap that made it; -1: the start
  };
  Settings s_;
  std::map<std::uint64_t, Leaf> leaves_;
  std::vector<Family> marked_;
  std::size_t created_ = 0, destroyed_ = 0;
};

struct RunFigures {
  dlbkit::ObjectRunResult report;
  std::uint64_t checksum = 0;
  std::size_t cells = 0, created = 0, destroyed = 0;  // the mesh's own count
  std::string engine;
  std::size_t workers = 0;
  int rank = 0;
};

using Runtime = dlbkit::ObjectRuntime<Cell, int>;

// The changes of one gap that concern this process's cells.
inline void change(Runtime& rt, const Mesh& mesh, const Mesh::Changes& c) {
  std::unordered_map<std::uint64_t, std::uint64_t> value;  // this process's cells'
  rt.for_each_object([&](std::uint64_t id, const Cell& cell) { value[id] = cell.value; });
  for (const Mesh::Family& f : c.merges) {
    const std::vector<std::uint64_t> children = mesh.children(f.level, f.index);
    if (!rt.is_local(rt.worker_of(children[0]))) continue;
    std::uint64_t sum = 0;  // in any order: the same bits (a child elsewhere: merge() says so)
    for (std::uint64_t child : children) sum += value.count(child) ? value[child] : 0;
    // The parent does (L + 1) / (4 (L + 2)) of its 4 children's work together.
    rt.merge(children, mesh.id(f.level, f.index), Cell{f.level, f.index, mix(sum)},
             (f.level + 1.0) / (4 * (f.level + 2.0)));
  }
  for (const Mesh::Family& f : c.splits) {
    const std::uint64_t parent = mesh.id(f.level, f.index);
    if (!rt.is_local(rt.worker_of(parent))) continue;
    std::vector<Cell> cells;
    for (std::uint64_t k = 0; k < 4; ++k) cells.push_back({f.level + 1, 4 * f.index + k, mix(value.at(parent) + k)});
    // Each child does (L + 2) / (L + 1) of its parent's work: told, so that a step right
    // after the split sees the children's load before it is measured.
    const double weight = (f.level + 2.0) / (f.level + 1.0);
    rt.split(parent, mesh.children(f.level, f.index), std::move(cells), std::vector<double>(4, weight));
  }
  for (const Mesh::Family& f : c.marks) {
    const std::vector<std::uint64_t> children = mesh.children(f.level, f.index);
    for (std::uint64_t child : children)
      if (rt.is_local(rt.worker_of(child))) rt.move(child, rt.worker_of(children[0]));
  }
}

inline RunFigures run(const dlbkit::ObjectRuntimeOptions& options, const Settings& s) {
  Runtime rt(options);
  Mesh mesh(s);
  const std::size_t p = rt.workers();
  for (std::uint64_t i = 0; i < s.cells; ++i) {
    const auto worker = static_cast<dlbkit::NodeId>(i * p / s.cells);  // strips
    if (rt.is_local(worker)) rt.add(mesh.id(0, i), Cell{0, i, mix(i)}, worker);
  }
  for (std::uint32_t phase = 0; phase < s.phases; ++phase) {
    rt.run_phase([&](Cell& c, dlbkit::ObjectContext<int>& ctx) {
      step(c, ctx.phase(), s);
      if (s.set_loads) ctx.set_load(c.level + 1.0);
    });
    if (phase + 1 < s.phases) change(rt, mesh, mesh.next(phase));
  }
  RunFigures out{.cells = mesh.cells(), .created = mesh.created(), .destroyed = mesh.destroyed(),
                 .engine = rt.engine(), .workers = p, .rank = rt.rank()};
  // The cells' values summed modulo 2^64: exact, in any order.
  for (std::uint64_t v : rt.collect([](std::uint64_t, const Cell& c) { return c.value; })) out.checksum += v;
  out.report = rt.finish();
  return out;
}

inline double mean_seconds(const dlbkit::ObjectRunResult& r, bool with_balancing) {
  const double total = r.phase_seconds + (with_balancing ? r.balancing_seconds : 0);
  return r.phases.empty() ? 0 : total / static_cast<double>(r.phases.size());
}

}  // namespace amr
