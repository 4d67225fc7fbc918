// The shared token emitter behind every streamed generation: the timing model (token event j at
// start + TTFT + j*ITL, absolute, or each gap as the capacity model says), chunked SSE framing, the
// streaming faults and the --token-log stamps. A route only says how its events look (StreamSpec).
#pragma once
#include <boost/asio/awaitable.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "capacity.hpp"
#include "connection.hpp"
#include "content.hpp"
#include "faults.hpp"
#include "served_stats.hpp"

namespace inferperf::mock::detail {

struct Timing {
  Clock::time_point start;  // handler start
  Clock::time_point first;  // first token's deadline
  Clock::duration itl;
  bool timings;  // add llama.cpp-style timings
  // --itl-ms-per-stream and the gate whose holders it counts (capacity.hpp); none: a fixed ITL.
  Clock::duration per_stream{0};
  const SlotGate* gate = nullptr;

  // The gap before the next token.
  Clock::duration gap() const {
    return gate ? std::chrono::duration_cast<Clock::duration>(
                      token_gap(itl, per_stream, gate->active()))
                : itl;
  }
};

// --ttft-ms and --itl-ms from `start` (zero with --fast).
Timing timing_from(const MockOptions& o, Clock::time_point start,
                   std::int64_t first_extra_steps = 0);

// A generation's slot (--slots) and its timing under the capacity model: timing_from(start),
// the first token moved by the wait for the slot and by --prefill-ms-per-token x
// `prompt_tokens`, later tokens spaced by Timing::gap(). Hold the slot until the answer is sent.
boost::asio::awaitable<Slot> generation_slot(Exchange& x, Clock::time_point start,
                                             std::int64_t prompt_tokens, Timing& tm);

// One streamed event of a generation: tokens [from, to) of the reasoning or the content.
struct TokenEvent {
  std::size_t index;  // event number
  bool reasoning;
  std::string_view text;  // the event's tokens, concatenated
  bool last;
  Clock::time_point first_at;  // when event 0 went out
  Clock::time_point released;  // now
};

// How a route writes its stream; stream_tokens() owns timing, faults and chunked framing.
struct StreamSpec {
  std::string head;  // SSE text sent with the HTTP headers ("" = none)
  std::function<std::string(const TokenEvent&)> event;  // SSE text of one event
  std::function<std::vector<std::string>()> tail;       // SSE messages after the last event
  std::vector<std::string> error_event;  // X-Mock-Fault: error-event, after event 0; then the end
  std::string malformed;                 // X-Mock-Fault: malformed, after event 0 ("" = ignored)
};

// A group of consecutive tokens sent as one event: [from, to) of the reasoning or the output.
struct TokenGroup {
  bool reasoning;
  std::size_t from, to;
};

// Reasoning tokens first, then content, `tokens_per_event` to an event.
std::vector<TokenGroup> token_groups(const GenerationPlan& plan, int tokens_per_event);

// Streams `plan` as `spec` says: reasoning tokens first, then content, grouped K tokens per
// event. Event j goes out at first + the sum of j gaps (start + TTFT + j*ITL without the capacity
// model), deadlines absolute, so late events are sent at once and nothing drifts. Applies the
// streaming faults (stall, malformed, error-event, truncate, truncate-reset).
boost::asio::awaitable<bool> stream_tokens(Exchange& x, const GenerationPlan& plan,
                                           const StreamSpec& spec, const Fault& fault,
                                           const Timing& tm, RequestTrace& trace);

}  // namespace inferperf::mock::detail
