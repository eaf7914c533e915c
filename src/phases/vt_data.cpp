#include <dlbkit/error.hpp>
#include <dlbkit/io/atomic_file.hpp>
#include <dlbkit/io/input_file.hpp>
#include <dlbkit/io/json_input.hpp>
#include <dlbkit/phases/object_matching.hpp>
#include <dlbkit/phases/vt_data.hpp>

#include <brotli/decode.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <new>
#include <set>
#include <unordered_map>

namespace dlbkit {

namespace {

using json = nlohmann::json;

// Bounds on the numbers of a file, so that no sum over a data set overflows: a phase's
// time in seconds (about 30 000 years), bytes (an exabyte), message counts (exact in a double).
constexpr double kMaxSeconds = 1e12;
constexpr double kMaxBytes = 1e18;
constexpr std::uint64_t kMaxMessages = std::uint64_t{1} << 53;
// vt's SubphaseType is 16 bits, its largest value no_subphase; a phase's table of subphase
// loads at most 2^27 numbers (1 GiB), so that a few tasks cannot claim more.
constexpr std::uint64_t kMaxSubphaseId = 65534;
constexpr std::size_t kMaxSubphaseLoads = std::size_t{1} << 27;

std::string rank_file(const std::string& stem, std::size_t rank) { return fmt::format("{}.{}.json", stem, rank); }

// The ranks: STEM.R.json for R = 0, 1, ... without a gap (a file past a gap is an error, not
// a silently smaller data set).
std::size_t count_ranks(const std::string& stem) {
  namespace fs = std::filesystem;
  const fs::path path(stem);
  const std::string prefix = path.filename().string() + ".";
  std::set<std::size_t> found;
  std::error_code error;
  const fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (!path.filename().empty()) {
    for (fs::directory_iterator it(dir, error), end; !error && it != end; it.increment(error)) {
      const std::string name = it->path().filename().string();
      if (name.size() <= prefix.size() + 5 || name.rfind(prefix, 0) != 0 || !name.ends_with(".json")) continue;
      const std::string digits = name.substr(prefix.size(), name.size() - prefix.size() - 5);
      const bool decimal = digits.size() <= 9 && std::all_of(digits.begin(), digits.end(), [](char c) {
                             return c >= '0' && c <= '9';
                           }) && (digits.size() == 1 || digits[0] != '0');
      if (decimal) found.insert(std::stoul(digits));
    }
  }
  if (!found.contains(0))
    throw InputError(fmt::format("vt data {}: no file {}; accepted: a stem STEM of vt's LB data files STEM.0.json, "
                                 "STEM.1.json, ... (one per rank)",
                                 excerpt(stem, 200), excerpt(rank_file(stem, 0), 200)));
  std::size_t ranks = 0;
  while (found.contains(ranks)) ++ranks;
  if (*found.rbegin() >= ranks)
    throw InputError(fmt::format("vt data {}: {} is there but {} is not; accepted: files {} to STEM.N.json without "
                                 "a gap",
                                 excerpt(stem, 200), rank_file(stem, *found.rbegin()), rank_file(stem, ranks),
                                 rank_file(stem, 0)));
  return ranks;
}

// vt compresses its files with brotli by default; decompressed within kMaxVtFileBytes, so
// that a small file cannot claim gigabytes.
std::string decompress(const std::string& bytes, const std::string& file) {
  const std::unique_ptr<BrotliDecoderState, void (*)(BrotliDecoderState*)> state(
      BrotliDecoderCreateInstance(nullptr, nullptr, nullptr), BrotliDecoderDestroyInstance);
  if (!state) throw std::bad_alloc();
  const auto refuse = [&](const std::string& problem) {
    throw InputError(fmt::format("vt data file {}: {}; accepted: a JSON file, or one compressed with brotli", file,
                                 problem));
  };
  std::size_t available_in = bytes.size();
  const auto* next_in = reinterpret_cast<const std::uint8_t*>(bytes.data());
  std::string text;
  for (;;) {
    std::size_t available_out = 0;
    const BrotliDecoderResult result =
        BrotliDecoderDecompressStream(state.get(), &available_in, &next_in, &available_out, nullptr, nullptr);
    while (BrotliDecoderHasMoreOutput(state.get())) {
      std::size_t size = 0;
      const std::uint8_t* out = BrotliDecoderTakeOutput(state.get(), &size);
      if (text.size() + size > kMaxVtFileBytes)
        refuse(fmt::format("brotli-compressed, decompresses to more than {} bytes", kMaxVtFileBytes));
      text.append(reinterpret_cast<const char*>(out), size);
    }
    if (result == BROTLI_DECODER_RESULT_SUCCESS) {
      if (available_in != 0) refuse("brotli-compressed data followed by other bytes");
      return text;
    }
    if (result == BROTLI_DECODER_RESULT_ERROR)
      refuse(fmt::format("neither JSON (it does not start with '{{') nor brotli-compressed (brotli: {})",
                         BrotliDecoderErrorString(BrotliDecoderGetErrorCode(state.get()))));
    if (result == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT)
      refuse(text.empty() ? "neither JSON (it does not start with '{') nor complete brotli-compressed data"
                          : "brotli-compressed data that ends early (truncated)");
  }
}

std::string found(const json& value) {
  switch (value.type()) {
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "the string \"" + excerpt(value.get_ref<const std::string&>()) + "\"";
    case json::value_t::number_float:  // JSON's 1e999 parses to infinity, which dump() writes as null
      return std::isfinite(value.get<double>()) ? value.dump() : "a number beyond a double's range";
    default: return excerpt(value.dump());
  }
}

// The checks of one file against the schema's rules, each failure naming the file and the
// place as a JSON pointer.
class FileChecker {
public:
  explicit FileChecker(std::string file) : file_(std::move(file)) {}
  const std::string& file() const { return file_; }

