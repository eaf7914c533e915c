#include <dlbkit/core/message.hpp>
#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/random.hpp>
#include <dlbkit/core/time.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/strategies/builtin_strategies.hpp>

#include <cmath>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

using namespace dlbkit;

namespace {

std::string error_of(auto&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

const std::vector<ParamSpec> kSpecs = {
    {.name = "count", .type = ParamType::integer, .default_value = "3", .min = 1, .max = 10},
    {.name = "rate", .type = ParamType::real, .default_value = "0.5", .min = 0, .allow_inf = true},
    {.name = "level", .type = ParamType::real, .default_value = "auto", .allow_auto = true},
    {.name = "delay", .type = ParamType::duration, .default_value = "25ms", .min = 0},
    {.name = "on", .type = ParamType::boolean, .default_value = "false"},
    {.name = "mode", .type = ParamType::choice, .default_value = "sender", .choices = {"sender", "receiver"}},
};

}  // namespace

TEST(Parameters, DefaultsAndGivenValues) {
  const Parameters p = Parameters::parse(kSpecs, {{"count", "7"}, {"rate", "inf"}, {"mode", "receiver"}}, "test");
  EXPECT_EQ(p.integer("count"), 7);
  EXPECT_TRUE(std::isinf(p.real("rate")));
  EXPECT_TRUE(p.is_auto("level"));
  EXPECT_EQ(p.duration("delay"), 25 * kMillisecond);
  EXPECT_FALSE(p.boolean("on"));
  EXPECT_EQ(p.text("mode"), "receiver");
  EXPECT_EQ(p.to_json()["count"], 7);
  EXPECT_EQ(p.to_json()["rate"], "inf");
  EXPECT_EQ(p.to_string(), "count=7 rate=inf level=auto delay=25ms on=false mode=receiver");
}

TEST(Parameters, AutoOnlyWhereTheSpecAllowsIt) {
  // A text value that happens to read "auto" is text (found by fuzz_parameters: "tree=auto").
  const std::vector<ParamSpec> specs = {{.name = "tree", .type = ParamType::text, .default_value = "auto"}};
  const Parameters p = Parameters::parse(specs, {}, "test");
  EXPECT_FALSE(p.is_auto("tree"));
  EXPECT_EQ(p.text("tree"), "auto");
}

TEST(Parameters, UnknownNameListsTheAcceptedOnes) {
  const std::string e = error_of([] { Parameters::parse(kSpecs, {{"cuont", "1"}}, "strategy x"); });
  EXPECT_NE(e.find("strategy x: unknown parameter 'cuont'"), std::string::npos) << e;
  EXPECT_NE(e.find("count, rate, level, delay, on, mode"), std::string::npos) << e;
}

TEST(Parameters, BadValuesNameTheValueAndTheRange) {
  for (auto [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"count", "0"}, {"count", "11"}, {"count", "2.5"}, {"count", "3x"}, {"rate", "-1"}, {"rate", "nan"},
           {"level", "high"}, {"delay", "-5ms"}, {"delay", "5 parsecs"}, {"on", "yes"}, {"mode", "both"}}) {
    // Init-captures: Clang 14 cannot capture structured bindings.
    const std::string e =
        error_of([&, name = name, value = value] { Parameters::parse(kSpecs, {{name, value}}, "test"); });
    EXPECT_NE(e.find(name + "=" + value), std::string::npos) << name << "=" << value << ": " << e;
    EXPECT_NE(e.find("accepted"), std::string::npos) << e;
  }
  EXPECT_NE(error_of([] { Parameters::parse(kSpecs, {{"count", "0"}}, "test"); }).find("in [1, 10]"), std::string::npos);
}

TEST(Parameters, SplitAssignment) {
  EXPECT_EQ(split_assignment("u=0.9", "-p"), (std::pair<std::string, std::string>{"u", "0.9"}));
  EXPECT_FALSE(error_of([] { split_assignment("u", "-p"); }).empty());
  EXPECT_FALSE(error_of([] { split_assignment("=3", "-p"); }).empty());
}

