// dlbkit::ObjectRuntime on the threads and sequential engines: every object kept once,
// messages that follow their objects, results independent of the strategy, errors that reach
// the caller, and the record and timeline it writes. The MPI engine: tests/CMakeLists.txt runs
// examples/stencil under mpirun.
#include "../support/object_options.hpp"
#include "../support/error_of.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/objects/object_runtime.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <fstream>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using dlbkit::test::threads_options;
using dlbkit::test::error_of;

using dlbkit::ObjectContext;
using dlbkit::ObjectRuntime;
using dlbkit::ObjectRuntimeOptions;

// An object of a ring: it adds what its predecessor sent to its value and sends its value on;
// its load is given, and heavy on the first objects, so that balancing moves some.
struct Cell {
  std::uint64_t value = 0;
  std::vector<std::uint64_t> history;  // the values it received, in order
  template <class A>
  void serialize(A& a) {
    a(value, history);
  }
};

constexpr std::uint64_t kObjects = 24;

void ring_phase(Cell& c, ObjectContext<std::uint64_t>& ctx) {
  for (const auto& [from, value] : ctx.received()) {
    EXPECT_EQ(from, (ctx.id() + kObjects - 1) % kObjects);
    c.value += value;
    c.history.push_back(value);
  }
  c.value = c.value * 6364136223846793005ULL + ctx.id();
  ctx.send((ctx.id() + 1) % kObjects, c.value);
  ctx.set_load(ctx.id() < kObjects / 4 ? 1.0 + static_cast<double>(ctx.phase() % 3) : 0.1);
}

// Every object's value after `phases` phases of the ring, in id order.
std::vector<std::uint64_t> ring(const ObjectRuntimeOptions& o, std::size_t phases, std::size_t* migrated = nullptr) {
  ObjectRuntime<Cell, std::uint64_t> rt(o);
  for (std::uint64_t id = 0; id < kObjects; ++id) rt.add(id, Cell{id, {}}, 0);  // all on worker 0
  for (std::size_t k = 0; k < phases; ++k) rt.run_phase(ring_phase);
  std::vector<std::uint64_t> ids;
  rt.for_each_object([&](std::uint64_t id, const Cell&) { ids.push_back(id); });
  std::sort(ids.begin(), ids.end());
  std::vector<std::uint64_t> expected(kObjects);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(ids, expected) << "every object once";
  const auto report = rt.finish();
  EXPECT_EQ(report.phases.size(), phases);
  if (migrated) *migrated = report.objects_migrated;
  return rt.collect([](std::uint64_t, const Cell& c) { return c.value + c.history.size(); });
}

TEST(ObjectRuntime, EveryStrategyKeepsEveryObjectOnceAndTheResultsExact) {
  const auto reference = ring(threads_options("none", 1), 12);
  for (const auto& info : dlbkit::builtin_phase_strategies().all()) {
    for (std::size_t workers : {2, 3, 4}) {
      ObjectRuntimeOptions o = threads_options(info.name, workers);
      if (info.name == "dimension_exchange" || info.name == "hbm") o.topology = workers == 4 ? "hypercube:2" : "";
      if (o.topology.empty()) continue;  // a hypercube's strategies on a hypercube only
      std::size_t migrated = 0;
      EXPECT_EQ(ring(o, 12, &migrated), reference) << info.name << " on " << workers;
      if (info.name != "none") EXPECT_GT(migrated, 0u) << info.name << " on " << workers << " moved nothing";
      else EXPECT_EQ(migrated, 0u);
    }
  }
}

// Two messages from every object to every object, the workers' objects interleaved: each
// inbox lists the senders by id, each sender's two in the order sent, whether a sender runs on
// the receiver's worker or another, before and after the objects move.
TEST(ObjectRuntime, AnInboxIsInSenderOrderWhereverItsSendersRun) {
  constexpr std::uint64_t n = 9;
  ObjectRuntime<Cell, std::uint64_t> rt(threads_options("greedy", 3));
  for (std::uint64_t id = 0; id < n; ++id) rt.add(id, Cell{id, {}}, static_cast<dlbkit::NodeId>(id * 5 % 3));
  std::vector<std::uint64_t> expected(2 * n);
  std::iota(expected.begin(), expected.end(), 0);
  for (std::size_t phase = 0; phase < 6; ++phase)
    rt.run_phase([&](Cell&, ObjectContext<std::uint64_t>& ctx) {
      std::vector<std::uint64_t> got;
      for (const auto& [from, value] : ctx.received()) got.push_back(value);
      if (ctx.phase() > 0) {
        EXPECT_EQ(got, expected) << "object " << ctx.id() << ", phase " << ctx.phase();
      }
      for (std::uint64_t to = 0; to < n; ++to)
        for (std::uint64_t k = 0; k < 2; ++k) ctx.send(to, 2 * ctx.id() + k);
      ctx.set_load(ctx.id() < 3 ? 1.0 + static_cast<double>(ctx.phase() % 2) : 0.1);
    });
  EXPECT_GT(rt.finish().objects_migrated, 0u);
}

