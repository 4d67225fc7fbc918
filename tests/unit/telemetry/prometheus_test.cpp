#include "telemetry/prometheus.hpp"

#include "report/telemetry_exports.hpp"
#include "telemetry/scrape_log.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace inferperf::telemetry {
namespace {

// A vLLM-style page: counters with _total, a histogram, an info gauge, comments, escapes.
const char* kVllmPage =
    R"(# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-0.6B"} 3.0
# HELP vllm:prompt_tokens_total Number of prefill tokens processed.
# TYPE vllm:prompt_tokens_total counter
vllm:prompt_tokens_total{engine="0",model_name="Qwen/Qwen3-0.6B"} 1234.0
# HELP vllm:time_to_first_token_seconds Histogram of time to first token in seconds.
# TYPE vllm:time_to_first_token_seconds histogram
vllm:time_to_first_token_seconds_bucket{engine="0",le="0.01",model_name="m"} 2.0
vllm:time_to_first_token_seconds_bucket{engine="0",le="0.1",model_name="m"} 7.0
vllm:time_to_first_token_seconds_bucket{engine="0",le="+Inf",model_name="m"} 10.0
vllm:time_to_first_token_seconds_count{engine="0",model_name="m"} 10.0
vllm:time_to_first_token_seconds_sum{engine="0",model_name="m"} 0.75
vllm:time_to_first_token_seconds_created{engine="0",model_name="m"} 1.7e9
# TYPE weird gauge
weird{path="C:\\dir",quote="say \"hi\"",nl="a\nb",} -Inf 1700000000123
# HELP python_gc_objects_collected Objects collected during gc
# TYPE rpc_duration summary
rpc_duration{quantile="0.5"} 4.2
rpc_duration_sum 17
rpc_duration_count 4
untyped_thing 42
)";

TEST(Prometheus, ParsesFamiliesTypesHelpAndSamples) {
  const Page page = parse_prometheus(kVllmPage);
  EXPECT_EQ(page.skipped_lines, 0) << page.first_problem;
  const Family* running = page.find("vllm:num_requests_running");
  ASSERT_NE(running, nullptr);
  EXPECT_EQ(running->type, MetricType::kGauge);
  EXPECT_EQ(running->help, "Number of requests in model execution batches.");
  ASSERT_EQ(running->samples.size(), 1u);
  EXPECT_DOUBLE_EQ(running->samples[0].value, 3.0);
  const Labels expected = {{"engine", "0"}, {"model_name", "Qwen/Qwen3-0.6B"}};
  EXPECT_EQ(running->samples[0].labels, expected);

  // Declared `# TYPE vllm:prompt_tokens_total counter`: the family is named without `_total`, as
  // AIPerf 0.11 keys it; the samples keep their names.
  EXPECT_EQ(page.find("vllm:prompt_tokens_total"), nullptr);
  const Family* prompt = page.find("vllm:prompt_tokens");
  ASSERT_NE(prompt, nullptr);
  EXPECT_EQ(prompt->samples.at(0).name, "vllm:prompt_tokens_total");
  EXPECT_EQ(prompt->type, MetricType::kCounter);
  EXPECT_DOUBLE_EQ(prompt->samples.at(0).value, 1234.0);

  const Family* ttft = page.find("vllm:time_to_first_token_seconds");
  ASSERT_NE(ttft, nullptr);
  EXPECT_EQ(ttft->type, MetricType::kHistogram);
  EXPECT_EQ(ttft->samples.size(), 6u);  // 3 buckets, count, sum, created
  const auto hs = histograms_of(*ttft);
  ASSERT_EQ(hs.size(), 1u);
  const Labels series = {{"engine", "0"}, {"model_name", "m"}};
  EXPECT_EQ(hs[0].labels, series);
  ASSERT_EQ(hs[0].buckets.size(), 3u);
  EXPECT_DOUBLE_EQ(hs[0].buckets[0].first, 0.01);
  EXPECT_DOUBLE_EQ(hs[0].buckets[1].second, 7.0);
  EXPECT_TRUE(std::isinf(hs[0].buckets[2].first));
  EXPECT_DOUBLE_EQ(hs[0].count, 10.0);
  EXPECT_DOUBLE_EQ(hs[0].sum, 0.75);

  const Family* weird = page.find("weird");
  ASSERT_NE(weird, nullptr);
  ASSERT_EQ(weird->samples.size(), 1u);
  const auto& w = weird->samples[0];
  const Labels unescaped = {{"nl", "a\nb"}, {"path", "C:\\dir"}, {"quote", "say \"hi\""}};
  EXPECT_EQ(w.labels, unescaped);
  EXPECT_TRUE(std::isinf(w.value) && w.value < 0);
  ASSERT_TRUE(w.timestamp_ms.has_value());
  EXPECT_EQ(*w.timestamp_ms, 1700000000123);

  const Family* summary = page.find("rpc_duration");
  ASSERT_NE(summary, nullptr);
  EXPECT_EQ(summary->type, MetricType::kSummary);
  EXPECT_EQ(summary->samples.size(), 3u);
  const Family* untyped = page.find("untyped_thing");
  ASSERT_NE(untyped, nullptr);
  EXPECT_EQ(untyped->type, MetricType::kUntyped);
  EXPECT_DOUBLE_EQ(untyped->samples.at(0).value, 42.0);
}

