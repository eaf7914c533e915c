#include <dlbkit/error.hpp>
#include <dlbkit/phases/object_matching.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <numeric>
#include <utility>

namespace dlbkit {

namespace {

// Ids with their indices, in increasing id: sorted rather than hashed, 16 bytes an object.
std::vector<std::pair<std::uint64_t, ObjectIndex>> sorted(const std::vector<std::uint64_t>& ids) {
  std::vector<std::pair<std::uint64_t, ObjectIndex>> out(ids.size());
  for (ObjectIndex i = 0; i < ids.size(); ++i) out[i] = {ids[i], i};
  std::sort(out.begin(), out.end());
  return out;
}

// index_of_ids, `asked` the wanted ids sorted.
std::vector<ObjectIndex> index_in(const std::vector<std::uint64_t>& ids,
                                  const std::vector<std::pair<std::uint64_t, ObjectIndex>>& asked) {
  std::vector<ObjectIndex> index(asked.size(), kNewObject);
  const auto there = sorted(ids);
  for (auto a = asked.begin(), t = there.begin(); a != asked.end() && t != there.end();) {
    if (a->first < t->first) {
      ++a;
    } else if (t->first < a->first) {
      ++t;
    } else {
      index[a->second] = t->second;
      ++a;  // the next wanted may be the same id
    }
  }
  return index;
}

}  // namespace

std::vector<std::uint64_t> object_ids(const Phase& phase) {
  std::vector<std::uint64_t> ids(phase.objects.size());
  for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = phase.objects[i].id;
  return ids;
}

std::vector<ObjectIndex> index_of_ids(const std::vector<std::uint64_t>& ids, const std::vector<std::uint64_t>& wanted) {
  return index_in(ids, sorted(wanted));
}

std::vector<ObjectIndex> match_objects(const std::vector<std::uint64_t>& before, const Phase& phase,
                                       const std::string& what) {
  // The usual case, the same objects in the same order (`before`'s ids distinct, so these are).
  if (before.size() == phase.objects.size() &&
      std::equal(before.begin(), before.end(), phase.objects.begin(),
                 [](std::uint64_t id, const PhaseObject& o) { return id == o.id; })) {
    std::vector<ObjectIndex> match(before.size());
    std::iota(match.begin(), match.end(), ObjectIndex{0});
    return match;
  }
  const auto now = sorted(object_ids(phase));  // sorted once: for the ids told twice, then the match
  const auto twice =
      std::adjacent_find(now.begin(), now.end(), [](const auto& a, const auto& b) { return a.first == b.first; });
  if (twice != now.end())
    throw InputError(fmt::format("{}: two objects with id {}; accepted: each object of a phase with its own id", what,
                                 twice->first));
  return index_in(before, now);
}

}  // namespace dlbkit
