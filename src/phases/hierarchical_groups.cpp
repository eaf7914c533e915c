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

/// The members of each speed in a heap by load, least loaded on top: the member where an
/// object of load w ends first, least (load + w) / speed, is one of the tops (greedy.cpp's
/// classes). With one speed it is the least loaded member, the heap alone.
class FirstEnd {
public:
  static constexpr std::size_t kNone = ~std::size_t{0};
  void push(double speed, Entry e) {
    auto c = std::find_if(classes_.begin(), classes_.end(), [&](const auto& k) { return k.first == speed; });
    if (c == classes_.end()) c = classes_.insert(c, {speed, LeastLoaded()});
    c->second.push(e);
  }
  void push(std::size_t c, Entry e) { classes_[c].second.push(e); }
  /// The class whose top ends an object of load w first (the first such class), kNone when empty.
  std::size_t best(double w) const {
    std::size_t best = kNone;
    for (std::size_t c = 0; c < classes_.size(); ++c)
      if (!classes_[c].second.empty() && (best == kNone || end(c, w) < end(best, w))) best = c;
    return best;
  }
  const Entry& top(std::size_t c) const { return classes_[c].second.top(); }
  void pop(std::size_t c) { classes_[c].second.pop(); }

private:
  double end(std::size_t c, double w) const { return (classes_[c].second.top().first + w) / classes_[c].first; }
  std::vector<std::pair<double, LeastLoaded>> classes_;  // (speed, its members)
};

/// Removes the object `id` from m.
void remove(GroupMember& m, std::uint64_t id) {
  const auto it = std::find_if(m.objects.begin(), m.objects.end(), [&](const ObjectRecord& r) { return r.id == id; });
  m.remove(static_cast<std::size_t>(it - m.objects.begin()));
}

}  // namespace

std::vector<GroupFlow> group_transport(const Groups& groups, const std::vector<double>& totals, double tolerance) {
  // Each group's speed, summed over its nodes (on equal nodes its node count, exactly).
  std::vector<double> speeds(groups.count(), 0.0);
  for (NodeId v = 0; v < groups.nodes; ++v) speeds[groups.of(v)] += groups.speed(v);
  const double per_speed = std::accumulate(totals.begin(), totals.end(), 0.0) /
                           std::accumulate(speeds.begin(), speeds.end(), 0.0);
  std::vector<double> excess(groups.count()), room(groups.count());
  for (std::size_t g = 0; g < groups.count(); ++g) {
    const double share = per_speed * speeds[g];
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
      if (!movable[k].empty()) givers.emplace(members[k].time(), k);
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
      givers.emplace(members[giver].time(), giver);
    }
  }
  return taken;
}

std::vector<std::ptrdiff_t> place(std::vector<GroupMember>& members, const std::vector<ObjectRecord>& objects,
                                  double bound) {
  FirstEnd receivers;
  for (std::size_t k = 0; k < members.size(); ++k) receivers.push(members[k].speed, {members[k].load, k});
  std::vector<std::ptrdiff_t> where;
  std::vector<std::pair<std::size_t, Entry>> full;  // (class, receiver) without room for it
  for (const ObjectRecord& o : objects) {
    std::size_t c = receivers.best(o.load);
    while (c != FirstEnd::kNone && !members[receivers.top(c).second].fits(o, bound)) {
      full.emplace_back(c, receivers.top(c));
      receivers.pop(c);
      c = receivers.best(o.load);
    }
    if (c == FirstEnd::kNone) {
      where.push_back(-1);
    } else {
      const std::size_t k = receivers.top(c).second;
      receivers.pop(c);
      members[k].add(o);
      receivers.push(c, {members[k].load, k});
      where.push_back(static_cast<std::ptrdiff_t>(k));
    }
    for (const auto& [k, e] : full) receivers.push(k, e);
    full.clear();
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
    FirstEnd lightest;  // by the loads dealt so far
    for (std::size_t k = 0; k < members.size(); ++k) lightest.push(members[k].speed, {fixed[k], k});
    std::vector<std::pair<std::size_t, Entry>> full;  // (class, node) without room for the current object
    for (const auto& [o, home] : movable) {
      remove(members[home], o.id);
      // Its own node is in a heap, and takes it back whatever the bound, as it held it.
      std::size_t c = lightest.best(o.load);
      while (lightest.top(c).second != home && !members[lightest.top(c).second].fits(o, bound)) {
        full.emplace_back(c, lightest.top(c));
        lightest.pop(c);
        c = lightest.best(o.load);
      }
      const std::size_t chosen = lightest.top(c).second;
      lightest.pop(c);
      for (const auto& [k, e] : full) lightest.push(k, e);
      full.clear();
      members[chosen].add(o);
      fixed[chosen] += o.load;
      lightest.push(c, {fixed[chosen], chosen});
    }
    return unplaced;
  }
  // RefineLB, on times (on equal nodes, loads against (1 + tolerance) x their mean).
  double sum = 0, speed = 0;
  for (const GroupMember& m : members) {
    sum += m.load;
    speed += m.speed;
  }
  const double threshold = (1 + tolerance) * sum / speed;
  LeastLoaded lightest;  // by time
  std::vector<std::size_t> donors;
  for (std::size_t k = 0; k < members.size(); ++k) {
    if (members[k].time() > threshold) donors.push_back(k);
    else lightest.emplace(members[k].time(), k);
  }
  std::stable_sort(donors.begin(), donors.end(),
                   [&](std::size_t x, std::size_t y) { return members[x].time() > members[y].time(); });
  for (const std::size_t donor : donors) {
    std::vector<ObjectRecord> given = members[donor].objects;
    std::stable_sort(given.begin(), given.end(), heavier);
    for (const ObjectRecord& o : given) {
      if (lightest.empty() || members[donor].time() <= threshold) break;
      if (!o.migratable) continue;
      const std::size_t receiver = lightest.top().second;
      if (members[receiver].time(o.load) > threshold) continue;
      if (!members[receiver].fits(o, bound)) {
        unplaced.push_back(o);
        continue;
      }
      remove(members[donor], o.id);
      members[receiver].add(o);
      lightest.pop();
      lightest.emplace(members[receiver].time(), receiver);
    }
  }
  return unplaced;
}

}  // namespace dlbkit::detail
