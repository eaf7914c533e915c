#pragma once
/// \file
/// The one reader of numbers in user input. The whole text must be the number, in decimal:
/// no blanks around it, no hexadecimal (0x1), no '+', and for reals a finite value (not
/// inf, nan or an overflow such as 1e400). Callers that admit inf test for it first, and
/// report a false return as an InputError naming the text and what is accepted.

#include <charconv>
#include <cmath>
#include <string_view>
#include <type_traits>

namespace dlbkit {

template <class T>
  requires std::is_arithmetic_v<T> && (!std::is_same_v<T, bool>)
bool parse_number(std::string_view text, T& out) {
  T x{};
  const char* last = text.data() + text.size();
  const auto [end, ec] = std::from_chars(text.data(), last, x);
  if (text.empty() || ec != std::errc() || end != last) return false;
  if constexpr (std::is_floating_point_v<T>)
    if (!std::isfinite(x)) return false;
  out = x;
  return true;
}

}  // namespace dlbkit
