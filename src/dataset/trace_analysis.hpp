// `inferperf analyze-trace`: the statistics of a Mooncake-style trace (AIPerf's analyze-trace,
// trace-formats.md §9) plus two rows of our own: tokens per hash_id and block reuse. Pure
// computation over rows already read; the command itself (file, console, JSON) is
// app/analyze/analyze_trace.
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace inferperf::dataset {

// The fields of one trace line that the analysis reads; everything else is ignored.
struct TraceRow {
  std::int64_t input_length = 0;
  std::int64_t output_length = 0;
  std::vector<std::int64_t> hash_ids;
};

// One parsed JSONL object as a row: `input_length` (default 0), `output_length` (0) and
// `hash_ids` ([]). A field of the wrong type is an error naming the file, line and field.
core::Result<TraceRow> trace_row_from_json(const nlohmann::ordered_json& line,
                                           const std::string& file, int line_no);

// Summary of one list of values: numpy mean, population standard deviation, min, linear
// percentiles and max. `p90` is ours (AIPerf stops at p75).
struct TraceStats {
  double mean = 0, std_dev = 0, min = 0, p25 = 0, median = 0, p75 = 0, p90 = 0, max = 0;
};

struct TraceAnalysis {
  // AIPerf's keys.
  std::int64_t total_requests = 0;
  std::int64_t unique_prefixes = 0;    // distinct hash-id prefixes ids[:i], i >= 1, over all rows
  std::int64_t num_prefix_groups = 0;  // distinct first ids that start at least two rows
  double cache_hit_rate = 0;           // mean of hit_rates; 0 when no row has hash ids
  std::int64_t min_isl = 0, max_isl = 0;
  double avg_isl = 0;
  std::int64_t min_osl = 0, max_osl = 0;
  double avg_osl = 0;
  double prefix_reuse_ratio = 0;  // prefix occurrences of prefixes seen more than once / all
  std::optional<TraceStats> isl_stats, osl_stats, context_length_stats, unique_prompt_length_stats,
      hit_rate_stats;  // empty list: no value

  // Ours, from the reference guide's "Inspect the Trace" table.
  std::optional<double> p90_isl, p90_osl;
  // Σ input_length over rows with hash ids / Σ len(hash_ids) of those rows; none without ids.
  std::optional<double> tokens_per_hash_id;
  // Share of (row, hash id) references whose id is referenced by at least two different rows;
  // none without ids.
  std::optional<double> block_reuse_ratio;

  // The per-row lists the statistics are computed from (rows in file order).
  std::vector<double> isl, osl, context_lengths, unique_prompt_lengths;
  std::vector<double> hit_rates;  // one per row with hash ids
};

// Every statistic of §9 for `rows` in file order. `block_size` (> 0) only affects the context
// lengths.
TraceAnalysis analyze_trace(const std::vector<TraceRow>& rows, std::int64_t block_size);

// The statistics of `values` (nullopt when empty).
std::optional<TraceStats> trace_stats(std::vector<double> values);

// The result as AIPerf writes it with --output-file (§9 keys in §9 order), followed by our keys
// (`p90` inside each *_stats object, then p90_isl, p90_osl, tokens_per_hash_id,
// block_reuse_ratio).
nlohmann::ordered_json trace_analysis_json(const TraceAnalysis& a);

}  // namespace inferperf::dataset
