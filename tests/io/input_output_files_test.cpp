// The bounded line reader and the checked file writer every input and output file goes through.

#include <dlbkit/io/line_reader.hpp>
#include <dlbkit/core/number.hpp>
#include <dlbkit/io/output_file.hpp>
#include <dlbkit/error.hpp>

#include "../support/temp_path.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

std::vector<std::string> all_lines(const std::string& text) {
  std::istringstream in(text);
  dlbkit::LineReader reader(in, "test");
  std::vector<std::string> out;
  for (std::string line; reader.next(line);) {
    out.push_back(line);
    EXPECT_EQ(reader.line_number(), out.size());
  }
  return out;
}

}  // namespace

TEST(LineReader, ReadsLinesAsGetlineDoes) {
  EXPECT_EQ(all_lines(""), std::vector<std::string>{});
  EXPECT_EQ(all_lines("a\n\nb"), (std::vector<std::string>{"a", "", "b"}));
  EXPECT_EQ(all_lines("a\nb\n"), (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(all_lines(std::string("a\0b\n", 4)), std::vector<std::string>{std::string("a\0b", 3)});
  const std::string longest(dlbkit::LineReader::kMaxLineLength, 'x');
  EXPECT_EQ(all_lines(longest + "\n" + longest), (std::vector<std::string>{longest, longest}));
}

TEST(LineReader, ALineTooLongIsAnInputErrorNamingTheLine) {
  const std::string longest(dlbkit::LineReader::kMaxLineLength, 'x');
  for (const std::string& text : {"ok\n" + longest + "y\n", "ok\n" + longest + "y", "ok\n" + longest + "yy"}) {
    try {
      all_lines(text);
      ADD_FAILURE() << "no error for a line of " << text.size() - 3 << " characters";
    } catch (const dlbkit::InputError& e) {
      EXPECT_EQ(std::string(e.what()).rfind("test:2: a line longer than 4096 characters; accepted:", 0), 0u) << e.what();
    }
  }
  std::ifstream zero("/dev/zero");
  dlbkit::LineReader reader(zero, "/dev/zero");
  std::string line;
  EXPECT_THROW(reader.next(line), dlbkit::InputError);
}

TEST(LineReader, AnUnreadableStreamEndsAtOnce) {
  std::ifstream missing(dlbkit::test::temp_path("no-such-file"));
  dlbkit::LineReader reader(missing, "missing");
  std::string line;
  EXPECT_FALSE(reader.next(line));
}

TEST(OutputFile, WritesTheTextAndReportsAFullDisk) {
  const std::string path = dlbkit::test::temp_path("written.txt").string();
  dlbkit::write_text_file(path, "a,b\n1,2\n");
  std::stringstream back;
  back << std::ifstream(path).rdbuf();
  EXPECT_EQ(back.str(), "a,b\n1,2\n");
  std::remove(path.c_str());
  // /dev/full accepts the open and the buffered write; only the flush fails.
  EXPECT_THROW(dlbkit::write_text_file("/dev/full", "x"), dlbkit::InputError);
  EXPECT_THROW(dlbkit::write_text_file(dlbkit::test::temp_path("no-such-dir").string() + "/f", "x"), dlbkit::InputError);
}

TEST(ParseNumber, DecimalOnlyWholeTextFinite) {
  double x = -1;
  long long i = -1;
  unsigned long long u = 0;
  EXPECT_TRUE(dlbkit::parse_number("2.5e3", x));
  EXPECT_EQ(x, 2500);
  EXPECT_TRUE(dlbkit::parse_number("-7", i));
  EXPECT_EQ(i, -7);
  for (const char* bad : {"", " 1", "1 ", "0x1", "+1", "1e400", "inf", "nan", "1,5"}) {
    EXPECT_FALSE(dlbkit::parse_number(bad, x)) << bad;
    EXPECT_EQ(x, 2500) << "a rejected text leaves the output alone";
  }
  for (const char* bad : {"0x1", "1.0", "1e3", "-1", "18446744073709551616"}) EXPECT_FALSE(dlbkit::parse_number(bad, u)) << bad;
}
