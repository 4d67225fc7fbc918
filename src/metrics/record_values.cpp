#include "metrics/record_values.hpp"

#include <algorithm>
#include <cmath>

namespace inferperf::metrics {

namespace {

constexpr double kStallFloorNs = 100e6;   // a stall is at least 100 ms ...
constexpr double kStallMedianFactor = 5;  // ... and 5x the record's median gap

const MetricInfo& tag_info(std::string_view tag) {
  return *find_metric(tag);
}

double ns(core::MonoNs t) {
  return static_cast<double>(t);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// AIPerf's HTTP phases (k6 names) from the exchange's stamps. The resolver result is cached per
// worker, so DNS time is 0 here and a first lookup falls inside "connecting".
void http_trace(const records::RequestRecord& r, RecordValues& v) {
  if (!r.send_start_ns || !r.end_ns) return;
  auto put = [&](std::string_view tag, double x) { v.scalars.emplace_back(&tag_info(tag), x); };
  const bool connected = !r.connection_reused && r.connect_start_ns && r.connect_end_ns;
  const double blocked =
      std::max(0.0, ns((connected ? r.connect_start_ns : r.send_start_ns) - r.start_ns));
  // As aiohttp's connection creation, connecting covers the TLS handshake of an https:// request.
  const core::MonoNs connected_ns = r.tls_handshake_end_ns
                                        ? std::max(r.tls_handshake_end_ns, r.connect_end_ns)
                                        : r.connect_end_ns;
  const double connecting = connected ? ns(connected_ns - r.connect_start_ns) : 0.0;
  const double sending = r.send_end_ns ? ns(r.send_end_ns - r.send_start_ns) : 0.0;
  const double waiting =
      r.first_byte_ns && r.send_end_ns ? ns(r.first_byte_ns - r.send_end_ns) : 0.0;
  const double receiving = r.first_byte_ns ? ns(r.end_ns - r.first_byte_ns) : 0.0;
  put("http_req_blocked", blocked);
  put("http_req_dns_lookup", 0.0);
  put("http_req_connecting", connecting);
  put("http_req_sending", sending);
  put("http_req_waiting", waiting);
  put("http_req_receiving", receiving);
  put("http_req_duration", ns(r.end_ns - r.send_start_ns));
  put("http_req_connection_overhead", blocked + connecting);
  put("http_req_total", blocked + connecting + sending + waiting + receiving);
  put("http_req_data_sent", static_cast<double>(r.bytes_sent));
  put("http_req_data_received", static_cast<double>(r.bytes_received));
  put("http_req_connection_reused", r.connection_reused ? 1.0 : 0.0);
  put("http_req_chunks_sent", 1.0);  // the request is written as one buffer
  put("http_req_chunks_received", static_cast<double>(r.reads));
}

// Each gap between content events spread evenly over the tokens of the later event; the extra
// tokens of the first event arrived with the first token (zero gaps). n values for n + 1 tokens.
std::vector<double> per_token_gaps(const records::RequestRecord& r) {
  const auto& ev = r.content_events;
  const auto& k = r.client_tokens.per_event;
  std::vector<double> out;
  if (k.size() != ev.size()) return out;
  for (std::int64_t z = 1; z < k[0]; ++z) out.push_back(0.0);
  for (std::size_t i = 1; i < ev.size(); ++i) {
    const double gap = ns(ev[i].ts_ns - ev[i - 1].ts_ns);
    const std::int64_t tokens = std::max<std::int64_t>(1, k[i]);
    for (std::int64_t z = 0; z < tokens; ++z) out.push_back(gap / static_cast<double>(tokens));
  }
  return out;
}

// One value per usage field the server sent (whatever the endpoint: the server said so).
void usage_values(const records::UsageCounts& u, RecordValues& v) {
  auto put = [&](std::string_view tag, const auto& x) {
    if (x) v.scalars.emplace_back(&tag_info(tag), static_cast<double>(*x));
  };
  put("usage_prompt_tokens", u.prompt_tokens);
  put("usage_completion_tokens", u.completion_tokens);
  put("usage_total_tokens", u.total_tokens);
  put("usage_reasoning_tokens", u.reasoning_tokens);
  put("usage_prompt_cache_read_tokens", u.prompt_cache_read_tokens);
  put("usage_prompt_cache_write_tokens", u.prompt_cache_write_tokens);
  put("usage_prompt_cache_miss_tokens", u.prompt_cache_miss_tokens);
  put("usage_tool_use_prompt_tokens", u.tool_use_prompt_tokens);
  put("usage_prompt_audio_seconds", u.prompt_audio_seconds);
  put("usage_prompt_audio_tokens", u.prompt_audio_tokens);
  put("usage_completion_audio_tokens", u.completion_audio_tokens);
  put("usage_accepted_prediction_tokens", u.accepted_prediction_tokens);
  put("usage_rejected_prediction_tokens", u.rejected_prediction_tokens);
}

void usage_discrepancy(const records::RequestRecord& r, const TokenCounts& client,
                       const MetricOptions& o, RecordValues& v, RecordFlags& flags) {
  if (o.token_source != TokenSource::kClientTokenizer) return;
  auto compare = [&](std::string_view tag, std::optional<std::int64_t> server,
                     std::optional<double> mine) {
    if (!server || !mine || *mine <= 0) return;
    const double pct = std::abs(static_cast<double>(*server) - *mine) / *mine * 100.0;
    v.scalars.emplace_back(&tag_info(tag), pct);
    flags.usage_compared = true;
    if (pct > o.usage_pct_diff_threshold) flags.usage_discrepancy = true;
  };
  std::optional<double> osl;
  if (client.output || client.reasoning)
    osl = client.output.value_or(0) + client.reasoning.value_or(0);
  compare("usage_prompt_tokens_diff_pct", r.usage.prompt_tokens, client.input);
  compare("usage_completion_tokens_diff_pct", r.usage.completion_tokens, osl);
  compare("usage_reasoning_tokens_diff_pct", r.usage.reasoning_tokens, client.reasoning);
}

void cross_tool(const records::RequestRecord& r, double ttft, double latency,
                std::optional<double> osl, RecordValues& v) {
  auto put = [&](std::string_view tag, double x) { v.scalars.emplace_back(&tag_info(tag), x); };
  const auto& ev = r.content_events;
  // vLLM: output length from the server's usage when present, else the tokenizer.
  std::optional<double> n =
      r.usage.completion_tokens
          ? std::optional<double>(static_cast<double>(*r.usage.completion_tokens))
          : osl;
  if (n && *n >= 2) put("vllm_tpot", (latency - ttft) / (*n - 1));
  std::vector<double> gaps;
  for (std::size_t i = 1; i < ev.size(); ++i) gaps.push_back(ns(ev[i].ts_ns - ev[i - 1].ts_ns));
  if (!gaps.empty()) v.lists.emplace_back(&tag_info("vllm_itl"), std::move(gaps));
  // GuideLLM: start to last token over the token count (usage, else the number of iterations).
  const double g = r.usage.completion_tokens ? static_cast<double>(*r.usage.completion_tokens)
                                             : static_cast<double>(ev.size());
  if (g > 0) put("guidellm_tpot", latency / g);
  if (osl && *osl > 0) put("ntpot", latency / *osl);
}

// A server-reported duration in ms as integer ns, rounded once, so that every difference with the
// client's integer-ns stamps is taken in integers; nullopt for values no int64 ns count can hold.
std::optional<std::int64_t> server_ns(const std::optional<double>& ms) {
  constexpr double kMaxMs = 1e12;  // ~11.6 days: sums and differences stay far inside int64 ns
  if (!ms || !std::isfinite(*ms) || *ms < 0 || *ms > kMaxMs) return std::nullopt;
  return std::llround(*ms * 1e6);
}

// The server's own timings joined to the client's stamps. Differences are kept when negative (a
// server that counts time the client never saw: clock or accounting mismatch).
void server_timings(const records::RequestRecord& r, bool streaming, RecordValues& v) {
  if (!r.server_timings) return;
  auto put = [&](std::string_view tag, std::int64_t x) {
    v.scalars.emplace_back(&tag_info(tag), static_cast<double>(x));
  };
  const auto prefill = server_ns(r.server_timings->prefill_ms);
  const auto decode = server_ns(r.server_timings->decode_ms);
  const auto& ev = r.content_events;
  if (prefill) put("server_prefill_time", *prefill);
  if (decode) put("server_decode_time", *decode);
  if (prefill && decode) {
    const std::int64_t server = *prefill + *decode;
    put("server_time", server);
    put("client_overhead_time", (ev.back().ts_ns - r.start_ns) - server);
  }
  if (prefill && streaming) put("server_ttft_overhead", (ev.front().ts_ns - r.start_ns) - *prefill);
}

}  // namespace

TokenCounts token_counts(const records::RequestRecord& r, TokenSource source) {
  TokenCounts t;
  if (source == TokenSource::kClientTokenizer) {
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

RecordValues record_values_gated(const records::RequestRecord& r, const MetricOptions& o,
                                 bool streaming, RecordFlags& flags, const TokenCounts& tok,
                                 RecordValues v);

RecordValues record_values(const records::RequestRecord& r, const MetricOptions& o,
                           RecordFlags& flags) {
  RecordValues v;
  v.record = &r;
  auto put = [&](std::string_view tag, double x) { v.scalars.emplace_back(&tag_info(tag), x); };
  const TokenCounts tok = token_counts(r, o.token_source);
  if (!r.valid()) {
    if (tok.input) put("error_isl", *tok.input);
    return v;
  }
  // Endpoints that produce no tokens (embeddings, rankings, images, video) have no token metrics;
  // image retrieval sends no text, so it has no ISL either.
  const bool streaming = o.streaming && o.produces_tokens;
  const TokenCounts tok_all = tok;
  TokenCounts tok_used;
  if (o.produces_tokens) {
    tok_used.output = tok_all.output;
    tok_used.reasoning = tok_all.reasoning;
  }
  if (o.tokenizes_input) tok_used.input = tok_all.input;
  return record_values_gated(r, o, streaming, flags, tok_used, std::move(v));
}

RecordValues record_values_gated(const records::RequestRecord& r, const MetricOptions& o,
                                 bool streaming, RecordFlags& flags, const TokenCounts& tok,
                                 RecordValues v) {
  auto put = [&](std::string_view tag, double x) { v.scalars.emplace_back(&tag_info(tag), x); };
  const auto& ev = r.content_events;
  // Differences in integers first: wall-clock ns (records read back from disk) exceed the
  // 2^53 a double holds exactly.
  const double ttft = ns(ev.front().ts_ns - r.start_ns);
  const double latency = ns(ev.back().ts_ns - r.start_ns);
  std::optional<double> osl;
  if (tok.output || tok.reasoning) osl = tok.output.value_or(0) + tok.reasoning.value_or(0);

  if (streaming) {
    put("time_to_first_token", ttft);
    if (ev.size() >= 2) put("time_to_second_token", ns(ev[1].ts_ns - ev[0].ts_ns));
    // AIPerf 0.11 computes TTFO on every streaming token run, reasoning or not: the first event
    // with output text (tool-call text counts as content), so it equals TTFT without reasoning.
    const auto first_output =
        std::find_if(ev.begin(), ev.end(), [](const auto& e) { return !e.content.empty(); });
    if (first_output != ev.end())
      put("time_to_first_output_token", ns(first_output->ts_ns - r.start_ns));
  }
  put("request_latency", latency);
  if (streaming && osl && *osl >= 2) {
    const double itl = (latency - ttft) / (*osl - 1);
    put("inter_token_latency", itl);
    if (itl > 0) put("output_token_throughput_per_user", 1e9 / itl);
  }
  if (osl) put("output_sequence_length", *osl);
  if (tok.input) put("input_sequence_length", *tok.input);
  if (tok.output) put("output_token_count", *tok.output);
  if (tok.reasoning && *tok.reasoning > 0) put("reasoning_token_count", *tok.reasoning);
  std::vector<double> gaps;
  if (streaming) {
    for (std::size_t i = 1; i < ev.size(); ++i) gaps.push_back(ns(ev[i].ts_ns - ev[i - 1].ts_ns));
    if (!gaps.empty()) v.lists.emplace_back(&tag_info("inter_chunk_latency"), gaps);
    if (tok.input && ttft > 0) put("prefill_throughput_per_user", *tok.input / (ttft / 1e9));
  }
  if (osl && latency > 0) put("e2e_output_token_throughput", *osl / (latency / 1e9));
  usage_values(r.usage, v);
  usage_discrepancy(r, tok, o, v, flags);
  if (o.experimental && r.requested_osl) put("requested_osl", *r.requested_osl);
  if (r.requested_osl && osl && *r.requested_osl > 0) {
    const double req = *r.requested_osl;
    put("osl_mismatch_diff_pct", (*osl - req) / req * 100.0);
    const double allowed =
        std::min(req * o.osl_mismatch_pct_threshold / 100.0, o.osl_mismatch_max_token_threshold);
    flags.osl_mismatch = std::abs(*osl - req) > allowed;
  }
  http_trace(r, v);
  // Image endpoints count the pictures they return, chat the pictures it sent (AIPerf's IMAGE
  // metrics follow the input modality there).
  if (const std::int64_t images = o.images ? r.outputs : r.input_images;
      images > 0 && latency > 0) {
    const double n = static_cast<double>(images);
    put("num_images", n);
    put("image_throughput", n / (latency / 1e9));
    put("image_latency", latency / n);
  }
  if (r.video_inference_time_s) put("video_inference_time", *r.video_inference_time_s * 1e9);
  if (r.video_peak_memory_mb) put("video_peak_memory", *r.video_peak_memory_mb);

  // inferperf's own metrics.
  if (r.intended_ns > 0) {
    put("schedule_lag", ns(r.start_ns - r.intended_ns));
    put("effective_latency", ns(ev.back().ts_ns - r.intended_ns));
    if (streaming) put("effective_time_to_first_token", ns(ev.front().ts_ns - r.intended_ns));
  }
  if (streaming) {
    if (auto per_token = per_token_gaps(r); !per_token.empty())
      v.lists.emplace_back(&tag_info("per_token_itl"), std::move(per_token));
    double coalesced = 0;
    for (std::size_t i = 1; i < ev.size(); ++i)
      coalesced += ev[i].read_index == ev[i - 1].read_index;
    put("coalesced_event_count", coalesced);
    if (!gaps.empty()) {
      const double limit = std::max(kStallFloorNs, kStallMedianFactor * median(gaps));
      for (double g : gaps) {
        if (g > limit) v.stall_gaps_ns.push_back(g);
      }
      put("stream_stall_count", static_cast<double>(v.stall_gaps_ns.size()));
    }
    if (o.cross_tool) cross_tool(r, ttft, latency, osl, v);
  }
  server_timings(r, streaming, v);
  if (!o.goodput.empty()) {
    v.good = std::all_of(o.goodput.begin(), o.goodput.end(), [&](const GoodputObjective& g) {
      for (const auto& [mi, x] : v.scalars) {
        if (mi == g.metric) return mi->larger_is_better ? x >= g.threshold : x <= g.threshold;
      }
      return false;  // a missing value is not good
    });
  }
  return v;
}

}  // namespace inferperf::metrics
