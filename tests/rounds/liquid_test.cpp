// The Liquid model (Henrich Sec. 3-4) and synchronous NNA (Sec. 2.3, 5): Table 3, Lemma 1,
// Theorem 2's convergence, exact conservation, the two kernel paths, and bad input.

#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/rounds/balance_time.hpp>
#include <dlbkit/rounds/liquid.hpp>
#include <dlbkit/rounds/nna.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

using namespace dlbkit;

namespace {

using Loads = std::vector<std::int64_t>;

const ShiftCondition kConditions[] = {ShiftCondition::c0, ShiftCondition::c1, ShiftCondition::c2,
                                      ShiftCondition::c3, ShiftCondition::c4, ShiftCondition::c5};
const char* const kTori[] = {"ring:3", "ring:8", "torus:2",  "torus:5x4", "torus:2x7",
                             "torus:3x3x3", "torus:4x2x3", "hypercube:4"};

Loads random_loads(std::size_t n, std::uint64_t max, Rng& rng) {
  Loads w(n);
  for (auto& x : w) x = static_cast<std::int64_t>(rng.below(max + 1));
  return w;
}

Loads step(const RoundKernel& k, std::uint64_t t, const Loads& w) {
  Loads next(w.size());
  k.update(t, w, next, 0, static_cast<NodeId>(w.size()));
  return next;
}

std::int64_t total(const Loads& w) { return std::accumulate(w.begin(), w.end(), std::int64_t{0}); }

// Table 3 (ring of eight, 16 elements on one processor). The text keeps the table's totals:
// LM-C5 shares after 7 shifts and balances after 18; NNA needs 6 shifts more (24).
TEST(LiquidTable3, LmC5SharesAfterSevenAndBalancesAfterEighteenShifts) {
  const LiquidKernel lm(parse_topology("ring:8"), ShiftCondition::c5);
  Loads w{16, 0, 0, 0, 0, 0, 0, 0};
  const BalanceResult r = run_to_balance(lm, w, {.record = true});
  EXPECT_EQ(r.shifts_to_sharing, 7u);
  EXPECT_EQ(r.shifts_to_balancing, 18u);
  ASSERT_EQ(r.trace.size(), 19u);
  // The sharing phase (Sec. 5: T = P - 1): one element leaves processor 0 per shift and runs
  // along the ring as a virtual transfer (Fig. 2).
  for (std::uint64_t t = 0; t <= 7; ++t) {
    Loads expected(8, 0);
    expected[0] = 16 - static_cast<std::int64_t>(t);
    for (std::uint64_t i = 1; i <= t; ++i) expected[i] = 1;
    EXPECT_EQ(r.trace[t].loads, expected) << "after " << t << " shifts";
  }
  EXPECT_EQ(r.trace.back().loads, Loads(8, 2));
  // Every step is Definition 1 applied to the previous row.
  for (std::size_t t = 1; t < r.trace.size(); ++t) {
    EXPECT_EQ(r.trace[t].shifts, t);
    EXPECT_EQ(step(lm, t - 1, r.trace[t - 1].loads), r.trace[t].loads);
  }
}

TEST(LiquidTable3, NnaBalancesAfterTwentyFourShifts) {
  const NnaKernel nna(parse_topology("ring:8"));
  Loads w{16, 0, 0, 0, 0, 0, 0, 0};
  EXPECT_EQ(nna.shifts(w), 11u);  // ceil(16/3) = 6 elements go right, floor(16/3) = 5 go left
  EXPECT_EQ(step(nna, 0, w), (Loads{5, 6, 0, 0, 0, 0, 0, 5}));
  const BalanceResult r = run_to_balance(nna, w, {.record = true});
  EXPECT_EQ(r.shifts_to_balancing, 24u);  // LM-C5's 18 + 6
  EXPECT_EQ(w, Loads(8, 2));
  // "Before NNA has averaged the first two processors, LM could already reach the load sharing
  // goal after the seventh step": NNA's first iteration alone takes 11 shifts.
  EXPECT_EQ(r.trace[1].shifts, 11u);
}

TEST(LiquidTable3, TheOtherNnaReadingsOnTheSameExample) {
  const Topology ring = parse_topology("ring:8");
  const Loads spike{16, 0, 0, 0, 0, 0, 0, 0};
  // First iteration: 6 right and 5 left under either transfer rule.
  for (const NnaTransfer transfer : {NnaTransfer::net, NnaTransfer::gross}) {
    EXPECT_EQ(NnaKernel(ring, transfer, NnaTime::sequential).shifts(spike), 11u);
    EXPECT_EQ(NnaKernel(ring, transfer, NnaTime::simultaneous).shifts(spike), 6u);
    Loads w = spike;
    const BalanceResult r = run_to_balance(NnaKernel(ring, transfer, NnaTime::simultaneous), w, {});
    EXPECT_TRUE(r.balanced);
    EXPECT_EQ(w, Loads(8, 2));
    EXPECT_LT(*r.shifts_to_balancing, 24u);  // fewer shifts when both directions run at once
  }
  // gross sends ceil(L/3) and floor(L/3) from every processor, the opposed transfers included.
  const NnaKernel gross(ring, NnaTransfer::gross);
  EXPECT_EQ(step(gross, 0, Loads{3, 3, 3, 3, 3, 3, 3, 3}), Loads(8, 3));
  EXPECT_EQ(gross.shifts(Loads{3, 3, 3, 3, 3, 3, 3, 3}), 2u);
  EXPECT_EQ(NnaKernel(ring).shifts(Loads{3, 3, 3, 3, 3, 3, 3, 3}), 0u);
}

TEST(LiquidConservation, EveryConditionOnEveryTorusKeepsEveryElement) {
  Rng rng(5);
  for (const char* spec : kTori) {
    const Topology t = parse_topology(spec);
    for (const ShiftCondition c : kConditions) {
      const LiquidKernel lm(t, c);
      for (int trial = 0; trial < 5; ++trial) {
        Loads w = random_loads(t.size(), trial == 0 ? 1 : 9, rng);
        const std::int64_t sum = total(w);
        for (std::uint64_t s = 0; s < 60; ++s) {
          w = step(lm, s, w);
          ASSERT_EQ(total(w), sum) << spec << " " << to_string(c) << " step " << s;
          ASSERT_GE(*std::min_element(w.begin(), w.end()), 0) << spec << " " << to_string(c);
        }
      }
    }
  }
}

TEST(LiquidConservation, NnaKeepsEveryElementUnderBothTransferRules) {
  Rng rng(6);
  for (const char* spec : {"ring:3", "ring:8", "torus:11"}) {
    const Topology t = parse_topology(spec);
    for (const NnaTransfer transfer : {NnaTransfer::net, NnaTransfer::gross}) {
      const NnaKernel nna(t, transfer);
      for (int trial = 0; trial < 10; ++trial) {
        Loads w = random_loads(t.size(), trial < 3 ? 2 : 50, rng);
        const std::int64_t sum = total(w);
        for (std::uint64_t s = 0; s < 40; ++s) {
          w = step(nna, s, w);
          ASSERT_EQ(total(w), sum) << spec;
          ASSERT_GE(*std::min_element(w.begin(), w.end()), 0) << spec;
        }
      }
    }
  }
}

TEST(LiquidConservation, ContinuousNnaIsEquation3) {
  const NnaKernel nna(parse_topology("ring:5"));
  const std::vector<double> w{3, 0, 6, 0, 0};
  std::vector<double> next(5);
  nna.update(0, w, next, 0, 5);
  EXPECT_EQ(next, (std::vector<double>{1, 3, 2, 2, 1}));
}

// Lemma 1: LM-C5 never raises the maximum nor lowers the minimum; the proof shows it for every
// sub-step (one dimension), which is what is checked here.
TEST(LiquidLemma1, C5NeverRaisesTheMaximumNorLowersTheMinimum) {
  Rng rng(1);
  for (const char* spec : kTori) {
    const LiquidKernel lm(parse_topology(spec), ShiftCondition::c5);
    for (int trial = 0; trial < 20; ++trial) {
      Loads w = random_loads(lm.size(), 1 + rng.below(30), rng);
      for (std::uint64_t s = 0; s < 100; ++s) {
        const Loads next = step(lm, s, w);
        ASSERT_LE(*std::max_element(next.begin(), next.end()), *std::max_element(w.begin(), w.end())) << spec;
        ASSERT_GE(*std::min_element(next.begin(), next.end()), *std::min_element(w.begin(), w.end())) << spec;
        w = next;
      }
    }
  }
}

// Theorem 2 (C5) and Sec. 5 (C3, C4 reach the same balanced state): random tori and random
// loads reach Definition 2 (|L_i - L_j| <= D), within Theorem 3's order D K L_diff.
TEST(LiquidTheorem2, C3ToC5ConvergeToDefinition2OnRandomTori) {
  Rng rng(3);
  for (int trial = 0; trial < 30; ++trial) {
    const int d = 1 + static_cast<int>(rng.below(3));
    std::string spec = "torus:";
    int k_max = 0;
    for (int i = 0; i < d; ++i) {
      const int k = 2 + static_cast<int>(rng.below(d == 1 ? 30 : 6));
      k_max = std::max(k_max, k);
      spec += (i ? "x" : "") + std::to_string(k);
    }
    const Topology t = parse_topology(spec);
    const Loads start = random_loads(t.size(), 1 + rng.below(40), rng);
    const std::int64_t spread = *std::max_element(start.begin(), start.end()) - *std::min_element(start.begin(), start.end());
    for (const ShiftCondition c : {ShiftCondition::c3, ShiftCondition::c4, ShiftCondition::c5}) {
      Loads w = start;
      const BalanceResult r = run_to_balance(LiquidKernel(t, c), w, {.max_shifts = 1'000'000});
      ASSERT_TRUE(r.balanced) << spec << " " << to_string(c);
      EXPECT_LE(r.max_min_difference, d) << spec;
      EXPECT_EQ(r.total_final, r.total_initial);
      // Generous constant: the theorem gives the order only.
      EXPECT_LE(*r.shifts_to_balancing, 10u * static_cast<std::uint64_t>(d * k_max) * static_cast<std::uint64_t>(spread + 1) + 10u)
          << spec << " " << to_string(c);
    }
  }
}

// C0..C2 only share the load (Sec. 5): from a spike they stop at a fixed point, shared but not
// balanced; C0 shares after P - 1 shifts.
TEST(LiquidSharing, C0ToC2ShareButDoNotBalance) {
  const Topology ring = parse_topology("ring:16");
  for (const ShiftCondition c : {ShiftCondition::c0, ShiftCondition::c1, ShiftCondition::c2}) {
    Loads w(16, 0);
    w[0] = 80;
    const BalanceResult r = run_to_balance(LiquidKernel(ring, c), w, {});
    EXPECT_TRUE(r.fixed_point) << to_string(c);
    EXPECT_TRUE(r.shared) << to_string(c);
    EXPECT_FALSE(r.balanced) << to_string(c);
    if (c == ShiftCondition::c0) {
      EXPECT_EQ(r.shifts_to_sharing, 15u);
    }
  }
  Loads w(16, 0);
  w[0] = 80;
  EXPECT_EQ(run_to_balance(LiquidKernel(ring, ShiftCondition::c5), w, {}).shifts_to_sharing, 15u);  // T = P - 1
}

TEST(LiquidPaths, FastAndReferenceAgreeBitForBitOnAnySplit) {
  Rng rng(9);
  for (const char* spec : {"ring:3", "ring:37", "torus:2", "torus:2x2", "torus:6x5", "torus:3x2x7", "torus:64x3",
                           "hypercube:5", "torus:4x4x4x3"}) {
    const Topology t = parse_topology(spec);
    for (const ShiftCondition c : kConditions) {
      const LiquidKernel fast(t, c), reference(t, c, LiquidPath::reference);
      const Loads w = random_loads(t.size(), 4, rng);
      for (std::uint64_t s = 0; s < 4; ++s) {
        Loads a(w.size(), -1), b(w.size(), -2);
        const auto n = static_cast<NodeId>(w.size());
        const auto cut = static_cast<NodeId>(rng.below(n + 1));
        fast.update(s, w, a, 0, cut);
        fast.update(s, w, a, cut, n);
        reference.update(s, w, b, 0, n);
        ASSERT_EQ(a, b) << spec << " " << to_string(c) << " step " << s << " cut " << cut;
      }
    }
  }
}

// Vectors of 2^22 processors and more take the streaming-store path of the default kernel.
TEST(LiquidPaths, TheStreamingPathAgreesWithTheReferenceOnALargeTorus) {
  const Topology t = parse_topology("torus:2048x2048");
  Rng rng(4);
  const Loads w = random_loads(t.size(), 6, rng);
  const auto n = static_cast<NodeId>(t.size());
  for (const ShiftCondition c : {ShiftCondition::c2, ShiftCondition::c5}) {
    const LiquidKernel fast(t, c), reference(t, c, LiquidPath::reference);
    for (std::uint64_t s = 0; s < 2; ++s) {
      Loads a(w.size()), b(w.size());
      const NodeId cut = 1'234'567;  // an odd split: unaligned starts
      fast.update(s, w, a, 0, cut);
      fast.update(s, w, a, cut, n);
      reference.update(s, w, b, 0, n);
      ASSERT_TRUE(a == b) << to_string(c) << " step " << s;
    }
  }
}

TEST(LiquidErrors, BadConditionsTopologiesAndLoadsAreRefused) {
  EXPECT_EQ(parse_shift_condition("c3"), ShiftCondition::c3);
  EXPECT_EQ(parse_shift_condition("C5"), ShiftCondition::c5);
  for (const char* bad : {"c6", "5", "", "c", "c05", "cc"}) {
    try {
      parse_shift_condition(bad);
      ADD_FAILURE() << bad;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("c0, c1, c2, c3, c4, c5"), std::string::npos) << e.what();
    }
  }
  for (const char* spec : {"mesh:4x4", "complete:5", "tree:binary:3", "bisectional:5"}) {
    try {
      LiquidKernel(parse_topology(spec), ShiftCondition::c5);
      ADD_FAILURE() << spec;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find(spec), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("torus"), std::string::npos) << e.what();
    }
  }
  for (const char* spec : {"torus:4x4", "hypercube:3", "mesh:8", "torus:2"}) {
    try {
      NnaKernel(parse_topology(spec));
      ADD_FAILURE() << spec;
    } catch (const InputError& e) {
      EXPECT_NE(std::string(e.what()).find("ring:N"), std::string::npos) << e.what();
    }
  }
  EXPECT_THROW(parse_nna_transfer("both"), InputError);
  EXPECT_THROW(parse_nna_time("parallel"), InputError);
  Loads negative{3, -1, 0};
  EXPECT_THROW(run_to_balance(LiquidKernel(parse_topology("ring:3"), ShiftCondition::c5), negative, {}), InputError);
  Loads short_vector{1, 2};
  EXPECT_THROW(run_to_balance(NnaKernel(parse_topology("ring:3")), short_vector, {}), InputError);
}

}  // namespace
