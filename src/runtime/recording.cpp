#include <dlbkit/runtime/recording.hpp>
#include <dlbkit/error.hpp>

#include <chrono>
#include <cstring>
#include <fmt/format.h>

namespace dlbkit {

namespace {

constexpr std::size_t kRef = sizeof(TaskRef);

std::string section_path(const std::string& path, std::size_t worker) { return fmt::format("{}.part{}", path, worker); }

SimTime wall_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

// While a task executes, its children carry its name; none afterwards, even if it threw.
class SuffixScope {
public:
  SuffixScope(detail::WorkerPort& port, const TaskRef& ref) : port_(port) {
    port_.set_spawn_suffix(std::as_bytes(std::span(&ref, 1)));
  }
  ~SuffixScope() { port_.set_spawn_suffix({}); }
  SuffixScope(const SuffixScope&) = delete;
  SuffixScope& operator=(const SuffixScope&) = delete;

private:
  detail::WorkerPort& port_;
};

}  // namespace

RecordingApplication::RecordingApplication(detail::ByteApplication& inner, std::string path)
    : inner_(inner), reported_(dynamic_cast<const AnyApplication*>(&inner)), path_(std::move(path)) {
  check_path(path_);  // before the run, not after it
}

void RecordingApplication::check_path(const std::string& path) {
  if (path.empty()) throw InputError("--record: empty path; accepted: a file name");
  try {
    AtomicFile probe(path);  // leaves nothing
  } catch (const InputError& e) {
    throw InputError(fmt::format("--record: {}", e.what()));
  }
}

std::size_t RecordingApplication::task_bytes() const {
  const std::size_t inner = inner_.task_bytes();
  return inner == 0 ? 0 : inner + kRef;
}

void RecordingApplication::prepare(std::size_t workers) {
  inner_.prepare(workers);
  workers_ = workers;
  slots_ = std::vector<Slot>(workers);
}

TaskTraceSection& RecordingApplication::section(NodeId worker) const {
  Slot& slot = slots_[worker];
  if (!slot.section) slot.section = std::make_unique<TaskTraceSection>(section_path(path_, worker), static_cast<std::uint32_t>(worker));
  return *slot.section;
}

void RecordingApplication::push_roots(NodeId worker, std::size_t workers, detail::TaskStack& stack) const {
  section(worker);  // every worker that runs writes a section, tasks or none
  detail::TaskStack inner(inner_.task_bytes());
  inner_.push_roots(worker, workers, inner);
  std::vector<std::vector<std::byte>> roots(inner.size());
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) inner.pop(*it);  // the top is the last
  const TaskRef origin = TaskRef::root(static_cast<std::uint32_t>(worker));
  for (std::vector<std::byte>& task : roots) {
    const std::size_t n = task.size();
    task.resize(n + kRef);
    std::memcpy(task.data() + n, &origin, kRef);
    stack.push(task);
  }
}

void RecordingApplication::execute_bytes(std::span<const std::byte> task, detail::WorkerPort& port) {
  const NodeId w = port.worker();
  TaskTraceSection& out = section(w);
  TaskRef parent;
  std::memcpy(&parent, task.data() + task.size() - kRef, kRef);
  Slot& slot = slots_[w];
  slot.running = TaskRef::task(static_cast<std::uint32_t>(w), out.next_index());
  const std::uint64_t polls = port.poll_calls();
  const SimTime start = wall_ns();
  {
    const SuffixScope scope(port, slot.running);
    inner_.execute_bytes(task.first(task.size() - kRef), port);
  }
  out.add(parent, wall_ns() - start, port.poll_calls() - polls);
}

void RecordingApplication::close_sections() {
  for (Slot& slot : slots_)
    if (slot.section) slot.section->close();
}

void RecordingApplication::merge_sections() {
  std::vector<std::string> parts;
  for (std::size_t w = 0; w < workers_; ++w) parts.push_back(section_path(path_, w));
  out_ = std::make_unique<AtomicFile>(path_);
  merge_task_trace(*out_, static_cast<std::uint32_t>(workers_), parts);
}

void RecordingApplication::commit() {
  if (out_) out_->commit();
}

std::uint64_t RecordingApplication::recorded() const {
  std::uint64_t n = 0;
  for (const Slot& slot : slots_)
    if (slot.section) n += slot.section->count();
  return n;
}

}  // namespace dlbkit
