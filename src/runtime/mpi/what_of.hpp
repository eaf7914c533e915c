#pragma once
// What a rank tells the others of its error before every rank throws it (the engine's
// agreements): its message, and whether it is bad input. Any kind of exception, so that the
// others never wait for a rank that could not say.

#include <dlbkit/error.hpp>

#include <exception>
#include <string>

namespace dlbkit::detail {

inline std::string what_of(const std::exception_ptr& error, int& bad_input) {
  bad_input = 0;
  try {
    std::rethrow_exception(error);
  } catch (const InputError& e) {
    bad_input = 1;
    return e.what();
  } catch (const std::exception& e) {
    return e.what();
  } catch (...) {
    return "an exception not derived from std::exception";
  }
}

}  // namespace dlbkit::detail
