#pragma once
/// \file
/// dlbkit's own applications (`dlbkit run --app`, the tests' and the calibration's): an
/// application with a report of its result as JSON, for people and for the check of a
/// parallel run against the sequential one (same_result, engine.hpp). A program of its own
/// needs none of this: dlbkit::Runtime returns its typed Result.

#include <dlbkit/runtime/application.hpp>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace dlbkit {

/// The byte interface with a report.
class AnyApplication : public detail::ByteApplication {
public:
  /// The result for people and for the check against the sequential run.
  virtual nlohmann::json report_bytes(const std::byte* result) const = 0;
  /// Keys of report_bytes() that must equal the sequential run's (all by default; a B&B
  /// optimum is exact, the optimal schedule found first may differ).
  virtual std::vector<std::string> exact_keys() const { return {}; }
};

/// An Application<Task, Result> with a report.
template <class Task, class Result>
class ReportedApplication : public detail::TypedApplication<Task, Result, AnyApplication> {
public:
  /// The result as JSON.
  virtual nlohmann::json report(const Result&) const = 0;

  nlohmann::json report_bytes(const std::byte* bytes) const final {
    if constexpr (travels_as_bytes<Result>) return report(from_bytes<Result>(std::span(bytes, sizeof(Result))));
    else return nullptr;
  }
};

}  // namespace dlbkit
