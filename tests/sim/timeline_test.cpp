// Timeline::note_clock: a node's clock offset and error as a "clock_sync" metadata event, in
// microseconds with the sign and the nanoseconds kept; none for a node not recorded.

#include "../support/temp_path.hpp"
#include "../support/trace_format.hpp"

#include <dlbkit/sim/timeline.hpp>

#include <gtest/gtest.h>

#include <filesystem>
#include <vector>

namespace {

TEST(Timeline, NoteClockWritesTheOffsetAndErrorOfARecordedNode) {
  const std::string path = dlbkit::test::temp_path("note-clock.json").string();
  {
    dlbkit::Timeline timeline(path, "clock", dlbkit::timeline_nodes("1,2", 3));
    timeline.note_clock(1, -20'001'234, 567);
    timeline.note_clock(0, 5, 5);  // not recorded
    const std::vector<dlbkit::TimelineEvent> busy = {{.type = dlbkit::TimelineEvent::busy, .node = 1, .end = 1000}};
    timeline.write(busy);
    timeline.commit();
  }
  const dlbkit::test::TraceSummary s = dlbkit::test::check_format(dlbkit::test::read_json(path));
  ASSERT_EQ(s.clocks.size(), 1u);
  EXPECT_EQ(s.clocks.at(1).offset_ns, -20'001'234);
  EXPECT_EQ(s.clocks.at(1).error_ns, 567);
  std::filesystem::remove(path);
}

}  // namespace
