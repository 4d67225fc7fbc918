#include "token_stream.hpp"

#include <algorithm>
#include <chrono>
#include <optional>

#include "http_text.hpp"
#include "token_log.hpp"

namespace inferperf::mock::detail {

namespace asio = boost::asio;

// Collects one streamed request's write stamps and appends its --token-log line when destroyed
// (a no-op without a log). In a named namespace: it lives in a coroutine frame.
class TokenWrites {
 public:
  TokenWrites(TokenLog* log, const core::WallAnchor& anchor,
              const std::optional<std::string>& request_id, Clock::time_point received,
              std::size_t expected)
      : log_(log), anchor_(anchor), received_(received) {
    // A copy: the frame may be destroyed after the session moved on (server shutdown).
    if (log_) request_id_ = request_id;
    if (log_) writes_.reserve(expected);
  }
  ~TokenWrites() {
    if (!log_) return;
    std::optional<std::string_view> id;
    if (request_id_) id = *request_id_;
    log_->append(token_log_line(id, wall(received_), writes_));
  }
  TokenWrites(const TokenWrites&) = delete;
  TokenWrites& operator=(const TokenWrites&) = delete;
  // Only with a log: the clock read is the log's cost, not the server's.
  Clock::time_point now() const { return log_ ? Clock::now() : Clock::time_point{}; }
  void stamp(Clock::time_point handed) {
    if (log_) writes_.push_back(wall(handed));
  }

 private:
  std::int64_t wall(Clock::time_point t) const {
    return anchor_.to_wall(
        std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count());
  }
  TokenLog* log_;
  const core::WallAnchor& anchor_;
  std::optional<std::string> request_id_;
  Clock::time_point received_;
  std::vector<std::int64_t> writes_;
};

Timing timing_from(const MockOptions& o, Clock::time_point start, std::int64_t first_extra_steps) {
  const auto ttft = ms_duration(o.fast ? 0.0 : o.ttft_ms);
  const auto itl = ms_duration(o.fast ? 0.0 : o.itl_ms);
  return Timing{start, start + ttft + itl * first_extra_steps, itl, false};
}

asio::awaitable<Slot> generation_slot(Exchange& x, Clock::time_point start,
                                      std::int64_t prompt_tokens, Timing& tm) {
  const MockOptions& o = x.server.options;
  Slot slot = co_await x.server.slots.acquire();
  if (slot.waited()) tm.first += Clock::now() - start;
  if (o.fast) co_return slot;
  tm.first += std::chrono::duration_cast<Clock::duration>(
      prefill_delay(ms_duration(o.prefill_ms_per_token), prompt_tokens));
  if (o.itl_ms_per_stream > 0) {
    tm.per_stream = ms_duration(o.itl_ms_per_stream);
    tm.gate = &x.server.slots;
  }
  co_return slot;
}

std::vector<TokenGroup> token_groups(const GenerationPlan& plan, int tokens_per_event) {
  std::vector<TokenGroup> events;
  const std::size_t k = static_cast<std::size_t>(std::max(1, tokens_per_event));
  for (std::size_t i = 0; i < plan.reasoning.size(); i += k)
    events.push_back({true, i, std::min(i + k, plan.reasoning.size())});
  for (std::size_t i = 0; i < plan.output.size(); i += k)
    events.push_back({false, i, std::min(i + k, plan.output.size())});
  return events;
}

namespace {

// The tokens of group `e`, concatenated.
std::string group_text(const GenerationPlan& plan, const TokenGroup& e) {
  const auto& src = e.reasoning ? plan.reasoning : plan.output;
  std::string text;
  for (std::size_t i = e.from; i < e.to; ++i) text += src[i];
  return text;
}

// After event 0: appends the malformed event, or the error event and the stream's end (then
// returns true: the stream ends with this write).
bool add_first_event_fault(Exchange& x, const StreamSpec& spec, const Fault& fault,
                           std::string& out) {
  if (fault.kind == "malformed" && !spec.malformed.empty()) {
    x.server.counters.errors_injected.fetch_add(1);
    out += chunk(spec.malformed);
  }
  if (fault.kind == "error-event" && !spec.error_event.empty()) {
    x.server.counters.errors_injected.fetch_add(1);
    for (const auto& m : spec.error_event) out += chunk(m);
    out += "0\r\n\r\n";
    return true;
  }
  return false;
}

}  // namespace

asio::awaitable<bool> stream_tokens(Exchange& x, const GenerationPlan& plan, const StreamSpec& spec,
                                    const Fault& fault, const Timing& tm, RequestTrace& trace) {
  std::string head = sse_head(x.keep);
  if (!spec.head.empty()) head += chunk(spec.head);
  x.streamed = true;
  co_await x.conn.send(std::move(head));
  if (x.conn.write_failed()) co_return false;
  if (fault.kind == "stall") {
    x.server.counters.errors_injected.fetch_add(1);
    co_await x.conn.sleep_until(Clock::now() + std::chrono::minutes(10));
    co_return false;
  }
  const std::vector<TokenGroup> events = token_groups(plan, x.server.options.tokens_per_event);
  // truncate-reset ends with a reset instead of an end of stream: a server that dies mid-answer.
  const bool truncate = fault.kind == "truncate" || fault.kind == "truncate-reset";
  const std::size_t stop_at = truncate ? events.size() / 2 : events.size();
  // --token-log: the wall-clock time each token event was handed to its write. The line is
  // appended when this coroutine ends on any path (finished, fault, failed write, server
  // stopped), so a truncated stream logs the writes it made. Preflight requests are not the
  // benchmark's.
  TokenWrites writes(x.preflight ? nullptr : x.server.token_log.get(), x.server.anchor,
                     x.request_id, tm.start, stop_at);
  Clock::time_point first_at{};
  Clock::time_point due = tm.first;
  for (std::size_t j = 0; j < stop_at; ++j) {
    if (j > 0) due += tm.gap();
    co_await x.conn.sleep_until(due);
    const auto released = Clock::now();
    if (j == 0) first_at = released;
    const TokenGroup& e = events[j];
    const bool last = j + 1 == events.size();
    std::string out = chunk(
        spec.event(TokenEvent{j, e.reasoning, group_text(plan, e), last, first_at, released}));
    trace.event(static_cast<std::int64_t>(e.to - e.from), static_cast<std::int64_t>(out.size()),
                released);
    if (last) trace.complete(plan.finish_reason);
    const bool ends = j == 0 && add_first_event_fault(x, spec, fault, out);
    // Stamped as the event is handed to the write: asio makes the write system call inside the
    // initiating call, while the completion resumes this coroutine only after every handler
    // queued before it, which under load is milliseconds later. Kept only when the write
    // completes.
    const auto handed = writes.now();
    co_await x.conn.send(std::move(out));
    if (ends) {
      if (!x.conn.write_failed()) writes.stamp(handed);
      co_return x.keep && !x.conn.write_failed();
    }
    if (x.conn.write_failed()) co_return false;
    writes.stamp(handed);
  }
  if (truncate) {
    x.server.counters.errors_injected.fetch_add(1);
    x.conn.close(fault.kind == "truncate-reset");
    co_return false;
  }
  std::string tail;
  for (const auto& m : spec.tail()) tail += chunk(m);
  tail += "0\r\n\r\n";
  co_await x.conn.send(std::move(tail));
  co_return x.keep && !x.conn.write_failed();
}

}  // namespace inferperf::mock::detail
