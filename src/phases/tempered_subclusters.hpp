#pragma once
// LBAF's subclusters of one cluster (lbsClusteringTransferStrategy.__build_rank_subclusters),
// for tempered's phase strategy (tempered.cpp) and its rank protocol (tempered_protocol.cpp).

#include <dlbkit/core/random.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <numeric>
#include <set>
#include <vector>

namespace dlbkit::detail {

struct SubclusterLimits {
  bool deterministic = false;
  double max_objects = 0, max_subclusters = 0;  // integers, or inf
  long long max_enumerated = 0;
};

/// The next combination of pick.size() of n indices in lexicographic order (itertools'), or false.
inline bool next_combination(std::vector<std::size_t>& pick, std::size_t n) {
  const std::size_t r = pick.size();
  std::size_t i = r;
  while (i > 0 && pick[i - 1] == n - r + i - 1) --i;
  if (i == 0) return false;
  ++pick[i - 1];
  for (std::size_t j = i; j < r; ++j) pick[j] = pick[j - 1] + 1;
  return true;
}

/// keep(subset) for the subsets of `cluster` of at most max_objects objects. Deterministic:
/// all of them by size and then in lexicographic order (LBAF's itertools.combinations), at
/// most max_enumerated (LBAF's are exponential in the cluster's size). Random: min(size,
/// max_subclusters) random subsets of a Binomial(size, 1/2) number of objects each (LBAF's
/// random.sample of a numpy binomial size), sorted by `key`; a subset drawn twice is kept
/// once (LBAF keys them by their tuple), the empty one never (it gains nothing).
template <class T, class Key, class Keep>
void for_each_subcluster(std::vector<T>& cluster, const SubclusterLimits& limits, Rng& rng, Key key, Keep keep) {
  const auto most = static_cast<std::size_t>(std::min(limits.max_objects, static_cast<double>(cluster.size())));
  std::vector<T> subset;
  if (limits.deterministic) {
    long long tried = 0;
    std::vector<std::size_t> pick;
    for (std::size_t size = 1; size <= most && tried < limits.max_enumerated; ++size) {
      pick.resize(size);
      std::iota(pick.begin(), pick.end(), std::size_t{0});
      do {
        subset.clear();
        for (std::size_t k : pick) subset.push_back(cluster[k]);
        keep(subset);
      } while (++tried < limits.max_enumerated && next_combination(pick, cluster.size()));
    }
    return;
  }
  using Keys = std::vector<decltype(key(cluster.front()))>;
  std::set<Keys> drawn;
  const auto draws = static_cast<std::size_t>(std::min(limits.max_subclusters, static_cast<double>(most)));
  for (std::size_t d = 0; d < draws; ++d) {
    std::size_t size = 0;  // Binomial(most, 1/2): the ones among `most` random bits
    for (std::size_t bit = 0; bit < most; bit += 64) {
      const auto width = static_cast<int>(std::min<std::size_t>(64, most - bit));
      size += static_cast<std::size_t>(std::popcount(rng.next() >> (64 - width)));
    }
    for (std::size_t k = 0; k < size; ++k)  // the first `size` of a shuffle
      std::swap(cluster[k], cluster[k + rng.below(cluster.size() - k)]);
    subset.assign(cluster.begin(), cluster.begin() + static_cast<std::ptrdiff_t>(size));
    std::sort(subset.begin(), subset.end(), [&](const T& a, const T& b) { return key(a) < key(b); });
    Keys keys;
    for (const T& x : subset) keys.push_back(key(x));
    if (size > 0 && drawn.insert(keys).second) keep(subset);
  }
}

}  // namespace dlbkit::detail
