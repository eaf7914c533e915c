#pragma once
// Internal to the strategies layer: synchronous rounds over a set of partners, shared by the
// diffusion, dimension_exchange, sos and chebyshev agents (docs/strategies.md).
//
// The rounds of sync_rounds.hpp with the round's partners (all neighbours for diffusion, the
// neighbour across colour r mod C for dimension exchange): once their loads have arrived the
// node computes the tasks to send to each partner, ships them and sends every partner a
// notice. A round without partners ends at once.

#include "sync_rounds.hpp"

#include <span>
#include <vector>

namespace dlbkit::detail {

class EdgeRounds : public SyncRounds {
public:
  // At least 1 ms: a round costs a node two messages per partner to send and two to handle
  // (1.5 ms of processor time on hypercube:3 under ipsc2), so rounds much closer together leave
  // it no time for its tasks and the run never ends.
  static constexpr DurationParam kPeriod{.name = "period", .default_value = "10ms",
      .description = "time from the end of one round to the start of the next", .min = 1e6,
      .search = {"1ms", "100ms"}};

protected:
  explicit EdgeRounds(const Parameters& p) : SyncRounds(p[kPeriod]) {}

  /// Tasks (>= 0) to send to each partner, given this node's load and the partners' loads
  /// (in the order of partners()); called only for a round with partners.
  virtual void transfers(const NodeContext& ctx, std::uint64_t round, std::int64_t own,
                         std::span<const std::int64_t> loads, std::span<std::int64_t> out) = 0;

private:
  void ship(NodeContext& ctx, std::uint64_t round, std::int64_t own,
            const std::map<NodeId, std::int64_t>& loads) override {
    const auto& partners = current_partners();
    loads_.resize(partners.size());
    amounts_.assign(partners.size(), 0);
    for (std::size_t k = 0; k < partners.size(); ++k) loads_[k] = loads.at(partners[k]);
    if (!partners.empty()) transfers(ctx, round, own, loads_, amounts_);
    for (std::size_t k = 0; k < partners.size(); ++k) notify(ctx, partners[k], round, amounts_[k]);
  }
  std::size_t notices_due() const override { return current_partners().size(); }

  std::vector<std::int64_t> loads_, amounts_;
};

// The tasks from a node with load `own` to a partner with `other` for the flow a (own - other):
// rounded toward zero when positive (round_kernel.hpp), evaluated in double as the kernels do.
inline std::int64_t rounded_flow(double a, std::int64_t own, std::int64_t other) {
  return own > other ? static_cast<std::int64_t>(a * static_cast<double>(own - other)) : 0;
}

}  // namespace dlbkit::detail
