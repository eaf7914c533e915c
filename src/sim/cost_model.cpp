#include <dlbkit/error.hpp>
#include <dlbkit/io/input_file.hpp>
#include <dlbkit/io/json_input.hpp>
#include <dlbkit/sim/cost_model.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace dlbkit {

namespace {

struct Field {
  const char* name;
  SimTime CostModel::*member;
  const char* description;
};

// The duration fields, in the order they are printed.
constexpr Field kFields[] = {
    {"loop_time", &CostModel::loop_time, "time of one loop of the artificial busy loops"},
    {"poll_interval", &CostModel::poll_interval, "task execution between two message checks (0: on arrival)"},
    {"poll_cost", &CostModel::poll_cost,
     "processor time of each message check while a task runs, for strategies that check (needs poll_interval > 0)"},
    {"send_overhead", &CostModel::send_overhead, "sender's processor time per message"},
    {"handle_cost", &CostModel::handle_cost, "receiver's processor time per message"},
    {"latency", &CostModel::latency, "network time of a message to a neighbour"},
    {"per_hop", &CostModel::per_hop, "network time for each further hop"},
    {"per_task", &CostModel::per_task, "network time per task carried by a message"},
};

// The fields beside the durations. per_byte is optional in a cost model file (files written
// before it existed lack it): 0.
constexpr DurationParam kPerByte{.name = "per_byte", .default_value = "0",
    .description = "network time per byte of a message between objects (a fraction of a nanosecond allowed)",
    .min = 0, .max = 1e15, .fractional = true};
// The MPI plan API's own costs (phases/protocol_meter.hpp): optional in a file, and written
// only when set, so that a model without them prints as before.
constexpr DurationParam kProtocolRound{.name = "protocol_round", .default_value = "0",
    .description = "the MPI plan API's own time per round of a rank protocol beyond its messages (its barrier, "
                   "the round's reduction, its polling)",
    .min = 0, .max = 1e15};
constexpr DurationParam kProtocolStep{.name = "protocol_step", .default_value = "0",
    .description = "the MPI plan API's fixed time per balancing step (ids checked, speeds shared, figures summed)",
    .min = 0, .max = 1e15};
constexpr DurationParam kProtocolObject{.name = "protocol_object", .default_value = "0",
    .description = "the MPI plan API's time per object of a rank in a balancing step (ids checked, loads read and "
                   "summed; a fraction of a nanosecond allowed)",
    .min = 0, .max = 1e15, .fractional = true};
// Direct execution of the agents: their computation, timed on this machine, scaled to the
// modelled one. Optional in a file, written only when set.
constexpr RealParam kProtocolCompute{.name = "protocol_compute", .default_value = "0",
    .description = "the modelled machine's time per second of a rank protocol's computation timed on this machine "
                   "(1: this machine; 0: the agents' computation is not priced)",
    .min = 0, .max = 1e6};
constexpr IntegerParam kTasksPerMessage{.name = "tasks_per_message", .default_value = "1",
    .description = "most tasks one task message carries", .min = 1, .max = 1e6};
constexpr ChoiceParam kTransfer{.name = "transfer", .default_value = "fixed",
    .description = "distribution of the per_task time: fixed, or exponential with mean per_task",
    .choices = {"fixed", "exponential"}};
// Optional in a cost model file (files written before it existed lack it): each_event.
constexpr ChoiceParam kChecks{.name = "checks", .default_value = "each_event",
    .description = "when a strategy hears of its node's changed load: each_event (after every task done or arrived), "
                   "or engines (as the runtime's workers, at a check point: every poll_interval, after a message, "
                   "and on running out of tasks)",
    .choices = {"each_event", "engines"}};
// Optional in a cost model file too: each_task, what files written before it mean.
constexpr ChoiceParam kMail{.name = "mail", .default_value = "each_task",
    .description = "with checks = engines, when a busy worker sees a message or tasks that reached it: each_task "
                   "(after every task, as the threads engine), or check_points (only every poll_interval, as MPI)",
    .choices = {"each_task", "check_points"}};

CostModel ideal() {
  CostModel c;
  c.loop_time = 1'300;  // the iPSC/2's loop, so that workloads keep their durations
  return c;
}

// Intel iPSC/2 as WLR93 used it (Sec. V) with published message costs and no cost for
// looking at the queue; the sources and the reasoning behind the split are in
// docs/cost-models.md.
CostModel ipsc2_network() {
  CostModel c;
  c.loop_time = 1'300;               // WLR93 V: a loop is about 1.3 us
  c.poll_interval = 130 * kMicrosecond;  // messages checked every 100 loops
  c.send_overhead = 150 * kMicrosecond;
  c.handle_cost = 100 * kMicrosecond;
  c.latency = 100 * kMicrosecond;    // 150 + 100 + 100 = 350 us zero-byte node to node
  c.per_hop = 10 * kMicrosecond;
  c.per_task = 6 * kMicrosecond;     // a 16-byte task descriptor at 2.8 MB/s
  c.tasks_per_message = 1;           // WLR93 V: one task per message
  return c;
}

// ipsc2-network plus the processor time of each message check, calibrated on one number:
// DEM's T in WLR93 Table IV (docs/cost-models.md, "poll_cost"). Every other number is a
// prediction.
CostModel ipsc2() {
  CostModel c = ipsc2_network();
  c.poll_cost = 39'300;  // 39.3 us: DEM's T / T_opt in Table IV (docs/cost-models.md)
  return c;
}

// The Meiko CS-1 (T800 transputers) of Zambonelli's experiments: the paper gives only the
// 25 ms process migration time (Sec. 4); the other numbers and their sources are in
// docs/cost-models.md.
CostModel meiko_cs1() {
  CostModel c;
  c.loop_time = 1'000;                // our choice: workloads on this preset give durations directly
  c.poll_interval = 0;                // the policy handler runs at high priority: messages on arrival
  c.send_overhead = 20 * kMicrosecond;
  c.handle_cost = 20 * kMicrosecond;
  c.latency = 20 * kMicrosecond;      // 60 us for a short neighbour message in all
  c.per_hop = 10 * kMicrosecond;
  c.per_task = 25 * kMillisecond;     // Sec. 4: a process is frozen, transferred and resumed in ~25 ms
  c.tasks_per_message = 1000;         // a migration's processes travel together, one after another
  return c;
}

// AG91 Sec. 6: time in units of the mean service time (1 s here), task transfers
// exponential with rate 20 per unit, control messages free and instant.
CostModel ahmad91() {
  CostModel c;
  c.loop_time = 1'300;
  c.per_task = 50 * kMillisecond;  // 1 / (20 tasks per time unit)
  c.transfer = TransferDistribution::exponential;
  return c;
}

}  // namespace