TEST(ObjectRuntime, TheEndsOfWhenToBalance) {
  const auto reference = ring(threads_options("none", 1), 9);
  ObjectRuntimeOptions never = threads_options("greedy", 3);
  never.every = 0;  // only when asked
  std::size_t migrated = 1;
  EXPECT_EQ(ring(never, 9, &migrated), reference);
  EXPECT_EQ(migrated, 0u);
  ObjectRuntimeOptions always = threads_options("greedy", 3);
  always.every = 0;
  always.threshold = 0;  // after every phase with any imbalance
  EXPECT_EQ(ring(always, 9, &migrated), reference);
  EXPECT_GT(migrated, 0u);
  for (std::size_t window : {2, 1000}) {  // the linear load model's ends
    ObjectRuntimeOptions linear = threads_options("greedy", 3);
    linear.load_model = "linear";
    linear.load_window = window;
    EXPECT_EQ(ring(linear, 9, &migrated), reference) << window;
  }
  ObjectRuntimeOptions sequential = threads_options("greedy", 1);
  sequential.engine = "sequential";
  sequential.workers = 0;
  EXPECT_EQ(ring(sequential, 9, &migrated), reference);
  EXPECT_EQ(migrated, 0u);
}

// A value collected or sent that is a trivially copyable struct needs no serialize().
struct Tally {
  std::uint64_t id;
  double half;
};

TEST(ObjectRuntime, CollectsAndSendsATriviallyCopyableStruct) {
  ObjectRuntime<Cell, std::vector<Tally>> rt(threads_options("greedy", 2));
  for (std::uint64_t id = 0; id < 4; ++id) rt.add(id, Cell{id, {}}, 0);
  for (int k = 0; k < 2; ++k)
    rt.run_phase([](Cell& c, ObjectContext<std::vector<Tally>>& ctx) {
      for (const auto& [from, tallies] : ctx.received()) c.value += tallies.size() + tallies.back().id;
      ctx.send((ctx.id() + 1) % 4, std::vector<Tally>(2, Tally{ctx.id(), 0.5}));
    });
  const std::vector<Tally> all = rt.collect([](std::uint64_t id, const Cell& c) { return Tally{id + c.value, 0.5 * id}; });
  ASSERT_EQ(all.size(), 4u);
  for (std::uint64_t id = 0; id < 4; ++id) {
    EXPECT_EQ(all[id].id, id + id + 2 + (id + 3) % 4);  // its own, then phase 1's message from its predecessor
    EXPECT_EQ(all[id].half, 0.5 * static_cast<double>(id));
  }
}

// A vector or string of trivially copyable elements travels as one block: its count, then its
// elements' bytes, the same bytes as cereal's where cereal writes them in one piece.
TEST(Serialization, AVectorOfStructsTravelsAsOneBlock) {
  struct Padded {
    char c;
    double x;
  };
  static_assert(dlbkit::travels_as_block<std::vector<Padded>> && dlbkit::travels_as_block<std::string>);
  static_assert(!dlbkit::travels_as_block<std::vector<bool>> && !dlbkit::travels_as_block<std::vector<Cell>>);
  const std::vector<Padded> padded = {{'a', 1.5}, {'b', -2}};
  std::vector<std::byte> bytes;
  dlbkit::to_bytes(padded, bytes);
  ASSERT_EQ(bytes.size(), 8 + 2 * sizeof(Padded));  // the padding travels too: one copy
  EXPECT_EQ(dlbkit::known_size(padded), bytes.size());
  const auto back = dlbkit::from_bytes<std::vector<Padded>>(bytes);
  ASSERT_EQ(back.size(), 2u);
  EXPECT_EQ(back[1].c, 'b');
  EXPECT_EQ(back[1].x, -2);
  std::vector<std::byte> cereal;
  dlbkit::serialization_detail::write_archive(std::vector<double>{1, 2}, cereal);
  dlbkit::to_bytes(std::vector<double>{1, 2}, bytes);
  EXPECT_EQ(bytes, cereal);
  dlbkit::to_bytes(std::string("hello"), bytes);
  EXPECT_EQ(bytes.size(), 8u + 5u);
  EXPECT_EQ(dlbkit::from_bytes<std::string>(bytes), "hello");
  bytes.pop_back();
  EXPECT_THROW(dlbkit::from_bytes<std::string>(bytes), std::length_error);
  EXPECT_EQ(dlbkit::known_size(Cell{}), std::nullopt);
}

