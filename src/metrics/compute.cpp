#include "metrics/compute.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "metrics/record_values.hpp"

namespace inferperf::metrics {

const MetricResult* BenchmarkResult::find(std::string_view tag) const {
  for (const auto& m : metrics) {
    if (m.info->tag == tag) return &m;
  }
  return nullptr;
}

namespace {

const MetricInfo& info(std::string_view tag) {
  return *find_metric(tag);
}

using Values = std::unordered_map<const MetricInfo*, std::vector<double>>;

// The usage record metrics whose sums are the `total_` metric of the same name.
constexpr std::string_view kUsageDetails[] = {
    "usage_reasoning_tokens",           "usage_prompt_cache_read_tokens",
    "usage_prompt_cache_write_tokens",  "usage_prompt_cache_miss_tokens",
    "usage_tool_use_prompt_tokens",     "usage_prompt_audio_seconds",
    "usage_prompt_audio_tokens",        "usage_completion_audio_tokens",
    "usage_accepted_prediction_tokens", "usage_rejected_prediction_tokens",
};

std::optional<double> sum_of(const Values& values, std::string_view tag) {
  auto it = values.find(&info(tag));
  if (it == values.end() || it->second.empty()) return std::nullopt;
  return std::accumulate(it->second.begin(), it->second.end(), 0.0);
}

bool lacks_token_counts(const records::RequestRecord& r, const MetricOptions& o) {
  if (!o.produces_tokens) return false;
  return o.token_source == TokenSource::kServerUsage ? !r.usage.completion_tokens
                                                     : !r.client_tokens.output;
}

// Aggregate and derived values from the pooled record values (base units).
std::unordered_map<const MetricInfo*, double> scalars_of(const Values& values,
                                                         const BenchmarkResult& out,
                                                         const MetricOptions& o, std::int64_t good,
                                                         bool usage_compared,
                                                         bool any_requested_osl) {
  std::unordered_map<const MetricInfo*, double> s;
  auto set = [&](std::string_view tag, double v) { s[&info(tag)] = v; };
  auto set_sum = [&](std::string_view total, std::string_view of) {
    if (auto v = sum_of(values, of)) set(total, *v);
  };
  if (out.valid_count > 0) {
    const double duration_ns =
        static_cast<double>(out.max_response_end_ns - out.min_request_start_ns);
    const auto output = sum_of(values, "output_token_count");
    const auto reasoning = sum_of(values, "reasoning_token_count");
    const double isl = sum_of(values, "input_sequence_length").value_or(0);
    set("request_count", static_cast<double>(out.valid_count));
    if (duration_ns > 0) {
      const double secs = duration_ns / 1e9;
      set("benchmark_duration", duration_ns);
      set("request_throughput", static_cast<double>(out.valid_count) / secs);
      if (output || reasoning) {
        const double osl = output.value_or(0) + reasoning.value_or(0);
        set("output_token_throughput", osl / secs);
        set("total_token_throughput", (isl + osl) / secs);
      }
      if (!o.goodput.empty()) set("goodput", static_cast<double>(good) / secs);
    }
    if (!o.goodput.empty()) set("good_request_count", static_cast<double>(good));
    if (output) set("total_output_tokens", *output);
    if (reasoning) set("total_reasoning_tokens", *reasoning);
    if (output || reasoning) set("total_osl", output.value_or(0) + reasoning.value_or(0));
    set_sum("total_isl", "input_sequence_length");
    set_sum("total_usage_prompt_tokens", "usage_prompt_tokens");
    set_sum("total_usage_completion_tokens", "usage_completion_tokens");
    set_sum("total_usage_total_tokens", "usage_total_tokens");
    for (std::string_view field : kUsageDetails) {
      set_sum(std::string("total_") + std::string(field), field);
    }
    const auto cache_read = sum_of(values, "usage_prompt_cache_read_tokens");
    const auto prompt = sum_of(values, "usage_prompt_tokens");
    if (cache_read && prompt && *prompt > 0)
      set("overall_usage_prompt_cache_read_pct", 100.0 * *cache_read / *prompt);
    if (any_requested_osl) set("osl_mismatch_count", static_cast<double>(out.osl_mismatches));
    if (usage_compared)
      set("usage_discrepancy_count", static_cast<double>(out.usage_discrepancies));
  }
  if (out.error_count > 0) {
    set("error_request_count", static_cast<double>(out.error_count));
    set_sum("total_error_isl", "error_isl");
  }
  if (!o.goodput.empty()) {
    // Attempts include the failed requests (an error is never good); 0 when nothing was attempted.
    const double attempted = static_cast<double>(out.valid_count + out.error_count);
    set("good_request_fraction", attempted > 0 ? static_cast<double>(good) / attempted : 0.0);
  }
  return s;
}

}  // namespace

BenchmarkResult compute_metrics(const std::vector<records::RequestRecord>& records,
                                const MetricOptions& options) {
  std::vector<const records::RequestRecord*> all;
  all.reserve(records.size());
  for (const auto& r : records) all.push_back(&r);
  return compute_metrics(all, options);
}

BenchmarkResult compute_metrics(const std::vector<const records::RequestRecord*>& records,
                                const MetricOptions& options) {
  BenchmarkResult out;
  Values values;
  std::int64_t good = 0;
  bool usage_compared = false, any_requested_osl = false;
  std::map<std::tuple<int, std::string, std::string>, std::int64_t> error_groups;
  out.min_request_start_ns = std::numeric_limits<core::MonoNs>::max();
  out.max_response_end_ns = std::numeric_limits<core::MonoNs>::min();

  for (const records::RequestRecord* rp : records) {
    const records::RequestRecord& r = *rp;
    if (r.phase != records::Phase::kProfiling) continue;
    RecordFlags flags;
    RecordValues rv = record_values(r, options, flags);
    for (const auto& [mi, x] : rv.scalars) values[mi].push_back(x);
    for (const auto& [mi, list] : rv.lists) {
      auto& pooled = values[mi];
      pooled.insert(pooled.end(), list.begin(), list.end());
    }
    if (r.valid()) {
      ++out.valid_count;
      out.min_request_start_ns = std::min(out.min_request_start_ns, r.start_ns);
      out.max_response_end_ns = std::max(out.max_response_end_ns, r.content_events.back().ts_ns);
      if (lacks_token_counts(r, options)) ++out.records_without_usage;
      if (r.requested_osl) any_requested_osl = true;
      out.osl_mismatches += flags.osl_mismatch;
      usage_compared |= flags.usage_compared;
      out.usage_discrepancies += flags.usage_discrepancy;
      good += rv.good;
    } else {
      ++out.error_count;
      const auto& e = r.error ? *r.error : records::ErrorInfo{};
      // Grouped and ordered by the exported name, so an HTTP reason phrase is a group of its own.
      error_groups[{e.code.value_or(std::numeric_limits<int>::min()), std::string(e.type.name()),
                    e.message}]++;
    }
    out.per_record.push_back(std::move(rv));
  }
  if (out.valid_count == 0) {
    out.min_request_start_ns = 0;
    out.max_response_end_ns = 0;
  }
  const auto scalars = scalars_of(values, out, options, good, usage_compared, any_requested_osl);

  for (const auto& mi : catalogue()) {
    if (mi.visibility == Visibility::kExperimental && !options.experimental) continue;
    if (auto it = values.find(&mi); it != values.end() && !it->second.empty()) {
      MetricResult m;
      m.info = &mi;
      for (double& x : it->second) x /= mi.scale;
      m.stats = core::compute_stats(std::move(it->second));
      out.metrics.push_back(std::move(m));
    } else if (auto s = scalars.find(&mi); s != scalars.end()) {
      MetricResult m;
      m.info = &mi;
      m.scalar = true;
      m.value = s->second / mi.scale;
      out.metrics.push_back(std::move(m));
    }
  }
  for (const auto& [key, count] : error_groups) {
    const auto& [code, type, message] = key;
    ErrorSummaryEntry e;
    if (code != std::numeric_limits<int>::min()) e.code = code;
    e.type = type;
    e.message = message;
    e.count = count;
    out.errors.push_back(std::move(e));
  }
  std::stable_sort(out.errors.begin(), out.errors.end(),
                   [](const auto& a, const auto& b) { return a.count > b.count; });
  return out;
}

}  // namespace inferperf::metrics
