#pragma once
/// \file
/// Hadamard matrices and the binary codes built from them (AG91 Sec. 4.2-4.3).
///
/// A Hadamard matrix of order n has entries +1 and -1 and H H^T = n I. In 0-1 notation
/// (AG91 Sec. 4.2) +1 becomes 0 and -1 becomes 1; its complement M^C flips every bit. Rows
/// are held as words: bit j is column j (column 0 is the "extreme left" of the paper).
///
/// ```
/// dlbkit::HadamardMatrix h = dlbkit::hadamard(8);     // the cyclic one of AG91 Figure 1
/// bool ok = dlbkit::is_hadamard(h);                   // H H^T = 8 I
/// std::vector<std::uint64_t> m = dlbkit::zero_one_rows(h);   // 0-1 notation, normalised
/// ```
/// Thread-safe: no shared state.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace dlbkit {

struct HadamardMatrix {
  int order = 0;
  std::string construction;               ///< "sylvester", "paley q=23", "cyclic 0010111", "kronecker 2 x 12"
  std::vector<std::vector<int>> entries;  ///< order x order, each +1 or -1
};

/// Sylvester's doubling: order a power of two (1, 2, 4, ..., 512). InputError otherwise.
HadamardMatrix sylvester_hadamard(int order);
/// Paley's first construction: order q + 1 for a prime power q = p^k = 3 (mod 4), q + 1 <=
/// 512, from the quadratic character of GF(q) (galois_field.hpp); e.g. q = 27 gives order
/// 28, q = 343 order 344. Row and column i + 1 belong to the field element i. InputError
/// naming q otherwise.
HadamardMatrix paley_hadamard(int q);
/// From a cyclic generator codeword of length v = order - 1 in 0-1 notation (AG91 Table 1):
/// the truncated matrix is the v left cyclic shifts of the generator; an all-0 row and
/// column complete it. InputError when the rows do not make a Hadamard matrix.
HadamardMatrix cyclic_hadamard(std::string_view generator);
/// The Kronecker product a (x) b, of order a.order * b.order.
HadamardMatrix kronecker(const HadamardMatrix& a, const HadamardMatrix& b);

/// The generator codewords of AG91 Table 1 (lengths 7, 11, 15, 19).
const std::vector<std::string>& table1_generators();

/// The matrix AG91 would use for `order` (up to 512): Table 1's cyclic generator where there
/// is one, else Sylvester, else Paley (order - 1 a prime power = 3 mod 4), else 2 (x) a
/// smaller one. Throws InputError naming the orders that are available when none of these
/// builds it.
HadamardMatrix hadamard(int order);
bool has_hadamard(int order);
/// The orders hadamard() builds, up to `max_order`.
std::vector<int> available_hadamard_orders(int max_order);

/// H H^T = n I, entries all +1 or -1.
bool is_hadamard(const HadamardMatrix& h);

/// The matrix normalised (first row and column all +1, by negating columns then rows) in
/// 0-1 notation: the first row is the all-0 word, and so is the first column. Order <= 64
/// (a row is one word); InputError otherwise.
std::vector<std::uint64_t> zero_one_rows(const HadamardMatrix& h);
/// Every word with its `length` low bits flipped (M^C of AG91 Sec. 4.2).
std::vector<std::uint64_t> complement_rows(const std::vector<std::uint64_t>& rows, int length);
/// The rows with column 0 removed (AG91 Case c: the all-0 column of a normalised matrix).
std::vector<std::uint64_t> drop_first_column(const std::vector<std::uint64_t>& rows);

/// The word as text, column 0 first ("0010111").
std::string word_string(std::uint64_t word, int length);

}  // namespace dlbkit
