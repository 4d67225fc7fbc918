// What the mock actually served, as its metric pages report it: counters and gauges (atomics),
// latency and length distributions (one mutex), and the sliding-window token rate that drives the
// fake GPUs' load. Every page reads one snapshot, so the pages agree with each other.
#pragma once
#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <mutex>
#include <optional>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace inferperf::mock {

using MockClock = std::chrono::steady_clock;

// Histogram bucket upper bounds used by the pages (seconds, or tokens for lengths). Each page
// reports its engine's own layout; the recorded distributions keep the union of the layouts that
// observe the same quantity, so every page's cumulative counts are exact.
namespace buckets {
// vLLM: TTFT, inter-token latency / time per output token, request-level latencies.
inline const std::vector<double> kVllmTtft = {0.001, 0.005, 0.01, 0.02,  0.04,  0.06,  0.08, 0.1,
                                              0.25,  0.5,   0.75, 1.0,   2.5,   5.0,   7.5,  10.0,
                                              20.0,  40.0,  80.0, 160.0, 640.0, 2560.0};
inline const std::vector<double> kVllmItl = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,
                                             0.3,  0.4,   0.5,  0.75,  1.0, 2.5,  5.0,
                                             7.5,  10.0,  20.0, 40.0,  80.0};
inline const std::vector<double> kVllmLatency = {0.3,  0.5,   0.8,   1.0,   1.5,   2.0,    2.5,
                                                 5.0,  10.0,  15.0,  20.0,  30.0,  40.0,   50.0,
                                                 60.0, 120.0, 240.0, 480.0, 960.0, 1920.0, 7680.0};
// Request lengths in tokens (1-2-5 steps up to the mock's context length).
inline const std::vector<double> kTokenCounts = {
    1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000};
// SGLang.
inline const std::vector<double> kSglangTtft = {0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08,
                                                0.1,   0.25,  0.5,  0.75, 1.0,  2.5,  5.0,
                                                7.5,   10.0,  15.0, 20.0, 25.0, 30.0};
inline const std::vector<double> kSglangItl = {0.002, 0.004, 0.006, 0.008, 0.01, 0.015, 0.02, 0.025,
                                               0.03,  0.035, 0.04,  0.06,  0.08, 0.1,   0.2,  0.4,
                                               0.6,   0.8,   1.0,   2.0,   4.0,  6.0,   8.0};
inline const std::vector<double> kSglangE2e = {0.1,  0.2,   0.4,   0.6,   0.8,  1.0,  2.0,
                                               4.0,  6.0,   8.0,   10.0,  20.0, 40.0, 60.0,
                                               80.0, 100.0, 200.0, 400.0, 800.0};
// Dynamo frontend and components.
inline const std::vector<double> kDynamoLatency = {0.005, 0.01, 0.025, 0.05, 0.1,  0.25,  0.5,  1.0,
                                                   2.5,   5.0,  10.0,  30.0, 60.0, 120.0, 300.0};
inline const std::vector<double> kDynamoItl = {0.001, 0.0025, 0.005, 0.0075, 0.01, 0.025,
                                               0.05,  0.075,  0.1,   0.25,   0.5,  1.0};
inline const std::vector<double> kDynamoTokens = {1, 4, 16, 64, 256, 1024, 4096, 16384, 65536};
// The mock's own /metrics page.
inline const std::vector<double> kMockLatency = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                                 0.25,  0.5,    1.0,   2.5,  5.0,   10.0};
}  // namespace buckets

// Counts of observations per bucket over a fixed, sorted set of upper bounds. Not thread-safe.
class Distribution {
 public:
  // The bounds are the union of the given layouts.
  explicit Distribution(std::initializer_list<const std::vector<double>*> layouts);
  void observe(double v);

  struct Snapshot {
    std::vector<double> bounds;         // sorted, unique
    std::vector<std::uint64_t> counts;  // per bucket (bounds[i-1], bounds[i]]; last = above all
    double sum = 0;
    std::uint64_t count = 0;
    // Observations <= le (exact when le is one of the bounds; +inf gives count).
    std::uint64_t at_most(double le) const;
  };
  const Snapshot& snapshot() const { return s_; }

 private:
  Snapshot s_;
};

// Output tokens sent per 10 ms slot over a sliding window; thread-safe.
class TokenRateWindow {
 public:
  explicit TokenRateWindow(double window_s);
  void add(std::int64_t tokens, MockClock::time_point t);
  // Tokens per second over (now - window, now].
  double rate(MockClock::time_point now);
  // min(1, rate ÷ max(highest rate seen by load() so far, floor)); 0 when nothing was sent.
  double load(MockClock::time_point now, double floor_tokens_per_s);

 private:
  double rate_locked(MockClock::time_point now);

  std::mutex mu_;
  std::int64_t window_ns_;
  std::deque<std::pair<std::int64_t, std::int64_t>> slots_;  // (slot index, tokens)
  double max_rate_ = 0;
};

