// UTS tree specs (uts::parse_tree): a standard tree's name or key=value pairs. A valid
// tree passes check(), and its to_string() form (the keys that matter for its type) parses
// back, without an error, to a tree of the same form.
#include "contract.hpp"

#include <dlbkit/apps/uts.hpp>

#include <optional>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text = dlbkit::fuzz::text_of(data, size);
  if (!dlbkit::fuzz::command_line_text(text)) return -1;
  std::optional<dlbkit::uts::TreeParams> tree;
  dlbkit::fuzz::within_contract([&] { tree = dlbkit::uts::parse_tree(text); });
  if (!tree) return 0;
  // From here on an InputError breaks the contract: it escapes to libFuzzer.
  dlbkit::uts::check(*tree);
  const std::string form = dlbkit::uts::to_string(*tree);
  DLBKIT_FUZZ_CHECK(dlbkit::uts::to_string(dlbkit::uts::parse_tree(form)) == form);
  DLBKIT_FUZZ_CHECK(dlbkit::uts::child_count(*tree, dlbkit::uts::root(*tree)) >= 0);
  return 0;
}