  [[noreturn]] void fail(const std::string& at, const std::string& problem, std::string_view accepted) const {
    throw InputError(fmt::format("vt data file {}: {} {}; accepted: {}", file_, at.empty() ? "the document" : at,
                                 problem, accepted));
  }
  [[noreturn]] void wrong(const json& value, const std::string& at, std::string_view accepted) const {
    fail(at, "is " + found(value), accepted);
  }

  const json& required(const json& parent, const std::string& at, const char* key, std::string_view accepted) const {
    const auto it = parent.find(key);
    if (it == parent.end()) fail(at + "/" + key, "is missing", accepted);
    return *it;
  }
  static const json* optional(const json& parent, const char* key) {
    const auto it = parent.find(key);
    return it == parent.end() ? nullptr : &*it;
  }

  const json& object(const json& value, const std::string& at) const {
    if (!value.is_object()) wrong(value, at, "an object");
    return value;
  }
  const json& array(const json& value, const std::string& at) const {
    if (!value.is_array()) wrong(value, at, "an array");
    return value;
  }
  const std::string& string(const json& value, const std::string& at) const {
    if (!value.is_string()) wrong(value, at, "a string");
    return value.get_ref<const std::string&>();
  }
  bool boolean(const json& value, const std::string& at) const {
    if (!value.is_boolean()) wrong(value, at, "true or false");
    return value.get<bool>();
  }
  std::int64_t integer(const json& value, const std::string& at) const {
    if (!value.is_number_integer() ||
        (value.is_number_unsigned() && value.get<std::uint64_t>() > std::numeric_limits<std::int64_t>::max()))
      wrong(value, at, "an integer (64 bits)");
    return value.get<std::int64_t>();
  }
  std::uint64_t id(const json& value, const std::string& at) const {
    if (!value.is_number_unsigned()) wrong(value, at, "an integer >= 0");
    return value.get<std::uint64_t>();
  }
  // vt's schema asks for a float where it says `float`; any JSON number is taken here.
  double amount(const json& value, const std::string& at, double max, std::string_view unit) const {
    const double x = value.is_number() ? value.get<double>() : std::nan("");
    if (!(x >= 0 && x <= max)) wrong(value, at, fmt::format("a number of {} in [0, {:g}]", unit, max));
    return x;
  }

private:
  std::string file_;
};

// An entity (a task's, or a communication's end): `id` or `seq_id` (LBAF's key, id first),
// and, with seq_id, a collection_id when migratable (the schema's validate_ids).
struct Entity {
  std::uint64_t key = 0;
  bool migratable = false;
  bool object = false;  // type "object"
};

Entity read_entity(const FileChecker& c, const json& e, const std::string& at, bool task) {
  c.object(e, at);
  Entity entity;
  entity.object = c.string(c.required(e, at, "type", "a string"), at + "/type") == "object";
  if (task) {
    c.integer(c.required(e, at, "home", "an integer"), at + "/home");
    entity.migratable = c.boolean(c.required(e, at, "migratable", "true or false"), at + "/migratable");
  } else {
    if (const json* home = c.optional(e, "home")) c.integer(*home, at + "/home");
    if (const json* migratable = c.optional(e, "migratable"))
      entity.migratable = c.boolean(*migratable, at + "/migratable");
  }
  for (const char* key : {"collection_id", "objgroup_id"})
    if (const json* value = c.optional(e, key)) c.integer(*value, at + "/" + key);
  if (const json* index = c.optional(e, "index")) {
    c.array(*index, at + "/index");
    for (std::size_t i = 0; i < index->size(); ++i) c.integer((*index)[i], fmt::format("{}/index/{}", at, i));
  }
  const json* id = c.optional(e, "id");
  const json* seq_id = c.optional(e, "seq_id");
  if (id == nullptr && seq_id == nullptr)
    c.fail(at, "has neither id nor seq_id", "an entity with its id (bit-encoded) or its seq_id");
  if (seq_id != nullptr) entity.key = c.id(*seq_id, at + "/seq_id");
  if (id != nullptr) entity.key = c.id(*id, at + "/id");
  if (entity.migratable && seq_id != nullptr && c.optional(e, "collection_id") == nullptr)
    c.fail(at, "is migratable with a seq_id but no collection_id",
           "a collection_id beside the seq_id of a migratable entity");
  return entity;
}

// A communication waiting for every file's tasks, to be matched with its objects.
struct PendingCommunication {
  std::string json;
  Entity from, to;
  bool send_recv = false;
  double messages = 0, bytes = 0;
  NodeId rank = 0;
};

// Where a task was read, for the error about two tasks with one id.
struct TaskPlace {
  NodeId rank = 0;
  std::size_t phase = 0, task = 0;
};

struct PhaseBuilder {
  VtPhase out;
  std::vector<bool> in_file;  // by rank: the file has this phase
  std::unordered_map<std::uint64_t, ObjectIndex> object_of_key;
  std::vector<TaskPlace> places;  // by object
  std::unordered_map<std::int64_t, std::int32_t> block_of_id;
  std::vector<PendingCommunication> communications;
  std::vector<std::vector<double>> subphase_loads;  // by object: its subphases' times as read
  // The messages' costs per byte (Phase::message_serialize_seconds_per_byte), summed over the
  // files that give them, and those files.
  double serialize_sum = 0, deserialize_sum = 0;
  std::size_t costed_files = 0;
};

class DataSetReader {
public:
  DataSetReader(std::string stem, std::size_t ranks) : stem_(std::move(stem)), ranks_(ranks) {}

