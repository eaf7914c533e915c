#include <dlbkit/core/parameters.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/objects/balancer.hpp>
#include <dlbkit/phases/rebalance_inputs.hpp>
#include <dlbkit/runtime/detail/command_line.hpp>

#include <fmt/format.h>

#include <limits>
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
    if (name == "--engine") {
      if (value != "auto" && value != "mpi" && value != "threads")
        throw InputError(fmt::format("--engine '{}'; accepted: auto, mpi, threads", value));
      o.engine = value;
    } else if (name == "--strategy") {
      o.strategy = value;
    } else if (name == "--param") {
      split_assignment(value, "--param");  // checked here, where the command line is at hand
      o.params.push_back(value);
    } else if (name == "--topology") {
      o.topology = value;
    } else if (name == "--seed") {
      o.seed = parse_unsigned(value, "--seed", std::numeric_limits<std::uint64_t>::max());
    } else if (name == "--memory-bound") {
      o.memory_bound = non_negative_or_inf(value, "--memory-bound");
    } else {
      o.work_model = value;
    }
  });
  return o;
}

}  // namespace dlbkit
