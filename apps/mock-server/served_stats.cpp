#include "served_stats.hpp"

#include <algorithm>
#include <cmath>

namespace inferperf::mock {

namespace {

constexpr std::int64_t kSlotNs = 10'000'000;  // 10 ms

double seconds(MockClock::duration d) {
  return std::chrono::duration<double>(d).count();
}

std::int64_t ns_of(MockClock::time_point t) {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(t.time_since_epoch()).count();
}

}  // namespace

Distribution::Distribution(std::initializer_list<const std::vector<double>*> layouts) {
  for (const auto* layout : layouts)
    s_.bounds.insert(s_.bounds.end(), layout->begin(), layout->end());
  std::sort(s_.bounds.begin(), s_.bounds.end());
  s_.bounds.erase(std::unique(s_.bounds.begin(), s_.bounds.end()), s_.bounds.end());
  s_.counts.assign(s_.bounds.size() + 1, 0);
}

void Distribution::observe(double v) {
  const auto i = static_cast<std::size_t>(std::lower_bound(s_.bounds.begin(), s_.bounds.end(), v) -
                                          s_.bounds.begin());
  ++s_.counts[i];
  s_.sum += v;
  ++s_.count;
}

std::uint64_t Distribution::Snapshot::at_most(double le) const {
  if (std::isinf(le) && le > 0) return count;
  const auto k =
      static_cast<std::size_t>(std::upper_bound(bounds.begin(), bounds.end(), le) - bounds.begin());
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < k; ++i) n += counts[i];
  return n;
}

TokenRateWindow::TokenRateWindow(double window_s)
    : window_ns_(std::max<std::int64_t>(kSlotNs, static_cast<std::int64_t>(window_s * 1e9))) {}

void TokenRateWindow::add(std::int64_t tokens, MockClock::time_point t) {
  if (tokens <= 0) return;
  const std::int64_t slot = ns_of(t) / kSlotNs;
  std::lock_guard lock(mu_);
  if (!slots_.empty() && slots_.back().first == slot) {
    slots_.back().second += tokens;
  } else {
    slots_.emplace_back(slot, tokens);
  }
  const std::int64_t oldest = (ns_of(t) - window_ns_) / kSlotNs;
  while (!slots_.empty() && slots_.front().first < oldest) slots_.pop_front();
}

double TokenRateWindow::rate_locked(MockClock::time_point now) {
  // Slots wholly before the window are dropped; the slot the window starts in still counts, so
  // the window is at most one slot (10 ms) longer than asked.
  const std::int64_t oldest = (ns_of(now) - window_ns_) / kSlotNs;
  while (!slots_.empty() && slots_.front().first < oldest) slots_.pop_front();
  std::int64_t tokens = 0;
  for (const auto& [slot, n] : slots_) {
    if (slot >= oldest) tokens += n;
  }
  return static_cast<double>(tokens) / (static_cast<double>(window_ns_) * 1e-9);
}

double TokenRateWindow::rate(MockClock::time_point now) {
  std::lock_guard lock(mu_);
  return rate_locked(now);
}

double TokenRateWindow::load(MockClock::time_point now, double floor_tokens_per_s) {
  std::lock_guard lock(mu_);
  const double r = rate_locked(now);
  max_rate_ = std::max(max_rate_, r);
  const double denominator = std::max(max_rate_, floor_tokens_per_s);
  if (r <= 0 || denominator <= 0) return 0.0;
  return std::min(1.0, r / denominator);
}

ServedStats::ServedStats(double window_s, MockClock::time_point start)
    : start_(start),
      rate_(window_s),
      ttft_({&buckets::kVllmTtft, &buckets::kVllmLatency, &buckets::kSglangTtft,
             &buckets::kDynamoLatency, &buckets::kMockLatency}),
      itl_(
          {&buckets::kVllmItl, &buckets::kSglangItl, &buckets::kDynamoItl, &buckets::kMockLatency}),
      tpot_({&buckets::kVllmItl}),
      e2e_({&buckets::kVllmLatency, &buckets::kSglangE2e, &buckets::kDynamoLatency}),
      queue_({&buckets::kVllmLatency}),
      decode_({&buckets::kVllmLatency, &buckets::kDynamoLatency}),
      prompt_len_({&buckets::kTokenCounts, &buckets::kDynamoTokens}),
      gen_len_({&buckets::kTokenCounts, &buckets::kDynamoTokens}) {}

void ServedStats::admitted(std::int64_t prompt_tokens, std::int64_t request_bytes) {
  admitted_.fetch_add(1);
  running_.fetch_add(1);
  awaiting_first_.fetch_add(1);
  kv_tokens_.fetch_add(prompt_tokens);
  request_bytes_.fetch_add(request_bytes);
}

void ServedStats::first_token(double ttft_s, std::int64_t prompt_tokens) {
  first_tokens_.fetch_add(1);
  awaiting_first_.fetch_sub(1);
  prompt_tokens_.fetch_add(prompt_tokens);
  std::lock_guard lock(mu_);
  ttft_.observe(ttft_s);
}

