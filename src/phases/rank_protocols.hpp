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
  enum class Form {
    polynomial,  ///< diffusion, sos, chebyshev: polynomial_flow()
    exchange,    ///< dimension exchange over the topology's edge colouring: exchange_flow()
    hierarchy,   ///< hbm's domains on a hypercube (hbm.cpp)
  };
  Form form = Form::polynomial;
  /// alpha of the polynomial schemes; lambda of dimension exchange.
  double alpha = 0;
  /// The polynomial schemes' betas as polynomial_flow() reads them (all 1: first-order diffusion).
  std::vector<double> betas;
  /// The rounds to run, from FlowStop::factor of the loads (FlowStop::limit); not hbm's.
  std::function<std::uint64_t(double factor)> rounds;
  /// hbm: L_threshold(i) = threshold_base x 2^i (WLR93 eq. 22).
  double threshold_base = 0;
};
/// The agent of a flow strategy; `p` holds its flow parameters (flows.hpp).
std::unique_ptr<RankProtocol> flow_rank_protocol(const Parameters& p, const RankSetup& setup, FlowScheme scheme);

/// What tempered's agent reads of tempered's parameters (tempered.cpp).
struct TemperedProtocolOptions {
  long long iterations = 4, rounds = 3, fanout = 4;
  std::string order = "arbitrary";
  bool deterministic = false;
  bool every_node = false;  // peers=LBAF
  double proposals = 1;     // proposals_per_round: an integer, or inf
  // transfer_strategy=Clustering and its parameters (tempered.cpp's)
  bool clustering = false;
  double swap_rtol = 0.05;
  double max_subclusters = 0, max_objects = 0;  // integers, or inf
  double sub_threshold = 0, sub_improvement = 0;
  bool separate = false;
  long long max_enumerated = 0;
  long long trials = 1;  // vt's trials and rollback (tempered.cpp's)
  bool rollback = false;
};
std::unique_ptr<RankProtocol> tempered_rank_protocol(const TemperedProtocolOptions& options, const RankSetup& setup);

/// What hierarchical's agent reads of its parameters (hierarchical.cpp).
struct HierarchicalProtocolOptions {
  std::size_t group = 0;  // 0: ceil(sqrt(ranks)), as gather_tree.hpp's
  bool greedy_inside = false;
  double tolerance = 0.05;
};
std::unique_ptr<RankProtocol> hierarchical_rank_protocol(const HierarchicalProtocolOptions& options,
                                                         const RankSetup& setup);

}  // namespace dlbkit::detail
