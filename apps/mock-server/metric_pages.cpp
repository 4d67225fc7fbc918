#include "metric_pages.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>

namespace inferperf::mock {

std::string prom_escape_label(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '"') {
      out += "\\\"";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

std::string prom_escape_help(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out.push_back(c);
    }
  }
  return out;
}

namespace {

// Shortest round-trip digits of a finite v > 0 and its decimal exponent: v = d.ddd × 10^exp.
void shortest_digits(double v, std::string& digits, int& exp) {
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string_view s(buf, static_cast<std::size_t>(res.ptr - buf));
  const auto e = s.find('e');
  digits.clear();
  for (const char c : s.substr(0, e)) {
    if (c != '.') digits.push_back(c);
  }
  exp = std::atoi(std::string(s.substr(e + 1)).c_str());
}

}  // namespace

std::string python_float(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == 0) return std::signbit(v) ? "-0.0" : "0.0";
  const std::string sign = v < 0 ? "-" : "";
  std::string d;
  int exp = 0;
  shortest_digits(std::fabs(v), d, exp);
  if (exp < -4 || exp >= 16) {  // Python's repr switches to exponent form
    std::string m = d.substr(0, 1);
    if (d.size() > 1) m += "." + d.substr(1);
    return fmt::format("{}{}e{}{:02d}", sign, m, exp < 0 ? '-' : '+', std::abs(exp));
  }
  if (v > 0 && exp >= 6) {
    // prometheus_client writes numbers with 7+ integer digits in Go's exponent form.
    std::string m = d.substr(0, 1);
    std::string rest = d.substr(1);
    while (!rest.empty() && rest.back() == '0') rest.pop_back();
    if (!rest.empty()) m += "." + rest;
    return fmt::format("{}e+0{}", m, exp);
  }
  if (exp < 0) return sign + "0." + std::string(static_cast<std::size_t>(-exp - 1), '0') + d;
  const auto int_digits = static_cast<std::size_t>(exp + 1);
  if (d.size() <= int_digits) return sign + d + std::string(int_digits - d.size(), '0') + ".0";
  return sign + d.substr(0, int_digits) + "." + d.substr(int_digits);
}

std::string plain_float(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  if (v == std::floor(v) && std::fabs(v) < 1e15) {
    return fmt::format("{}", static_cast<long long>(v));
  }
  // Shortest round-trip digits, never an exponent (Rust's Display for f64).
  char buf[512];
  const auto res = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  if (res.ec != std::errc()) return fmt::format("{}", v);
  return std::string(buf, res.ptr);
}

void PromWriter::family(std::string_view name, std::string_view type, std::string_view help) {
  out_ += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, prom_escape_help(help), name, type);
}

std::string PromWriter::value(double v) const {
  return style_ == Style::kPython ? python_float(v) : plain_float(v);
}

void PromWriter::sample(std::string_view name, PromLabels labels, double v) {
  if (style_ == Style::kRust) {
    // The Rust client sorts label names; `le` stays last.
    const auto le =
        std::find_if(labels.begin(), labels.end(), [](const auto& l) { return l.first == "le"; });
    std::sort(labels.begin(), le);
  }
  out_ += name;
  if (!labels.empty()) {
    out_ += '{';
    for (std::size_t i = 0; i < labels.size(); ++i) {
      if (i > 0) out_ += ',';
      out_ += fmt::format("{}=\"{}\"", labels[i].first, prom_escape_label(labels[i].second));
    }
    out_ += '}';
  }
  out_ += ' ';
  out_ += value(v);
  out_ += '\n';
}

void PromWriter::gauge(std::string_view name, std::string_view help, const PromLabels& labels,
                       double v) {
  family(name, "gauge", help);
  sample(name, labels, v);
}

void PromWriter::counter(std::string_view name, std::string_view help, const PromLabels& labels,
                         double v) {
  family(name, "counter", help);
  more_counter(name, labels, v);
}

void PromWriter::more_counter(std::string_view name, const PromLabels& labels, double v) {
  sample(name, labels, v);
  if (style_ == Style::kPython && name.ends_with("_total")) {
    sample(std::string(name.substr(0, name.size() - 6)) + "_created", labels, created_);
  }
}

void PromWriter::histogram(std::string_view name, std::string_view help, const PromLabels& labels,
                           const Distribution::Snapshot& d, const std::vector<double>& bounds) {
  family(name, "histogram", help);
  const std::string n(name);
  for (const double b : bounds) {
    PromLabels l = labels;
    l.emplace_back("le", value(b));
    sample(n + "_bucket", std::move(l), static_cast<double>(d.at_most(b)));
  }
  PromLabels inf = labels;
  inf.emplace_back("le", "+Inf");
  sample(n + "_bucket", std::move(inf), static_cast<double>(d.count));
  if (style_ == Style::kPython) {
    sample(n + "_count", labels, static_cast<double>(d.count));
    sample(n + "_sum", labels, d.sum);
    sample(n + "_created", labels, created_);
  } else {
    sample(n + "_sum", labels, d.sum);
    sample(n + "_count", labels, static_cast<double>(d.count));
  }
}