TEST(ObjectRuntime, GreedyBalancesTheGivenLoads) {
  ObjectRuntime<Cell, std::uint64_t> rt(threads_options("greedy", 2));
  for (std::uint64_t id = 0; id < kObjects; ++id) rt.add(id, Cell{}, 0);
  rt.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) { ctx.set_load(1.0); });
  EXPECT_DOUBLE_EQ(rt.report().phases[0].imbalance, 1.0);  // every load on one of two workers
  EXPECT_TRUE(rt.report().phases[0].balanced);
  EXPECT_EQ(rt.report().balances.size(), 0u) << "the step runs when the next phase starts";
  rt.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) { ctx.set_load(1.0); });
  ASSERT_EQ(rt.report().balances.size(), 1u);
  EXPECT_DOUBLE_EQ(rt.report().balances[0].imbalance_after, 0.0);
  EXPECT_DOUBLE_EQ(rt.report().phases[1].imbalance, 0.0);
  EXPECT_DOUBLE_EQ(rt.report().phases[1].max_load, kObjects / 2.0);
  std::size_t on_one = 0;
  for (std::uint64_t id = 0; id < kObjects; ++id) on_one += rt.worker_of(id) == 1;
  EXPECT_EQ(on_one, kObjects / 2);
}

// Object 0 on worker 0 grows by 1 s a phase, object 1 on worker 1 stays at 3 s: after phases
// of 1 and 2 s, persistence balances 2 against 3, vt's linear model 3 against 3.
TEST(ObjectRuntime, TheLinearLoadModelReadsTheTrend) {
  for (const std::string model : {"persistence", "linear"}) {
    ObjectRuntimeOptions o = threads_options("greedy", 2);
    o.every = 2;
    o.load_model = model;
    ObjectRuntime<Cell, std::uint64_t> rt(o);
    rt.add(0, Cell{}, 0);
    rt.add(1, Cell{}, 1);
    for (int k = 0; k < 3; ++k)  // the step after the second phase runs as the third starts
      rt.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) {
        ctx.set_load(ctx.id() == 0 ? 1.0 + static_cast<double>(ctx.phase()) : 3.0);
      });
    ASSERT_EQ(rt.report().balances.size(), 1u) << model;
    EXPECT_NEAR(rt.report().balances[0].imbalance_before, model == "linear" ? 0.0 : 0.2, 1e-12) << model;
  }
  ObjectRuntimeOptions bad = threads_options("greedy", 2);
  bad.load_model = "psychic";
  EXPECT_NE(error_of([&] { ObjectRuntime<Cell, int> rt(bad); }).find("load model 'psychic'"), std::string::npos);
}

// A program's own phase strategy, by its PhaseStrategyInfo: every object to the last worker.
class ToLast : public dlbkit::PhaseStrategy {
public:
  static constexpr const char* name = "to_last";
  static constexpr const char* description = "every object to the last worker";
  static constexpr const char* source = "a test";
  explicit ToLast(const dlbkit::Parameters&) {}
  void rebalance(dlbkit::PhaseContext& ctx) override {
    for (dlbkit::ObjectIndex i = 0; i < ctx.phase().objects.size(); ++i)
      ctx.move(i, static_cast<dlbkit::NodeId>(ctx.nodes() - 1));
  }
};

TEST(ObjectRuntime, RunsAProgramsOwnStrategy) {
  ObjectRuntime<Cell, std::uint64_t> rt(threads_options("ignored", 3), dlbkit::phase_strategy_info<ToLast>());
  EXPECT_EQ(rt.options().strategy, "to_last");
  for (std::uint64_t id = 0; id < kObjects; ++id) rt.add(id, Cell{id, {}}, 0);
  rt.run_phase(ring_phase);
  rt.run_phase(ring_phase);  // after the step that followed the first
  for (std::uint64_t id = 0; id < kObjects; ++id) EXPECT_EQ(rt.worker_of(id), 2u);
  ObjectRuntimeOptions with_param = threads_options("ignored", 2);
  with_param.params = {"x=1"};
  EXPECT_NE(error_of([&] { ObjectRuntime<Cell, int> bad(with_param, dlbkit::phase_strategy_info<ToLast>()); })
                .find("unknown parameter 'x'"),
            std::string::npos);
}

