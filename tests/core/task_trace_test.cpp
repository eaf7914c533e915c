// The task trace format: what is written reads back as the same tree, and every defect of a
// file (truncation anywhere, bad header, a parent that names no task, a cycle, trailing
// bytes) is an InputError naming the file, never a crash.

#include "../support/file_bytes.hpp"
#include "../support/temp_path.hpp"

#include <dlbkit/core/task_trace.hpp>
#include <dlbkit/error.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace dlbkit;

namespace {

using dlbkit::test::file_bytes;

// Two workers: worker 0 runs the root (0,0) and its child (0,1); worker 1 runs (1,0), a
// child of (0,0), and (1,1), a child of (0,1). A second root started on worker 1 ran on 0.
std::string small_trace() {
  const std::string path = test::temp_path("small.trace").string();
  TaskTraceSection w0(path + ".part0", 0), w1(path + ".part1", 1);
  w0.add(TaskRef::root(0), 1000);
  w0.add(TaskRef::task(0, 0), 200);
  w1.add(TaskRef::task(0, 0), 300);
  w1.add(TaskRef::task(0, 1), 400000, 3);  // a task that called poll() 3 times
  w0.add(TaskRef::root(1), 5);
  w0.close();
  w1.close();
  const std::vector<std::string> parts = {path + ".part0", path + ".part1"};
  AtomicFile out(path);
  merge_task_trace(out, 2, parts);
  out.commit();
  EXPECT_FALSE(std::ifstream(parts[0]).good()) << "section files are removed after the merge";
  std::string bytes = file_bytes(path);
  std::remove(path.c_str());
  return bytes;
}

TaskTree read(const std::string& bytes) {
  std::istringstream in(bytes);
  return read_task_trace(in, "t.trace");
}

std::string read_error(const std::string& bytes) {
  try {
    read(bytes);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST(TaskTrace, WrittenTreeReadsBack) {
  const TaskTree t = read(small_trace());
  ASSERT_EQ(t.tasks(), 5u);
  EXPECT_EQ(t.workers, 2u);
  // Dense numbers in file order: worker 0's tasks 0, 1, 2, then worker 1's 3, 4.
  EXPECT_EQ(t.duration, (std::vector<SimTime>{1000, 200, 5, 300, 400000}));
  EXPECT_EQ(t.roots, (std::vector<std::uint32_t>{0, 2}));
  EXPECT_EQ(t.root_origin, (std::vector<std::uint32_t>{0, 1}));
  const auto children = [&](std::uint32_t i) {
    return std::vector<std::uint32_t>(t.children.begin() + t.first_child[i], t.children.begin() + t.first_child[i + 1]);
  };
  EXPECT_EQ(children(0), (std::vector<std::uint32_t>{1, 3}));
  EXPECT_EQ(children(1), (std::vector<std::uint32_t>{4}));
  EXPECT_TRUE(children(2).empty());
  EXPECT_EQ(t.total_duration(), 401505);
  ASSERT_EQ(t.sections.size(), 2u);  // which worker ran each task
  EXPECT_EQ(t.sections[0].worker, 0u);
  EXPECT_EQ(t.sections[0].first, 0u);
  EXPECT_EQ(t.sections[0].count, 3u);
  EXPECT_EQ(t.sections[1].worker, 1u);
  EXPECT_EQ(t.sections[1].first, 3u);
  EXPECT_EQ(t.sections[1].count, 2u);
  EXPECT_EQ(t.poll_calls, std::optional<std::uint64_t>(3));
}

TEST(TaskTrace, AVersionOneFileReadsWithItsPollCallsUnknown) {
  // The same tree as version 1 wrote it: no poll() count after a section's end.
  const std::string bytes = std::string("DLBTRACE\x01\x02", 10) +
                            std::string("\x01\x01\x00\xe8\x07\x02\x00\xc8\x01\x01\x01\x05\x00", 13) +
                            std::string("\x02\x02\x00\xac\x02\x02\x01\x80\xb5\x18\x00", 11) + std::string(1, '\0');
  const TaskTree t = read(bytes);
  EXPECT_EQ(t.duration, (std::vector<SimTime>{1000, 200, 5, 300, 400000}));
  EXPECT_FALSE(t.poll_calls.has_value());
}

TEST(TaskTrace, AboutFourBytesATaskForShortTasks) {
  const std::string bytes = small_trace();
  // Header (magic, version, workers) 10, two sections' worker, end and poll() count 6, the
  // end 1, and the records: (parent kind, parent index or origin, duration) 4 + 4 + 3 + 4 + 5.
  EXPECT_EQ(bytes.size(), 10u + 6 + 1 + 20);
}

TEST(TaskTrace, EveryTruncationIsAnInputError) {
  const std::string bytes = small_trace();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::string e = read_error(bytes.substr(0, n));
    EXPECT_NE(e.find("t.trace"), std::string::npos) << "cut at " << n << ": '" << e << "'";
  }
}

TEST(TaskTrace, EveryDefectIsNamed) {
  const std::string good = small_trace();
  EXPECT_NE(read_error("hello").find("not a task trace"), std::string::npos);
  std::string v3 = good;
  v3[8] = 3;
  EXPECT_NE(read_error(v3).find("format version 3"), std::string::npos);
  EXPECT_NE(read_error(good + "x").find("bytes after the end"), std::string::npos);
  const std::string head = good.substr(0, 9);
  // workers 0
  EXPECT_NE(read_error(head + std::string("\x00\x00", 2)).find("worker count 0"), std::string::npos);
  // one worker; section of worker 3
  EXPECT_NE(read_error(head + "\x01\x04").find("section of worker 3"), std::string::npos);
  // one worker, two sections of worker 0 (a section: worker, records, end, poll() count)
  EXPECT_NE(read_error(head + std::string("\x01\x01\x00\x00\x01\x00\x00\x00", 8)).find("a second section of worker 0"),
            std::string::npos);
  // a task whose parent (0, 5) does not exist
  EXPECT_NE(read_error(head + std::string("\x01\x01\x02\x05\x07\x00\x00\x00", 8)).find("not in the file"),
            std::string::npos);
  // a task that is its own parent: not reached from a root
  EXPECT_NE(read_error(head + std::string("\x01\x01\x02\x00\x07\x00\x00\x00", 8)).find("cycle"), std::string::npos);
  // an 11-byte varint
  EXPECT_NE(read_error(head + "\x01\x01\x01\x00" + std::string(10, '\xff') + "\x01").find("64 bits"), std::string::npos);
  EXPECT_THROW(load_task_trace(test::temp_path("no-such.trace").string()), InputError);
  try {
    load_task_trace(std::filesystem::temp_directory_path().string());  // said "no DLBTRACE header"
    ADD_FAILURE() << "a directory read as a trace";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(": a directory; accepted:"), std::string::npos) << e.what();
  }
}
