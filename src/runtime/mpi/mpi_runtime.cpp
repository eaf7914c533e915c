// The MPI engine behind dlbkit::Runtime: registered by runtime.hpp in every program that
// links dlbkit::mpi.

#include <dlbkit/runtime/mpi_engine.hpp>
#include <dlbkit/runtime/runtime.hpp>

#include <mpi.h>

namespace dlbkit::runtime_detail {

namespace {

class MpiRuntimeEngine final : public DistributedEngine {
public:
  explicit MpiRuntimeEngine(const Communicator& c) : session_(nullptr, nullptr) {
    const MPI_Comm given = c.is_world() ? MPI_COMM_WORLD : MPI_Comm_f2c(c.fortran_handle());
    MPI_Comm_dup(given, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~MpiRuntimeEngine() override { MPI_Comm_free(&comm_); }

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  RuntimeResult run(AnyApplication& app, const RuntimeConfig& config) override { return run_mpi(app, config, comm_); }

  std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) const override {
    const int bytes = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(size_)), offsets(static_cast<std::size_t>(size_));
    MPI_Allgather(&bytes, 1, MPI_INT, counts.data(), 1, MPI_INT, comm_);
    int total = 0;
    for (int r = 0; r < size_; ++r) {
      offsets[static_cast<std::size_t>(r)] = total;
      total += counts[static_cast<std::size_t>(r)];
    }
    std::vector<std::byte> all(static_cast<std::size_t>(total));
    MPI_Allgatherv(mine.data(), bytes, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, comm_);
    std::vector<std::vector<std::byte>> out;
    for (int r = 0; r < size_; ++r) {
      const auto from = all.begin() + offsets[static_cast<std::size_t>(r)];
      out.emplace_back(from, from + counts[static_cast<std::size_t>(r)]);
    }
    return out;
  }

private:
  MpiSession session_;  // first in, last out: MPI_Finalize after MPI_Comm_free
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

}  // namespace dlbkit::runtime_detail
