#pragma once
// The protocol of a central phase strategy: every node sends its objects' loads to the root
// (node 0) in one message, the root decides, and sends each node one message with its
// decisions.

#include <dlbkit/phases/phase_strategy.hpp>

namespace dlbkit::detail {

inline void gather_to_root(PhaseContext& ctx) {
  for (NodeId v = 1; v < ctx.nodes(); ++v) ctx.protocol().send(v, 0);
  ctx.protocol().end_round();
}

inline void scatter_from_root(PhaseContext& ctx) {
  for (NodeId v = 1; v < ctx.nodes(); ++v) ctx.protocol().send(0, v);
  ctx.protocol().end_round();
}

}  // namespace dlbkit::detail