nlohmann::json CostModel::to_json() const {
  nlohmann::json j;
  j["name"] = name;
  for (const Field& f : kFields) j[f.name] = exact_duration(this->*(f.member));
  j["per_byte"] = fmt::format("{}ns", per_byte);
  j["tasks_per_message"] = tasks_per_message;
  j["transfer"] = transfer == TransferDistribution::exponential ? "exponential" : "fixed";
  j["checks"] = checks == Checks::engines ? "engines" : "each_event";
  j["mail"] = mail == Mail::check_points ? "check_points" : "each_task";
  if (protocol_round > 0) j[std::string(kProtocolRound.name)] = exact_duration(protocol_round);
  if (protocol_step > 0) j[std::string(kProtocolStep.name)] = exact_duration(protocol_step);
  if (protocol_object > 0) j[std::string(kProtocolObject.name)] = fmt::format("{}ns", protocol_object);
  if (protocol_compute > 0) j[std::string(kProtocolCompute.name)] = protocol_compute;
  if (!workload_params.empty()) j["workload_params"] = workload_params;
  return j;
}

const std::vector<CostModelPreset>& cost_model_presets() {
  static const std::vector<CostModelPreset> presets = {
      {"ideal", "free and instant communication, messages handled on arrival; a loop costs 1.3 us", ideal},
      {"ipsc2",
       "Intel iPSC/2 as in WLR93 Sec. V: 1.3 us loops, messages checked every 130 us at 39.3 us a check "
       "(calibrated on DEM in Table IV), 350 us per message",
       ipsc2},
      {"ipsc2-network", "ipsc2 with free message checks (poll_cost 0): only the network and per-message costs",
       ipsc2_network},
      {"meiko-cs1", "Meiko CS-1 transputers as in Zambonelli's Sec. 4: 25 ms per migrated process, 60 us messages",
       meiko_cs1},
      {"ahmad91",
       "AG91 Sec. 6: free instant control messages, task transfers exponential with mean 50 ms (rate 20 per 1 s "
       "service time)",
       ahmad91},
  };
  return presets;
}

