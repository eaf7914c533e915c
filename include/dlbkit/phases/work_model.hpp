#pragma once
/// \file
/// A node's work, what a criterion weighs: LBAF's AffineCombination work model
/// (lbsAffineCombinationWorkModel.py, compute):
///
///     work(node) = alpha_node x load + beta x max(sent, received) + gamma + delta x homing
///                  + intra x local
///
/// alpha_node is the phase's node_alpha (vt's rank_alpha, 1 where the data has none); sent and
/// received are the bytes the node's objects send to and receive from objects on other nodes
/// (lbsRank.get_sent_volume, get_received_volume); homing is the bytes of the shared blocks the
/// node holds that were not on it in the phase's own mapping (lbsRank.get_homing: a block's
/// home is the rank whose file listed it). LBAF's upper bounds, an infinite work above
/// max_memory_usage, are the memory bound (PhaseContext::fits). `intra` is vt's TemperedLB's
/// split of communication (temperedlb.cc, computeWorkBreakdown: its gamma): local is the bytes
/// of messages between objects both on the node (an object's to itself too), which vt weighs
/// beside the bytes that leave it. With beta = delta = intra = 0 the work follows the loads
/// alone.
///
/// ```
/// dlbkit::WorkModel model = dlbkit::parse_work_model("beta=1e-9,delta=1e-10");
/// std::vector<double> works = dlbkit::node_works(phase, phase.node_of, model);
/// ```

#include <dlbkit/phases/phase.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace dlbkit {

struct WorkModel {
  double beta = 0;   ///< per byte of max(sent, received)
  double gamma = 0;  ///< the same on every node
  double delta = 0;  ///< per byte of homing
  double intra = 0;  ///< per byte of messages that stay on the node (vt's gamma)
  /// Whether a node's work depends on where the objects' partners and blocks are.
  bool weighs_placement() const { return beta != 0 || delta != 0 || intra != 0; }
  bool operator==(const WorkModel&) const = default;
};

/// "beta=B,gamma=G,delta=D,intra=I" (any of the four, each once, finite numbers >= 0; those not
/// given are 0), or "load" (all 0). InputError naming `what`, `text` and what is accepted otherwise.
WorkModel parse_work_model(const std::string& text, const std::string& what = "work model");
/// The text parse_work_model reads back: "load", or the terms that are not 0.
std::string to_string(const WorkModel& model);

/// Whether every node's work is its load plus the same constant (no placement terms, no alphas
/// in the phase): a criterion on loads is then one on works.
inline bool follows_loads(const WorkModel& model, const Phase& phase) {
  return !model.weighs_placement() && phase.node_alpha.empty();
}

/// Each node's work under `mapping`, counted from scratch.
std::vector<double> node_works(const Phase& phase, const std::vector<NodeId>& mapping, const WorkModel& model);

/// Each node's work kept up to date object move by object move, as NodeMemory keeps its memory,
/// so that a criterion can weigh a transfer before it is made.
class NodeWork {
public:
  NodeWork(const Phase& phase, const std::vector<NodeId>& mapping, const WorkModel& model);

  double of(NodeId node) const {
    return work(node, {loads_[node], sent_[node], received_[node], local_[node], homing_[node]});
  }
  /// The works of `from` and `to` if `out` (on `from`) went to `to` and `back` (on `to`) to `from`.
  std::pair<double, double> after(std::span<const ObjectIndex> out, NodeId from, NodeId to,
                                  std::span<const ObjectIndex> back = {}) const;
  /// Moves `object` from `from`, where it is, to `to` in the accounting.
  void move(ObjectIndex object, NodeId from, NodeId to);

private:
  struct Terms {
    double load, sent, received, local, homing;
  };
  double work(NodeId node, const Terms& t) const;
  bool home(std::int32_t block, NodeId node) const;
  std::uint32_t held(std::int32_t block, NodeId node) const;

  const Phase* phase_;
  WorkModel model_;
  std::vector<NodeId> mapping_;  // with weighs_placement() only
  mutable std::vector<std::uint8_t> moving_;  // after()'s scratch: 1 an object of `out`, 2 of `back`
  std::vector<double> loads_, sent_, received_, local_, homing_;
  // With weighs_placement(): each object's communications (indices in phase.communications),
  // each block's home nodes (sorted), and how many objects of each block each node holds.
  std::vector<std::size_t> edge_start_;
  std::vector<std::uint32_t> edges_;
  std::vector<std::vector<NodeId>> homes_;
  std::vector<std::vector<std::pair<NodeId, std::uint32_t>>> holders_;  // per block: (node, objects)
};

}  // namespace dlbkit
