// Charm++'s +LBDump files, read as CentralLB::readStatsMsgs reads them (src/ck-ldb/CentralLB.C):
// PUP's machine info, then the LB format version, the PE count and BaseLB::LDStats::pup
// (BaseLB.C; LDObjData and LDCommData in lbdb.h). PUP::toDisk writes each field's bytes as
// they are in memory, in the order the pup routines name them, with no padding, and an
// std::vector as its size (a size_t) before its elements. Charm++ 6.9 and 6.10 wrote the same
// format version in another layout (their BaseLB.C and lbdb.h, tags v6.9.0 and v6.10.2).

#include <dlbkit/error.hpp>
#include <dlbkit/io/input_file.hpp>
#include <dlbkit/phases/charm_dump.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <string_view>
#include <type_traits>
#include <utility>

namespace dlbkit {

namespace {

constexpr std::string_view kAccepted =
    "accepted: a Charm++ +LBDump file of Charm++ 6.9 or later (LB format version 2 or 3) written on x86-64 "
    "(docs/phases.md)";

// Smallest bytes an element of each vector takes, to refuse a count the file cannot hold
// before allocating for it.
constexpr std::uint64_t kProcessorBytes = 4 * 8 + 1 + 4 + 4;
constexpr std::uint64_t kObjectBytes = 4 + 4 + 8 + 4 + 8 + 1 + 1 + 2;
constexpr std::uint64_t kCommunicationBytes = 4 + 4 + 8 + 1 + 4 + 4 + 4;
constexpr std::uint64_t kKeyBytes = 4 + 8;  // LDObjKey: the location manager's group, the object id

constexpr char LD_PROC_MSG = 1, LD_OBJ_MSG = 2, LD_OBJLIST_MSG = 3;

/// The file's bytes and a position in them; every error names the file and an offset.
class Reader {
public:
  Reader(const std::string& path, std::string_view bytes) : path_(path), bytes_(bytes) {}

  const std::string& path() const { return path_; }
  std::uint64_t at() const { return at_; }
  std::uint64_t left() const { return bytes_.size() - at_; }

  [[noreturn]] void fail(std::uint64_t offset, const std::string& problem) const {
    throw InputError(
        fmt::format("Charm++ LB dump {}: byte {}: {}; {}", excerpt(path_, 200), offset, problem, kAccepted));
  }