  void read_file(const json& doc, const FileChecker& c, NodeId rank, VtDataSet& data) {
    c.object(doc, "");
    // The file's type, at the top or in its metadata: vt's LB data, not its statistics files.
    const auto check_type = [&](const json& holder, const std::string& at) {
      const json* type = c.optional(holder, "type");
      if (type != nullptr && (!type->is_string() || *type != "LBDatafile"))
        c.wrong(*type, at, "\"LBDatafile\" (vt's LB data files)");
    };
    check_type(doc, "/type");
    if (const json* metadata = c.optional(doc, "metadata")) {
      c.object(*metadata, "/metadata");
      check_type(*metadata, "/metadata/type");
      if (const json* r = c.optional(*metadata, "rank")) c.integer(*r, "/metadata/rank");
      // LBAF's reader (lbsVTDataReader.py): the rank's alpha in its work model.
      if (const json* a = c.optional(*metadata, "rank_alpha")) {
        alpha_.resize(ranks_, 1.0);
        alpha_[rank] = c.amount(*a, "/metadata/rank_alpha", 1e12, "work per unit of load");
      }
      data.metadata[rank] = metadata->dump();
    }
    const json& phases = c.array(c.required(doc, "", "phases", "an array of phases"), "/phases");
    std::set<std::int64_t> ids;
    for (std::size_t p = 0; p < phases.size(); ++p) {
      const std::string at = fmt::format("/phases/{}", p);
      const json& phase = c.object(phases[p], at);
      const std::int64_t id = c.integer(c.required(phase, at, "id", "an integer"), at + "/id");
      if (!ids.insert(id).second)
        c.fail(at + "/id", fmt::format("is {}, as an earlier phase", id), "each phase id once in a file");
      read_phase(phase, c, at, rank, p, builder(id));
    }
  }

  void finish(VtDataSet& data) {
    for (auto& [id, b] : phases_) {
      const auto missing = std::find(b.in_file.begin(), b.in_file.end(), false);
      if (missing != b.in_file.end()) {
        const auto there = std::find(b.in_file.begin(), b.in_file.end(), true);
        throw InputError(fmt::format("vt data file {}: no phase {}, which {} has; accepted: the same phases in every "
                                     "rank's file",
                                     rank_file(stem_, missing - b.in_file.begin()), id,
                                     rank_file(stem_, there - b.in_file.begin())));
      }
      match_communications(b);
      b.out.phase.block_ids.resize(b.out.phase.block_bytes.size());
      for (const auto& [block_id, block] : b.block_of_id) b.out.phase.block_ids[block] = block_id;
      if (!b.out.phase.has_memory) b.out.phase.node_working_bytes.clear();
      b.out.phase.node_alpha = alpha_;
      take_subphases(b, id);
      if (b.costed_files > 0) {
        b.out.phase.message_serialize_seconds_per_byte = b.serialize_sum / static_cast<double>(b.costed_files);
        b.out.phase.message_deserialize_seconds_per_byte = b.deserialize_sum / static_cast<double>(b.costed_files);
      }
      check_phase(b.out.phase, fmt::format("vt data {} phase {}", stem_, id));
      data.phases.push_back(std::move(b.out));
    }
    if (focused_ > 0)
      data.warnings.push_back(fmt::format("vt data {}: {} tasks have a time equal to one of their subphases' rather "
                                          "than their sum (vt's focused subphase), the first at {}; their time is "
                                          "taken as their load",
                                          stem_, focused_, first_focused_));
  }

private:
  // The phase's subphase table: as many subphases as the task with most, 0 where a task has fewer.
  void take_subphases(PhaseBuilder& b, std::int64_t id) const {
    Phase& phase = b.out.phase;
    std::size_t parts = 0;
    for (const std::vector<double>& loads : b.subphase_loads) parts = std::max(parts, loads.size());
    if (parts == 0) return;
    if (parts > kMaxSubphaseLoads / std::max<std::size_t>(phase.objects.size(), 1))
      throw InputError(fmt::format("vt data {} phase {}: {} tasks with {} subphases; accepted: at most {} subphase "
                                   "loads in a phase",
                                   stem_, id, phase.objects.size(), parts, kMaxSubphaseLoads));
    phase.subphases = parts;
    phase.subphase_loads.assign(phase.objects.size() * parts, 0.0);
    for (std::size_t i = 0; i < b.subphase_loads.size(); ++i) {
      const std::vector<double>& loads = b.subphase_loads[i];
      if (loads.empty() && phase.objects[i].load > 0) {
        const TaskPlace& p = b.places[i];
        throw InputError(fmt::format("vt data file {}: /phases/{}/tasks/{} has no subphases but a time of {} "
                                     "seconds; accepted: subphases in every task of a phase with time, when some "
                                     "task has them",
                                     rank_file(stem_, p.rank), p.phase, p.task, phase.objects[i].load));
      }
      std::copy(loads.begin(), loads.end(), phase.subphase_loads.begin() + static_cast<std::ptrdiff_t>(i * parts));
    }
  }

