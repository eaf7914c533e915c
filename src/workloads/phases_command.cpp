// `dlbkit phases` between reading its options and printing (moved from the CLI, which prints
// this result as text or JSON; the Python module returns it).

#include <dlbkit/core/number.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/charm_dump.hpp>
#include <dlbkit/phases/devices.hpp>
#include <dlbkit/phases/speeds.hpp>
#include <dlbkit/phases/vt_workloads.hpp>
#include <dlbkit/workloads/builtin_phase_workloads.hpp>
#include <dlbkit/workloads/lbaf_config.hpp>
#include <dlbkit/workloads/phases_command.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <memory>
#include <string>
#include <vector>

namespace dlbkit {

namespace {

constexpr long long kMaxPhases = 1'000'000;

// The CLI refuses these when it reads them; a caller of the library gets the same message.
long long count_of(std::optional<long long> given, const char* option) {
  if (given && (*given < 1 || *given > kMaxPhases))
    throw InputError(fmt::format("{}: '{}' is not accepted; accepted: an integer from 1 to {}", option, *given,
                                 kMaxPhases));
  return given.value_or(1);
}

const char* sources_name(const PhasesInputs& in) { return in.data ? "--data" : "--charm-dump"; }

// Which options go with which input, checked before anything is read.
void check_combination(const PhasesInputs& in) {
  if (in.strategy.empty())
    throw InputError("no strategy: -s/--strategy is not given; accepted: -s NAME (dlbkit list phase-strategies), "
                     "or --lbaf-config FILE");
  std::vector<const char*> sources;
  if (in.workload) sources.push_back("-w/--workload");
  if (in.data) sources.push_back("--data");
  if (in.charm_dump) sources.push_back("--charm-dump");
  if (sources.size() != 1)
    throw InputError(fmt::format("{}; accepted: exactly one of -w/--workload NAME, --data STEM and --charm-dump FILE",
                                 sources.empty() ? "no workload: neither -w/--workload nor --data nor --charm-dump "
                                                   "is given"
                                                 : fmt::format("both {} and {} are given", sources[0], sources[1])));
  const bool from_data = !in.workload;
  if (from_data) {
    // --replay runs the data's phases: --every and --threshold apply, --phases is theirs.
    const char* source = sources_name(in);
    const auto refuse = [&in, source](const char* option, bool phases_option) {
      return InputError(fmt::format("{} is given with {}; accepted: {} with -w/--workload{} ({} balances one phase{})",
                                    option, source, option, phases_option ? "" : " or --data --replay", source,
                                    phases_option && in.data ? ", --replay every phase of the data" : ""));
    };
    if (in.phases) throw refuse("--phases", true);
    if (!in.workload_params.empty()) throw refuse("--workload-param", false);
    if (!in.replay && in.every) throw refuse("--every", false);
    if (!in.replay && in.threshold) throw refuse("--threshold", false);
  }
  if (in.replay && (in.phase || in.write))
    throw InputError(fmt::format("{} is given with --replay; accepted: --replay, which runs every phase, without "
                                 "--phase and --write",
                                 in.phase ? "--phase" : "--write"));
  for (const auto& [option, given] : {std::pair{"--phase", in.phase.has_value()}, std::pair{"--replay", in.replay}}) {
    if (given && in.charm_dump)
      throw InputError(fmt::format("{} is given with --charm-dump; accepted: {} with --data STEM only (a dump holds "
                                   "one load-balancing step)",
                                   option, option));
    if (given && !in.data)
      throw InputError(fmt::format("{} is given without --data; accepted: {} with --data STEM only", option, option));
  }
  if (in.write && !from_data)
    throw InputError("--write is given without --data; accepted: --write with --data STEM or --charm-dump FILE only");
  for (const auto& [option, given] : {std::pair{"--offload", in.offload.has_value()},
                                      std::pair{"--device-blind", in.device_blind}})
    if (given && !in.devices)
      throw InputError(fmt::format("{} is given without --devices; accepted: {} with --devices SPEEDUPS", option,
                                   option));
  if (!from_data && in.topology.empty())
    throw InputError("no topology: -t/--topology is not given; accepted: -t SPEC with -w/--workload, e.g. torus:8x8");
}

/// `spec` (complete:PES when empty) as the topology of a dump's PEs; InputError, naming
/// -t/--topology, when its nodes are not the PEs.
Topology dump_topology(const std::string& spec, const std::string& path, std::size_t pes) {
  Topology topology = parse_topology(spec.empty() ? fmt::format("complete:{}", pes) : spec);
  if (topology.size() != pes)
    throw InputError(fmt::format("-t/--topology {} has {} nodes, Charm++ LB dump {} has {} PEs; accepted: a topology "
                                 "of {} nodes",
                                 spec, topology.size(), excerpt(path, 200), pes, pes));
  return topology;
}

/// A workload whose every phase has the nodes' speeds of --speeds.
class WithSpeeds : public PhaseWorkload {
public:
  WithSpeeds(std::unique_ptr<PhaseWorkload> inner, std::vector<double> speeds)
      : inner_(std::move(inner)), speeds_(std::move(speeds)) {}
  Phase first_phase(std::size_t nodes, std::uint64_t seed) override {
    Phase phase = inner_->first_phase(nodes, seed);
    set_speeds(phase, speeds_, "--speeds");
    return phase;
  }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    std::vector<ObjectOrigin> origins = inner_->next_phase(phase);
    set_speeds(phase, speeds_, "--speeds");
    return origins;
  }

private:
  std::unique_ptr<PhaseWorkload> inner_;
  std::vector<double> speeds_;
};

/// --offload: the share of every object's load a device can run, in [0, 1] (default 1).
double offload_of(const PhasesInputs& in) {
  const std::string text = in.offload.value_or("1");
  double share = 0;
  if (!parse_number(text, share) || !(share >= 0 && share <= 1))
    throw InputError(fmt::format("--offload: '{}' is not accepted; accepted: a number in [0, 1], the share of every "
                                 "object's load a device can run",
                                 excerpt(text)));
  return share;
}

/// A workload in the devices model of --devices: each phase with the nodes' effective speeds as
/// node_alpha, for the strategies (unless blind), and each of its mappings judged in the model
/// at the nodes' own speeds.
class WithDevices : public PhaseWorkload {
public:
  WithDevices(std::unique_ptr<PhaseWorkload> inner, std::vector<double> speedups, double offload, bool blind)
      : inner_(std::move(inner)), speedups_(std::move(speedups)), offload_(offload), blind_(blind) {}
  Phase first_phase(std::size_t nodes, std::uint64_t seed) override {
    Phase phase = inner_->first_phase(nodes, seed);
    show_devices(phase);
    return phase;
  }
  std::vector<ObjectOrigin> next_phase(Phase& phase) override {
    phase.node_alpha = own_alphas_;  // the inner workload's phase as it made it
    std::vector<ObjectOrigin> origins = inner_->next_phase(phase);
    show_devices(phase);
    return origins;
  }

