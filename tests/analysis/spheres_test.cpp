// Hadamard matrices and the scheduler sets of AG91 Sec. 4: GF(q) for Paley's construction,
// H H^T = n I for every matrix built, Theorem 2's distances, Table II and Table III
// recomputed on the graphs.
#include <dlbkit/analysis/galois_field.hpp>
#include <dlbkit/analysis/hadamard.hpp>
#include <dlbkit/analysis/spheres.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/topology/topology.hpp>

#include <algorithm>
#include <bit>
#include <gtest/gtest.h>

using namespace dlbkit;

namespace {

std::uint64_t choose(int n, int k) {
  std::uint64_t b = 1;
  for (int i = 1; i <= k; ++i) b = b * static_cast<std::uint64_t>(n - k + i) / static_cast<std::uint64_t>(i);
  return b;
}

}  // namespace

TEST(Hadamard, EveryMatrixBuiltIsHadamard) {
  const auto orders = available_hadamard_orders(64);
  EXPECT_EQ(orders.front(), 1);
  for (int o : {2, 4, 8, 12, 16, 20, 24, 32, 40, 44, 48, 64})
    EXPECT_TRUE(std::find(orders.begin(), orders.end(), o) != orders.end()) << o;
  for (int o : orders) {
    const HadamardMatrix h = hadamard(o);
    EXPECT_EQ(h.order, o);
    EXPECT_TRUE(is_hadamard(h)) << "order " << o << " (" << h.construction << ")";
  }
  for (int o = 1; o <= 64; o *= 2) EXPECT_TRUE(is_hadamard(sylvester_hadamard(o))) << o;
  for (int q : {3, 7, 11, 19, 23, 31, 43, 47}) EXPECT_TRUE(is_hadamard(paley_hadamard(q))) << q;
  for (const auto& g : table1_generators()) EXPECT_TRUE(is_hadamard(cyclic_hadamard(g))) << g;
  EXPECT_TRUE(is_hadamard(kronecker(paley_hadamard(11), sylvester_hadamard(2))));
}

TEST(Hadamard, RejectsWhatItCannotBuild) {
  EXPECT_THROW(hadamard(6), InputError);
  EXPECT_THROW(hadamard(52), InputError);  // 51 = 3 * 17 is no prime power, 26 no multiple of 4
  EXPECT_THROW(paley_hadamard(13), InputError);
  EXPECT_THROW(sylvester_hadamard(12), InputError);
  EXPECT_THROW(cyclic_hadamard("0011011"), InputError);
  EXPECT_THROW(cyclic_hadamard("01x"), InputError);
  try {
    hadamard(36);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("accepted orders: 1, 2, 4, 8, 12"), std::string::npos) << e.what();
  }
}

TEST(GaloisField, PrimePowers) {
  auto pk = [](int q) {
    const auto r = prime_power(q);
    return r ? std::pair{r->p, r->k} : std::pair{0, 0};
  };
  EXPECT_EQ(pk(27), std::pair(3, 3));
  EXPECT_EQ(pk(343), std::pair(7, 3));
  EXPECT_EQ(pk(243), std::pair(3, 5));
  EXPECT_EQ(pk(2), std::pair(2, 1));
  EXPECT_EQ(pk(2147483647), std::pair(2147483647, 1));  // a prime at the top of int
  for (int q : {-3, 0, 1, 12, 15, 36, 1000}) EXPECT_FALSE(prime_power(q).has_value()) << q;
  try {
    GaloisField f(12);
    FAIL();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("GF(12): 12 is not a prime power; accepted: q = p^k"), std::string::npos)
        << e.what();
  }
}