// A program's own strategy that moves nothing and keeps how many communications it was given.
class Counting : public dlbkit::PhaseStrategy {
public:
  static constexpr const char* name = "counting";
  static constexpr const char* description = "moves nothing, counts the phase's communications";
  static constexpr const char* source = "a test";
  static inline std::size_t communications = 0;
  explicit Counting(const dlbkit::Parameters&) {}
  void rebalance(dlbkit::PhaseContext& ctx) override { communications = ctx.phase().communications.size(); }
};

TEST(ObjectRuntime, AWorkModelThatWeighsMessagesIsGivenThem) {
  for (const std::string model : {"load", "gamma=1", "beta=1e-9"}) {
    ObjectRuntimeOptions o = threads_options("ignored", 2);
    o.work_model = model;
    Counting::communications = 0;
    ObjectRuntime<Cell, std::uint64_t> rt(o, dlbkit::phase_strategy_info<Counting>());
    for (std::uint64_t id = 0; id < kObjects; ++id) rt.add(id, Cell{id, {}}, 0);
    rt.run_phase(ring_phase);
    rt.balance();
    EXPECT_EQ(Counting::communications, model == "beta=1e-9" ? kObjects : 0u) << model;  // the ring's pairs
  }
  ObjectRuntimeOptions bad = threads_options("greedy", 2);
  bad.work_model = "beta=fast";
  EXPECT_NE(error_of([&] { ObjectRuntime<Cell, int> rt(bad); }).find("--work-model"), std::string::npos);
}

// A step decides where the next phase runs: none follows the last phase, and none ever with
// `none` (which would gather every load to decide nothing).
TEST(ObjectRuntime, NoStepAfterTheLastPhaseNorWithNone) {
  for (const std::string strategy : {"greedy", "none"}) {
    ObjectRuntime<Cell, std::uint64_t> rt(threads_options(strategy, 2));
    for (std::uint64_t id = 0; id < kObjects; ++id) rt.add(id, Cell{id, {}}, 0);
    for (int k = 0; k < 3; ++k) rt.run_phase(ring_phase);
    const auto report = rt.finish();
    EXPECT_EQ(report.balances.size(), strategy == "none" ? 0u : 2u) << strategy;
    for (std::size_t k = 0; k < 3; ++k)
      EXPECT_EQ(report.phases[k].balanced, strategy != "none" && k < 2) << strategy << " phase " << k;
  }
}

// A message that knows no size is serialised to count its bytes for a record only when it is
// delivered, beyond the timed work; every phase says how many messages it carried.
struct Note {
  static inline int serialised = 0;
  std::uint64_t value = 0;
  std::vector<std::uint64_t> padding = std::vector<std::uint64_t>(3);
  template <class A>
  void serialize(A& a) {
    ++serialised;
    a(value, padding);
  }
};

TEST(ObjectRuntime, CountsMessagesAndTheirBytesOutsideTheWork) {
  const std::filesystem::path dir = dlbkit::test::temp_dir("objects_bytes");
  std::filesystem::create_directories(dir);
  ObjectRuntimeOptions o = threads_options("none", 2);
  o.record = (dir / "run").string();
  std::vector<int> serialised_in_work;
  {
    ObjectRuntime<Cell, Note> rt(o);
    rt.add(0, Cell{}, 0);
    rt.add(1, Cell{}, 1);
    rt.run_phase([&](Cell&, ObjectContext<Note>& ctx) {
      if (ctx.id() != 0) return;
      Note::serialised = 0;
      ctx.send(1, Note{});
      ctx.send(1, Note{});
      serialised_in_work.push_back(Note::serialised);
    });
    const auto report = rt.finish();
    EXPECT_EQ(report.phases[0].messages, 2.0);
    EXPECT_EQ(report.phases[0].message_bytes, 0.0);  // between threads, nothing serialised to send
    EXPECT_GE(report.phases[0].delivery_seconds, 0.0);
    EXPECT_LE(report.phases[0].delivery_seconds, report.phases[0].seconds);
  }
  EXPECT_EQ(serialised_in_work, std::vector<int>{0});
  std::vector<std::byte> bytes;
  dlbkit::to_bytes(Note{}, bytes);
  const dlbkit::VtDataSet data = dlbkit::read_vt_data(o.record);
  ASSERT_EQ(data.phases[0].phase.communications.size(), 1u);
  EXPECT_EQ(data.phases[0].phase.communications[0].bytes, 2.0 * static_cast<double>(bytes.size()));
  std::filesystem::remove_all(dir);
}

