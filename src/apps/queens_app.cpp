// The `queens` app: counts the placements of n non-attacking queens, an N-Queens search as a
// task pool. A task is a partial board (the queens of its first rows as bit masks); above
// row `depth` it spawns one task per free square of the next row, at row `depth` it counts
// the rest of its subtree sequentially, without poll() calls: the coarse tasks of a typical
// user's first program, whose length `depth` sets (n = 15, depth = 3: about 0.5 ms each).

#include <dlbkit/apps/builtin_apps.hpp>

#include <bit>

namespace dlbkit {

namespace {

struct Board {
  std::uint32_t columns, left, right;  // attacked columns, and diagonals moving left and right
  std::uint32_t row;
};

struct Solutions {
  std::uint64_t count;
};

class Queens final : public ReportedApplication<Board, Solutions> {
public:
  Queens(int n, int depth) : n_(n), depth_(depth), all_((1u << n) - 1) {}

  std::vector<Board> roots(NodeId worker, std::size_t) const override {
    return worker == 0 ? std::vector<Board>{{0, 0, 0, 0}} : std::vector<Board>{};
  }

  void execute(const Board& b, TaskContext<Board, Solutions>& ctx) override {
    if (static_cast<int>(b.row) >= depth_) {
      ctx.result().count += count(b.columns, b.left, b.right, b.row);
      return;
    }
    if (static_cast<int>(b.row) == n_) {
      ++ctx.result().count;
      return;
    }
    for (std::uint32_t free = all_ & ~(b.columns | b.left | b.right); free != 0; free &= free - 1) {
      const std::uint32_t q = free & (0u - free);
      ctx.spawn({b.columns | q, ((b.left | q) << 1) & all_, (b.right | q) >> 1, b.row + 1});
    }
  }

  void combine(Solutions& into, const Solutions& other) const override { into.count += other.count; }
  nlohmann::json report(const Solutions& s) const override { return {{"solutions", s.count}}; }

private:
  std::uint64_t count(std::uint32_t columns, std::uint32_t left, std::uint32_t right, std::uint32_t row) const {
    if (static_cast<int>(row) == n_) return 1;
    std::uint64_t total = 0;
    for (std::uint32_t free = all_ & ~(columns | left | right); free != 0; free &= free - 1) {
      const std::uint32_t q = free & (0u - free);
      total += count(columns | q, ((left | q) << 1) & all_, (right | q) >> 1, row + 1);
    }
    return total;
  }

  int n_, depth_;
  std::uint32_t all_;
};

}  // namespace

AppInfo queens_app_info() {
  return AppInfo{
      .name = "queens",
      .description = "N-Queens: count the placements of n queens; tasks spawn down to row `depth`, then count "
                     "their subtree whole",
      .source = "the classic backtracking search with bit masks (coarse tasks without poll() calls)",
      .params =
          {
              {.name = "n", .type = ParamType::integer, .default_value = "15", .description = "board size",
               .min = 1, .max = 20},
              {.name = "depth", .type = ParamType::integer, .default_value = "3",
               .description = "rows placed by spawning tasks; the rest of a board is one task", .min = 0, .max = 20},
          },
      .create =
          [](const Parameters& p) -> std::unique_ptr<AnyApplication> {
        return std::make_unique<Queens>(static_cast<int>(p.integer("n")), static_cast<int>(p.integer("depth")));
      },
  };
}

}  // namespace dlbkit
