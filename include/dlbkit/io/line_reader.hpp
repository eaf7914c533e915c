#pragma once
/// \file
/// Reads a user's text file line by line within bounds, so that a file such as /dev/zero
/// (one endless line) or a huge one ends with an InputError naming the file and the bound
/// instead of exhausting memory. Every reader of input files (edge lists, initial loads,
/// alpha files, tardiness instances) goes through it.
///
/// ```
/// std::ifstream in(path);
/// dlbkit::LineReader lines(in, path);
/// for (std::string line; lines.next(line);) use(line, lines.line_number());
/// ```

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <utility>

namespace dlbkit {

class LineReader {
public:
  static constexpr std::size_t kMaxLineLength = 4096;     ///< characters, without the newline
  static constexpr std::uint64_t kMaxBytes = 1ULL << 30;  ///< 1 GiB in all

  /// `name` (usually the path) is what errors name.
  LineReader(std::istream& in, std::string name) : in_(in), name_(std::move(name)) {}

  /// The next line, without its newline, into `line`; false at the end of the file.
  /// Throws InputError for a line longer than kMaxLineLength or a file past kMaxBytes.
  bool next(std::string& line);

  /// The number of the line last read, from 1.
  std::size_t line_number() const { return line_number_; }

private:
  std::istream& in_;
  std::string name_;
  std::size_t line_number_ = 0;
  std::uint64_t bytes_ = 0;
};

}  // namespace dlbkit