  PhaseBuilder& builder(std::int64_t id) {
    auto [it, added] = phases_.try_emplace(id);
    if (added) {
      it->second.out.id = id;
      it->second.out.phase.nodes = ranks_;
      it->second.out.phase.node_working_bytes.assign(ranks_, 0.0);
      it->second.out.user_defined.assign(ranks_, "");
      it->second.in_file.assign(ranks_, false);
    }
    return it->second;
  }

  void read_phase(const json& phase, const FileChecker& c, const std::string& at, NodeId rank, std::size_t p,
                  PhaseBuilder& b) {
    b.in_file[rank] = true;
    if (const json* user_defined = c.optional(phase, "user_defined")) {
      c.object(*user_defined, at + "/user_defined");
      b.out.user_defined[rank] = user_defined->dump();
      read_message_costs(*user_defined, c, at + "/user_defined", b);
    }
    // vt's own LB iterations within the phase are not read: a strategy starts from the phase's tasks.
    if (const json* iterations = c.optional(phase, "lb_iterations")) c.array(*iterations, at + "/lb_iterations");
    const json& tasks = c.array(c.required(phase, at, "tasks", "an array of tasks"), at + "/tasks");
    for (std::size_t t = 0; t < tasks.size(); ++t)
      read_task(tasks[t], c, fmt::format("{}/tasks/{}", at, t), rank, {rank, p, t}, b);
    if (const json* communications = c.optional(phase, "communications")) {
      c.array(*communications, at + "/communications");
      for (std::size_t i = 0; i < communications->size(); ++i)
        read_communication((*communications)[i], c, fmt::format("{}/communications/{}", at, i), rank, b);
    }
  }

  void read_task(const json& task, const FileChecker& c, const std::string& at, NodeId rank, TaskPlace place,
                 PhaseBuilder& b) {
    c.object(task, at);
    const Entity entity = read_entity(c, c.required(task, at, "entity", "an object"), at + "/entity", true);
    c.integer(c.required(task, at, "node", "an integer"), at + "/node");
    c.string(c.required(task, at, "resource", "a string"), at + "/resource");
    PhaseObject object{.id = entity.key, .migratable = entity.migratable};
    object.load = c.amount(c.required(task, at, "time", "a number"), at + "/time", kMaxSeconds, "seconds");
    std::vector<double> parts;
    if (const json* subphases = c.optional(task, "subphases")) parts = read_subphases(*subphases, c, at, object.load);
    if (const json* attributes = c.optional(task, "attributes")) c.object(*attributes, at + "/attributes");
    if (const json* user_defined = c.optional(task, "user_defined"))
      read_memory(c.object(*user_defined, at + "/user_defined"), c, at + "/user_defined", rank, object.memory, b);

    if (b.out.phase.objects.size() >= std::numeric_limits<ObjectIndex>::max())
      c.fail(at, "is one task too many",
             fmt::format("at most {} tasks in a phase", std::numeric_limits<ObjectIndex>::max()));
    const auto [it, added] =
        b.object_of_key.try_emplace(entity.key, static_cast<ObjectIndex>(b.out.phase.objects.size()));
    if (!added) {
      const TaskPlace& first = b.places[it->second];
      c.fail(at + "/entity", fmt::format("has the id {}, as {} /phases/{}/tasks/{}", entity.key,
                                         rank_file(stem_, first.rank), first.phase, first.task),
             "each task of a phase with its own id (or seq_id)");
    }
    b.places.push_back(place);
    b.subphase_loads.push_back(std::move(parts));
    b.out.phase.objects.push_back(object);
    b.out.phase.node_of.push_back(rank);
    b.out.tasks.push_back(task.dump());
  }