TEST(ObjectRuntime, MeasuresTheObjectsTime) {
  ObjectRuntime<Cell, std::uint64_t> rt(threads_options("none", 2));
  rt.add(0, Cell{}, 0);
  rt.add(1, Cell{}, 1);
  rt.run_phase([](Cell& c, ObjectContext<std::uint64_t>& ctx) {
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(ctx.id() == 0 ? 20 : 2);
    while (std::chrono::steady_clock::now() < until) ++c.value;
  });
  const auto& phase = rt.report().phases[0];
  EXPECT_GE(phase.max_load, 0.020);
  EXPECT_GE(phase.seconds, phase.max_load);
  EXPECT_GT(phase.imbalance, 0.5);
}

// A worker's load sums its objects' measured times and the loads set in place of them.
TEST(ObjectRuntime, AWorkersLoadAddsMeasuredAndSetLoads) {
  ObjectRuntime<Cell, std::uint64_t> rt(threads_options("none", 2));
  for (std::uint64_t id = 0; id < 3; ++id) rt.add(id, Cell{}, 0);
  rt.run_phase([](Cell& c, ObjectContext<std::uint64_t>& ctx) {
    if (ctx.id() == 1) return ctx.set_load(5.0);
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(10);
    while (std::chrono::steady_clock::now() < until) ++c.value;
  });
  const auto& phase = rt.report().phases[0];
  EXPECT_GE(phase.max_load, 5.020);
  EXPECT_LT(phase.max_load, 5.0 + phase.seconds);
}

// Ids need not be 0 to n - 1: messages find their objects by search then.
TEST(ObjectRuntime, SparseIdsGiveTheSameResults) {
  const auto run = [](std::uint64_t stride) {
    ObjectRuntime<Cell, std::uint64_t> rt(threads_options("greedy", 3));
    for (std::uint64_t k = 0; k < kObjects; ++k) rt.add(k * stride, Cell{k, {}}, 0);
    for (int phase = 0; phase < 4; ++phase)
      rt.run_phase([&](Cell& c, ObjectContext<std::uint64_t>& ctx) {
        for (const auto& [from, value] : ctx.received()) c.value += value + from / stride;
        ctx.send((ctx.id() / stride + 1) % kObjects * stride, c.value);
        ctx.set_load(ctx.id() < kObjects / 2 * stride ? 1.0 : 0.5);
      });
    const auto values = rt.collect([](std::uint64_t, const Cell& c) { return c.value; });
    EXPECT_NE(error_of([&] { rt.run_phase([&](Cell&, ObjectContext<std::uint64_t>& ctx) { ctx.send(stride * kObjects + 1, 0); }); })
                  .find("no object"),
              std::string::npos);
    return values;
  };
  EXPECT_EQ(run(1), run(1000));
}

TEST(ObjectRuntime, ATaskExceptionReachesTheCaller) {
  ObjectRuntime<Cell, std::uint64_t> rt(threads_options("greedy", 3));
  for (std::uint64_t id = 0; id < 6; ++id) rt.add(id, Cell{}, static_cast<dlbkit::NodeId>(id % 3));
  EXPECT_THROW(rt.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) {
                 if (ctx.id() == 4) throw std::runtime_error("object 4 failed");
               }),
               std::runtime_error);
  ObjectRuntime<Cell, std::uint64_t> again(threads_options("greedy", 2));
  again.add(0, Cell{}, 0);
  try {
    again.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) { ctx.send(99, 1); });
    FAIL() << "a message to no object";
  } catch (const dlbkit::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no object 99"), std::string::npos) << e.what();
  }
}

