#pragma once
/// \file
/// A small, fast, portable random stream (xoshiro256**, seeded through splitmix64).
/// Each node and each workload draws from its own stream derived from (seed, stream id), so
/// runs are reproducible bit for bit and two simulations never share state. The standard
/// library's distributions are avoided on purpose: their output differs between libraries.

#include <cmath>
#include <cstdint>

namespace dlbkit {

class Rng {
public:
  /// Stream `stream` of seed `seed`; different streams are statistically independent.
  explicit Rng(std::uint64_t seed, std::uint64_t stream = 0) {
    // Seed and stream each pass through splitmix64 before they meet, so no choice of
    // (seed, stream) lands on another pair's sequence by simple arithmetic.
    std::uint64_t a = seed, b = ~stream;
    std::uint64_t x = splitmix64(a) ^ rotl(splitmix64(b), 32);
    for (auto& word : s_) word = splitmix64(x);
  }

  std::uint64_t next() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  /// Uniform in the open interval (0, 1): never exactly 0.
  double uniform_open() { return (static_cast<double>(next() >> 11) + 0.5) * 0x1.0p-53; }
  /// Uniform in (lo, hi).
  double uniform(double lo, double hi) { return lo + (hi - lo) * uniform_open(); }
  /// Uniform integer in [0, n), n > 0 (Lemire's multiply-shift, bias below 2^-64 n).
  std::uint64_t below(std::uint64_t n) {
    __extension__ using Wide = unsigned __int128;
    return static_cast<std::uint64_t>((static_cast<Wide>(next()) * n) >> 64);
  }
  /// Exponential with the given rate.
  double exponential(double rate) { return -std::log(uniform_open()) / rate; }

private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static std::uint64_t splitmix64(std::uint64_t& x) {
    std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
  }
  std::uint64_t s_[4];
};

}  // namespace dlbkit
