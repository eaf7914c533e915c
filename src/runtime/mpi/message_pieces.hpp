#pragma once
// The MPI engine's collectives send a message of any length as pieces of at most
// kMessagePiece bytes (MPI counts are ints): a piece shorter than that is a message's last.
// Here, not in a public header, so that tests can reach the boundary with small messages.

#include <cstddef>

namespace dlbkit::detail {

inline constexpr std::size_t kMessagePiece = std::size_t{1} << 26;  // 64 MiB

}  // namespace dlbkit::detail