TEST(Prometheus, OpenMetricsCounterFamilyOwnsItsTotalSample) {
  const Page page = parse_prometheus(
      "# TYPE requests counter\nrequests_total{code=\"200\"} 5\nrequests_created 1.5e9\n# EOF\n");
  ASSERT_EQ(page.families.size(), 1u);
  EXPECT_EQ(page.families[0].name, "requests");
  EXPECT_EQ(page.families[0].samples.size(), 2u);
  EXPECT_EQ(page.skipped_lines, 0);
}

TEST(Prometheus, BadLinesAreSkippedAndCountedNotFatal) {
  const Page page = parse_prometheus(
      "good 1\n"
      "bad{unterminated=\"x 1\n"
      "novalue\n"
      "nolabelvalue{a=b} 1\n"
      "# TYPE t bogus\n"
      "{x=\"y\"} 3\n"
      "also_good{a=\"1\"} 2.5e3\r\n"
      "bad_number 1.2.3\n"
      "bad_ts 1 notatime\n");
  EXPECT_EQ(page.skipped_lines, 7);
  EXPECT_EQ(page.first_problem.rfind("line 2:", 0), 0u) << page.first_problem;
  ASSERT_NE(page.find("good"), nullptr);
  ASSERT_NE(page.find("also_good"), nullptr);
  EXPECT_DOUBLE_EQ(page.find("also_good")->samples[0].value, 2500.0);
}

