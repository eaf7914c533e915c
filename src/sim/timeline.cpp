#include <dlbkit/core/number.hpp>
#include <dlbkit/sim/timeline.hpp>
#include <dlbkit/error.hpp>

#include <algorithm>
#include <fmt/format.h>
#include <iterator>
#include <nlohmann/json.hpp>

namespace dlbkit {

namespace {

NodeId node_number(const std::string& text, const std::string& list, std::size_t nodes) {
  std::uint64_t x = 0;
  if (!parse_number(text, x) || x >= nodes)
    throw InputError(fmt::format("--timeline-nodes '{}': '{}' is not a node; accepted: all, or nodes 0 to {} and "
                                 "ranges a-b, comma-separated (e.g. 0-7,12)",
                                 list, text, nodes - 1));
  return static_cast<NodeId>(x);
}

// Microseconds with the nanoseconds kept: the format's unit.
std::string micros(SimTime ns) {
  const SimTime magnitude = ns < 0 ? -ns : ns;
  return fmt::format("{}{}.{:03}", ns < 0 ? "-" : "", magnitude / 1000, magnitude % 1000);
}

}  // namespace

std::vector<bool> timeline_nodes(const std::string& list, std::size_t nodes) {
  std::vector<bool> chosen(nodes, false);
  if (list.empty()) {
    for (std::size_t v = 0; v < std::min(nodes, kTimelineDefaultNodes); ++v) chosen[v] = true;
    return chosen;
  }
  if (list == "all") return std::vector<bool>(nodes, true);
  std::size_t begin = 0;
  for (;;) {
    const std::size_t comma = std::min(list.find(',', begin), list.size());
    const std::string part = list.substr(begin, comma - begin);
    const std::size_t dash = part.find('-');
    const NodeId first = node_number(part.substr(0, dash), list, nodes);
    const NodeId last = dash == std::string::npos ? first : node_number(part.substr(dash + 1), list, nodes);
    if (last < first)
      throw InputError(fmt::format("--timeline-nodes '{}': range '{}' runs backwards; accepted: a-b with a <= b",
                                   list, part));
    for (NodeId v = first; v <= last; ++v) chosen[v] = true;
    if (comma == list.size()) break;
    begin = comma + 1;
  }
  return chosen;
}

std::string describe_nodes(const std::vector<bool>& chosen) {
  std::string out;
  for (std::size_t v = 0; v < chosen.size();) {
    if (!chosen[v]) {
      ++v;
      continue;
    }
    std::size_t w = v;
    while (w + 1 < chosen.size() && chosen[w + 1]) ++w;
    out += fmt::format("{}{}", out.empty() ? "" : ",", v == w ? fmt::format("{}", v) : fmt::format("{}-{}", v, w));
    v = w + 1;
  }
  return fmt::format("{} of {}", out.empty() ? "none" : out, chosen.size());
}

Timeline::Timeline(const std::string& path, const std::string& title, std::vector<bool> chosen,
                   const std::vector<bool>& own)
    : chosen_(std::move(chosen)), file_(path) {
  // The title goes through the JSON library: a user's string may need escaping.
  std::string text = fmt::format(
      "{{\"displayTimeUnit\":\"ns\",\"otherData\":{{\"format\":\"dlbkit timeline 1\"}},\"traceEvents\":[\n"
      "{{\"ph\":\"M\",\"name\":\"process_name\",\"pid\":1,\"tid\":0,\"args\":{{\"name\":{}}}}}",
      nlohmann::json(title).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  for (NodeId v = 0; v < chosen_.size(); ++v)
    if (chosen_[v] && (own.empty() || own[v]))
      text += fmt::format(",\n{{\"ph\":\"M\",\"name\":\"thread_name\",\"pid\":1,\"tid\":{0},\"args\":{{\"name\":"
                          "\"node {0}\"}}}},\n{{\"ph\":\"M\",\"name\":\"thread_sort_index\",\"pid\":1,\"tid\":{0},"
                          "\"args\":{{\"sort_index\":{0}}}}}",
                          v);
  file_.write(text);
}

void Timeline::write(std::span<const TimelineEvent> events) {
  static constexpr const char* kSpan[] = {"busy", "idle", "overhead"};
  const std::lock_guard lock(mutex_);
  line_.clear();
  for (const TimelineEvent& e : events) {
    if (!records(e.node)) continue;
    switch (e.type) {
      case TimelineEvent::busy:
      case TimelineEvent::idle:
      case TimelineEvent::overhead:
        fmt::format_to(std::back_inserter(line_),
                       ",\n{{\"ph\":\"X\",\"name\":\"{}\",\"cat\":\"node\",\"pid\":1,\"tid\":{},\"ts\":{},\"dur\":{}}}",
                       kSpan[e.type], e.node, micros(e.time), micros(e.end - e.time));
        break;
      case TimelineEvent::load:
        fmt::format_to(std::back_inserter(line_),
                       ",\n{{\"ph\":\"C\",\"name\":\"load {}\",\"pid\":1,\"tid\":{},\"ts\":{},\"args\":{{\"tasks\":{}}}}}",
                       e.node, e.node, micros(e.time), e.value);
        break;
      case TimelineEvent::send:
      case TimelineEvent::receive:
        // "bp":"e": the arrow binds to the span around it (the sender's or receiver's overhead).
        fmt::format_to(std::back_inserter(line_),
                       ",\n{{\"ph\":\"{}\",\"name\":\"migration\",\"cat\":\"migration\",\"id\":{},\"bp\":\"e\","
                       "\"pid\":1,\"tid\":{},\"ts\":{},\"args\":{{\"tasks\":{}}}}}",
                       e.type == TimelineEvent::send ? 's' : 'f', e.id, e.node, micros(e.time), e.value);
        break;
    }
  }
  file_.write(line_);
}

void Timeline::note_clock(NodeId node, SimTime offset, SimTime error) {
  if (!records(node)) return;
  const std::string text = fmt::format(
      ",\n{{\"ph\":\"M\",\"name\":\"clock_sync\",\"pid\":1,\"tid\":{},\"args\":{{\"offset_us\":{},\"error_us\":{}}}}}",
      node, micros(offset), micros(error));
  const std::lock_guard lock(mutex_);
  file_.write(text);
}

void Timeline::finish() {
  const std::lock_guard lock(mutex_);
  if (!ended_) file_.write("\n]}\n");
  ended_ = true;
  file_.close();
}

void Timeline::commit() {
  finish();
  file_.commit();
}

}  // namespace dlbkit
