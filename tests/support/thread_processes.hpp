#pragma once
// Threads standing in for the processes of an MPI launch (dlbkit::ProcessGroup): each thread
// holds one member, and the collectives go through shared slots between two barriers, so
// that a test, and the sanitizers, see a run on several processes without mpirun.

#include <dlbkit/sim/process_group.hpp>

#include <barrier>
#include <exception>
#include <stdexcept>
#include <string>
#include <vector>

namespace dlbkit::test {

class ThreadProcesses {
public:
  /// `round_bytes`: the members' ProcessGroup::round_bytes() (1: a crossing a round).
  explicit ThreadProcesses(int size, std::size_t round_bytes = ProcessGroup::kRoundBytes)
      : size_(size), round_bytes_(round_bytes), sync_(size), slots_(static_cast<std::size_t>(size) * static_cast<std::size_t>(size)),
        errors_(static_cast<std::size_t>(size)) {}

  class Member final : public ProcessGroup {
  public:
    Member(ThreadProcesses& all, int rank) : all_(all), rank_(rank) {}
    int rank() const override { return rank_; }
    int size() const override { return all_.size_; }
    std::vector<std::vector<std::byte>> all_gather(std::span<const std::byte> mine) const override {
      return all_to_all(std::vector<std::vector<std::byte>>(static_cast<std::size_t>(size()), {mine.begin(), mine.end()}));
    }
    std::vector<std::vector<std::byte>> all_to_all(const std::vector<std::vector<std::byte>>& to) const override {
      for (int r = 0; r < size(); ++r) all_.slot(rank_, r) = to.at(static_cast<std::size_t>(r));
      all_.sync_.arrive_and_wait();
      std::vector<std::vector<std::byte>> from;
      for (int r = 0; r < size(); ++r) from.push_back(all_.slot(r, rank_));
      all_.sync_.arrive_and_wait();
      return from;
    }
    std::size_t round_bytes() const override { return all_.round_bytes_; }
    void agree(std::exception_ptr error) const override {
      all_.errors_[static_cast<std::size_t>(rank_)] = error;
      all_.sync_.arrive_and_wait();
      std::exception_ptr first;
      for (const auto& e : all_.errors_)
        if (e && !first) first = e;
      all_.sync_.arrive_and_wait();
      if (!first) return;
      if (first == error) std::rethrow_exception(error);
      try {
        std::rethrow_exception(first);
      } catch (const std::exception& e) {
        throw std::runtime_error(e.what());
      }
    }

  private:
    ThreadProcesses& all_;
    int rank_;
  };

private:
  std::vector<std::byte>& slot(int from, int to) {
    return slots_[static_cast<std::size_t>(from) * static_cast<std::size_t>(size_) + static_cast<std::size_t>(to)];
  }

  int size_;
  std::size_t round_bytes_;
  std::barrier<> sync_;
  std::vector<std::vector<std::byte>> slots_;  // [from][to]
  std::vector<std::exception_ptr> errors_;
};

}  // namespace dlbkit::test
