// Golden files: tests/golden/records.jsonl through compute_metrics and the three summary exporters,
// compared with expectations derived independently (python3 tests/golden/derive.py, from
// docs/metrics.md; never regenerated from the C++). See docs/metrics.md "Golden
// files".
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "metrics/compute.hpp"
#include "records/record_jsonl.hpp"
#include "report/exporters.hpp"

namespace inferperf {
namespace {

using Json = nlohmann::ordered_json;

const std::string kDir = std::string(INFERPERF_SOURCE_DIR) + "/tests/golden/";

std::string read_text(const std::string& name) {
  std::ifstream f(kDir + name, std::ios::binary);
  EXPECT_TRUE(f) << "cannot read " << kDir + name;
  std::ostringstream s;
  s << f.rdbuf();
  return s.str();
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty()) out.push_back(line);
  }
  return out;
}

std::vector<records::RequestRecord> load_records() {
  std::vector<records::RequestRecord> out;
  for (const auto& line : lines_of(read_text("records.jsonl"))) {
    auto r = records::record_from_line(line);
    EXPECT_TRUE(r.ok()) << line;
    if (r) out.push_back(std::move(*r));
  }
  return out;
}

// The run derive.py describes: --streaming, client tokenizer, --goodput
// "time_to_first_token:26 inter_token_latency:10", --cross-tool-metrics, default thresholds.
metrics::MetricOptions options() {
  metrics::MetricOptions o;
  o.streaming = true;
  o.token_source = metrics::TokenSource::kClientTokenizer;
  const auto error =
      metrics::parse_goodput("time_to_first_token:26 inter_token_latency:10", o.goodput);
  EXPECT_FALSE(error.has_value()) << error.value_or("");
  o.cross_tool = true;
  return o;
}

// Timestamps in the records file are already wall-clock: identity anchor.
report::ReportContext context() {
  report::ReportContext ctx;
  ctx.benchmark_id = "00000000-0000-4000-8000-000000000000";
  ctx.token_source = "tokenizer builtin (o200k)";
  ctx.anchor = core::WallAnchor{0, 0};
  return ctx;
}

struct Golden : ::testing::Test {
  std::vector<records::RequestRecord> recs = load_records();
  metrics::BenchmarkResult result = metrics::compute_metrics(recs, options());
  report::ReportContext ctx = context();
};

bool near(double expected, double actual) {
  // 1e-9 relative; the absolute floor only lets a computed 1e-17 stand for an exact 0.
  return std::abs(expected - actual) <= 1e-9 * std::max(std::abs(expected), std::abs(actual)) ||
         std::abs(expected - actual) <= 1e-12;
}

// Same structure and key order; integers exactly (and as integers), other numbers within 1e-9.
void expect_same(const Json& expected, const Json& actual, const std::string& where) {
  if (expected.is_number_integer()) {
    EXPECT_TRUE(actual.is_number_integer())
        << where << ": expected integer " << expected.dump() << ", got " << actual.dump();
    if (actual.is_number_integer()) {
      EXPECT_EQ(expected.get<std::int64_t>(), actual.get<std::int64_t>()) << where;
    }
  } else if (expected.is_number_float()) {
    EXPECT_TRUE(actual.is_number_float())
        << where << ": expected float " << expected.dump() << ", got " << actual.dump();
    if (actual.is_number()) {
      EXPECT_TRUE(near(expected.get<double>(), actual.get<double>()))
          << where << ": expected " << expected.dump() << ", got " << actual.dump();
    }
  } else if (expected.is_object()) {
    ASSERT_TRUE(actual.is_object()) << where << ": got " << actual.dump();
    std::vector<std::string> ek, ak;
    for (const auto& [k, v] : expected.items()) ek.push_back(k);
    for (const auto& [k, v] : actual.items()) ak.push_back(k);
    EXPECT_EQ(ek, ak) << where << ": keys differ";
    for (const auto& [k, v] : expected.items()) {
      if (actual.contains(k)) expect_same(v, actual.at(k), where + "." + k);
    }
  } else if (expected.is_array()) {
    ASSERT_TRUE(actual.is_array()) << where << ": got " << actual.dump();
    ASSERT_EQ(expected.size(), actual.size()) << where << ": " << actual.dump();
    for (std::size_t i = 0; i < expected.size(); ++i)
      expect_same(expected[i], actual[i], where + "[" + std::to_string(i) + "]");
  } else {
    EXPECT_EQ(expected, actual) << where;
  }
}

TEST_F(Golden, FixtureHasTheIntendedShape) {
  // 1 warmup + 8 profiling records, 2 of them errors.
  ASSERT_EQ(recs.size(), 9u);
  EXPECT_EQ(result.valid_count, 6);
  EXPECT_EQ(result.error_count, 2);
  EXPECT_EQ(result.per_record.size(), 8u);
}

TEST_F(Golden, SummaryJsonMetricObjects) {
  const Json expected = Json::parse(read_text("expected_summary.json"));
  const Json summary = report::summary_json(result, ctx);
  // The metric objects are the top-level objects with a "unit"; the rest is run context.
  Json actual = Json::object();
  for (const auto& [k, v] : summary.items()) {
    if (v.is_object() && v.contains("unit")) actual[k] = v;
  }
  expect_same(expected, actual, "summary");
}

TEST_F(Golden, SummaryCsvByteForByte) {
  EXPECT_EQ(report::summary_csv(result), read_text("expected.csv"));
}

TEST_F(Golden, RecordsJsonlLineByLine) {
  const auto expected = lines_of(read_text("expected_records.jsonl"));
  const std::string text = report::records_jsonl(result, ctx);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  const auto actual = lines_of(text);
  ASSERT_EQ(expected.size(), actual.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    expect_same(Json::parse(expected[i]), Json::parse(actual[i]), "line " + std::to_string(i + 1));
  }
}

}  // namespace
}  // namespace inferperf
