// Metrics from raw records: per-record values, then aggregates and derived values, then statistics.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/goodput_target.hpp"
#include "core/statistics.hpp"
#include "metrics/catalogue.hpp"
#include "records/request_record.hpp"

namespace inferperf::metrics {

struct RecordValues {
  const records::RequestRecord* record = nullptr;
  std::vector<std::pair<const MetricInfo*, double>> scalars;  // base units
  // Metrics with many values per record (inter_chunk_latency, per_token_itl, vllm_itl): base
  // units; their statistics pool the values of every record.
  std::vector<std::pair<const MetricInfo*, std::vector<double>>> lists;
  std::vector<double> stall_gaps_ns;  // the gaps counted by stream_stall_count
  bool good = false;                  // met every --goodput objective
};

struct MetricResult {
  const MetricInfo* info = nullptr;
  bool scalar = false;
  double value = 0;   // display units, scalars only
  core::Stats stats;  // display units, record metrics only
};

struct ErrorSummaryEntry {
  std::optional<int> code;
  std::string type;
  std::string message;
  std::int64_t count = 0;
};

enum class TokenSource { kClientTokenizer, kServerUsage };

// One --goodput objective: the record metric and its threshold in base units (ns, tokens, ...).
struct GoodputObjective {
  const MetricInfo* metric = nullptr;
  double threshold = 0;
};

struct MetricOptions {
  bool streaming = false;
  // From the endpoint table: token metrics, ISL, and image metrics apply.
  bool produces_tokens = true;
  bool tokenizes_input = true;
  bool images = false;
  TokenSource token_source = TokenSource::kServerUsage;
  double osl_mismatch_pct_threshold = 5.0;         // AIPERF_METRICS_OSL_MISMATCH_PCT_THRESHOLD
  double osl_mismatch_max_token_threshold = 50.0;  // ..._OSL_MISMATCH_MAX_TOKEN_THRESHOLD
  double usage_pct_diff_threshold = 10.0;          // AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD
  std::vector<GoodputObjective> goodput;
  bool cross_tool = false;    // --cross-tool-metrics
  bool experimental = false;  // AIPERF_DEV_MODE + AIPERF_DEV_SHOW_EXPERIMENTAL_METRICS
};

struct BenchmarkResult {
  std::vector<MetricResult> metrics;     // catalogue order, only metrics that have values
  std::vector<RecordValues> per_record;  // every profiling record, in the order given
  std::vector<ErrorSummaryEntry> errors;
  std::int64_t valid_count = 0;
  std::int64_t error_count = 0;
  std::int64_t records_without_usage = 0;  // valid records whose server sent no token usage
  std::int64_t osl_mismatches = 0;
  std::int64_t usage_discrepancies = 0;
  core::MonoNs min_request_start_ns = 0;  // first valid request start
  core::MonoNs max_response_end_ns = 0;   // last valid content response

  const MetricResult* find(std::string_view tag) const;
};

BenchmarkResult compute_metrics(const std::vector<records::RequestRecord>& records,
                                const MetricOptions& options);
// The same over a subset of records (e.g. one timeslice); the records must outlive the result.
BenchmarkResult compute_metrics(const std::vector<const records::RequestRecord*>& records,
                                const MetricOptions& options);

// The objectives of --goodput targets (config parsed their syntax): each tag must name a
// per-request metric of the catalogue; thresholds go from display to base units. Errors name the
// offending tag.
std::optional<std::string> resolve_goodput(const std::vector<core::GoodputTarget>& targets,
                                           std::vector<GoodputObjective>& out);
// The same from the --goodput text (core::parse_goodput_targets, then resolve_goodput).
std::optional<std::string> parse_goodput(const std::string& spec,
                                         std::vector<GoodputObjective>& out);

}  // namespace inferperf::metrics
