#include "hierarchical_groups.hpp"

#include <algorithm>
#include <functional>
#include <numeric>
#include <queue>

namespace dlbkit::detail {

namespace {

using Entry = std::pair<double, std::size_t>;  // a load, a member's index
using MostLoaded = std::priority_queue<Entry>;
using LeastLoaded = std::priority_queue<Entry, std::vector<Entry>, std::greater<>>;

bool lighter(const ObjectRecord& a, const ObjectRecord& b) { return a.load < b.load; }
bool heavier(const ObjectRecord& a, const ObjectRecord& b) { return a.load > b.load; }

/// Removes the object `id` from m.
void remove(GroupMember& m, std::uint64_t id) {
  const auto it = std::find_if(m.objects.begin(), m.objects.end(), [&](const ObjectRecord& r) { return r.id == id; });
  m.remove(static_cast<std::size_t>(it - m.objects.begin()));
}

}  // namespace

std::vector<GroupFlow> group_transport(const Groups& groups, const std::vector<double>& totals, double tolerance) {
  const double per_node = std::accumulate(totals.begin(), totals.end(), 0.0) / static_cast<double>(groups.nodes);
  std::vector<double> excess(groups.count()), room(groups.count());
  for (std::size_t g = 0; g < groups.count(); ++g) {
    const double share = per_node * static_cast<double>(groups.members(g));
    excess[g] = totals[g] > (1 + tolerance) * share ? totals[g] - share : 0;
    room[g] = std::max(0.0, share - totals[g]);
  }
  std::vector<GroupFlow> flows;
  std::size_t to = 0;  // the first group with room left
  for (std::size_t from = 0; from < groups.count(); ++from)
    while (excess[from] > 0 && to < groups.count()) {
      if (room[to] <= 0) {
        ++to;
        continue;
      }
      const double amount = std::min(excess[from], room[to]);
      flows.push_back({from, to, amount});
      excess[from] -= amount;
      room[to] -= amount;
    }
  return flows;
}

std::vector<std::vector<ObjectRecord>> take_for_flows(std::vector<GroupMember>& members,
                                                      const std::vector<double>& flows) {
  // Each node's movable objects, lightest first.
  std::vector<std::vector<ObjectRecord>> movable(members.size());
  for (std::size_t k = 0; k < members.size(); ++k) {
    for (const ObjectRecord& o : members[k].objects)
      if (o.migratable && o.load > 0) movable[k].push_back(o);
    std::stable_sort(movable[k].begin(), movable[k].end(), lighter);
  }
  std::vector<std::vector<ObjectRecord>> taken(flows.size());
  for (std::size_t f = 0; f < flows.size(); ++f) {
    MostLoaded givers;
    for (std::size_t k = 0; k < members.size(); ++k)
      if (!movable[k].empty()) givers.emplace(members[k].load, k);
    double moved = 0;
    while (!givers.empty()) {
      const std::size_t giver = givers.top().second;
      givers.pop();
      // Its heaviest object within the flow still owed, else its lightest where that lands
      // nearer the flow than the gap (diffusion's selection, docs/phases.md); none: it can
      // give nothing more, as what is owed only falls.
      auto& objects = movable[giver];
      const double owed = flows[f] - moved;
      auto pick = std::upper_bound(objects.begin(), objects.end(), owed,
                                   [](double o, const ObjectRecord& r) { return o < r.load; });
      if (pick != objects.begin()) --pick;
      else if (objects.empty() || objects.front().load >= 2 * owed) continue;
      const ObjectRecord o = *pick;
      objects.erase(pick);
      remove(members[giver], o.id);
      taken[f].push_back(o);
      moved += o.load;
      givers.emplace(members[giver].load, giver);
    }
  }
  return taken;
}

std::vector<std::ptrdiff_t> place(std::vector<GroupMember>& members, const std::vector<ObjectRecord>& objects,
                                  double bound) {
  LeastLoaded receivers;
  for (std::size_t k = 0; k < members.size(); ++k) receivers.emplace(members[k].load, k);
  std::vector<std::ptrdiff_t> where;
  for (const ObjectRecord& o : objects) {
    std::vector<Entry> full;  // receivers without room for it
    while (!receivers.empty() && !members[receivers.top().second].fits(o, bound)) {
      full.push_back(receivers.top());
      receivers.pop();
    }
    if (receivers.empty()) {
      where.push_back(-1);
    } else {
      const std::size_t k = receivers.top().second;
      receivers.pop();
      members[k].add(o);
      receivers.emplace(members[k].load, k);
      where.push_back(static_cast<std::ptrdiff_t>(k));
    }
    for (const Entry& e : full) receivers.push(e);
  }
  return where;
}

std::vector<ObjectRecord> balance_inside(std::vector<GroupMember>& members, bool greedy, double tolerance,
                                         double bound) {
  std::vector<ObjectRecord> unplaced;
  if (greedy) {  // GreedyLB: every movable object dealt again, heaviest first
    // Each object leaves its node only as it is dealt, so that its node has room for it.
    std::vector<std::pair<ObjectRecord, std::size_t>> movable;  // with the member it is on
    std::vector<double> fixed(members.size(), 0.0);             // the loads that stay
    for (std::size_t k = 0; k < members.size(); ++k)
      for (const ObjectRecord& o : members[k].objects) {
        if (o.migratable) movable.emplace_back(o, k);
        else fixed[k] += o.load;
      }
    std::stable_sort(movable.begin(), movable.end(),
                     [](const auto& a, const auto& b) { return heavier(a.first, b.first); });
    LeastLoaded lightest;  // by the loads dealt so far
    for (std::size_t k = 0; k < members.size(); ++k) lightest.emplace(fixed[k], k);
    std::vector<Entry> full;  // nodes without room for the current object
    for (const auto& [o, home] : movable) {
      remove(members[home], o.id);
      // Its own node is in the heap, and takes it back whatever the bound, as it held it.
      while (lightest.top().second != home && !members[lightest.top().second].fits(o, bound)) {
        full.push_back(lightest.top());
        lightest.pop();
      }
      const std::size_t chosen = lightest.top().second;
      lightest.pop();
      for (const Entry& e : full) lightest.push(e);
      full.clear();
      members[chosen].add(o);
      fixed[chosen] += o.load;
      lightest.emplace(fixed[chosen], chosen);
    }
    return unplaced;
  }
  // RefineLB.
  double sum = 0;
  for (const GroupMember& m : members) sum += m.load;
  const double threshold = (1 + tolerance) * sum / static_cast<double>(members.size());
  LeastLoaded lightest;
  std::vector<std::size_t> donors;
  for (std::size_t k = 0; k < members.size(); ++k) {
    if (members[k].load > threshold) donors.push_back(k);
    else lightest.emplace(members[k].load, k);
  }
  std::stable_sort(donors.begin(), donors.end(), [&](std::size_t x, std::size_t y) { return members[x].load > members[y].load; });
  for (const std::size_t donor : donors) {
    std::vector<ObjectRecord> given = members[donor].objects;
    std::stable_sort(given.begin(), given.end(), heavier);
    for (const ObjectRecord& o : given) {
      if (lightest.empty() || members[donor].load <= threshold) break;
      if (!o.migratable) continue;
      const auto [receiver_load, receiver] = lightest.top();
      if (receiver_load + o.load > threshold) continue;
      if (!members[receiver].fits(o, bound)) {
        unplaced.push_back(o);
        continue;
      }
      remove(members[donor], o.id);
      members[receiver].add(o);
      lightest.pop();
      lightest.emplace(members[receiver].load, receiver);
    }
  }
  return unplaced;
}

}  // namespace dlbkit::detail