TEST(GaloisField, EveryNonzeroElementHasAnInverseAndThereAreNoZeroDivisors) {
  // Exhaustive: a finite commutative ring without zero divisors is a field, so this fails
  // when the modulus is reducible. GF(81) is the trap for a roots-only test: t^4 + 1, the
  // first monic quartic without a root over GF(3), is (t^2 + t + 2)(t^2 + 2t + 2).
  for (int q : {2, 3, 4, 8, 9, 16, 25, 27, 32, 49, 64, 81, 125, 243}) {
    const GaloisField f(q);
    ASSERT_EQ(f.modulus().size(), static_cast<std::size_t>(f.degree()) + 1) << q;
    EXPECT_EQ(f.modulus().back(), 1) << q;
    for (int a = 1; a < q; ++a) {
      EXPECT_EQ(f.multiply(a, f.inverse(a)), 1) << "GF(" << q << "), a = " << a;
      for (int b = 1; b < q; ++b) ASSERT_NE(f.multiply(a, b), 0) << "GF(" << q << "): " << a << " * " << b;
    }
  }
  EXPECT_NE(GaloisField(81).modulus(), (std::vector<int>{1, 0, 0, 0, 1}));
}

TEST(GaloisField, FieldAxiomsOnAFewElements) {
  for (int q : {7, 27, 81, 343}) {
    const GaloisField f(q);
    const int p = f.characteristic();
    std::vector<int> some = {0, 1, 2, q / 3, q / 2, q - 2, q - 1};
    if (p < q) some.push_back(p);  // the element t
    for (int a : some) {
      EXPECT_EQ(f.add(a, 0), a);
      EXPECT_EQ(f.multiply(a, 1), a);
      EXPECT_EQ(f.multiply(a, 0), 0);
      EXPECT_EQ(f.add(f.subtract(0, a), a), 0);
      int sum = 0;  // p copies of a add up to 0: the characteristic
      for (int i = 0; i < p; ++i) sum = f.add(sum, a);
      EXPECT_EQ(sum, 0) << "GF(" << q << "), a = " << a;
      for (int b : some) {
        EXPECT_EQ(f.add(a, b), f.add(b, a));
        EXPECT_EQ(f.multiply(a, b), f.multiply(b, a));
        EXPECT_EQ(f.subtract(f.add(a, b), b), a);
        for (int c : some) {
          EXPECT_EQ(f.add(f.add(a, b), c), f.add(a, f.add(b, c)));
          EXPECT_EQ(f.multiply(f.multiply(a, b), c), f.multiply(a, f.multiply(b, c)));
          EXPECT_EQ(f.multiply(a, f.add(b, c)), f.add(f.multiply(a, b), f.multiply(a, c)))
              << "GF(" << q << "): " << a << ", " << b << ", " << c;
        }
      }
    }
    // The multiplicative group is cyclic of order q - 1: some element has exactly that order.
    bool generator = false;
    for (int g = 2; g < q && !generator; ++g) {
      int x = g, order = 1;
      for (; x != 1; ++order) x = f.multiply(x, g);
      generator = order == q - 1;
    }
    EXPECT_TRUE(generator) << q;
  }
}

TEST(GaloisField, QuadraticCharacter) {
  for (int q : {7, 9, 27, 81, 243, 343}) {
    const GaloisField f(q);
    const std::vector<int> chi = quadratic_character(f);
    ASSERT_EQ(chi.size(), static_cast<std::size_t>(q));
    EXPECT_EQ(chi[0], 0);
    EXPECT_EQ(std::count(chi.begin(), chi.end(), 1), (q - 1) / 2) << q;
    EXPECT_EQ(std::count(chi.begin(), chi.end(), -1), (q - 1) / 2) << q;
    // Multiplicative, and chi(-1) = -1 exactly when q = 3 (mod 4) (Paley's skew case).
    for (int a = 1; a < q; a += 5)
      for (int b = 1; b < q; b += 7)
        EXPECT_EQ(chi[static_cast<std::size_t>(f.multiply(a, b))],
                  chi[static_cast<std::size_t>(a)] * chi[static_cast<std::size_t>(b)]);
    EXPECT_EQ(chi[static_cast<std::size_t>(f.subtract(0, 1))], q % 4 == 3 ? -1 : 1) << q;
  }
}

