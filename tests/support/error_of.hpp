#pragma once
// Test support: the message of the InputError a call throws.

#include <dlbkit/error.hpp>

#include <functional>
#include <string>

namespace dlbkit::test {

/// The InputError's message that `f` throws, or "no error".
inline std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace dlbkit::test
