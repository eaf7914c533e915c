#pragma once
/// \file
/// Generators of the interconnection networks used by the papers. Node numbering and the
/// neighbour order are part of the contract (strategies and tests rely on them):
///
/// | generator | nodes | numbering | neighbour order |
/// |---|---|---|---|
/// | hypercube(d), 1 <= d <= 24 | 2^d | the address bits | bit 0, 1, ..., d-1 |
/// | torus({A,B,...}), each >= 2 | A*B*... | mixed radix, axis 0 fastest | axis 0 +1, axis 0 -1, axis 1 +1, ... (one neighbour when an extent is 2) |
/// | mesh({A,B,...}), each >= 1 | A*B*... | as torus | as torus, missing border neighbours skipped |
/// | ring(N), N >= 3 | N | position | +1, -1 |
/// | binary_tree(L), 1 <= L <= 24 | 2^L - 1 | heap order (children of i: 2i+1, 2i+2) | parent, left, right |
/// | complete(N), N >= 1 | N | - | increasing id |
/// | bisectional(n), odd, 3 <= n <= 25 | 2^(n-1) | the low n-1 bits of the even-weight word | by the one bit kept, 0..n-1 |
/// | odd(n), 2 <= n <= 12 | C(2n-1, n-1) | rank of the weight-(n-1) word in increasing order | increasing id |
///
/// B_n and O_n are Ahmad & Ghafoor's (AG91 Sec. 3.2, 3.3): B_n joins even-weight words of
/// length n at Hamming distance n-1; O_n joins weight-(n-1) words of length 2n-1 at Hamming
/// distance 2n-2. Out-of-range arguments throw InputError naming the value and the range.

#include <dlbkit/topology/topology.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

Topology make_hypercube(int d);
Topology make_torus(const std::vector<int>& extents);
Topology make_mesh(const std::vector<int>& extents);
Topology make_ring(int n);
Topology make_binary_tree(int levels);
Topology make_complete(int n);
Topology make_bisectional(int n);
Topology make_odd(int n);

/// The binary word of node v in B_n or O_n (bit i = position i).
std::uint64_t bisectional_word(int n, NodeId v);
std::uint64_t odd_word(int n, NodeId v);

/// Reads an edge-list file (format in docs/topology-files.md):
///   # comment
///   nodes N
///   u v        one undirected edge per line, ids 0..N-1
/// Errors name the file, the line number and the problem.
Topology load_edge_list(const std::string& path);

}  // namespace dlbkit