TEST(Hadamard, PaleyOverPrimePowers) {
  for (int q : {27, 243, 343}) {
    const HadamardMatrix h = paley_hadamard(q);
    EXPECT_EQ(h.order, q + 1);
    EXPECT_EQ(h.construction, "paley q=" + std::to_string(q));
    EXPECT_TRUE(is_hadamard(h)) << q;
  }
  // The chooser now reaches these orders through Paley, and their doubles through Kronecker.
  for (auto [order, construction] : std::vector<std::pair<int, std::string>>{
           {28, "paley q=27"}, {56, "kronecker 2 x 28"}, {244, "paley q=243"}, {344, "paley q=343"}}) {
    EXPECT_TRUE(has_hadamard(order)) << order;
    const HadamardMatrix h = hadamard(order);
    EXPECT_EQ(h.construction, construction);
    EXPECT_TRUE(is_hadamard(h)) << order;
  }
}

TEST(Hadamard, PaleyOverAPrimeIsTheResidueMatrix) {
  // Over a prime the field elements are the residues mod q: Q_ij is the Legendre symbol of
  // j - i (Euler's criterion: (j - i)^((q-1)/2) mod q).
  for (int q : {7, 23, 47}) {
    const HadamardMatrix h = paley_hadamard(q);
    for (int i = 0; i < q; ++i)
      for (int j = 0; j < q; ++j) {
        long power = 1;
        for (int e = 0; e < (q - 1) / 2; ++e) power = power * (((j - i) % q + q) % q) % q;
        const int legendre = i == j ? 1 : power == 1 ? 1 : -1;
        EXPECT_EQ(h.entries[static_cast<std::size_t>(i + 1)][static_cast<std::size_t>(j + 1)], legendre)
            << "q = " << q << ", " << i << ", " << j;
      }
  }
}

TEST(Hadamard, PaleyRefusesWhatIsNotAPrimePowerThreeMod4) {
  const std::pair<int, const char*> cases[] = {{15, "15 is not a prime power"},
                                               {1, "1 is not a prime power"},
                                               {25, "25 = 1 (mod 4)"},
                                               {2, "2 = 2 (mod 4)"},
                                               {1019, "q + 1 exceeds 512"}};
  for (auto [q, why] : cases) {
    try {
      paley_hadamard(q);
      FAIL() << q;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find("from q = " + std::to_string(q) + ": " + why), std::string::npos) << what;
      EXPECT_NE(what.find("accepted: a prime power q = p^k = 3 (mod 4) with q + 1 <= 512"), std::string::npos) << what;
    }
  }
  try {
    hadamard(36);
    FAIL();
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("order 36 is built"), std::string::npos) << what;
    EXPECT_NE(what.find(", 24, 28, 32, 40,"), std::string::npos) << what;
    EXPECT_NE(what.find("Paley's q + 1 for a prime power q = 3 (mod 4)"), std::string::npos) << what;
  }
  // The 0-1 words of the scheduler sets hold at most 64 columns.
  EXPECT_THROW(zero_one_rows(hadamard(128)), InputError);
}

TEST(Hadamard, ZeroOneNotationAsInFigure1) {
  // AG91 Figure 1: the order-8 matrix in 0-1 notation, first row and column all 0, each
  // other row four 1s, every two rows at Hamming distance 4.
  const auto m = zero_one_rows(hadamard(8));
  EXPECT_EQ(word_string(m[0], 8), "00000000");
  EXPECT_EQ(word_string(m[1], 8), "00010111");  // Figure 1, row 2
  EXPECT_EQ(word_string(m[2], 8), "00101110");  // Figure 1, row 3
  for (std::size_t i = 0; i < m.size(); ++i) {
    EXPECT_EQ(m[i] & 1, 0u);
    for (std::size_t j = i + 1; j < m.size(); ++j) EXPECT_EQ(std::popcount(m[i] ^ m[j]), 4);
  }
  const auto mc = complement_rows(m, 8);
  EXPECT_EQ(word_string(mc[1], 8), "11101000");  // Figure 1, M^C row 2
}

TEST(Spheres, Theorem2SchedulersOfQnAreHalfTheDiameterApart) {
  for (int n : {4, 8, 12, 16}) {
    const Topology q = parse_topology("hypercube:" + std::to_string(n));
    const SchedulerSet c = scheduler_set(q);
    ASSERT_EQ(c.schedulers.size(), 2u * static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < c.schedulers.size(); ++i)
      for (std::size_t j = i + 1; j < c.schedulers.size(); ++j) {
        const int d = q.distance(c.schedulers[i], c.schedulers[j]);
        // n/2, but for the antipodal pairs (a row of M and its own complement in M^C).
        if (j == i + static_cast<std::size_t>(n)) EXPECT_EQ(d, n);
        else EXPECT_EQ(d, n / 2) << "Q_" << n << " schedulers " << i << ", " << j;
      }
  }
}

