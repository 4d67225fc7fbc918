// Metrics from raw records: per-record values, then aggregates and derived values, then statistics.
#pragma once
#include <cstdint>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/goodput_target.hpp"
#include "core/statistics.hpp"
#include "metrics/catalogue.hpp"
#include "metrics/metric_column.hpp"
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

// The token counts of one non-error profiling record that the token-count panels compare
// (report/token_warnings.cpp): kept per record with the client tokenizer, 20 bytes each. A count
// absent from the record is kNone; counts beyond 2^31 - 1 tokens are stored as 2^31 - 1.
struct TokenFacts {
  static constexpr std::int32_t kNone = std::numeric_limits<std::int32_t>::min();
  std::int32_t usage_prompt = kNone;
  std::int32_t usage_completion = kNone;
  std::int32_t client_input = kNone;
  std::int32_t client_output = kNone;  // output + reasoning, present when either is
  std::int32_t requested_osl = kNone;
};

// Valid records whose output length missed the requested max tokens (osl_mismatch_count), split
// by direction; longer_retokenized: longer only by the client's count, the server's usage within
// the tolerance.
struct OslSplit {
  std::int64_t shorter = 0;
  std::int64_t longer = 0;
  std::int64_t longer_retokenized = 0;
};

struct BenchmarkResult {
  std::vector<MetricResult> metrics;  // catalogue order, only metrics that have values
  // Every profiling record's values, in the order given: only from compute_metrics(); the
  // streaming MetricsAccumulator hands each record's values to its caller instead.
  std::vector<RecordValues> per_record;
  std::vector<ErrorSummaryEntry> errors;
  std::int64_t valid_count = 0;
  std::int64_t error_count = 0;
  std::int64_t records_without_usage = 0;  // valid records whose server sent no token usage
  std::int64_t osl_mismatches = 0;
  std::int64_t usage_discrepancies = 0;
  core::MonoNs min_request_start_ns = 0;  // first valid request start
  core::MonoNs max_response_end_ns = 0;   // last valid content response
  std::int64_t profiling_requests = 0;    // profiling records, valid or not
  std::int64_t profiling_events = 0;      // their SSE events (or bodies)
  OslSplit osl_split;
  // With the client tokenizer: the token facts of every non-error profiling record, in order.
  std::vector<TokenFacts> token_facts;
  // The base-unit values (record order) of the metrics asked for with
  // MetricsAccumulator::keep_base_values (the network-adjusted metrics derive from them).
  std::vector<std::pair<const MetricInfo*, std::vector<double>>> base_values;

  const MetricResult* find(std::string_view tag) const;
};

// The metrics computed one record at a time: add() every record in order, then finish(). Memory is
// the per-metric columns (a few bytes per value, spilled to scratch files past the memory budget)
// and the small per-record facts the reports need, never the records themselves, so a run of any
// length is analysed by streaming its records file.
class MetricsAccumulator {
 public:
  explicit MetricsAccumulator(MetricOptions options);
  // Columns created by the first profiling record reserve room for this many values.
  void reserve(std::size_t expected_records) { expected_ = expected_records; }
  // Keep these metrics' base-unit values (finish() puts them in BenchmarkResult::base_values).
  void keep_base_values(std::vector<const MetricInfo*> metrics) { keep_ = std::move(metrics); }
  // Folds one record in. For a profiling record, returns its values (valid until the next add);
  // nullptr for other phases, which are left out.
  const RecordValues* add(const records::RequestRecord& r);
  // Aggregates, statistics and the error summary; per_record is left empty. Call once.
  BenchmarkResult finish();
  const MetricOptions& options() const { return options_; }
  // Timeslices need no token facts.
  void skip_token_facts() { token_facts_ = false; }
  // Bytes of column values held in memory, every value counted at 8 bytes (the width it may widen
  // to); past them every column's values go to the accumulator's scratch file
  // (MetricColumn::spill). 0 spills after every record; SIZE_MAX never spills by itself (a
  // TimesliceAccumulator spills its slices together). The default is column_memory_budget().
  void set_memory_budget(std::size_t bytes) { budget_ = bytes; }
  // Columns larger than this many bytes (8 per value) are not read back whole for their
  // statistics: their percentiles come from column_stats_by_selection, holding about this much.
  // The default is column_read_back_limit().
  void set_read_back_limit(std::size_t bytes) { read_back_limit_ = bytes; }
  // Values held in memory now.
  std::size_t held_values() const { return held_values_; }
  // Spills every column's held values to `scratch`; false (and spill_failed()) when a write fails.
  bool spill_all(const std::shared_ptr<ColumnScratch>& scratch);
  // Values that went through scratch files, and whether a spill failed (a full disk: from then on
  // the columns stay in memory).
  std::size_t spilled_values() const { return spilled_values_; }
  bool spill_failed() const { return spill_failed_; }

 private:
  // Read back whole and sorted, or by selection past the read-back limit.
  core::Stats column_stats(const MetricColumn& column, double scale) const;

  MetricOptions options_;
  BenchmarkResult out_;
  std::unordered_map<const MetricInfo*, MetricColumn> values_;
  std::size_t expected_ = 0;
  std::size_t budget_;
  std::size_t read_back_limit_;
  std::shared_ptr<ColumnScratch> scratch_ = std::make_shared<ColumnScratch>();  // opened on use
  std::size_t held_values_ = 0;
  std::size_t spilled_values_ = 0;
  bool spill_failed_ = false;
  std::vector<const MetricInfo*> keep_;
  std::int64_t good_ = 0;
  bool usage_compared_ = false, any_requested_osl_ = false, token_facts_ = true;
  std::map<std::tuple<int, std::string, std::string>, std::int64_t> error_groups_;
  RecordValues current_;
};

// Whole-vector forms of the accumulator (they also fill per_record and keep the base values of
// the network-adjusted metrics' sources).
BenchmarkResult compute_metrics(const std::vector<records::RequestRecord>& records,
                                const MetricOptions& options);
// The same over a subset of records (e.g. one timeslice); the records must outlive the result.
BenchmarkResult compute_metrics(const std::vector<const records::RequestRecord*>& records,
                                const MetricOptions& options);

// The memory budget of an accumulator's columns: 64 MiB, or INFERPERF_COLUMN_MEMORY_MB (mebibytes)
// when set.
std::size_t column_memory_budget();
// The largest column read back whole for its statistics: the memory budget, at least 8 MiB (so a
// zero budget, which spills after every record, still reads small columns back whole).
std::size_t column_read_back_limit();

// The record metrics the network-adjusted metrics are derived from (request_latency,
// time_to_first_token, time_to_first_output_token).
std::vector<const MetricInfo*> network_sources();

// `count` is within the OSL mismatch tolerance of the requested max tokens: min(pct, tokens).
bool within_requested_osl(double count, double requested, const MetricOptions& o);

// One record's token facts, and its side of the OSL split (non-error records only count).
TokenFacts token_facts_of(const records::RequestRecord& r);
void add_osl_split(const records::RequestRecord& r, const MetricOptions& o, OslSplit& s);

// The objectives of --goodput targets (config parsed their syntax): each tag must name a
// per-request metric of the catalogue; thresholds go from display to base units. Errors name the
// offending tag.
std::optional<std::string> resolve_goodput(const std::vector<core::GoodputTarget>& targets,
                                           std::vector<GoodputObjective>& out);
// The same from the --goodput text (core::parse_goodput_targets, then resolve_goodput).
std::optional<std::string> parse_goodput(const std::string& spec,
                                         std::vector<GoodputObjective>& out);

}  // namespace inferperf::metrics
