#pragma once
// The rank agents of the distributed phase strategies (rank_protocol.hpp), made by their
// strategies' registry entries (phase_strategy_info: S::rank_protocol).

#include <dlbkit/phases/rank_protocol.hpp>

#include <memory>
#include <string>

namespace dlbkit::detail {

/// diffusion's agent (diffusion.cpp's parameters).
std::unique_ptr<RankProtocol> diffusion_rank_protocol(const Parameters& p, const RankSetup& setup);

/// What tempered's agent reads of tempered's parameters (tempered.cpp).
struct TemperedProtocolOptions {
  long long iterations = 4, rounds = 3, fanout = 4;
  std::string order = "arbitrary";
  bool deterministic = false;
  bool every_node = false;  // peers=LBAF
};
std::unique_ptr<RankProtocol> tempered_rank_protocol(const TemperedProtocolOptions& options, const RankSetup& setup);

}  // namespace dlbkit::detail
