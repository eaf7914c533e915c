#pragma once
// Test support: ObjectRuntime's options for a quiet run on threads.

#include <dlbkit/objects/object_runtime_options.hpp>

#include <cstddef>
#include <string>

namespace dlbkit::test {

/// The threads engine with `workers` workers, `strategy`, nothing printed.
inline ObjectRuntimeOptions threads_options(const std::string& strategy, std::size_t workers) {
  ObjectRuntimeOptions o;
  o.engine = "threads";
  o.strategy = strategy;
  o.workers = workers;
  o.quiet = true;
  return o;
}

}  // namespace dlbkit::test
