// The load-update scenario (load_updates.hpp) on SimGrid's S4U: one host per node on a star
// (a private link each, half the latency per link, so a message takes `latency`), a worker
// actor that executes the tasks and sends the reports, and a listener actor that receives
// them. Hosts compute 1e9 flop/s, so a task of w ns is w flops.
// Prints: nodes, tasks, messages, the simulated time of the last task completion in ns, wall s.

#include "load_updates.hpp"

#include <simgrid/s4u.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

namespace sg4 = simgrid::s4u;

namespace {

int g_dimension = 0;
std::vector<sg4::Mailbox*> g_mailboxes;
double g_last_completion = 0;
std::uint64_t g_messages = 0, g_tasks = 0, g_received = 0;

void worker(std::uint64_t v) {
  for (std::int64_t j = 0; j < peers::kTasksPerNode; ++j) {
    sg4::this_actor::execute(static_cast<double>(peers::work_ns(v, static_cast<std::uint64_t>(j))));
    ++g_tasks;
    g_last_completion = std::max(g_last_completion, sg4::Engine::get_clock());
    const std::intptr_t load = peers::kTasksPerNode - j - 1;
    for (int k = 0; k < g_dimension; ++k) {
      sg4::this_actor::execute(static_cast<double>(peers::kSendOverheadNs));
      // The load travels in the pointer, plus one: SimGrid takes a null payload for a receive.
      g_mailboxes[v ^ (1ULL << k)]->put_init(reinterpret_cast<void*>(load + 1), 0)->detach();
      ++g_messages;
    }
  }
}

void listener(std::uint64_t v) {
  std::int64_t sum = 0;
  for (std::int64_t i = 0; i < peers::kTasksPerNode * g_dimension; ++i)
    sum += static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(g_mailboxes[v]->get<void>())) - 1;
  g_received += static_cast<std::uint64_t>(peers::kTasksPerNode * g_dimension);
  (void)sum;
}

}  // namespace

int main(int argc, char** argv) {
  sg4::Engine engine(&argc, argv);
  g_dimension = peers::dimension(argc, argv);
  const std::uint64_t n = 1ULL << g_dimension;
  const auto wall = std::chrono::steady_clock::now();
  auto* zone = sg4::create_star_zone("hypercube");
  std::vector<sg4::Host*> hosts;
  for (std::uint64_t v = 0; v < n; ++v) {
    const std::string name = "node" + std::to_string(v);
    sg4::Host* host = zone->create_host(name, 1e9);
    sg4::Link* link = zone->create_link(name + "_link", 1e12)->set_latency(peers::kLatencyNs * 1e-9 / 2)->seal();
    zone->add_route(host->get_netpoint(), nullptr, nullptr, nullptr, {sg4::LinkInRoute(link)}, true);
    hosts.push_back(host);
    g_mailboxes.push_back(sg4::Mailbox::by_name(name));
  }
  zone->seal();
  for (std::uint64_t v = 0; v < n; ++v) {
    sg4::Actor::create("worker", hosts[v], worker, v);
    sg4::Actor::create("listener", hosts[v], listener, v);
  }
  engine.run();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall).count();
  std::printf("simgrid nodes %llu tasks %llu messages %llu received %llu last_completion_ns %lld end_ns %lld wall_s %.3f\n",
              static_cast<unsigned long long>(n), static_cast<unsigned long long>(g_tasks),
              static_cast<unsigned long long>(g_messages), static_cast<unsigned long long>(g_received),
              static_cast<long long>(std::llround(g_last_completion * 1e9)),
              static_cast<long long>(std::llround(sg4::Engine::get_clock() * 1e9)), seconds);
  return 0;
}
