// LiveMetrics: the cumulative numbers the live exporters publish (the OTLP push, the Prometheus
// endpoint), fed by the records collector thread with every finished record and read by the
// exporters' own threads. The collector is the only writer; one mutex, taken once per record by
// the collector and once per snapshot by a reader, keeps the two sides apart. The workers never
// touch it. Histograms have fixed bucket bounds (the OpenTelemetry GenAI conventions' advice), so
// a snapshot is a few small arrays whatever the run's length.
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "records/request_record.hpp"

namespace inferperf::observe {

// Explicit bucket bounds (upper, inclusive), as the semantic conventions advise.
std::span<const double> duration_bounds_s();        // operation duration, time to first chunk
std::span<const double> token_bounds();             // token usage
std::span<const double> chunk_interval_bounds_s();  // time per output chunk

// A histogram with explicit bounds: bucket i counts values <= bounds[i] (and above the previous
// bound); the last bucket holds what is above every bound.
struct FixedHistogram {
  std::vector<double> bounds;
  std::vector<std::uint64_t> counts;  // bounds.size() + 1
  std::uint64_t count = 0;
  double sum = 0;

  explicit FixedHistogram(std::span<const double> b = {})
      : bounds(b.begin(), b.end()), counts(b.size() + 1, 0) {}
  void record(double v);
};

// What a phase has sent and has in flight right now (from the phase runner).
struct PhaseLoad {
  std::string phase;  // "warmup", "profiling"
  std::int64_t sent = 0, in_flight = 0;
};

struct PhaseMetrics {
  std::string phase;
  // From the phase runner.
  std::int64_t sent = 0, in_flight = 0;
  // From the records.
  std::int64_t completed = 0, errors = 0, cancelled = 0;
  std::int64_t input_tokens = 0, output_tokens = 0;
  std::int64_t sessions_sent = 0, sessions_completed = 0, sessions_cancelled = 0;
  std::int64_t turns_total = 0;
  FixedHistogram duration{duration_bounds_s()};              // request latency, s
  FixedHistogram ttfc{duration_bounds_s()};                  // time to first chunk, s
  FixedHistogram chunk_interval{chunk_interval_bounds_s()};  // gaps between chunks, s
  FixedHistogram input_token_usage{token_bounds()};
  FixedHistogram output_token_usage{token_bounds()};

  std::int64_t sessions_in_flight() const;
};

struct MetricsSnapshot {
  std::vector<PhaseMetrics> phases;  // the phases seen so far, warmup first
  std::int64_t now_unix_ns = 0;
};

class LiveMetrics {
 public:
  // `turns_by_conversation`: each conversation id's turn count (a session ends with its last
  // turn); `load`: the phase runner's sent/in-flight counts, called on the reader's thread.
  LiveMetrics(std::unordered_map<std::string, int> turns_by_conversation,
              std::function<std::vector<PhaseLoad>()> load);

  // Collector thread only.
  void add(const records::RequestRecord& r);

  // Any thread.
  MetricsSnapshot snapshot() const;

 private:
  const std::unordered_map<std::string, int> turns_;
  const std::function<std::vector<PhaseLoad>()> load_;
  mutable std::mutex mu_;
  std::array<PhaseMetrics, 2> phases_;  // by records::Phase
  std::array<bool, 2> seen_{false, false};
};

}  // namespace inferperf::observe
