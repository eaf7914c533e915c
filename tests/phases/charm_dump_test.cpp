#include "../support/file_bytes.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/error.hpp>
#include <dlbkit/phases/charm_dump.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>
#include <tuple>

namespace dlbkit {
namespace {

namespace fs = std::filesystem;

// Written by Charm++'s stencil3d example with +LBDump (tests/data/charm/README.md).
const std::string kDump = std::string(DLBKIT_TEST_DATA) + "/charm/lbdump.0";

using test::file_bytes;
using test::write_bytes;

// The message of read_charm_dump's InputError, "" when it reads the file.
std::string error_of(const std::string& path) {
  try {
    read_charm_dump(path);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CharmDump, ReadsTheDumpAsCharmPrintsIt) {
  const CharmDump dump = read_charm_dump(kDump);
  const Phase& phase = dump.phase;
  EXPECT_EQ(dump.version, 3);
  EXPECT_EQ(dump.layout, "Charm++ 7.0 and later");
  EXPECT_EQ(phase.nodes, 4u);
  ASSERT_EQ(phase.objects.size(), 16u);  // Charm++'s "n_obj: 16 n_migratable: 16"
  std::map<NodeId, int> per_node;
  double total = 0, smallest = 1, largest = 0;
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    EXPECT_TRUE(phase.objects[i].migratable);
    ++per_node[phase.node_of[i]];
    total += phase.objects[i].load;
    smallest = std::min(smallest, phase.objects[i].load);
    largest = std::max(largest, phase.objects[i].load);
  }
  EXPECT_EQ(per_node, (std::map<NodeId, int>{{0, 4}, {1, 4}, {2, 4}, {3, 4}}));  // stencil3d's block map
  // Charm++'s figures, printed to 6 decimals: the PEs' mean object load, the smallest and the
  // largest object, the PEs' mean background load.
  EXPECT_NEAR(total / 4, 0.001978, 5e-7);
  EXPECT_NEAR(smallest, 0.000108, 5e-7);
  EXPECT_NEAR(largest, 0.003568, 5e-7);
  double background = 0;
  for (const CharmProcessor& pe : dump.processors) background += pe.background_seconds;
  EXPECT_NEAR(background / 4, 0.001037, 5e-7);
  EXPECT_NEAR(dump.processors[0].background_seconds, 0.002186, 5e-7);
  // Each chare sends to its 4 distinct neighbours (x: two; y and z: one each, as they wrap).
  EXPECT_EQ(phase.communications.size(), 64u);
  EXPECT_EQ(dump.processor_communications, 0u);
  EXPECT_EQ(dump.unmatched_communications, 0u);
  EXPECT_EQ(dump.multicasts, 0u);
}

TEST(CharmDump, CommunicationMatchesCharmsSimulationOfRecBipartLB) {
  // RecBipartLB's moves as Charm++'s +LBShowDecisions wrote them, applied to the dump: Charm++
  // then printed 520 messages and 332 800 bytes crossing PEs (each counted sent and received),
  // and PE 0's object load 0.001192 s.
  const CharmDump dump = read_charm_dump(kDump);
  std::vector<NodeId> mapping = dump.phase.node_of;
  std::ifstream moves(kDump + ".results");
  std::size_t pes = 0, count = 0;
  ASSERT_TRUE(moves >> pes >> count);
  EXPECT_EQ(pes, 4u);
  std::map<std::uint64_t, std::size_t> index_of;
  for (std::size_t i = 0; i < dump.phase.objects.size(); ++i) index_of[dump.phase.objects[i].id] = i;
  for (std::size_t k = 0; k < count; ++k) {
    std::uint64_t id = 0;
    NodeId pe = 0;
    ASSERT_TRUE(moves >> id >> pe);
    ASSERT_EQ(index_of.count(id), 1u) << id;
    mapping[index_of[id]] = pe;
  }
  double messages = 0, bytes = 0;
  for (const ObjectCommunication& c : dump.phase.communications)
    if (mapping[c.from] != mapping[c.to]) {
      messages += c.messages;
      bytes += c.bytes;
    }
  EXPECT_EQ(2 * messages, 520);
  EXPECT_EQ(2 * bytes, 332800);
  EXPECT_NEAR(node_loads(dump.phase, mapping)[0], 0.001192, 5e-7);
}

TEST(CharmDump, RoundTripThroughVtDataGivesTheSamePhase) {
  const CharmDump dump = read_charm_dump(kDump);
  const std::string dir = test::temp_dir("charm-dump-vt");
  fs::create_directories(dir);
  write_vt_phases({dump.phase}, dir + "/run");
  const VtDataSet data = read_vt_data(dir + "/run");
  const Phase& back = vt_phase(data, 0).phase;
  ASSERT_EQ(back.nodes, dump.phase.nodes);
  ASSERT_EQ(back.objects.size(), dump.phase.objects.size());
  // vt's reader orders the objects by rank: compare by id.
  const auto by_id = [](const Phase& p) {
    std::map<std::uint64_t, std::tuple<double, bool, NodeId>> objects;
    for (std::size_t i = 0; i < p.objects.size(); ++i)
      objects[p.objects[i].id] = {p.objects[i].load, p.objects[i].migratable, p.node_of[i]};
    std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<double, double>> edges;
    for (const ObjectCommunication& c : p.communications) {
      auto& e = edges[{p.objects[c.from].id, p.objects[c.to].id}];
      e.first += c.messages;
      e.second += c.bytes;
    }
    return std::pair{objects, edges};
  };
  EXPECT_EQ(by_id(back), by_id(dump.phase));
  fs::remove_all(dir);
}

// The test dump as Charm++ 6.9 and 6.10 wrote it (BaseLB::LDStats::pup and LDOMHandle::pup at
// tag v6.10.2): the PE, object, migratable and communication counts as ints, the PEs, each
// object with the LB database's pointer (its size, 8, and its bytes) before its handle, each
// object's PE, then its new PE, then the communications, which are as Charm++ 7 writes them.
std::string as_charm6(const std::string& dump) {
  std::size_t at = 16 + 4 + 4;  // the machine info, the version, the PE count
  const auto next = [&](auto value) {
    std::memcpy(&value, dump.data() + at, sizeof value);
    at += sizeof value;
    return value;
  };
  const auto put = [](std::string& out, auto value) {
    out.append(reinterpret_cast<const char*>(&value), sizeof value);
  };
  std::string out = dump.substr(0, at);
  const auto migratable = next(std::int32_t{});
  const auto pes = next(std::uint64_t{});
  const std::string procs = dump.substr(at, pes * 41);
  at += procs.size();
  const auto objects = next(std::uint64_t{});
  std::string object_data;
  for (std::uint64_t k = 0; k < objects; ++k, at += 32) {
    put(object_data, std::int32_t{8});
    put(object_data, std::uint64_t{0x5555'0000'1234'5678});
    object_data += dump.substr(at, 32);
  }
  const auto placed = next(std::uint64_t{});
  const std::string from = dump.substr(at, placed * 4);
  at += from.size();
  const auto communications = next(std::uint64_t{});
  put(out, static_cast<std::int32_t>(pes));
  put(out, static_cast<std::int32_t>(objects));
  put(out, migratable);
  put(out, static_cast<std::int32_t>(communications));
  return out + procs + object_data + from + from + dump.substr(at);
}

TEST(CharmDump, ReadsCharm6sLayoutAsTheSamePhase) {
  const std::string dir = test::temp_dir("charm-dump-6");
  fs::create_directories(dir);
  const std::string bytes = as_charm6(file_bytes(kDump));
  write_bytes(dir + "/lbdump.0", bytes);
  const CharmDump dump = read_charm_dump(kDump), old = read_charm_dump(dir + "/lbdump.0");
  EXPECT_EQ(old.layout, "Charm++ 6.9 or 6.10");
  EXPECT_EQ(old.version, 3);
  ASSERT_EQ(old.phase.objects.size(), dump.phase.objects.size());
  for (std::size_t i = 0; i < dump.phase.objects.size(); ++i) {
    EXPECT_EQ(old.phase.objects[i].id, dump.phase.objects[i].id);
    EXPECT_EQ(old.phase.objects[i].load, dump.phase.objects[i].load);
    EXPECT_EQ(old.phase.node_of[i], dump.phase.node_of[i]);
  }
  EXPECT_EQ(old.phase.communications.size(), dump.phase.communications.size());
  EXPECT_EQ(old.processors.size(), 4u);
  EXPECT_EQ(old.processors[0].background_seconds, dump.processors[0].background_seconds);
  // Cut in its communications, it is refused there: the error is that of the layout that
  // read furthest.
  write_bytes(dir + "/lbdump.1", bytes.substr(0, bytes.size() - 40));
  const std::string message = error_of(dir + "/lbdump.1");
  const std::size_t at = message.find(": byte ");
  ASSERT_NE(at, std::string::npos) << message;
  EXPECT_GT(std::stoull(message.substr(at + 7)), bytes.size() - 100) << message;
  fs::remove_all(dir);
}

TEST(CharmDump, TruncatedFileIsOneLineNamingTheFileAndTheOffset) {
  const std::string bytes = file_bytes(kDump);
  ASSERT_GT(bytes.size(), 3000u);
  const std::string dir = test::temp_dir("charm-dump-cut");
  fs::create_directories(dir);
  // In the machine info, the version, the PEs, the objects, the PE numbers, the communications.
  for (std::size_t size : {std::size_t{0}, std::size_t{3}, std::size_t{15}, std::size_t{16}, std::size_t{22},
                           std::size_t{100}, std::size_t{500}, std::size_t{1200}, bytes.size() / 2,
                           bytes.size() - 1}) {
    const std::string path = dir + "/lbdump.cut" + std::to_string(size);
    write_bytes(path, bytes.substr(0, size));
    const std::string message = error_of(path);
    SCOPED_TRACE(message);
    ASSERT_FALSE(message.empty()) << "a dump cut at byte " << size << " was read";
    EXPECT_NE(message.find(path), std::string::npos);
    EXPECT_EQ(message.find('\n'), std::string::npos);
    // The offset named is where the read stopped, at or before the cut.
    const std::size_t at = message.find(": byte ");
    ASSERT_NE(at, std::string::npos);
    EXPECT_LE(std::stoull(message.substr(at + 7)), size);
    if (size >= 16) {
      EXPECT_NE(message.find("truncated"), std::string::npos);
    }
  }
  fs::remove_all(dir);
}

TEST(CharmDump, ForeignFilesAreRefusedNamingTheOffset) {
  const std::string bytes = file_bytes(kDump);
  const std::string dir = test::temp_dir("charm-dump-foreign");
  fs::create_directories(dir);
  const auto refused = [&](const std::string& name, const std::string& content, const std::string& offset,
                           const std::string& problem) {
    const std::string path = dir + "/" + name;
    write_bytes(path, content);
    const std::string message = error_of(path);
    SCOPED_TRACE(name + ": " + message);
    EXPECT_NE(message.find(path + ": byte " + offset + ": "), std::string::npos);
    EXPECT_NE(message.find(problem), std::string::npos);
    EXPECT_NE(message.find("accepted: a Charm++ +LBDump file"), std::string::npos);
  };
  refused("vt.json", file_bytes(std::string(DLBKIT_TEST_DATA) + "/vt/toy_mem.0.json"), "0", "no PUP machine info");
  std::mt19937 random(7);
  std::string noise(4096, '\0');
  for (char& c : noise) c = static_cast<char>(random());
  refused("random", noise, "0", "no PUP machine info");
  std::string big_endian = bytes;
  big_endian[10] = 0;  // intFormat: big-endian
  refused("big-endian", big_endian, "4", "another layout");
  std::string version = bytes;
  const std::int32_t four = 4;
  std::memcpy(version.data() + 16, &four, 4);
  refused("version4", version, "16", "LB format version 4");
  refused("trailing", bytes + "x", std::to_string(bytes.size()), "1 bytes after the end");
  std::string pe = bytes;  // the first object's PE number: after 4 PEs of 41 bytes, 16 objects of 32
  const std::size_t from_proc = 16 + 4 * 3 + 8 + 4 * 41 + 8 + 16 * 32 + 8;
  const std::int32_t nine = 9;
  std::memcpy(pe.data() + from_proc, &nine, 4);
  refused("pe9", pe, std::to_string(from_proc), "an object on PE 9, not one of the 4 PEs");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace dlbkit
