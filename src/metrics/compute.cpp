#include "metrics/compute.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "core/env_int.hpp"
#include "metrics/column_selection.hpp"
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

std::vector<const MetricInfo*> network_sources() {
  return {&info("request_latency"), &info("time_to_first_token"),
          &info("time_to_first_output_token")};
}

bool within_requested_osl(double count, double requested, const MetricOptions& o) {
  const double allowed = std::min(requested * o.osl_mismatch_pct_threshold / 100.0,
                                  o.osl_mismatch_max_token_threshold);
  return std::abs(count - requested) <= allowed;
}

namespace {

std::int32_t token_fact(std::optional<std::int64_t> v) {
  if (!v) return TokenFacts::kNone;
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(
      *v, std::numeric_limits<std::int32_t>::min() + 1, std::numeric_limits<std::int32_t>::max()));
}

}  // namespace

TokenFacts token_facts_of(const records::RequestRecord& r) {
  TokenFacts f;
  f.usage_prompt = token_fact(r.usage.prompt_tokens);
  f.usage_completion = token_fact(r.usage.completion_tokens);
  f.client_input = token_fact(r.client_tokens.input);
  if (r.client_tokens.output || r.client_tokens.reasoning)
    f.client_output =
        token_fact(r.client_tokens.output.value_or(0) + r.client_tokens.reasoning.value_or(0));
  if (r.requested_osl) f.requested_osl = token_fact(*r.requested_osl);
  return f;
}

void add_osl_split(const records::RequestRecord& r, const MetricOptions& o, OslSplit& s) {
  if (r.error || !r.requested_osl) return;
  const bool client = o.token_source == TokenSource::kClientTokenizer;
  std::optional<double> osl;
  if (client && (r.client_tokens.output || r.client_tokens.reasoning))
    osl = static_cast<double>(r.client_tokens.output.value_or(0) +
                              r.client_tokens.reasoning.value_or(0));
  if (!client && r.usage.completion_tokens) osl = static_cast<double>(*r.usage.completion_tokens);
  if (!osl) return;
  const double req = *r.requested_osl;
  if (within_requested_osl(*osl, req, o)) return;
  if (*osl < req) {
    ++s.shorter;
    return;
  }
  ++s.longer;
  if (client && r.usage.completion_tokens &&
      within_requested_osl(static_cast<double>(*r.usage.completion_tokens), req, o))
    ++s.longer_retokenized;
}

std::size_t column_memory_budget() {
  const core::EnvInt mb = core::env_int("INFERPERF_COLUMN_MEMORY_MB", 0, std::int64_t{1} << 30);
  return mb.valid() ? static_cast<std::size_t>(mb.value) << 20 : std::size_t{64} << 20;
}

std::size_t column_read_back_limit() {
  return std::max(column_memory_budget(), std::size_t{8} << 20);
}

MetricsAccumulator::MetricsAccumulator(MetricOptions options)
    : options_(std::move(options)),
      budget_(column_memory_budget()),
      read_back_limit_(column_read_back_limit()) {
  out_.min_request_start_ns = std::numeric_limits<core::MonoNs>::max();
  out_.max_response_end_ns = std::numeric_limits<core::MonoNs>::min();
}

bool MetricsAccumulator::spill_all(const std::shared_ptr<ColumnScratch>& scratch) {
  if (spill_failed_) return false;
  for (auto& [mi, column] : values_) {
    const std::size_t n = column.held_values();
    if (!column.spill(scratch)) {
      spill_failed_ = true;
      return false;
    }
    spilled_values_ += n;
    held_values_ -= n;
  }
  return true;
}

