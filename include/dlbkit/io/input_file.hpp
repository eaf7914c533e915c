#pragma once
/// \file
/// Opens a user's input file within bounds: a directory, a device (/dev/zero), a FIFO or a
/// socket is refused as such before anything is read, and so is a file larger than the
/// caller's cap, so that no reader runs out of memory or blames the content of something
/// that is not a file.
///
/// ```
/// std::ifstream in = dlbkit::open_input_file(path, "cost model file " + path, 1 << 20, "a JSON file");
/// std::string text = dlbkit::read_input_file(path, "cost model file " + path, 1 << 20, "a JSON file");
/// ```

#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

namespace dlbkit {

/// `path` opened for binary reading. `name` is what errors name, `accepted` what they say
/// would be accepted. Throws InputError for a missing or unreadable path, anything but a
/// regular file, or a file of more than `max_bytes`.
std::ifstream open_input_file(const std::string& path, std::string_view name, std::uint64_t max_bytes,
                              std::string_view accepted);

/// The whole content of `path`, checked as open_input_file does; a file that grew past
/// `max_bytes` while being read is refused too.
std::string read_input_file(const std::string& path, std::string_view name, std::uint64_t max_bytes,
                            std::string_view accepted);

}  // namespace dlbkit