void ServedStats::tokens_sent(std::int64_t n, std::int64_t bytes, bool first_event,
                              MockClock::time_point t) {
  generation_tokens_.fetch_add(n);
  kv_tokens_.fetch_add(n);
  (first_event ? prefill_bytes_ : decode_bytes_).fetch_add(bytes);
  rate_.add(n, t);
}

void ServedStats::finished(const FinishedRequest& r) {
  running_.fetch_sub(1);
  kv_tokens_.fetch_sub(r.prompt_tokens + r.output_tokens);
  if (!r.had_first_token) awaiting_first_.fetch_sub(1);
  if (r.ok) {
    (r.finish_reason == "length" ? finished_length_ : finished_stop_).fetch_add(1);
  } else {
    aborted_.fetch_add(1);
    if (!r.had_first_token) aborted_before_first_.fetch_add(1);
  }
  frontend_[ServedSnapshot::frontend_index(r.chat, r.stream, r.ok)].fetch_add(1);
  std::lock_guard lock(mu_);
  for (const double g : r.itl_gaps) itl_.observe(g);
  if (!r.ok) return;
  e2e_.observe(r.e2e_s);
  queue_.observe(0.0);  // the mock admits every request at once
  decode_.observe(r.decode_s);
  if (r.output_tokens > 1) tpot_.observe(r.decode_s / static_cast<double>(r.output_tokens - 1));
  prompt_len_.observe(static_cast<double>(r.prompt_tokens));
  gen_len_.observe(static_cast<double>(r.output_tokens));
}

void ServedStats::rejected(bool chat, bool stream) {
  frontend_[ServedSnapshot::frontend_index(chat, stream, false)].fetch_add(1);
}

ServedSnapshot ServedStats::snapshot(MockClock::time_point now) {
  ServedSnapshot s;
  s.uptime_s = seconds(now - start_);
  s.running = running_.load();
  s.awaiting_first = awaiting_first_.load();
  s.kv_tokens = kv_tokens_.load();
  s.admitted = admitted_.load();
  s.first_tokens = first_tokens_.load();
  s.prompt_tokens = prompt_tokens_.load();
  s.generation_tokens = generation_tokens_.load();
  s.finished_stop = finished_stop_.load();
  s.finished_length = finished_length_.load();
  s.aborted = aborted_.load();
  s.aborted_before_first = aborted_before_first_.load();
  s.request_bytes = request_bytes_.load();
  s.prefill_response_bytes = prefill_bytes_.load();
  s.decode_response_bytes = decode_bytes_.load();
  for (std::size_t i = 0; i < s.frontend.size(); ++i) s.frontend[i] = frontend_[i].load();
  s.token_rate = rate_.rate(now);
  std::lock_guard lock(mu_);
  s.ttft = ttft_.snapshot();
  s.itl = itl_.snapshot();
  s.tpot = tpot_.snapshot();
  s.e2e = e2e_.snapshot();
  s.queue = queue_.snapshot();
  s.decode = decode_.snapshot();
  s.prompt_len = prompt_len_.snapshot();
  s.gen_len = gen_len_.snapshot();
  return s;
}

RequestTrace::RequestTrace(ServedStats& stats, bool chat, bool stream, std::int64_t prompt_tokens,
                           std::int64_t request_bytes, MockClock::time_point start)
    : stats_(stats), chat_(chat), stream_(stream), prompt_tokens_(prompt_tokens), start_(start) {
  stats_.admitted(prompt_tokens, request_bytes);
}

RequestTrace::~RequestTrace() {
  if (!done_) report(false, "");
}

void RequestTrace::event(std::int64_t n, std::int64_t bytes, MockClock::time_point t) {
  const bool first_event = !first_;
  if (first_event) {
    first_ = t;
    stats_.first_token(seconds(t - start_), prompt_tokens_);
  } else {
    gaps_.push_back(seconds(t - *last_));
  }
  last_ = t;
  sent_ += n;
  stats_.tokens_sent(n, bytes, first_event, t);
}

void RequestTrace::whole(std::int64_t n, std::int64_t bytes, MockClock::time_point first,
                         MockClock::time_point last) {
  first_ = first;
  last_ = last;
  stats_.first_token(seconds(first - start_), prompt_tokens_);
  // The tokens were generated in the mock's clock at even steps; without events, each gap is the
  // average one.
  if (n > 1)
    gaps_.assign(static_cast<std::size_t>(n - 1),
                 seconds(last - first) / static_cast<double>(n - 1));
  sent_ = n;
  stats_.tokens_sent(n, bytes, false, last);
}

void RequestTrace::complete(std::string_view finish_reason) {
  if (!done_) report(true, finish_reason);
}

void RequestTrace::report(bool ok, std::string_view finish_reason) {
  done_ = true;
  FinishedRequest r;
  r.chat = chat_;
  r.stream = stream_;
  r.ok = ok && first_.has_value();
  r.finish_reason = finish_reason;
  r.had_first_token = first_.has_value();
  r.prompt_tokens = prompt_tokens_;
  r.output_tokens = sent_;
  if (first_) {
    r.e2e_s = seconds(*last_ - start_);
    r.decode_s = seconds(*last_ - *first_);
  }
  r.itl_gaps = gaps_;
  stats_.finished(r);
}

}  // namespace inferperf::mock