// One consistent reading of everything the pages show.
struct ServedSnapshot {
  double uptime_s = 0;
  std::int64_t running = 0;            // admitted requests not finished yet
  std::int64_t waiting = 0;            // of those, waiting for a slot (--slots); set by the page
  std::int64_t awaiting_first = 0;     // running requests before their first token
  std::int64_t kv_tokens = 0;          // prompt + sent output tokens of running requests
  std::int64_t admitted = 0;           // requests that reached generation (valid bodies)
  std::int64_t first_tokens = 0;       // requests that produced a first token
  std::int64_t prompt_tokens = 0;      // summed over requests that produced a first token
  std::int64_t generation_tokens = 0;  // output tokens sent
  std::int64_t finished_stop = 0;
  std::int64_t finished_length = 0;
  std::int64_t aborted = 0;                 // stopped early (fault, client gone)
  std::int64_t aborted_before_first = 0;    // of which before the first token
  std::int64_t request_bytes = 0;           // inference request bodies received
  std::int64_t prefill_response_bytes = 0;  // bytes of the events carrying first tokens
  std::int64_t decode_response_bytes = 0;   // bytes of later events and of whole bodies
  // Requests by outcome, indexed by frontend_index(); rejected ones (error answers) included.
  std::array<std::int64_t, 8> frontend{};
  double token_rate = 0;  // output tokens/s over the sliding window
  Distribution::Snapshot ttft, itl, tpot, e2e, queue, decode, prompt_len, gen_len;

  static constexpr std::size_t frontend_index(bool chat, bool stream, bool ok) {
    return (chat ? 4U : 0U) + (stream ? 2U : 0U) + (ok ? 0U : 1U);
  }
};

// A request as it ended, for ServedStats::finished.
struct FinishedRequest {
  bool chat = true;
  bool stream = false;
  bool ok = false;                 // ran to its finish_reason
  std::string_view finish_reason;  // "stop" | "length" when ok
  bool had_first_token = false;
  std::int64_t prompt_tokens = 0;
  std::int64_t output_tokens = 0;    // sent
  double e2e_s = 0;                  // start to last token
  double decode_s = 0;               // first to last token
  std::span<const double> itl_gaps;  // seconds between consecutive token events
};

class ServedStats {
 public:
  explicit ServedStats(double window_s = 1.0, MockClock::time_point start = MockClock::now());

  void admitted(std::int64_t prompt_tokens, std::int64_t request_bytes);
  void first_token(double ttft_s, std::int64_t prompt_tokens);
  // n output tokens handed to the socket at t, in a response piece of `bytes` bytes.
  void tokens_sent(std::int64_t n, std::int64_t bytes, bool first_event, MockClock::time_point t);
  void finished(const FinishedRequest& r);
  // Answered with an error before any generation (--error-rate, status faults, bad bodies).
  void rejected(bool chat, bool stream);

  double load(MockClock::time_point now, double floor_tokens_per_s) {
    return rate_.load(now, floor_tokens_per_s);
  }
  ServedSnapshot snapshot(MockClock::time_point now = MockClock::now());

 private:
  MockClock::time_point start_;
  std::atomic<std::int64_t> running_{0}, awaiting_first_{0}, kv_tokens_{0}, admitted_{0},
      first_tokens_{0}, prompt_tokens_{0}, generation_tokens_{0}, finished_stop_{0},
      finished_length_{0}, aborted_{0}, aborted_before_first_{0}, request_bytes_{0},
      prefill_bytes_{0}, decode_bytes_{0};
  std::array<std::atomic<std::int64_t>, 8> frontend_{};
  TokenRateWindow rate_;
  std::mutex mu_;  // guards the distributions
  Distribution ttft_, itl_, tpot_, e2e_, queue_, decode_, prompt_len_, gen_len_;
};

// Follows one admitted request and reports it to ServedStats; a request destroyed before
// complete() counts as aborted. Used by one coroutine at a time.
class RequestTrace {
 public:
  RequestTrace(ServedStats& stats, bool chat, bool stream, std::int64_t prompt_tokens,
               std::int64_t request_bytes, MockClock::time_point start);
  ~RequestTrace();
  RequestTrace(const RequestTrace&) = delete;
  RequestTrace& operator=(const RequestTrace&) = delete;

  // A streamed event with n output tokens released at t; `bytes` = its size on the wire.
  void event(std::int64_t n, std::int64_t bytes, MockClock::time_point t);
  // A whole (non-streaming) body: n tokens, the first released at `first`, the last at `last`.
  void whole(std::int64_t n, std::int64_t bytes, MockClock::time_point first,
             MockClock::time_point last);
  void complete(std::string_view finish_reason);

  std::optional<MockClock::time_point> first_token_time() const { return first_; }
  std::optional<MockClock::time_point> last_token_time() const { return last_; }

 private:
  void report(bool ok, std::string_view finish_reason);

  ServedStats& stats_;
  bool chat_, stream_;
  std::int64_t prompt_tokens_;
  MockClock::time_point start_;
  std::optional<MockClock::time_point> first_, last_;
  std::int64_t sent_ = 0;
  std::vector<double> gaps_;
  bool done_ = false;
};

}  // namespace inferperf::mock
