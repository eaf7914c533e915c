#pragma once
/// \file
/// What computation and communication cost on the simulated multicomputer. Presets carry
/// documented numbers (docs/cost-models.md); every field can be overridden by name.
///
/// A message sent at processor time t by a node costs the sender `send_overhead` of
/// processor time, reaches a node at distance h after
///     latency + (h - 1) * per_hop + tasks * per_task
/// and costs the receiver `handle_cost` when handled; with `transfer = exponential` the
/// tasks' part is drawn from an exponential distribution of that mean (AG91 Sec. 6). A
/// busy node handles messages only at its poll points, every `poll_interval` of task
/// execution (0: on arrival); an idle node handles them at once. Looking for messages
/// costs `poll_cost` of processor time at each poll point, for strategies that look
/// (StrategyInfo::checks_messages; NOBAL does not). `per_byte` is the network's time per
/// byte of a message between objects (phases/communication_cost.hpp); the simulator's task
/// messages carry tasks, priced by `per_task`, and do not read it.

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/time.hpp>

#include <map>
#include <nlohmann/json_fwd.hpp>
#include <string>
#include <vector>

namespace dlbkit {

enum class TransferDistribution { fixed, exponential };
/// When a node's strategy hears that its load changed: at each event (every task done or
/// arrived), or where a runtime worker looks, at its check points: every poll_interval,
/// after handling a message, tasks or a timer, and on running out of tasks (docs/cost-models.md).
enum class Checks { each_event, engines };
/// With checks = engines, when a busy worker looks at what reached it between two tasks:
/// after each task (the threads engine reads its mailbox's counter there) or at its next
/// check point only, once poll_interval has passed since the last (MPI).
enum class Mail { each_task, check_points };

struct CostModel {
  std::string name;
  SimTime loop_time = 0;      ///< one loop of the artificial workload's busy loops
  SimTime poll_interval = 0;  ///< task execution between two message checks; 0 = on arrival
  SimTime poll_cost = 0;      ///< processor time of one message check (needs poll_interval > 0)
  SimTime send_overhead = 0;  ///< sender's processor time per message
  SimTime handle_cost = 0;    ///< receiver's processor time per message
  SimTime latency = 0;        ///< network time to a neighbour
  SimTime per_hop = 0;        ///< network time per further hop
  SimTime per_task = 0;       ///< network time per task carried
  double per_byte = 0;        ///< network time per byte of an objects' message, ns (a fraction allowed)
  int tasks_per_message = 1;  ///< most tasks one task message carries
  TransferDistribution transfer = TransferDistribution::fixed;  ///< of the per_task part
  Checks checks = Checks::each_event;  ///< when a strategy hears of a changed load
  Mail mail = Mail::each_task;         ///< with checks = engines: when a busy worker sees its mail
  /// The MPI plan API's own time beyond its messages (phases/protocol_meter.hpp): each round of
  /// a rank protocol's driver (its barrier, the round's reduction, its polling), and each step
  /// (the ids checked, the speeds shared, the figures summed). 0 in presets; `dlbkit calibrate
  /// --engine mpi` measures them.
  SimTime protocol_round = 0;
  SimTime protocol_step = 0;
  /// And its time per object of a rank in a step (the ids checked, the loads read and
  /// summed), ns, a fraction allowed: the step adds it for the rank of the most objects.
  double protocol_object = 0;
  /// The modelled machine's time for each second the rank protocol's agents compute on this
  /// machine, timed as they run in process (phases/protocol_meter.hpp): 1 for the machine
  /// itself, which `dlbkit calibrate --engine mpi` writes; 0 in presets (not priced).
  double protocol_compute = 0;
  /// A workload's own parameters measured on the modelled machine, workload -> name ->
  /// value ("uts" -> "node_time" -> "69.4ns"): `dlbkit calibrate --app` writes its app's time
  /// per unit here, and a run takes it unless it gives the parameter itself. Empty in presets.
  std::map<std::string, std::map<std::string, std::string>> workload_params;

  nlohmann::json to_json() const;
};

struct CostModelPreset {
  std::string name;
  std::string description;
  CostModel (*make)();  ///< the preset's fields; make_cost_model() names it
};

/// ideal, ipsc2, ipsc2-network, ahmad91, ...
const std::vector<CostModelPreset>& cost_model_presets();
/// The fields as parameters (durations, an integer, a choice), for overrides and help texts.
const std::vector<ParamSpec>& cost_model_params();

/// A preset with some fields overridden ("latency" -> "500us"). `preset` "file:PATH" reads
/// a JSON file with every field, as to_json() writes them and `dlbkit calibrate` measures
/// them (a "calibration" object beside them is for people and is not read; an optional
/// "workload_params" object is read as CostModel::workload_params). Unknown preset
/// or field, a missing field, or a bad value (negative, not a duration, ...) throws
/// InputError naming it and what is accepted.
CostModel make_cost_model(const std::string& preset, const std::map<std::string, std::string>& overrides = {});

}  // namespace dlbkit