const RecordValues* MetricsAccumulator::add(const records::RequestRecord& r) {
  if (r.phase != records::Phase::kProfiling) return nullptr;
  const bool first = out_.profiling_requests == 0;
  ++out_.profiling_requests;
  out_.profiling_events += r.events;
  RecordFlags flags;
  current_ = record_values(r, options_, flags);
  auto column = [&](const MetricInfo* mi) -> MetricColumn& {
    auto [it, created] = values_.try_emplace(mi);
    if (created && first && expected_ > 0) it->second.reserve(expected_);
    return it->second;
  };
  std::size_t pushed = current_.scalars.size();
  for (const auto& [mi, x] : current_.scalars) column(mi).push(x);
  for (const auto& [mi, list] : current_.lists) {
    MetricColumn& pooled = column(mi);
    for (double x : list) pooled.push(x);
    pushed += list.size();
  }
  held_values_ += pushed;
  if (held_values_ > budget_ / sizeof(double)) spill_all(scratch_);
  if (!r.error) {
    add_osl_split(r, options_, out_.osl_split);
    if (token_facts_ && options_.token_source == TokenSource::kClientTokenizer)
      out_.token_facts.push_back(token_facts_of(r));
  }
  if (r.valid()) {
    ++out_.valid_count;
    out_.min_request_start_ns = std::min(out_.min_request_start_ns, r.start_ns);
    out_.max_response_end_ns = std::max(out_.max_response_end_ns, r.content_events.back().ts_ns);
    if (lacks_token_counts(r, options_)) ++out_.records_without_usage;
    if (r.requested_osl) any_requested_osl_ = true;
    out_.osl_mismatches += flags.osl_mismatch;
    usage_compared_ |= flags.usage_compared;
    out_.usage_discrepancies += flags.usage_discrepancy;
    good_ += current_.good;
  } else {
    ++out_.error_count;
    const auto& e = r.error ? *r.error : records::ErrorInfo{};
    // Grouped and ordered by the exported name, so an HTTP reason phrase is a group of its own.
    error_groups_[{e.code.value_or(std::numeric_limits<int>::min()), std::string(e.type.name()),
                   e.message}]++;
  }
  return &current_;
}

core::Stats MetricsAccumulator::column_stats(const MetricColumn& column, double scale) const {
  if (column.size() > read_back_limit_ / sizeof(double))
    return column_stats_by_selection(column, scale, read_back_limit_ / sizeof(double));
  std::vector<double> v = column.values();
  for (double& x : v) x /= scale;
  return core::compute_stats(std::move(v));
}

BenchmarkResult MetricsAccumulator::finish() {
  BenchmarkResult out = std::move(out_);
  if (out.valid_count == 0) {
    out.min_request_start_ns = 0;
    out.max_response_end_ns = 0;
  }
  for (const MetricInfo* mi : keep_) {
    if (auto it = values_.find(mi); it != values_.end() && !it->second.empty())
      out.base_values.emplace_back(mi, it->second.values());
  }
  // Sums for the aggregates; the columns are then turned into statistics one at a time.
  Values sums;
  for (const auto& [mi, column] : values_) {
    if (column.empty()) continue;
    sums[mi] = {column.sum()};
  }
  const auto scalars = scalars_of(sums, out, options_, good_, usage_compared_, any_requested_osl_);
  for (const auto& mi : catalogue()) {
    if (mi.visibility == Visibility::kExperimental && !options_.experimental) continue;
    if (auto it = values_.find(&mi); it != values_.end() && !it->second.empty()) {
      MetricResult m;
      m.info = &mi;
      m.stats = column_stats(it->second, mi.scale);
      it->second.clear();
      out.metrics.push_back(std::move(m));
    } else if (auto s = scalars.find(&mi); s != scalars.end()) {
      MetricResult m;
      m.info = &mi;
      m.scalar = true;
      m.value = s->second / mi.scale;
      out.metrics.push_back(std::move(m));
    }
  }
  for (const auto& [key, count] : error_groups_) {
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

BenchmarkResult compute_metrics(const std::vector<records::RequestRecord>& records,
                                const MetricOptions& options) {
  std::vector<const records::RequestRecord*> all;
  all.reserve(records.size());
  for (const auto& r : records) all.push_back(&r);
  return compute_metrics(all, options);
}

BenchmarkResult compute_metrics(const std::vector<const records::RequestRecord*>& records,
                                const MetricOptions& options) {
  MetricsAccumulator acc(options);
  acc.keep_base_values(network_sources());
  std::vector<RecordValues> per_record;
  for (const records::RequestRecord* r : records) {
    if (const RecordValues* rv = acc.add(*r)) {
      per_record.push_back(*rv);
      per_record.back().record = r;
    }
  }
  BenchmarkResult out = acc.finish();
  out.per_record = std::move(per_record);
  return out;
}

}  // namespace inferperf::metrics
