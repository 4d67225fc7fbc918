#include "observe/live_metrics.hpp"

#include <algorithm>
#include <chrono>

#include "records/phase.hpp"

namespace inferperf::observe {

namespace {

constexpr std::array<double, 14> kDurationBounds = {0.01, 0.02, 0.04, 0.08,  0.16,  0.32,  0.64,
                                                    1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92};
constexpr std::array<double, 14> kTokenBounds = {
    1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864};
constexpr std::array<double, 13> kChunkBounds = {0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2,
                                                 0.3,  0.4,   0.5,  0.75,  1.0, 2.5};

double live_seconds(core::MonoNs from, core::MonoNs to) {
  return static_cast<double>(to - from) / 1e9;
}

}  // namespace

std::span<const double> duration_bounds_s() {
  return kDurationBounds;
}
std::span<const double> token_bounds() {
  return kTokenBounds;
}
std::span<const double> chunk_interval_bounds_s() {
  return kChunkBounds;
}

void FixedHistogram::record(double v) {
  const auto it = std::lower_bound(bounds.begin(), bounds.end(), v);
  ++counts[static_cast<std::size_t>(it - bounds.begin())];
  ++count;
  sum += v;
}

std::int64_t PhaseMetrics::sessions_in_flight() const {
  return std::max<std::int64_t>(0, sessions_sent - sessions_completed - sessions_cancelled);
}

LiveMetrics::LiveMetrics(std::unordered_map<std::string, int> turns_by_conversation,
                         std::function<std::vector<PhaseLoad>()> load)
    : turns_(std::move(turns_by_conversation)), load_(std::move(load)) {
  phases_[0].phase = records::to_string(records::Phase::kWarmup);
  phases_[1].phase = records::to_string(records::Phase::kProfiling);
}

void LiveMetrics::add(const records::RequestRecord& r) {
  const auto idx = static_cast<std::size_t>(r.phase == records::Phase::kWarmup ? 0 : 1);
  // Token counts known now: the server's usage, else what the client has counted so far (client
  // counts are mostly made after the run, docs/observability.md).
  const auto input = r.usage.prompt_tokens ? r.usage.prompt_tokens : r.client_tokens.input;
  const auto output =
      r.usage.completion_tokens ? r.usage.completion_tokens : r.client_tokens.output;
  const auto found = turns_.find(r.conversation_id);
  const bool last_turn = found == turns_.end() || r.turn_index + 1 >= found->second;
  std::lock_guard lock(mu_);
  seen_[idx] = true;
  PhaseMetrics& p = phases_[idx];
  ++p.turns_total;
  if (r.turn_index == 0) ++p.sessions_sent;
  if (r.was_cancelled) {
    ++p.cancelled;
    ++p.sessions_cancelled;
  } else if (last_turn) {
    ++p.sessions_completed;
  }
  if (!r.valid()) {
    ++p.errors;
    return;
  }
  ++p.completed;
  const core::MonoNs end = r.end_ns > 0 ? r.end_ns : r.last_event_ns;
  if (end >= r.start_ns) p.duration.record(live_seconds(r.start_ns, end));
  p.ttfc.record(live_seconds(r.start_ns, r.content_events.front().ts_ns));
  for (std::size_t i = 1; i < r.content_events.size(); ++i)
    p.chunk_interval.record(live_seconds(r.content_events[i - 1].ts_ns, r.content_events[i].ts_ns));
  if (input) {
    p.input_tokens += *input;
    p.input_token_usage.record(static_cast<double>(*input));
  }
  if (output) {
    p.output_tokens += *output;
    p.output_token_usage.record(static_cast<double>(*output));
  }
}

MetricsSnapshot LiveMetrics::snapshot() const {
  // The phase runner's counts first, outside the lock (it takes its own).
  const std::vector<PhaseLoad> loads = load_ ? load_() : std::vector<PhaseLoad>{};
  MetricsSnapshot s;
  s.now_unix_ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count();
  std::lock_guard lock(mu_);
  for (std::size_t i = 0; i < phases_.size(); ++i) {
    const auto load = std::find_if(loads.begin(), loads.end(),
                                   [&](const PhaseLoad& l) { return l.phase == phases_[i].phase; });
    if (!seen_[i] && load == loads.end()) continue;
    PhaseMetrics p = phases_[i];
    if (load != loads.end()) {
      p.sent = load->sent;
      p.in_flight = load->in_flight;
    }
    s.phases.push_back(std::move(p));
  }
  return s;
}

}  // namespace inferperf::observe
