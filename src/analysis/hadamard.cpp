#include <dlbkit/analysis/galois_field.hpp>
#include <dlbkit/analysis/hadamard.hpp>
#include <dlbkit/error.hpp>

#include <fmt/format.h>

namespace dlbkit {

namespace {

constexpr int kMaxOrder = 512;     // bounds the order^2 entries a matrix holds
constexpr int kMaxWordOrder = 64;  // rows in 0-1 notation are held as 64-bit words

bool power_of_two(int n) { return n >= 1 && (n & (n - 1)) == 0; }

// Paley's first construction applies: q = order - 1 is a prime power, q = 3 (mod 4).
bool paley_order(int order) { return (order - 1) % 4 == 3 && prime_power(order - 1).has_value(); }

std::string orders_text(int max_order) {
  std::string text;
  for (int o : available_hadamard_orders(max_order)) text += (text.empty() ? "" : ", ") + std::to_string(o);
  return text;
}

}  // namespace

HadamardMatrix sylvester_hadamard(int order) {
  if (!power_of_two(order) || order > kMaxOrder)
    throw InputError(fmt::format("Sylvester Hadamard matrix of order {}: accepted: a power of two from 1 to {}", order,
                                 kMaxOrder));
  HadamardMatrix h{1, "sylvester", {{1}}};
  while (h.order < order) {
    const int n = h.order;
    std::vector<std::vector<int>> next(2 * static_cast<std::size_t>(n), std::vector<int>(2 * static_cast<std::size_t>(n)));
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        const int e = h.entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)];
        next[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] = e;
        next[static_cast<std::size_t>(i)][static_cast<std::size_t>(j + n)] = e;
        next[static_cast<std::size_t>(i + n)][static_cast<std::size_t>(j)] = e;
        next[static_cast<std::size_t>(i + n)][static_cast<std::size_t>(j + n)] = -e;
      }
    h.entries = std::move(next);
    h.order = 2 * n;
  }
  return h;
}

HadamardMatrix paley_hadamard(int q) {
  const auto pk = q < kMaxOrder ? prime_power(q) : std::nullopt;
  if (!pk || q % 4 != 3) {
    const std::string why = q >= kMaxOrder ? fmt::format("q + 1 exceeds {}", kMaxOrder)
                            : !pk          ? fmt::format("{} is not a prime power", q)
                                           : fmt::format("{} = {} (mod 4)", q, q % 4);
    throw InputError(fmt::format(
        "Paley Hadamard matrix from q = {}: {}; accepted: a prime power q = p^k = 3 (mod 4) with q + 1 <= {}", q, why,
        kMaxOrder));
  }
  const GaloisField field(q);
  const std::vector<int> chi = quadratic_character(field);
  // H = I + S with S = [[0, 1^T], [-1, Q]], Q_ij = chi(j - i) (Paley I; Hall, Combinatorial
  // Theory, Sec. 14.1), skew because chi(-1) = -1 when q = 3 (mod 4).
  const int n = q + 1;
  HadamardMatrix h{n, fmt::format("paley q={}", q), std::vector<std::vector<int>>(static_cast<std::size_t>(n),
                                                                                   std::vector<int>(static_cast<std::size_t>(n)))};
  auto at = [&](int i, int j) -> int& { return h.entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)]; };
  at(0, 0) = 1;
  for (int j = 1; j < n; ++j) at(0, j) = 1, at(j, 0) = -1;
  for (int i = 0; i < q; ++i)
    for (int j = 0; j < q; ++j) at(i + 1, j + 1) = i == j ? 1 : chi[static_cast<std::size_t>(field.subtract(j, i))];
  return h;
}

HadamardMatrix cyclic_hadamard(std::string_view generator) {
  const int v = static_cast<int>(generator.size());
  if (v < 3 || v + 1 > kMaxOrder || generator.find_first_not_of("01") != std::string_view::npos)
    throw InputError(fmt::format("cyclic generator '{}': accepted: a word of 0s and 1s of length 3 to {}", generator,
                                 kMaxOrder - 1));
  const int n = v + 1;
  HadamardMatrix h{n, fmt::format("cyclic {}", generator),
                   std::vector<std::vector<int>>(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(n), 1))};
  // Row k + 1 is the generator shifted left k times, behind a 0 column (AG91 Sec. 4.3).
  for (int k = 0; k < v; ++k)
    for (int j = 0; j < v; ++j)
      h.entries[static_cast<std::size_t>(k + 1)][static_cast<std::size_t>(j + 1)] =
          generator[static_cast<std::size_t>((j + k) % v)] == '1' ? -1 : 1;
  if (!is_hadamard(h))
    throw InputError(fmt::format("cyclic generator '{}': its cyclic shifts do not form a Hadamard matrix; accepted: "
                                 "a (v, (v+1)/2, (v+1)/4) difference set such as those of AG91 Table 1",
                                 generator));
  return h;
}

