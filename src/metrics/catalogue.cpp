#include "metrics/catalogue.hpp"

#include <unordered_map>

namespace inferperf::metrics {

namespace {
constexpr double kMs = 1e6;
constexpr double kSec = 1e9;
constexpr double kKb = 1024;  // bytes -> KB, as AIPerf
constexpr ConsoleGroup kGroupNone = ConsoleGroup::kNone;
constexpr ConsoleGroup kGroupDefault = ConsoleGroup::kDefault;
constexpr ConsoleGroup kGroupUsage = ConsoleGroup::kUsage;
}  // namespace

std::string_view to_string(ConsoleGroup g) {
  switch (g) {
    case ConsoleGroup::kNone:
      return "none";
    case ConsoleGroup::kDefault:
      return "default";
    case ConsoleGroup::kUsage:
      return "usage";
    case ConsoleGroup::kCache:
      return "cache";
    case ConsoleGroup::kPrediction:
      return "prediction";
    case ConsoleGroup::kAudio:
      return "audio";
    case ConsoleGroup::kReasoning:
      return "reasoning";
  }
  return "none";
}

namespace {

// AIPerf's declared top-level fields, in the order of its JSON export.
std::vector<MetricInfo> aiperf_declared_fields() {
  return {
      {"request_throughput", "Request Throughput", "requests/sec", 1, MetricKind::kDerived, 900,
       false, true, Visibility::kNormal, kGroupDefault},
      {"request_latency", "Request Latency", "ms", kMs, MetricKind::kRecord, 300, false, false,
       Visibility::kNormal, kGroupDefault},
      {"request_count", "Request Count", "requests", 1, MetricKind::kAggregate, 1100, true, true,
       Visibility::kNormal, kGroupDefault},
      {"time_to_first_token", "Time to First Token", "ms", kMs, MetricKind::kRecord, 100, false,
       false, Visibility::kNormal, kGroupDefault},
      {"time_to_second_token", "Time to Second Token", "ms", kMs, MetricKind::kRecord, 200, false,
       false, Visibility::kNormal, kGroupDefault},
      {"inter_token_latency", "Inter Token Latency", "ms", kMs, MetricKind::kRecord, 400, false,
       false, Visibility::kNormal, kGroupDefault},
      {"output_token_throughput", "Output Token Throughput", "tokens/sec", 1, MetricKind::kDerived,
       800, false, true, Visibility::kNormal, kGroupDefault},
      {"output_token_throughput_per_user", "Output Token Throughput Per User", "tokens/sec/user", 1,
       MetricKind::kRecord, 500, false, true, Visibility::kNormal, kGroupDefault},
      {"output_sequence_length", "Output Sequence Length", "tokens", 1, MetricKind::kRecord, 600,
       false, true, Visibility::kNormal, kGroupDefault},
      {"input_sequence_length", "Input Sequence Length", "tokens", 1, MetricKind::kRecord, 700,
       false, true, Visibility::kNormal, kGroupDefault},
      {"goodput", "Goodput", "requests/sec", 1, MetricKind::kDerived, 1000, false, true,
       Visibility::kNormal, kGroupDefault},
      {"good_request_count", "Good Request Count", "requests", 1, MetricKind::kAggregate, 0, true,
       true, Visibility::kNormal, kGroupNone},
      {"image_throughput", "Image Throughput", "images/sec", 1, MetricKind::kRecord, 860, false,
       true, Visibility::kNormal, kGroupDefault},
      {"image_latency", "Image Latency", "ms/image", kMs, MetricKind::kRecord, 861, false, false,
       Visibility::kNormal, kGroupDefault},
      {"video_inference_time", "Video Inference Time", "ms", kMs, MetricKind::kRecord, 310, false,
       false, Visibility::kNormal, kGroupDefault},
      {"video_peak_memory", "Video Peak Memory", "MB", 1, MetricKind::kRecord, 311, false, false,
       Visibility::kNormal, kGroupDefault},
      {"num_images", "Number of Images", "images", 1, MetricKind::kRecord, 0, false, true,
       Visibility::kNormal, kGroupNone},
      {"output_token_count", "Output Token Count", "tokens", 1, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"reasoning_token_count", "Reasoning Token Count", "tokens", 1, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"inter_chunk_latency", "Inter Chunk Latency", "ms", kMs, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"total_output_tokens", "Total Output Tokens", "tokens", 1, MetricKind::kDerived, 0, true,
       false, Visibility::kNormal, kGroupNone},
      {"total_reasoning_tokens", "Total Reasoning Tokens", "tokens", 1, MetricKind::kDerived, 0,
       true, false, Visibility::kNormal, kGroupNone},
      {"benchmark_duration", "Benchmark Duration", "sec", kSec, MetricKind::kDerived, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"total_isl", "Total Input Sequence Length", "tokens", 1, MetricKind::kDerived, 0, true,
       false, Visibility::kNormal, kGroupNone},
      {"total_osl", "Total Output Sequence Length", "tokens", 1, MetricKind::kDerived, 0, true,
       false, Visibility::kNormal, kGroupNone},
      {"error_request_count", "Error Request Count", "requests", 1, MetricKind::kAggregate, 0, true,
       false, Visibility::kNormal, kGroupDefault},
      {"error_isl", "Error Input Sequence Length", "tokens", 1, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"total_error_isl", "Total Error Input Sequence Length", "tokens", 1, MetricKind::kDerived, 0,
       true, false, Visibility::kNormal, kGroupNone},
  };
}

// The remaining AIPerf tags, in processing order (after the declared fields in the JSON).
std::vector<MetricInfo> aiperf_other_tags() {
  return {
      {"time_to_first_output_token", "Time to First Output Token", "ms", kMs, MetricKind::kRecord,
       210, false, false, Visibility::kNormal, kGroupDefault},
      {"prefill_throughput_per_user", "Prefill Throughput Per User", "tokens/sec/user", 1,
       MetricKind::kRecord, 0, false, true, Visibility::kNormal, kGroupNone},
      // Per request, so it counts the time to the first token too (unlike the per-user rate).
      {"e2e_output_token_throughput", "E2E Output Token Throughput", "tokens/sec/user", 1,
       MetricKind::kRecord, 510, false, true, Visibility::kNormal, kGroupDefault},
      {"total_token_throughput", "Total Token Throughput", "tokens/sec", 1, MetricKind::kDerived, 0,
       false, true, Visibility::kNormal, kGroupNone},
      {"usage_prompt_tokens", "Usage Prompt Tokens", "tokens", 1, MetricKind::kRecord, 0, false,
       true, Visibility::kNormal, kGroupUsage},
      {"usage_completion_tokens", "Usage Completion Tokens", "tokens", 1, MetricKind::kRecord, 0,
       false, true, Visibility::kNormal, kGroupUsage},
      {"usage_total_tokens", "Usage Total Tokens", "tokens", 1, MetricKind::kRecord, 0, false, true,
       Visibility::kNormal, kGroupUsage},
      {"usage_reasoning_tokens", "Usage Reasoning Tokens", "tokens", 1, MetricKind::kRecord, 0,
       false, true, Visibility::kNormal, kGroupUsage},
      // Usage details (AIPerf 0.11): present only for records whose server sent the field.
      {"usage_prompt_cache_read_tokens", "Usage Prompt Cache Read Tokens", "tokens", 1,
       MetricKind::kRecord, 0, false, true, Visibility::kNormal, kGroupUsage},
      {"usage_prompt_cache_write_tokens", "Usage Prompt Cache Write Tokens", "tokens", 1,
       MetricKind::kRecord, 0, false, false, Visibility::kNormal, kGroupUsage},
      {"usage_prompt_cache_miss_tokens", "Usage Prompt Cache Miss Tokens", "tokens", 1,
       MetricKind::kRecord, 0, false, false, Visibility::kNormal, kGroupUsage},
      {"usage_tool_use_prompt_tokens", "Usage Tool Use Prompt Tokens", "tokens", 1,
       MetricKind::kRecord, 0, false, false, Visibility::kNormal, kGroupUsage},
      {"usage_prompt_audio_seconds", "Usage Prompt Audio Seconds", "sec", 1, MetricKind::kRecord, 0,
       false, true, Visibility::kNormal, kGroupUsage},
      {"usage_prompt_audio_tokens", "Usage Prompt Audio Tokens", "tokens", 1, MetricKind::kRecord,
       0, false, true, Visibility::kNormal, kGroupUsage},
      {"usage_completion_audio_tokens", "Usage Completion Audio Tokens", "tokens", 1,
       MetricKind::kRecord, 0, false, true, Visibility::kNormal, kGroupUsage},
      {"usage_accepted_prediction_tokens", "Usage Accepted Prediction Tokens", "tokens", 1,
       MetricKind::kRecord, 0, false, true, Visibility::kNormal, kGroupUsage},
      {"usage_rejected_prediction_tokens", "Usage Rejected Prediction Tokens", "tokens", 1,
       MetricKind::kRecord, 0, false, false, Visibility::kNormal, kGroupUsage},
      {"total_usage_prompt_tokens", "Total Usage Prompt Tokens", "tokens", 1, MetricKind::kDerived,
       0, true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_completion_tokens", "Total Usage Completion Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_total_tokens", "Total Usage Total Tokens", "tokens", 1, MetricKind::kDerived, 0,
       true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_reasoning_tokens", "Total Usage Reasoning Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_prompt_cache_read_tokens", "Total Usage Prompt Cache Read Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_prompt_cache_write_tokens", "Total Usage Prompt Cache Write Tokens", "tokens",
       1, MetricKind::kDerived, 0, true, false, Visibility::kNormal, kGroupUsage},
      {"total_usage_prompt_cache_miss_tokens", "Total Usage Prompt Cache Miss Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true, false, Visibility::kNormal, kGroupUsage},
      {"total_usage_tool_use_prompt_tokens", "Total Usage Tool Use Prompt Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true, false, Visibility::kNormal, kGroupUsage},
      {"total_usage_prompt_audio_seconds", "Total Usage Prompt Audio Seconds", "sec", 1,
       MetricKind::kDerived, 0, false, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_prompt_audio_tokens", "Total Usage Prompt Audio Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_completion_audio_tokens", "Total Usage Completion Audio Tokens", "tokens", 1,
       MetricKind::kDerived, 0, true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_accepted_prediction_tokens", "Total Usage Accepted Prediction Tokens", "tokens",
       1, MetricKind::kDerived, 0, true, true, Visibility::kNormal, kGroupUsage},
      {"total_usage_rejected_prediction_tokens", "Total Usage Rejected Prediction Tokens", "tokens",
       1, MetricKind::kDerived, 0, true, false, Visibility::kNormal, kGroupUsage},
      {"overall_usage_prompt_cache_read_pct", "Overall Usage Prompt Cache Read %", "%", 1,
       MetricKind::kDerived, 0, false, true, Visibility::kNormal, kGroupUsage},
      // Only with --goodput objectives.
      {"good_request_fraction", "GoodRequestFraction", "ratio", 1, MetricKind::kDerived, 0, false,
       true, Visibility::kNormal, kGroupNone},
      {"usage_prompt_tokens_diff_pct", "Usage Prompt Diff %", "%", 1, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"usage_completion_tokens_diff_pct", "Usage Completion Diff %", "%", 1, MetricKind::kRecord,
       0, false, false, Visibility::kNormal, kGroupNone},
      {"usage_reasoning_tokens_diff_pct", "Usage Reasoning Diff %", "%", 1, MetricKind::kRecord, 0,
       false, false, Visibility::kNormal, kGroupNone},
      {"usage_discrepancy_count", "Usage Discrepancy Count", "requests", 1, MetricKind::kAggregate,
       0, true, false, Visibility::kNormal, kGroupNone},
      {"requested_osl", "Requested OSL", "tokens", 1, MetricKind::kRecord, 0, false, false,
       Visibility::kExperimental, kGroupNone},
      {"osl_mismatch_diff_pct", "OSL Mismatch Diff %", "%", 1, MetricKind::kRecord, 0, false, false,
       Visibility::kNormal, kGroupNone},
      {"osl_mismatch_count", "OSL Mismatch Count", "requests", 1, MetricKind::kAggregate, 0, true,
       false, Visibility::kNormal, kGroupNone},
      {"http_req_blocked", "HTTP Blocked", "ms", kMs, MetricKind::kRecord, 2000, false, false,
       Visibility::kTrace, kGroupNone},
      {"http_req_dns_lookup", "HTTP DNS Lookup", "ms", kMs, MetricKind::kRecord, 2010, false, false,
       Visibility::kTrace, kGroupNone},
      {"http_req_connecting", "HTTP Connecting", "ms", kMs, MetricKind::kRecord, 2020, false, false,
       Visibility::kTrace, kGroupNone},
      {"http_req_sending", "HTTP Sending", "ms", kMs, MetricKind::kRecord, 2030, false, false,
       Visibility::kTrace, kGroupNone},
      {"http_req_waiting", "HTTP Waiting (TTFB)", "ms", kMs, MetricKind::kRecord, 2040, false,
       false, Visibility::kTrace, kGroupNone},
      {"http_req_receiving", "HTTP Receiving", "ms", kMs, MetricKind::kRecord, 2050, false, false,
       Visibility::kTrace, kGroupNone},
      {"http_req_duration", "HTTP Duration (excl. conn)", "ms", kMs, MetricKind::kRecord, 2060,
       false, false, Visibility::kTrace, kGroupNone},
      {"http_req_connection_overhead", "HTTP Connection Overhead", "ms", kMs, MetricKind::kRecord,
       2070, false, false, Visibility::kTrace, kGroupNone},
      {"http_req_total", "HTTP Total Time", "ms", kMs, MetricKind::kRecord, 2080, false, false,
       Visibility::kTrace, kGroupNone},
      {"http_req_data_sent", "HTTP Data Sent", "KB", kKb, MetricKind::kRecord, 2090, false, false,
       Visibility::kTrace, kGroupNone},
      {"http_req_data_received", "HTTP Data Received", "KB", kKb, MetricKind::kRecord, 2100, false,
       false, Visibility::kTrace, kGroupNone},
      {"http_req_connection_reused", "HTTP Connection Reused", "ratio", 1, MetricKind::kRecord,
       2110, false, false, Visibility::kTrace, kGroupNone},
      {"http_req_chunks_sent", "HTTP Chunks Sent", "count", 1, MetricKind::kRecord, 2120, false,
       false, Visibility::kTrace, kGroupNone},
      {"http_req_chunks_received", "HTTP Chunks Received", "count", 1, MetricKind::kRecord, 2130,
       false, false, Visibility::kTrace, kGroupNone},
      // The latencies less the network round trip (AIPerf 0.11, #1066): added by the report
      // (report/network_latency.cpp) with --network-latency-automatic or --network-latency-mean.
      {"network_adjusted_request_latency", "Network-Adjusted Request Latency", "ms", kMs,
       MetricKind::kDerived, 0, false, false, Visibility::kNormal, kGroupDefault},
      {"network_adjusted_time_to_first_token", "Network-Adjusted Time to First Token", "ms", kMs,
       MetricKind::kDerived, 0, false, false, Visibility::kNormal, kGroupDefault},
      {"network_adjusted_time_to_first_output_token", "Network-Adjusted Time to First Output Token",
       "ms", kMs, MetricKind::kDerived, 0, false, false, Visibility::kNormal, kGroupDefault},
      {"network_rtt", "Network RTT", "ms", kMs, MetricKind::kDerived, 0, false, false,
       Visibility::kNormal, kGroupDefault},
      // GPU power and energy over the profiling window (AIPerf 0.11, #803): derived from the GPU
      // telemetry by the report (report/gpu_energy.cpp), only when telemetry has the readings.
      {"total_gpu_power", "Total GPU Power", "W", 1, MetricKind::kDerived, 1200, false, false,
       Visibility::kNormal, kGroupDefault},
      {"total_gpu_energy", "Total GPU Energy", "J", 1, MetricKind::kDerived, 1210, false, false,
       Visibility::kNormal, kGroupDefault},
      {"output_tokens_per_joule", "Output Tokens per Joule", "tokens/J", 1, MetricKind::kDerived,
       1220, false, true, Visibility::kNormal, kGroupDefault},
      {"energy_per_user", "Energy per User", "joules/user", 1, MetricKind::kDerived, 1230, false,
       false, Visibility::kNormal, kGroupDefault},
  };
}

// inferperf's additions, after every AIPerf key.
std::vector<MetricInfo> inferperf_own_metrics() {
  return {
      {"schedule_lag", "Schedule Lag", "ms", kMs, MetricKind::kRecord, 0, false, false,
       Visibility::kNormal, kGroupNone},
      {"effective_latency", "Effective Request Latency", "ms", kMs, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"effective_time_to_first_token", "Effective Time to First Token", "ms", kMs,
       MetricKind::kRecord, 0, false, false, Visibility::kNormal, kGroupNone},
      {"per_token_itl", "Per-Token Inter Token Latency", "ms", kMs, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"coalesced_event_count", "Coalesced Event Count", "count", 1, MetricKind::kRecord, 0, false,
       false, Visibility::kNormal, kGroupNone},
      {"stream_stall_count", "Stream Stall Count", "count", 1, MetricKind::kRecord, 0, false, false,
       Visibility::kNormal, kGroupNone},
      {"vllm_tpot", "vLLM TPOT", "ms", kMs, MetricKind::kRecord, 0, false, false,
       Visibility::kCrossTool, kGroupNone},
      {"vllm_itl", "vLLM ITL", "ms", kMs, MetricKind::kRecord, 0, false, false,
       Visibility::kCrossTool, kGroupNone},
      {"guidellm_tpot", "GuideLLM TPOT", "ms", kMs, MetricKind::kRecord, 0, false, false,
       Visibility::kCrossTool, kGroupNone},
      {"ntpot", "Normalized TPOT", "ms", kMs, MetricKind::kRecord, 0, false, false,
       Visibility::kCrossTool, kGroupNone},
      // Joined with the server's own timings (llama.cpp `timings`); only when some record has them.
      {"server_prefill_time", "Server Prefill Time", "ms", kMs, MetricKind::kRecord, 3000, false,
       false, Visibility::kServerTimings, kGroupNone},
      {"server_decode_time", "Server Decode Time", "ms", kMs, MetricKind::kRecord, 3010, false,
       false, Visibility::kServerTimings, kGroupNone},
      {"server_time", "Server Time", "ms", kMs, MetricKind::kRecord, 3020, false, false,
       Visibility::kServerTimings, kGroupNone},
      {"client_overhead_time", "Network + Client Overhead", "ms", kMs, MetricKind::kRecord, 3030,
       false, false, Visibility::kServerTimings, kGroupNone},
      {"server_ttft_overhead", "TTFT Network + Client Overhead", "ms", kMs, MetricKind::kRecord,
       3040, false, false, Visibility::kServerTimings, kGroupNone},
  };
}

}  // namespace

const std::vector<MetricInfo>& catalogue() {
  // JSON order: AIPerf's declared top-level fields first, then the remaining tags in processing
  // order; inferperf's own keys come after all of them. Built once and never changed, so
  // pointers into it (MetricResult::info) stay valid.
  static const std::vector<MetricInfo> kAll = [] {
    std::vector<MetricInfo> all = aiperf_declared_fields();
    for (const auto& part : {aiperf_other_tags(), inferperf_own_metrics()})
      all.insert(all.end(), part.begin(), part.end());
    return all;
  }();
  return kAll;
}

const MetricInfo* find_metric(std::string_view tag) {
  // Looked up for every value of every record (record_values); a scan of the whole catalogue per
  // lookup was 2 % of a run's post-load CPU.
  static const std::unordered_map<std::string_view, const MetricInfo*> kByTag = [] {
    std::unordered_map<std::string_view, const MetricInfo*> by_tag;
    for (const auto& m : catalogue()) by_tag.emplace(m.tag, &m);  // the first of a tag wins
    return by_tag;
  }();
  const auto it = kByTag.find(tag);
  return it == kByTag.end() ? nullptr : it->second;
}

}  // namespace inferperf::metrics
