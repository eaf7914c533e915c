#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/phases/devices.hpp>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace dlbkit {

namespace {

constexpr const char* kAcceptedSpeedups = "accepted: one per node, a number >= 0 (0: no device)";
constexpr std::size_t kMaxNodes = 10'000'000;  // what S*N items may add up to: a typo cannot exhaust memory

}  // namespace

std::vector<double> parse_device_speedups(const std::string& text, const std::string& what) {
  std::vector<double> speedups;
  for (std::size_t start = 0;;) {
    const std::size_t comma = text.find(',', start);
    const std::string item = text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    const std::size_t star = item.find('*');
    double s = 0;
    std::size_t n = 1;
    if (!parse_number(item.substr(0, star), s) || !(s >= 0) ||
        (star != std::string::npos && (!parse_number(item.substr(star + 1), n) || n < 1)))
      throw InputError(fmt::format("{} '{}': '{}' is not accepted; accepted: one speedup per node, each a number >= 0 "
                                   "(0: no device), comma-separated, S*N for N nodes alike, e.g. 8,0,0,0 or 8*2,0*6",
                                   what, excerpt(text), excerpt(item)));
    if (n > kMaxNodes - speedups.size())
      throw InputError(
          fmt::format("{} '{}': more than {} speedups; {}", what, excerpt(text), kMaxNodes, kAcceptedSpeedups));
    speedups.insert(speedups.end(), n, s);
    if (comma == std::string::npos) return speedups;
    start = comma + 1;
  }
}

void check_device_speedups(const std::vector<double>& speedups, std::size_t nodes, const std::string& what) {
  if (speedups.size() != nodes)
    throw InputError(
        fmt::format("{}: {} device speedups for {} nodes; {}", what, speedups.size(), nodes, kAcceptedSpeedups));
  for (std::size_t v = 0; v < speedups.size(); ++v)
    if (!std::isfinite(speedups[v]) || !(speedups[v] >= 0))
      throw InputError(fmt::format("{}: node {}'s device speedup is {}; accepted: a number >= 0 (0: no device)", what,
                                   v, speedups[v]));
}

void check_device_model(const Phase& phase, const DeviceModel& model, const std::string& what) {
  check_device_speedups(model.speedup, phase.nodes, what);
  if (model.offload.size() != phase.objects.size())
    throw InputError(fmt::format("{}: {} offloadable shares for {} objects; accepted: one per object, in [0, 1]", what,
                                 model.offload.size(), phase.objects.size()));
  for (std::size_t i = 0; i < model.offload.size(); ++i)
    if (!(model.offload[i] >= 0 && model.offload[i] <= 1))
      throw InputError(fmt::format("{}: object {}'s offloadable share is {}; accepted: a number in [0, 1]", what,
                                   phase.objects[i].id, model.offload[i]));
}

std::vector<double> node_times(const Phase& phase, const std::vector<NodeId>& mapping, const DeviceModel& model) {
  check_device_model(phase, model, "the device model");
  std::vector<double> host(phase.nodes, 0.0), all(phase.nodes, 0.0);  // host-only load, all load
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    host[mapping[i]] += (1 - model.offload[i]) * phase.objects[i].load;
    all[mapping[i]] += phase.objects[i].load;
  }
  std::vector<double> times(phase.nodes);
  for (NodeId v = 0; v < phase.nodes; ++v)
    times[v] = alpha_of(phase, v) * std::max(host[v], all[v] / (1 + model.speedup[v]));
  return times;
}

double device_bound(const Phase& phase, const DeviceModel& model) {
  check_device_model(phase, model, "the device model");
  double host = 0, all = 0, processors = 0, both = 0;
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    host += (1 - model.offload[i]) * phase.objects[i].load;
    all += phase.objects[i].load;
  }
  for (NodeId v = 0; v < phase.nodes; ++v) {
    processors += 1 / alpha_of(phase, v);
    both += (1 + model.speedup[v]) / alpha_of(phase, v);
  }
  return std::max(host / processors, all / both);
}

std::vector<double> effective_alphas(const Phase& phase, const DeviceModel& model) {
  check_device_model(phase, model, "the device model");
  double offloadable = 0, all = 0;
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    offloadable += model.offload[i] * phase.objects[i].load;
    all += phase.objects[i].load;
  }
  const double f = all > 0 ? offloadable / all : 0;
  std::vector<double> alphas(phase.nodes);
  for (NodeId v = 0; v < phase.nodes; ++v)
    alphas[v] = alpha_of(phase, v) * std::max(1 - f, 1 / (1 + model.speedup[v]));
  return alphas;
}

}  // namespace dlbkit
