#include "metrics/compute.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <unordered_map>

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

struct TokenCounts {
  std::optional<double> output;     // non-reasoning output tokens
  std::optional<double> reasoning;  // reasoning tokens
  std::optional<double> input;
};

// AIPerf-named token metrics come from the client tokenizer, or from the server's usage with
// --use-server-token-count.
TokenCounts token_counts(const records::RequestRecord& r, metrics::TokenSource source) {
  TokenCounts t;
  if (source == metrics::TokenSource::kClientTokenizer) {
    if (r.client_tokens.input) t.input = static_cast<double>(*r.client_tokens.input);
    if (r.client_tokens.output) t.output = static_cast<double>(*r.client_tokens.output);
    if (r.client_tokens.reasoning) t.reasoning = static_cast<double>(*r.client_tokens.reasoning);
    return t;
  }
  if (r.usage.prompt_tokens) t.input = static_cast<double>(*r.usage.prompt_tokens);
  if (r.usage.completion_tokens) {
    double completion = static_cast<double>(*r.usage.completion_tokens);
    double reasoning =
        r.usage.reasoning_tokens ? static_cast<double>(*r.usage.reasoning_tokens) : 0.0;
    t.output = std::max(0.0, completion - reasoning);
    if (r.usage.reasoning_tokens) t.reasoning = reasoning;
  }
  return t;
}

RecordValues record_values(const records::RequestRecord& r, const MetricOptions& o,
                           bool& osl_mismatch) {
  RecordValues v;
  v.record = &r;
  auto put = [&](std::string_view tag, double x) { v.scalars.emplace_back(&info(tag), x); };
  const TokenCounts tok = token_counts(r, o.token_source);
  if (!r.valid()) {
    if (tok.input) v.error_isl = *tok.input;
    return v;
  }
  const auto& ev = r.content_events;
  const double start = static_cast<double>(r.start_ns);
  const double ttft = static_cast<double>(ev.front().ts_ns) - start;
  const double latency = static_cast<double>(ev.back().ts_ns) - start;
  std::optional<double> osl;
  if (tok.output || tok.reasoning) osl = tok.output.value_or(0) + tok.reasoning.value_or(0);

  if (o.streaming) {
    put("time_to_first_token", ttft);
    if (ev.size() >= 2) put("time_to_second_token", static_cast<double>(ev[1].ts_ns - ev[0].ts_ns));
    bool any_reasoning = false;
    for (const auto& e : ev) any_reasoning |= !e.reasoning.empty();
    if (any_reasoning) {
      for (const auto& e : ev) {
        if (!e.content.empty()) {
          put("time_to_first_output_token", static_cast<double>(e.ts_ns) - start);
          break;
        }
      }
    }
  }
  put("request_latency", latency);
  if (o.streaming && osl && *osl >= 2) {
    const double itl = (latency - ttft) / (*osl - 1);
    put("inter_token_latency", itl);
    if (itl > 0) put("output_token_throughput_per_user", 1e9 / itl);
  }
  if (osl) put("output_sequence_length", *osl);
  if (tok.input) put("input_sequence_length", *tok.input);
  if (tok.output) put("output_token_count", *tok.output);
  if (tok.reasoning && *tok.reasoning > 0) put("reasoning_token_count", *tok.reasoning);
  if (o.streaming) {
    for (std::size_t i = 1; i < ev.size(); ++i) {
      v.inter_chunk_ns.push_back(static_cast<double>(ev[i].ts_ns - ev[i - 1].ts_ns));
    }
    if (tok.input && ttft > 0) put("prefill_throughput_per_user", *tok.input / (ttft / 1e9));
  }
  if (r.usage.prompt_tokens)
    put("usage_prompt_tokens", static_cast<double>(*r.usage.prompt_tokens));
  if (r.usage.completion_tokens) {
    put("usage_completion_tokens", static_cast<double>(*r.usage.completion_tokens));
  }
  if (r.usage.total_tokens) put("usage_total_tokens", static_cast<double>(*r.usage.total_tokens));
  if (r.usage.reasoning_tokens) {
    put("usage_reasoning_tokens", static_cast<double>(*r.usage.reasoning_tokens));
  }
  if (r.requested_osl && osl && *r.requested_osl > 0) {
    const double req = *r.requested_osl;
    put("osl_mismatch_diff_pct", (*osl - req) / req * 100.0);
    const double allowed =
        std::min(req * o.osl_mismatch_pct_threshold / 100.0, o.osl_mismatch_max_token_threshold);
    osl_mismatch = std::abs(*osl - req) > allowed;
  }
  if (r.intended_ns > 0) put("schedule_lag", static_cast<double>(r.start_ns - r.intended_ns));
  return v;
}