double kv_cache_usage(const ServedSnapshot& s) {
  const double capacity = static_cast<double>(kKvBlockSize) * kKvBlocks;
  return std::clamp(static_cast<double>(s.kv_tokens) / capacity, 0.0, 1.0);
}

namespace {

double d(std::int64_t v) {
  return static_cast<double>(v);
}

PromLabels with(PromLabels labels, std::string key, std::string value) {
  labels.emplace_back(std::move(key), std::move(value));
  return labels;
}

// On every engine page: an info gauge whose label values need escaping (quotes, backslashes, a
// newline), so scrapers' parsers meet them.
void model_info(PromWriter& w, std::string_view engine, const EnginePageInfo& info) {
  w.gauge("inferperf_mock_model_info",
          "Served model of this fake engine page (labels exercise escaping).",
          {{"engine", std::string(engine)},
           {"model_name", info.model_name},
           {"weights_path", "C:\\models\\\"mock\"\\weights"},
           {"note", "served by inferperf-mock-server\nnot a real engine"}},
          1.0);
}

}  // namespace

std::string vllm_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info) {
  PromWriter w(PromWriter::Style::kPython, info.start_unix_s);
  const PromLabels l = {{"model_name", info.model_name}, {"engine", "0"}};
  const double kv = kv_cache_usage(s);
  w.gauge("vllm:num_requests_running", "Requests in the running batch.", l, d(s.running));
  w.gauge("vllm:num_requests_waiting", "Requests waiting to be scheduled.", l, d(s.waiting));
  w.gauge("vllm:kv_cache_usage_perc", "Fraction of the KV cache in use (1 = full).", l, kv);
  w.gauge("vllm:gpu_cache_usage_perc",
          "Fraction of the GPU KV cache in use (older name of vllm:kv_cache_usage_perc).", l, kv);
  w.counter("vllm:num_preemptions_total", "Preemptions since start.", l, 0.0);
  w.counter("vllm:prefix_cache_queries_total", "Prompt tokens looked up in the prefix cache.", l,
            d(s.prompt_tokens));
  w.counter("vllm:prefix_cache_hits_total", "Prompt tokens found in the prefix cache.", l, 0.0);
  w.counter("vllm:prompt_tokens_total", "Prefill tokens processed.", l, d(s.prompt_tokens));
  w.counter("vllm:generation_tokens_total", "Generated tokens.", l, d(s.generation_tokens));
  w.counter("vllm:request_success_total", "Finished requests by finish reason.",
            with(l, "finished_reason", "stop"), d(s.finished_stop));
  w.more_counter("vllm:request_success_total", with(l, "finished_reason", "length"),
                 d(s.finished_length));
  w.more_counter("vllm:request_success_total", with(l, "finished_reason", "abort"), d(s.aborted));
  w.histogram("vllm:request_prompt_tokens", "Prompt tokens per finished request.", l, s.prompt_len,
              buckets::kTokenCounts);
  w.histogram("vllm:request_generation_tokens", "Generated tokens per finished request.", l,
              s.gen_len, buckets::kTokenCounts);
  w.histogram("vllm:time_to_first_token_seconds", "Time to first token, seconds.", l, s.ttft,
              buckets::kVllmTtft);
  w.histogram("vllm:inter_token_latency_seconds", "Time between consecutive tokens, seconds.", l,
              s.itl, buckets::kVllmItl);
  w.histogram("vllm:time_per_output_token_seconds",
              "Mean time per output token of each finished request, seconds.", l, s.tpot,
              buckets::kVllmItl);
  w.histogram("vllm:e2e_request_latency_seconds", "End-to-end request latency, seconds.", l, s.e2e,
              buckets::kVllmLatency);
  w.histogram("vllm:request_queue_time_seconds", "Time spent waiting to be scheduled, seconds.", l,
              s.queue, buckets::kVllmLatency);
  w.histogram("vllm:request_inference_time_seconds", "Time spent running, seconds.", l, s.e2e,
              buckets::kVllmLatency);
  w.histogram("vllm:request_prefill_time_seconds", "Time spent in prefill, seconds.", l, s.ttft,
              buckets::kVllmLatency);
  w.histogram("vllm:request_decode_time_seconds", "Time spent in decode, seconds.", l, s.decode,
              buckets::kVllmLatency);
  w.gauge("vllm:cache_config_info", "KV cache configuration.",
          {{"block_size", std::to_string(kKvBlockSize)},
           {"cache_dtype", "auto"},
           {"enable_prefix_caching", "True"},
           {"engine", "0"},
           {"gpu_memory_utilization", "0.9"},
           {"num_cpu_blocks", "0"},
           {"num_gpu_blocks", std::to_string(kKvBlocks)}},
          1.0);
  model_info(w, "vllm", info);
  return w.take();
}

