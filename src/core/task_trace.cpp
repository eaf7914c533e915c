// The task trace format (docs/trace-format.md): unsigned LEB128 varints throughout.
//   file    = "DLBTRACE" version(1 byte = 2) varint(workers) section* varint(0)
//   section = varint(worker + 1) record* varint(0) varint(poll_calls)   (version 1: no poll_calls)
//   record  = varint(1) varint(origin) varint(duration)              a root
//           | varint(parent_worker + 2) varint(parent_index) varint(duration)
// A section's tasks are (worker, 0), (worker, 1), ... in order.

#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/error.hpp>
#include <dlbkit/io/input_file.hpp>

#include <cstdio>
#include <fmt/format.h>
#include <istream>
#include <numeric>
#include <unordered_map>

namespace dlbkit {

namespace {

constexpr char kMagic[8] = {'D', 'L', 'B', 'T', 'R', 'A', 'C', 'E'};
constexpr char kVersion = 2;  // 1 is read too: its sections end without poll_calls
constexpr std::size_t kFlushBytes = 1 << 16;
constexpr std::uint64_t kMaxWorkers = 1ULL << 31;
constexpr std::uint64_t kMaxTraceBytes = 128ULL << 30;  // 2^32 tasks of at most 30 bytes each
constexpr std::uint64_t kMaxDuration = 1'000'000 * kSecond;  // the simulator's limit on a task

void put_varint(std::string& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<char>((v & 0x7F) | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<char>(v));
}

// Reads varints from a stream, counting bytes for the error messages.
class Reader {
public:
  Reader(std::istream& in, const std::string& name) : in_(in), name_(name) {}

  [[noreturn]] void fail(const std::string& problem, const std::string& accepted) const {
    throw InputError(fmt::format("{}: byte {}: {}; accepted: {}", name_, offset_, problem, accepted));
  }
  std::uint64_t varint(const char* what) {
    std::uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
      const int c = in_.get();
      if (c == std::char_traits<char>::eof())
        fail(fmt::format("the file ends inside {} (truncated)", what), "a complete file written by dlbkit run --record");
      ++offset_;
      if (shift == 63 && (c & 0x7E) != 0) fail(fmt::format("{} does not fit in 64 bits", what), "a varint of at most 64 bits");
      v |= static_cast<std::uint64_t>(c & 0x7F) << shift;
      if ((c & 0x80) == 0) return v;
      if (shift == 63) fail(fmt::format("{} is longer than 10 bytes", what), "a varint of at most 10 bytes");
    }
  }
  /// Reads the header; returns the format version.
  int header() {
    char magic[sizeof kMagic + 1];
    in_.read(magic, sizeof magic);
    if (in_.gcount() != static_cast<std::streamsize>(sizeof magic) || std::char_traits<char>::compare(magic, kMagic, sizeof kMagic) != 0)
      fail("not a task trace (no DLBTRACE header)", "a file written by dlbkit run --record");
    offset_ += sizeof magic;
    const int version = static_cast<unsigned char>(magic[sizeof kMagic]);
    if (version != 1 && version != kVersion) fail(fmt::format("format version {}", version), "version 1 or 2");
    return version;
  }
  bool at_end() { return in_.peek() == std::char_traits<char>::eof(); }

private:
  std::istream& in_;
  const std::string& name_;
  std::uint64_t offset_ = 0;
};

}  // namespace

TaskTraceSection::TaskTraceSection(std::string path, std::uint32_t worker)
    : file_(std::move(path)), worker_(worker), out_(file_.path(), std::ios::binary | std::ios::trunc) {
  if (!out_) throw InputError(fmt::format("--record: cannot write '{}'; accepted: a writable path", file_.path()));
  put_varint(buffer_, static_cast<std::uint64_t>(worker_) + 1);
}

void TaskTraceSection::add(TaskRef parent, SimTime duration, std::uint64_t poll_calls) {
  if (count_ > 0xFFFFFFFFULL)
    throw InputError(fmt::format("--record: worker {} executed more than 2^32 tasks; accepted: at most 2^32 a worker", worker_));
  if (parent.is_root()) {
    put_varint(buffer_, 1);
    put_varint(buffer_, parent.worker());
  } else {
    put_varint(buffer_, static_cast<std::uint64_t>(parent.worker()) + 2);
    put_varint(buffer_, parent.index());
  }
  put_varint(buffer_, static_cast<std::uint64_t>(std::max<SimTime>(0, duration)));
  poll_calls_ += poll_calls;
  ++count_;
  if (buffer_.size() >= kFlushBytes) flush();
}