bool lacks_token_counts(const records::RequestRecord& r, const MetricOptions& o) {
  return o.token_source == TokenSource::kServerUsage ? !r.usage.completion_tokens
                                                     : !r.client_tokens.output;
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
  std::unordered_map<const MetricInfo*, std::vector<double>> values;
  std::vector<double> icl;
  double total_isl = 0, total_output = 0, total_reasoning = 0;
  double total_usage_prompt = 0, total_usage_completion = 0, total_usage_total = 0;
  bool any_isl = false, any_output = false, any_reasoning = false;
  bool any_usage_prompt = false, any_usage_completion = false, any_usage_total = false;
  std::int64_t osl_mismatches = 0;
  bool any_requested_osl = false;
  std::map<std::tuple<int, std::string, std::string>, std::int64_t> error_groups;
  out.min_request_start_ns = std::numeric_limits<core::MonoNs>::max();
  out.max_response_end_ns = std::numeric_limits<core::MonoNs>::min();

  for (const records::RequestRecord* rp : records) {
    const records::RequestRecord& r = *rp;
    if (r.phase != records::Phase::kProfiling) continue;
    bool mismatch = false;
    RecordValues rv = record_values(r, options, mismatch);
    if (r.valid()) {
      ++out.valid_count;
      out.min_request_start_ns = std::min(out.min_request_start_ns, r.start_ns);
      out.max_response_end_ns = std::max(out.max_response_end_ns, r.content_events.back().ts_ns);
      if (lacks_token_counts(r, options)) ++out.records_without_usage;
      for (const auto& [mi, x] : rv.scalars) {
        values[mi].push_back(x);
        if (mi->tag == "input_sequence_length") {
          total_isl += x;
          any_isl = true;
        }
        if (mi->tag == "output_token_count") {
          total_output += x;
          any_output = true;
        }
        if (mi->tag == "reasoning_token_count") {
          total_reasoning += x;
          any_reasoning = true;
        }
        if (mi->tag == "usage_prompt_tokens") {
          total_usage_prompt += x;
          any_usage_prompt = true;
        }
        if (mi->tag == "usage_completion_tokens") {
          total_usage_completion += x;
          any_usage_completion = true;
        }
        if (mi->tag == "usage_total_tokens") {
          total_usage_total += x;
          any_usage_total = true;
        }
      }
      icl.insert(icl.end(), rv.inter_chunk_ns.begin(), rv.inter_chunk_ns.end());
      if (r.requested_osl) any_requested_osl = true;
      if (mismatch) ++osl_mismatches;
    } else {
      ++out.error_count;
      const auto& e = r.error ? *r.error : records::ErrorInfo{};
      error_groups[{e.code.value_or(std::numeric_limits<int>::min()), e.type, e.message}]++;
    }
    out.per_record.push_back(std::move(rv));
  }
  if (!icl.empty()) values[&info("inter_chunk_latency")] = std::move(icl);

  std::unordered_map<const MetricInfo*, double> scalars;
  if (out.valid_count > 0) {
    const double duration_ns =
        static_cast<double>(out.max_response_end_ns - out.min_request_start_ns);
    scalars[&info("request_count")] = static_cast<double>(out.valid_count);
    if (duration_ns > 0) {
      const double secs = duration_ns / 1e9;
      scalars[&info("benchmark_duration")] = duration_ns;
      scalars[&info("request_throughput")] = static_cast<double>(out.valid_count) / secs;
      if (any_output || any_reasoning) {
        const double total_osl = total_output + total_reasoning;
        scalars[&info("output_token_throughput")] = total_osl / secs;
        scalars[&info("total_token_throughput")] = (total_isl + total_osl) / secs;
      }
    }
    if (any_output) scalars[&info("total_output_tokens")] = total_output;
    if (any_reasoning) scalars[&info("total_reasoning_tokens")] = total_reasoning;
    if (any_output || any_reasoning) scalars[&info("total_osl")] = total_output + total_reasoning;
    if (any_isl) scalars[&info("total_isl")] = total_isl;
    if (any_usage_prompt) scalars[&info("total_usage_prompt_tokens")] = total_usage_prompt;
    if (any_usage_completion)
      scalars[&info("total_usage_completion_tokens")] = total_usage_completion;
    if (any_usage_total) scalars[&info("total_usage_total_tokens")] = total_usage_total;
    if (any_requested_osl)
      scalars[&info("osl_mismatch_count")] = static_cast<double>(osl_mismatches);
  } else {
    out.min_request_start_ns = 0;
    out.max_response_end_ns = 0;
  }
  if (out.error_count > 0)
    scalars[&info("error_request_count")] = static_cast<double>(out.error_count);

  for (const auto& mi : catalogue()) {
    if (auto it = values.find(&mi); it != values.end() && !it->second.empty()) {
      MetricResult m;
      m.info = &mi;
      for (double& x : it->second) x /= mi.scale;
      m.stats = compute_stats(std::move(it->second));
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