const std::vector<ParamSpec>& cost_model_params() {
  static const std::vector<ParamSpec> specs = [] {
    std::vector<ParamSpec> s;
    for (const Field& f : kFields)  // a loop of zero time would make every task free
      s.push_back({.name = f.name, .type = ParamType::duration,
                   .default_value = f.member == &CostModel::loop_time ? "1.3us" : "0", .description = f.description,
                   .min = f.member == &CostModel::loop_time ? 1.0 : 0.0});
    s.push_back(kPerByte);
    s.push_back(kProtocolRound);
    s.push_back(kProtocolStep);
    s.push_back(kProtocolObject);
    s.push_back(kProtocolCompute);
    s.push_back(kTasksPerMessage);
    s.push_back(kTransfer);
    s.push_back(kChecks);
    s.push_back(kMail);
    return s;
  }();
  return specs;
}

namespace {

// Validates `given` against the field specs and sets those fields; the others stay.
void apply_fields(CostModel& c, const std::map<std::string, std::string>& given, const std::string& owner) {
  const Parameters p = Parameters::parse(cost_model_params(), given, owner);
  for (const Field& f : kFields)
    if (given.count(f.name)) c.*(f.member) = p.duration(f.name);
  if (given.count(std::string(kPerByte.name))) c.per_byte = p.fractional_duration(kPerByte.name);
  if (given.count(std::string(kProtocolRound.name))) c.protocol_round = p[kProtocolRound];
  if (given.count(std::string(kProtocolStep.name))) c.protocol_step = p[kProtocolStep];
  if (given.count(std::string(kProtocolObject.name))) c.protocol_object = p.fractional_duration(kProtocolObject.name);
  if (given.count(std::string(kProtocolCompute.name))) c.protocol_compute = p[kProtocolCompute];
  if (given.count(std::string(kTasksPerMessage.name))) c.tasks_per_message = static_cast<int>(p[kTasksPerMessage]);
  if (given.count(std::string(kTransfer.name)))
    c.transfer = p[kTransfer] == kTransfer.choice("exponential") ? TransferDistribution::exponential : TransferDistribution::fixed;
  if (given.count(std::string(kChecks.name)))
    c.checks = p[kChecks] == kChecks.choice("engines") ? Checks::engines : Checks::each_event;
  if (given.count(std::string(kMail.name)))
    c.mail = p[kMail] == kMail.choice("check_points") ? Mail::check_points : Mail::each_task;
}

constexpr std::uint64_t kMaxCostFileBytes = 1 << 20;  // `dlbkit calibrate` writes under 1 KB

// A JSON value as a message quotes it: an array or object by its kind only, so that a huge
// value is never dumped.
std::string quoted(const nlohmann::json& v) {
  return v.is_structured() ? fmt::format("an {}", v.type_name()) : excerpt(v.dump());
}

// A JSON value of a cost model file as the text a --cost-param override would give.
std::string field_text(const std::string& where, const std::string& key, const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) return fmt::format("{}", v.get<double>());  // shortest text of the same double
  throw InputError(fmt::format("{}: field {} is {}; accepted: a string (a duration such as \"350us\", or a choice) or "
                               "a number (tasks_per_message, protocol_compute)",
                               where, excerpt(key), quoted(v)));
}

