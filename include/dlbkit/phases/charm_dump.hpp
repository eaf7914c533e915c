#pragma once
/// \file
/// Charm++'s `+LBDump` files: one load-balancing step of a Charm++ run (the LB database that
/// CentralLB's writeStatsMsgs serialises with PUP), read into a Phase, so that dlbkit's phase
/// strategies balance it and write_vt_phases() writes it as vt's LB data.
///
/// ```
/// dlbkit::CharmDump dump = dlbkit::read_charm_dump("lbdump.0");   // +LBDump 0 +LBDumpFile lbdump
/// dlbkit::write_vt_phases({dump.phase}, "lb/run");              // lb/run.0.json, lb/run.1.json, ...
/// ```

#include <dlbkit/phases/phase.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace dlbkit {

/// A Charm++ processor (PE) as the dump describes it, beside its objects.
struct CharmProcessor {
  double total_walltime = 0;  ///< seconds of the step
  double idle_seconds = 0;
  double background_seconds = 0;  ///< bg_walltime: the PE's time in no object
  double speed = 1;               ///< pe_speed, relative
  bool available = true;
};

struct CharmDump {
  int version = 0;  ///< the LB format version the file declares (2 or 3)
  /// One node per PE, one object per chare (its id: the chare's 64-bit object id; its load:
  /// its wall time; node_of: its PE), one edge per object receiving messages from an object
  /// (each receiver of a multicast), with the messages and bytes recorded.
  Phase phase;
  std::vector<CharmProcessor> processors;
  /// Communications that are not edges: sent by a PE rather than an object, or to a PE;
  /// and those naming an object that is not in the dump.
  std::size_t processor_communications = 0;
  std::size_t unmatched_communications = 0;
  std::size_t multicasts = 0;  ///< multicasts read (each gives an edge per receiver)
  /// The layout read: "Charm++ 7.0 and later", "Charm++ 7.0 and later, with LB user data" (a
  /// build option), or "Charm++ 6.9 or 6.10", which write the same format version otherwise.
  std::string layout;
};

/// Largest dump read.
constexpr std::uint64_t kMaxCharmDumpBytes = std::uint64_t{1} << 30;

/// Reads one dump file (`+LBDumpFile F` writes F.STEP) of Charm++ 6.9 or later. Throws
/// InputError naming the file and the byte offset for a truncated or foreign file: no PUP
/// machine-info header, a machine whose layout differs from x86-64's (little-endian, 4-byte int,
/// 8-byte long and double), a format version other than 2 or 3, a count or field out of range,
/// bytes left at the end.
CharmDump read_charm_dump(const std::string& path);

}  // namespace dlbkit
