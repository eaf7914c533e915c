// Under mpirun: the MPI engine's all-gather and all-to-all carry messages of every length
// around a piece's boundary (src/runtime/mpi/message_pieces.hpp), empty ones and several
// pieces long, each byte where it was sent. Prints "collectives: ok" on rank 0 and exits 0
// when every rank's checks hold, 1 otherwise (a line on stderr says which).

#include "message_pieces.hpp"

#include <dlbkit/runtime/detail/distributed_engine.hpp>
#include <dlbkit/runtime/detail/mpi_registration.hpp>

#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <span>
#include <vector>

namespace {

// The bytes rank `from` sends rank `to` in case `c`: `length` of them, each telling its place.
std::vector<std::byte> message(int from, int to, std::size_t c, std::size_t length) {
  std::vector<std::byte> bytes(length);
  for (std::size_t i = 0; i < length; ++i) bytes[i] = static_cast<std::byte>(i * 7 + from * 31 + to * 17 + c);
  return bytes;
}

}  // namespace

int main() try {
  const auto resolved = dlbkit::detail::resolve_engine("mpi", dlbkit::Communicator{});
  const dlbkit::detail::DistributedEngine& engine = *resolved.mpi;
  const int rank = engine.rank(), size = engine.size();
  constexpr std::size_t piece = dlbkit::detail::kMessagePiece;
  const std::vector<std::size_t> lengths = {0, 1, 1000, piece - 1, piece, piece + 1, 2 * piece};
  int failures = 0;
  for (std::size_t c = 0; c < lengths.size(); ++c) {
    // All-to-all: rank r sends rank s the c-th length shifted by r and s, so lengths differ by pair.
    const auto length = [&](int from, int to) {
      const std::size_t shift = static_cast<std::size_t>(from + to) % 2;
      return lengths[c] == 0 ? 0 : lengths[c] - shift;
    };
    std::vector<std::vector<std::byte>> out;
    for (int to = 0; to < size; ++to) out.push_back(message(rank, to, c, length(rank, to)));
    const auto in = engine.all_to_all(out);
    for (int from = 0; from < size; ++from)
      if (in.at(static_cast<std::size_t>(from)) != message(from, rank, c, length(from, rank))) {
        std::fprintf(stderr, "rank %d: all-to-all of %zu bytes: not what rank %d sent\n", rank, lengths[c], from);
        ++failures;
      }
    const auto all = engine.all_gather(message(rank, -1, c, lengths[c]));
    for (int from = 0; from < size; ++from)
      if (all.at(static_cast<std::size_t>(from)) != message(from, -1, c, lengths[c])) {
        std::fprintf(stderr, "rank %d: all-gather of %zu bytes: not what rank %d sent\n", rank, lengths[c], from);
        ++failures;
      }
  }
  int total = 0;
  for (const auto& bytes : engine.all_gather(std::as_bytes(std::span(&failures, 1)))) {
    int f = 0;
    std::memcpy(&f, bytes.data(), sizeof f);
    total += f;
  }
  if (total == 0 && rank == 0) std::printf("collectives: ok\n");
  return total == 0 ? 0 : 1;
} catch (const std::exception& e) {
  std::fprintf(stderr, "collectives: %s\n", e.what());
  return 1;
}
