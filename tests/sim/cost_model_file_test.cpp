// Cost models from JSON files (--cost file:PATH): every preset survives the round trip,
// and a file with an unknown, missing or bad field is refused with a message naming it.

#include <dlbkit/error.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

std::string write_file(const std::string& name, const std::string& text) {
  const auto path = std::filesystem::temp_directory_path() / ("dlbkit_cost_model_file_test_" + name + ".json");
  std::ofstream(path) << text;
  return path.string();
}

void expect_same(const CostModel& a, const CostModel& b) {
  EXPECT_EQ(a.to_json(), b.to_json());
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.loop_time, b.loop_time);
  EXPECT_EQ(a.poll_interval, b.poll_interval);
  EXPECT_EQ(a.poll_cost, b.poll_cost);
  EXPECT_EQ(a.send_overhead, b.send_overhead);
  EXPECT_EQ(a.handle_cost, b.handle_cost);
  EXPECT_EQ(a.latency, b.latency);
  EXPECT_EQ(a.per_hop, b.per_hop);
  EXPECT_EQ(a.per_task, b.per_task);
  EXPECT_EQ(a.per_byte, b.per_byte);
  EXPECT_EQ(a.tasks_per_message, b.tasks_per_message);
  EXPECT_EQ(a.transfer, b.transfer);
  EXPECT_EQ(a.checks, b.checks);
  EXPECT_EQ(a.mail, b.mail);
  EXPECT_EQ(a.workload_params, b.workload_params);
}

TEST(CostModelFile, EveryPresetRoundTrips) {
  for (const auto& preset : cost_model_presets()) {
    const CostModel original = make_cost_model(preset.name);
    const std::string path = write_file(preset.name, original.to_json().dump(2));
    SCOPED_TRACE(preset.name);
    expect_same(make_cost_model("file:" + path), original);
  }
}

TEST(CostModelFile, OddNanosecondsRoundTrip) {
  CostModel odd = make_cost_model("ipsc2", {{"latency", "1234567ns"}, {"per_task", "3ns"}, {"tasks_per_message", "7"}});
  odd.name = "odd";
  expect_same(make_cost_model("file:" + write_file("odd", odd.to_json().dump())), odd);
}

TEST(CostModelFile, ChecksAndWorkloadParamsRoundTrip) {
  CostModel c = make_cost_model("ideal", {{"checks", "engines"}, {"mail", "check_points"}});
  EXPECT_EQ(c.checks, Checks::engines);
  EXPECT_EQ(c.mail, Mail::check_points);
  c.workload_params["uts"]["node_time"] = "66.6ns";
  const CostModel back = make_cost_model("file:" + write_file("measured", c.to_json().dump()));
  expect_same(back, c);
  EXPECT_EQ(back.workload_params.at("uts").at("node_time"), "66.6ns");
}

TEST(CostModelFile, AFileWithoutChecksLooksAtEachEvent) {  // files written before the fields existed
  nlohmann::json j = make_cost_model("ipsc2").to_json();
  j.erase("checks");
  j.erase("mail");
  j.erase("per_byte");
  const CostModel c = make_cost_model("file:" + write_file("nochecks", j.dump()));
  EXPECT_EQ(c.checks, Checks::each_event);
  EXPECT_EQ(c.mail, Mail::each_task);
  EXPECT_EQ(c.per_byte, 0.0);
}

TEST(CostModelFile, AFractionalPerByteRoundTrips) {
  CostModel c = make_cost_model("ideal", {{"per_byte", "0.37ns"}});
  EXPECT_DOUBLE_EQ(c.per_byte, 0.37);
  expect_same(make_cost_model("file:" + write_file("per_byte", c.to_json().dump())), c);
  EXPECT_THROW(make_cost_model("ideal", {{"per_byte", "-1ns"}}), InputError);
}

// The plan API's terms (phases/protocol_meter.hpp), written only when set, as calibrate writes them.
TEST(CostModelFile, ThePlanApisTermsRoundTrip) {
  const CostModel c = make_cost_model("ideal", {{"protocol_round", "874ns"}, {"protocol_step", "3.8us"},
                                                {"protocol_object", "51.5ns"}, {"protocol_compute", "1"}});
  EXPECT_DOUBLE_EQ(c.protocol_object, 51.5);
  EXPECT_EQ(c.protocol_compute, 1.0);
  const CostModel back = make_cost_model("file:" + write_file("plan_api", c.to_json().dump()));
  expect_same(back, c);
  EXPECT_EQ(back.protocol_round, 874);
  EXPECT_DOUBLE_EQ(back.protocol_object, 51.5);
  EXPECT_EQ(back.protocol_compute, 1.0);
  EXPECT_FALSE(make_cost_model("ideal").to_json().contains("protocol_compute"));
  EXPECT_THROW(make_cost_model("ideal", {{"protocol_compute", "-1"}}), InputError);
  EXPECT_THROW(make_cost_model("ideal", {{"protocol_compute", "nan"}}), InputError);
  EXPECT_THROW(make_cost_model("ideal", {{"protocol_object", ""}}), InputError);
}

TEST(CostModelFile, OverridesApplyOnTopOfTheFile) {
  const std::string path = write_file("over", make_cost_model("ipsc2").to_json().dump());
  const CostModel c = make_cost_model("file:" + path, {{"latency", "5us"}});
  EXPECT_EQ(c.latency, 5 * kMicrosecond);
  EXPECT_EQ(c.send_overhead, make_cost_model("ipsc2").send_overhead);
}

