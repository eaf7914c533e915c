#pragma once
/// \file
/// Nodes that differ in speed, given by the user: a node of speed s runs a load of 1 (a second
/// on a node of speed 1) in 1 / s seconds. A phase holds them as node_alpha = 1 / speed (vt's
/// rank_alpha, work per unit of load), and the strategies that weigh them balance times,
/// alpha x load (docs/phases.md, Nodes that differ in speed).
///
/// ```
/// std::vector<double> speeds = dlbkit::parse_speeds("1,2", "--speeds");  // {1, 2}
/// dlbkit::set_speeds(phase, speeds, "--speeds");                        // phase.node_alpha = {1, 0.5}
/// ```

#include <dlbkit/phases/phase.hpp>

#include <string>
#include <vector>

namespace dlbkit {

/// "S0,S1,...": each a finite number > 0. InputError naming `what`, the value and what is
/// accepted otherwise (a speed of zero, a negative one, nan, inf, an empty item).
std::vector<double> parse_speeds(const std::string& text, const std::string& what);

/// Throws InputError naming `what` unless there is one speed per node, each finite and > 0.
void check_speeds(const std::vector<double>& speeds, std::size_t nodes, const std::string& what);

/// Sets phase.node_alpha to 1 / speed of each node (check_speeds first).
void set_speeds(Phase& phase, const std::vector<double>& speeds, const std::string& what);

/// Each node's speed, 1 / its alpha, as local_phases() gives a rank's (so that a strategy and
/// its rank protocol compute from the same bits); empty where the phase has no alphas.
std::vector<double> node_speeds(const Phase& phase);

/// `nodes` speeds from "S0,S1,..." (one per node) or "cycle:S0,...,Sk-1" (node v at speed
/// S[v mod k], k <= nodes: a large machine's pattern in a few numbers). InputError naming
/// `what` otherwise (a wrong count, and all that parse_speeds refuses).
std::vector<double> parse_node_speeds(const std::string& text, std::size_t nodes, const std::string& what);

}  // namespace dlbkit
