#pragma once
/// \file
/// The objects of a phase matched by id with those of the phase before it: between two phases
/// objects may be created and destroyed and the rest listed in another order, and whatever
/// follows an object from one phase to the next (its node, its first node) follows its id.
///
/// ```
/// const std::vector<std::uint64_t> before = object_ids(phase);
/// workload.next_phase(phase);
/// const std::vector<ObjectIndex> match = match_objects(before, phase, "phase 2");
/// // match[i]: the index in `before` of object i's id, or kNewObject
/// ```

#include <dlbkit/phases/phase.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace dlbkit {

/// The mark of an id not found: an object that the phase before did not have.
constexpr ObjectIndex kNewObject = std::numeric_limits<ObjectIndex>::max();

/// The ids of the phase's objects, in their order.
std::vector<std::uint64_t> object_ids(const Phase& phase);

/// For each of `wanted`, its index in `ids` (each id there once), or kNewObject when it is not
/// there.
std::vector<ObjectIndex> index_of_ids(const std::vector<std::uint64_t>& ids, const std::vector<std::uint64_t>& wanted);

/// For each object of `phase`, the index in `before` (the ids of the phase before, each once)
/// of the object with its id, or kNewObject. Throws InputError naming `what` when two objects
/// of `phase` have one id.
std::vector<ObjectIndex> match_objects(const std::vector<std::uint64_t>& before, const Phase& phase,
                                       const std::string& what);

}  // namespace dlbkit