std::string sglang_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info) {
  PromWriter w(PromWriter::Style::kPython, info.start_unix_s);
  const PromLabels l = {{"model_name", info.model_name}};
  w.gauge("sglang:num_running_reqs", "Running requests.", l, d(s.running));
  w.gauge("sglang:num_queue_reqs", "Requests in the waiting queue.", l, d(s.waiting));
  w.gauge("sglang:num_used_tokens", "Tokens held in the KV cache.", l, d(s.kv_tokens));
  w.gauge("sglang:token_usage", "Fraction of the KV cache token capacity in use.", l,
          kv_cache_usage(s));
  w.gauge("sglang:gen_throughput", "Generation throughput, tokens/s.", l, s.token_rate);
  w.gauge("sglang:cache_hit_rate", "Prefix cache hit rate.", l, 0.0);
  w.counter("sglang:prompt_tokens_total", "Prefill tokens processed.", l, d(s.prompt_tokens));
  w.counter("sglang:generation_tokens_total", "Generated tokens.", l, d(s.generation_tokens));
  w.counter("sglang:num_requests_total", "Finished requests.", l,
            d(s.finished_stop + s.finished_length + s.aborted));
  w.counter("sglang:num_aborted_requests_total", "Aborted requests.", l, d(s.aborted));
  w.histogram("sglang:time_to_first_token_seconds", "Time to first token, seconds.", l, s.ttft,
              buckets::kSglangTtft);
  w.histogram("sglang:inter_token_latency_seconds", "Time between consecutive tokens, seconds.", l,
              s.itl, buckets::kSglangItl);
  w.histogram("sglang:e2e_request_latency_seconds", "End-to-end request latency, seconds.", l,
              s.e2e, buckets::kSglangE2e);
  model_info(w, "sglang", info);
  return w.take();
}

std::string trtllm_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info) {
  PromWriter w(PromWriter::Style::kPython, info.start_unix_s);
  const PromLabels l = {{"model_name", info.model_name}, {"engine_type", "trtllm"}};
  w.counter("trtllm_request_success_total", "Successfully finished requests by finish reason.",
            with(l, "finished_reason", "stop"), d(s.finished_stop));
  w.more_counter("trtllm_request_success_total", with(l, "finished_reason", "length"),
                 d(s.finished_length));
  w.counter("trtllm_num_aborted_requests_total", "Aborted or cancelled requests.", l, d(s.aborted));
  w.gauge("trtllm_kv_cache_utilization", "Fraction of KV cache blocks in use.", l,
          kv_cache_usage(s));
  w.gauge("trtllm_kv_cache_hit_rate", "KV cache reuse hit rate.", l, 0.0);
  w.histogram("trtllm_e2e_request_latency_seconds", "End-to-end request latency, seconds.", l,
              s.e2e, buckets::kVllmLatency);
  w.histogram("trtllm_time_to_first_token_seconds", "Time to first token, seconds.", l, s.ttft,
              buckets::kVllmTtft);
  w.histogram("trtllm_time_per_output_token_seconds", "Time per output token, seconds.", l, s.tpot,
              buckets::kVllmItl);
  w.histogram("trtllm_request_queue_time_seconds", "Time spent waiting in the queue, seconds.", l,
              s.queue, buckets::kVllmLatency);
  model_info(w, "trtllm", info);
  return w.take();
}