TEST(Time, ParsesAndFormatsDurations) {
  EXPECT_EQ(parse_duration("1.3us", "x"), 1300);
  EXPECT_EQ(parse_duration("350us", "x"), 350 * kMicrosecond);
  EXPECT_EQ(parse_duration("25ms", "x"), 25 * kMillisecond);
  EXPECT_EQ(parse_duration("0.5s", "x"), kSecond / 2);
  EXPECT_EQ(parse_duration("0", "x"), 0);
  for (const char* bad : {"", "5", "-1us", "1e400s", "3 ms", "ms"})
    EXPECT_NE(error_of([&] { parse_duration(bad, "latency"); }).find("latency"), std::string::npos) << bad;
  EXPECT_EQ(format_duration(350 * kMicrosecond), "350us");
  EXPECT_EQ(format_duration(1300), "1.3us");
  EXPECT_EQ(format_duration(66 * kSecond), "66s");
}

TEST(Time, FractionalDurationsKeepTheFraction) {
  EXPECT_DOUBLE_EQ(parse_fractional_duration("6.3ns", "x"), 6.3);
  EXPECT_DOUBLE_EQ(parse_fractional_duration("6.25ns", "x"), 6.25);
  EXPECT_DOUBLE_EQ(parse_fractional_duration("1.3us", "x"), 1300);
  EXPECT_DOUBLE_EQ(parse_fractional_duration("0", "x"), 0);
  for (const char* bad : {"", "5", "6.3", "-1ns", "abc", "1e400s", "2e6s", "3 ms"})
    EXPECT_NE(error_of([&] { parse_fractional_duration(bad, "step_time"); }).find("step_time"), std::string::npos) << bad;
  EXPECT_FALSE(error_of([] { parse_duration("6.3ns", "x"); }).empty());  // whole ns only there
  // A task's work: the product, rounded; whole times multiply exactly, overflow is empty.
  EXPECT_EQ(units_work(5, 6), 30);
  EXPECT_EQ(units_work(3, 6.3), 19);  // 18.9
  EXPECT_EQ(units_work(1000, 6.25), 6250);
  EXPECT_EQ(units_work(3'000'000'000'000'000'001ULL, 3), 9'000'000'000'000'000'003LL);  // beyond double's 2^53
  EXPECT_FALSE(units_work(10'000'000'000'000ULL, 1e6));
  EXPECT_FALSE(units_work(10'000'000'000'000ULL, 1e6 + 0.5));
}

TEST(Message, CarriesATriviallyCopyableBody) {
  struct Body {
    std::int64_t a;
    double b;
    std::uint32_t c;
  };
  const Message m = Message::make(3, Body{-7, 2.5, 9});
  EXPECT_EQ(m.kind, 3);
  const Body back = m.as<Body>();
  EXPECT_EQ(back.a, -7);
  EXPECT_EQ(back.b, 2.5);
  EXPECT_EQ(back.c, 9u);
}

TEST(Rng, StreamsAreReproducibleAndDistinct) {
  Rng a(42, 1), b(42, 1), c(42, 2), d(43, 1);
  std::set<std::uint64_t> firsts;
  for (int i = 0; i < 100; ++i) {
    const std::uint64_t x = a.next();
    EXPECT_EQ(x, b.next());
    firsts.insert(x);
  }
  EXPECT_EQ(firsts.size(), 100u);
  EXPECT_NE(c.next(), Rng(42, 1).next());
  EXPECT_NE(d.next(), Rng(42, 1).next());
}

TEST(Rng, UniformAndExponentialHaveTheirMeans) {
  Rng r(7);
  double su = 0, se = 0;
  const int n = 200000;
  for (int i = 0; i < n; ++i) {
    const double u = r.uniform_open();
    ASSERT_GT(u, 0.0);
    ASSERT_LT(u, 1.0);
    su += u;
    se += r.exponential(4.0);
    ASSERT_LT(r.below(10), 10u);
  }
  EXPECT_NEAR(su / n, 0.5, 0.005);
  EXPECT_NEAR(se / n, 0.25, 0.005);
}

TEST(Registry, UnknownStrategyListsTheKnownOnes) {
  const std::string e = error_of([] { builtin_strategies().find("ridd"); });
  EXPECT_NE(e.find("unknown strategy 'ridd'"), std::string::npos) << e;
  EXPECT_NE(e.find("none"), std::string::npos) << e;
  EXPECT_NE(e.find("rid"), std::string::npos) << e;
}

TEST(Registry, EveryBuiltinStrategyHasDefaultsThatParse) {
  for (const StrategyInfo& info : builtin_strategies().all()) {
    EXPECT_FALSE(info.description.empty()) << info.name;
    EXPECT_FALSE(info.source.empty()) << info.name;
    const StrategyChoice choice = builtin_strategies().configure(info.name, {});
    EXPECT_NE(choice.create(), nullptr) << info.name;
  }
}
