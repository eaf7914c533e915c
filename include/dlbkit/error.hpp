#pragma once
/// \file
/// The one exception type for bad user input: a topology spec, a parameter, a file.
/// Its message names the bad value and what would be accepted; the CLI prints it on one
/// line and exits with status 2. Broken internal invariants are asserted, not thrown.

#include <stdexcept>
#include <string>

namespace dlbkit {

class InputError : public std::invalid_argument {
public:
  explicit InputError(const std::string& what) : std::invalid_argument(what) {}
};

}  // namespace dlbkit