  /// PhaseRunOptions::on_mapping: the phase's times in the model.
  void judge(const Phase& shown, bool after) {
    Phase phase = shown;
    phase.node_alpha = own_alphas_;  // the nodes' own speeds, not the effective ones shown to the strategies
    const DeviceModel model = model_of(phase);
    const std::vector<double> times = node_times(phase, phase.node_of, model);
    const double time = *std::max_element(times.begin(), times.end());
    if (after)
      judged_.back().time_after = time;
    else
      judged_.push_back({.time = time, .bound = device_bound(phase, model)});
  }
  const std::vector<DevicePhase>& judged() const { return judged_; }
  const std::vector<double>& own_alphas() const { return own_alphas_; }

private:
  DeviceModel model_of(const Phase& phase) const {
    return {.speedup = speedups_, .offload = std::vector<double>(phase.objects.size(), offload_)};
  }
  void show_devices(Phase& phase) {
    own_alphas_ = phase.node_alpha;
    if (!blind_) phase.node_alpha = effective_alphas(phase, model_of(phase));
  }

  std::unique_ptr<PhaseWorkload> inner_;
  std::vector<double> speedups_;
  double offload_;
  bool blind_;
  std::vector<double> own_alphas_;  // the current phase's, before the devices
  std::vector<DevicePhase> judged_;
};

/// null where a figure has no value (no balancing step ran), never NaN.
nlohmann::json figure(double x, bool defined) { return defined ? nlohmann::json(x) : nlohmann::json(nullptr); }

/// --time-limit: seconds > 0.
double time_limit_of(const PhasesInputs& in) {
  if (in.time_limit && !in.optimal)
    throw InputError("--time-limit is given without --optimal; accepted: --time-limit SECONDS with --optimal");
  const std::string text = in.time_limit.value_or("60");
  double seconds = 0;
  std::size_t used = 0;
  try {
    seconds = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !(seconds > 0) || !std::isfinite(seconds))
    throw InputError(fmt::format("--time-limit: '{}' is not accepted; accepted: a number of seconds > 0", text));
  return seconds;
}

/// A step's exact reference; gap: how far its max load is above its proven bound.
nlohmann::json optimum_json(const MilpResult& o, double mean) {
  const bool gap = o.found && o.max_load_lower_bound > 0;
  return {{"found", o.found},
          {"infeasible", o.infeasible},
          {"optimal", o.optimal},
          {"migrations_minimal", o.migrations_minimal},
          {"out_of_time", o.out_of_time},
          {"max_load", figure(o.max_load, o.found)},
          {"imbalance", figure(mean > 0 ? std::max(0.0, o.max_load / mean - 1) : 0.0, o.found)},
          {"max_load_lower_bound", o.max_load_lower_bound},
          {"gap", figure(gap ? o.max_load / o.max_load_lower_bound - 1 : 0.0, gap)},
          {"objects_migrated", o.objects_migrated},
          {"wall_seconds", o.wall_seconds}};
}

}  // namespace

