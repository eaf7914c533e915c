// dlbkit::apps alone: the UTS tree T1 (geometric, depth 10) counted by a walk of the
// program's own, against its published node count.

#include <dlbkit/apps/uts.hpp>

#include <cstdio>
#include <vector>

int main() {
  const dlbkit::uts::TreeParams tree = dlbkit::uts::named_tree("T1");
  const dlbkit::uts::PublishedTree* published = dlbkit::uts::find_published("T1");
  std::vector<dlbkit::uts::Node> stack{dlbkit::uts::root(tree)};
  unsigned long long nodes = 0;
  while (!stack.empty()) {
    const dlbkit::uts::Node n = stack.back();
    stack.pop_back();
    ++nodes;
    for (int i = 0, c = dlbkit::uts::child_count(tree, n); i < c; ++i) stack.push_back(dlbkit::uts::child(tree, n, i));
  }
  std::printf("UTS T1: %llu nodes\n", nodes);
  return published && nodes == published->nodes ? 0 : 1;
}
