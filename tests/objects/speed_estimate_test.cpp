// SpeedEstimate (objects/speed_estimate.hpp) on given times: an object of work w takes w / s
// on a worker of speed s; the estimate learns the speeds' ratios from objects that moved after
// two phases on a worker.
#include <dlbkit/objects/speed_estimate.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using dlbkit::NodeId;
using dlbkit::SpeedEstimate;

// The times of objects of works `works` on `workers` at `speeds`.
std::vector<double> times_of(const std::vector<double>& works, const std::vector<NodeId>& workers,
                             const std::vector<double>& speeds) {
  std::vector<double> t(works.size());
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = works[i] / speeds[workers[i]];
  return t;
}

TEST(SpeedEstimate, ObjectsThatMoveTellTheRatioOfTheSpeeds) {
  const std::vector<double> speeds{1, 2}, works{1, 2, 3, 4};
  SpeedEstimate e(2);
  const std::vector<NodeId> first{0, 0, 1, 1}, second{1, 1, 0, 0};
  e.observe(first, times_of(works, first, speeds));
  e.observe(first, times_of(works, first, speeds));
  EXPECT_EQ(e.speeds(), (std::vector<double>{1, 1}));  // nothing moved yet
  e.observe(second, times_of(works, second, speeds));
  EXPECT_NEAR(e.speeds()[1] / e.speeds()[0], 2, 1e-12);
  EXPECT_NEAR(e.speeds()[0] * e.speeds()[1], 1, 1e-12);  // their geometric mean stays 1
}

// Workers 0-1 and 1-2 linked by moves, never 0-2: the fit chains them; worker 3, never linked,
// keeps its speed of 1.
TEST(SpeedEstimate, LinksChainAndAnUnlinkedWorkerKeepsItsEstimate) {
  const std::vector<double> speeds{1, 2, 4, 3}, works{1, 1, 1, 1, 1};
  SpeedEstimate e(4);
  const std::vector<NodeId> a{0, 1, 1, 2, 3}, b{1, 0, 2, 1, 3};
  for (int phase = 0; phase < 6; ++phase) {
    const auto& w = phase / 2 % 2 == 0 ? a : b;
    e.observe(w, times_of(works, w, speeds));
  }
  EXPECT_NEAR(e.speeds()[1] / e.speeds()[0], 2, 1e-9);
  EXPECT_NEAR(e.speeds()[2] / e.speeds()[0], 4, 1e-9);
  EXPECT_EQ(e.speeds()[3], 1);
}

// An object whose work changed tenfold as it moved is outvoted by the others (the median); an
// object of time 0 is not read.
TEST(SpeedEstimate, AFewObjectsWhoseWorkChangedDoNotMoveTheEstimate) {
  const std::vector<double> speeds{1, 2};
  std::vector<double> works{1, 1, 1, 1, 1, 1, 0};
  SpeedEstimate e(2);
  const std::vector<NodeId> first{0, 0, 0, 1, 1, 1, 0}, second{1, 1, 1, 0, 0, 0, 1};
  e.observe(first, times_of(works, first, speeds));
  e.observe(first, times_of(works, first, speeds));
  works[0] = 10;
  e.observe(second, times_of(works, second, speeds));
  EXPECT_NEAR(e.speeds()[1] / e.speeds()[0], 2, 1e-12);
}

// A pause stretches 3 objects of worker 0, and a strategy moves them for their long times: the
// times they had before tell the ratio, not the stretched ones (which would read 10).
TEST(SpeedEstimate, ObjectsMovedForStretchedTimesAreReadByTheirTimesBefore) {
  const std::vector<double> speeds{1, 2}, works(20, 1.0);
  SpeedEstimate e(2);
  std::vector<NodeId> workers(works.size(), 0);
  e.observe(workers, times_of(works, workers, speeds));
  std::vector<double> stretched = times_of(works, workers, speeds);
  for (std::size_t i = 0; i < 3; ++i) stretched[i] *= 5;
  e.observe(workers, stretched);
  for (std::size_t i = 0; i < 3; ++i) workers[i] = 1;
  e.observe(workers, times_of(works, workers, speeds));
  EXPECT_NEAR(e.speeds()[1] / e.speeds()[0], 2, 1e-12);
}

// 20 objects change workers every other phase. Worker 1 loses its core for phase 5 (each of
// its objects takes 5 times as long), by whose times the objects then move: not read. In phase
// 8 a pause stretches 3 of its objects: the others outvote them, then and when they move on.
TEST(SpeedEstimate, APauseOfAWorkerDoesNotMoveTheEstimate) {
  const std::vector<double> speeds{1, 2}, works(20, 1.0);
  SpeedEstimate e(2);
  for (std::size_t phase = 0; phase < 14; ++phase) {
    std::vector<NodeId> workers(works.size());
    for (std::size_t i = 0; i < workers.size(); ++i) workers[i] = static_cast<NodeId>((i + phase / 2) % 2);
    std::vector<double> times = times_of(works, workers, speeds);
    for (std::size_t i = 0, stretched = 0; i < times.size(); ++i)
      if (workers[i] == 1 && (phase == 5 || (phase == 8 && stretched++ < 3))) times[i] *= 5;
    e.observe(workers, times);
    if (phase >= 2) {
      EXPECT_NEAR(e.speeds()[1] / e.speeds()[0], 2, 1e-12) << "after phase " << phase;
    }
  }
}

// Objects made or remade between two phases (renumber(): none) have no past to compare: those
// that take the indices of objects that moved would otherwise read as a ratio of 1/5.
TEST(SpeedEstimate, NewObjectsAreNotComparedWithThePast) {
  SpeedEstimate e(2);
  const std::vector<NodeId> first(6, 0), second(6, 1);
  e.observe(first, std::vector<double>(6, 1));
  e.observe(first, std::vector<double>(6, 1));
  const auto none = SpeedEstimate::none;
  e.renumber(std::vector<dlbkit::ObjectIndex>{none, none, none, 3, 4, 5});
  e.observe(second, std::vector<double>{5, 5, 5, 0.5, 0.5, 0.5});
  EXPECT_NEAR(e.speeds()[1] / e.speeds()[0], 2, 1e-12);
}

// Equal workers, times with a noise of +-10% each phase, objects dealt at random: the estimate
// stays near 1 over many phases, without drift.
TEST(SpeedEstimate, EqualWorkersStayNearOne) {
  constexpr std::size_t kObjects = 64;
  SpeedEstimate e(2);
  std::uint64_t state = 12345;
  const auto next = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) / 9007199254740992.0;  // [0, 1)
  };
  double worst = 0;
  for (int phase = 0; phase < 200; ++phase) {
    std::vector<NodeId> workers(kObjects);
    std::vector<double> times(kObjects);
    for (std::size_t i = 0; i < kObjects; ++i) {
      workers[i] = next() < 0.5 ? 0 : 1;
      times[i] = (1 + static_cast<double>(i % 5)) * (0.9 + 0.2 * next());
    }
    e.observe(workers, times);
    worst = std::max(worst, std::abs(std::log(e.speeds()[1] / e.speeds()[0])));
    EXPECT_NEAR(e.speeds()[0] * e.speeds()[1], 1, 1e-9);
  }
  EXPECT_LT(worst, std::log(1.1));
  EXPECT_GT(worst, 0);  // the noise is seen
}

}  // namespace