TEST(Spheres, Table2Recomputed) {
  // Valencies from the closed forms of AG91 Sec. 3 (Q_n and B_n: C(n, i)); r measured by BFS.
  struct Row {
    std::string spec;
    std::size_t C;
    int r;
  };
  for (const Row& row : std::vector<Row>{{"hypercube:7", 16, 1},
                                         {"hypercube:8", 16, 2},
                                         {"hypercube:9", 16, 2},
                                         {"hypercube:10", 16, 3},
                                         {"bisectional:7", 8, 1},
                                         {"bisectional:9", 8, 2},
                                         {"bisectional:11", 12, 3},
                                         {"odd:4", 7, 1},
                                         {"odd:6", 11, 3}}) {
    const Topology t = parse_topology(row.spec);
    const SchedulerSet c = scheduler_set(t);
    const SphereStructure s = analyze_spheres(t, c);
    EXPECT_EQ(c.schedulers.size(), row.C) << row.spec;
    EXPECT_EQ(s.covering_radius, row.r) << row.spec;
    const int n = s.degree;
    std::size_t size = 0;
    for (int i = 0; i <= s.covering_radius; ++i) {
      std::uint64_t expected = choose(n, i);
      if (t.kind() == TopologyKind::odd && i > 0) {
        // O_n: y at distance 2j meets x in n-1-j positions, at distance 2j-1 in j-1 positions,
        // so v_2j = C(n-1, j) C(n, j) and v_2j-1 = C(n-1, j-1) C(n, j) (AG91 Sec. 3.3's
        // formula, garbled in the text, reconstructed).
        const int j = (i + 1) / 2;
        expected = (i % 2 == 0 ? choose(n - 1, j) : choose(n - 1, j - 1)) * choose(n, j);
      }
      EXPECT_EQ(s.valencies[static_cast<std::size_t>(i)], expected) << row.spec << " v_" << i;
      size += s.valencies[static_cast<std::size_t>(i)];
    }
    EXPECT_EQ(s.sphere_size, size);
    // Every node is within r of a scheduler, and r is attained.
    std::vector<int> nearest(t.size(), 1 << 30);
    for (NodeId x : c.schedulers) {
      const auto from = t.bfs_distances(x);
      for (NodeId v = 0; v < t.size(); ++v) nearest[v] = std::min(nearest[v], from[v]);
    }
    EXPECT_EQ(*std::max_element(nearest.begin(), nearest.end()), s.covering_radius) << row.spec;
  }
  // The sphere sizes AG91 Table II prints where its row is self-consistent.
  EXPECT_EQ(analyze_spheres(parse_topology("hypercube:8"), scheduler_set(parse_topology("hypercube:8"))).sphere_size, 37u);
  EXPECT_EQ(analyze_spheres(parse_topology("hypercube:10"), scheduler_set(parse_topology("hypercube:10"))).sphere_size,
            176u);
  EXPECT_EQ(analyze_spheres(parse_topology("odd:6"), scheduler_set(parse_topology("odd:6"))).sphere_size, 112u);
}

TEST(Spheres, PapersQ7CodewordsAreInTheSet) {
  // AG91 Sec. 4.3 lists the 7 left cyclic shifts of 0010111 for Q_7.
  const SchedulerSet c = scheduler_set(parse_topology("hypercube:7"));
  std::vector<std::string> words;
  for (std::uint64_t w : c.codewords) words.push_back(word_string(w, 7));
  for (const char* w : {"0010111", "0101110", "1011100", "0111001", "1110010", "1100101", "1001011", "0000000", "1111111"})
    EXPECT_TRUE(std::find(words.begin(), words.end(), w) != words.end()) << w;
}

