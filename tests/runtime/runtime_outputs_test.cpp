// RuntimeOptions' hooks for what a run writes besides its result: the task tree (--record),
// the timeline (--timeline) and a progress counter, for a program's own application as for
// `dlbkit run`'s.

#include "../support/temp_path.hpp"

#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

namespace {

using dlbkit::Runtime;
using dlbkit::RuntimeOptions;

// A binary tree of depth 12 (8191 tasks) counted with the lambda form.
std::uint64_t count_tree(Runtime& runtime) {
  return runtime.run(
      std::vector{12},
      [](int n, auto& ctx) {
        ++ctx.result();
        for (int c = 0; c < 2 && n > 0; ++c) ctx.spawn(n - 1);
      },
      std::uint64_t{0}, std::plus<>{});
}

RuntimeOptions parse_options(std::vector<const char*> args) {
  args.insert(args.begin(), "program");
  return RuntimeOptions::parse(static_cast<int>(args.size()), args.data());
}

}  // namespace

TEST(RuntimeOutputs, RecordTimelineAndProgressOfAProgramsOwnRun) {
  const std::string trace = dlbkit::test::temp_path("own.trace").string();
  const std::string timeline = dlbkit::test::temp_path("own-timeline.json").string();
  std::atomic<std::uint64_t> executed{0};
  Runtime runtime(RuntimeOptions{.workers = 2,
                                 .quiet = true,
                                 .record = trace,
                                 .timeline = timeline,
                                 .timeline_label = "tree of depth 12",
                                 .progress = &executed});
  EXPECT_EQ(count_tree(runtime), 8191u);
  EXPECT_EQ(executed.load(), 8191u);

  const dlbkit::TaskTree tree = dlbkit::load_task_trace(trace);
  EXPECT_EQ(tree.tasks(), 8191u);
  EXPECT_EQ(tree.roots.size(), 1u);
  EXPECT_EQ(tree.workers, 2u);

  std::ifstream in(timeline);
  const nlohmann::json events = nlohmann::json::parse(in)["traceEvents"];
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events[0]["name"], "process_name");
  EXPECT_EQ(events[0]["args"]["name"],
            "work_stealing on " + runtime.topology().spec() + ", tree of depth 12, threads engine");
  bool busy = false;
  for (const auto& e : events) busy = busy || (e.value("name", "") == "busy");
  EXPECT_TRUE(busy);
  std::filesystem::remove(trace);
  std::filesystem::remove(timeline);
}

TEST(RuntimeOutputs, AnOutputThatCannotBeWrittenFailsAtConstruction) {
  const std::string nowhere = dlbkit::test::temp_path("no-such-dir/t").string();
  EXPECT_THROW(Runtime(RuntimeOptions{.workers = 2, .record = nowhere}), dlbkit::InputError);
  EXPECT_THROW(Runtime(RuntimeOptions{.workers = 2, .timeline = nowhere}), dlbkit::InputError);
  try {
    const Runtime runtime(RuntimeOptions{.workers = 2, .timeline = nowhere + ".json", .timeline_nodes = "2"});
    ADD_FAILURE() << "a timeline of worker 2 of 2 was accepted";
  } catch (const dlbkit::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("'2'"), std::string::npos) << e.what();
  }
}

TEST(RuntimeOutputs, TheCommandLineNamesThem) {
  const RuntimeOptions o = parse_options({"--record", "a.trace", "--timeline=t.json", "--timeline-nodes", "0-3"});
  EXPECT_EQ(o.record, "a.trace");
  EXPECT_EQ(o.timeline, "t.json");
  EXPECT_EQ(o.timeline_nodes, "0-3");
  const RuntimeOptions d = parse_options({});
  EXPECT_EQ(d.record, "");
  EXPECT_EQ(d.timeline, "");
}
