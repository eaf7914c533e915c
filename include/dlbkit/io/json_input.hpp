#pragma once
/// \file
/// Parses a user's JSON file within bounds: nesting deeper than kMaxJsonDepth and a key
/// given twice in one object are refused while parsing, so that no recursive code (the
/// destructor, dump()) ever runs on an attacker's depth and no value is silently replaced.
///
/// ```
/// nlohmann::json j = dlbkit::parse_json_input(text, "cost model file " + path);
/// ```

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace dlbkit {

constexpr int kMaxJsonDepth = 64;  ///< nested arrays and objects, the outermost counting 1

/// `text` as JSON. Throws InputError naming `name` for text that is not JSON, nesting deeper
/// than kMaxJsonDepth or a duplicate key.
nlohmann::json parse_json_input(std::string_view text, std::string_view name);

}  // namespace dlbkit
