// The MPI engine: one worker per rank, envelopes as bytes with MPI_Isend, and Safra's
// termination detection (E. W. Dijkstra, "Shmuel Safra's version of termination
// detection", EWD 998, 1987).
//
// Safra's algorithm, as used here. The basic messages are the task transfers: a rank is
// active while it holds tasks, and only a task transfer can make a passive rank active
// (strategy messages never create work; they are control traffic, not counted). Each rank
// keeps c = task transfers sent - task transfers received, and a colour, black after it
// received a transfer. Rank 0, when passive, sends a white token with q = 0 to rank P-1
// and turns white. A rank i > 0 keeps the token until it is passive, then passes it to
// i - 1 with q += c_i, blackened if i is black, and turns white. When the token is back at
// a passive rank 0, the run is over if the token is white, rank 0 is white and q + c_0 = 0;
// otherwise rank 0 starts a new round. A transfer still in flight (sent, not yet received:
// `--max-delay` holds received envelopes back for that) keeps q + c_0 above 0. Rank 0 then
// tells every rank to stop.
//
// Etiquette: every message travels on a duplicate of the caller's communicator, so none
// can match a receive of the caller's. A task that throws stops its rank, which tells every
// other rank (kAbort); each stops at its next check point, and after the run the ranks agree
// on the lowest failing rank and its message, which every rank throws as a TaskFailure.
//
// One time base: when a rank writes a timeline, every rank measures its clock's offset to
// rank 0's after the barrier that begins the run (runtime/clock_offset.hpp), and counts its
// times from rank 0's start in rank 0's time, so that the ranks' files merge into one trace.

#include "what_of.hpp"
#include "worker_core.hpp"

#include <dlbkit/core/number.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/runtime/clock_offset.hpp>
#include <dlbkit/runtime/mpi_engine.hpp>
#include <dlbkit/runtime/runtime_options.hpp>

#include <fmt/format.h>
#include <array>
#include <chrono>
#include <cstdlib>
#include <limits>
#include <list>
#include <optional>
#include <thread>
#include <mpi.h>

namespace dlbkit {

namespace {

using detail::clock_ns;
using detail::sleepy_barrier;
using detail::Envelope;
using detail::WorkerCore;

enum Tag : int { kData = 1, kToken = 2, kBound = 3, kStop = 4, kAbort = 5, kClock = 6 };

struct Header {
  std::uint32_t from;
  std::uint32_t type;
  std::uint32_t count;
  std::uint32_t reserved;
};

struct Token {
  std::int64_t q;
  std::int32_t black;
  std::int32_t round;
};

class MpiTransport final : public detail::Transport {
public:
  MpiTransport(MPI_Comm comm, int rank, int size, std::atomic<std::int64_t>& bound)
      : comm_(comm), rank_(rank), size_(size), bound_(bound) {}

  void send(NodeId to, Envelope&& e) override {
    const Header h{e.from, static_cast<std::uint32_t>(e.type), e.count, 0};
    const std::size_t payload = e.type == Envelope::Type::message ? sizeof(Message) : e.records.size();
    std::vector<std::byte> buf = buffer(sizeof h + payload);
    std::memcpy(buf.data(), &h, sizeof h);
    if (e.type == Envelope::Type::message) std::memcpy(buf.data() + sizeof h, &e.message, sizeof(Message));
    else {
      std::memcpy(buf.data() + sizeof h, e.records.data(), e.records.size());
      ++count_;  // Safra: a basic message sent
    }
    post(static_cast<int>(to), kData, std::move(buf));
  }

