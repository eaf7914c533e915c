// dlbkit advise --data: which phase strategy for a program whose objects vt's LB data
// describes. Every phase strategy that accepts the topology, with a few values of its main
// parameters, balances the data as `dlbkit phases --data` does, and the runs are ranked by
// the phase time predicted: over a replay of every phase (two or more), or for the next
// phase of one phase's loads (the principle of persistence: its objects keep their loads).

#include "advise.hpp"
#include "commands.hpp"
#include "progress_line.hpp"

#include <dlbkit/core/parallel_for.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/phase_run.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/phases/vt_workloads.hpp>

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <limits>
#include <stdexcept>

namespace dlbkit::cli {

namespace {

// A row's figures. makespan: the replayed phases' time (their max loads and every balancing
// step), or the next phase's (its max load after balancing, and the step before it).
struct Prediction {
  double makespan = 0, phase_seconds = 0, balancing_seconds = 0;
  std::optional<double> imbalance_after;  // the mean over the balancing steps; none when none ran
  std::size_t objects_migrated = 0;
  std::uint64_t messages = 0;
};

struct Outcome {
  Candidate<PhaseStrategyInfo> candidate;
  PhaseStrategyChoice choice;
  std::optional<Prediction> prediction;
  std::string failure;
};

Prediction replayed(const PhaseRunResult& run) {
  const double total = run.application_seconds + run.balancing_seconds;
  Prediction p{.makespan = total,
               .phase_seconds = total / static_cast<double>(run.steps.size()),
               .balancing_seconds = run.balancing_seconds,
               .objects_migrated = run.objects_migrated};
  double after = 0;
  for (const PhaseStep& s : run.steps)
    if (s.rebalanced) {
      after += s.rebalanced->after.imbalance;
      p.messages += s.rebalanced->messages;
    }
  if (run.balancing_steps > 0) p.imbalance_after = after / static_cast<double>(run.balancing_steps);
  return p;
}

Prediction next_phase(const Rebalanced& r) {
  const double balancing = to_seconds(r.protocol_time + r.migration_time);
  return {.makespan = r.after.max_load + balancing,
          .phase_seconds = r.after.max_load + balancing,
          .balancing_seconds = balancing,
          .imbalance_after = r.after.imbalance,
          .objects_migrated = r.objects_migrated,
          .messages = r.messages};
}

// The total load over the nodes, summed over the phases counted: the time of a perfect balance
// that costs nothing.
double optimal(const VtDataSet& data, const VtPhase* one, std::size_t nodes) {
  double sum = 0;
  for (const VtPhase& p : data.phases)
    if (!one || &p == one)
      for (const PhaseObject& o : p.phase.objects) sum += o.load;
  return sum / static_cast<double>(nodes);
}

}  // namespace

int advise_on_data(const DataAdvice& options, const SimulationInputs& in, unsigned jobs, bool json) {
  const VtDataSet data = [&] {
    ProgressLine progress(true, "dlbkit advise");
    progress.phase("reading " + options.stem);
    return read_vt_data(options.stem);
  }();
  const VtPhase& first = vt_phase_or_first(data, options.phase);
  // Two or more phases and no --phase: every phase replayed; otherwise one phase's next.
  const bool replay = !options.phase && data.phases.size() >= 2;
  if (!replay && !options.replay_options.empty())
    throw InputError(
        fmt::format("{} is given, but {}; accepted: {} when the data has two or more phases and "
                    "--phase is not given (a replay)",
                    options.replay_options.front(),
                    options.phase ? "--phase balances one phase" : "vt data " + data.stem + " has one phase",
                    options.replay_options.front()));
  const VtPhase* one = replay ? nullptr : &first;
  const Topology topology = vt_topology(in.values.topology, data);
  const std::uint64_t seed = parse_unsigned(in.values.seed, "--seed", std::numeric_limits<std::uint64_t>::max());
  PhaseRunOptions run_options{.phases = data.phases.size(),
                              .every = static_cast<std::size_t>(options.every),
                              .threshold = non_negative_or_inf(options.threshold, "--threshold")};
  run_options.rebalance = rebalance_options({.cost = in.values.cost,
                                             .cost_params = assignments(in.cost_params, "--cost-param"),
                                             .migration_cost = options.migration_cost,
                                             .migration_byte_cost = options.migration_byte_cost,
                                             .memory_bound = options.memory_bound},
                                            seed);
  const std::optional<VtReplay> replay_input = replay ? std::optional<VtReplay>(VtReplay(data)) : std::nullopt;

  NotRun not_run;
  std::vector<Outcome> outcomes;
  for (auto& candidate : candidates(builtin_phase_strategies().all(), topology, not_run)) {
    PhaseStrategyChoice choice = builtin_phase_strategies().configure(candidate.info->name, candidate.searched);
    outcomes.push_back({std::move(candidate), std::move(choice), std::nullopt, ""});
  }

  std::atomic<std::size_t> done{0};
  {
    ProgressLine progress(true, "dlbkit advise");
    const std::size_t total = outcomes.size();
    progress.phase("runs", [&done, total] { return fmt::format(" {} of {} done", done.load(), total); });
    parallel_for(outcomes.size(), jobs, [&](std::size_t i) {
      Outcome& outcome = outcomes[i];
      try {
        if (replay) {
          VtReplay input = *replay_input;  // each run from the first phase
          outcome.prediction = replayed(run_phases(outcome.choice, input, topology, run_options));
        } else {
          outcome.prediction = next_phase(rebalance(outcome.choice, first.phase, topology, run_options.rebalance));
        }
      } catch (const InputError& e) {
        outcome.failure = e.what();  // the strategy refusing something of this data (rounds=auto, ...)
      } catch (const std::runtime_error& e) {
        outcome.failure = e.what();
      }
      ++done;
    });
  }

  // Best first; equal predictions keep the order above, so the output depends on the inputs alone.
  std::vector<const Outcome*> ranked, failed;
  for (const Outcome& outcome : outcomes) (outcome.prediction ? ranked : failed).push_back(&outcome);
  std::stable_sort(ranked.begin(), ranked.end(), [](const Outcome* a, const Outcome* b) {
    return a->prediction->makespan < b->prediction->makespan;
  });
  const double best_possible = optimal(data, one, topology.size());
  const auto nobal =
      std::find_if(ranked.begin(), ranked.end(), [](const Outcome* o) { return o->candidate.info->name == "none"; });
  const std::size_t objects = first.phase.objects.size();
  const std::string what = replay ? fmt::format("its {} phases replayed", data.phases.size())
                                  : fmt::format("phase {}, the next phase predicted", first.id);

  if (json) {
    using nlohmann::json;
    json j;
    j["inputs"] = {{"data", data.stem},
                   {"ranks", data.ranks},
                   {"objects", objects},
                   {"phases", replay ? data.phases.size() : 1},
                   {"replay", replay},
                   {"phase", replay ? json(nullptr) : json(first.id)},
                   {"every", options.every},
                   {"threshold", options.threshold},
                   {"topology", topology.spec()},
                   {"cost_model", run_options.rebalance.cost.to_json()},
                   {"migration_cost", exact_duration(run_options.rebalance.migration.per_object)},
                   {"migration_byte_cost", options.migration_byte_cost},
                   {"memory_bound", options.memory_bound},
                   {"seed", seed}};
    j["optimal"] = best_possible;
    j["nobal_makespan"] = nobal == ranked.end() ? json(nullptr) : json((*nobal)->prediction->makespan);
    j["ranking"] = json::array();
    for (std::size_t i = 0; i < ranked.size(); ++i) {
      const Prediction& p = *ranked[i]->prediction;
      j["ranking"].push_back({{"rank", i + 1},
                              {"strategy", ranked[i]->candidate.info->name},
                              {"params", ranked[i]->choice.params.to_json()},
                              {"predicted_makespan", p.makespan},
                              {"predicted_phase_seconds", p.phase_seconds},
                              {"efficiency", p.makespan > 0 ? best_possible / p.makespan : 0.0},
                              {"imbalance_after", p.imbalance_after ? json(*p.imbalance_after) : json(nullptr)},
                              {"objects_migrated", p.objects_migrated},
                              {"messages", p.messages},
                              {"balancing_seconds", p.balancing_seconds}});
    }
    j["failed"] = json::array();
    for (const Outcome* o : failed)
      j["failed"].push_back(
          {{"strategy", o->candidate.info->name}, {"params", o->choice.params.to_json()}, {"error", o->failure}});
    j["not_run"] = not_run_json(not_run);
    j["search"] = search_json(builtin_phase_strategies().all());
    fmt::print("{}\n", json_text(j));
    return 0;
  }

  fmt::print("advise: vt data {} ({} ranks, {} objects), {}, on {}, cost model {}, seed {}\n", data.stem, data.ranks,
             objects, what, topology.spec(), run_options.rebalance.cost.name, seed);
  fmt::print("{} runs ranked by predicted {}; optimal {:.6g} s (total load / N); parameters not shown are the "
             "strategy's defaults\n\n",
             ranked.size(), replay ? "time of the phases" : "phase time", best_possible);
  fmt::print("{:>4}  {:<18} {:<44} {:>12} {:>12} {:>10} {:>8} {:>9} {:>9}\n", "rank", "strategy", "parameters",
             replay ? "phases s" : "phase s", "balancing s", "efficiency", "I after", "migrated", "messages");
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const Prediction& p = *ranked[i]->prediction;
    fmt::print("{:>4}  {:<18} {:<44} {:>#12.6g} {:>#12.4g} {:>9.1f}% {:>8} {:>9} {:>9}\n", i + 1,
               ranked[i]->candidate.info->name, searched_text(ranked[i]->candidate.searched), p.makespan,
               p.balancing_seconds, p.makespan > 0 ? 100 * best_possible / p.makespan : 0.0,
               p.imbalance_after ? fmt::format("{:.3f}", *p.imbalance_after) : "-", p.objects_migrated, p.messages);
  }
  for (const Outcome* o : failed)
    fmt::print("   -  {:<18} {:<44} failed: {}\n", o->candidate.info->name, searched_text(o->candidate.searched),
               o->failure);
  print_not_run(topology.spec(), not_run);
  return 0;
}

}  // namespace dlbkit::cli