std::string dynamo_frontend_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info) {
  PromWriter w(PromWriter::Style::kRust, info.start_unix_s);
  const PromLabels l = {{"model", info.model_name}};
  bool first = true;
  // Like a Rust CounterVec, only label sets that were used appear.
  for (const bool chat : {true, false}) {
    for (const bool stream : {true, false}) {
      for (const bool ok : {true, false}) {
        const auto n = s.frontend[ServedSnapshot::frontend_index(chat, stream, ok)];
        if (n == 0) continue;
        const PromLabels rl = {{"endpoint", chat ? "chat_completions" : "completions"},
                               {"model", info.model_name},
                               {"request_type", stream ? "stream" : "unary"},
                               {"status", ok ? "success" : "error"}};
        if (first) {
          w.counter("dynamo_frontend_requests_total", "LLM requests processed.", rl, d(n));
          first = false;
        } else {
          w.more_counter("dynamo_frontend_requests_total", rl, d(n));
        }
      }
    }
  }
  if (first) {
    w.counter("dynamo_frontend_requests_total", "LLM requests processed.",
              {{"endpoint", "chat_completions"},
               {"model", info.model_name},
               {"request_type", "stream"},
               {"status", "success"}},
              0.0);
  }
  w.gauge("dynamo_frontend_inflight_requests", "Requests being answered now.", l, d(s.running));
  w.gauge("dynamo_frontend_queued_requests", "Requests waiting for their first response.", l,
          d(s.awaiting_first));
  w.gauge("dynamo_frontend_disconnected_clients", "Clients that went away mid-request.", {},
          d(s.aborted));
  w.counter("dynamo_frontend_output_tokens_total", "Output tokens generated.", l,
            d(s.generation_tokens));
  w.histogram("dynamo_frontend_request_duration_seconds", "Request duration, seconds.", l, s.e2e,
              buckets::kDynamoLatency);
  w.histogram("dynamo_frontend_input_sequence_tokens", "Input sequence length, tokens.", l,
              s.prompt_len, buckets::kDynamoTokens);
  w.histogram("dynamo_frontend_output_sequence_tokens", "Output sequence length, tokens.", l,
              s.gen_len, buckets::kDynamoTokens);
  w.histogram("dynamo_frontend_time_to_first_token_seconds", "Time to first token, seconds.", l,
              s.ttft, buckets::kDynamoLatency);
  w.histogram("dynamo_frontend_inter_token_latency_seconds", "Inter-token latency, seconds.", l,
              s.itl, buckets::kDynamoItl);
  w.gauge("dynamo_frontend_model_context_length", "Maximum context length of the model.", l,
          131072.0);
  w.gauge("dynamo_frontend_model_kv_cache_block_size", "KV cache block size, tokens.", l,
          kKvBlockSize);
  w.gauge("dynamo_frontend_model_total_kv_blocks", "KV cache blocks of a worker.", l, kKvBlocks);
  w.gauge("dynamo_frontend_model_max_num_seqs", "Maximum concurrent sequences of a worker.", l,
          256.0);
  model_info(w, "dynamo_frontend", info);
  return w.take();
}

std::string dynamo_component_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info,
                                          bool prefill) {
  PromWriter w(PromWriter::Style::kRust, info.start_unix_s);
  const PromLabels l = {{"dynamo_namespace", "dynamo"},
                        {"dynamo_component", prefill ? "prefill" : "decode"},
                        {"dynamo_endpoint", "generate"}};
  const std::int64_t decode_inflight = std::max<std::int64_t>(0, s.running - s.awaiting_first);
  const std::int64_t errors = prefill ? s.aborted_before_first : s.aborted - s.aborted_before_first;
  w.counter("dynamo_component_requests_total", "Requests handled by this worker.", l,
            d(prefill ? s.admitted : s.first_tokens));
  w.gauge("dynamo_component_inflight_requests", "Requests being handled now.", l,
          d(prefill ? s.awaiting_first : decode_inflight));
  w.histogram("dynamo_component_request_duration_seconds",
              prefill ? "Prefill time per request, seconds." : "Decode time per request, seconds.",
              l, prefill ? s.ttft : s.decode, buckets::kDynamoLatency);
  w.counter("dynamo_component_request_bytes_total", "Request bytes received.", l,
            d(s.request_bytes));
  w.counter("dynamo_component_response_bytes_total", "Response bytes sent.", l,
            d(prefill ? s.prefill_response_bytes : s.decode_response_bytes));
  w.counter("dynamo_component_errors_total", "Requests that ended in an error.",
            with(l, "error_type", "generate"), d(errors));
  w.gauge("dynamo_component_uptime_seconds", "Seconds since the worker started.", l, s.uptime_s);
  w.gauge("dynamo_component_kvstats_total_blocks", "KV cache blocks.", l, kKvBlocks);
  w.gauge("dynamo_component_kvstats_active_blocks", "KV cache blocks in use.", l,
          std::ceil(static_cast<double>(s.kv_tokens) / kKvBlockSize));
  w.gauge("dynamo_component_kvstats_gpu_cache_usage_percent",
          "Fraction of the GPU KV cache in use (0..1).", l, kv_cache_usage(s));
  model_info(w, prefill ? "dynamo_prefill" : "dynamo_decode", info);
  return w.take();
}

std::string mock_histograms_page(const ServedSnapshot& s) {
  PromWriter w(PromWriter::Style::kRust, 0);
  w.histogram("inferperf_mock_time_to_first_token_seconds",
              "Time from handler start to the first token, seconds.", {}, s.ttft,
              buckets::kMockLatency);
  w.histogram("inferperf_mock_inter_token_latency_seconds",
              "Time between consecutive token events, seconds.", {}, s.itl, buckets::kMockLatency);
  w.histogram("inferperf_mock_output_tokens_per_request",
              "Output tokens sent per finished request.", {}, s.gen_len, buckets::kTokenCounts);
  return w.take();
}

}  // namespace inferperf::mock