TEST(Prometheus, NumbersRoundTripThroughFormat) {
  EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "+Inf");
  EXPECT_EQ(format_number(0.005), "0.005");
  EXPECT_EQ(format_number(2.0), "2");
  EXPECT_EQ(escape_label_value("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
  const std::string line = "m{l=\"" + escape_label_value("q\"\\\n") + "\"} 1";
  const Page page = parse_prometheus(line);
  ASSERT_EQ(page.families.size(), 1u);
  EXPECT_EQ(page.families[0].samples[0].labels[0].second, "q\"\\\n");
}

// Random garbage and random mutations of a real page: the parser never crashes, never loops,
// and every sample it returns has a well-formed name.
TEST(Prometheus, SurvivesGarbageAndMutations) {
  std::mt19937_64 rng(20261130);
  const std::string base = kVllmPage;
  const std::string alphabet = "{}\"\\=,# \n\t_:aZ09.+-eInfNa\r\x01\xff";
  for (int iter = 0; iter < 3000; ++iter) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng() % 20);
    for (int e = 0; e < edits; ++e) {
      const std::size_t at = rng() % (text.size() + 1);
      switch (rng() % 3) {
        case 0:
          text.insert(at, 1, alphabet[rng() % alphabet.size()]);
          break;
        case 1:
          if (at < text.size()) text.erase(at, 1 + rng() % 8);
          break;
        default:
          if (at < text.size()) text[at] = alphabet[rng() % alphabet.size()];
      }
    }
    if (iter % 3 == 0) {
      text.clear();
      for (int k = 0; k < 200; ++k) text += alphabet[rng() % alphabet.size()];
    }
    if (iter % 5 == 1) text += "\nx{l=\"\xff\xfe\"} NaN\nc_total +Inf\n";
    const Page page = parse_prometheus(text);
    // Whatever was read goes through the server-metrics exports without throwing.
    std::vector<ScrapeLog> logs(1);
    logs[0].add(page, 0, 1);
    logs[0].add(page, 2, 3);
    std::vector<EndpointState> eps(1);
    report::ServerMetricsInput in;
    in.logs = &logs;
    in.endpoints = &eps;
    in.window = {0, 4};
    const auto j = report::server_metrics_json(in);
    (void)j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)report::server_metrics_csv(j);
    for (const auto& f : page.families) {
      for (const auto& s : f.samples) {
        ASSERT_FALSE(s.name.empty());
      }
      if (f.type == MetricType::kHistogram) (void)histograms_of(f);
    }
  }
}

// vLLM's Rust frontend serves OpenMetrics: counter TYPE lines carry the base name, samples the
// `_total` suffix, `_created` samples and `# UNIT` lines appear, and `# EOF` ends the page.
const char* kVllmOpenMetricsPage =
    R"(# HELP vllm:num_requests_running Number of requests in model execution batches.
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-0.6B"} 3
# HELP vllm:prompt_tokens Number of prefill tokens processed.
# TYPE vllm:prompt_tokens counter
vllm:prompt_tokens_total{engine="0",model_name="Qwen/Qwen3-0.6B"} 1234
vllm:prompt_tokens_created{engine="0",model_name="Qwen/Qwen3-0.6B"} 1.7e9
# HELP vllm:e2e_request_latency_seconds Histogram of e2e request latency in seconds.
# TYPE vllm:e2e_request_latency_seconds histogram
# UNIT vllm:e2e_request_latency_seconds seconds
vllm:e2e_request_latency_seconds_bucket{engine="0",model_name="Qwen/Qwen3-0.6B",le="0.3"} 1
vllm:e2e_request_latency_seconds_bucket{engine="0",model_name="Qwen/Qwen3-0.6B",le="+Inf"} 4
vllm:e2e_request_latency_seconds_sum{engine="0",model_name="Qwen/Qwen3-0.6B"} 2.5
vllm:e2e_request_latency_seconds_count{engine="0",model_name="Qwen/Qwen3-0.6B"} 4
vllm:e2e_request_latency_seconds_created{engine="0",model_name="Qwen/Qwen3-0.6B"} 1.7e9
# HELP vllm:engine_sleep_state Engine sleep state.
# TYPE vllm:engine_sleep_state unknown
vllm:engine_sleep_state{engine="0",sleep_state="awake"} 1
# EOF
)";