  void receive(WorkerCore& core) override {
    progress();
    while (const auto tag = receive_one()) {
      switch (*tag) {
        case kData: {
          Header h;
          std::memcpy(&h, in_.data(), sizeof h);
          Envelope e;
          e.from = h.from;
          e.type = static_cast<Envelope::Type>(h.type);
          e.count = h.count;
          if (e.type == Envelope::Type::message) std::memcpy(&e.message, in_.data() + sizeof h, sizeof(Message));
          else e.records.assign(in_.begin() + sizeof h, in_.end());
          core.accept(std::move(e));
          break;
        }
        case kToken:
          std::memcpy(&token_, in_.data(), sizeof token_);
          has_token_ = true;
          break;
        case kBound: {
          std::int64_t b;
          std::memcpy(&b, in_.data(), sizeof b);
          detail::lower_shared_bound(bound_, b);
          break;
        }
        case kStop: stop_ = true; break;
        case kAbort:
          stop_ = true;
          core.stop();
          break;
        default: break;
      }
    }
  }

  void tasks_handled(WorkerCore&) override {
    --count_;  // Safra: a basic message received
    black_ = true;
  }

  void bound_improved(WorkerCore&, std::int64_t bound) override {
    for (int r = 0; r < size_; ++r)
      if (r != rank_) post(r, kBound, bytes_of(bound));
  }

  bool idle(WorkerCore& core) override {
    if (stop_) return true;
    receive(core);
    if (stop_ || core.held_tasks() > 0) return stop_;
    // Passive: the token moves on.
    if (size_ == 1) return stop_ = count_ == 0;
    if (rank_ == 0) {
      if (!probing_) {
        start_round();
      } else if (has_token_) {
        has_token_ = false;
        if (!token_.black && !black_ && token_.q + count_ == 0) {
          for (int r = 1; r < size_; ++r) post(r, kStop, {});
          stop_ = true;
        } else {
          start_round();
        }
      }
    } else if (has_token_) {
      has_token_ = false;
      Token t = token_;
      t.q += count_;
      if (black_) t.black = 1;
      black_ = false;
      post(rank_ - 1, kToken, bytes_of(t));
    }
    return stop_;
  }

  void task_failed(WorkerCore&, std::exception_ptr error) override {
    error_ = std::move(error);
    stop_ = true;
    for (int r = 0; r < size_; ++r)
      if (r != rank_) post(r, kAbort, {});
  }
  /// The exception a task of this rank threw, if one did.
  const std::exception_ptr& error() const { return error_; }

  /// After the run: take in and drop whatever still arrives until every rank has stopped,
  /// then let the sends complete.
  void drain() {
    MPI_Request barrier;
    MPI_Ibarrier(comm_, &barrier);
    for (int done = 0; !done;) {
      discard_incoming();
      progress();
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
    }
    discard_incoming();
    for (auto& p : pending_) MPI_Wait(&p.request, MPI_STATUS_IGNORE);
    pending_.clear();
  }

private:
  struct Pending {
    MPI_Request request;
    std::vector<std::byte> buf;
  };

  template <class T>
  static std::vector<std::byte> bytes_of(const T& value) {
    std::vector<std::byte> buf(sizeof value);
    std::memcpy(buf.data(), &value, sizeof value);
    return buf;
  }

  void start_round() {
    probing_ = true;
    black_ = false;
    post(size_ - 1, kToken, bytes_of(Token{0, 0, ++round_}));
  }

  void post(int to, int tag, std::vector<std::byte>&& buf) {
    pending_.push_back(Pending{MPI_REQUEST_NULL, std::move(buf)});
    Pending& p = pending_.back();
    MPI_Isend(p.buf.data(), static_cast<int>(p.buf.size()), MPI_BYTE, to, tag, comm_, &p.request);
  }

  // The buffers of completed sends: kept for the next ones (a few), the rest freed.
  void progress() {
    for (auto it = pending_.begin(); it != pending_.end();) {
      int done = 0;
      MPI_Test(&it->request, &done, MPI_STATUS_IGNORE);
      if (!done) {
        ++it;
        continue;
      }
      const std::size_t room = it->buf.capacity();
      if (room >= kSpareFrom && room <= kSpareUpTo && spare_.size() < kSpareBuffers)
        spare_.push_back(std::move(it->buf));
      it = pending_.erase(it);
    }
  }
  // A buffer of `bytes`, the room of a completed large send's where one is kept: a run's
  // messages of tasks can be megabytes, and a buffer made afresh for each is fresh pages each
  // time (dlbkit calibrate's cost per byte: 0.56 to 0.69 ns made afresh, 0.24 kept).
  std::vector<std::byte> buffer(std::size_t bytes) {
    std::vector<std::byte> buf;
    if (bytes >= kSpareFrom && !spare_.empty()) {
      buf = std::move(spare_.back());
      spare_.pop_back();
    }
    buf.resize(bytes);
    return buf;
  }
  // Kept: at most 4 buffers of 64 KiB to 16 MiB (a larger one, a burst's, is given back).
  static constexpr std::size_t kSpareFrom = std::size_t{64} << 10, kSpareUpTo = std::size_t{16} << 20,
                               kSpareBuffers = 4;

