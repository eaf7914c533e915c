#pragma once
// The rank agents of the distributed phase strategies (rank_protocol.hpp), made by their
// strategies' registry entries (phase_strategy_info: S::rank_protocol).

#include <dlbkit/phases/rank_protocol.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dlbkit::detail {

/// What the agent of a flow strategy (flows.hpp) needs of its scheme.
struct FlowScheme {
  /// alpha of the polynomial schemes; lambda of dimension exchange.
  double alpha = 0;
  /// The polynomial schemes' betas as polynomial_flow() reads them (all 1: first-order
  /// diffusion); empty: dimension exchange over the topology's edge colouring.
  std::vector<double> betas;
  /// The rounds to run, from FlowStop::factor of the loads (FlowStop::limit).
  std::function<std::uint64_t(double factor)> rounds;
};
/// The agent of a flow strategy; `p` holds its flow parameters (flows.hpp).
std::unique_ptr<RankProtocol> flow_rank_protocol(const Parameters& p, const RankSetup& setup, FlowScheme scheme);

/// What tempered's agent reads of tempered's parameters (tempered.cpp).
struct TemperedProtocolOptions {
  long long iterations = 4, rounds = 3, fanout = 4;
  std::string order = "arbitrary";
  bool deterministic = false;
  bool every_node = false;  // peers=LBAF
};
std::unique_ptr<RankProtocol> tempered_rank_protocol(const TemperedProtocolOptions& options, const RankSetup& setup);

}  // namespace dlbkit::detail
