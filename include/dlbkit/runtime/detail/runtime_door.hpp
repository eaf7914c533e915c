#pragma once
/// \file
/// `dlbkit run`'s way through dlbkit::Runtime: an application of the registry, its
/// result as bytes with a JSON report, and the command's extras (progress, timeline,
/// testing delays). A program of its own has Runtime::run.

#include <dlbkit/core/time.hpp>
#include <dlbkit/runtime/detail/byte_application.hpp>
#include <dlbkit/runtime/run_result.hpp>
#include <dlbkit/runtime/runtime.hpp>
#include <dlbkit/sim/timeline.hpp>

#include <atomic>
#include <cstdint>
#include <exception>

namespace dlbkit::detail {

struct RunExtras {
  std::atomic<std::uint64_t>* progress = nullptr;  ///< RuntimeConfig::progress
  Timeline* timeline = nullptr;                    ///< RuntimeConfig::timeline
  SimTime max_delay = 0;                           ///< RuntimeConfig::max_delay
};

struct RuntimeDoor {
  /// Runs `app` on the runtime's engine (Runtime::run's figures, warnings included) and
  /// returns the figures with the combined result as bytes.
  static const RuntimeResult& run(Runtime& runtime, ByteApplication& app, const RunExtras& extras);
  /// Collective under MPI: when `error` is set on some rank, every rank throws the error
  /// of the lowest such rank. Elsewhere rethrows `error` if set.
  static void agree(const Runtime& runtime, std::exception_ptr error);
  /// Collective under MPI: waits for every rank, sleeping.
  static void barrier(const Runtime& runtime);
};

}  // namespace dlbkit::detail