TEST(Prometheus, OpenMetricsPageOfTheVllmRustFrontend) {
  const Page page = parse_prometheus(kVllmOpenMetricsPage);
  EXPECT_EQ(page.skipped_lines, 0) << page.first_problem;
  ASSERT_EQ(page.families.size(), 4u);
  const Family* tokens = page.find("vllm:prompt_tokens");
  ASSERT_NE(tokens, nullptr);
  EXPECT_EQ(tokens->type, MetricType::kCounter);
  EXPECT_EQ(tokens->help, "Number of prefill tokens processed.");
  EXPECT_EQ(page.find("vllm:prompt_tokens_total"), nullptr);  // no phantom family
  EXPECT_EQ(page.find("vllm:engine_sleep_state")->type, MetricType::kUntyped);
  const auto h = histograms_of(*page.find("vllm:e2e_request_latency_seconds"));
  ASSERT_EQ(h.size(), 1u);
  EXPECT_DOUBLE_EQ(h[0].count, 4.0);
  EXPECT_DOUBLE_EQ(h[0].sum, 2.5);

  // Stored and exported as AIPerf 0.11 does: `_created` is no series, the unknown family is
  // gauge-shaped.
  std::vector<ScrapeLog> logs(1, ScrapeLog("http://v:8000/metrics"));
  logs[0].add(page, 0, 1'000'000);
  for (const auto& s : logs[0].series()) EXPECT_EQ(s.family.find("_created"), std::string::npos);
  std::vector<EndpointState> eps(1);
  eps[0].url = "http://v:8000/metrics";
  report::ServerMetricsInput in;
  in.logs = &logs;
  in.endpoints = &eps;
  in.window = {0, 2'000'000};
  const auto j = report::server_metrics_json(in);
  EXPECT_EQ(j["metrics"]["vllm:prompt_tokens"]["type"], "counter");
  EXPECT_EQ(j["metrics"]["vllm:e2e_request_latency_seconds"]["type"], "histogram");
  const auto& sleep = j["metrics"]["vllm:engine_sleep_state"];
  EXPECT_EQ(sleep["type"], "unknown");
  EXPECT_EQ(sleep["series"][0]["labels"]["sleep_state"], "awake");
  EXPECT_DOUBLE_EQ(sleep["series"][0]["stats"]["avg"].get<double>(), 1.0);
  EXPECT_TRUE(sleep["series"][0]["stats"].contains("p99"));
}

// SGLang writes `NaN` for idle ratios; one such sample (or an infinity, or a value that is no
// number) must cost only itself, never the scrape, and must not count as a change.
TEST(Prometheus, MalformedSampleValuesAreSkippedNotTheScrape) {
  const std::string text =
      "# HELP sglang:cache_hit_rate The prefix cache hit rate.\n"
      "# TYPE sglang:cache_hit_rate gauge\n"
      "sglang:cache_hit_rate{model_name=\"m\"} 0.25\n"
      "# TYPE sglang:fwd_occupancy gauge\n"
      "sglang:fwd_occupancy{model_name=\"m\"} NaN\n"
      "# TYPE sglang:spec_accept_length gauge\n"
      "sglang:spec_accept_length{model_name=\"m\"} -Inf\n"
      "# TYPE sglang:num_running_reqs gauge\n"
      "sglang:num_running_reqs{model_name=\"m\"} 1,5\n"
      "sglang:num_queue_reqs{model_name=\"m\"} 2\n";
  const Page page = parse_prometheus(text);
  EXPECT_EQ(page.skipped_lines, 1);  // "1,5": the line is skipped, the page kept
  std::vector<ScrapeLog> logs(1, ScrapeLog("http://g:30000/metrics"));
  logs[0].add(page, 0, 1'000'000);
  logs[0].add(parse_prometheus(text), 1'000'000'000, 1'001'000'000);
  std::vector<std::string> families;
  for (const auto& s : logs[0].series()) families.push_back(s.family);
  EXPECT_EQ(families, (std::vector<std::string>{"sglang:cache_hit_rate", "sglang:num_queue_reqs"}));
  std::vector<EndpointState> eps(1);
  eps[0].url = "http://g:30000/metrics";
  report::ServerMetricsInput in;
  in.logs = &logs;
  in.endpoints = &eps;
  in.window = {0, 2'000'000'000};
  const auto j = report::server_metrics_json(in);
  EXPECT_DOUBLE_EQ(j["metrics"]["sglang:cache_hit_rate"]["series"][0]["stats"]["avg"].get<double>(),
                   0.25);
  EXPECT_EQ(j["metrics"]["sglang:num_queue_reqs"]["type"], "unknown");  // no TYPE line
  EXPECT_FALSE(j["metrics"].contains("sglang:fwd_occupancy"));
  EXPECT_EQ(j["summary"]["endpoint_info"]["http://g:30000/metrics"]["unique_updates"], 1);
}

}  // namespace
}  // namespace inferperf::telemetry
