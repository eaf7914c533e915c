#pragma once
/// \file
/// Synchronous nearest-neighbour averaging (NNA) on a ring, as Henrich simulates it (Sec. 2.3
/// eq. 3 and 5, Sec. 5). Continuous loads follow eq. (3) exactly: L_i <- (L_{i-1} + L_i +
/// L_{i+1}) / 3. Integer loads move whole load elements with the asymmetric rounding of Sec. 5
/// ("when transferring to the right and to the left, it is rounded upwards and downwards
/// respectively"), in one of two readings of what is transferred:
///
/// | NnaTransfer | per iteration |
/// |---|---|
/// | net (default) | over each link (i, i+1) only the difference of the two opposed transfers of eq. (5) moves (footnote 3): (L_i - L_{i+1})/3 to the right rounded up, or (L_{i+1} - L_i)/3 to the left rounded down |
/// | gross | eq. (5) literally: every processor sends ceil(L_i/3) to its right and floor(L_i/3) to its left neighbour |
///
/// Both give eq. (3) for continuous loads and conserve integer loads exactly.
///
/// Time is counted in shifts; Sec. 5 sums "the maximum number of load transfers per single load
/// balancing step". Two readings (NnaTime):
///
/// | NnaTime | shifts of one iteration |
/// |---|---|
/// | sequential (default) | max over links of the elements moved right + max over links of the elements moved left: a shift moves one element over every link in one direction, as an LM shift does |
/// | simultaneous | the larger of the two maxima: both directions of a link carry an element in the same shift |
///
/// net + sequential reproduces Table 3's total exactly (NNA balances 8 processors holding 16
/// elements in 24 shifts, LM-C5 in 18); see docs/reproductions/henrich.md.
///
/// ```
/// dlbkit::NnaKernel nna(dlbkit::parse_topology("ring:8"));
/// std::vector<std::int64_t> w{16, 0, 0, 0, 0, 0, 0, 0}, next(8);
/// std::uint64_t t = nna.shifts(w);   // 11: 6 elements go right, 5 go left
/// nna.update(0, w, next, 0, 8);      // next = {5, 6, 0, 0, 0, 0, 0, 5}
/// ```
/// Immutable: update() is safe from several threads.

#include <dlbkit/rounds/round_kernel.hpp>
#include <dlbkit/strategies/local_rules.hpp>

#include <string>

namespace dlbkit {

enum class NnaTime { sequential, simultaneous };

/// "sequential" or "simultaneous"; InputError naming the text otherwise. (NnaTransfer:
/// strategies/local_rules.hpp.)
NnaTime parse_nna_time(const std::string& text);
std::string to_string(NnaTime t);

class NnaKernel final : public RoundKernel {
public:
  /// Throws InputError unless `topology` is a ring (ring:N, or a torus with one extent >= 3).
  explicit NnaKernel(const Topology& topology, NnaTransfer transfer = NnaTransfer::net,
                     NnaTime time = NnaTime::sequential);

  void update(std::uint64_t step, std::span<const double> current, std::span<double> next, NodeId begin,
              NodeId end) const override;
  void update(std::uint64_t step, std::span<const std::int64_t> current, std::span<std::int64_t> next, NodeId begin,
              NodeId end) const override;
  std::size_t size() const override { return size_; }
  std::string name() const override { return "nna"; }

  /// The shifts the next iteration from `current` takes under the time rule.
  std::uint64_t shifts(std::span<const std::int64_t> current) const;

  NnaTransfer transfer() const { return transfer_; }
  NnaTime time() const { return time_; }

private:
  std::size_t size_;
  NnaTransfer transfer_;
  NnaTime time_;
};

}  // namespace dlbkit
