// Metrics from raw records: per-record values, then aggregates and derived values, then statistics.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "metrics/catalogue.hpp"
#include "metrics/statistics.hpp"
#include "records/request_record.hpp"

namespace inferperf::metrics {

struct RecordValues {
  const records::RequestRecord* record = nullptr;
  std::vector<std::pair<const MetricInfo*, double>> scalars;  // base units
  std::vector<double> inter_chunk_ns;
  std::optional<double> error_isl;
};

struct MetricResult {
  const MetricInfo* info = nullptr;
  bool scalar = false;
  double value = 0;  // display units, scalars only
  Stats stats;       // display units, record metrics only
};

struct ErrorSummaryEntry {
  std::optional<int> code;
  std::string type;
  std::string message;
  std::int64_t count = 0;
};

enum class TokenSource { kClientTokenizer, kServerUsage };

struct MetricOptions {
  bool streaming = false;
  TokenSource token_source = TokenSource::kServerUsage;
  double osl_mismatch_pct_threshold = 5.0;  // AIPERF_METRICS_OSL_MISMATCH_PCT_THRESHOLD
  double osl_mismatch_max_token_threshold =
      50.0;  // AIPERF_METRICS_OSL_MISMATCH_MAX_TOKEN_THRESHOLD
};

struct BenchmarkResult {
  std::vector<MetricResult> metrics;     // catalogue order, only metrics that have values
  std::vector<RecordValues> per_record;  // every profiling record, in the order given
  std::vector<ErrorSummaryEntry> errors;
  std::int64_t valid_count = 0;
  std::int64_t error_count = 0;
  std::int64_t records_without_usage = 0;  // valid records whose server sent no token usage
  core::MonoNs min_request_start_ns = 0;   // first valid request start
  core::MonoNs max_response_end_ns = 0;    // last valid content response

  const MetricResult* find(std::string_view tag) const;
};

BenchmarkResult compute_metrics(const std::vector<records::RequestRecord>& records,
                                const MetricOptions& options);
// The same over a subset of records (e.g. one timeslice); the records must outlive the result.
BenchmarkResult compute_metrics(const std::vector<const records::RequestRecord*>& records,
                                const MetricOptions& options);

}  // namespace inferperf::metrics
