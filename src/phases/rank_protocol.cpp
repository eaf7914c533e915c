#include <dlbkit/error.hpp>
#include <dlbkit/phases/rank_protocol.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace dlbkit {

RankProtocolFactory rank_protocol_factory(const PhaseStrategyChoice& choice) {
  if (!choice.info->rank_protocol) return {};
  return [make = choice.info->rank_protocol, params = choice.params](const RankSetup& setup) {
    return make(params, setup);
  };
}

RankProtocolFactory runnable_rank_protocol(const PhaseStrategyChoice& choice, const WorkModel& work_model) {
  RankProtocolFactory make = rank_protocol_factory(choice);
  if (!make || !(work_model == WorkModel{})) return {};
  try {
    (void)make({.mine = LocalPhase{}, .topology = parse_topology("complete:1")});
  } catch (const InputError&) {
    return {};
  }
  return make;
}

void detail::reduce_round(std::vector<double>& sums, std::vector<double>& maxima, const RoundOutput& rank, bool first) {
  if (first) {
    sums = rank.sums;
    maxima = rank.maxima;
    return;
  }
  if (rank.sums.size() != sums.size() || rank.maxima.size() != maxima.size())
    throw std::logic_error("the ranks of a protocol contributed reductions of different lengths in one round");
  for (std::size_t k = 0; k < sums.size(); ++k) sums[k] += rank.sums[k];
  for (std::size_t k = 0; k < maxima.size(); ++k) maxima[k] = std::max(maxima[k], rank.maxima[k]);
}

std::uint64_t detail::round_limit(std::uint64_t per_pass, const RankProtocol& agent) {
  std::uint64_t limit = 0;
  return __builtin_mul_overflow(per_pass, agent.passes(), &limit) ? std::numeric_limits<std::uint64_t>::max() : limit;
}

void detail::throw_round_limit(std::uint64_t max_rounds) {
  throw std::runtime_error(fmt::format("a rank protocol did not end within {} rounds", max_rounds));
}

}  // namespace dlbkit
