#include <dlbkit/io/json_input.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>
#include <set>
#include <vector>

namespace dlbkit {

nlohmann::json parse_json_input(std::string_view text, std::string_view name) {
  using Event = nlohmann::json::parse_event_t;
  // The keys seen in each open array or object (always empty for an array).
  std::vector<std::set<std::string>> open;
  const auto check = [&](int /*depth*/, Event event, nlohmann::json& parsed) {
    if (event == Event::object_start || event == Event::array_start) {
      if (open.size() >= static_cast<std::size_t>(kMaxJsonDepth))
        throw InputError(fmt::format("{}: arrays or objects nested more than {} deep; accepted: JSON nested at most {} "
                                     "deep",
                                     name, kMaxJsonDepth, kMaxJsonDepth));
      open.emplace_back();
    } else if (event == Event::object_end || event == Event::array_end) {
      open.pop_back();
    } else if (event == Event::key && !open.back().insert(parsed.get<std::string>()).second) {
      throw InputError(fmt::format("{}: the key \"{}\" appears twice in one object; accepted: each key once", name,
                                   excerpt(parsed.get<std::string>())));
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, check);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(fmt::format("{}: not JSON ({}); accepted: a JSON file", name, excerpt(e.what(), 200)));
  }
}

}  // namespace dlbkit
