// LiveStats: the running numbers a live view needs, fed by the collector thread with every
// finished record and read by the UI thread at any time. The collector is the only writer; every
// counter and histogram bucket is a relaxed atomic, so neither side ever waits for the other and
// the workers (who never touch this) pay nothing. Only the error-type table takes a mutex, shared
// by the collector and the UI thread alone, and only for failed requests.
#pragma once
#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/latency_histogram.hpp"
#include "records/request_record.hpp"
#include "ui/progress_snapshot.hpp"

namespace inferperf::ui {

class LiveStats {
 public:
  // Seconds of per-second throughput kept for the sparkline.
  static constexpr int kHistorySeconds = 240;

  // `origin_ns`: the monotonic time second 0 of the throughput history starts at.
  explicit LiveStats(core::MonoNs origin_ns = 0);

  // Collector thread only.
  void add(const records::RequestRecord& r);

  // Any thread.
  struct PhaseCounts {
    std::int64_t completed = 0, errors = 0, output_tokens = 0;
  };
  PhaseCounts counts(records::Phase p) const;
  Percentiles ttft_ms(records::Phase p) const;
  Percentiles itl_ms(records::Phase p) const;
  Percentiles latency_ms(records::Phase p) const;
  double schedule_lag_p99_ms(records::Phase p) const;
  // Completed requests (any phase) per whole second, for the `seconds` seconds before the one
  // that holds `now_ns` (which is still filling), oldest first.
  std::vector<double> throughput_history(core::MonoNs now_ns, int seconds) const;
  std::vector<std::pair<std::string, std::int64_t>> errors_by_type() const;

 private:
  struct PerPhase {
    std::atomic<std::int64_t> completed{0}, errors{0}, output_tokens{0};
    core::LatencyHistogram ttft, itl, latency, schedule_lag;
  };
  const PerPhase& of(records::Phase p) const { return phases_[static_cast<int>(p)]; }

  core::MonoNs origin_ns_;
  std::array<PerPhase, 2> phases_;
  // Ring of per-second counts; `second_` tags which second a slot holds, so a reader skips slots
  // left over from an earlier lap.
  std::array<std::atomic<std::int64_t>, kHistorySeconds> per_second_{};
  std::array<std::atomic<std::int64_t>, kHistorySeconds> second_{};
  mutable std::mutex errors_mu_;
  std::map<std::string, std::int64_t> errors_;
};

// Summarises one histogram snapshot in milliseconds.
Percentiles percentiles_ms(const core::HistogramSnapshot& s);

}  // namespace inferperf::ui