TEST(ObjectRuntime, BadUseIsAClearError) {
  EXPECT_NE(error_of([] { ObjectRuntime<Cell, int> rt(threads_options("nope", 2)); }).find("nope"), std::string::npos);
  ObjectRuntimeOptions wrong_size = threads_options("diffusion", 3);
  wrong_size.topology = "ring:4";
  EXPECT_NE(error_of([&] { ObjectRuntime<Cell, int> rt(wrong_size); }).find("3 workers"), std::string::npos);
  ObjectRuntime<Cell, int> elsewhere(threads_options("greedy", 2));
  elsewhere.add(1, Cell{}, 2);  // the first phase's error, on every rank (object_changes_test.cpp)
  EXPECT_NE(error_of([&] { elsewhere.run_phase([](Cell&, ObjectContext<int>&) {}); }).find("worker 2"),
            std::string::npos);
  ObjectRuntime<Cell, int> rt(threads_options("greedy", 2));
  EXPECT_NE(error_of([&] { rt.balance(); }).find("before any phase"), std::string::npos);
  rt.add(1, Cell{}, 0);
  rt.add(1, Cell{}, 1);
  EXPECT_NE(error_of([&] { rt.run_phase([](Cell&, ObjectContext<int>&) {}); }).find("object 1 added twice"),
            std::string::npos);
  ObjectRuntime<Cell, int> late(threads_options("greedy", 2));
  late.add(1, Cell{}, 0);
  late.run_phase([](Cell&, ObjectContext<int>&) {});
  late.add(2, Cell{}, 0);  // after the first phase: from the next on (object_changes_test.cpp)
  EXPECT_NE(error_of([&] {
              late.run_phase([](Cell&, ObjectContext<int>& ctx) { ctx.set_load(std::nan("")); });
            }).find("set_load(nan)"),
            std::string::npos);
}

TEST(ObjectRuntimeOptions, ReadsItsOwnAndTheProgramsOptions) {
  std::uint32_t n = 0;
  const char* argv[] = {"p", "--strategy", "tempered", "--every=3", "--threshold", "0.2", "--n", "7",
                        "--record", "r", "--work-model", "beta=1e-9", "--quiet"};
  const auto o = ObjectRuntimeOptions::parse(std::size(argv), argv, {{"--n", n, 1, 10}});
  EXPECT_EQ(o.strategy, "tempered");
  EXPECT_EQ(o.every, 3u);
  EXPECT_DOUBLE_EQ(o.threshold, 0.2);
  EXPECT_EQ(o.record, "r");
  EXPECT_EQ(o.work_model, "beta=1e-9");
  EXPECT_TRUE(o.quiet);
  EXPECT_EQ(n, 7u);
  for (const auto& [bad, says] : std::vector<std::pair<std::vector<const char*>, std::string>>{
           {{"p", "--threshold", "-1"}, "--threshold '-1'"},
           {{"p", "--threshold", "nan"}, "--threshold 'nan'"},
           {{"p", "--every", "x"}, "--every"},
           {{"p", "--record", ""}, "empty value"},
           {{"p", "--engine", "gpu"}, "--engine 'gpu'"},
           {{"p", "--load-model", "crystal"}, "--load-model 'crystal'"},
           {{"p", "--load-window", "1"}, "--load-window '1'"},
           {{"p", "--bogus"}, "unknown option '--bogus'"}}) {
    const std::string e = error_of([&, bad = bad] { ObjectRuntimeOptions::parse(static_cast<int>(bad.size()), bad.data()); });
    EXPECT_NE(e.find(says), std::string::npos) << e;
  }
}

TEST(ObjectRuntimeOptions, ReadsSignedRealAndPositionalArgumentsAndListsItsOptionsForHelp) {
  int shift = 0;
  double weight = 1;
  std::uint32_t phases = 10;
  const std::vector<dlbkit::ProgramOption> program = {{"--shift", shift, -5, 5},
                                                      {"--weight", weight, "the hot blocks' weight"},
                                                      dlbkit::ProgramOption::positional("PHASES", phases, 1, 1000)};
  const char* argv[] = {"stencil", "--shift", "-5", "40", "--weight=2.5", "--every", "2"};
  EXPECT_EQ(ObjectRuntimeOptions::parse(std::size(argv), argv, program).every, 2u);
  EXPECT_EQ(shift, -5);
  EXPECT_EQ(weight, 2.5);
  EXPECT_EQ(phases, 40u);
  const char* extra[] = {"stencil", "40", "41"};
  EXPECT_EQ(error_of([&] { ObjectRuntimeOptions::parse(std::size(extra), extra, program); }),
            "unexpected argument '41'; accepted: at most 1 beside the options: PHASES");
  const char* help[] = {"/usr/bin/stencil", "-h"};
  std::string usage;
  try {
    ObjectRuntimeOptions::parse(std::size(help), help, program);
  } catch (const dlbkit::HelpRequested& h) {
    usage = h.what();
  }
  for (const char* part : {"usage: stencil [options] [PHASES]\narguments:\n", "PHASES ",
                           "an integer from 1 to 1000 (default 10)\n", "--weight X ",
                           "the hot blocks' weight: a finite number (default 1)\n", "\ndlbkit's options:\n",
                           "a name of `dlbkit list phase-strategies`, or none (default refine)\n", "--every K ",
                           "(default 1)\n", "--threshold I ", "(default inf)\n", "--load-window N ", "(default 5)\n",
                           "--record STEM ", "-h, --help "})
    EXPECT_NE(usage.find(part), std::string::npos) << part << "\nin\n" << usage;
  EXPECT_EQ(usage.find("--check-tasks"), std::string::npos) << usage;  // Runtime's, not ObjectRuntime's
}