HadamardMatrix kronecker(const HadamardMatrix& a, const HadamardMatrix& b) {
  const int n = a.order * b.order;
  HadamardMatrix h{n, fmt::format("kronecker {} x {}", a.order, b.order),
                   std::vector<std::vector<int>>(static_cast<std::size_t>(n), std::vector<int>(static_cast<std::size_t>(n)))};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      h.entries[static_cast<std::size_t>(i)][static_cast<std::size_t>(j)] =
          a.entries[static_cast<std::size_t>(i / b.order)][static_cast<std::size_t>(j / b.order)] *
          b.entries[static_cast<std::size_t>(i % b.order)][static_cast<std::size_t>(j % b.order)];
  return h;
}

const std::vector<std::string>& table1_generators() {
  // AG91 Table 1, generator codes for lengths n - 1 = 7, 11, 15, 19.
  static const std::vector<std::string> generators = {"0010111", "10111000101", "111101011001000",
                                                      "1001111010100001101"};
  return generators;
}

bool has_hadamard(int order) {
  if (order < 1 || order > kMaxOrder) return false;
  if (power_of_two(order)) return true;
  if (order % 4 != 0) return false;
  for (const auto& g : table1_generators())
    if (static_cast<int>(g.size()) + 1 == order) return true;
  if (paley_order(order)) return true;
  return has_hadamard(order / 2);
}

std::vector<int> available_hadamard_orders(int max_order) {
  std::vector<int> orders;
  for (int o = 1; o <= std::min(max_order, kMaxOrder); ++o)
    if (has_hadamard(o)) orders.push_back(o);
  return orders;
}

HadamardMatrix hadamard(int order) {
  if (!has_hadamard(order))
    throw InputError(fmt::format("no Hadamard matrix of order {} is built; accepted orders: {} (powers of two, AG91 "
                                 "Table 1's 8, 12, 16, 20, Paley's q + 1 for a prime power q = 3 (mod 4), and twice "
                                 "an accepted order)",
                                 order, orders_text(kMaxOrder)));
  for (const auto& g : table1_generators())
    if (static_cast<int>(g.size()) + 1 == order) return cyclic_hadamard(g);
  if (power_of_two(order)) return sylvester_hadamard(order);
  if (paley_order(order)) return paley_hadamard(order - 1);
  return kronecker(sylvester_hadamard(2), hadamard(order / 2));
}

bool is_hadamard(const HadamardMatrix& h) {
  const auto n = static_cast<std::size_t>(h.order);
  if (h.entries.size() != n) return false;
  for (const auto& row : h.entries) {
    if (row.size() != n) return false;
    for (int e : row)
      if (e != 1 && e != -1) return false;
  }
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      long dot = 0;
      for (std::size_t k = 0; k < n; ++k) dot += h.entries[i][k] * h.entries[j][k];
      if (dot != (i == j ? static_cast<long>(n) : 0)) return false;
    }
  return true;
}

std::vector<std::uint64_t> zero_one_rows(const HadamardMatrix& h) {
  if (h.order > kMaxWordOrder)
    throw InputError(fmt::format("0-1 notation of the Hadamard matrix of order {} ({}): accepted: order <= {} (a row "
                                 "is held as one 64-bit word)",
                                 h.order, h.construction, kMaxWordOrder));
  const auto n = static_cast<std::size_t>(h.order);
  std::vector<std::uint64_t> rows(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      // Normalised entry: negate column j where row 0 has -1, then row i where column 0 has -1.
      const int e = h.entries[i][j] * h.entries[0][j] * h.entries[i][0] * h.entries[0][0];
      if (e == -1) rows[i] |= std::uint64_t{1} << j;
    }
  return rows;
}

std::vector<std::uint64_t> complement_rows(const std::vector<std::uint64_t>& rows, int length) {
  const std::uint64_t mask = length >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << length) - 1;
  std::vector<std::uint64_t> out;
  out.reserve(rows.size());
  for (std::uint64_t r : rows) out.push_back(~r & mask);
  return out;
}

std::vector<std::uint64_t> drop_first_column(const std::vector<std::uint64_t>& rows) {
  std::vector<std::uint64_t> out;
  out.reserve(rows.size());
  for (std::uint64_t r : rows) out.push_back(r >> 1);
  return out;
}

std::string word_string(std::uint64_t word, int length) {
  std::string s(static_cast<std::size_t>(length), '0');
  for (int j = 0; j < length; ++j)
    if ((word >> j) & 1) s[static_cast<std::size_t>(j)] = '1';
  return s;
}

}  // namespace dlbkit
