// Bounded user inputs: a path that is not a regular file or is too large is refused as such
// before it is read, JSON nested too deep or with a key given twice is refused while
// parsing, and an error quotes a value as a short, printable excerpt.

#include <dlbkit/error.hpp>
#include <dlbkit/io/input_file.hpp>
#include <dlbkit/io/json_input.hpp>

#include "../support/temp_path.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <sys/stat.h>

namespace {

// The InputError's message of `f`, or "" when none was thrown.
template <class F>
std::string refusal(F f) {
  try {
    f();
  } catch (const dlbkit::InputError& e) {
    return e.what();
  }
  return "";
}

std::string read(const std::string& path, std::uint64_t cap = 100) {
  return dlbkit::read_input_file(path, "input " + path, cap, "a small file");
}

}  // namespace

TEST(InputFile, ReadsARegularFileWithinItsCap) {
  const std::string path = dlbkit::test::temp_path("bounded-small").string();
  std::ofstream(path) << std::string(100, 'x');
  EXPECT_EQ(read(path), std::string(100, 'x'));
  EXPECT_NE(refusal([&] { read(path, 99); }).find("100 bytes, larger than 99 bytes; accepted: a small file"),
            std::string::npos);
  std::filesystem::remove(path);
}

TEST(InputFile, NamesWhatIsNotARegularFile) {
  const std::string dir = dlbkit::test::temp_dir("bounded-dir");
  std::filesystem::create_directory(dir);
  EXPECT_EQ(refusal([&] { read(dir); }), "input " + dir + ": a directory; accepted: a small file");
  EXPECT_NE(refusal([] { read("/dev/zero"); }).find("/dev/zero: a device"), std::string::npos);
  const std::string fifo = dir + "/fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  EXPECT_NE(refusal([&] { read(fifo); }).find("a FIFO"), std::string::npos);  // refused without blocking on open
  EXPECT_NE(refusal([&] { read(dir + "/missing"); }).find("cannot be read (No such file or directory)"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(JsonInput, RefusesDeepNestingWithoutRecursion) {
  const std::size_t depth = 100'000;
  const std::string deep = "{\"latency\": " + std::string(depth, '[') + std::string(depth, ']') + "}";
  const std::string message = refusal([&] { dlbkit::parse_json_input(deep, "cost.json"); });
  EXPECT_NE(message.find("cost.json: arrays or objects nested more than 64 deep"), std::string::npos);
  EXPECT_LT(message.size(), 200u);
  const std::string limit = std::string(dlbkit::kMaxJsonDepth, '[') + std::string(dlbkit::kMaxJsonDepth, ']');
  EXPECT_NO_THROW(dlbkit::parse_json_input(limit, "ok.json"));
  EXPECT_NE(refusal([&] { dlbkit::parse_json_input("[" + limit + "]", "x"); }).find("nested"), std::string::npos);
}

TEST(JsonInput, RefusesADuplicateKey) {
  EXPECT_NE(refusal([] { dlbkit::parse_json_input(R"({"a": {"b": 1, "b": 2}})", "f"); })
                .find("f: the key \"b\" appears twice in one object"),
            std::string::npos);
  EXPECT_EQ(dlbkit::parse_json_input(R"([{"b": 1}, {"b": 2}])", "f").size(), 2u);  // one key in two objects
  EXPECT_NE(refusal([] { dlbkit::parse_json_input("{\"a\": tru}", "f"); }).find("f: not JSON"), std::string::npos);
}

TEST(Excerpt, IsShortPrintableAndCutVisibly) {
  EXPECT_EQ(dlbkit::excerpt("hypercube:12"), "hypercube:12");
  EXPECT_EQ(dlbkit::excerpt(std::string(10'000, '9')), std::string(60, '9') + "...");
  EXPECT_EQ(dlbkit::excerpt("a\nb\x1b\x7f"), "a\\nb\\x1b\\x7f");
  EXPECT_EQ(dlbkit::excerpt("caf\xc3\xa9 \xff\xc3("), "caf\xc3\xa9 \\xff\\xc3(");  // valid UTF-8 is kept
  EXPECT_EQ(dlbkit::excerpt("\xed\xa0\x80"), "\\xed\\xa0\\x80");                    // a surrogate is not UTF-8
  EXPECT_EQ(dlbkit::excerpt("\xc3\xa9\xc3\xa9\xc3\xa9", 2), "\xc3\xa9\xc3\xa9...");  // counts characters
}
