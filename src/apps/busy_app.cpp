// The `busy` app: WLR93's artificial workload (Sec. V-A, eq. 33-35, Table III) with each
// task a real busy loop of its number of loops. The tasks are drawn as the simulator's
// `artificial` workload draws them (apps/artificial_tasks.hpp), with one loop as the unit of
// work (draw_busy_tasks, which the simulator's `busy` workload shares).

#include <dlbkit/apps/busy_draw.hpp>

#include <dlbkit/apps/artificial_tasks.hpp>
#include <dlbkit/apps/builtin_apps.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>
#include <map>

namespace dlbkit {

std::uint64_t busy_loop(std::uint64_t x) {
  for (int i = 0; i < 1000; ++i) {  // xorshift64: a dependent chain the compiler cannot fold
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

BusyDraw busy_draw(const Parameters& p) {
  BusyDraw d{.total_auto = p.is_auto("total_load"), .seed = static_cast<std::uint64_t>(p.integer("seed"))};
  for (const auto& name : {"granularity", "block", "omega_per_g"}) d.given[name] = p.text(name);
  if (!d.total_auto) d.given["total_load"] = p.text("total_load");
  return d;
}

void draw_busy_tasks(const BusyDraw& draw, std::size_t workers, const std::function<void(NodeId, std::uint64_t)>& take) {
  Rng rng(draw.seed, 0);
  auto params = draw.given;
  if (draw.total_auto) params["total_load"] = fmt::format("{}", 2e5 * static_cast<double>(workers));
  const ArtificialTasks tasks(Parameters::parse(artificial_task_params(), params, "app busy"));
  tasks.draw(workers, 1, rng, [&](NodeId node, SimTime loops) { take(node, static_cast<std::uint64_t>(loops)); });  // work in loops
}

namespace {

struct BusyTask {
  std::uint64_t loops;
  std::uint64_t seed;  // the task's index + 1: the loop's starting value
};

struct BusyResult {
  std::uint64_t tasks;
  std::uint64_t loops;
  std::uint64_t checksum;  // sum of every task's final loop value: proof each task ran once
};

class Busy final : public ReportedApplication<BusyTask, BusyResult> {
public:
  explicit Busy(BusyDraw draw) : draw_(std::move(draw)) {}

  std::vector<BusyTask> roots(NodeId worker, std::size_t workers) const override {
    // The same draw for every worker (each MPI rank takes its own share of it).
    std::vector<BusyTask> tasks;
    std::uint64_t index = 0;
    draw_busy_tasks(draw_, workers, [&](NodeId node, std::uint64_t loops) {
      ++index;
      if (node == worker) tasks.push_back({loops, index});
    });
    return tasks;
  }

  void execute(const BusyTask& t, TaskContext<BusyTask, BusyResult>& ctx) override {
    std::uint64_t x = t.seed;
    for (std::uint64_t i = 0; i < t.loops; ++i) {
      x = busy_loop(x);
      if ((i & 15) == 15) ctx.poll();
    }
    BusyResult& r = ctx.result();
    ++r.tasks;
    r.loops += t.loops;
    r.checksum += x;
  }

  void combine(BusyResult& into, const BusyResult& o) const override {
    into.tasks += o.tasks;
    into.loops += o.loops;
    into.checksum += o.checksum;
  }

  nlohmann::json report(const BusyResult& r) const override {
    return {{"tasks", r.tasks}, {"loops", r.loops}, {"checksum", r.checksum}};
  }

private:
  BusyDraw draw_;
};

}  // namespace

AppInfo busy_app_info() {
  std::vector<ParamSpec> params = artificial_task_params();
  for (auto& p : params)
    if (p.name == "total_load") {
      p.default_value = "auto";
      p.description = "L: total loops; auto = 2e5 N (about 0.2 s per worker)";
    }
  params.push_back({.name = "seed", .type = ParamType::integer, .default_value = "1",
                    .description = "the random draw of the tasks", .min = 0, .max = 9.0e15});
  return AppInfo{
      .name = "busy",
      .description = "WLR93's artificial tasks as real busy loops (g tasks per worker, loads uniform around L/N)",
      .source = "WLR93 Sec. V-A, eq. (33)-(35), Table III",
      .params = params,
      .create =
          [](const Parameters& p) -> std::unique_ptr<AnyApplication> {
            // Real loops, about 1 us each: a total beyond about 1e6 s of work would not end in
            // practice (the budget of UTS trees: 1e13 nodes at 100 ns).
            constexpr double kMaxLoops = 1e12;
            if (!p.is_auto("total_load") && p.real("total_load") > kMaxLoops)
              throw InputError(fmt::format("app busy: total_load={:g} loops is about {:.2g} s of work at about 1 us "
                                           "a loop; accepted: at most {:g} loops (about 11 days), or auto",
                                           p.real("total_load"), p.real("total_load") * 1e-6, kMaxLoops));
            return std::make_unique<Busy>(busy_draw(p));
          },
  };
}

}  // namespace dlbkit
