#pragma once
/// \file
/// Initial load vectors w0 for the round loop:
///
/// | spec | load |
/// |---|---|
/// | spike | N units on node 0, none elsewhere (mean 1) |
/// | spike:AMOUNT | AMOUNT units on node 0 (AMOUNT >= 0; an integer for integer loads) |
/// | uniform:MAX | independent uniform loads: reals in [0, MAX), or integers in 0..MAX |
/// | file:PATH | one load per line for nodes 0..N-1; '#' starts a comment, blank lines skipped |
///
/// uniform draws from dlbkit::Rng(seed) in node order, so a seed fixes the vector.
///
/// ```
/// std::vector<double> w = dlbkit::continuous_initial_load("uniform:100", 1024, 7);
/// std::vector<std::int64_t> k = dlbkit::integer_initial_load("spike", 1024, 7);
/// ```
/// Errors (InputError) name the spec, file line or value and what is accepted.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

std::vector<double> continuous_initial_load(const std::string& spec, std::size_t nodes, std::uint64_t seed);
std::vector<std::int64_t> integer_initial_load(const std::string& spec, std::size_t nodes, std::uint64_t seed);

}  // namespace dlbkit
