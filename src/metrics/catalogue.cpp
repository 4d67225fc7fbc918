#include "metrics/catalogue.hpp"

namespace inferperf::metrics {

namespace {
constexpr double kMs = 1e6;
constexpr double kSec = 1e9;
}  // namespace

const std::vector<MetricInfo>& catalogue() {
  // JSON order: AIPerf's declared top-level fields first, then the remaining tags in processing
  // order; inferperf's own keys come after all of them.
  static const std::vector<MetricInfo> kAll = {
      {"request_throughput", "Request Throughput", "requests/sec", 1, MetricKind::kDerived, 900},
      {"request_latency", "Request Latency", "ms", kMs, MetricKind::kRecord, 300},
      {"request_count", "Request Count", "requests", 1, MetricKind::kAggregate, 1100, true},
      {"time_to_first_token", "Time to First Token", "ms", kMs, MetricKind::kRecord, 100},
      {"time_to_second_token", "Time to Second Token", "ms", kMs, MetricKind::kRecord, 200},
      {"inter_token_latency", "Inter Token Latency", "ms", kMs, MetricKind::kRecord, 400},
      {"output_token_throughput", "Output Token Throughput", "tokens/sec", 1, MetricKind::kDerived,
       800},
      {"output_token_throughput_per_user", "Output Token Throughput Per User", "tokens/sec/user", 1,
       MetricKind::kRecord, 500},
      {"output_sequence_length", "Output Sequence Length", "tokens", 1, MetricKind::kRecord, 600},
      {"input_sequence_length", "Input Sequence Length", "tokens", 1, MetricKind::kRecord, 700},
      {"output_token_count", "Output Token Count", "tokens", 1, MetricKind::kRecord, 0},
      {"reasoning_token_count", "Reasoning Token Count", "tokens", 1, MetricKind::kRecord, 0},
      {"inter_chunk_latency", "Inter Chunk Latency", "ms", kMs, MetricKind::kRecord, 0},
      {"total_output_tokens", "Total Output Tokens", "tokens", 1, MetricKind::kDerived, 0, true},
      {"total_reasoning_tokens", "Total Reasoning Tokens", "tokens", 1, MetricKind::kDerived, 0,
       true},
      {"benchmark_duration", "Benchmark Duration", "sec", kSec, MetricKind::kDerived, 0},
      {"total_isl", "Total ISL", "tokens", 1, MetricKind::kDerived, 0, true},
      {"total_osl", "Total OSL", "tokens", 1, MetricKind::kDerived, 0, true},
      {"error_request_count", "Error Request Count", "requests", 1, MetricKind::kAggregate, 0,
       true},
      // Remaining AIPerf tags, processing order.
      {"time_to_first_output_token", "Time to First Output Token", "ms", kMs, MetricKind::kRecord,
       210},
      {"prefill_throughput_per_user", "Prefill Throughput Per User", "tokens/sec/user", 1,
       MetricKind::kRecord, 0},
      {"total_token_throughput", "Total Token Throughput", "tokens/sec", 1, MetricKind::kDerived,
       0},
      {"usage_prompt_tokens", "Usage Prompt Tokens", "tokens", 1, MetricKind::kRecord, 0},
      {"usage_completion_tokens", "Usage Completion Tokens", "tokens", 1, MetricKind::kRecord, 0},
      {"usage_total_tokens", "Usage Total Tokens", "tokens", 1, MetricKind::kRecord, 0},
      {"usage_reasoning_tokens", "Usage Reasoning Tokens", "tokens", 1, MetricKind::kRecord, 0},
      {"total_usage_prompt_tokens", "Total Usage Prompt Tokens", "tokens", 1, MetricKind::kDerived,
       0, true},
      {"total_usage_completion_tokens", "Total Usage Completion Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true},
      {"total_usage_total_tokens", "Total Usage Total Tokens", "tokens", 1, MetricKind::kDerived, 0,
       true},
      {"osl_mismatch_diff_pct", "OSL Mismatch Diff %", "%", 1, MetricKind::kRecord, 0},
      {"osl_mismatch_count", "OSL Mismatch Count", "requests", 1, MetricKind::kAggregate, 0, true},
      // inferperf additions (after every AIPerf key).
      {"schedule_lag", "Schedule Lag", "ms", kMs, MetricKind::kRecord, 0},
  };
  return kAll;
}

const MetricInfo* find_metric(std::string_view tag) {
  for (const auto& m : catalogue()) {
    if (m.tag == tag) return &m;
  }
  return nullptr;
}

}  // namespace inferperf::metrics