PhasesResult phases_command(const PhasesInputs& given, const PhasesProgress& progress) {
  const LbafConfig lbaf = given.lbaf_config ? with_lbaf_config(given) : LbafConfig{given, {}};
  const PhasesInputs& in = lbaf.inputs;
  check_combination(in);
  const long long phases_given = count_of(in.phases, "--phases"), every = count_of(in.every, "--every");
  const std::string threshold = in.threshold.value_or("inf");

  const PhaseStrategyChoice strategy = builtin_phase_strategies().configure(in.strategy, in.params);
  std::optional<PhaseWorkloadChoice> workload_choice;
  std::optional<VtDataSet> vt_data;
  const VtPhase* vt = nullptr;
  std::unique_ptr<PhaseWorkload> input;
  std::size_t phases = static_cast<std::size_t>(phases_given);
  std::optional<CharmDump> dump;
  if (in.charm_dump) {
    if (progress.reading) progress.reading(*in.charm_dump);
    dump = read_charm_dump(*in.charm_dump);
    input = std::make_unique<VtPhaseWorkload>(dump->phase);
  } else if (in.data) {
    if (progress.reading) progress.reading(*in.data);
    vt_data = read_vt_data(*in.data);
    vt = &vt_phase_or_first(*vt_data, in.phase);
    if (in.replay) {
      input = std::make_unique<VtReplay>(*vt_data);
      phases = vt_data->phases.size();
    } else {
      input = std::make_unique<VtPhaseWorkload>(vt->phase);
    }
  } else {
    workload_choice = builtin_phase_workloads().configure(*in.workload, in.workload_params);
    input = workload_choice->create();
  }
  const Topology topology = vt_data ? vt_topology(in.topology, *vt_data)
                            : dump  ? dump_topology(in.topology, *in.charm_dump, dump->phase.nodes)
                                    : parse_topology(in.topology);
  std::vector<double> speeds;
  if (in.speeds) {
    speeds = parse_node_speeds(*in.speeds, topology.size(), "--speeds");
    input = std::make_unique<WithSpeeds>(std::move(input), speeds);
  }
  WithDevices* devices = nullptr;
  std::vector<double> speedups;
  double offload = 0;
  if (in.devices) {
    speedups = parse_device_speedups(*in.devices, "--devices");
    check_device_speedups(speedups, topology.size(), "--devices");
    offload = offload_of(in);
    auto with_devices = std::make_unique<WithDevices>(std::move(input), speedups, offload, in.device_blind);
    devices = with_devices.get();
    input = std::move(with_devices);
  }
  PhaseRunOptions options{.phases = phases,
                          .every = static_cast<std::size_t>(every),
                          .threshold = non_negative_or_inf(threshold, "--threshold")};
  options.rebalance = rebalance_options(in.rebalance, in.seed);
  if (in.optimal || in.time_limit) options.rebalance.optimum_time_limit = time_limit_of(in);
  options.rebalance.as_protocol = in.as_protocol;
  options.on_phase = progress.phase_done;
  if (devices) options.on_mapping = [devices](const Phase& phase, bool after) { devices->judge(phase, after); };
  if (progress.running) progress.running(strategy.name(), phases);

  PhasesResult result;
  result.run = run_phases(strategy, *input, topology, options);
  if (devices) {
    result.devices = devices->judged();
    result.run.last.node_alpha = devices->own_alphas();  // as the input had them, for --write
  }
  if (in.write && vt_data) write_vt_data(*vt_data, vt->id, result.run.last.node_of, *in.write);
  if (in.write && dump) write_vt_phases({result.run.last}, *in.write);

  nlohmann::json& inputs = result.inputs;
  inputs = {{"strategy", strategy.name()}, {"params", strategy.params.to_json()}};
  if (vt) {
    inputs.update({{"data", *in.data},
                   {"phase", in.replay ? nlohmann::json(nullptr) : nlohmann::json(vt->id)},
                   {"replay", in.replay},
                   {"phases", phases},
                   {"every", every},
                   {"threshold", threshold},
                   {"ranks", vt_data->ranks},
                   {"communications", vt->phase.communications.size()},
                   {"other_communications", vt->other_communications},
                   {"unmatched_communications", vt->unmatched_communications},
                   {"subphases", vt->phase.subphases},
                   {"warnings", vt_data->warnings},
                   {"write", in.write ? nlohmann::json(*in.write) : nlohmann::json(nullptr)}});
  } else if (dump) {
    inputs.update({{"charm_dump", *in.charm_dump},
                   {"format_version", dump->version},
                   {"layout", dump->layout},
                   {"ranks", dump->phase.nodes},
                   {"communications", dump->phase.communications.size()},
                   {"processor_communications", dump->processor_communications},
                   {"unmatched_communications", dump->unmatched_communications},
                   {"multicasts", dump->multicasts},
                   {"write", in.write ? nlohmann::json(*in.write) : nlohmann::json(nullptr)}});
  } else {
    inputs.update({{"workload", workload_choice->name()},
                   {"workload_params", workload_choice->params.to_json()},
                   {"phases", phases},
                   {"every", every},
                   {"threshold", threshold}});
  }
  inputs.update({{"topology", topology.spec()},
                 {"nodes", topology.size()},
                 {"objects", result.run.last.objects.size()},
                 {"memory_bound", in.rebalance.memory_bound.value_or("inf")},
                 {"memory_group", options.rebalance.memory_group},
                 {"work_model", to_string(options.rebalance.work_model)},
                 {"cost", options.rebalance.cost.to_json()},
                 {"migration_cost", exact_duration(options.rebalance.migration.per_object)},
                 {"migration_byte_cost", fmt::format("{}ns", options.rebalance.migration.per_byte)},
                 {"seed", in.seed},
                 {"optimal", in.optimal},
                 {"as_protocol", in.as_protocol},
                 {"time_limit", figure(options.rebalance.optimum_time_limit.value_or(0), in.optimal)},
                 {"lbaf_config", in.lbaf_config ? nlohmann::json{{"file", *in.lbaf_config}, {"ignored", lbaf.ignored}}
                                                : nlohmann::json(nullptr)}});
  if (in.speeds) inputs["speeds"] = speeds;
  if (in.devices) inputs.update({{"devices", speedups}, {"offload", offload}, {"device_blind", in.device_blind}});
  return result;
}

