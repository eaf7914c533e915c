#include <dlbkit/error.hpp>
#include <dlbkit/core/registry.hpp>
#include <dlbkit/runtime/detail/distributed_engine.hpp>
#include <dlbkit/runtime/engine.hpp>
#include <dlbkit/runtime/recording.hpp>
#include <dlbkit/runtime/runtime.hpp>
#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <set>

namespace dlbkit {

namespace detail {

namespace {

DistributedEngineFactory mpi_factory = nullptr;

// How many processes an MPI launcher started (Open MPI, MPICH and Intel MPI's Hydra); 0
// outside a launcher.
int launcher_size() {
  for (const char* name : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return 0;
}

}  // namespace

void set_mpi_engine(DistributedEngineFactory factory) { mpi_factory = factory; }

ResolvedEngine resolve_engine(const std::string& requested, const Communicator& communicator) {
  ResolvedEngine out{.name = requested};
  if (out.name == "auto") out.name = launcher_size() > 1 && mpi_factory != nullptr ? "mpi" : "threads";
  if (out.name == "mpi") {
    if (mpi_factory == nullptr)
      throw InputError("--engine mpi: this program was linked without the MPI engine; accepted: threads, sequential "
                       "(or link the CMake target dlbkit::mpi)");
    out.mpi = mpi_factory(communicator);
  } else if (out.name != "threads" && out.name != "sequential") {
    throw InputError(fmt::format("--engine '{}'; accepted: auto, threads, mpi, sequential", out.name));
  }
  return out;
}

std::vector<std::string> launcher_warnings(const std::string& engine, const DistributedEngine* mpi) {
  std::vector<std::string> out;
  const int launched = launcher_size();
  if (launched > 1 && mpi == nullptr)
    out.push_back(fmt::format("{} engine in each of the {} processes mpirun started: each runs the whole program on its "
                              "own; {}",
                              engine, launched,
                              mpi_factory != nullptr ? "--engine mpi (or auto) makes them one run"
                                                     : "link dlbkit::mpi to make them one run"));
  if (mpi != nullptr && mpi->size() == 1 && launched == 0)
    out.push_back("mpi engine on a single process: no MPI launcher started this program; accepted: mpirun -np N");
  return out;
}

}  // namespace detail

struct Runtime::State {
  RuntimeOptions options;
  std::string engine;  // options.engine, `auto` resolved
  std::unique_ptr<detail::DistributedEngine> mpi;  // engine "mpi" only
  std::optional<Topology> topology;  // set by the constructor
  std::optional<StrategyInfo> own_strategy;  // a program's own, where given
  StrategyChoice strategy;
  std::vector<bool> timeline_nodes;  // the workers options.timeline records
  RuntimeResult last;
  bool ran = false;
  mutable std::set<std::string> warned;  // each warning is printed once
};

Runtime::Runtime(int argc, char** argv, Communicator communicator)
    : Runtime(RuntimeOptions::parse(argc, argv), communicator) {}

Runtime::Runtime(RuntimeOptions options, Communicator communicator) : state_(std::make_unique<State>()) {
  state_->options = std::move(options);
  set_up(communicator);
}

Runtime::Runtime(RuntimeOptions options, StrategyInfo strategy, Communicator communicator)
    : state_(std::make_unique<State>()) {
  if (!strategy.create) throw InputError(fmt::format("strategy '{}' has no create(); accepted: a StrategyInfo that "
                                                     "creates its agent", strategy.name));
  options.strategy = strategy.name;
  state_->options = std::move(options);
  state_->own_strategy = std::move(strategy);
  set_up(communicator);
}

void Runtime::set_up(Communicator communicator) {
  State& s = *state_;
  detail::ResolvedEngine engine = detail::resolve_engine(s.options.engine, communicator);
  s.engine = engine.name;
  s.mpi = std::move(engine.mpi);
  if (s.options.check_tasks == 0) throw InputError("check_tasks: 0 is not accepted; accepted: 1 to 2^30");
  // A topology file may fail on one rank only: under MPI the ranks agree before any waits
  // for another.
  on_every_rank(*this, [&] {
    const auto params = assignments(s.options.params, "--param");
    s.strategy = s.own_strategy ? StrategyChoice{&*s.own_strategy, Parameters::parse(s.own_strategy->params, params,
                                                                                      "strategy " + s.own_strategy->name)}
                                : builtin_strategies().configure(s.options.strategy, params);
    s.topology = resolve_topology(s.options.topology, *s.strategy.info, s.options.workers,
                                 s.mpi ? static_cast<std::size_t>(s.mpi->size()) : 0);
    if (s.engine != "sequential" && s.strategy.info->check_topology) s.strategy.info->check_topology(*s.topology);
    if (!s.options.timeline.empty()) s.timeline_nodes = timeline_nodes(s.options.timeline_nodes, workers());
    // Outputs that cannot be written fail here, not after a run.
    if (!s.options.record.empty()) RecordingApplication::check_path(s.options.record);
    open_timeline();
  });
  for (const std::string& w : detail::launcher_warnings(s.engine, s.mpi.get())) warn(w);
  if (!s.options.timeline.empty() && s.options.timeline_nodes.empty() && workers() > kTimelineDefaultNodes)
    warn(fmt::format("the timeline records nodes {} (the first {} by default); choose with --timeline-nodes (e.g. "
                     "0-7,12 or all)",
                     describe_nodes(s.timeline_nodes), kTimelineDefaultNodes));
}

Runtime::~Runtime() = default;

const RuntimeOptions& Runtime::options() const { return state_->options; }
const std::string& Runtime::engine() const { return state_->engine; }
const Topology& Runtime::topology() const { return *state_->topology; }
const StrategyChoice& Runtime::strategy() const { return state_->strategy; }
std::size_t Runtime::workers() const { return state_->engine == "sequential" ? 1 : topology().size(); }
int Runtime::rank() const { return state_->mpi ? state_->mpi->rank() : 0; }
bool Runtime::distributed() const { return state_->mpi != nullptr; }

NodeId Runtime::partials_in_process() const { return static_cast<NodeId>(workers()); }

std::vector<std::vector<std::byte>> Runtime::all_gather(std::span<const std::byte> mine) const {
  return state_->mpi->all_gather(mine);
}

const RuntimeResult& Runtime::run(AnyApplication& app) {
  run_engine(app);
  return last_run();
}

// options.timeline: the workers of this process that options.timeline_nodes names write to
// it (under MPI: rank 0 to the file, rank r > 0 to FILE.r when it runs a chosen worker).
std::unique_ptr<Timeline> Runtime::open_timeline() const {
  const State& s = *state_;
  if (s.options.timeline.empty()) return nullptr;
  const std::string title = fmt::format("{} on {}{}{}, {} engine", s.strategy.name(), s.topology->spec(),
                                        s.options.timeline_label.empty() ? "" : ", ", s.options.timeline_label, s.engine);
  if (!s.mpi) return std::make_unique<Timeline>(s.options.timeline, title, s.timeline_nodes);
  const auto self = static_cast<std::size_t>(rank());
  if (self > 0 && !s.timeline_nodes[self]) return nullptr;
  std::vector<bool> own(s.timeline_nodes.size(), false);
  own[self] = true;
  return std::make_unique<Timeline>(self == 0 ? s.options.timeline : fmt::format("{}.{}", s.options.timeline, self),
                                    title, s.timeline_nodes, own);
}

void Runtime::run_engine(detail::ByteApplication& app) {
  State& s = *state_;
  std::unique_ptr<RecordingApplication> recorded;  // under MPI each rank writes its worker's section
  std::unique_ptr<Timeline> timeline;
  on_every_rank(*this, [&] {
    if (!s.options.record.empty()) recorded = std::make_unique<RecordingApplication>(app, s.options.record);
    timeline = open_timeline();
  });
  const RuntimeConfig config{.topology = &*s.topology,
                             .strategy = s.strategy,
                             .seed = s.options.seed,
                             .check_tasks = s.options.check_tasks,
                             .poll_interval = s.options.poll_interval,
                             .max_delay = s.options.max_delay,
                             .progress = s.options.progress,
                             .timeline = timeline.get()};
  detail::ByteApplication& runs = recorded ? *recorded : app;
  if (s.mpi) s.last = s.mpi->run(runs, config);
  else if (s.engine == "threads") s.last = run_threads(runs, config);
  else s.last = run_sequential(runs, s.topology->size());  // the roots of the topology's workers
  s.ran = true;
  // The outputs: every one complete before any takes its name, on every rank (rank 0 merges
  // the trace from every rank's section, on a shared file system). The files not put in
  // place are removed when their objects go.
  on_every_rank(*this, [&] {
    if (recorded) recorded->close_sections();
    if (timeline) timeline->finish();
  });
  on_every_rank(*this, [&] {
    if (recorded && rank() == 0) recorded->merge_sections();
  });
  on_every_rank(*this, [&] {  // a file that fails on one rank: the error of every rank
    if (recorded) recorded->commit();
    if (timeline) timeline->commit();
  });
  for (const std::string& w : s.last.warnings) warn(w);
}

// On stderr, once, by rank 0 (of the communicator, or of the launcher's processes when each
// runs on its own), unless quiet.
void Runtime::warn(const std::string& warning) const {
  const State& s = *state_;
  const int rank = s.mpi ? s.mpi->rank() : std::max(0, launcher_rank());
  if (s.options.quiet || rank != 0 || !s.warned.insert(warning).second) return;
  fmt::print(stderr, "dlbkit: warning: {}\n", warning);
}

void Runtime::agree(std::exception_ptr error) const {
  if (state_->mpi) state_->mpi->agree(error);
  else if (error) std::rethrow_exception(error);
}

void Runtime::barrier() const {
  if (state_->mpi) state_->mpi->barrier();
}

const RuntimeResult& Runtime::last_run() const {
  if (!state_->ran) throw std::logic_error("Runtime::last_run: no run yet");
  return state_->last;
}

double Runtime::efficiency(double sequential_seconds) const {
  const RuntimeResult& r = last_run();
  if (r.elapsed_seconds <= 0) return 0;
  return sequential_seconds / (static_cast<double>(r.workers.size()) * r.elapsed_seconds);
}

void Runtime::print_report(std::FILE* out) const {
  const RuntimeResult& r = last_run();
  if (rank() != 0) return;
  if (state_->engine == "sequential")
    fmt::print(out, "sequential engine, 1 worker\n");
  else
    fmt::print(out, "{} on {}, {} engine, {} workers, seed {}\n", state_->strategy.name(), state_->topology->spec(),
               r.engine, r.workers.size(), state_->options.seed);
  fmt::print(out, "  elapsed              {:.4f} s\n{}", r.elapsed_seconds, format_figures(r));
}

}  // namespace dlbkit
