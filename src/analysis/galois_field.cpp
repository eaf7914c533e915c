#include <dlbkit/analysis/galois_field.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <fmt/format.h>

namespace dlbkit {

namespace {

using Poly = std::vector<int>;  // coefficients over GF(p), t^0 first

// The k base-p digits of x, t^0 first.
Poly digits(int x, int p, int k) {
  Poly d(static_cast<std::size_t>(k));
  for (int& c : d) c = x % p, x /= p;
  return d;
}

int from_digits(const Poly& d, int p) {
  int x = 0;
  for (auto c = d.rbegin(); c != d.rend(); ++c) x = x * p + *c;
  return x;
}

// r mod m for a monic m, in place: r keeps only its deg(m) low coefficients.
void reduce(Poly& r, const Poly& m, int p) {
  const std::size_t k = m.size() - 1;
  for (std::size_t i = r.size(); i-- > k;) {
    const std::int64_t c = r[i];
    if (c == 0) continue;
    for (std::size_t j = 0; j <= k; ++j)
      r[i - k + j] = static_cast<int>(((r[i - k + j] - c * m[j]) % p + p) % p);
  }
  r.resize(std::min(r.size(), k));
}

// The monic polynomial of degree d whose lower coefficients are the base-p digits of x.
Poly monic(int x, int p, int d) {
  Poly m = digits(x, p, d);
  m.push_back(1);
  return m;
}

// A monic f of degree k is irreducible iff no monic polynomial of degree 1 .. k/2 divides
// it (trial division; no roots alone would miss, e.g., a product of two quadratics).
bool irreducible(const Poly& f, int p) {
  const int k = static_cast<int>(f.size()) - 1;
  int count = 1;  // p^d, the monic polynomials of degree d
  for (int d = 1; 2 * d <= k; ++d) {
    count *= p;
    for (int x = 0; x < count; ++x) {
      Poly r = f;
      reduce(r, monic(x, p, d), p);
      if (std::all_of(r.begin(), r.end(), [](int c) { return c == 0; })) return false;
    }
  }
  return true;
}

}  // namespace

std::optional<PrimePower> prime_power(int q) {
  if (q < 2) return std::nullopt;
  int p = q;
  for (int d = 2; d <= q / d; ++d)
    if (q % d == 0) {
      p = d;
      break;
    }
  int k = 0;
  for (; q % p == 0; q /= p) ++k;
  if (q != 1) return std::nullopt;
  return PrimePower{p, k};
}

GaloisField::GaloisField(int q) : q_(q) {
  const auto pk = prime_power(q);
  if (!pk) throw InputError(fmt::format("GF({}): {} is not a prime power; accepted: q = p^k, p prime, k >= 1", q, q));
  p_ = pk->p;
  k_ = pk->k;
  for (int x = 0; modulus_.empty(); ++x) {
    Poly m = monic(x, p_, k_);
    if (irreducible(m, p_)) modulus_ = std::move(m);
  }
}

int GaloisField::add(int a, int b) const {
  assert(0 <= a && a < q_ && 0 <= b && b < q_);
  Poly x = digits(a, p_, k_);
  const Poly y = digits(b, p_, k_);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = (x[i] + y[i]) % p_;
  return from_digits(x, p_);
}

int GaloisField::subtract(int a, int b) const {
  assert(0 <= a && a < q_ && 0 <= b && b < q_);
  Poly x = digits(a, p_, k_);
  const Poly y = digits(b, p_, k_);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = (x[i] - y[i] + p_) % p_;
  return from_digits(x, p_);
}

int GaloisField::multiply(int a, int b) const {
  assert(0 <= a && a < q_ && 0 <= b && b < q_);
  const Poly x = digits(a, p_, k_), y = digits(b, p_, k_);
  Poly r(2 * x.size() - 1, 0);
  for (std::size_t i = 0; i < x.size(); ++i)
    for (std::size_t j = 0; j < y.size(); ++j)
      r[i + j] = static_cast<int>((r[i + j] + std::int64_t{x[i]} * y[j]) % p_);
  reduce(r, modulus_, p_);
  return from_digits(r, p_);
}

int GaloisField::inverse(int a) const {
  assert(0 < a && a < q_);
  // a^(q-1) = 1 in GF(q)^*, so a^(q-2) = a^-1.
  int result = 1, base = a;
  for (int e = q_ - 2; e > 0; e >>= 1, base = multiply(base, base))
    if (e & 1) result = multiply(result, base);
  return result;
}

std::vector<int> quadratic_character(const GaloisField& field) {
  std::vector<int> chi(static_cast<std::size_t>(field.order()), -1);
  chi[0] = 0;
  for (int x = 1; x < field.order(); ++x) chi[static_cast<std::size_t>(field.multiply(x, x))] = 1;
  return chi;
}

}  // namespace dlbkit