TEST(CostModelFile, TheCalibrationObjectIsNotRead) {
  nlohmann::json j = make_cost_model("meiko-cs1").to_json();
  j["calibration"] = {{"engine", "threads"}, {"anything", 1}};
  expect_same(make_cost_model("file:" + write_file("calib", j.dump())), make_cost_model("meiko-cs1"));
}

// The InputError's message for --cost `preset`, or "" when none was thrown.
std::string refusal_of(const std::string& preset) {
  try {
    make_cost_model(preset);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

std::string refusal_of_text(const std::string& text, const std::string& name) {
  return refusal_of("file:" + write_file(name, text));
}

std::string refusal(const nlohmann::json& j, const std::string& name) { return refusal_of_text(j.dump(), name); }

TEST(CostModelFile, BadFilesAreRefusedNamingTheField) {
  const nlohmann::json good = make_cost_model("ipsc2").to_json();
  nlohmann::json j = good;
  j["speed_of_light"] = "1us";
  EXPECT_NE(refusal(j, "unknown").find("speed_of_light"), std::string::npos);
  j = good;
  j.erase("per_task");
  EXPECT_NE(refusal(j, "missing").find("missing field per_task"), std::string::npos);
  j = good;
  j.erase("name");
  EXPECT_NE(refusal(j, "noname").find("name"), std::string::npos);
  j = good;
  j["latency"] = "-5us";
  EXPECT_NE(refusal(j, "negative").find("latency"), std::string::npos);
  j = good;
  j["latency"] = "nanus";
  EXPECT_NE(refusal(j, "nan").find("latency"), std::string::npos);
  j = good;
  j["latency"] = 1.5;
  EXPECT_NE(refusal(j, "float").find("latency"), std::string::npos);
  j = good;
  j["latency"] = "";
  EXPECT_NE(refusal(j, "empty").find("latency"), std::string::npos);
  j = good;
  j["tasks_per_message"] = 0;
  EXPECT_NE(refusal(j, "zero").find("tasks_per_message"), std::string::npos);
  j = good;
  j["transfer"] = "teleport";
  EXPECT_NE(refusal(j, "choice").find("transfer"), std::string::npos);
  j = good;
  j["checks"] = "sometimes";
  EXPECT_NE(refusal(j, "checks").find("checks"), std::string::npos);
  j["checks"] = "engines";
  j["mail"] = "";
  EXPECT_NE(refusal(j, "mail").find("mail"), std::string::npos);
  for (const nlohmann::json& bad : {nlohmann::json("uts"), nlohmann::json{{"uts", "fast"}},
                                    nlohmann::json{{"uts", nlohmann::json::object()}},
                                    nlohmann::json{{"uts", {{"node_time", 66}}}}, nlohmann::json{{"uts", {{"node_time", ""}}}}}) {
    j = good;
    j["workload_params"] = bad;
    EXPECT_NE(refusal(j, "workloadparams").find("workload_params"), std::string::npos) << bad.dump();
  }
  EXPECT_NE(refusal(nlohmann::json::array(), "array").find("not a JSON object"), std::string::npos);
  EXPECT_THROW(make_cost_model("file:" + write_file("broken", "{\"name\": ")), InputError);
  EXPECT_THROW(make_cost_model("file:/nonexistent/dlbkit/cost.json"), InputError);
  EXPECT_THROW(make_cost_model("file:"), InputError);
}

TEST(CostModelFile, DeepOrHugeValuesAreRefusedInAShortLine) {
  const std::string good = make_cost_model("ipsc2").to_json().dump();
  const std::string deep = "{\"latency\": " + std::string(100'000, '[') + std::string(100'000, ']') + "}";
  std::string message = refusal_of_text(deep, "deep");  // crashed: the message dumped the value recursively
  EXPECT_NE(message.find("nested more than 64 deep"), std::string::npos);
  EXPECT_LT(message.size(), 300u);
  nlohmann::json j = nlohmann::json::parse(good);
  j["latency"] = std::vector<int>(100'000, 7);
  message = refusal(j, "wide");
  EXPECT_NE(message.find("field latency is an array"), std::string::npos);
  EXPECT_LT(message.size(), 300u);
  j["latency"] = std::string(10'000, 'x');
  EXPECT_LT(refusal(j, "long").size(), 300u);
  const std::string twice = good.substr(0, good.size() - 1) + ",\"latency\": \"1us\"}";
  EXPECT_NE(refusal_of_text(twice, "twice").find("the key \"latency\" appears twice"), std::string::npos);
  const std::string huge = "{\"calibration\": [" + std::string(2 << 20, ' ') + "]}";
  EXPECT_NE(refusal_of_text(huge, "huge").find("larger than 1048576 bytes"), std::string::npos);
}

TEST(CostModelFile, ADirectoryOrDeviceIsNamedAsSuch) {
  const std::string dir = std::filesystem::temp_directory_path().string();
  EXPECT_NE(refusal_of("file:" + dir).find(dir + ": a directory"), std::string::npos);  // said "not JSON"
  EXPECT_NE(refusal_of("file:/dev/zero").find("/dev/zero: a device"), std::string::npos);  // read until memory ran out
}

}  // namespace
}  // namespace dlbkit