  // What ObjectRuntime's record measured of a phase's messages between processes: both costs
  // per byte, or neither.
  static void read_message_costs(const json& user, const FileChecker& c, const std::string& at, PhaseBuilder& b) {
    const json* pack = c.optional(user, "message_serialize_seconds_per_byte");
    const json* unpack = c.optional(user, "message_deserialize_seconds_per_byte");
    if (pack == nullptr && unpack == nullptr) return;
    if (pack == nullptr || unpack == nullptr)
      c.fail(at, "has one of message_serialize_seconds_per_byte and message_deserialize_seconds_per_byte",
             "both or neither");
    b.serialize_sum += c.amount(*pack, at + "/message_serialize_seconds_per_byte", 1, "seconds");
    b.deserialize_sum += c.amount(*unpack, at + "/message_deserialize_seconds_per_byte", 1, "seconds");
    ++b.costed_files;
  }

  // A task's `subphases`, each time at its id (vt's LBDataHolder reads them so: an id not
  // listed is 0). vt measures a task's time and its subphases' in two sums of the same
  // timings (ElementLBData::addTime), so they agree up to rounding, except where the program
  // chose a focused subphase (CollectionLBData::setFocusedSubPhase): then NodeLBData::
  // addNodeLBData writes that subphase's time as the task's `time`. Such a task is taken
  // with a warning, its time as its load; any other time is an error.
  std::vector<double> read_subphases(const json& subphases, const FileChecker& c, const std::string& at, double time) {
    c.array(subphases, at + "/subphases");
    std::vector<double> parts;
    double sum = 0;
    for (std::size_t s = 0; s < subphases.size(); ++s) {
      const std::string sub = fmt::format("{}/subphases/{}", at, s);
      c.object(subphases[s], sub);
      const json& id = c.required(subphases[s], sub, "id", "an integer");
      if (!id.is_number_unsigned() || id.get<std::uint64_t>() > kMaxSubphaseId)
        c.wrong(id, sub + "/id", fmt::format("an integer in [0, {}] (vt's subphase ids)", kMaxSubphaseId));
      const std::size_t k = id.get<std::size_t>();
      if (k < parts.size() && parts[k] >= 0)
        c.fail(sub + "/id", fmt::format("is {}, as an earlier subphase of the task", k),
               "each subphase id once in a task");
      if (k >= parts.size()) parts.resize(k + 1, -1.0);  // -1: not listed yet
      parts[k] = c.amount(c.required(subphases[s], sub, "time", "a number"), sub + "/time", kMaxSeconds, "seconds");
      sum += parts[k];
    }
    std::replace(parts.begin(), parts.end(), -1.0, 0.0);
    if (std::abs(sum - time) <= 1e-9 * std::max(sum, time)) return parts;
    if (std::find(parts.begin(), parts.end(), time) == parts.end())
      c.fail(at + "/subphases",
             fmt::format("sum to {} seconds, not the task's time {}", sum, time),
             "subphase times that sum to the task's time, or a time equal to one of them (vt's focused subphase)");
    if (focused_++ == 0) first_focused_ = fmt::format("{} {}", c.file(), at);
    return parts;
  }

  // The user_defined memory fields as LBAF's reader takes them (lbsVTDataReader.py,
  // _populate_rank): a rank's rank_working_bytes is the last of its tasks' (vt repeats it
  // in each), a block's shared_bytes the first given for its shared_id (-1: no block).
  void read_memory(const json& user, const FileChecker& c, const std::string& at, NodeId rank, ObjectMemory& memory,
                   PhaseBuilder& b) {
    const auto bytes = [&](const char* key, auto&& use) {
      if (const json* value = c.optional(user, key)) {
        b.out.phase.has_memory = true;
        use(c.amount(*value, at + "/" + key, kMaxBytes, "bytes"));
      }
    };
    bytes("rank_working_bytes", [&](double x) { b.out.phase.node_working_bytes[rank] = x; });
    bytes("task_footprint_bytes", [&](double x) { memory.footprint_bytes = x; });
    bytes("task_working_bytes", [&](double x) { memory.working_bytes = x; });
    // What a migration ships, not memory held: alone (ObjectRuntime's --record) it gives the
    // phase no memory figures.
    if (const json* value = c.optional(user, "task_serialized_bytes"))
      memory.serialized_bytes = c.amount(*value, at + "/task_serialized_bytes", kMaxBytes, "bytes");
    if (const json* value = c.optional(user, "task_serialize_seconds"))
      memory.serialize_seconds = c.amount(*value, at + "/task_serialize_seconds", kMaxSeconds, "seconds");
    if (const json* value = c.optional(user, "task_deserialize_seconds"))
      memory.deserialize_seconds = c.amount(*value, at + "/task_deserialize_seconds", kMaxSeconds, "seconds");
    double shared_bytes = 0;
    bytes("shared_bytes", [&](double x) { shared_bytes = x; });
    if (const json* shared = c.optional(user, "shared_id")) {
      b.out.phase.has_memory = true;
      const std::int64_t id = c.integer(*shared, at + "/shared_id");
      if (id < -1) c.wrong(*shared, at + "/shared_id", "an integer >= -1 (-1: no shared block)");
      if (id >= 0) {
        const auto [it, added] =
            b.block_of_id.try_emplace(id, static_cast<std::int32_t>(b.out.phase.block_bytes.size()));
        if (added) {
          if (b.out.phase.block_bytes.size() >= static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()))
            c.fail(at + "/shared_id", "is one shared block too many", "fewer shared blocks in a phase");
          b.out.phase.block_bytes.push_back(shared_bytes);
        }
        memory.block = it->second;
      }
    }
  }

