// The MPI engine behind dlbkit::Runtime: registered by runtime.hpp in every program that
// links dlbkit::mpi.

#include <dlbkit/error.hpp>
#include <dlbkit/runtime/detail/distributed_engine.hpp>
#include <dlbkit/runtime/mpi_engine.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include "message_pieces.hpp"
#include "what_of.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <thread>
#include <fmt/format.h>
#include <mpi.h>

namespace dlbkit::detail {

namespace {

const char* level_name(int level) {
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

// The engine calls MPI only from the thread that calls the Runtime: the main thread, or
// any other under MPI_THREAD_SERIALIZED. Throws InputError when MPI's level is too low.
void check_thread_level() {
  int provided = MPI_THREAD_SINGLE, main = 0;
  MPI_Query_thread(&provided);
  MPI_Is_thread_main(&main);
  if (!main && provided < MPI_THREAD_SERIALIZED)
    throw InputError(fmt::format("MPI thread level {} with dlbkit::Runtime on a thread other than the main one; "
                                 "accepted: MPI_Init_thread with MPI_THREAD_SERIALIZED or MPI_THREAD_MULTIPLE, or the "
                                 "Runtime on the main thread",
                                 level_name(provided)));
}

// MPI for the runtime: initialised by the first Runtime when the program did not, and
// then finalised when the program exits, not with that Runtime (MPI cannot be initialised
// twice, so a second Runtime could not run).
void ensure_mpi() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  if (finalised) throw InputError("dlbkit::Runtime after MPI_Finalize; accepted: a Runtime before MPI_Finalize");
  if (initialised) return check_thread_level();
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  std::atexit([] {
    int done = 0;
    MPI_Finalized(&done);
    if (!done) MPI_Finalize();
  });
  check_thread_level();
}

class MpiRuntimeEngine final : public DistributedEngine {
public:
  explicit MpiRuntimeEngine(const Communicator& c) {
    ensure_mpi();
    const MPI_Comm given = c.is_world() ? MPI_COMM_WORLD : MPI_Comm_f2c(c.fortran_handle());
    MPI_Comm_dup(given, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiRuntimeEngine() override { MPI_Comm_free(&comm_); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  RuntimeResult run(ByteApplication& app, const RuntimeConfig& config) override {
    check_thread_level();
    return run_mpi(app, config, comm_);
  }

  std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) const override {
    std::vector<std::vector<std::byte>> out;
    exchange([&](std::size_t) { return mine; }, kAllGatherTag, out);
    out[static_cast<std::size_t>(rank_)].assign(mine.begin(), mine.end());
    return out;
  }

  std::vector<std::vector<std::byte>> all_to_all(const std::vector<std::vector<std::byte>>& to) const override {
    std::vector<std::vector<std::byte>> from;
    all_to_all_into(to, from);
    return from;
  }
  void all_to_all_into(const std::vector<std::vector<std::byte>>& to,
                       std::vector<std::vector<std::byte>>& from) const override {
    exchange([&](std::size_t r) { return std::span<const std::byte>(to[r]); }, kAllToAllTag, from);
    from[static_cast<std::size_t>(rank_)] = to[static_cast<std::size_t>(rank_)];
  }

  void agree(std::exception_ptr error) const override {
    const int mine = error ? rank_ : size_;
    int first = size_;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm_);
    if (first == size_) return;
    int input = 0;
    std::string what = rank_ == first ? what_of(error, input) : std::string();
    int length = static_cast<int>(what.size());
    int head[2] = {length, input};
    MPI_Bcast(head, 2, MPI_INT, first, comm_);
    what.resize(static_cast<std::size_t>(head[0]));
    MPI_Bcast(what.data(), head[0], MPI_CHAR, first, comm_);
    if (rank_ == first) std::rethrow_exception(error);
    if (head[1] != 0) throw InputError(what);
    throw std::runtime_error(what);
  }
  void barrier() const override { sleepy_barrier(comm_); }

  // NBX: a synchronous send (MPI_Issend) completes only once its receive has begun, so once
  // all of a rank's have completed, every message it sent is being received; it then enters a
  // nonblocking barrier and keeps receiving until the barrier completes, which it does once
  // every rank's sends have been matched. No rank needs to know how many messages come.
  std::vector<Parcel> sparse_exchange(std::vector<Parcel> out, std::uint64_t round) const override {
    const int tag = kExchangeTag + static_cast<int>(round % 2);  // a late probe never takes the next round's
    std::vector<Parcel> in;
    std::vector<MPI_Request> sends;
    for (Parcel& p : out) {
      if (p.rank == rank_) {
        in.push_back(std::move(p));
        continue;
      }
      MPI_Issend(p.bytes.data(), static_cast<int>(p.bytes.size()), MPI_BYTE, p.rank, tag, comm_, &sends.emplace_back());
    }
    MPI_Request barrier = MPI_REQUEST_NULL;
    for (int idle = 0;;) {
      int flag = 0;
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, tag, comm_, &flag, &status);
      if (flag) {
        int bytes = 0;
        MPI_Get_count(&status, MPI_BYTE, &bytes);
        Parcel& p = in.emplace_back(Parcel{status.MPI_SOURCE, std::vector<std::byte>(static_cast<std::size_t>(bytes))});
        MPI_Recv(p.bytes.data(), bytes, MPI_BYTE, status.MPI_SOURCE, tag, comm_, MPI_STATUS_IGNORE);
        idle = 0;
        continue;
      }
      int done = 0;
      if (barrier == MPI_REQUEST_NULL) {
        MPI_Testall(static_cast<int>(sends.size()), sends.data(), &done, MPI_STATUSES_IGNORE);
        if (done) MPI_Ibarrier(comm_, &barrier);
      } else {
        MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
        if (done) return in;
      }
      // Ranks may share a core: after a while with nothing to do, leave it to the others.
      if (++idle > 100) std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

private:
  // send(r)'s bytes go to rank r, and every other rank's to this one, each into its own
  // buffer of `from` (what it held replaced, its room kept); this rank's own entry stays empty. One
  // message a pair, whatever its length (no lengths are exchanged first: a simulation's
  // windows take two of these each), in pieces (message_pieces.hpp); messages between two
  // ranks with one tag arrive in the order sent.
  template <class Send>
  void exchange(Send&& send, int tag, std::vector<std::vector<std::byte>>& from) const {
    const auto n = static_cast<std::size_t>(size_);
    std::vector<MPI_Request> sends;
    for (std::size_t r = 0; r < n; ++r) {
      if (static_cast<int>(r) == rank_) continue;
      const std::span<const std::byte> bytes = send(r);
      for (std::size_t first = 0;; first += kMessagePiece) {
        const std::size_t length = std::min(kMessagePiece, bytes.size() - first);
        MPI_Isend(bytes.data() + first, static_cast<int>(length), MPI_BYTE, static_cast<int>(r), tag, comm_,
                  &sends.emplace_back());
        if (length < kMessagePiece) break;
      }
    }
    from.resize(n);
    from[static_cast<std::size_t>(rank_)].clear();
    for (std::size_t r = 0; r < n; ++r) {
      if (static_cast<int>(r) == rank_) continue;
      // The buffer grows only where the message is longer than its last one: what it held is
      // written over, not zeroed first (a tenth to a quarter of a local exchange's time).
      std::size_t filled = 0;
      for (;;) {
        MPI_Message message;
        MPI_Status status;
        MPI_Mprobe(static_cast<int>(r), tag, comm_, &message, &status);
        int length = 0;
        MPI_Get_count(&status, MPI_BYTE, &length);
        const std::size_t end = filled + static_cast<std::size_t>(length);
        if (from[r].size() < end) from[r].resize(end);
        MPI_Mrecv(from[r].data() + filled, length, MPI_BYTE, &message, MPI_STATUS_IGNORE);
        filled = end;
        if (static_cast<std::size_t>(length) < kMessagePiece) break;
      }
      from[r].resize(filled);
    }
    MPI_Waitall(static_cast<int>(sends.size()), sends.data(), MPI_STATUSES_IGNORE);
  }

  static constexpr int kAllToAllTag = 1;
  static constexpr int kExchangeTag = 2;  // and 3
  static constexpr int kAllGatherTag = 4;
  MPI_Comm comm_ = MPI_COMM_NULL;  // the runtime's duplicate of the communicator it was given
  int rank_ = 0, size_ = 1;
};

std::unique_ptr<DistributedEngine> make_mpi_engine(const Communicator& c) {
  return std::make_unique<MpiRuntimeEngine>(c);
}

}  // namespace

bool register_mpi_engine() {
  set_mpi_engine(&make_mpi_engine);
  return true;
}

}  // namespace dlbkit::detail