TEST(ObjectRuntime, RecordsVtDataAndATimeline) {
  const std::filesystem::path dir = dlbkit::test::temp_dir("objects_record");
  std::filesystem::create_directories(dir);
  ObjectRuntimeOptions o = threads_options("greedy", 2);
  o.record = (dir / "run").string();
  o.timeline = (dir / "timeline.json").string();
  {
    ObjectRuntime<Cell, std::uint64_t> rt(o);
    for (std::uint64_t id = 0; id < kObjects; ++id) rt.add(id, Cell{id, {}}, 0);
    for (int k = 0; k < 3; ++k) rt.run_phase(ring_phase);
    rt.finish();
  }
  const dlbkit::VtDataSet data = dlbkit::read_vt_data(o.record);
  ASSERT_EQ(data.ranks, 2u);
  ASSERT_EQ(data.phases.size(), 3u);
  const dlbkit::Phase& first = data.phases[0].phase;
  EXPECT_EQ(first.objects.size(), kObjects);
  for (std::size_t i = 0; i < first.objects.size(); ++i) {
    EXPECT_EQ(first.node_of[i], 0u);  // all started on worker 0
    EXPECT_DOUBLE_EQ(first.objects[i].load, first.objects[i].id < kObjects / 4 ? 1.0 : 0.1);
  }
  EXPECT_EQ(first.communications.size(), kObjects);  // the ring's messages, one per pair
  for (const dlbkit::ObjectCommunication& c : first.communications) EXPECT_EQ(c.messages, 1.0);
  std::size_t on_one = 0;
  for (dlbkit::NodeId n : data.phases[1].phase.node_of) on_one += n == 1;
  EXPECT_GT(on_one, 0u) << "phase 1 ran after a balancing step";
  std::ifstream in(o.timeline);
  const auto timeline = nlohmann::json::parse(in);
  std::size_t busy = 0, arrows = 0;
  for (const auto& e : timeline["traceEvents"]) {
    busy += e.value("name", "") == "busy";
    arrows += e.value("ph", "") == "s";
  }
  EXPECT_EQ(busy, 6u);  // a span per worker per phase
  EXPECT_GT(arrows, 0u);
  std::filesystem::remove_all(dir);
}

// The record goes to disk as each phase ends (into temporaries that finish() puts in place),
// not held in memory until finish().
TEST(ObjectRuntime, RecordsEachPhaseAsItEnds) {
  const std::filesystem::path dir = dlbkit::test::temp_dir("objects_streamed");
  std::filesystem::create_directories(dir);
  ObjectRuntimeOptions o = threads_options("greedy", 2);
  o.record = (dir / "run").string();
  const auto written = [&] {
    std::uintmax_t bytes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) bytes += entry.file_size();
    return bytes;
  };
  constexpr std::uint64_t kMany = 1000;  // a phase's text (about 300 KB) far beyond a file's buffer
  ObjectRuntime<Cell, std::uint64_t> rt(o);
  for (std::uint64_t id = 0; id < kMany; ++id) rt.add(id, Cell{id, {}}, 0);
  std::vector<std::uintmax_t> sizes;
  for (int k = 0; k < 3; ++k) {
    rt.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) {
      ctx.send((ctx.id() + 1) % kMany, 1);
      ctx.set_load(ctx.id() < kMany / 4 ? 1.0 : 0.1);
    });
    sizes.push_back(written());
  }
  EXPECT_FALSE(std::filesystem::exists(o.record + ".0.json")) << "in place only at finish()";
  EXPECT_GT(sizes[0], 100000u);
  EXPECT_GT(sizes[1], sizes[0] + 100000);
  EXPECT_GT(sizes[2], sizes[1] + 100000);
  rt.finish();
  EXPECT_EQ(dlbkit::read_vt_data(o.record).phases.size(), 3u);
  std::filesystem::remove_all(dir);
}