  void read_communication(const json& comm, const FileChecker& c, const std::string& at, NodeId rank, PhaseBuilder& b) {
    c.object(comm, at);
    PendingCommunication pending{.rank = rank};
    pending.send_recv = c.string(c.required(comm, at, "type", "a string"), at + "/type") == "SendRecv";
    pending.from = read_entity(c, c.required(comm, at, "from", "an object"), at + "/from", false);
    pending.to = read_entity(c, c.required(comm, at, "to", "an object"), at + "/to", false);
    const json& messages = c.required(comm, at, "messages", "an integer");
    if (!messages.is_number_unsigned() || messages.get<std::uint64_t>() > kMaxMessages)
      c.wrong(messages, at + "/messages", fmt::format("an integer in [0, {}]", kMaxMessages));
    pending.messages = static_cast<double>(messages.get<std::uint64_t>());
    pending.bytes = c.amount(c.required(comm, at, "bytes", "a number"), at + "/bytes", kMaxBytes, "bytes");
    pending.json = comm.dump();
    b.communications.push_back(std::move(pending));
  }

  // An edge for each SendRecv from an object to an object of the phase, as LBAF's reader
  // takes them; the others are kept for the writer and counted.
  static void match_communications(PhaseBuilder& b) {
    const auto object_of = [&](const Entity& e) -> std::optional<ObjectIndex> {
      if (!e.object) return std::nullopt;
      const auto it = b.object_of_key.find(e.key);
      return it == b.object_of_key.end() ? std::nullopt : std::optional(it->second);
    };
    for (PendingCommunication& p : b.communications) {
      const std::optional<ObjectIndex> from = object_of(p.from);
      const std::optional<ObjectIndex> to = object_of(p.to);
      if (!p.send_recv || !p.from.object || !p.to.object)
        ++b.out.other_communications;
      else if (!from || !to)
        ++b.out.unmatched_communications;
      else
        b.out.phase.communications.push_back({.from = *from, .to = *to, .messages = p.messages, .bytes = p.bytes});
      b.out.communications.push_back({.json = std::move(p.json), .sender = from, .rank = p.rank});
    }
    b.communications.clear();
  }

  std::string stem_;
  std::size_t ranks_;
  std::vector<double> alpha_;  // each rank's rank_alpha (1 where absent); empty: none has one
  std::map<std::int64_t, PhaseBuilder> phases_;
  std::size_t focused_ = 0;    // tasks whose time is one of their subphases'
  std::string first_focused_;  // the first of them: its file and place
};

}  // namespace

VtDataSet read_vt_data(const std::string& stem) {
  VtDataSet data{.stem = stem, .ranks = count_ranks(stem)};
  data.metadata.assign(data.ranks, "");
  DataSetReader reader(stem, data.ranks);
  for (std::size_t rank = 0; rank < data.ranks; ++rank) {
    const std::string file = rank_file(stem, rank);
    const std::string name = "vt data file " + file;
    std::string text = read_input_file(file, name, kMaxVtFileBytes,
                                       fmt::format("a vt LB data file of at most {} bytes", kMaxVtFileBytes));
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
      throw InputError(fmt::format("{}: empty; accepted: a JSON file, or one compressed with brotli", name));
    if (text[first] != '{') {
      try {
        text = decompress(text, file);
      } catch (const InputError&) {
        // Not brotli either: text that starts as another JSON value is told what it is.
        if (std::string_view("[\"-0123456789tfn").find(text[first]) == std::string_view::npos) throw;
      }
    }
    reader.read_file(parse_json_input(text, name), FileChecker(file), static_cast<NodeId>(rank), data);
  }
  reader.finish(data);
  return data;
}

std::vector<std::int64_t> vt_phase_ids(const VtDataSet& data) {
  std::vector<std::int64_t> ids;
  for (const VtPhase& phase : data.phases) ids.push_back(phase.id);
  return ids;
}

