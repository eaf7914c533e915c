#pragma once
/// \file
/// A user's value as an error message quotes it: control characters and invalid UTF-8 as C
/// escapes (`\x1b`), at most `max_chars` characters, then "..." when cut, so that a
/// 10 000-digit spec or a binary file gives a short, printable line.
///
/// ```
/// throw InputError(fmt::format("unknown cost model '{}'; accepted: ...", dlbkit::excerpt(preset)));
/// ```

#include <cstddef>
#include <string>
#include <string_view>

namespace dlbkit {

std::string excerpt(std::string_view value, std::size_t max_chars = 60);

}  // namespace dlbkit
