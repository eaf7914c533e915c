#pragma once
/// \file
/// The finite field GF(q), q = p^k, for Paley's Hadamard matrices (AG91 Sec. 4.2; Hall,
/// Combinatorial Theory, Sec. 14.1).
///
/// An element is an integer 0 .. q-1 read as a polynomial over GF(p) of degree < k: base-p
/// digit i is the coefficient of t^i. Addition is digit-wise mod p; multiplication is modulo
/// a monic irreducible polynomial of degree k, the first one found by search. For a prime q
/// the elements are the residues 0 .. q-1 with their ordinary arithmetic.
///
/// ```
/// dlbkit::GaloisField f(27);                       // GF(3^3)
/// int x = f.multiply(5, f.inverse(5));             // 1
/// std::vector<int> chi = dlbkit::quadratic_character(f);   // chi[a] in {0, +1, -1}
/// ```
/// Thread-safe: immutable after construction.

#include <optional>
#include <vector>

namespace dlbkit {

struct PrimePower {
  int p = 0;  ///< the prime
  int k = 0;  ///< the exponent, q = p^k
};

/// q = p^k with p prime and k >= 1, or nothing.
std::optional<PrimePower> prime_power(int q);

class GaloisField {
public:
  /// InputError unless q is a prime power.
  explicit GaloisField(int q);

  int order() const { return q_; }
  int characteristic() const { return p_; }
  int degree() const { return k_; }
  /// The modulus's coefficients c_0 .. c_k (c_k = 1), irreducible over GF(p).
  const std::vector<int>& modulus() const { return modulus_; }

  int add(int a, int b) const;
  int subtract(int a, int b) const;
  int multiply(int a, int b) const;
  /// The multiplicative inverse of a nonzero a (a^(q-2)).
  int inverse(int a) const;

private:
  int q_, p_, k_;
  std::vector<int> modulus_;
};

/// The quadratic character of GF(q) as a table over the elements: chi(0) = 0, +1 on the
/// nonzero squares, -1 on the others.
std::vector<int> quadratic_character(const GaloisField& field);

}  // namespace dlbkit
