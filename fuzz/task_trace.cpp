// Task trace files (read_task_trace): any bytes either read as a tree, in which every task
// but a root is the child of exactly one task, or are rejected with an InputError.
#include "contract.hpp"

#include <dlbkit/core/task_trace.hpp>

#include <optional>
#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream in(std::string(dlbkit::fuzz::text_of(data, size)));
  std::optional<dlbkit::TaskTree> tree;
  dlbkit::fuzz::within_contract([&] { tree = dlbkit::read_task_trace(in, "fuzz.trace"); });
  if (!tree) return 0;
  const std::uint64_t n = tree->tasks();
  DLBKIT_FUZZ_CHECK(tree->first_child.size() == n + 1);
  DLBKIT_FUZZ_CHECK(tree->first_child.back() == tree->children.size());
  DLBKIT_FUZZ_CHECK(tree->children.size() + tree->roots.size() == n);
  DLBKIT_FUZZ_CHECK(tree->roots.size() == tree->root_origin.size());
  for (const std::uint32_t c : tree->children) DLBKIT_FUZZ_CHECK(c < n);
  for (const std::uint32_t o : tree->root_origin) DLBKIT_FUZZ_CHECK(o < tree->workers);
  DLBKIT_FUZZ_CHECK(tree->total_duration() >= 0);
  return 0;
}