  // Receives one waiting message of any kind into in_ and returns its tag; none waiting: nullopt.
  std::optional<int> receive_one() {
    int flag = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, comm_, &flag, &st);
    if (!flag) return std::nullopt;
    int bytes = 0;
    MPI_Get_count(&st, MPI_BYTE, &bytes);
    in_.resize(static_cast<std::size_t>(bytes));
    MPI_Recv(in_.data(), bytes, MPI_BYTE, st.MPI_SOURCE, st.MPI_TAG, comm_, MPI_STATUS_IGNORE);
    return st.MPI_TAG;
  }

  void discard_incoming() {
    while (receive_one()) {
    }
  }

  MPI_Comm comm_;
  int rank_, size_;
  std::atomic<std::int64_t>& bound_;
  std::exception_ptr error_;
  std::list<Pending> pending_;  // a list: MPI holds the buffers' addresses until completion
  std::vector<std::vector<std::byte>> spare_;  // completed sends' buffers, for the next ones
  std::vector<std::byte> in_;
  std::int64_t count_ = 0;      // Safra's c
  bool black_ = false;
  bool has_token_ = false;
  bool probing_ = false;
  Token token_{};
  std::int32_t round_ = 0;
  bool stop_ = false;
};

// Per rank, gathered on every rank.
struct RankReport {
  WorkerStats stats;
  double elapsed;
};

// Waits for `request`, sleeping between looks, so that a waiting rank leaves the processor
// to the ranks at work (a sequential run, another rank's clock exchanges).
void sleepy_wait(MPI_Request& request) {
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done) return;
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

// A sleepy barrier that also tells every rank whether `mine` holds on some rank.
bool sleepy_any(MPI_Comm comm, bool mine) {
  const int in = mine ? 1 : 0;
  int any = 0;
  MPI_Request request;
  MPI_Iallreduce(&in, &any, 1, MPI_INT, MPI_MAX, comm, &request);
  sleepy_wait(request);
  return any != 0;
}

constexpr int kClockExchanges = 16;

// What this rank adds to its clock's readings for the timeline: 0, but in tests
// DLBKIT_TEST_CLOCK_SKEW_US=X sets rank r's clock back by r X us, as a clock on another host
// may be, so that the offsets to rank 0 must be measured to come out right.
SimTime test_clock_skew(int rank) {
  const char* text = std::getenv("DLBKIT_TEST_CLOCK_SKEW_US");
  if (text == nullptr) return 0;
  std::int64_t us = 0;
  if (!parse_number(text, us))
    throw InputError(fmt::format("DLBKIT_TEST_CLOCK_SKEW_US '{}': not a number; accepted: whole microseconds", text));
  return -rank * us * kMicrosecond;
}

// Rank 0's clock - this rank's (each read plus `skew`), by Cristian's exchanges, one rank
// after another: rank 0 tells a rank its turn, then answers each of its requests with its
// clock. A rank waiting for its turn sleeps, leaving the processor to the two at work.
ClockOffset offset_to_rank0(MPI_Comm comm, int rank, int size, SimTime skew) {
  if (rank == 0) {
    for (int r = 1; r < size; ++r) {
      MPI_Send(nullptr, 0, MPI_BYTE, r, kClock, comm);
      for (int k = 0; k < kClockExchanges; ++k) {
        MPI_Recv(nullptr, 0, MPI_BYTE, r, kClock, comm, MPI_STATUS_IGNORE);
        const SimTime now = clock_ns() + skew;
        MPI_Send(&now, 1, MPI_INT64_T, r, kClock, comm);
      }
    }
    return {};
  }
  MPI_Request turn;
  MPI_Irecv(nullptr, 0, MPI_BYTE, 0, kClock, comm, &turn);
  sleepy_wait(turn);
  std::array<ClockSample, kClockExchanges> samples;
  for (ClockSample& s : samples) {
    s.send = clock_ns() + skew;
    MPI_Send(nullptr, 0, MPI_BYTE, 0, kClock, comm);
    MPI_Recv(&s.remote, 1, MPI_INT64_T, 0, kClock, comm, MPI_STATUS_IGNORE);
    s.receive = clock_ns() + skew;
  }
  return estimate_clock_offset(samples);
}

// This rank's start and the origin of its times (now(), the timeline) on its own clock.
struct RunStart {
  SimTime start, origin;
};

// Collective, after the barrier that began the run, when some rank writes a timeline: the
// origin is rank 0's start, and `timeline` (this rank's, if it records its node) is told the
// offset applied.
RunStart start_in_rank0_time(MPI_Comm comm, int rank, int size, Timeline* timeline) {
  const SimTime skew = test_clock_skew(rank);
  ClockOffset clock = offset_to_rank0(comm, rank, size, skew);
  SimTime zero = clock_ns() + skew;  // rank 0's: its start
  MPI_Request request;
  MPI_Ibcast(&zero, 1, MPI_INT64_T, 0, comm, &request);
  sleepy_wait(request);
  const SimTime start = clock_ns();
  // Rank 0 read `zero` before this rank received it, so rank 0's clock reads `zero` or more
  // now: an offset that says otherwise is raised to that (which stays within its error).
  clock.offset = std::max(clock.offset, zero - (start + skew));
  if (timeline != nullptr) timeline->note_clock(static_cast<NodeId>(rank), clock.offset, clock.error);
  return {.start = start, .origin = zero - clock.offset - skew};
}

// The engine's own communicator, freed however run_mpi leaves (every exit is collective).
class DuplicateComm {
public:
  explicit DuplicateComm(MPI_Comm comm) { MPI_Comm_dup(comm, &comm_); }
  ~DuplicateComm() { MPI_Comm_free(&comm_); }
  DuplicateComm(const DuplicateComm&) = delete;
  DuplicateComm& operator=(const DuplicateComm&) = delete;
  MPI_Comm get() const { return comm_; }

private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Collective: when a task or the strategy threw on some rank, every rank throws the error
// of the lowest such rank: bad input (an InputError, such as a strategy's parameter that
// does not suit the topology) as it was, on every rank, as the threads engine rethrows it;
// anything else as a TaskFailure naming that rank (on that rank, with the exception as cause).
void throw_if_failed(MPI_Comm comm, int rank, const std::exception_ptr& error) {
  const int mine = error ? rank : std::numeric_limits<int>::max();
  int failed = 0;
  MPI_Allreduce(&mine, &failed, 1, MPI_INT, MPI_MIN, comm);
  if (failed == std::numeric_limits<int>::max()) return;
  int head[2] = {0, 0};  // the message's length, bad input or not
  std::string what = rank == failed ? detail::what_of(error, head[1]) : std::string();
  head[0] = static_cast<int>(what.size());
  MPI_Bcast(head, 2, MPI_INT, failed, comm);
  what.resize(static_cast<std::size_t>(head[0]));
  MPI_Bcast(what.data(), head[0], MPI_CHAR, failed, comm);
  if (head[1] != 0) throw InputError(what);
  throw TaskFailure(failed, fmt::format("a task threw on rank {}: {}", failed, what),
                    rank == failed ? error : nullptr);
}

}  // namespace

void detail::sleepy_barrier(MPI_Comm comm) {
  MPI_Request request;
  MPI_Ibarrier(comm, &request);
  sleepy_wait(request);
}

MpiSession::MpiSession(int* argc, char*** argv) {
  int initialised = 0;
  MPI_Initialized(&initialised);
  if (!initialised) {
    MPI_Init(argc, argv);
    finalize_ = true;
  }
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (finalize_) MPI_Finalize();
}

void MpiSession::barrier() const { sleepy_barrier(MPI_COMM_WORLD); }

Topology MpiSession::topology(const std::string& spec) const {
  return resolve_topology(spec == "auto" ? fmt::format("complete:{}", size_) : spec, StrategyInfo{}, 0,
                          static_cast<std::size_t>(size_));
}

RuntimeResult run_mpi(detail::ByteApplication& app, const RuntimeConfig& config, const MpiSession&) {
  return run_mpi(app, config, MPI_COMM_WORLD);
}

RuntimeResult run_mpi(detail::ByteApplication& app, const RuntimeConfig& config, MPI_Comm user_comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(user_comm, &rank);
  MPI_Comm_size(user_comm, &size);
  if (config.topology == nullptr) throw InputError("MPI engine: no topology");
  if (config.topology->size() != static_cast<std::size_t>(size))
    throw InputError(fmt::format("MPI engine: topology {} has {} nodes but {} ranks run; accepted: {} nodes",
                                 config.topology->spec(), config.topology->size(), size, size));
  detail::check_engine_config(config, "MPI engine");

  const DuplicateComm dup(user_comm);
  const MPI_Comm comm = dup.get();
  app.prepare(static_cast<std::size_t>(size));
  std::atomic<std::int64_t> bound{app.initial_bound()};
  MpiTransport transport(comm, rank, size, bound);
  Timeline* const timeline =
      config.timeline != nullptr && config.timeline->records(static_cast<NodeId>(rank)) ? config.timeline : nullptr;
  RunStart run{};
  if (sleepy_any(comm, timeline != nullptr))  // the barrier that begins the run
    run = start_in_rank0_time(comm, rank, size, timeline);
  else
    run.start = run.origin = clock_ns();
  WorkerCore core(app, config, static_cast<NodeId>(rank), transport, bound, run.origin);
  core.trace_from(run.start - run.origin);  // this rank's spans begin when it starts, maybe after rank 0
  try {  // the program's roots() on this rank: its error stops every rank, as a task's does
    core.push_roots();
  } catch (...) {
    transport.task_failed(core, std::current_exception());
  }
  core.run();
  const SimTime elapsed = clock_ns() - run.start;
  transport.drain();
  throw_if_failed(comm, rank, transport.error());

  // Every rank's figures and partial result to every rank; each combines them in rank
  // order, so that every rank holds the same result.
  const RankReport mine{core.stats(elapsed), to_seconds(elapsed)};
  std::vector<RankReport> reports(static_cast<std::size_t>(size));
  MPI_Allgather(&mine, sizeof mine, MPI_BYTE, reports.data(), sizeof mine, MPI_BYTE, comm);
  const auto kinds = static_cast<int>(core.messages_by_kind().size());
  std::vector<std::uint64_t> by_kind(core.messages_by_kind().size(), 0);
  MPI_Allreduce(core.messages_by_kind().data(), by_kind.data(), kinds, MPI_UINT64_T, MPI_SUM, comm);
  const std::vector<std::byte> partial = app.partial(static_cast<NodeId>(rank));
  const auto rb = static_cast<int>(partial.size());
  std::vector<std::byte> partials(partial.size() * static_cast<std::size_t>(size));
  MPI_Allgather(partial.data(), rb, MPI_BYTE, partials.data(), rb, MPI_BYTE, comm);

  std::vector<WorkerStats> stats;
  double longest = 0;
  for (const RankReport& r : reports) {
    stats.push_back(r.stats);
    longest = std::max(longest, r.elapsed);
  }
  RuntimeResult r = detail::collect("mpi", config, longest, stats, by_kind);
  r.result = detail::combine_partials(app, partials);
  detail::add_warnings(app, config, r);
  return r;
}

}  // namespace dlbkit
