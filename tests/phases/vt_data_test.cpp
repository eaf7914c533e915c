#include "../support/vt_refused.hpp"
#include "../support/command.hpp"
#include "../support/file_bytes.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/phases/builtin_phase_strategies.hpp>
#include <dlbkit/phases/memory.hpp>
#include <dlbkit/phases/rebalance.hpp>
#include <dlbkit/phases/vt_data.hpp>
#include <dlbkit/topology/generators.hpp>

#include <brotli/encode.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <tuple>

namespace dlbkit {
namespace {

using test::expect_refused;

namespace fs = std::filesystem;
using json = nlohmann::json;

// LBAF's shipped data sets (tests/data/vt/README.md).
const std::string kBlocks = std::string(DLBKIT_TEST_DATA) + "/vt/synthetic-dataset-blocks";
const std::string kMemoryToy = std::string(DLBKIT_TEST_DATA) + "/vt/toy_mem";

using test::file_bytes;
using test::write_bytes;

/// A fresh folder for one test, with `texts[r]` as d.r.json; returns the stem.
std::string data_files(const std::string& name, const std::vector<std::string>& texts) {
  const std::string dir = test::temp_dir("vt-" + name);
  fs::create_directories(dir);
  for (std::size_t r = 0; r < texts.size(); ++r) write_bytes(fmt::format("{}/d.{}.json", dir, r), texts[r]);
  return dir + "/d";
}

json task(std::uint64_t id, int rank, json time) {
  return {{"entity", {{"home", rank}, {"id", id}, {"migratable", true}, {"type", "object"}}},
          {"node", rank},
          {"resource", "cpu"},
          {"time", std::move(time)}};
}

/// A well-formed file of rank `rank`: phase 0 with two tasks, ids 10*rank and 10*rank+1.
json rank_file(int rank) {
  const json tasks = json::array({task(10 * rank, rank, 1.5), task(10 * rank + 1, rank, 2.0)});
  return {{"type", "LBDatafile"}, {"phases", json::array({{{"id", 0}, {"tasks", tasks}}})}};
}

/// Two well-formed ranks with `edit` applied to rank 1's document.
std::string two_ranks(const std::string& name, const std::function<void(json&)>& edit) {
  json second = rank_file(1);
  edit(second);
  return data_files(name, {rank_file(0).dump(), second.dump()});
}

std::string compress(const std::string& text) {
  std::vector<std::uint8_t> out(BrotliEncoderMaxCompressedSize(text.size()));
  std::size_t size = out.size();
  EXPECT_TRUE(BrotliEncoderCompress(BROTLI_DEFAULT_QUALITY, BROTLI_DEFAULT_WINDOW, BROTLI_MODE_TEXT, text.size(),
                                    reinterpret_cast<const std::uint8_t*>(text.data()), &size, out.data()));
  return {reinterpret_cast<const char*>(out.data()), size};
}

// The expected figures below were computed from the JSON files with python3's json module,
// independently of this reader: per rank, the sum of `time`; memory as memory.hpp describes
// it (the rank's rank_working_bytes + each distinct shared_id's shared_bytes + the
// task_footprint_bytes + the largest task_working_bytes); crossing bytes: the `bytes` of
// communications whose objects (by id, else seq_id) are in different files.
TEST(VtData, ReadsLbafsSyntheticBlocksWithItsCommunicationsAndSharedBlocks) {
  const VtDataSet data = read_vt_data(kBlocks);
  EXPECT_EQ(data.ranks, 4u);
  ASSERT_EQ(vt_phase_ids(data), std::vector<std::int64_t>{0});
  const VtPhase& vt = vt_phase(data, 0);
  const Phase& phase = vt.phase;
  EXPECT_EQ(phase.objects.size(), 9u);
  EXPECT_EQ(node_loads(phase, phase.node_of), (std::vector<double>{2.5, 4.0, 1.5, 0.0}));
  EXPECT_EQ(phase.communications.size(), 8u);
  EXPECT_EQ(vt.other_communications + vt.unmatched_communications, 0u);
  ASSERT_TRUE(phase.has_memory);
  EXPECT_EQ(phase.block_ids, (std::vector<std::int64_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(phase.block_bytes, std::vector<double>(5, 9.0));
  const NodeMemory memory(phase, phase.node_of);
  EXPECT_EQ(std::vector<double>({memory.of(0), memory.of(1), memory.of(2), memory.of(3)}),
            (std::vector<double>{18, 18, 9, 0}));
  const PhaseFigures figures = phase_figures(phase, phase.node_of);
  EXPECT_DOUBLE_EQ(figures.crossing_bytes, 9.0);
  EXPECT_DOUBLE_EQ(figures.imbalance, 1.0);
  // seq_id 3 (rank 0) sends 1 message of 0.5 bytes to seq_id 8 (rank 2).
  const auto index_of = [&](std::uint64_t id) {
    return std::find_if(phase.objects.begin(), phase.objects.end(), [&](const PhaseObject& o) { return o.id == id; }) -
           phase.objects.begin();
  };
  EXPECT_TRUE(std::any_of(phase.communications.begin(), phase.communications.end(), [&](const ObjectCommunication& c) {
    return c.from == index_of(3) && c.to == index_of(8) && c.messages == 1 && c.bytes == 0.5;
  }));
}

TEST(VtData, ReadsEveryMemoryFieldOfLbafsMemoryToy) {
  const VtDataSet data = read_vt_data(kMemoryToy);
  const Phase& phase = vt_phase(data, 0).phase;
  EXPECT_EQ(phase.objects.size(), 32u);
  EXPECT_EQ(node_loads(phase, phase.node_of), (std::vector<double>{190, 20, 50, 90}));
  EXPECT_EQ(phase.node_working_bytes, std::vector<double>(4, 980000000.0));
  EXPECT_EQ(phase.block_bytes, std::vector<double>(12, 1600000000.0));
  EXPECT_EQ(std::set<std::int64_t>(phase.block_ids.begin(), phase.block_ids.end()).size(), 12u);
  const ObjectMemory& m = phase.objects[0].memory;  // toy_mem.0.json's first task
  EXPECT_EQ(std::tuple(m.footprint_bytes, m.working_bytes, m.serialized_bytes, phase.block_ids[m.block]),
            std::tuple(1024.0, 110000000.0, 1024.0, std::int64_t{4}));
  const NodeMemory memory(phase, phase.node_of);
  EXPECT_EQ(std::vector<double>({memory.of(0), memory.of(1), memory.of(2), memory.of(3)}),
            (std::vector<double>{5890011264.0, 5890005120.0, 5890007168.0, 5890009216.0}));
}

TEST(VtData, ReadsBrotliCompressedFilesAsTheirText) {
  std::vector<std::string> texts;
  for (int r = 0; r < 4; ++r) texts.push_back(file_bytes(fmt::format("{}.{}.json", kBlocks, r)));
  std::vector<std::string> compressed;
  for (const std::string& text : texts) compressed.push_back(compress(text));
  compressed[2] = texts[2];  // plain and compressed files mix
  const VtDataSet plain_data = read_vt_data(kBlocks);
  const VtDataSet compressed_data = read_vt_data(data_files("brotli", compressed));
  const Phase& plain = vt_phase(plain_data, 0).phase;
  const Phase& read = vt_phase(compressed_data, 0).phase;
  EXPECT_EQ(read.node_of, plain.node_of);
  EXPECT_EQ(node_loads(read, read.node_of), node_loads(plain, plain.node_of));
  EXPECT_EQ(read.communications.size(), plain.communications.size());
}

/// Each object of a phase by its id: (load, migratable, footprint, working, serialized,
/// the shared_id and bytes of its block, its node).
using ObjectsById =
    std::map<std::uint64_t, std::tuple<double, bool, double, double, double, std::int64_t, double, NodeId>>;

ObjectsById objects_by_id(const Phase& phase, const std::vector<NodeId>& mapping) {
  ObjectsById out;
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    const PhaseObject& o = phase.objects[i];
    const std::int64_t block = o.memory.block < 0 ? -1 : phase.block_ids[o.memory.block];
    const double bytes = o.memory.block < 0 ? 0.0 : phase.block_bytes[o.memory.block];
    out[o.id] = {o.load, o.migratable, o.memory.footprint_bytes, o.memory.working_bytes, o.memory.serialized_bytes,
                 block, bytes, mapping[i]};
  }
  return out;
}

std::multiset<std::tuple<std::uint64_t, std::uint64_t, double, double>> edges_by_id(const Phase& phase) {
  std::multiset<std::tuple<std::uint64_t, std::uint64_t, double, double>> out;
  for (const ObjectCommunication& c : phase.communications)
    out.insert({phase.objects[c.from].id, phase.objects[c.to].id, c.messages, c.bytes});
  return out;
}

/// Balances phase 0 of `stem` with greedy and writes the result under a fresh folder.
std::pair<Rebalanced, std::string> balance_and_write(const VtDataSet& data, const std::string& name) {
  const Phase& phase = vt_phase(data, 0).phase;
  Rebalanced r = rebalance(builtin_phase_strategies().configure("greedy", {}), phase,
                           parse_topology(fmt::format("complete:{}", phase.nodes)), {});
  const std::string dir = test::temp_dir(name);
  fs::create_directories(dir);
  write_vt_data(data, 0, r.mapping, dir + "/out");
  return {std::move(r), dir + "/out"};
}

TEST(VtData, WrittenFilesReadBackAsTheBalancedPhase) {
  for (const std::string& stem : {kBlocks, kMemoryToy}) {
    const VtDataSet data = read_vt_data(stem);
    const auto [balanced, out] = balance_and_write(data, "written-" + fs::path(stem).filename().string());
    const Phase& before = vt_phase(data, 0).phase;
    EXPECT_GT(balanced.objects_migrated, 0u) << stem;
    const VtDataSet written = read_vt_data(out);
    const Phase& after = vt_phase(written, 0).phase;
    EXPECT_EQ(objects_by_id(after, after.node_of), objects_by_id(before, balanced.mapping)) << stem;
    EXPECT_EQ(edges_by_id(after), edges_by_id(before)) << stem;
    EXPECT_EQ(after.has_memory, before.has_memory);
    // Each rank's own bytes follow it, where it has tasks to carry them.
    for (NodeId v = 0; v < after.nodes; ++v) {
      if (std::count(after.node_of.begin(), after.node_of.end(), v) > 0 && before.has_memory) {
        EXPECT_EQ(after.node_working_bytes[v], before.node_working_bytes[v]) << stem << " rank " << v;
      }
    }
    EXPECT_DOUBLE_EQ(phase_figures(after, after.node_of).imbalance, balanced.after.imbalance);
  }
}

// A set of tasks that changes from phase to phase (object 1 refined into 10 and 11, then
// coarsened back), written phase by phase and read back, each phase with its own tasks and
// communications; a task's home is its node in the first of the phases in a row that hold it.
TEST(VtData, PhasesWhoseTasksDifferAreWrittenAndReadBackEachWithItsOwn) {
  std::vector<Phase> phases(3, Phase{.nodes = 2});
  phases[0].objects = {{.id = 1, .load = 1}, {.id = 2, .load = 2}};
  phases[0].node_of = {0, 1};
  phases[0].communications = {{.from = 0, .to = 1, .messages = 1, .bytes = 8}};
  phases[1].objects = {{.id = 2, .load = 2}, {.id = 10, .load = 0.5}, {.id = 11, .load = 0.5}};
  phases[1].node_of = {0, 1, 1};
  phases[1].communications = {{.from = 1, .to = 0, .messages = 1, .bytes = 8},
                              {.from = 2, .to = 1, .messages = 2, .bytes = 4}};
  phases[2].objects = {{.id = 1, .load = 1}, {.id = 2, .load = 3}};
  phases[2].node_of = {1, 1};
  phases[2].message_serialize_seconds_per_byte = 2.5e-10;  // a record's measures
  phases[2].message_deserialize_seconds_per_byte = 1.5e-10;
  const std::string dir = test::temp_dir("vt-changing-tasks");
  fs::create_directories(dir);
  write_vt_phases(phases, dir + "/run");
  const VtDataSet data = read_vt_data(dir + "/run");
  ASSERT_EQ(data.phases.size(), 3u);
  const std::vector<std::map<std::uint64_t, NodeId>> homes = {{{1, 0}, {2, 1}}, {{2, 1}, {10, 1}, {11, 1}},
                                                               {{1, 1}, {2, 1}}};
  for (std::size_t k = 0; k < 3; ++k) {
    SCOPED_TRACE(k);
    const Phase& read = data.phases[k].phase;
    EXPECT_EQ(objects_by_id(read, read.node_of), objects_by_id(phases[k], phases[k].node_of));
    EXPECT_EQ(edges_by_id(read), edges_by_id(phases[k]));
    EXPECT_EQ(read.message_serialize_seconds_per_byte, phases[k].message_serialize_seconds_per_byte);
    EXPECT_EQ(read.message_deserialize_seconds_per_byte, phases[k].message_deserialize_seconds_per_byte);
    std::map<std::uint64_t, NodeId> home;
    for (const std::string& task : data.phases[k].tasks) {
      const json t = json::parse(task);
      home[t["entity"]["id"].get<std::uint64_t>()] = t["entity"]["home"].get<NodeId>();
    }
    EXPECT_EQ(home, homes[k]);
  }
  phases[1].objects[2].id = 10;  // two tasks with one id
  try {
    write_vt_phases(phases, dir + "/twice");
    ADD_FAILURE() << "written";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("phase 1: two objects with id 10"), std::string::npos) << e.what();
  }
  EXPECT_FALSE(fs::exists(dir + "/twice.0.json"));
}

TEST(VtData, WrittenTasksKeepTheirEntityHomeAndUserFieldsAndCommunicationsFollowTheirSender) {
  const VtDataSet data = read_vt_data(kBlocks);
  const auto [balanced, out] = balance_and_write(data, "fields");
  std::map<std::uint64_t, json> original;
  for (int r = 0; r < 4; ++r) {
    const json doc = json::parse(file_bytes(fmt::format("{}.{}.json", kBlocks, r)));
    for (const json& t : doc["phases"][0]["tasks"]) original[t["entity"]["seq_id"].get<std::uint64_t>()] = t;
  }
  std::size_t tasks = 0, communications = 0;
  for (int r = 0; r < 4; ++r) {
    const json doc = json::parse(file_bytes(fmt::format("{}.{}.json", out, r)));
    EXPECT_EQ(doc["metadata"], (json{{"type", "LBDatafile"}, {"rank", r}}));
    std::set<std::uint64_t> here;
    for (const json& t : doc["phases"][0]["tasks"]) {
      const std::uint64_t id = t["entity"]["seq_id"].get<std::uint64_t>();
      EXPECT_EQ(t["node"], r);
      json expected = original.at(id);
      expected["node"] = r;
      EXPECT_EQ(t, expected);  // entity (home included), time, resource, user_defined as read
      here.insert(id);
      ++tasks;
    }
    for (const json& c : doc["phases"][0].value("communications", json::array())) {
      EXPECT_TRUE(here.contains(c["from"]["seq_id"].get<std::uint64_t>())) << c;
      ++communications;
    }
  }
  EXPECT_EQ(tasks, 9u);
  EXPECT_EQ(communications, 8u);
}

TEST(VtData, VtsOwnValidatorAcceptsTheWrittenFiles) {
  const char* repo = std::getenv("DLBKIT_VT_REPO") ? std::getenv("DLBKIT_VT_REPO") : DLBKIT_VT_REPO;
  if (std::string(repo).empty() || !fs::exists(repo))
    GTEST_SKIP() << "no clone of DARMA vt (configure with -DDLBKIT_VT_REPO=PATH or set DLBKIT_VT_REPO)";
  // Debian's python3 first: the one that sees Debian's python3-schema and python3-brotli.
  std::string python;
  for (const char* candidate : {"/usr/bin/python3", "python3"})
    if (python.empty() && test::run_shell(fmt::format("{} -c 'import schema, brotli'", candidate)).status == 0)
      python = candidate;
  if (python.empty())
    GTEST_SKIP() << "python3's schema and brotli modules are not installed (Debian: python3-schema python3-brotli)";
  // vt's scripts, taken from its clone (a checkout or a bare repository) into a scratch folder.
  const std::string scripts = test::temp_dir("vt-scripts");
  fs::create_directories(scripts);
  for (const char* script : {"JSON_data_files_validator.py", "LBDatafile_schema.py"}) {
    const std::string from = fmt::format("{}/scripts/{}", repo, script);
    const std::string to = scripts + "/" + script;
    if (fs::exists(from))
      fs::copy_file(from, to);
    else
      ASSERT_EQ(test::run_shell(fmt::format("git -C {} show HEAD:scripts/{} > {}", test::shell_quote(repo), script,
                                            test::shell_quote(to))).status, 0);
  }
  for (const std::string& stem : {kBlocks, kMemoryToy}) {
    const auto [balanced, out] =
        balance_and_write(read_vt_data(stem), "validated-" + fs::path(stem).filename().string());
    for (int r = 0; r < 4; ++r) {
      const test::Outcome o = test::run_shell(fmt::format(
          "{} {}/JSON_data_files_validator.py --file_path {}.{}.json --validate_comm_links", python, scripts, out, r));
      const std::string said = o.out + o.err;  // its log goes to stderr
      EXPECT_EQ(o.status, 0) << said;
      EXPECT_NE(said.find("Valid JSON schema"), std::string::npos) << said;
      EXPECT_EQ(said.find("ERROR"), std::string::npos) << said;
    }
  }
}

TEST(VtData, WritingNeverLeavesPartOfTheFiles) {
  const VtDataSet data = read_vt_data(kBlocks);
  const Phase& phase = vt_phase(data, 0).phase;
  const std::string dir = test::temp_dir("partial");
  fs::create_directories(dir + "/out.2.json");  // rank 2's file cannot be written
  EXPECT_THROW(write_vt_data(data, 0, phase.node_of, dir + "/out"), InputError);
  EXPECT_EQ(std::distance(fs::directory_iterator(dir), fs::directory_iterator()), 1);  // the directory alone
}

TEST(VtData, WriterRefusesAMappingItCannotWrite) {
  VtDataSet data = read_vt_data(kBlocks);
  const std::string stem = test::temp_dir("refused") + "-out";
  std::vector<NodeId> mapping = vt_phase(data, 0).phase.node_of;
  EXPECT_THROW(write_vt_data(data, 0, {0, 1}, stem), InputError);
  EXPECT_THROW(write_vt_data(data, 1, mapping, stem), InputError);
  EXPECT_THROW(write_vt_data(data, 0, mapping, ""), InputError);
  mapping[0] = 4;
  EXPECT_THROW(write_vt_data(data, 0, mapping, stem), InputError);
  data.phases[0].phase.objects[0].migratable = false;
  mapping[0] = 1;
  EXPECT_THROW(write_vt_data(data, 0, mapping, stem), InputError);
  EXPECT_FALSE(fs::exists(stem + ".0.json"));
}

TEST(VtData, UnknownPhaseListsThePhasesThere) {
  const VtDataSet data = read_vt_data(data_files("phases", {rank_file(0).dump()}));
  try {
    vt_phase(data, 7);
    ADD_FAILURE();
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("no phase 7; accepted: 0"), std::string::npos) << e.what();
  }
}

TEST(VtData, ReadsEachPhaseApartAndWritesTheBalancedOneAlone) {
  std::vector<std::string> texts;
  for (int r = 0; r < 2; ++r) {
    json doc = rank_file(r);
    doc["metadata"] = {{"type", "LBDatafile"}, {"rank", r},
                       {"phases", {{"skipped", {{"list", json::array()}, {"range", json::array()}}},
                                   {"identical_to_previous", {{"list", json::array()}, {"range", json::array()}}}}}};
    json later = doc["phases"][0];
    later["id"] = 5;
    later["tasks"].push_back(task(100 + r, r, 4.0));
    doc["phases"].push_back(later);
    texts.push_back(doc.dump());
  }
  const VtDataSet data = read_vt_data(data_files("two-phases", texts));
  EXPECT_EQ(vt_phase_ids(data), (std::vector<std::int64_t>{0, 5}));
  EXPECT_EQ(vt_phase(data, 0).phase.objects.size(), 4u);
  const Phase& later = vt_phase(data, 5).phase;
  ASSERT_EQ(later.objects.size(), 6u);
  EXPECT_EQ(node_loads(later, later.node_of), (std::vector<double>{7.5, 7.5}));
  const std::string out = test::temp_dir("two-phases-out") + "-out";
  write_vt_data(data, 5, std::vector<NodeId>(6, 1), out);
  const json written = json::parse(file_bytes(out + ".1.json"));
  ASSERT_EQ(written["phases"].size(), 1u);
  EXPECT_EQ(written["phases"][0]["id"], 5);
  EXPECT_EQ(written["phases"][0]["tasks"].size(), 6u);
  EXPECT_FALSE(written["metadata"].contains("phases"));  // it described the phases read, not the one written
  EXPECT_EQ(json::parse(file_bytes(out + ".0.json"))["phases"][0]["tasks"].size(), 0u);
}

TEST(VtData, RefusesAMissingStemOrAGapOrADirectory) {
  const std::string dir = test::temp_dir("missing");
  fs::create_directories(dir);
  expect_refused(dir + "/none", {dir + "/none.0.json", "accepted"});
  const std::string gap = data_files("gap", {rank_file(0).dump(), rank_file(1).dump()});
  fs::rename(gap + ".1.json", gap + ".2.json");
  expect_refused(gap, {gap + ".2.json", gap + ".1.json", "without a gap"});
  const std::string folder = data_files("folder", {rank_file(0).dump()});
  fs::create_directory(folder + ".1.json");
  expect_refused(folder, {folder + ".1.json", "a directory"});
}

TEST(VtData, RefusesTruncatedOrBinaryOrOversizedFiles) {
  const std::string text = rank_file(1).dump();
  const std::string truncated = data_files("truncated", {rank_file(0).dump(), text.substr(0, text.size() / 2)});
  expect_refused(truncated, {truncated + ".1.json", "not JSON"});
  expect_refused(data_files("empty", {rank_file(0).dump(), "  \n"}), {"d.1.json", "empty"});
  expect_refused(data_files("binary", {rank_file(0).dump(), std::string("\x89PNG\r\n\x1a\n\0\0", 10)}),
                 {"d.1.json", "neither JSON", "brotli"});
  const std::string brotli = compress(text);
  expect_refused(data_files("brotli-cut", {rank_file(0).dump(), brotli.substr(0, brotli.size() - 4)}),
                 {"d.1.json", "brotli", "accepted"});
  expect_refused(data_files("brotli-trailing", {rank_file(0).dump(), brotli + "xyz"}), {"d.1.json", "followed by"});
  // A file that claims 20 GB (sparse: nothing is written) is refused before it is read.
  const std::string huge = data_files("huge", {rank_file(0).dump(), ""});
  fs::resize_file(huge + ".1.json", std::uintmax_t{20} << 30);
  expect_refused(huge, {"d.1.json", "21474836480 bytes", "at most"});
}

TEST(VtData, RefusesFieldsOfTheWrongTypeOrMissing) {
  struct Case {
    const char* name;
    std::function<void(json&)> edit;
    std::vector<std::string> parts;
  };
  const std::vector<Case> cases = {
      {"document", [](json& d) { d = json::array(); }, {"the document is an array", "an object"}},
      {"no-phases", [](json& d) { d.erase("phases"); }, {"/phases is missing"}},
      {"stats", [](json& d) { d["type"] = "LBStatsfile"; }, {"/type is the string \"LBStatsfile\"", "LBDatafile"}},
      {"phase-id", [](json& d) { d["phases"][0]["id"] = "zero"; }, {"/phases/0/id is the string", "an integer"}},
      {"no-time", [](json& d) { d["phases"][0]["tasks"][1].erase("time"); }, {"/phases/0/tasks/1/time is missing"}},
      {"time-text", [](json& d) { d["phases"][0]["tasks"][0]["time"] = "1.5"; }, {"/phases/0/tasks/0/time", "seconds"}},
      {"migratable", [](json& d) { d["phases"][0]["tasks"][0]["entity"]["migratable"] = 1; },
       {"/phases/0/tasks/0/entity/migratable is 1", "true or false"}},
      {"no-id", [](json& d) { d["phases"][0]["tasks"][0]["entity"].erase("id"); },
       {"/phases/0/tasks/0/entity has neither id nor seq_id"}},
      {"seq-id-alone",
       [](json& d) {
         auto& e = d["phases"][0]["tasks"][0]["entity"];
         e.erase("id");
         e["seq_id"] = 3;
       },
       {"/phases/0/tasks/0/entity is migratable with a seq_id but no collection_id"}},
      {"user-defined", [](json& d) { d["phases"][0]["tasks"][0]["user_defined"] = json::array(); },
       {"/phases/0/tasks/0/user_defined is an array", "an object"}},
      {"comm-from",
       [](json& d) {
         d["phases"][0]["communications"] = {{{"type", "SendRecv"}, {"to", {{"type", "object"}, {"id", 0}}},
                                              {"messages", 1}, {"bytes", 1.0}}};
       },
       {"/phases/0/communications/0/from is missing"}},
      {"duplicate-id", [](json& d) { d["phases"][0]["tasks"][1]["entity"]["id"] = 0; },
       {"/phases/0/tasks/1/entity has the id 0, as", "d.0.json /phases/0/tasks/0", "its own id"}},
      {"phase-missing", [](json& d) { d["phases"][0]["id"] = 1; }, {"d.1.json: no phase 0, which", "d.0.json has"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    std::vector<std::string> parts = c.parts;
    if (std::string(c.name) != "phase-missing") parts.push_back("d.1.json: ");
    parts.push_back("accepted: ");
    expect_refused(two_ranks(c.name, c.edit), parts);
  }
}

TEST(VtData, RefusesNegativeNonFiniteOrAbsurdNumbers) {
  const auto comm = [](json messages, json bytes) {
    return [=](json& d) {
      d["phases"][0]["communications"] = {{{"type", "SendRecv"},
                                           {"from", {{"type", "object"}, {"id", 10}}},
                                           {"to", {{"type", "object"}, {"id", 0}}},
                                           {"messages", messages},
                                           {"bytes", bytes}}};
    };
  };
  const std::vector<std::pair<std::function<void(json&)>, std::string>> cases = {
      {[](json& d) { d["phases"][0]["tasks"][0]["time"] = -1.0; }, "/phases/0/tasks/0/time is -1.0"},
      {[](json& d) { d["phases"][0]["tasks"][0]["time"] = 1e300; }, "/phases/0/tasks/0/time is 1e+300"},
      {[](json& d) { d["phases"][0]["tasks"][0]["user_defined"] = {{"shared_bytes", 1e30}}; },
       "/phases/0/tasks/0/user_defined/shared_bytes is 1e+30"},
      {[](json& d) { d["phases"][0]["tasks"][0]["user_defined"] = {{"shared_id", -2}}; },
       "/phases/0/tasks/0/user_defined/shared_id is -2"},
      {[](json& d) { d["phases"][0]["tasks"][0]["user_defined"] = {{"task_deserialize_seconds", -0.5}}; },
       "/phases/0/tasks/0/user_defined/task_deserialize_seconds is -0.5"},
      {[](json& d) { d["phases"][0]["tasks"][0]["entity"]["id"] = -5; }, "/phases/0/tasks/0/entity/id is -5"},
      {[](json& d) {
         d["phases"][0]["user_defined"] = {{"message_serialize_seconds_per_byte", -1e-9},
                                           {"message_deserialize_seconds_per_byte", 1e-9}};
       },
       "/phases/0/user_defined/message_serialize_seconds_per_byte is -1e-09"},
      {[](json& d) { d["phases"][0]["user_defined"] = {{"message_deserialize_seconds_per_byte", 1e-9}}; },
       "/phases/0/user_defined has one of message_serialize_seconds_per_byte and"},
      {[](json& d) { d["phases"][0]["tasks"][0]["node"] = 1e20; }, "/phases/0/tasks/0/node is 1e+20"},
      {comm(-1, 1.0), "/phases/0/communications/0/messages is -1"},
      {comm(std::uint64_t{1} << 60, 1.0), "/phases/0/communications/0/messages is 1152921504606846976"},
      {comm(1, -0.5), "/phases/0/communications/0/bytes is -0.5"},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE(cases[i].second);
    expect_refused(two_ranks(fmt::format("number-{}", i), cases[i].first),
                   {"d.1.json: ", cases[i].second, "accepted: "});
  }
  // JSON has no NaN nor infinity: text that writes them is not JSON; 1e999 overflows a double.
  std::string text = rank_file(1).dump();
  const std::string time = "\"time\":2.0";
  ASSERT_NE(text.find(time), std::string::npos);
  for (const char* bad : {"NaN", "Infinity", "1e999"}) {
    SCOPED_TRACE(bad);
    std::string edited = text;
    edited.replace(edited.find(time), time.size(), std::string("\"time\":") + bad);
    expect_refused(data_files(std::string("nan-") + bad, {rank_file(0).dump(), edited}), {"d.1.json", "accepted: "});
  }
}

// LBAF's reader takes a rank's alpha from its file's metadata (lbsVTDataReader.py); the
// ranks without one have 1, and a data set where none has one has no alphas at all.
TEST(VtData, ReadsEachRanksAlphaFromItsMetadata) {
  const std::string stem = two_ranks("alpha", [](json& d) { d["metadata"] = {{"type", "LBDatafile"}, {"rank_alpha", 2.5}}; });
  EXPECT_EQ(read_vt_data(stem).phases[0].phase.node_alpha, (std::vector<double>{1, 2.5}));
  EXPECT_TRUE(read_vt_data(two_ranks("no-alpha", [](json&) {})).phases[0].phase.node_alpha.empty());
  expect_refused(two_ranks("bad-alpha", [](json& d) { d["metadata"] = {{"rank_alpha", -1}}; }),
                 {"d.1.json: ", "/metadata/rank_alpha is -1", "accepted: "});
}

TEST(VtData, CountsCommunicationsThatAreNoEdgeBetweenObjects) {
  const std::string stem = two_ranks("other-comms", [](json& d) {
    d["phases"][0]["communications"] = {
        {{"type", "SendRecv"}, {"from", {{"type", "object"}, {"id", 10}}}, {"to", {{"type", "object"}, {"id", 0}}},
         {"messages", 2}, {"bytes", 64.0}},
        {{"type", "Broadcast"}, {"from", {{"type", "object"}, {"id", 10}}}, {"to", {{"type", "node"}, {"id", 0}}},
         {"messages", 1}, {"bytes", 8.0}},
        {{"type", "SendRecv"}, {"from", {{"type", "object"}, {"id", 10}}}, {"to", {{"type", "object"}, {"id", 99}}},
         {"messages", 1}, {"bytes", 8.0}}};
  });
  const VtDataSet data = read_vt_data(stem);
  const VtPhase& vt = vt_phase(data, 0);
  ASSERT_EQ(vt.phase.communications.size(), 1u);
  EXPECT_EQ(vt.phase.objects[vt.phase.communications[0].from].id, 10u);
  EXPECT_EQ(vt.phase.objects[vt.phase.communications[0].to].id, 0u);
  EXPECT_EQ(vt.other_communications, 1u);
  EXPECT_EQ(vt.unmatched_communications, 1u);
  EXPECT_EQ(vt.communications.size(), 3u);  // all three kept for the writer
}

}  // namespace
}  // namespace dlbkit