const VtPhase& vt_phase(const VtDataSet& data, std::int64_t phase_id) {
  const auto it =
      std::find_if(data.phases.begin(), data.phases.end(), [&](const VtPhase& p) { return p.id == phase_id; });
  if (it == data.phases.end())
    throw InputError(fmt::format("vt data {}: no phase {}; accepted: {}", data.stem, phase_id,
                                 data.phases.empty() ? std::string("none, the files have no phase")
                                                     : fmt::format("{}", fmt::join(vt_phase_ids(data), ", "))));
  return *it;
}

namespace {

// The rank's file: its metadata as read, but for the phases it lists (only one is written),
// and the phase with the rank's tasks and the communications their senders hold.
json rank_document(const VtDataSet& data, const VtPhase& phase, std::size_t rank,
                   const std::vector<std::size_t>& tasks_here, const std::vector<std::size_t>& communications_here) {
  json metadata = data.metadata[rank].empty() ? json::object() : json::parse(data.metadata[rank]);
  metadata["type"] = "LBDatafile";
  metadata["rank"] = rank;
  metadata.erase("phases");
  json tasks = json::array();
  for (const std::size_t i : tasks_here) {
    json task = json::parse(phase.tasks[i]);
    task["node"] = rank;
    // rank_working_bytes is the rank's figure, which vt repeats in each of its tasks: a task
    // carries its new rank's, or a reader would take its old rank's.
    if (auto user = task.find("user_defined"); user != task.end() && user->contains("rank_working_bytes"))
      (*user)["rank_working_bytes"] = phase.phase.node_working_bytes[rank];
    tasks.push_back(std::move(task));
  }
  json out_phase = {{"id", phase.id}, {"tasks", std::move(tasks)}};
  json communications = json::array();
  for (const std::size_t k : communications_here) communications.push_back(json::parse(phase.communications[k].json));
  if (!communications.empty()) out_phase["communications"] = std::move(communications);
  if (!phase.user_defined[rank].empty()) out_phase["user_defined"] = json::parse(phase.user_defined[rank]);
  return {{"metadata", std::move(metadata)}, {"phases", json::array({std::move(out_phase)})}};
}

}  // namespace

void write_vt_data(const VtDataSet& data, std::int64_t phase_id, const std::vector<NodeId>& mapping,
                   const std::string& stem) {
  if (stem.empty()) throw InputError("vt data output stem '': empty; accepted: a stem STEM for the files STEM.R.json");
  const VtPhase& phase = vt_phase(data, phase_id);
  const std::vector<PhaseObject>& objects = phase.phase.objects;
  if (mapping.size() != objects.size())
    throw InputError(fmt::format("vt data {} phase {}: a mapping of {} objects; accepted: one rank per object ({})",
                                 data.stem, phase_id, mapping.size(), objects.size()));
  for (std::size_t i = 0; i < mapping.size(); ++i) {
    if (mapping[i] >= data.ranks)
      throw InputError(fmt::format("vt data {} phase {}: object {} mapped to rank {}; accepted: a rank in [0, {}]",
                                   data.stem, phase_id, objects[i].id, mapping[i], data.ranks - 1));
    if (!objects[i].migratable && mapping[i] != phase.phase.node_of[i])
      throw InputError(fmt::format("vt data {} phase {}: object {} moved from rank {} to {}; accepted: objects vt "
                                   "marks not migratable on their rank",
                                   data.stem, phase_id, objects[i].id, phase.phase.node_of[i], mapping[i]));
  }
  std::vector<std::vector<std::size_t>> tasks_of(data.ranks), communications_of(data.ranks);
  for (std::size_t i = 0; i < mapping.size(); ++i) tasks_of[mapping[i]].push_back(i);
  for (std::size_t k = 0; k < phase.communications.size(); ++k) {
    const VtPhase::Communication& c = phase.communications[k];
    communications_of[c.sender ? mapping[*c.sender] : c.rank].push_back(k);
  }
  // Every file written and closed before any is renamed into place; one that fails removes
  // the temporaries of all.
  std::vector<std::unique_ptr<AtomicFile>> files;
  for (std::size_t rank = 0; rank < data.ranks; ++rank) {
    files.push_back(std::make_unique<AtomicFile>(rank_file(stem, rank)));
    const json document = rank_document(data, phase, rank, tasks_of[rank], communications_of[rank]);
    files.back()->write(document.dump(-1, ' ', false, json::error_handler_t::replace));
    files.back()->write("\n");
    files.back()->close();
  }
  for (auto& file : files) file->commit();
}

void write_vt_phases(const std::vector<Phase>& phases, const std::string& stem) {
  VtPhasesWriter writer(stem, phases.empty() ? 1 : phases.front().nodes);
  for (const Phase& phase : phases) writer.write(phase);
  writer.commit();
}

