#include <dlbkit/error.hpp>
#include <dlbkit/runtime/runtime.hpp>
#include <dlbkit/strategies/builtin.hpp>

#include <fmt/format.h>
#include <optional>

namespace dlbkit {

namespace runtime_detail {

namespace {
DistributedEngineFactory mpi_engine_factory = nullptr;
}  // namespace

void set_mpi_engine(DistributedEngineFactory factory) { mpi_engine_factory = factory; }

}  // namespace runtime_detail

struct Runtime::State {
  RuntimeOptions options;
  std::unique_ptr<runtime_detail::DistributedEngine> mpi;  // engine "mpi" only
  std::optional<Topology> topology;  // set by the constructor
  StrategyChoice strategy;
  RuntimeResult last;
  bool ran = false;
};


Runtime::Runtime(int argc, char** argv, Communicator communicator)
    : Runtime(RuntimeOptions::parse(argc, argv), communicator) {}

Runtime::Runtime(RuntimeOptions options, Communicator communicator) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.options = std::move(options);
  if (s.options.engine == "mpi") {
    if (runtime_detail::mpi_engine_factory == nullptr)
      throw InputError("--engine mpi: this program was linked without the MPI engine; accepted: threads, sequential "
                       "(or link the CMake target dlbkit::mpi)");
    s.mpi = runtime_detail::mpi_engine_factory(communicator);
  } else if (s.options.engine != "threads" && s.options.engine != "sequential") {
    throw InputError(fmt::format("--engine '{}'; accepted: threads, mpi, sequential", s.options.engine));
  }
  s.strategy = builtin_strategies().configure(s.options.strategy, assignments(s.options.params, "--param"));
  s.topology = resolve_topology(s.options.topology, *s.strategy.info, s.options.workers,
                               s.mpi ? static_cast<std::size_t>(s.mpi->size()) : 0);
  if (s.options.engine != "sequential" && s.strategy.info->check_topology) s.strategy.info->check_topology(*s.topology);
}

Runtime::~Runtime() = default;

const RuntimeOptions& Runtime::options() const { return state_->options; }
const Topology& Runtime::topology() const { return *state_->topology; }
const StrategyChoice& Runtime::strategy() const { return state_->strategy; }
int Runtime::rank() const { return state_->mpi ? state_->mpi->rank() : 0; }
bool Runtime::distributed() const { return state_->mpi != nullptr; }

NodeId Runtime::partials_in_process() const {
  return state_->options.engine == "sequential" ? 1 : static_cast<NodeId>(workers());
}

std::vector<std::vector<std::byte>> Runtime::all_gather(std::span<const std::byte> mine) const {
  return state_->mpi->all_gather(mine);
}

void Runtime::run_engine(AnyApplication& app) {
  State& s = *state_;
  const RuntimeConfig config{.topology = &*s.topology, .strategy = s.strategy, .seed = s.options.seed};
  if (s.mpi) s.last = s.mpi->run(app, config);
  else if (s.options.engine == "threads") s.last = run_threads(app, config);
  else s.last = run_sequential(app, workers());
  s.ran = true;
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
  fmt::print(out, "{} on {}, {} engine, {} workers, seed {}\n", state_->strategy.name(), state_->topology->spec(),
             r.engine, r.workers.size(), state_->options.seed);
  for (const std::string& w : r.warnings) fmt::print(out, "  warning: {}\n", w);
  fmt::print(out, "  elapsed              {:.4f} s\n{}", r.elapsed_seconds, format_figures(r));
}

}  // namespace dlbkit