void TaskTraceSection::flush() {
  out_.write(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  buffer_.clear();
}

void TaskTraceSection::close() {
  if (!out_.is_open()) return;
  put_varint(buffer_, 0);
  put_varint(buffer_, poll_calls_);
  flush();
  out_.close();
  if (!out_) throw InputError(fmt::format("--record: writing '{}' failed; accepted: a writable path with room", file_.path()));
}

void merge_task_trace(AtomicFile& out, std::uint32_t workers, std::span<const std::string> sections) {
  std::string chunk(kMagic, sizeof kMagic);
  chunk.push_back(kVersion);
  put_varint(chunk, workers);
  out.write(chunk);
  chunk.resize(1 << 20);
  for (const std::string& section : sections) {
    std::ifstream in(section, std::ios::binary);
    if (!in) throw InputError(fmt::format("--record: the section file '{}' is missing; accepted: the files the workers wrote", section));
    while (in.read(chunk.data(), static_cast<std::streamsize>(chunk.size())) || in.gcount() > 0)
      out.write(std::string_view(chunk.data(), static_cast<std::size_t>(in.gcount())));
  }
  out.write(std::string_view("\0", 1));
  out.close();
  for (const std::string& section : sections) std::remove(section.c_str());
}

SimTime TaskTree::total_duration() const { return std::accumulate(duration.begin(), duration.end(), SimTime{0}); }

TaskTree read_task_trace(std::istream& in, const std::string& name) {
  Reader r(in, name);
  const int version = r.header();
  TaskTree tree;
  if (version > 1) tree.poll_calls = 0;
  const std::uint64_t workers = r.varint("the worker count");
  if (workers == 0 || workers > kMaxWorkers)
    r.fail(fmt::format("worker count {}", workers), "1 to 2^31");
  tree.workers = static_cast<std::uint32_t>(workers);
  // First pass over the file: parents as (worker, index) while the sections' starts are unknown.
  struct Section {
    std::uint64_t start = 0, count = 0;
  };
  std::unordered_map<std::uint64_t, Section> sections;  // by worker: only those in the file
  Section none;
  std::vector<TaskRef> parent;
  for (;;) {
    const std::uint64_t s = r.varint("a section's worker");
    if (s == 0) break;
    const std::uint64_t w = s - 1;
    if (w >= workers) r.fail(fmt::format("section of worker {} in a run of {} workers", w, workers), "a worker below the count");
    const auto [at, fresh] = sections.try_emplace(w, Section{parent.size(), 0});
    if (!fresh) r.fail(fmt::format("a second section of worker {}", w), "one section per worker");
    Section& section = at->second;
    tree.sections.push_back({static_cast<std::uint32_t>(w), section.start, 0});
    for (;;) {
      const std::uint64_t p = r.varint("a record's parent");
      if (p == 0) break;
      TaskRef ref;
      if (p == 1) {
        const std::uint64_t origin = r.varint("a root's origin");
        if (origin >= workers) r.fail(fmt::format("root origin worker {} of {}", origin, workers), "a worker below the count");
        ref = TaskRef::root(static_cast<std::uint32_t>(origin));
      } else {
        const std::uint64_t pw = p - 2, pi = r.varint("a parent's index");
        if (pw >= workers) r.fail(fmt::format("parent worker {} of {}", pw, workers), "a worker below the count");
        if (pi > 0xFFFFFFFFULL) r.fail(fmt::format("parent index {}", pi), "an index below 2^32");
        ref = TaskRef::task(static_cast<std::uint32_t>(pw), static_cast<std::uint32_t>(pi));
      }
      const std::uint64_t d = r.varint("a duration");
      if (d > static_cast<std::uint64_t>(kMaxDuration)) r.fail(fmt::format("task duration {} ns", d), "0 to 1e6 s");
      if (parent.size() >= kMaxTraceTasks) r.fail("more than 2^32 - 2 tasks", "at most 2^32 - 2 tasks");
      parent.push_back(ref);
      tree.duration.push_back(static_cast<SimTime>(d));
      ++section.count;
    }
    tree.sections.back().count = section.count;
    if (tree.poll_calls) *tree.poll_calls += r.varint("a section's poll() calls");
  }
  if (!r.at_end()) r.fail("bytes after the end record", "nothing after the end");
  // Parents to dense numbers; children in compressed rows (counting sort by parent).
  const std::size_t n = parent.size();
  std::vector<std::uint32_t> parent_of(n);
  tree.first_child.assign(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    const TaskRef ref = parent[i];
    if (ref.is_root()) {
      tree.roots.push_back(static_cast<std::uint32_t>(i));
      tree.root_origin.push_back(ref.worker());
      parent_of[i] = UINT32_MAX;
      continue;
    }
    const auto found = sections.find(ref.worker());
    const Section& of = found == sections.end() ? none : found->second;
    if (ref.index() >= of.count)
      throw InputError(fmt::format("{}: task {} names parent ({}, {}), which is not in the file; accepted: parents "
                                   "recorded in the same file",
                                   name, i, ref.worker(), ref.index()));
    parent_of[i] = static_cast<std::uint32_t>(of.start + ref.index());
    ++tree.first_child[parent_of[i] + 1];
  }
  std::vector<TaskRef>().swap(parent);
  std::partial_sum(tree.first_child.begin(), tree.first_child.end(), tree.first_child.begin());
  tree.children.resize(n - tree.roots.size());
  std::vector<std::uint32_t> fill(tree.first_child.begin(), tree.first_child.end() - 1);
  for (std::size_t i = 0; i < n; ++i)
    if (parent_of[i] != UINT32_MAX) tree.children[fill[parent_of[i]]++] = static_cast<std::uint32_t>(i);
  // Every task must be reached from a root exactly once: a task that is its own ancestor is not.
  std::vector<std::uint32_t> stack(tree.roots);
  std::uint64_t reached = 0;
  while (!stack.empty()) {
    const std::uint32_t t = stack.back();
    stack.pop_back();
    ++reached;
    for (std::uint32_t c = tree.first_child[t]; c < tree.first_child[t + 1]; ++c) stack.push_back(tree.children[c]);
  }
  if (reached != n)
    throw InputError(fmt::format("{}: {} of {} tasks are not descendants of a root (a cycle of parents); accepted: "
                                 "a tree",
                                 name, n - reached, n));
  return tree;
}

TaskTree load_task_trace(const std::string& path) {
  std::ifstream in = open_input_file(path, fmt::format("task trace '{}'", path), kMaxTraceBytes,
                                     "a file written by dlbkit run --record, of at most 128 GiB");
  return read_task_trace(in, path);
}

}  // namespace dlbkit
