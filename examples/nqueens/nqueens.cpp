// N-Queens: how many ways can N queens stand on an N x N board, none attacking another?
// A search tree as a task pool: a task is a board with its first rows filled; near the
// root it spawns a task per safe square of its next row, deeper it counts the rest itself.
// Runs on the engine the command line chooses:
//
//   nqueens --n 12                                   threads, one worker per core
//   nqueens --n 12 --strategy sid --workers 4        any strategy of `dlbkit list strategies`
//   mpirun -np 2 nqueens --n 12                      one worker per rank (link dlbkit::mpi)

#include <dlbkit/runtime/runtime.hpp>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <vector>

namespace {

// A board as three bit masks of the squares the placed queens attack in the next row:
// by column, and by the two diagonals. Trivially copyable: it travels as its 20 bytes.
struct Board {
  std::uint32_t n, row, columns, left, right;

  std::uint32_t free_squares() const { return ~(columns | left | right) & ((1u << n) - 1); }
  Board place(std::uint32_t square) const {
    return {n, row + 1, columns | square, (left | square) << 1, (right | square) >> 1};
  }
};

// Counts the completions of `b` depth first; poll() now and then lets the worker answer
// the balancing strategy during a long count.
template <class Poll>
std::uint64_t count_rest(const Board& b, Poll& poll) {
  if (b.row == b.n) return 1;
  if (b.row + 4 == b.n) poll();
  std::uint64_t solutions = 0;
  for (std::uint32_t free = b.free_squares(); free != 0; free &= free - 1)
    solutions += count_rest(b.place(free & -free), poll);
  return solutions;
}

}  // namespace

int main(int argc, char** argv) try {
  std::uint32_t n = 12;
  dlbkit::Runtime runtime(dlbkit::RuntimeOptions::parse(argc, argv, {{"--n", n, 1, 20, "the board size"}}));  // beside dlbkit's options
  const std::uint32_t split_rows = n / 3;  // tasks down to this row, then whole subtrees
  const std::uint64_t solutions = runtime.run(
      std::vector{Board{n, 0, 0, 0, 0}},
      [split_rows](const Board& b, auto& ctx) {
        if (b.row < split_rows) {
          for (std::uint32_t free = b.free_squares(); free != 0; free &= free - 1) ctx.spawn(b.place(free & -free));
        } else {
          auto poll = [&ctx] { ctx.poll(); };
          ctx.result() += count_rest(b, poll);
        }
      },
      std::uint64_t{0}, std::plus<>{});

  if (runtime.rank() == 0) std::printf("%u-queens: %llu solutions\n", n, static_cast<unsigned long long>(solutions));
  runtime.print_report();
  return 0;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