// "workload_params": an object of workloads, each an object of parameters given as text. The
// values are checked by the workload that takes them (experiment_setup).
std::map<std::string, std::map<std::string, std::string>> workload_params_from_json(const nlohmann::json& j,
                                                                                     const std::string& where) {
  const auto refuse = [&](const std::string& what, const nlohmann::json& v) {
    return InputError(fmt::format("{}: workload_params{} is {}; accepted: an object of workloads, each an object "
                                  "of parameters as strings ({{\"uts\": {{\"node_time\": \"69.4ns\"}}}})",
                                  where, what, quoted(v)));
  };
  if (!j.is_object()) throw refuse("", j);
  std::map<std::string, std::map<std::string, std::string>> out;
  for (const auto& [workload, params] : j.items()) {
    if (!params.is_object() || params.empty()) throw refuse("." + workload, params);
    for (const auto& [param, value] : params.items()) {
      if (!value.is_string() || value.get<std::string>().empty())
        throw refuse("." + workload + "." + param, value);
      out[workload][param] = value.get<std::string>();
    }
  }
  return out;
}

// The fields of a JSON object, checked as overrides are; every field must be there.
CostModel cost_model_from_json(const nlohmann::json& j, const std::string& where) {
  if (!j.is_object()) throw InputError(fmt::format("{}: not a JSON object; accepted: an object with the fields of "
                                                   "`dlbkit list cost-models`",
                                                   where));
  std::map<std::string, std::string> fields;
  std::string name;
  std::map<std::string, std::map<std::string, std::string>> workload_params;
  for (const auto& [key, value] : j.items()) {
    if (key == "calibration") continue;  // how `dlbkit calibrate` measured the fields: for people
    if (key == "workload_params") {
      workload_params = workload_params_from_json(value, where);
      continue;
    }
    if (key == "name") {
      if (!value.is_string() || value.get<std::string>().empty())
        throw InputError(fmt::format("{}: name {}; accepted: a non-empty string", where, quoted(value)));
      name = value.get<std::string>();
      continue;
    }
    fields[key] = field_text(where, key, value);
  }
  std::vector<std::string> missing;
  if (name.empty()) missing.push_back("name");
  for (const ParamSpec& spec : cost_model_params())  // but the fields newer than the format
    if (!fields.count(spec.name) && spec.name != kPerByte.name && spec.name != kChecks.name &&
        spec.name != kMail.name && spec.name != kProtocolRound.name && spec.name != kProtocolStep.name &&
        spec.name != kProtocolObject.name && spec.name != kProtocolCompute.name)
      missing.push_back(spec.name);
  if (!missing.empty())
    throw InputError(fmt::format("{}: missing field{} {}; accepted: an object with every field of "
                                 "`dlbkit list cost-models` (name, {}), as `dlbkit calibrate` writes it",
                                 where, missing.size() > 1 ? "s" : "", fmt::join(missing, ", "),
                                 "the durations, tasks_per_message, transfer"));
  CostModel c;
  c.name = name;
  apply_fields(c, fields, where);  // every field is given
  c.workload_params = std::move(workload_params);
  return c;
}

CostModel cost_model_from_file(const std::string& path) {
  if (path.empty()) throw InputError("cost model file:'': empty path; accepted: file:PATH of a JSON cost model");
  const std::string where = "cost model file " + path;
  const std::string text = read_input_file(path, where, kMaxCostFileBytes, "a JSON cost model file of at most 1 MiB");
  return cost_model_from_json(parse_json_input(text, where), where);
}

}  // namespace

CostModel make_cost_model(const std::string& preset, const std::map<std::string, std::string>& overrides) {
  CostModel c;
  if (preset.rfind("file:", 0) == 0) {
    c = cost_model_from_file(preset.substr(5));
  } else {
    const auto& presets = cost_model_presets();
    const auto known = std::find_if(presets.begin(), presets.end(), [&](const auto& p) { return p.name == preset; });
    if (known == presets.end()) {
      std::string names;
      for (const auto& p : presets) names += (names.empty() ? "" : ", ") + p.name;
      throw InputError(fmt::format("unknown cost model '{}'; accepted: {}, or file:PATH", preset, names));
    }
    c = known->make();
    c.name = known->name;
  }
  apply_fields(c, overrides, "cost model " + preset);
  return c;
}

}  // namespace dlbkit
