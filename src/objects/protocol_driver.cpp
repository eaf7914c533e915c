#include <dlbkit/objects/detail/protocol_driver.hpp>

#include <dlbkit/core/random.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <thread>

namespace dlbkit::detail {

namespace {

// What a rank tells every rank each round, as doubles (the counts are exact below 2^53):
// whether its agent threw, whether it is done, its messages and its largest, then the
// lengths of its sums and maxima and their values.
enum Field : std::size_t { kFailed, kDone, kMessages, kLargest, kSums, kMaxima, kFields };

std::vector<std::byte> as_bytes(const std::vector<double>& values) {
  std::vector<std::byte> bytes(values.size() * sizeof(double));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<double> as_doubles(const std::vector<std::byte>& bytes) {
  std::vector<double> values(bytes.size() / sizeof(double));
  std::memcpy(values.data(), bytes.data(), values.size() * sizeof(double));
  return values;
}

}  // namespace

RankPlan run_rank_protocol(const DistributedEngine& engine, const RankProtocolFactory& make, const LocalPhase& mine,
                           const Topology& topology, double memory_bound, std::uint64_t seed,
                           const ProtocolDriverOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  const auto rank = static_cast<NodeId>(engine.rank());
  // Every rank's speed, known alike (RankSetup::speeds, as the in-process driver gives them):
  // none where they are all 1.
  std::vector<double> speeds;
  for (const auto& bytes : engine.all_gather(std::as_bytes(std::span(&mine.speed, 1))))
    speeds.push_back(as_doubles(bytes).front());
  if (std::all_of(speeds.begin(), speeds.end(), [](double s) { return s == 1; })) speeds.clear();
  std::unique_ptr<RankProtocol> agent;
  on_every_rank(engine, [&] {
    if (topology.size() != static_cast<std::size_t>(engine.size()))
      throw InputError(fmt::format("a rank protocol on topology {} of {} nodes for {} ranks; accepted: {} nodes",
                                   topology.spec(), topology.size(), engine.size(), engine.size()));
    agent = make({.mine = mine, .rank = rank, .topology = topology, .memory_bound = memory_bound, .seed = seed,
                  .speeds = speeds});
  });

  Rng delays(~seed, rank);
  RankPlan plan;
  std::vector<ProtocolMessage> inbox;
  std::vector<double> sums, maxima;
  const std::uint64_t limit = round_limit(options.max_rounds, *agent);  // alike on every rank: the same parameters
  for (std::uint64_t round = 0;; ++round) {
    if (round == limit) throw_round_limit(limit);
    RoundOutput out;
    std::exception_ptr error;  // told in the round's gather, with the figures below
    try {
      agent->round({.round = round, .inbox = inbox, .sums = sums, .maxima = maxima}, out);
      for (const ProtocolMessage& m : out.outbox)
        if (m.peer >= static_cast<NodeId>(engine.size()))
          throw std::logic_error(fmt::format("a rank protocol sent a message to rank {} of {}", m.peer, engine.size()));
    } catch (...) {
      error = std::current_exception();
    }
    std::vector<double> mine_now(kFields, 0.0);
    mine_now[kFailed] = error ? 1 : 0;
    mine_now[kDone] = out.done ? 1 : 0;
    mine_now[kMessages] = static_cast<double>(out.outbox.size());
    for (const ProtocolMessage& m : out.outbox)
      mine_now[kLargest] = std::max(mine_now[kLargest], static_cast<double>(m.bytes.size()));
    mine_now[kSums] = static_cast<double>(out.sums.size());
    mine_now[kMaxima] = static_cast<double>(out.maxima.size());
    mine_now.insert(mine_now.end(), out.sums.begin(), out.sums.end());
    mine_now.insert(mine_now.end(), out.maxima.begin(), out.maxima.end());

    bool failed = false, done = true;
    double messages = 0, largest = 0;
    RoundOutput each;
    const auto all = engine.all_gather(as_bytes(mine_now));
    for (std::size_t r = 0; r < all.size(); ++r) {
      const std::vector<double> v = as_doubles(all[r]);
      failed = failed || v[kFailed] != 0;
      done = done && v[kDone] != 0;
      messages += v[kMessages];
      largest = std::max(largest, v[kLargest]);
      const auto s = v.begin() + kFields, m = s + static_cast<std::ptrdiff_t>(v[kSums]);
      each.sums.assign(s, m);
      each.maxima.assign(m, m + static_cast<std::ptrdiff_t>(v[kMaxima]));
      if (!failed) reduce_round(sums, maxima, each, r == 0);
    }
    if (failed) engine.agree(error);  // throws on every rank
    if (largest > std::numeric_limits<int>::max())
      throw std::runtime_error(fmt::format("a rank protocol's message of {} bytes; accepted: less than 2^31", largest));
    if (done && messages == 0) {
      on_every_rank(engine, [&] {  // a program's own agent may throw here on one rank
        plan.departures = agent->departures();
        plan.arrivals = agent->arrivals();
        plan.load_after = agent->load();
      });
      plan.figures.rounds = round + 1;
      plan.figures.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      return plan;
    }
    std::vector<DistributedEngine::Parcel> parcels;
    for (ProtocolMessage& m : out.outbox) {
      ++plan.figures.messages;
      plan.figures.bytes += m.bytes.size();
      parcels.push_back({static_cast<int>(m.peer), std::move(m.bytes)});
    }
    if (options.max_delay_us > 0)
      std::this_thread::sleep_for(std::chrono::microseconds(delays.below(options.max_delay_us + 1)));
    inbox.clear();
    for (auto& p : engine.sparse_exchange(std::move(parcels), round))
      inbox.push_back({static_cast<NodeId>(p.rank), std::move(p.bytes)});
  }
}

}  // namespace dlbkit::detail
