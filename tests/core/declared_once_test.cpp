// A component declared once: Params read through the specs they list, and the registry entry
// strategy_info<S>() makes from a class.

#include <dlbkit/core/parameters.hpp>
#include <dlbkit/core/registry.hpp>

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

using namespace dlbkit;

namespace {

constexpr RealParam kRate{.name = "rate", .default_value = "auto", .description = "a rate", .min = 0, .max = 1,
                          .allow_auto = true};
constexpr IntegerParam kCount{.name = "count", .default_value = "3", .description = "a count", .min = 1};
constexpr DurationParam kPeriod{.name = "period", .default_value = "2ms", .description = "a period"};
constexpr BooleanParam kFlag{.name = "flag", .default_value = "false", .description = "a flag"};
constexpr ChoiceParam kMode{.name = "mode", .default_value = "push", .description = "a mode",
                            .choices = {"push", "pull"}};

TEST(Param, IsTheParamSpecItDeclares) {
  const ParamSpec spec = kMode;
  EXPECT_EQ(spec.name, "mode");
  EXPECT_EQ(spec.type, ParamType::choice);
  EXPECT_EQ(spec.default_value, "push");
  EXPECT_EQ(spec.description, "a mode");
  EXPECT_EQ(spec.choices, (std::vector<std::string>{"push", "pull"}));
  const ParamSpec rate = kRate;
  EXPECT_EQ(rate.type, ParamType::real);
  EXPECT_EQ(rate.min, 0);
  EXPECT_EQ(rate.max, 1);
  EXPECT_TRUE(rate.allow_auto);
  EXPECT_TRUE(rate.choices.empty());
}

TEST(Param, ReadsItsValueByItsType) {
  const std::vector<ParamSpec> specs{kRate, kCount, kPeriod, kFlag, kMode};
  const Parameters given = Parameters::parse(specs, {{"rate", "0.25"}, {"flag", "true"}, {"mode", "pull"}}, "test");
  EXPECT_EQ(given[kRate], 0.25);
  EXPECT_FALSE(given.is_auto(kRate));
  EXPECT_EQ(given[kCount], 3);
  EXPECT_EQ(given[kPeriod], 2'000'000);
  EXPECT_TRUE(given[kFlag]);
  EXPECT_EQ(given[kMode], "pull");
  EXPECT_EQ(given[kMode], kMode.choice("pull"));  // kMode.choice("pushed") would not compile
  const Parameters defaults = Parameters::parse(specs, {}, "test");
  EXPECT_TRUE(defaults.is_auto(kRate));
  EXPECT_FALSE(defaults[kFlag]);
  EXPECT_EQ(defaults[kMode], "push");
}

class Declared final : public Strategy {
public:
  static constexpr const char* name = "declared";
  static constexpr const char* description = "a strategy declared in static members";
  static constexpr const char* source = "this test";
  static std::vector<ParamSpec> params() { return {kCount}; }
  static void check_topology(const Topology&) {}
  static constexpr bool checks_messages = false;
  enum Kind : std::uint16_t { kAsk, kAnswer, kKinds };
  static constexpr std::array<const char*, kKinds> message_kinds{"ask", "answer"};

  explicit Declared(const Parameters& p) : count(p[kCount]) {}
  long long count;
};

TEST(StrategyInfoOfAClass, TakesEverythingFromTheClass) {
  const StrategyInfo info = strategy_info<Declared>();
  EXPECT_EQ(info.name, "declared");
  EXPECT_EQ(info.description, "a strategy declared in static members");
  EXPECT_EQ(info.source, "this test");
  ASSERT_EQ(info.params.size(), 1u);
  EXPECT_EQ(info.params[0].name, "count");
  EXPECT_EQ(info.message_kinds, (std::vector<std::string>{"ask", "answer"}));
  EXPECT_TRUE(info.check_topology);
  EXPECT_FALSE(info.checks_messages);
  // create() and in_place build the same class from the same parameters.
  const Parameters p = Parameters::parse(info.params, {{"count", "7"}}, "test");
  const std::unique_ptr<Strategy> made = info.create(p);
  ASSERT_NE(dynamic_cast<Declared*>(made.get()), nullptr);
  EXPECT_EQ(dynamic_cast<Declared&>(*made).count, 7);
  EXPECT_EQ(info.in_place.size, sizeof(Declared));
  EXPECT_EQ(info.in_place.align, alignof(Declared));
  alignas(Declared) unsigned char storage[sizeof(Declared)];
  Strategy* built = info.in_place.construct(storage, p);
  ASSERT_NE(dynamic_cast<Declared*>(built), nullptr);
  EXPECT_EQ(dynamic_cast<Declared&>(*built).count, 7);
  built->~Strategy();
}

class Bare final : public Strategy {
public:
  static constexpr const char* name = "bare";
  static constexpr const char* description = "no parameters, no messages";
  static constexpr const char* source = "this test";
  explicit Bare(const Parameters&) {}
};

TEST(StrategyInfoOfAClass, LeavesWhatTheClassDoesNotDeclareAtItsDefault) {
  const StrategyInfo info = strategy_info<Bare>();
  EXPECT_TRUE(info.params.empty());
  EXPECT_TRUE(info.message_kinds.empty());
  EXPECT_FALSE(info.check_topology);
  EXPECT_TRUE(info.checks_messages);
  EXPECT_NE(info.in_place.construct, nullptr);
}

}  // namespace