VtPhasesWriter::VtPhasesWriter(const std::string& stem, std::size_t nodes)
    : stem_(stem), nodes_(nodes) {
  if (stem.empty()) throw InputError("vt data output stem '': empty; accepted: a stem STEM for the files STEM.R.json");
  for (std::size_t r = 0; r < nodes_; ++r) files_.push_back(std::make_unique<AtomicFile>(rank_file(stem_, r)));
}

void VtPhasesWriter::begin(const Phase* first) {
  // The text of {"metadata": ..., "phases": [...]} as json's dump() writes it: keys in order.
  // A rank's alpha is its metadata's (vt's rank_alpha), the first phase's.
  for (std::size_t r = 0; r < nodes_; ++r) {
    json metadata = {{"type", "LBDatafile"}, {"rank", r}};
    if (first && !first->node_alpha.empty()) metadata["rank_alpha"] = first->node_alpha[r];
    files_[r]->write(R"({"metadata":)" + metadata.dump() + R"(,"phases":[)");
  }
}

VtPhasesWriter::~VtPhasesWriter() = default;

void VtPhasesWriter::write(const Phase& phase) {
  if (phase.nodes != nodes_)
    throw InputError(fmt::format("vt data {}: phase {} has {} nodes; accepted: {} as phase 0", stem_, phases_, phase.nodes, nodes_));
  if (phases_ == 0) begin(&phase);
  // Each object's home follows its id; a new one's is where it is.
  const std::vector<ObjectIndex> match =
      match_objects(ids_, phase, fmt::format("vt data {}: phase {}", stem_, phases_));
  std::vector<NodeId> home(phase.objects.size());
  for (std::size_t i = 0; i < home.size(); ++i)
    home[i] = match[i] == kNewObject ? phase.node_of[i] : home_[match[i]];
  home_ = std::move(home);
  ids_ = object_ids(phase);
  const auto dump = [](const json& j) { return j.dump(-1, ' ', false, json::error_handler_t::replace); };
  const auto entity = [&](ObjectIndex i) {
    const PhaseObject& o = phase.objects[i];
    return json{{"type", "object"}, {"id", o.id}, {"home", home_[i]}, {"migratable", o.migratable}};
  };
  std::vector<std::vector<ObjectIndex>> objects(nodes_), communications(nodes_);
  for (ObjectIndex i = 0; i < phase.objects.size(); ++i) objects[phase.node_of[i]].push_back(i);
  for (ObjectIndex c = 0; c < phase.communications.size(); ++c)
    communications[phase.node_of[phase.communications[c].from]].push_back(c);
  for (std::size_t r = 0; r < nodes_; ++r) {
    AtomicFile& out = *files_[r];
    out.write(phases_ == 0 ? "{" : ",{");
    if (!communications[r].empty()) {
      out.write(R"("communications":[)");
      for (std::size_t k = 0; k < communications[r].size(); ++k) {
        const ObjectCommunication& c = phase.communications[communications[r][k]];
        out.write((k == 0 ? "" : ",") + dump({{"type", "SendRecv"},
                                              {"from", entity(c.from)},
                                              {"to", entity(c.to)},
                                              {"messages", static_cast<std::uint64_t>(c.messages)},
                                              {"bytes", c.bytes}}));
      }
      out.write("],");
    }
    if (phase.message_serialize_seconds_per_byte > 0 || phase.message_deserialize_seconds_per_byte > 0)
      out.write(R"("user_defined":)" +
                dump({{"message_serialize_seconds_per_byte", phase.message_serialize_seconds_per_byte},
                      {"message_deserialize_seconds_per_byte", phase.message_deserialize_seconds_per_byte}}) +
                ",");
    out.write(fmt::format(R"("id":{},"tasks":[)", phases_));
    for (std::size_t k = 0; k < objects[r].size(); ++k) {
      const ObjectIndex i = objects[r][k];
      json task{{"entity", entity(i)}, {"node", phase.node_of[i]}, {"resource", "cpu"}, {"time", phase.objects[i].load}};
      if (phase.subphases > 0) {
        json& parts = task["subphases"] = json::array();
        for (std::size_t s = 0; s < phase.subphases; ++s)
          parts.push_back({{"id", s}, {"time", phase.subphase_loads[i * phase.subphases + s]}});
      }
      const ObjectMemory& memory = phase.objects[i].memory;
      if (memory.serialized_bytes > 0) task["user_defined"]["task_serialized_bytes"] = memory.serialized_bytes;
      if (memory.serialize_seconds > 0) task["user_defined"]["task_serialize_seconds"] = memory.serialize_seconds;
      if (memory.deserialize_seconds > 0)
        task["user_defined"]["task_deserialize_seconds"] = memory.deserialize_seconds;
      out.write((k == 0 ? "" : ",") + dump(task));
    }
    out.write("]}");
  }
  ++phases_;
}

void VtPhasesWriter::commit() {
  if (phases_ == 0) begin(nullptr);
  for (auto& file : files_) {
    file->write("]}\n");
    file->close();
  }
  for (auto& file : files_) file->commit();
}

}  // namespace dlbkit
