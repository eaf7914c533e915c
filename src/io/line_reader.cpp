#include <dlbkit/io/line_reader.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>

namespace dlbkit {

bool LineReader::next(std::string& line) {
  // istream::getline stores at most count - 1 characters and sets failbit when the line
  // goes on; it extracts (and counts) the newline without storing it.
  line.resize(kMaxLineLength + 1);
  in_.getline(line.data(), static_cast<std::streamsize>(kMaxLineLength + 2));
  const auto extracted = static_cast<std::size_t>(in_.gcount());
  if (in_.fail() && extracted == 0) return false;  // the end, or a stream that cannot be read
  const bool newline = !in_.eof() && !in_.fail();
  const std::size_t length = newline ? extracted - 1 : extracted;
  if (in_.fail() || length > kMaxLineLength)
    throw InputError(fmt::format("{}:{}: a line longer than {} characters; accepted: a text file with lines of at most {} "
                                 "characters",
                                 name_, line_number_ + 1, kMaxLineLength, kMaxLineLength));
  line.resize(length);
  ++line_number_;
  bytes_ += extracted;
  if (bytes_ > kMaxBytes)
    throw InputError(fmt::format("{}: larger than {} bytes; accepted: a text file of at most 1 GiB", name_, kMaxBytes));
  return true;
}

}  // namespace dlbkit
