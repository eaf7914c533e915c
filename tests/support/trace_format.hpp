#pragma once
// Test support: checks timeline files (docs/timeline.md) against the Chrome trace-event
// format, one file or the files of one MPI run (a file per rank, arrows between them).
// Times are compared in whole nanoseconds, as the files write them.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dlbkit::test {

// A "clock_sync" metadata event: the offset added to a node's clock, and its error bound.
struct ClockNote {
  std::int64_t offset_ns = 0, error_ns = 0;
};

// What a trace holds, after check_format() found it well formed.
struct TraceSummary {
  std::map<int, std::map<std::string, double>> span_us;  // per tid: total duration per span name
  std::set<int> named_threads;
  std::map<int, ClockNote> clocks;  // per tid
  std::size_t counters = 0, arrows = 0;
};

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return nlohmann::json::parse(in);  // throws (and fails the test) on anything but one JSON document
}

inline std::int64_t nanoseconds(const nlohmann::json& us) { return std::llround(us.get<double>() * 1000); }

namespace trace_detail {

using nlohmann::json;
struct End {
  std::int64_t ns;
  int tid;
};
using ArrowEnds = std::map<std::uint64_t, End>;  // arrow id -> where and when

// The ends of the arrows of `traces`, each once.
inline void arrow_ends(const std::vector<json>& traces, ArrowEnds& starts, ArrowEnds& ends) {
  for (const json& trace : traces)
    for (const json& e : trace["traceEvents"]) {
      const std::string ph = e.value("ph", "");
      if (ph != "s" && ph != "f") continue;
      // The engines' workers write their buffers in turn: an arrow's end may come first.
      const std::uint64_t id = e["id"];
      EXPECT_TRUE((ph == "s" ? starts : ends).emplace(id, End{nanoseconds(e["ts"]), e["tid"]}).second)
          << "arrow " << id << " twice";
    }
}

// One file: every rule but the matching of arrows.
inline void check_file_into(const json& trace, TraceSummary& s) {
  EXPECT_TRUE(trace.is_object());
  EXPECT_TRUE(trace.contains("traceEvents") && trace["traceEvents"].is_array());
  std::map<int, std::int64_t> last_end;  // per tid: the end of its last span
  std::map<std::string, std::int64_t> last_counter;
  for (const json& e : trace["traceEvents"]) {
    SCOPED_TRACE(e.dump());
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string());
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer());
    ASSERT_TRUE(e.contains("tid") && e["tid"].is_number_integer());
    const std::string ph = e["ph"];
    const int tid = e["tid"];
    if (ph == "M") {
      ASSERT_TRUE(e.contains("name") && e.contains("args") && e["args"].is_object());
      if (e["name"] == "thread_name") {
        s.named_threads.insert(tid);
      } else if (e["name"] == "clock_sync") {
        const json& a = e["args"];
        ASSERT_TRUE(a.contains("offset_us") && a["offset_us"].is_number() && a.contains("error_us") &&
                    a["error_us"].is_number());
        EXPECT_GE(a["error_us"].get<double>(), 0.0);
        EXPECT_TRUE(s.clocks.emplace(tid, ClockNote{nanoseconds(a["offset_us"]), nanoseconds(a["error_us"])}).second)
            << "two clocks for thread " << tid;
      } else {
        EXPECT_TRUE(e["name"] == "process_name" || e["name"] == "thread_sort_index");
      }
      continue;
    }
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number());
    const std::int64_t ts = nanoseconds(e["ts"]);
    EXPECT_GE(ts, 0);
    if (ph == "X") {
      ASSERT_TRUE(e.contains("name") && e["name"].is_string());
      ASSERT_TRUE(e.contains("dur") && e["dur"].is_number());
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      EXPECT_GE(ts, last_end[tid]) << "spans of thread " << tid << " out of time order or overlapping";
      last_end[tid] = ts + nanoseconds(e["dur"]);
      s.span_us[tid][e["name"]] += e["dur"].get<double>();
    } else if (ph == "C") {
      ASSERT_TRUE(e.contains("name") && e["name"].is_string());
      ASSERT_TRUE(e.contains("args") && e["args"].is_object() && !e["args"].empty());
      for (const auto& [key, value] : e["args"].items()) EXPECT_TRUE(value.is_number()) << key;
      EXPECT_GE(ts, last_counter[e["name"]]);
      last_counter[e["name"]] = ts;
      ++s.counters;
    } else if (ph == "s" || ph == "f") {
      ASSERT_TRUE(e.contains("id") && e["id"].is_number_unsigned());
    } else {
      ADD_FAILURE() << "unexpected phase " << ph;
    }
  }
}

}  // namespace trace_detail

// The arrows of `traces` that end before they start by more than the error bounds of the
// clocks of their two ends (`clocks`, per tid; none: 0), as "id: start -> end" lines.
inline std::vector<std::string> backward_arrows(const std::vector<nlohmann::json>& traces,
                                                const std::map<int, ClockNote>& clocks) {
  trace_detail::ArrowEnds starts, ends;
  trace_detail::arrow_ends(traces, starts, ends);
  const auto error = [&](int tid) { return clocks.contains(tid) ? clocks.at(tid).error_ns : 0; };
  std::vector<std::string> backward;
  for (const auto& [id, end] : ends) {
    const auto start = starts.find(id);
    if (start != starts.end() && end.ns < start->second.ns - error(start->second.tid) - error(end.tid))
      backward.push_back(std::to_string(id) + ": " + std::to_string(start->second.ns) + " ns on " +
                         std::to_string(start->second.tid) + " -> " + std::to_string(end.ns) + " ns on " +
                         std::to_string(end.tid));
  }
  return backward;
}

// The Trace Event Format's rules for the phases the timeline uses: every event has ph, pid,
// tid; X has name, ts >= 0, dur >= 0, in time order per thread and not overlapping; C has
// name, ts >= 0 and numeric args, in time order per counter; s and f have an id, every s one
// f, no f without its s and not before it, give or take the error bounds the clock_sync
// events of its two threads state; M names a process or thread, or gives a thread's clock.
// `traces` are the files of one run: each is checked on its own and the arrows over all of
// them (an MPI run's arrows join two ranks' files).
inline TraceSummary check_format(const std::vector<nlohmann::json>& traces) {
  TraceSummary s;
  for (const nlohmann::json& trace : traces) trace_detail::check_file_into(trace, s);
  trace_detail::ArrowEnds starts, ends;
  trace_detail::arrow_ends(traces, starts, ends);
  for (const auto& [id, end] : ends) {
    if (!starts.contains(id)) ADD_FAILURE() << "arrow " << id << " ends without a start";
    else ++s.arrows;
  }
  EXPECT_EQ(starts.size(), ends.size()) << "arrows start and never end";
  const std::vector<std::string> backward = backward_arrows(traces, s.clocks);
  EXPECT_TRUE(backward.empty()) << backward.size() << " arrows end before they start, the first " << backward.front();
  return s;
}

inline TraceSummary check_format(const nlohmann::json& trace) {
  return check_format(std::vector<nlohmann::json>{trace});
}

}  // namespace dlbkit::test
