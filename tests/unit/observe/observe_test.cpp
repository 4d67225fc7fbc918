// The live exporters' encodings from known observations: the OTLP JSON of one histogram, one
// counter and one gauge (field names and types), and the Prometheus page (cumulative buckets,
// +Inf equal to _count), read back with the project's own parser.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "observe/live_metrics.hpp"
#include "observe/otlp_json.hpp"
#include "observe/prometheus_endpoint.hpp"
#include "telemetry/prometheus.hpp"

namespace inferperf::observe {
namespace {

using nlohmann::json;

records::RequestRecord record_with(core::MonoNs start, core::MonoNs first, core::MonoNs second,
                                   core::MonoNs end, std::int64_t in, std::int64_t out) {
  records::RequestRecord r;
  r.conversation_id = "c0";
  r.start_ns = start;
  r.end_ns = end;
  r.content_events.push_back({first, 0, "a", ""});
  r.content_events.push_back({second, 1, "b", ""});
  r.usage.prompt_tokens = in;
  r.usage.completion_tokens = out;
  return r;
}

std::vector<PhaseLoad> known_load() {
  return {{"profiling", 3, 1}};
}

// Two profiling requests (latencies 0.015 s and 0.5 s, TTFT 0.005 s and 0.1 s) and one failure.
void feed_known(LiveMetrics& m) {
  m.add(record_with(1'000'000'000, 1'005'000'000, 1'010'000'000, 1'015'000'000, 10, 100));
  m.add(record_with(2'000'000'000, 2'100'000'000, 2'400'000'000, 2'500'000'000, 3, 2));
  records::RequestRecord failed;
  failed.conversation_id = "c0";
  failed.start_ns = 3'000'000'000;
  failed.error = records::ErrorInfo{500, {}, "boom"};
  m.add(failed);
}

const json& metric_named(const json& metrics, const std::string& name) {
  for (const auto& m : metrics)
    if (m["name"] == name) return m;
  static const json none;
  ADD_FAILURE() << name << " missing";
  return none;
}

TEST(OtlpJson, HistogramCounterAndGaugeFields) {
  LiveMetrics m({{"c0", 1}}, known_load);
  feed_known(m);
  OtlpIdentity id;
  id.service_version = "9.9";
  id.request_model = "mock-model";
  id.resource_attributes = {{"team", "perf"}};
  const json body = json::parse(encode_otlp_json(m.snapshot(), id, 42));
  const json& rm = body["resourceMetrics"][0];
  EXPECT_EQ(rm["resource"]["attributes"][0]["key"], "service.name");
  EXPECT_EQ(rm["resource"]["attributes"][0]["value"]["stringValue"], "inferperf");
  EXPECT_EQ(rm["resource"]["attributes"][2]["key"], "team");
  EXPECT_EQ(rm["scopeMetrics"][0]["scope"]["name"], "inferperf");
  EXPECT_EQ(rm["scopeMetrics"][0]["scope"]["version"], "9.9");
  const json& metrics = rm["scopeMetrics"][0]["metrics"];

  const json& duration = metric_named(metrics, "gen_ai.client.operation.duration");
  EXPECT_EQ(duration["unit"], "s");
  EXPECT_EQ(duration["histogram"]["aggregationTemporality"], 2);
  const json& p = duration["histogram"]["dataPoints"][0];
  EXPECT_EQ(p["startTimeUnixNano"], "42");
  EXPECT_TRUE(p["timeUnixNano"].is_string());
  EXPECT_EQ(p["count"], "2");
  EXPECT_NEAR(p["sum"].get<double>(), 0.515, 1e-9);
  ASSERT_EQ(p["explicitBounds"].size(), 14u);
  EXPECT_EQ(p["explicitBounds"][0], 0.01);
  ASSERT_EQ(p["bucketCounts"].size(), 15u);
  // 0.015 s falls in (0.01, 0.02], 0.5 s in (0.32, 0.64].
  EXPECT_EQ(p["bucketCounts"][1], "1");
  EXPECT_EQ(p["bucketCounts"][6], "1");
  EXPECT_EQ(p["bucketCounts"][0], "0");
  std::map<std::string, std::string> attrs;
  for (const auto& a : p["attributes"]) attrs[a["key"]] = a["value"]["stringValue"];
  EXPECT_EQ(attrs["gen_ai.operation.name"], "chat");
  EXPECT_EQ(attrs["gen_ai.provider.name"], "openai");
  EXPECT_EQ(attrs["gen_ai.request.model"], "mock-model");
  EXPECT_EQ(attrs["aiperf.benchmark_phase"], "profiling");

  const json& tokens = metric_named(metrics, "gen_ai.client.token.usage");
  ASSERT_EQ(tokens["histogram"]["dataPoints"].size(), 2u);  // input and output
  EXPECT_EQ(tokens["histogram"]["dataPoints"][1]["sum"], 102.0);

  const json& completed = metric_named(metrics, "aiperf.timing.requests.completed");
  EXPECT_EQ(completed["sum"]["aggregationTemporality"], 2);
  EXPECT_EQ(completed["sum"]["isMonotonic"], true);
  EXPECT_EQ(completed["sum"]["dataPoints"][0]["asInt"], "2");
  EXPECT_EQ(metric_named(metrics, "aiperf.timing.requests.errors")["sum"]["dataPoints"][0]["asInt"],
            "1");
  EXPECT_EQ(metric_named(metrics, "aiperf.timing.requests.sent")["sum"]["dataPoints"][0]["asInt"],
            "3");
  const json& in_flight = metric_named(metrics, "aiperf.timing.requests.in_flight");
  EXPECT_EQ(in_flight["gauge"]["dataPoints"][0]["asInt"], "1");
  EXPECT_EQ(
      metric_named(metrics, "aiperf.timing.sessions.completed")["sum"]["dataPoints"][0]["asInt"],
      "3");
}

TEST(OtlpJson, DomainsCanBeLeftOut) {
  LiveMetrics m({{"c0", 1}}, known_load);
  feed_known(m);
  OtlpIdentity id;
  id.metrics = false;
  const json body = json::parse(encode_otlp_json(m.snapshot(), id, 0));
  for (const auto& metric : body["resourceMetrics"][0]["scopeMetrics"][0]["metrics"])
    EXPECT_EQ(metric["name"].get<std::string>().rfind("aiperf.timing.", 0), 0u) << metric["name"];
  EXPECT_EQ(gen_ai_operation_name("completions"), "text_completion");
  EXPECT_EQ(gen_ai_operation_name("embeddings"), "embeddings");
}

TEST(PrometheusText, CumulativeBucketsAndCounts) {
  LiveMetrics m({{"c0", 1}}, known_load);
  feed_known(m);
  const telemetry::Page page = telemetry::parse_prometheus(render_prometheus_text(m.snapshot()));
  EXPECT_EQ(page.skipped_lines, 0) << page.first_problem;
  const telemetry::Family* completed =
      page.find("inferperf_requests_completed");  // counters: the family drops _total
  ASSERT_NE(completed, nullptr);
  EXPECT_EQ(completed->type, telemetry::MetricType::kCounter);
  EXPECT_EQ(completed->samples.at(0).value, 2);
  const telemetry::Family* ttft = page.find("inferperf_time_to_first_token_seconds");
  ASSERT_NE(ttft, nullptr);
  const auto hs = telemetry::histograms_of(*ttft);
  ASSERT_EQ(hs.size(), 1u);
  const auto& h = hs[0];
  EXPECT_EQ(h.count, 2);
  EXPECT_NEAR(h.sum, 0.105, 1e-9);
  double previous = 0;
  for (const auto& [le, n] : h.buckets) {
    EXPECT_GE(n, previous) << "le=" << le;
    previous = n;
  }
  EXPECT_TRUE(std::isinf(h.buckets.back().first));
  EXPECT_EQ(h.buckets.back().second, h.count);
  EXPECT_EQ(h.buckets.front().second, 1);  // 0.005 s <= 0.01
}

}  // namespace
}  // namespace inferperf::observe
