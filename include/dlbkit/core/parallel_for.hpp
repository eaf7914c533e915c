#pragma once
/// \file
/// Independent calls spread over threads: every seed of a sweep, every candidate of
/// `dlbkit advise`, every row of a reproduction (simulations share no state).
///
/// ```
/// std::vector<double> makespans(seeds.size());
/// dlbkit::parallel_for(seeds.size(), /*jobs=*/4, [&](std::size_t i) { makespans[i] = run(seeds[i]); });
/// ```

#include <cstddef>
#include <functional>

namespace dlbkit {

/// Calls f(0) .. f(count - 1), `jobs` at a time (the caller's thread and jobs - 1 others; 0
/// counts as 1). Each call must be independent of the others. The first exception thrown
/// stops handing out calls and is rethrown here once the calls under way have returned.
void parallel_for(std::size_t count, unsigned jobs, const std::function<void(std::size_t)>& f);

}  // namespace dlbkit
