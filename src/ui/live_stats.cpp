#include "ui/live_stats.hpp"

#include <algorithm>

namespace inferperf::ui {

Percentiles percentiles_ms(const core::HistogramSnapshot& s) {
  Percentiles p;
  p.count = s.total;
  if (s.total == 0) return p;
  p.p50 = static_cast<double>(s.percentile_ns(50)) / 1e6;
  p.p90 = static_cast<double>(s.percentile_ns(90)) / 1e6;
  p.p99 = static_cast<double>(s.percentile_ns(99)) / 1e6;
  return p;
}

LiveStats::LiveStats(core::MonoNs origin_ns) : origin_ns_(origin_ns) {
  for (auto& s : second_) s.store(-1);  // no second yet: slot 0 must not claim second 0
}

void LiveStats::add(const records::RequestRecord& r) {
  auto& ph = phases_[static_cast<int>(r.phase)];
  constexpr auto relaxed = std::memory_order_relaxed;
  if (!r.valid()) {
    ph.errors.fetch_add(1, relaxed);
    // A record without an error but also without content counts as an error in the report too.
    std::string type = r.error ? std::string(r.error->type.name()) : std::string("(no content)");
    if (type.empty()) type = "(unknown)";
    std::lock_guard lock(errors_mu_);
    ++errors_[type];
    return;
  }
  const auto& ev = r.content_events;
  ph.ttft.record(ev.front().ts_ns - r.start_ns);
  ph.latency.record(ev.back().ts_ns - r.start_ns);
  if (ev.size() >= 2) {
    ph.itl.record((ev.back().ts_ns - ev.front().ts_ns) / static_cast<std::int64_t>(ev.size() - 1));
  }
  if (r.intended_ns > 0)
    ph.schedule_lag.record(std::max<std::int64_t>(0, r.start_ns - r.intended_ns));
  // Exact token counts are made after the run (no tokenizer on this thread): the server's count
  // when it sent one, else one token per content event.
  ph.output_tokens.fetch_add(
      r.usage.completion_tokens.value_or(static_cast<std::int64_t>(ev.size())), relaxed);
  ph.completed.fetch_add(1, relaxed);
  const core::MonoNs end = ev.back().ts_ns;
  if (end >= origin_ns_) {
    const std::int64_t sec = (end - origin_ns_) / 1'000'000'000;
    const auto slot = static_cast<std::size_t>(sec % kHistorySeconds);
    // Records arrive roughly in end order; a slot is claimed for its new second once.
    if (second_[slot].load(relaxed) != sec) {
      if (sec < second_[slot].load(relaxed)) return;  // older than the ring holds
      per_second_[slot].store(0, relaxed);
      second_[slot].store(sec, std::memory_order_release);
    }
    per_second_[slot].fetch_add(1, relaxed);
  }
}

LiveStats::PhaseCounts LiveStats::counts(records::Phase p) const {
  const auto& ph = of(p);
  return {ph.completed.load(), ph.errors.load(), ph.output_tokens.load()};
}

Percentiles LiveStats::ttft_ms(records::Phase p) const {
  return percentiles_ms(of(p).ttft.snapshot());
}
Percentiles LiveStats::itl_ms(records::Phase p) const {
  return percentiles_ms(of(p).itl.snapshot());
}
Percentiles LiveStats::latency_ms(records::Phase p) const {
  return percentiles_ms(of(p).latency.snapshot());
}
double LiveStats::schedule_lag_p99_ms(records::Phase p) const {
  return percentiles_ms(of(p).schedule_lag.snapshot()).p99;
}

std::vector<double> LiveStats::throughput_history(core::MonoNs now_ns, int seconds) const {
  seconds = std::clamp(seconds, 0, kHistorySeconds - 1);
  std::vector<double> out;
  if (now_ns < origin_ns_) return out;
  const std::int64_t current = (now_ns - origin_ns_) / 1'000'000'000;
  const std::int64_t first = std::max<std::int64_t>(0, current - seconds);
  for (std::int64_t s = first; s < current; ++s) {
    const auto slot = static_cast<std::size_t>(s % kHistorySeconds);
    const bool ours = second_[slot].load(std::memory_order_acquire) == s;
    out.push_back(ours ? static_cast<double>(per_second_[slot].load(std::memory_order_relaxed))
                       : 0.0);
  }
  return out;
}

std::vector<std::pair<std::string, std::int64_t>> LiveStats::errors_by_type() const {
  std::vector<std::pair<std::string, std::int64_t>> out;
  {
    std::lock_guard lock(errors_mu_);
    out.assign(errors_.begin(), errors_.end());
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

}  // namespace inferperf::ui
