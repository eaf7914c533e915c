#include <dlbkit/error.hpp>
#include <dlbkit/objects/balancer.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/runtime/detail/command_line.hpp>

#include <fmt/format.h>

#include <string_view>
#include <vector>

namespace dlbkit {

BalancerOptions BalancerOptions::parse(int argc, const char* const* argv, const std::vector<ProgramOption>& program) {
  const BalancerOptions d;
  const std::vector<detail::OurOption> ours = {
      {"--engine", "NAME",
       "auto, mpi or threads (default auto: mpi when an MPI launcher started several processes and the program "
       "links dlbkit::mpi, else threads)"},
      {"--strategy", "NAME", fmt::format("a name of `dlbkit list phase-strategies` (default {})", d.strategy)},
      {"--param", "NAME=VALUE", "a parameter of the strategy (repeatable)"},
      {"--topology", "SPEC", "the ranks' network, one rank per node (default auto: complete:P)"},
      {"--seed", "S", fmt::format("the strategy's random stream (default {})", d.seed)},
      {"--memory-bound", "BYTES", "the most bytes a rank may hold, or inf (default inf)"},
      {"--work-model", "M",
       fmt::format("what the strategy weighs: load, or LBAF's work beta=B,gamma=G,delta=D (default {})",
                   d.work_model)}};
  BalancerOptions o;
  detail::parse_command_line(argc, argv, program, ours, [&](std::string_view name, const std::string& value) {
    // The plan API has no sequential engine; the rest is read as the runtimes read it.
    if (name == "--engine" && value != "auto" && value != "mpi" && value != "threads")
      throw InputError(fmt::format("--engine '{}'; accepted: auto, mpi, threads", value));
    if (detail::read_runtime_option(name, value, o)) return;
    if (name == "--memory-bound") {
      o.memory_bound = non_negative_or_inf(value, "--memory-bound");
    } else {
      o.work_model = value;
    }
  });
  return o;
}

}  // namespace dlbkit
