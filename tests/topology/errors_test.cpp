// Every bad spec, argument and file throws InputError with one line that names the bad value
// and says what is accepted.

#include <dlbkit/error.hpp>
#include <dlbkit/topology/generators.hpp>
#include <dlbkit/topology/topology.hpp>

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

namespace dlbkit {
namespace {

// Runs `f`, expects InputError, and returns its message.
std::string input_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  ADD_FAILURE() << "no InputError thrown";
  return {};
}

void expect_message(const std::string& message, const std::vector<std::string>& parts) {
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  EXPECT_NE(message.find("accepted: "), std::string::npos) << message;
  for (const std::string& part : parts)
    EXPECT_NE(message.find(part), std::string::npos) << "'" << part << "' not in: " << message;
}

struct BadSpec {
  std::string spec;
  std::vector<std::string> parts;  // substrings the message must contain
};

TEST(ParseTopology, RejectsBadSpecsNamingTheBadValue) {
  const std::string max_nodes = std::to_string(kMaxTopologyNodes);
  const BadSpec cases[] = {
      {"foo:3", {"unknown topology family 'foo'", "hypercube:d", "torus:AxBx...", "odd:n", "file:PATH"}},
      {"", {"unknown topology family ''"}},
      {"Hypercube:3", {"'Hypercube'"}},
      {"hypercube", {"missing dimension", "hypercube:d"}},
      {"hypercube:", {"missing dimension"}},
      {"hypercube:0", {"dimension 0 is out of range", "1 to 24"}},
      {"hypercube:40", {"hypercube:40: dimension 40 is out of range; accepted: 1 to 24 (2 to 16777216 nodes)"}},
      {"hypercube:abc", {"'abc' is not a number", "1 <= d <= 24"}},
      {"hypercube:-3", {"'-3' is not a number"}},
      {"hypercube:+3", {"'+3' is not a number"}},
      {"hypercube:5x", {"'5x' is not a number"}},
      {"hypercube: 5", {"' 5' is not a number"}},
      {"hypercube:2147483648", {"2147483648 is out of range"}},
      {"hypercube:99999999999999999999999", {"99999999999999999999999 is out of range"}},
      {"torus:1x0", {"extent 1 (axis 0) is out of range", "each >= 2"}},
      {"torus:4x", {"missing extent (axis 1)"}},
      {"torus:x4", {"missing extent (axis 0)"}},
      {"torus:4xx4", {"missing extent (axis 1)"}},
      {"torus:4x-4", {"'-4' is not a number"}},
      {"torus:4096x4097", {"16781312 nodes is too many", max_nodes}},
      {"torus:65536x65536x65536x65536x65536", {"more than 2^64 nodes is too many"}},
      {"torus:2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2", {"25 extents is out of range", "1 to 24 extents"}},
      {"mesh:0x3", {"extent 0 (axis 0) is out of range", "each >= 1"}},
      {"mesh:3x0", {"extent 0 (axis 1) is out of range"}},
      {"mesh:8192x8192", {"67108864 nodes is too many"}},
      {"ring:2", {"2 nodes is out of range", "complete:2"}},
      {"ring:0", {"0 nodes is out of range", "3 to 16777216"}},
      {"ring:16777217", {"16777217 nodes is out of range"}},
      {"tree:binary:0", {"0 levels is out of range", "1 to 24"}},
      {"tree:binary:25", {"25 levels is out of range"}},
      {"tree:ternary:3", {"tree kind 'ternary' is not supported", "tree:binary:L"}},
      {"tree:binary", {"missing levels"}},
      {"tree:binary:two", {"'two' is not a number"}},
      {"tree:5", {"tree kind '5' is not supported"}},
      {"complete:0", {"0 nodes is out of range", "1 to 4096"}},
      {"complete:5000", {"5000 nodes is out of range"}},
      {"bisectional:8", {"n = 8 is even", "odd n from 3 to 25"}},
      {"bisectional:1", {"n = 1 is out of range"}},
      {"bisectional:27", {"n = 27 is out of range"}},
      {"odd:1", {"n = 1 is out of range", "2 to 12"}},
      {"odd:13", {"n = 13 is out of range", "2 to 12"}},
      {"file:", {"missing path"}},
      {"file:/nonexistent/dir/net.txt", {"/nonexistent/dir/net.txt", "cannot be read (No such file or directory)"}},
  };
  for (const BadSpec& c : cases) {
    SCOPED_TRACE(c.spec);
    expect_message(input_error([&] { parse_topology(c.spec); }), c.parts);
  }
}

TEST(ParseTopology, QuotesAHugeSpecAsAnExcerpt) {
  const std::string message = input_error([] { parse_topology("hypercube:" + std::string(10'000, '9')); });
  expect_message(message, {"hypercube:999", "...: dimension 999", "is out of range"});
  EXPECT_LT(message.size(), 300u);  // echoed the spec twice: 20 KB
}

TEST(Generators, RejectOutOfRangeArguments) {
  expect_message(input_error([] { make_hypercube(-1); }), {"hypercube:-1", "dimension -1"});
  expect_message(input_error([] { make_hypercube(25); }), {"dimension 25"});
  expect_message(input_error([] { make_torus({}); }), {"0 extents"});
  expect_message(input_error([] { make_torus({4, 1}); }), {"torus:4x1", "extent 1 (axis 1)"});
  expect_message(input_error([] { make_mesh({3, -2}); }), {"mesh:3x-2", "extent -2 (axis 1)"});
  expect_message(input_error([] { make_ring(1); }), {"ring:1", "complete:1"});
  expect_message(input_error([] { make_binary_tree(-4); }), {"-4 levels"});
  expect_message(input_error([] { make_complete(-5); }), {"complete:-5", "-5 nodes"});
  expect_message(input_error([] { make_bisectional(10); }), {"n = 10 is even"});
  expect_message(input_error([] { make_odd(0); }), {"n = 0 is out of range"});
  expect_message(input_error([] { bisectional_word(4, 0); }), {"n = 4 is even"});
  expect_message(input_error([] { odd_word(13, 0); }), {"n = 13"});
}

struct BadFile {
  std::string name;
  std::vector<std::string> parts;
};

TEST(LoadEdgeList, RejectsBadFilesNamingLineAndValue) {
  const std::string dir = std::string(DLBKIT_TEST_DATA) + "/topology/";
  const BadFile cases[] = {
      {"bad_missing_header.txt", {":2: missing header", "'0 1'", "'nodes N'"}},
      {"bad_empty.txt", {"bad_empty.txt: missing header, the file has no data lines"}},
      {"bad_malformed_line.txt", {":3: malformed edge line '1 2 3'", "0 to 3"}},
      {"bad_trailing_junk.txt", {":3: malformed edge line '1 2x', '2x' is not a node id"}},
      {"bad_negative_id.txt", {":3: malformed edge line '-1 2', '-1' is not a node id"}},
      {"bad_self_loop.txt", {":4: self-loop '2 2'"}},
      {"bad_duplicate_edge.txt", {":6: duplicate edge '2 1' (line 3 has '1 2')"}},
      {"bad_dangling_id.txt", {":4: node id 17 is out of range", "0 to 3 (the header says nodes 4)"}},
      {"bad_disconnected.txt", {"the graph is disconnected: node 3 is unreachable from node 0"}},
      {"bad_node_count.txt", {":1: node count 0 is out of range", "1 to 16777216"}},
      {"bad_node_count_overflow.txt", {":1: node count 99999999999999999999999 is out of range"}},
      {"bad_second_header.txt", {":3: second header 'nodes 3'"}},
  };
  for (const BadFile& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string path = dir + c.name;
    const std::string message = input_error([&] { load_edge_list(path); });
    expect_message(message, c.parts);
    EXPECT_EQ(message.rfind(path, 0), 0U) << "message does not start with the file name: " << message;
    // The spec form reports the same problem.
    EXPECT_EQ(input_error([&] { parse_topology("file:" + path); }), message);
  }
}

TEST(FromAdjacency, RejectsBadAdjacency) {
  using Adj = std::vector<std::vector<NodeId>>;
  expect_message(input_error([] { Topology::from_adjacency("g", Adj{}); }), {"g: the graph has no nodes"});
  expect_message(input_error([] {
                   Topology::from_adjacency("g", Adj{{1}, {0, 1}});
                 }),
                 {"node 1 lists itself (a self-loop)"});
  expect_message(input_error([] {
                   Topology::from_adjacency("g", Adj{{1, 1}, {0, 0}});
                 }),
                 {"node 0 lists neighbour 1 twice"});
  expect_message(input_error([] {
                   Topology::from_adjacency("g", Adj{{1, 2}, {0}, {}});
                 }),
                 {"node 0 lists 2 but node 2 does not list 0"});
  expect_message(input_error([] {
                   Topology::from_adjacency("g", Adj{{1}, {0, 5}});
                 }),
                 {"node 1 lists neighbour 5, which is out of range", "0 to 1"});
  expect_message(input_error([] {
                   Topology::from_adjacency("g", Adj{{1}, {0}, {3}, {2}});
                 }),
                 {"g: the graph is disconnected: node 2 is unreachable from node 0"});
}

}  // namespace
}  // namespace dlbkit
