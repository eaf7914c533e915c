#pragma once
/// \file
/// DARMA vt's LB data files: one file `STEM.R.json` per rank R (vt's LBDatafile schema,
/// scripts/LBDatafile_schema.py in vt's repository), plain JSON or brotli-compressed, read
/// into one Phase per phase id and written back, after balancing, in the same schema, so
/// that vt's tools and Sandia's LBAF read the result.
///
/// ```
/// dlbkit::VtDataSet data = dlbkit::read_vt_data("lb/toy");       // lb/toy.0.json, lb/toy.1.json, ...
/// const dlbkit::Phase& phase = dlbkit::vt_phase(data, 0).phase;
/// std::vector<dlbkit::NodeId> mapping = ...;                      // a strategy's new mapping
/// dlbkit::write_vt_data(data, 0, mapping, "out/toy");             // out/toy.0.json, ...
/// ```

#include <dlbkit/phases/phase.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace dlbkit {

class AtomicFile;

/// One phase id of a data set: the tasks of that phase in every rank's file.
struct VtPhase {
  std::int64_t id = 0;
  /// Objects in the order of the files (rank 0 first), then of their `tasks`; node_of is the
  /// rank of the file. Edges: vt's `SendRecv` communications from an object to an object.
  Phase phase;
  std::vector<std::string> tasks;  ///< each object's task as read (compact JSON), for the writer

  /// A communication as read (compact JSON): written back on the rank of its sender object,
  /// or, when its sender is not an object of the phase, on the rank of the file it came from.
  struct Communication {
    std::string json;
    std::optional<ObjectIndex> sender;
    NodeId rank = 0;
  };
  std::vector<Communication> communications;
  std::vector<std::string> user_defined;  ///< each rank's phase `user_defined` (compact JSON, "" if none)
  /// Communications kept for the writer that are not edges of `phase`: other kinds than an
  /// object sending to an object (broadcasts, to or from a node), and those naming an object
  /// that is no task of the phase.
  std::size_t other_communications = 0;
  std::size_t unmatched_communications = 0;
};

struct VtDataSet {
  std::string stem;
  std::size_t ranks = 0;
  std::vector<std::string> metadata;  ///< each rank's `metadata` (compact JSON, "" if none)
  std::vector<VtPhase> phases;        ///< in increasing id
  /// What was read but is not as vt's rules say, and how it was taken (one line each): tasks
  /// whose time is one of their subphases' (vt's focused subphase) rather than their sum.
  std::vector<std::string> warnings;
};

/// Largest file read, compressed or not, and largest JSON text after decompression.
constexpr std::uint64_t kMaxVtFileBytes = std::uint64_t{1} << 30;

/// Reads STEM.0.json, STEM.1.json, ... (the ranks: the files found from 0 on, without a gap)
/// and checks them against the schema's rules. Throws InputError naming the file, the place
/// (a JSON pointer) and what is accepted for anything else: no STEM.0.json, a gap, a file
/// that is neither JSON nor brotli-compressed JSON, a missing or mistyped field, a negative,
/// non-finite or absurd number, two tasks of one phase with the same id, a phase missing
/// from some files, a task's subphases (each id once) whose times neither sum to its time
/// nor include it, or a task without subphases but with time where others have them.
/// A phase's subphases are the most a task has (Phase::subphases).
VtDataSet read_vt_data(const std::string& stem);

/// The data set's phase ids, in increasing order.
std::vector<std::int64_t> vt_phase_ids(const VtDataSet& data);

/// The phase of id `phase_id`; an InputError listing the ids there are when there is none.
const VtPhase& vt_phase(const VtDataSet& data, std::int64_t phase_id);
/// Not of a temporary data set: the phase would not outlive it.
const VtPhase& vt_phase(VtDataSet&& data, std::int64_t phase_id) = delete;

/// Writes STEM.R.json for every rank R of `data`: phase `phase_id` alone, each object's task
/// under its rank in `mapping` (one entry per object of the phase). Plain JSON. The files
/// appear together or not at all: each is written to a temporary first, and they are renamed
/// into place only once all are written. Throws InputError for an empty stem, a mapping of
/// another length, to a rank outside the data set or moving an object vt marks as not
/// migratable, or a file that cannot be written.
void write_vt_data(const VtDataSet& data, std::int64_t phase_id, const std::vector<NodeId>& mapping,
                   const std::string& stem);

/// Writes STEM.R.json for every node R of `phases` (phase k with id k, all of one node count;
/// the objects may differ from phase to phase): each object of a phase as a task (entity id,
/// home: its node in the first of the phases in a row that hold it, migratable; its load as
/// `time`, its subphase loads as `subphases`; its serialized bytes and the times to serialize
/// and deserialize them, where known, as user_defined's task_serialized_bytes,
/// task_serialize_seconds and task_deserialize_seconds) on
/// its node of that phase, each communication as a SendRecv on its sender's node, the
/// messages' costs per byte, where known, as the phase's user_defined
/// message_serialize_seconds_per_byte and message_deserialize_seconds_per_byte, and each
/// node's alpha of the first phase, where it has them, as its rank_alpha. Plain JSON; the
/// files appear together or not at all. Throws InputError for an empty stem, phases of
/// different node counts, two objects of a phase with one id, a file that cannot be written.
void write_vt_phases(const std::vector<Phase>& phases, const std::string& stem);

/// write_vt_phases one phase at a time, as a run produces them: each phase goes to the files
/// when given, a task at a time, so that memory holds no more than the phase (and its
/// objects' ids and homes); commit() ends the files and puts them in place, together. The same
/// files as write_vt_phases of all the phases. Throws as it does; files not committed are
/// removed.
class VtPhasesWriter {
public:
  VtPhasesWriter(const std::string& stem, std::size_t nodes);
  ~VtPhasesWriter();
  VtPhasesWriter(const VtPhasesWriter&) = delete;
  VtPhasesWriter& operator=(const VtPhasesWriter&) = delete;
  void write(const Phase& phase);
  void commit();

private:
  void begin(const Phase* first);  // each file's metadata, with the first phase's alphas

  std::string stem_;
  std::size_t nodes_ = 0, phases_ = 0;
  std::vector<std::uint64_t> ids_;  // the objects of the phase written last
  std::vector<NodeId> home_;        // theirs, by index (object_matching.hpp)
  std::vector<std::unique_ptr<AtomicFile>> files_;  // by rank
};

}  // namespace dlbkit
