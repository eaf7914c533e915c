// The longest Collatz trajectory below a limit: a maximum and where it is (its argmax),
// not a sum. A task is a range of starting values, walked in order; whenever a worker is
// asked for work while it walks, the range gives away the upper half of what is left (split
// on demand), so the program fixes no grain size. The task tells the worker how many values
// it still holds, so that every strategy, not only work stealing, sees the work. Runs on
// the engine the command line chooses:
//
//   collatz --below 1000000                          threads, one worker per core
//   mpirun -np 2 collatz --below 1000000             one worker per rank (link dlbkit::mpi)

#include <dlbkit/runtime/runtime.hpp>

#include <cstdint>
#include <cstdio>
#include <vector>

namespace {

struct Range {
  std::uint64_t first, last;  // [first, last)
};

// The longest trajectory found, and its start: the smallest start among equals, so the
// reduction gives one answer whatever the order of the workers.
struct Longest {
  std::uint64_t steps = 0, start = 0;
};

Longest longer(const Longest& a, const Longest& b) {
  if (a.steps != b.steps) return a.steps > b.steps ? a : b;
  return a.start <= b.start ? a : b;
}

std::uint64_t steps_from(std::uint64_t x) {
  std::uint64_t steps = 0;
  for (; x != 1; ++steps) x = x % 2 == 0 ? x / 2 : 3 * x + 1;
  return steps;
}

}  // namespace

int main(int argc, char** argv) try {
  std::uint64_t below = 1000000;
  dlbkit::Runtime runtime(dlbkit::RuntimeOptions::parse(
      argc, argv, {{"--below", below, 2, std::uint64_t{1} << 32, "the limit: trajectories of the numbers below it"}}));
  const Longest longest = runtime.run(
      std::vector{Range{1, below}},
      [](const Range& r, auto& ctx) {
        std::uint64_t last = r.last;
        for (std::uint64_t x = r.first; x < last; ++x) {
          ctx.result() = longer(ctx.result(), {steps_from(x), x});
          ctx.poll(
              [&] {  // called only when another worker wants work
                if (last - x < 2) return;
                const std::uint64_t middle = x + 1 + (last - x - 1) / 2;
                ctx.spawn(Range{middle, last});
                last = middle;
              },
              last - x);  // the work left, in starting values: the load that strategies weigh
        }
      },
      Longest{}, longer);

  if (runtime.rank() == 0)
    std::printf("below %llu: the longest trajectory starts at %llu, %llu steps\n",
                static_cast<unsigned long long>(below), static_cast<unsigned long long>(longest.start),
                static_cast<unsigned long long>(longest.steps));
  runtime.print_report();
  return 0;
} catch (const std::exception& e) {
  return dlbkit::print_error(e);
}