nlohmann::json to_json(const PhasesResult& result) {
  const PhaseRunResult& run = result.run;
  const bool has_memory = run.last.has_memory, has_subphases = run.last.subphases > 0;
  // Over the balancing steps: the imbalances are means, the rest sums (max for memory).
  double before = 0, after = 0, bound = 0, max_memory = 0, bytes = 0, work_before = 0, work_after = 0;
  std::optional<double> max_group_memory;
  double time_before = 0, time_after = 0;
  bool weighs_work = false;
  std::uint64_t rounds = 0, messages = 0, unplaced = 0;
  bool at_bound = true, on_clusters = false;
  SimTime protocol = 0, migration = 0;
  for (const PhaseStep& s : run.steps)
    if (s.rebalanced) {
      before += s.rebalanced->before.imbalance;
      after += s.rebalanced->after.imbalance;
      bound += s.rebalanced->imbalance_lower_bound;
      at_bound = at_bound && s.rebalanced->at_lower_bound;
      on_clusters = s.rebalanced->lower_bound_on_clusters;
      time_before += s.rebalanced->before.subphase_time;
      time_after += s.rebalanced->after.subphase_time;
      max_memory = std::max(max_memory, s.rebalanced->after.max_memory);
      if (s.rebalanced->max_group_memory_after)
        max_group_memory = std::max(max_group_memory.value_or(0.0), *s.rebalanced->max_group_memory_after);
      bytes += s.rebalanced->bytes_migrated;
      rounds += s.rebalanced->rounds;
      messages += s.rebalanced->messages;
      unplaced += s.rebalanced->unplaced.size();
      protocol += s.rebalanced->protocol_time;
      migration += s.rebalanced->migration_time;
      if (s.rebalanced->max_work_after) {
        weighs_work = true;
        work_before += *s.rebalanced->max_work_before;
        work_after += *s.rebalanced->max_work_after;
      }
    }
  const bool balanced = run.balancing_steps > 0;
  const double steps = static_cast<double>(std::max<std::size_t>(run.balancing_steps, 1));
  nlohmann::json j{{"inputs", result.inputs},
                   {"imbalance_before", figure(before / steps, balanced)},
                   {"imbalance_after", figure(after / steps, balanced)},
                   {"imbalance_lower_bound", figure(bound / steps, balanced)},
                   {"at_lower_bound", balanced ? nlohmann::json(at_bound) : nlohmann::json(nullptr)},
                   {"lower_bound_units", on_clusters ? "clusters" : "objects"},
                   {"objects_migrated", run.objects_migrated},
                   {"objects_created", run.objects_created},
                   {"objects_destroyed", run.objects_destroyed},
                   {"bytes_migrated", bytes},
                   {"unplaced_objects", unplaced},
                   {"wall_seconds", run.wall_seconds},
                   {"rounds", rounds},
                   {"messages", messages},
                   {"protocol_seconds", to_seconds(protocol)},
                   {"migration_seconds", to_seconds(migration)},
                   {"balancing_steps", run.balancing_steps},
                   {"application_seconds", run.application_seconds},
                   {"communication_seconds", run.communication_seconds},
                   {"unbalanced_seconds", run.unbalanced_seconds},
                   {"balancing_seconds", run.balancing_seconds},
                   // One balancing step, simulated: its protocol and migration, and its messages.
                   {"step_seconds", figure(run.balancing_seconds / steps, balanced)},
                   {"step_messages", figure(static_cast<double>(messages) / steps, balanced)},
                   {"mean_phase_seconds",
                    (run.application_seconds + run.balancing_seconds) / static_cast<double>(run.steps.size())}};
  if (has_memory) j["max_memory_after"] = figure(max_memory, balanced);
  if (max_group_memory) j["max_group_memory_after"] = *max_group_memory;
  if (has_subphases) {  // means over the balancing steps, as the imbalances
    j["subphase_time_before"] = figure(time_before / steps, balanced);
    j["subphase_time_after"] = figure(time_after / steps, balanced);
  }
  if (weighs_work) {  // means over the balancing steps, as the imbalances
    j["max_work_before"] = work_before / steps;
    j["max_work_after"] = work_after / steps;
  }
  if (!result.devices.empty()) {  // means over the balancing steps, as the imbalances; the run's sum
    double device_before = 0, device_after = 0, device_bound = 0, device_seconds = 0;
    for (const DevicePhase& d : result.devices) {
      device_seconds += d.time;
      if (d.time_after) {
        device_before += d.time;
        device_after += *d.time_after;
        device_bound += d.bound;
      }
    }
    j["device_time_before"] = figure(device_before / steps, balanced);
    j["device_time_after"] = figure(device_after / steps, balanced);
    j["device_bound"] = figure(device_bound / steps, balanced);
    j["device_seconds"] = device_seconds;
  }
  nlohmann::json phases = nlohmann::json::array();
  for (std::size_t k = 0; k < run.steps.size(); ++k) {
    const PhaseStep& s = run.steps[k];
    nlohmann::json p{{"phase", k},
                     {"max_load", s.figures.max_load},
                     {"imbalance", s.figures.imbalance},
                     {"crossing_bytes", s.figures.crossing_bytes},
                     {"communication_seconds", s.communication_seconds},
                     {"unbalanced_max_load", s.unbalanced_max_load},
                     {"objects", s.objects},
                     {"objects_created", s.objects_created},
                     {"objects_destroyed", s.objects_destroyed},
                     {"balanced", s.rebalanced.has_value()}};
    if (has_subphases) p["subphase_time"] = s.figures.subphase_time;
    if (!result.devices.empty()) {
      const DevicePhase& d = result.devices[k];
      p["device_time"] = d.time;
      p["device_bound"] = d.bound;
      if (d.time_after) p["device_time_after"] = *d.time_after;
    }
    if (s.rebalanced) {
      const Rebalanced& r = *s.rebalanced;
      p["imbalance_after"] = r.after.imbalance;
      p["max_load_after"] = r.after.max_load;
      p["imbalance_lower_bound"] = r.imbalance_lower_bound;
      p["max_load_lower_bound"] = r.max_load_lower_bound;
      p["at_lower_bound"] = r.at_lower_bound;
      if (r.optimum) p["optimum"] = optimum_json(*r.optimum, r.after.mean_load);
      p["crossing_bytes_after"] = r.after.crossing_bytes;
      p["communication_seconds_after"] = s.communication_seconds_after;
      p["objects_migrated"] = r.objects_migrated;
      p["unplaced_objects"] = r.unplaced.size();
      p["nodes_over_memory_bound"] = r.nodes_over_memory_bound;
      if (has_memory) p["max_memory_after"] = r.after.max_memory;
      if (r.max_group_memory_after) p["max_group_memory_after"] = *r.max_group_memory_after;
      if (has_subphases) p["subphase_time_after"] = r.after.subphase_time;
      if (r.max_work_after) {
        p["max_work_before"] = *r.max_work_before;
        p["max_work_after"] = *r.max_work_after;
      }
      p["rounds"] = r.rounds;
      p["messages"] = r.messages;
      p["protocol_seconds"] = to_seconds(r.protocol_time);
      p["migration_seconds"] = to_seconds(r.migration_time);
      p["wall_seconds"] = r.wall_seconds;
      if (r.flow_error) p["flow_error"] = *r.flow_error;
    }
    phases.push_back(std::move(p));
  }
  j["phases"] = std::move(phases);
  return j;
}

}  // namespace dlbkit