TEST(ObjectRuntime, RecordsEachObjectsSerializedSize) {
  // What a migration would ship, so that a replay prices the recorded moves by their bytes:
  // the object and the messages it has not read yet (here one uint64 from the object before).
  const std::filesystem::path dir = dlbkit::test::temp_dir("objects_sizes");
  std::filesystem::create_directories(dir);
  ObjectRuntimeOptions o = threads_options("none", 2);
  o.record = (dir / "run").string();
  const auto cell = [](std::uint64_t k) { return Cell{k, std::vector<std::uint64_t>(100 * k, k)}; };
  {
    ObjectRuntime<Cell, std::uint64_t> rt(o);
    for (std::uint64_t id = 0; id < 3; ++id) rt.add(id, cell(id), id % 2);
    rt.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) { ctx.send((ctx.id() + 1) % 3, ctx.id()); });
    rt.finish();
  }
  const dlbkit::VtDataSet data = dlbkit::read_vt_data(o.record);
  ASSERT_EQ(data.phases.size(), 1u);
  EXPECT_FALSE(data.phases[0].phase.has_memory);  // sizes are what a move ships, not memory held
  // A move's framing: the object's index (4 bytes), id, size and message count, and the
  // message's sender and size (8 each).
  constexpr std::size_t framing = 4 + 8 + 8 + 8 + 8 + 8;
  std::vector<std::byte> bytes;
  for (const dlbkit::PhaseObject& object : data.phases[0].phase.objects) {
    dlbkit::to_bytes(cell(object.id), bytes);
    EXPECT_EQ(object.memory.serialized_bytes, static_cast<double>(bytes.size() + sizeof(std::uint64_t) + framing))
        << object.id;
    EXPECT_GT(object.memory.serialize_seconds, 0) << object.id;    // the time to pack them
    EXPECT_GT(object.memory.deserialize_seconds, 0) << object.id;  // and to unpack them
  }
  std::filesystem::remove_all(dir);
}

// Threads deliver a message by moving it: their record prices no packing. (Under MPI the
// record does: test example_particles_mpi_record_costs.)
TEST(ObjectRuntime, ARecordOnThreadsPricesNoPacking) {
  const std::filesystem::path dir = dlbkit::test::temp_dir("objects_packing");
  std::filesystem::create_directories(dir);
  ObjectRuntimeOptions o = threads_options("none", 2);
  o.record = (dir / "run").string();
  {
    ObjectRuntime<Cell, std::vector<std::uint64_t>> rt(o);
    for (std::uint64_t id = 0; id < 4; ++id) rt.add(id, Cell{}, id % 2);
    rt.run_phase([](Cell&, ObjectContext<std::vector<std::uint64_t>>& ctx) {
      ctx.send((ctx.id() + 1) % 4, std::vector<std::uint64_t>(1000, ctx.id()));
    });
    rt.finish();
  }
  const dlbkit::Phase phase = dlbkit::read_vt_data(o.record).phases.at(0).phase;
  EXPECT_EQ(phase.communications.size(), 4u);
  EXPECT_EQ(phase.message_serialize_seconds_per_byte, 0);
  EXPECT_EQ(phase.message_deserialize_seconds_per_byte, 0);
  std::filesystem::remove_all(dir);
}

TEST(ObjectRuntime, RecordsOneCommunicationPerPair) {
  const std::filesystem::path dir = dlbkit::test::temp_dir("objects_pairs");
  std::filesystem::create_directories(dir);
  ObjectRuntimeOptions o = threads_options("none", 2);
  o.record = (dir / "run").string();
  {
    ObjectRuntime<Cell, std::uint64_t> rt(o);
    rt.add(0, Cell{}, 0);
    rt.add(1, Cell{}, 1);
    rt.run_phase([](Cell&, ObjectContext<std::uint64_t>& ctx) {
      if (ctx.id() == 0)
        for (std::uint64_t k = 0; k < 3; ++k) ctx.send(1, k);
    });
    rt.finish();
  }
  const dlbkit::VtDataSet data = dlbkit::read_vt_data(o.record);
  ASSERT_EQ(data.phases.size(), 1u);
  const auto& communications = data.phases[0].phase.communications;
  ASSERT_EQ(communications.size(), 1u);
  EXPECT_EQ(communications[0].messages, 3.0);
  EXPECT_EQ(communications[0].bytes, 3.0 * sizeof(std::uint64_t));
  std::filesystem::remove_all(dir);
}

}  // namespace
