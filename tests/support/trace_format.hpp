#pragma once
// Test support: checks timeline files (docs/timeline.md) against the Chrome trace-event
// format, one file or the files of one MPI run (a file per rank, arrows between them).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace dlbkit::test {

// What a trace holds, after check_format() found it well formed.
struct TraceSummary {
  std::map<int, std::map<std::string, double>> span_us;  // per tid: total duration per span name
  std::set<int> named_threads;
  std::size_t counters = 0, arrows = 0;
};

inline nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  return nlohmann::json::parse(in);  // throws (and fails the test) on anything but one JSON document
}

namespace trace_detail {

using nlohmann::json;
using ArrowEnds = std::map<std::uint64_t, double>;  // arrow id -> ts

// One file: every rule but the matching of arrows, whose ends go to `starts` and `ends`.
inline void check_file_into(const json& trace, TraceSummary& s, ArrowEnds& starts, ArrowEnds& ends) {
  EXPECT_TRUE(trace.is_object());
  EXPECT_TRUE(trace.contains("traceEvents") && trace["traceEvents"].is_array());
  std::map<int, double> last_span;
  std::map<std::string, double> last_counter;
  for (const json& e : trace["traceEvents"]) {
    SCOPED_TRACE(e.dump());
    ASSERT_TRUE(e.contains("ph") && e["ph"].is_string());
    ASSERT_TRUE(e.contains("pid") && e["pid"].is_number_integer());
    ASSERT_TRUE(e.contains("tid") && e["tid"].is_number_integer());
    const std::string ph = e["ph"];
    const int tid = e["tid"];
    if (ph == "M") {
      ASSERT_TRUE(e.contains("name") && e.contains("args") && e["args"].is_object());
      if (e["name"] == "thread_name") s.named_threads.insert(tid);
      else EXPECT_TRUE(e["name"] == "process_name" || e["name"] == "thread_sort_index");
      continue;
    }
    ASSERT_TRUE(e.contains("ts") && e["ts"].is_number());
    const double ts = e["ts"];
    EXPECT_GE(ts, 0.0);
    if (ph == "X") {
      ASSERT_TRUE(e.contains("name") && e["name"].is_string());
      ASSERT_TRUE(e.contains("dur") && e["dur"].is_number());
      EXPECT_GE(e["dur"].get<double>(), 0.0);
      EXPECT_GE(ts, last_span[tid]) << "spans of thread " << tid << " out of time order";
      last_span[tid] = ts;
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
      // The engines' workers write their buffers in turn: an arrow's end may come first.
      const std::uint64_t id = e["id"];
      EXPECT_TRUE((ph == "s" ? starts : ends).emplace(id, ts).second) << "arrow " << id << " twice";
    } else {
      ADD_FAILURE() << "unexpected phase " << ph;
    }
  }
}

}  // namespace trace_detail

// The Trace Event Format's rules for the phases the timeline uses: every event has ph, pid,
// tid; X has name, ts >= 0, dur >= 0, in time order per thread; C has name, ts >= 0 and numeric
// args, in time order per counter; s and f have an id, every s one f, no f without its s and
// not before it; M names a process or thread. `traces` are the files of one run: each is
// checked on its own and the arrows over all of them (an MPI run's arrows join two ranks'
// files). `one_clock` false: the files count time from different origins (an MPI run's
// ranks each from its own start), so an arrow's ends are not compared in time.
inline TraceSummary check_format(const std::vector<nlohmann::json>& traces, bool one_clock = true) {
  TraceSummary s;
  trace_detail::ArrowEnds starts, ends;
  for (const nlohmann::json& trace : traces) trace_detail::check_file_into(trace, s, starts, ends);
  for (const auto& [id, ts] : ends) {
    const auto it = starts.find(id);
    if (it == starts.end()) {
      ADD_FAILURE() << "arrow " << id << " ends without a start";
      continue;
    }
    if (one_clock) {
      EXPECT_GE(ts, it->second) << "arrow " << id << " ends before it starts";
    }
    ++s.arrows;
  }
  EXPECT_EQ(starts.size(), ends.size()) << "arrows start and never end";
  return s;
}

inline TraceSummary check_format(const nlohmann::json& trace) {
  return check_format(std::vector<nlohmann::json>{trace});
}

}  // namespace dlbkit::test
