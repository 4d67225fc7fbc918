// The metrics added for issue "Metrics and exports": each value worked out by hand in comments.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "metrics/compute.hpp"

namespace inferperf::metrics {
namespace {

using records::ContentEvent;
using records::RequestRecord;
using records::ServerTimings;

constexpr double kTol = 1e-9;
constexpr std::int64_t kT0 = 1'000'000'000'000;
constexpr std::int64_t kMs = 1'000'000;

const MetricResult& get(const BenchmarkResult& r, std::string_view tag) {
  const MetricResult* m = r.find(tag);
  if (m == nullptr) {
    ADD_FAILURE() << "missing metric " << tag;
    static const MetricResult kEmpty{};
    return kEmpty;
  }
  return *m;
}

std::vector<double> list_of(const RecordValues& v, std::string_view tag) {
  for (const auto& [mi, values] : v.lists) {
    if (mi->tag == tag) return values;
  }
  return {};
}

std::optional<double> scalar_of(const RecordValues& v, std::string_view tag) {
  for (const auto& [mi, x] : v.scalars) {
    if (mi->tag == tag) return x;
  }
  return std::nullopt;
}

MetricOptions client_streaming() {
  MetricOptions o;
  o.streaming = true;
  o.token_source = TokenSource::kClientTokenizer;
  return o;
}

// Intended 5 ms before start; events at +10 (3 tokens, read 0), +16 (2 tokens, read 1),
// +16 (1 token, read 1: coalesced), +28 ms (3 tokens, read 2). OSL 9, ISL 100.
RequestRecord chunked() {
  RequestRecord r;
  r.intended_ns = kT0 - 5 * kMs;
  r.start_ns = kT0;
  r.content_events = {
      ContentEvent{kT0 + 10 * kMs, 0, "abc", ""}, ContentEvent{kT0 + 16 * kMs, 1, "de", ""},
      ContentEvent{kT0 + 16 * kMs, 1, "f", ""}, ContentEvent{kT0 + 28 * kMs, 2, "ghi", ""}};
  r.client_tokens.input = 100;
  r.client_tokens.output = 9;
  r.client_tokens.per_event = {3, 2, 1, 3};
  return r;
}

TEST(PerTokenItl, SpreadsEachGapOverItsTokensAndAddsZerosForCoArrivals) {
  const auto result = compute_metrics({chunked()}, client_streaming());
  // First event: 2 extra tokens came with the first one -> 0, 0. Then 6 ms over 2 tokens -> 3, 3;
  // the coalesced event: 0 ms over 1 token -> 0; 12 ms over 3 tokens -> 4, 4, 4.
  const auto v = list_of(result.per_record[0], "per_token_itl");
  const std::vector<double> expected = {0, 0, 3 * kMs, 3 * kMs, 0, 4 * kMs, 4 * kMs, 4 * kMs};
  ASSERT_EQ(v.size(), expected.size());
  for (std::size_t i = 0; i < v.size(); ++i) EXPECT_NEAR(v[i], expected[i], kTol) << i;
  // OSL - 1 values whose mean is the request's ITL: (28 - 10) / (9 - 1) = 2.25 ms.
  EXPECT_NEAR(get(result, "per_token_itl").stats.avg, 2.25, kTol);
  EXPECT_NEAR(get(result, "inter_token_latency").stats.avg, 2.25, kTol);
  EXPECT_NEAR(get(result, "coalesced_event_count").stats.avg, 1.0, kTol);
}

TEST(PerTokenItl, AbsentWithoutPerEventCounts) {
  RequestRecord r = chunked();
  r.client_tokens.per_event.clear();
  const auto result = compute_metrics({r}, client_streaming());
  EXPECT_EQ(result.find("per_token_itl"), nullptr);
  EXPECT_NE(result.find("inter_chunk_latency"), nullptr);
}

TEST(EffectiveLatency, StartsAtTheIntendedTime) {
  const auto result = compute_metrics({chunked()}, client_streaming());
  EXPECT_NEAR(get(result, "schedule_lag").stats.avg, 5.0, kTol);
  EXPECT_NEAR(get(result, "effective_latency").stats.avg, 33.0, kTol);              // 28 + 5
  EXPECT_NEAR(get(result, "effective_time_to_first_token").stats.avg, 15.0, kTol);  // 10 + 5
  EXPECT_NEAR(get(result, "request_latency").stats.avg, 28.0, kTol);
}

TEST(StreamStalls, GapsAboveFiveMediansAndAHundredMilliseconds) {
  RequestRecord r;
  r.start_ns = kT0;
  // Gaps 10, 10, 10, 200, 10 ms: median 10, limit max(100, 50) = 100 -> one stall (200).
  std::int64_t t = kT0 + 5 * kMs;
  for (std::int64_t gap : {0, 10, 10, 10, 200, 10}) {
    t += gap * kMs;
    r.content_events.push_back(ContentEvent{t, static_cast<std::uint32_t>(t), "x", ""});
  }
  const auto result = compute_metrics({r}, client_streaming());
  EXPECT_NEAR(get(result, "stream_stall_count").stats.avg, 1.0, kTol);
  ASSERT_EQ(result.per_record[0].stall_gaps_ns.size(), 1u);
  EXPECT_NEAR(result.per_record[0].stall_gaps_ns[0], 200.0 * kMs, kTol);
  EXPECT_NEAR(get(result, "coalesced_event_count").stats.avg, 0.0, kTol);
}

TEST(HttpTrace, PhasesFromTheExchangeStamps) {
  RequestRecord r;
  r.start_ns = kT0;
  r.connect_start_ns = kT0 + 1 * kMs;  // 1 ms waiting for the pool
  r.connect_end_ns = kT0 + 3 * kMs;    // 2 ms connecting
  r.send_start_ns = kT0 + 3 * kMs;
  r.send_end_ns = kT0 + 3 * kMs + kMs / 2;  // 0.5 ms sending
  r.first_byte_ns = kT0 + 20 * kMs;         // 16.5 ms waiting
  r.end_ns = kT0 + 50 * kMs;                // 30 ms receiving
  r.content_events = {ContentEvent{kT0 + 20 * kMs, 0, "x", ""}};
  r.bytes_sent = 2048;
  r.bytes_received = 512;
  r.reads = 7;
  MetricOptions o;
  const auto result = compute_metrics({r}, o);
  EXPECT_NEAR(get(result, "http_req_blocked").stats.avg, 1.0, kTol);
  EXPECT_NEAR(get(result, "http_req_dns_lookup").stats.avg, 0.0, kTol);
  EXPECT_NEAR(get(result, "http_req_connecting").stats.avg, 2.0, kTol);
  EXPECT_NEAR(get(result, "http_req_sending").stats.avg, 0.5, kTol);
  EXPECT_NEAR(get(result, "http_req_waiting").stats.avg, 16.5, kTol);
  EXPECT_NEAR(get(result, "http_req_receiving").stats.avg, 30.0, kTol);
  EXPECT_NEAR(get(result, "http_req_duration").stats.avg, 47.0, kTol);  // end - send start
  EXPECT_NEAR(get(result, "http_req_connection_overhead").stats.avg, 3.0, kTol);
  EXPECT_NEAR(get(result, "http_req_total").stats.avg, 50.0, kTol);
  EXPECT_NEAR(get(result, "http_req_data_sent").stats.avg, 2.0, kTol);  // KB
  EXPECT_NEAR(get(result, "http_req_data_received").stats.avg, 0.5, kTol);
  EXPECT_NEAR(get(result, "http_req_connection_reused").stats.avg, 0.0, kTol);
  EXPECT_NEAR(get(result, "http_req_chunks_received").stats.avg, 7.0, kTol);
  // A reused connection: no connecting, blocked until the send starts.
  r.connection_reused = true;
  r.connect_start_ns = r.connect_end_ns = 0;
  const auto reused = compute_metrics({r}, o);
  EXPECT_NEAR(get(reused, "http_req_blocked").stats.avg, 3.0, kTol);
  EXPECT_NEAR(get(reused, "http_req_connecting").stats.avg, 0.0, kTol);
  EXPECT_NEAR(get(reused, "http_req_connection_reused").stats.avg, 1.0, kTol);
}

TEST(HttpTrace, ConnectingCoversTheTlsHandshake) {
  RequestRecord r;
  r.start_ns = kT0;
  r.connect_start_ns = kT0 + 1 * kMs;
  r.connect_end_ns = kT0 + 2 * kMs;          // 1 ms TCP connect
  r.tls_handshake_start_ns = kT0 + 2 * kMs;  // 3 ms TLS handshake
  r.tls_handshake_end_ns = kT0 + 5 * kMs;
  r.send_start_ns = kT0 + 5 * kMs;
  r.send_end_ns = kT0 + 6 * kMs;
  r.first_byte_ns = kT0 + 10 * kMs;
  r.end_ns = kT0 + 20 * kMs;
  r.content_events = {ContentEvent{kT0 + 10 * kMs, 0, "x", ""}};
  const auto result = compute_metrics({r}, MetricOptions{});
  EXPECT_NEAR(get(result, "http_req_connecting").stats.avg, 4.0, kTol);
  EXPECT_NEAR(get(result, "http_req_connection_overhead").stats.avg, 5.0, kTol);
  EXPECT_NEAR(get(result, "http_req_total").stats.avg, 20.0, kTol);
}

TEST(UsageDiscrepancy, ComparesServerCountsWithTheClients) {
  RequestRecord a = chunked();  // client: ISL 100, OSL 9
  a.usage.prompt_tokens = 120;  // 20 % off -> a discrepancy
  a.usage.completion_tokens = 9;
  RequestRecord b = chunked();
  b.usage.prompt_tokens = 105;  // 5 %: within 10 %
  const auto result = compute_metrics({a, b}, client_streaming());
  const auto& prompt = get(result, "usage_prompt_tokens_diff_pct");
  EXPECT_EQ(prompt.stats.count, 2);
  EXPECT_NEAR(prompt.stats.max, 20.0, kTol);
  EXPECT_NEAR(prompt.stats.min, 5.0, kTol);
  EXPECT_NEAR(get(result, "usage_completion_tokens_diff_pct").stats.avg, 0.0, kTol);
  EXPECT_NEAR(get(result, "usage_discrepancy_count").value, 1.0, kTol);
  EXPECT_EQ(result.usage_discrepancies, 1);
  // With the server as the token source there is nothing to compare.
  MetricOptions server = client_streaming();
  server.token_source = TokenSource::kServerUsage;
  EXPECT_EQ(compute_metrics({a, b}, server).find("usage_discrepancy_count"), nullptr);
}

TEST(Goodput, CountsRecordsMeetingEveryObjective) {
  // chunked(): TTFT 10 ms, ITL 2.25 ms -> per-user 444.4 tok/s. slow: TTFT 40 ms.
  RequestRecord slow = chunked();
  for (auto& e : slow.content_events) e.ts_ns += 30 * kMs;
  MetricOptions o = client_streaming();
  ASSERT_FALSE(
      parse_goodput("time_to_first_token:20 output_token_throughput_per_user:400", o.goodput)
          .has_value());
  ASSERT_EQ(o.goodput.size(), 2u);
  EXPECT_NEAR(o.goodput[0].threshold, 20.0 * kMs, kTol) << "display ms -> base ns";
  const auto result = compute_metrics({chunked(), slow}, o);
  EXPECT_NEAR(get(result, "good_request_count").value, 1.0, kTol);
  // Duration: first start T0 to last event T0 + 58 ms -> 1 / 0.058 s.
  EXPECT_NEAR(get(result, "goodput").value, 1.0 / 0.058, 1e-9);
  EXPECT_TRUE(result.per_record[0].good);
  EXPECT_FALSE(result.per_record[1].good);
  // Larger-is-better: a per-user objective above both records' 444 tok/s fails both.
  MetricOptions strict = client_streaming();
  ASSERT_FALSE(parse_goodput("output_token_throughput_per_user:500", strict.goodput));
  EXPECT_NEAR(get(compute_metrics({chunked()}, strict), "good_request_count").value, 0.0, kTol);
}

TEST(Goodput, ParseErrorsNameTheItem) {
  std::vector<GoodputObjective> g;
  EXPECT_NE(parse_goodput("nope:1", g).value_or("").find("unknown metric 'nope'"),
            std::string::npos);
  EXPECT_NE(parse_goodput("request_throughput:5", g).value_or("").find("not a per-request"),
            std::string::npos);
  EXPECT_NE(parse_goodput("time_to_first_token:fast", g).value_or("").find("not a number"),
            std::string::npos);
  EXPECT_NE(parse_goodput("time_to_first_token", g).value_or("").find("is not tag:value"),
            std::string::npos);
  EXPECT_TRUE(parse_goodput("", g).has_value());
}

TEST(CrossTool, OtherToolsDefinitions) {
  RequestRecord r = chunked();
  r.usage.completion_tokens = 7;  // vLLM and GuideLLM prefer the server's count
  MetricOptions o = client_streaming();
  EXPECT_EQ(compute_metrics({r}, o).find("vllm_tpot"), nullptr) << "only when asked";
  o.cross_tool = true;
  const auto result = compute_metrics({r}, o);
  EXPECT_NEAR(get(result, "vllm_tpot").stats.avg, 18.0 / 6, kTol);  // (28 - 10) / (7 - 1)
  EXPECT_NEAR(get(result, "guidellm_tpot").stats.avg, 4.0, kTol);   // 28 / 7
  EXPECT_NEAR(get(result, "ntpot").stats.avg, 28.0 / 9, kTol);      // latency / OSL
  EXPECT_EQ(get(result, "vllm_itl").stats.count, 3);                // 3 event gaps
}

TEST(Experimental, RequestedOslOnlyInDevMode) {
  RequestRecord r = chunked();
  r.requested_osl = 10;
  MetricOptions o = client_streaming();
  EXPECT_EQ(compute_metrics({r}, o).find("requested_osl"), nullptr);
  o.experimental = true;
  EXPECT_NEAR(get(compute_metrics({r}, o), "requested_osl").stats.avg, 10.0, kTol);
  EXPECT_FALSE(scalar_of(compute_metrics({r}, client_streaming()).per_record[0], "requested_osl"));
}

// Server timings (llama.cpp `timings`) joined to the client's stamps.
// Start T0; content events at +25 ms and +120 ms: TTFT 25, request latency 120 ms.
RequestRecord with_timings(std::optional<double> prompt_ms, std::optional<double> predicted_ms) {
  RequestRecord r;
  r.start_ns = kT0;
  r.content_events = {ContentEvent{kT0 + 25 * kMs, 0, "a", ""},
                      ContentEvent{kT0 + 120 * kMs, 1, "b", ""}};
  r.server_timings = ServerTimings{prompt_ms, predicted_ms, 12, 7, std::nullopt, "llama.cpp"};
  return r;
}

TEST(ServerTimings, WorkedExample) {
  // prompt_ms 20, predicted_ms 90: server time 110 ms; overhead 120 - 110 = 10 ms; TTFT overhead
  // 25 - 20 = 5 ms.
  const auto result = compute_metrics({with_timings(20.0, 90.0)}, client_streaming());
  EXPECT_NEAR(get(result, "server_prefill_time").stats.avg, 20.0, kTol);
  EXPECT_NEAR(get(result, "server_decode_time").stats.avg, 90.0, kTol);
  EXPECT_NEAR(get(result, "server_time").stats.avg, 110.0, kTol);
  EXPECT_NEAR(get(result, "client_overhead_time").stats.avg, 10.0, kTol);
  EXPECT_NEAR(get(result, "server_ttft_overhead").stats.avg, 5.0, kTol);
  EXPECT_NEAR(get(result, "request_latency").stats.avg, 120.0, kTol);
  // Per record, in base units (ns), as profile_export.jsonl gets them.
  EXPECT_EQ(scalar_of(result.per_record[0], "client_overhead_time"), 10.0 * kMs);
  EXPECT_EQ(get(result, "client_overhead_time").info->unit, "ms");
  EXPECT_EQ(get(result, "client_overhead_time").info->visibility, Visibility::kServerTimings);
}

TEST(ServerTimings, NegativeOverheadIsKeptAndRecordsWithoutTimingsAreSkipped) {
  // 30 + 75.5 = 105.5 ms of server time in a request the client saw take 100 ms: -5.5 ms.
  RequestRecord slow_server = with_timings(30.0, 75.5);
  slow_server.content_events[1].ts_ns = kT0 + 100 * kMs;
  RequestRecord none = with_timings(1.0, 1.0);
  none.server_timings.reset();
  const auto result =
      compute_metrics({with_timings(20.0, 90.0), slow_server, none}, client_streaming());
  const auto& overhead = get(result, "client_overhead_time").stats;
  EXPECT_EQ(overhead.count, 2);
  EXPECT_NEAR(overhead.min, -5.5, kTol);
  EXPECT_NEAR(overhead.max, 10.0, kTol);
  EXPECT_NEAR(overhead.avg, 2.25, kTol);                                   // (10 - 5.5) / 2
  EXPECT_NEAR(get(result, "server_ttft_overhead").stats.min, -5.0, kTol);  // 25 - 30
  EXPECT_EQ(get(result, "server_time").stats.count, 2);
  EXPECT_FALSE(scalar_of(result.per_record[2], "server_prefill_time"));
}

TEST(ServerTimings, AbsentWithoutAnyRecordCarryingThem) {
  RequestRecord r = with_timings(20.0, 90.0);
  r.server_timings.reset();
  const auto result = compute_metrics({r}, client_streaming());
  for (const char* tag : {"server_prefill_time", "server_decode_time", "server_time",
                          "client_overhead_time", "server_ttft_overhead"}) {
    EXPECT_EQ(result.find(tag), nullptr) << tag;
  }
}

TEST(ServerTimings, NonStreamingHasNoTtftOverhead) {
  MetricOptions o = client_streaming();
  o.streaming = false;
  const auto result = compute_metrics({with_timings(20.0, 90.0)}, o);
  EXPECT_NEAR(get(result, "client_overhead_time").stats.avg, 10.0, kTol);
  EXPECT_EQ(result.find("server_ttft_overhead"), nullptr);
}

TEST(ServerTimings, PartialTimingsGiveWhatTheyCan) {
  const auto prefill_only = compute_metrics({with_timings(20.0, std::nullopt)}, client_streaming());
  EXPECT_NEAR(get(prefill_only, "server_prefill_time").stats.avg, 20.0, kTol);
  EXPECT_NEAR(get(prefill_only, "server_ttft_overhead").stats.avg, 5.0, kTol);
  EXPECT_EQ(prefill_only.find("server_decode_time"), nullptr);
  EXPECT_EQ(prefill_only.find("server_time"), nullptr);
  EXPECT_EQ(prefill_only.find("client_overhead_time"), nullptr);
  const auto decode_only = compute_metrics({with_timings(std::nullopt, 90.0)}, client_streaming());
  EXPECT_NEAR(get(decode_only, "server_decode_time").stats.avg, 90.0, kTol);
  EXPECT_EQ(decode_only.find("server_ttft_overhead"), nullptr);
}

TEST(ServerTimings, DifferencesAreExactAtWallClockMagnitudes) {
  // Records read back from disk carry wall-clock ns (~1.7e18, beyond a double's 2^53). Server ms
  // become integer ns once (20.000001 ms -> 20,000,001 ns), then every difference is an integer.
  constexpr std::int64_t kWall = 1'700'000'000'123'456'789;
  RequestRecord r;
  r.start_ns = kWall;
  r.content_events = {ContentEvent{kWall + 20'000'004, 0, "a", ""},
                      ContentEvent{kWall + 120'000'001, 1, "b", ""}};
  r.server_timings = ServerTimings{20.000001, 90.0, std::nullopt, std::nullopt, std::nullopt, "x"};
  const auto result = compute_metrics({r}, client_streaming());
  EXPECT_EQ(scalar_of(result.per_record[0], "client_overhead_time"), 10'000'000.0);
  EXPECT_EQ(scalar_of(result.per_record[0], "server_ttft_overhead"), 3.0);
  EXPECT_EQ(scalar_of(result.per_record[0], "server_prefill_time"), 20'000'001.0);
}

TEST(ServerTimings, ImpossibleValuesAreSkipped) {
  // Negative or astronomically large values (only possible in a hand-edited records file).
  const auto result = compute_metrics({with_timings(-1.0, 1e300)}, client_streaming());
  EXPECT_EQ(result.find("server_prefill_time"), nullptr);
  EXPECT_EQ(result.find("server_decode_time"), nullptr);
  EXPECT_EQ(result.find("client_overhead_time"), nullptr);
}

TEST(ServerTimings, CanBeGoodputObjectives) {
  MetricOptions o = client_streaming();
  ASSERT_FALSE(parse_goodput("client_overhead_time:5", o.goodput).has_value());
  RequestRecord tight = with_timings(20.0, 97.0);  // overhead 3 ms
  const auto result = compute_metrics({with_timings(20.0, 90.0), tight}, o);
  EXPECT_NEAR(get(result, "good_request_count").value, 1.0, kTol);
}

// AIPerf 0.11 console groups (spec delta 3.2); inferperf's own metrics stay out of AIPerf's tables.
TEST(ConsoleGroups, AIPerfValuesAndNames) {
  auto group = [](std::string_view tag) { return find_metric(tag)->console_group; };
  for (auto tag : {"request_latency", "time_to_first_token", "error_request_count",
                   "e2e_output_token_throughput", "goodput", "time_to_first_output_token"})
    EXPECT_EQ(group(tag), ConsoleGroup::kDefault) << tag;
  for (auto tag :
       {"usage_prompt_tokens", "total_usage_reasoning_tokens", "usage_prompt_cache_read_tokens",
        "total_usage_prompt_audio_seconds", "overall_usage_prompt_cache_read_pct"})
    EXPECT_EQ(group(tag), ConsoleGroup::kUsage) << tag;
  for (auto tag : {"good_request_count", "good_request_fraction", "inter_chunk_latency",
                   "usage_prompt_tokens_diff_pct", "http_req_total", "total_osl", "schedule_lag",
                   "vllm_tpot", "server_time"})
    EXPECT_EQ(group(tag), ConsoleGroup::kNone) << tag;
  EXPECT_EQ(to_string(ConsoleGroup::kNone), "none");
  EXPECT_EQ(to_string(ConsoleGroup::kDefault), "default");
  EXPECT_EQ(to_string(ConsoleGroup::kUsage), "usage");
  EXPECT_EQ(to_string(ConsoleGroup::kCache), "cache");
  EXPECT_EQ(to_string(ConsoleGroup::kPrediction), "prediction");
  EXPECT_EQ(to_string(ConsoleGroup::kAudio), "audio");
  EXPECT_EQ(to_string(ConsoleGroup::kReasoning), "reasoning");
  // Every usage record metric and its total share the group, unit and integral-ness of tokens.
  const MetricInfo* sec = find_metric("total_usage_prompt_audio_seconds");
  EXPECT_EQ(sec->unit, "sec");
  EXPECT_FALSE(sec->integral);
  EXPECT_TRUE(find_metric("total_usage_prompt_cache_read_tokens")->integral);
  EXPECT_EQ(find_metric("good_request_fraction")->header, "GoodRequestFraction");
}

// chunked(): OSL 9 over a 28 ms latency -> 9 / 0.028 = 321.428... tok/s, streaming or not.
TEST(E2eOutputTokenThroughput, OslOverLatencyInSeconds) {
  MetricOptions o = client_streaming();
  EXPECT_NEAR(get(compute_metrics({chunked()}, o), "e2e_output_token_throughput").stats.avg,
              9.0 / 0.028, 1e-9);
  o.streaming = false;
  EXPECT_NEAR(get(compute_metrics({chunked()}, o), "e2e_output_token_throughput").stats.avg,
              9.0 / 0.028, 1e-9);
  // No value for a zero latency (content at the start instant) or an endpoint without tokens.
  RequestRecord instant = chunked();
  instant.content_events = {ContentEvent{kT0, 0, "abc", ""}};
  EXPECT_EQ(compute_metrics({instant}, o).find("e2e_output_token_throughput"), nullptr);
  o.produces_tokens = false;
  EXPECT_EQ(compute_metrics({chunked()}, o).find("e2e_output_token_throughput"), nullptr);
}

// Two records: A sends prompt 100 with 60 cached, 1.5 s of audio, 2 accepted predictions;
// B sends prompt 50 and nothing else. Totals only over the records that sent the field; the
// cache-read share is 100 x 60 / 150 = 40 %.
TEST(UsageDetails, RecordValuesTotalsAndCacheReadShare) {
  RequestRecord a = chunked();
  a.usage.prompt_tokens = 100;
  a.usage.reasoning_tokens = 4;
  a.usage.prompt_cache_read_tokens = 60;
  a.usage.prompt_cache_write_tokens = 0;
  a.usage.prompt_audio_seconds = 1.5;
  a.usage.accepted_prediction_tokens = 2;
  RequestRecord b = chunked();
  b.usage.prompt_tokens = 50;
  const auto r = compute_metrics({a, b}, client_streaming());
  const auto& read = get(r, "usage_prompt_cache_read_tokens");
  EXPECT_EQ(read.stats.count, 1);
  EXPECT_NEAR(read.stats.avg, 60.0, kTol);
  EXPECT_NEAR(get(r, "usage_prompt_cache_write_tokens").stats.avg, 0.0, kTol);  // sent as 0
  EXPECT_NEAR(get(r, "usage_prompt_audio_seconds").stats.avg, 1.5, kTol);
  EXPECT_NEAR(get(r, "total_usage_prompt_cache_read_tokens").value, 60.0, kTol);
  EXPECT_NEAR(get(r, "total_usage_prompt_cache_write_tokens").value, 0.0, kTol);
  EXPECT_NEAR(get(r, "total_usage_prompt_audio_seconds").value, 1.5, kTol);
  EXPECT_NEAR(get(r, "total_usage_accepted_prediction_tokens").value, 2.0, kTol);
  EXPECT_NEAR(get(r, "total_usage_reasoning_tokens").value, 4.0, kTol);
  EXPECT_NEAR(get(r, "overall_usage_prompt_cache_read_pct").value, 40.0, kTol);
  for (auto tag : {"usage_prompt_cache_miss_tokens", "total_usage_prompt_cache_miss_tokens",
                   "usage_tool_use_prompt_tokens", "usage_completion_audio_tokens",
                   "total_usage_rejected_prediction_tokens"})
    EXPECT_EQ(r.find(tag), nullptr) << tag << ": no server sent it";
  // Without any cache-read count there is no share.
  EXPECT_EQ(compute_metrics({b}, client_streaming()).find("overall_usage_prompt_cache_read_pct"),
            nullptr);
}

// AIPerf 0.11 marks the usage counts larger-is-better: as goodput objectives they compare >=.
TEST(Goodput, UsageCountsAreLargerIsBetter) {
  RequestRecord a = chunked();
  a.usage.prompt_tokens = 100;
  a.usage.prompt_cache_read_tokens = 60;
  RequestRecord b = a;
  b.usage.prompt_cache_read_tokens = 20;
  MetricOptions o = client_streaming();
  ASSERT_FALSE(parse_goodput("usage_prompt_cache_read_tokens:50 usage_prompt_tokens:100", o.goodput)
                   .has_value());
  const auto r = compute_metrics({a, b}, o);
  EXPECT_TRUE(r.per_record[0].good);
  EXPECT_FALSE(r.per_record[1].good);
  EXPECT_NEAR(get(r, "good_request_fraction").value, 0.5, kTol);
}

// good / (valid + errors): 1 good of 2 valid and 2 failed requests -> 0.25; 0 with nothing tried.
TEST(Goodput, GoodRequestFractionCountsErrorsAsAttempts) {
  RequestRecord slow = chunked();
  for (auto& e : slow.content_events) e.ts_ns += 30 * kMs;
  RequestRecord failed = chunked();
  failed.error = records::ErrorInfo{500, core::RequestErrorType::from_name("HTTPError"), "x"};
  MetricOptions o = client_streaming();
  ASSERT_FALSE(parse_goodput("time_to_first_token:20", o.goodput).has_value());
  const auto r = compute_metrics({chunked(), slow, failed, failed}, o);
  EXPECT_NEAR(get(r, "good_request_fraction").value, 0.25, kTol);
  EXPECT_EQ(get(r, "good_request_fraction").info->header, "GoodRequestFraction");
  EXPECT_NEAR(get(compute_metrics(std::vector<RequestRecord>{}, o), "good_request_fraction").value,
              0.0, kTol);
  EXPECT_EQ(compute_metrics({chunked()}, client_streaming()).find("good_request_fraction"), nullptr)
      << "only with --goodput";
}

}  // namespace
}  // namespace inferperf::metrics

namespace inferperf::metrics {
namespace {

// chunked() with 3 pictures sent over its 28 ms latency: AIPerf's IMAGE metrics on a chat run
// count the pictures the request carried: 3 / 0.028 s = 107.14... images/s, 28 / 3 ms/image.
TEST(ImageInputMetrics, PicturesSentOverTheRequestLatency) {
  RequestRecord r = chunked();
  r.input_images = 3;
  const BenchmarkResult b = compute_metrics({r}, client_streaming());
  EXPECT_NEAR(get(b, "num_images").stats.avg, 3.0, kTol);
  EXPECT_NEAR(get(b, "image_throughput").stats.avg, 3.0 / 0.028, 1e-6);
  EXPECT_NEAR(get(b, "image_latency").stats.avg, 28.0 / 3.0, 1e-9);
  // A request without pictures has none of them.
  EXPECT_EQ(compute_metrics({chunked()}, client_streaming()).find("num_images"), nullptr);
}

}  // namespace
}  // namespace inferperf::metrics
