// UTS speed: sequential nodes per second of the standard trees (docs/apps/uts.md), and
// the cost of one SHA-1 digest through OpenSSL's two interfaces.
//
// CountSequential/<tree> counts a whole tree with dlbkit::uts::count_sequential and checks
// the counts against the published ones (sample_trees.sh): a difference is reported as an
// error and the program exits with status 1. T1L and T3L (about 100 M nodes each) are the
// speed targets; T1 and T3 are there for a quick run (--benchmark_filter=T1$).
// Counter nodes_per_s: nodes per second of CPU time (the machine may be shared).
//
// WalkByNodeApi/T1 walks T1 through the per-node functions a runtime calls (root,
// child_count, child), with its own stack, to show what a task costs outside
// count_sequential.
//
// Sha1/<interface>: one 24-byte digest (a UTS child) by the low-level SHA1_Init/Update/
// Final that src/apps/uts.cpp uses, by EVP with a pre-initialised context copied per
// digest (the fastest EVP sequence found), and by EVP_Digest.

#define OPENSSL_SUPPRESS_DEPRECATED  // to measure the low-level interface src/apps/uts.cpp uses
#include <dlbkit/apps/uts.hpp>

#include <benchmark/benchmark.h>
#include <openssl/evp.h>
#include <openssl/sha.h>

#include <array>
#include <cstdio>
#include <cstdint>
#include <string>
#include <vector>

namespace {

bool g_counts_differ = false;

const char* const kTrees[] = {"T1", "T3", "T1L", "T3L"};

const dlbkit::uts::PublishedTree& published(const std::string& name) {
  if (const auto* t = dlbkit::uts::find_published(name)) return *t;
  std::fprintf(stderr, "no published tree %s\n", name.c_str());
  std::abort();
}

void check(benchmark::State& state, const dlbkit::uts::PublishedTree& tree, const dlbkit::uts::TreeCounts& counts) {
  if (counts.nodes == tree.nodes && counts.leaves == tree.leaves && counts.max_depth == tree.max_depth) return;
  g_counts_differ = true;
  state.SkipWithError(("counts differ from the published ones: " + std::to_string(counts.nodes) + " nodes, " +
                       std::to_string(counts.leaves) + " leaves, depth " + std::to_string(counts.max_depth))
                          .c_str());
}

void CountSequential(benchmark::State& state) {
  const auto& tree = published(kTrees[state.range(0)]);
  dlbkit::uts::TreeCounts counts;
  for (auto _ : state) {
    counts = dlbkit::uts::count_sequential(tree.params);
    benchmark::DoNotOptimize(counts);
  }
  state.SetLabel(tree.name);
  state.counters["nodes"] = static_cast<double>(counts.nodes);
  state.counters["nodes_per_s"] =
      benchmark::Counter(static_cast<double>(counts.nodes) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  check(state, tree, counts);
}
BENCHMARK(CountSequential)->DenseRange(0, 3)->Iterations(1)->Unit(benchmark::kSecond);

void WalkByNodeApi(benchmark::State& state) {
  const auto& tree = published("T1");
  dlbkit::uts::TreeCounts counts;
  for (auto _ : state) {
    counts = {};
    std::vector<dlbkit::uts::Node> stack{dlbkit::uts::root(tree.params)};
    while (!stack.empty()) {
      const dlbkit::uts::Node node = stack.back();
      stack.pop_back();
      ++counts.nodes;
      counts.max_depth = std::max(counts.max_depth, node.height);
      const int n = dlbkit::uts::child_count(tree.params, node);
      if (n == 0) ++counts.leaves;
      for (int i = 0; i < n; ++i) stack.push_back(dlbkit::uts::child(tree.params, node, i));
    }
  }
  state.SetLabel(tree.name);
  state.counters["nodes_per_s"] =
      benchmark::Counter(static_cast<double>(counts.nodes) * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  check(state, tree, counts);
}
BENCHMARK(WalkByNodeApi)->Iterations(1)->Unit(benchmark::kSecond);

void Sha1(benchmark::State& state) {
  std::array<unsigned char, 24> input{};
  std::array<unsigned char, 20> digest{};
  EVP_MD* md = EVP_MD_fetch(nullptr, "SHA1", nullptr);
  EVP_MD_CTX* proto = EVP_MD_CTX_new();
  EVP_MD_CTX* ctx = EVP_MD_CTX_new();
  EVP_DigestInit_ex2(proto, md, nullptr);
  std::uint32_t i = 0;
  for (auto _ : state) {
    input[23] = static_cast<unsigned char>(++i);
    input[0] ^= digest[0];  // a chain, as in a tree walk
    unsigned int size = 0;
    switch (state.range(0)) {
      case 0: {
        SHA_CTX c;
        SHA1_Init(&c);
        SHA1_Update(&c, input.data(), input.size());
        SHA1_Final(digest.data(), &c);
        break;
      }
      case 1:
        EVP_MD_CTX_copy_ex(ctx, proto);
        EVP_DigestUpdate(ctx, input.data(), input.size());
        EVP_DigestFinal_ex(ctx, digest.data(), &size);
        break;
      default:
        EVP_Digest(input.data(), input.size(), digest.data(), &size, md, nullptr);
        break;
    }
    benchmark::DoNotOptimize(digest);
  }
  const char* const labels[] = {"SHA1_Init/Update/Final (used)", "EVP, context copied per digest", "EVP_Digest"};
  state.SetLabel(labels[state.range(0)]);
  EVP_MD_CTX_free(ctx);
  EVP_MD_CTX_free(proto);
  EVP_MD_free(md);
}
BENCHMARK(Sha1)->DenseRange(0, 2);

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_counts_differ) std::fprintf(stderr, "uts_bench: some counts differ from the published ones\n");
  return g_counts_differ ? 1 : 0;
}
