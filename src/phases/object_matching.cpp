#include <dlbkit/error.hpp>
#include <dlbkit/phases/object_matching.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <unordered_map>

namespace dlbkit {

std::vector<std::uint64_t> object_ids(const Phase& phase) {
  std::vector<std::uint64_t> ids(phase.objects.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = phase.objects[i].id;
  return ids;
}

std::vector<ObjectIndex> match_objects(const std::vector<std::uint64_t>& before, const Phase& phase,
                                       const std::string& what) {
  std::vector<ObjectIndex> match(phase.objects.size(), kNewObject);
  // The usual case, the same objects in the same order, without a hash table (`before`'s ids
  // are distinct, so these are too).
  if (before.size() == match.size() &&
      std::equal(before.begin(), before.end(), phase.objects.begin(),
                 [](std::uint64_t id, const PhaseObject& o) { return id == o.id; })) {
    std::iota(match.begin(), match.end(), ObjectIndex{0});
    return match;
  }
  std::unordered_map<std::uint64_t, ObjectIndex> index;
  index.reserve(phase.objects.size());
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i)
    if (!index.try_emplace(phase.objects[i].id, i).second)
      throw InputError(fmt::format("{}: two objects with id {}; accepted: each object of a phase with its own id",
                                   what, phase.objects[i].id));
  for (ObjectIndex j = 0; j < before.size(); ++j)
    if (const auto it = index.find(before[j]); it != index.end()) match[it->second] = j;
  return match;
}

}  // namespace dlbkit