TEST(Spheres, BisectionalAndOddSchedulersAreEquidistant) {
  // Lemma 1: every two schedulers of B_n and O_n are at the same distance.
  for (const char* spec : {"bisectional:7", "bisectional:9", "bisectional:11", "odd:4", "odd:6", "odd:8"}) {
    const Topology t = parse_topology(spec);
    const SphereStructure s = analyze_spheres(t, scheduler_set(t));
    EXPECT_EQ(s.pair_distances.size(), 1u) << spec;
  }
  const Topology o6 = parse_topology("odd:6");
  EXPECT_EQ(analyze_spheres(o6, scheduler_set(o6)).min_distance, o6.diameter());  // k-separated (Lemma 1)
}

TEST(Spheres, Table3SharingInQ8) {
  // AG91 Table III, f = 2: nodes at distance 1 lie in one sphere, nodes at distance 2 in 4.
  const Topology q8 = parse_topology("hypercube:8");
  const SchedulerSet c = scheduler_set(q8);
  const auto rows = sharing_distribution(q8, c, 2);
  ASSERT_EQ(rows.size(), 3u);
  EXPECT_EQ(rows[0].nodes, 16u);
  EXPECT_EQ(rows[0].spheres, (std::map<std::size_t, std::size_t>{{1, 16}}));
  EXPECT_EQ(rows[1].spheres, (std::map<std::size_t, std::size_t>{{1, 128}}));
  EXPECT_EQ(rows[2].spheres, (std::map<std::size_t, std::size_t>{{4, 112}}));
  // Every column of Table III: the paper's rows for distances 1 and 2 as printed; its
  // distance-0 row (0 0 14 14 14 14 15) leaves out the scheduler's own sphere.
  const std::size_t d0[] = {0, 0, 14, 14, 14, 14, 15}, d1[] = {1, 8, 8, 15, 15, 16, 16}, d2[] = {4, 4, 12, 12, 16, 16, 16};
  for (int f = 2; f <= 8; ++f) {
    const auto t3 = sharing_distribution(q8, c, f);
    const auto i = static_cast<std::size_t>(f - 2);
    EXPECT_EQ(t3[0].spheres, (std::map<std::size_t, std::size_t>{{d0[i] + 1, 16}})) << "f = " << f;
    EXPECT_EQ(t3[1].spheres, (std::map<std::size_t, std::size_t>{{d1[i], 128}})) << "f = " << f;
    EXPECT_EQ(t3[2].spheres, (std::map<std::size_t, std::size_t>{{d2[i], 112}})) << "f = " << f;
  }
  // B9 (Sec. 6.5): "a node is shared in either 1 or 3 spheres".
  const Topology b9 = parse_topology("bisectional:9");
  std::map<std::size_t, std::size_t> shared;
  for (const auto& row : sharing_distribution(b9, scheduler_set(b9), 2))
    for (auto [k, nodes] : row.spheres) shared[k] += nodes;
  EXPECT_EQ(shared, (std::map<std::size_t, std::size_t>{{1, 200}, {3, 56}}));
  // f = 8 = diameter: every node in all 16 spheres (the centralised limit).
  for (const auto& row : sharing_distribution(q8, c, 8))
    EXPECT_EQ(row.spheres, (std::map<std::size_t, std::size_t>{{16, row.nodes}}));
  const auto membership = sphere_membership(q8, c.schedulers, 2);
  EXPECT_EQ(membership[c.schedulers[3]], std::vector<std::uint32_t>{3});
}

TEST(Spheres, SizesWithoutAConstructionAreRefusedNamingTheAvailableOnes) {
  for (const char* spec : {"odd:5", "odd:3", "torus:4x4", "hypercube:2", "ring:8"}) {
    try {
      scheduler_set(parse_topology(spec));
      FAIL() << spec;
    } catch (const InputError& e) {
      const std::string what = e.what();
      EXPECT_NE(what.find(spec), std::string::npos) << what;
      EXPECT_NE(what.find("odd:{2, 4, 6, 8, 10, 12}"), std::string::npos) << what;
      EXPECT_NE(what.find("hypercube:{3, 4, 5"), std::string::npos) << what;
    }
  }
}
