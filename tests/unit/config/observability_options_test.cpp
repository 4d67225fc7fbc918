// The live observability options: the OTLP URL's normal form, --stream's domains, the resource
// attributes, and the flags that need --otel-url.
#include <gtest/gtest.h>

#include "config/cli.hpp"
#include "config/observability_options.hpp"

namespace inferperf::config {
namespace {

TEST(OtelUrl, BareHostGetsHttpAndThePath) {
  EXPECT_EQ(normalise_otel_url("host:4318").value(), "http://host:4318/v1/metrics");
  EXPECT_EQ(normalise_otel_url("collector").value(), "http://collector/v1/metrics");
  EXPECT_EQ(normalise_otel_url("http://h:4318/").value(), "http://h:4318/v1/metrics");
  EXPECT_EQ(normalise_otel_url("http://h:4318/v1/metrics").value(), "http://h:4318/v1/metrics");
}

TEST(OtelUrl, HttpsKeepsItsSchemeAndPath) {
  EXPECT_EQ(normalise_otel_url("https://otel.example.com/otlp").value(),
            "https://otel.example.com/otlp/v1/metrics");
}

TEST(OtelUrl, OtherSchemesAndEmptyHostsAreRefused) {
  const auto ftp = normalise_otel_url("ftp://h:4318");
  ASSERT_FALSE(ftp);
  EXPECT_NE(ftp.error().message.find("scheme 'ftp'"), std::string::npos);
  EXPECT_FALSE(normalise_otel_url("http:///v1/metrics"));
  EXPECT_FALSE(normalise_otel_url(""));
}

TEST(OtelStream, DomainsAndErrors) {
  EXPECT_EQ(parse_stream_domains({}).value(), (std::pair(true, true)));
  EXPECT_EQ(parse_stream_domains({"metrics"}).value(), (std::pair(true, false)));
  EXPECT_EQ(parse_stream_domains({"TIMING"}).value(), (std::pair(false, true)));
  EXPECT_EQ(parse_stream_domains({"metrics,timing"}).value(), (std::pair(true, true)));
  EXPECT_EQ(parse_stream_domains({"default"}).value(), (std::pair(true, true)));
  EXPECT_EQ(parse_stream_domains({"none"}).value(), (std::pair(false, false)));
  const auto bad = parse_stream_domains({"metrics", "traces"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message.find("'traces'"), std::string::npos);
}

TEST(OtelResourceAttributes, PairsAndErrors) {
  const auto ok = parse_resource_attributes({"team=perf, env=ci", "k=a=b"});
  ASSERT_TRUE(ok);
  ASSERT_EQ(ok->size(), 3u);
  EXPECT_EQ((*ok)[1].first, "env");
  EXPECT_EQ((*ok)[1].second, "ci");
  EXPECT_EQ((*ok)[2].second, "a=b");
  EXPECT_FALSE(parse_resource_attributes({"=v"}));
  EXPECT_FALSE(parse_resource_attributes({"k="}));
  EXPECT_FALSE(parse_resource_attributes({"novalue"}));
}

TEST(OtelOptions, ParsedIntoTheRunConfig) {
  const auto o =
      parse_command_line({"profile", "-m", "x", "--otel-url", "127.0.0.1:4318", "--stream",
                          "timing", "--otel-resource-attributes", "team=perf", "--gen-ai-provider",
                          "vllm", "--prometheus-port", "0"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  const ObservabilityConfig& c = o.config.observability;
  EXPECT_EQ(c.otel_url, "http://127.0.0.1:4318/v1/metrics");
  EXPECT_FALSE(c.stream_metrics);
  EXPECT_TRUE(c.stream_timing);
  EXPECT_EQ(c.gen_ai_provider, "vllm");
  EXPECT_EQ(c.prometheus_port, 0);
  EXPECT_EQ(c.prometheus_host, "127.0.0.1");
  const auto none =
      parse_command_line({"profile", "-m", "x", "--otel-url", "h", "--stream", "none"});
  EXPECT_FALSE(none.config.observability.otel_enabled());
}

TEST(OtelOptions, SecondaryFlagsNeedTheUrl) {
  const auto o = parse_command_line({"profile", "-m", "x", "--gen-ai-provider", "vllm"});
  EXPECT_EQ(o.exit_code, 2);
  EXPECT_NE(o.message.find("--gen-ai-provider applies only with --otel-url"), std::string::npos)
      << o.message;
}

TEST(MlflowOptions, UriTagsAndSecondaryFlags) {
  EXPECT_EQ(normalise_mlflow_uri("localhost:5000/").value(), "http://localhost:5000");
  EXPECT_EQ(normalise_mlflow_uri("https://mlflow.example.com/x/").value(),
            "https://mlflow.example.com/x");
  for (const char* bad : {"", "databricks", "file:///tmp/mlruns", "sqlite:///m.db", "http://"})
    EXPECT_FALSE(normalise_mlflow_uri(bad)) << bad;
  const auto tags = parse_mlflow_tags({"team:perf, env:ci", R"({"gpu": "h100", "n": 8})"});
  ASSERT_TRUE(tags);
  const std::vector<std::pair<std::string, std::string>> want = {
      {"team", "perf"}, {"env", "ci"}, {"gpu", "h100"}, {"n", "8"}};
  EXPECT_EQ(*tags, want);
  EXPECT_FALSE(parse_mlflow_tags({"novalue"}));
  EXPECT_FALSE(parse_mlflow_tags({":v"}));
  EXPECT_FALSE(parse_mlflow_tags({"{not json"}));
  const auto o = parse_command_line({"profile", "-m", "x", "--mlflow-tracking-uri", "h:5000",
                                     "--mlflow-tag", "a:b", "--mlflow-run-name", "r"});
  ASSERT_EQ(o.exit_code, 0) << o.message;
  const MlflowConfig& m = o.config.observability.mlflow;
  EXPECT_EQ(m.tracking_uri, "http://h:5000");
  EXPECT_EQ(m.experiment, "aiperf");
  EXPECT_EQ(m.run_name, "r");
  ASSERT_EQ(m.tags.size(), 1u);
  const auto lone = parse_command_line({"profile", "-m", "x", "--mlflow-run-name", "r"});
  EXPECT_EQ(lone.exit_code, 2);
  EXPECT_NE(lone.message.find("--mlflow-run-name applies only with --mlflow-tracking-uri"),
            std::string::npos)
      << lone.message;
}

}  // namespace
}  // namespace inferperf::config
