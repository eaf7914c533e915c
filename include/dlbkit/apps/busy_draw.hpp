#pragma once
/// \file
/// The busy app's tasks, shared by the app (src/apps/busy_app.cpp) and the simulator's
/// `busy` workload (src/workloads/app_workloads.cpp): the artificial workload's draw on
/// `workers` nodes with one loop as the unit of work. `take(node, loops)` sees each task in
/// the order drawn; total_auto sets L = 2e5 loops per worker.

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace dlbkit {

/// The busy app's parameters as the draw reads them.
struct BusyDraw {
  std::map<std::string, std::string> given;  ///< the artificial workload's parameters, total_load unless auto
  bool total_auto = true;
  std::uint64_t seed = 1;
};

/// From the busy app's parameters (busy_app_info().params).
BusyDraw busy_draw(const Parameters& p);

void draw_busy_tasks(const BusyDraw& draw, std::size_t workers, const std::function<void(NodeId, std::uint64_t)>& take);

}  // namespace dlbkit