  template <class T>
  T read(std::string_view what) {
    if (left() < sizeof(T))
      fail(at_, fmt::format("truncated: {} needs {} bytes, the file ends at byte {}", what, sizeof(T), bytes_.size()));
    T value;
    std::memcpy(&value, bytes_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return value;
  }

  bool flag(std::string_view what) {
    const std::uint64_t offset = at_;
    const auto value = read<std::uint8_t>(what);
    if (value > 1) fail(offset, fmt::format("{} is {}, not a bool (0 or 1)", what, value));
    return value == 1;
  }

  /// A non-negative number of seconds.
  double seconds(std::string_view what) {
    const std::uint64_t offset = at_;
    const auto value = read<double>(what);
    if (!std::isfinite(value) || value < 0) fail(offset, fmt::format("{} is {}, not a time >= 0", what, value));
    return value;
  }

  /// A list's size (an std::vector's, or an int before an array), each element taking at
  /// least `element_bytes`.
  template <class Count = std::uint64_t>
  std::size_t count(std::string_view what, std::uint64_t element_bytes) {
    const std::uint64_t offset = at_;
    const auto n = read<Count>(fmt::format("the count of {}", what));
    if constexpr (std::is_signed_v<Count>)
      if (n < 0) fail(offset, fmt::format("a count of {} {}", n, what));
    if (static_cast<std::uint64_t>(n) > left() / element_bytes)
      fail(offset, fmt::format("truncated: {} {} need at least {} bytes after their count, the file has {} (it "
                               "ends at byte {})",
                               n, what, static_cast<double>(n) * static_cast<double>(element_bytes), left(),
                               bytes_.size()));
    return static_cast<std::size_t>(n);
  }

private:
  const std::string& path_;
  std::string_view bytes_;
  std::uint64_t at_ = 0;
};

// PUP::machineInfo (util/pup.h, pup_xlater.C): 16 bytes. The dump is read only when its
// layout is ours: PUP::xlater would convert any other, dlbkit does not.
void read_machine_info(Reader& in) {
  std::array<std::uint8_t, 16> info{};
  for (auto& b : info) b = in.read<std::uint8_t>("PUP's machine info");
  constexpr std::array<std::uint8_t, 4> kMagic{0x10, 0xea, 0xbd, 0xf9};
  if (!std::equal(kMagic.begin(), kMagic.end(), info.begin()))
    in.fail(0, fmt::format("no PUP machine info: the file starts {:02x} {:02x} {:02x} {:02x}, not 10 ea bd f9",
                           info[0], info[1], info[2], info[3]));
  // version 1: intBytes[5], then the formats; version 0: intBytes[4], the formats, a padding byte.
  const std::size_t formats = info[4] == 0 ? 9 : 10;
  const bool ours = info[4] <= 1 && info[5] == 1 && info[6] == 2 && info[7] == 4 && info[8] == 8 &&
                    info[formats] == 1 && info[formats + 1] == 4 && info[formats + 2] == 8 &&
                    info[formats + 3] == 1 && info[formats + 4] == 1;
  if (!ours)
    in.fail(4, fmt::format("written on a machine of another layout (PUP machine info {:02x}); dlbkit reads "
                           "little-endian files with 4-byte int, 8-byte long and double, 1-byte bool",
                           fmt::join(info.begin() + 4, info.end(), " ")));
}

std::pair<std::int32_t, std::uint64_t> read_key(Reader& in, std::string_view what) {
  const auto manager = in.read<std::int32_t>(what);
  return {manager, in.read<std::uint64_t>(what)};
}

/// The layouts a dump may have, tried in this order: Charm++ 7.0 and later (its lists as
/// std::vectors), the same with LB user data (CMK_LB_USER_DATA, which ChaNGa's build sets: a byte
/// vector in each object), Charm++ 6.9 and 6.10 (the counts first, then plain arrays, and the LB
/// database's pointer in each object's handle).
enum class Layout { vectors, vectors_with_user_data, arrays };

CharmDump parse(Reader& in, Layout layout) {
  CharmDump dump;
  dump.layout = layout == Layout::vectors                  ? "Charm++ 7.0 and later"
                : layout == Layout::vectors_with_user_data ? "Charm++ 7.0 and later, with LB user data"
                                                           : "Charm++ 6.9 or 6.10";
  const bool arrays = layout == Layout::arrays;
  const std::uint64_t object_bytes =
      kObjectBytes + (layout == Layout::vectors_with_user_data ? 8 : 0) + (arrays ? 4 : 0);
  read_machine_info(in);
  const std::uint64_t version_at = in.at();
  dump.version = in.read<std::int32_t>("the LB format version");
  if (dump.version < 2 || dump.version > 3)
    in.fail(version_at, fmt::format("LB format version {}, not 2 or 3", dump.version));
  in.read<std::int32_t>("the PE count");
  const std::uint64_t procs_at = in.at();
  std::size_t objects = 0, communications = 0;
  if (arrays) {
    dump.processors.resize(in.count<std::int32_t>("PEs", kProcessorBytes));
    objects = in.count<std::int32_t>("objects", object_bytes);
    in.read<std::int32_t>("the count of migratable objects");
    communications = in.count<std::int32_t>("communications", kCommunicationBytes);
  } else {
    in.read<std::int32_t>("the count of migratable objects");
    dump.processors.resize(in.count("PEs", kProcessorBytes));
  }
  if (dump.processors.empty()) in.fail(procs_at, "no PE");
  for (CharmProcessor& pe : dump.processors) {
    pe.total_walltime = in.seconds("a PE's total_walltime");
    pe.idle_seconds = in.seconds("a PE's idletime");
    pe.background_seconds = in.seconds("a PE's bg_walltime");
    const std::uint64_t speed_at = in.at();
    pe.speed = in.read<double>("a PE's pe_speed");
    if (!std::isfinite(pe.speed) || pe.speed < 0) in.fail(speed_at, fmt::format("a PE's pe_speed is {}", pe.speed));
    pe.available = in.flag("a PE's available");
    in.read<std::int32_t>("a PE's n_objs");
    in.read<std::int32_t>("a PE's number");
  }
  const std::size_t nodes = dump.processors.size();
  Phase& phase = dump.phase;
  phase.nodes = nodes;

  std::map<std::pair<std::int32_t, std::uint64_t>, ObjectIndex> index_of;
  std::map<std::uint64_t, std::int32_t> manager_of;
  phase.objects.resize(arrays ? objects : in.count("objects", object_bytes));
  for (std::size_t i = 0; i < phase.objects.size(); ++i) {
    const std::uint64_t object_at = in.at();
    if (arrays) {  // the LB database's pointer: its size, then its bytes
      const auto size = in.read<std::int32_t>("an object's pointer size");
      if (size != 4 && size != 8) in.fail(object_at, fmt::format("an object's pointer size is {}, not 4 or 8", size));
      for (std::int32_t k = 0; k < size; ++k) in.read<std::uint8_t>("an object's LB database pointer");
    }
    const auto manager = in.read<std::int32_t>("an object's location manager");
    in.read<std::int32_t>("an object's location manager handle");
    const auto id = in.read<std::uint64_t>("an object's id");
    in.read<std::int32_t>("an object's handle");
    PhaseObject& object = phase.objects[i];
    object.id = id;
    object.load = in.seconds("an object's wallTime");
    object.migratable = in.flag("an object's migratable");
    in.flag("an object's asyncArrival");
    if (layout == Layout::vectors_with_user_data) {
      const std::size_t n = in.count("bytes of an object's user data", 1);
      for (std::size_t k = 0; k < n; ++k) in.read<std::uint8_t>("an object's user data");
    }
    in.read<std::uint16_t>("an object's pupSize");
    // vt's data, which the dump is written as, names an object by one id.
    if (const auto [it, added] = manager_of.emplace(id, manager); !added)
      in.fail(object_at, fmt::format("object id {} appears twice (location managers {} and {})", id, it->second,
                                     manager));
    index_of.emplace(std::pair{manager, id}, static_cast<ObjectIndex>(i));
  }

  const std::uint64_t from_at = in.at();
  const std::size_t placed = arrays ? phase.objects.size() : in.count("PE numbers of the objects", 4);
  if (placed != phase.objects.size())
    in.fail(from_at, fmt::format("{} PE numbers for {} objects", placed, phase.objects.size()));
  phase.node_of.resize(placed);
  for (NodeId& node : phase.node_of) {
    const std::uint64_t at = in.at();
    const auto pe = in.read<std::int32_t>("an object's PE");
    if (pe < 0 || static_cast<std::size_t>(pe) >= nodes)
      in.fail(at, fmt::format("an object on PE {}, not one of the {} PEs", pe, nodes));
    node = static_cast<NodeId>(pe);
  }
  if (arrays)  // the new PEs, which the dump's reader resets to the current ones
    for (std::size_t i = 0; i < placed; ++i) in.read<std::int32_t>("an object's new PE");

  if (!arrays) communications = in.count("communications", kCommunicationBytes);
  for (std::size_t c = 0; c < communications; ++c) {
    const auto from_pe = in.read<std::int32_t>("a communication's src_proc");
    const auto sender = read_key(in, "a communication's sender");
    const std::uint64_t type_at = in.at();
    const auto type = in.read<char>("a communication's receiver type");
    std::vector<std::pair<std::int32_t, std::uint64_t>> receivers;
    bool to_pe = false;
    if (type == LD_PROC_MSG) {
      in.read<std::int32_t>("a communication's receiving PE");
      to_pe = true;
    } else if (type == LD_OBJ_MSG) {
      receivers.push_back(read_key(in, "a communication's receiver"));
      in.read<std::int32_t>("a communication's receiver PE");
    } else if (type == LD_OBJLIST_MSG) {
      const std::uint64_t len_at = in.at();
      const auto len = in.read<std::int32_t>("a multicast's receiver count");
      if (len < 0 || static_cast<std::uint64_t>(len) > in.left() / kKeyBytes)
        in.fail(len_at, fmt::format("a multicast to {} objects in the file's remaining {} bytes", len, in.left()));
      for (std::int32_t k = 0; k < len; ++k) receivers.push_back(read_key(in, "a multicast's receiver"));
      ++dump.multicasts;
    } else {
      in.fail(type_at, fmt::format("a communication's receiver type is {}, not 1 (a PE), 2 (an object) or 3 (a "
                                   "multicast)",
                                   static_cast<int>(type)));
    }
    const std::uint64_t counts_at = in.at();
    const auto messages = in.read<std::int32_t>("a communication's messages");
    const auto bytes = in.read<std::int32_t>("a communication's bytes");
    if (messages < 0 || bytes < 0)
      in.fail(counts_at, fmt::format("a communication of {} messages and {} bytes", messages, bytes));
    if (from_pe != -1 || to_pe) {
      ++dump.processor_communications;
      continue;
    }
    const auto from = index_of.find(sender);
    bool unmatched = from == index_of.end();
    for (const auto& receiver : receivers) {
      const auto to = index_of.find(receiver);
      if (from == index_of.end() || to == index_of.end()) {
        unmatched = true;
        continue;
      }
      phase.communications.push_back({.from = from->second, .to = to->second,
                                      .messages = static_cast<double>(messages), .bytes = static_cast<double>(bytes)});
    }
    if (unmatched) ++dump.unmatched_communications;
  }
  if (in.left() > 0) in.fail(in.at(), fmt::format("{} bytes after the end of the LB database", in.left()));
  check_phase(phase, fmt::format("Charm++ LB dump {}", excerpt(in.path(), 200)));
  return dump;
}

}  // namespace

CharmDump read_charm_dump(const std::string& path) {
  const std::string bytes = read_input_file(path, "Charm++ LB dump " + excerpt(path, 200), kMaxCharmDumpBytes,
                                            "a Charm++ +LBDump file");
  // The file's layout is the one that reads it; when none does, the error is that of the
  // layout that read furthest (the first of those), where the file most likely breaks off.
  std::optional<InputError> error;
  std::uint64_t furthest = 0;
  for (const Layout layout : {Layout::vectors, Layout::vectors_with_user_data, Layout::arrays}) {
    Reader in(path, bytes);
    try {
      return parse(in, layout);
    } catch (const InputError& e) {
      if (!error || in.at() > furthest) {
        error = e;
        furthest = in.at();
      }
    }
  }
  throw *error;
}

}  // namespace dlbkit
