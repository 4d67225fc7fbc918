// analyze-trace statistics on small traces computed by hand: prefixes, context lengths, hit rates,
// percentiles, standard deviations, tokens per hash_id and block reuse; line parsing errors.
#include "dataset/trace_analysis.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace inferperf::dataset {
namespace {

using ojson = nlohmann::ordered_json;

// isl, osl, hash_ids:
//   r0  10  5  [1, 2, 3]
//   r1  12  7  [1, 2, 4]
//   r2   6  1  [5, 6]
//   r3   9  3  []
//   r4   8  4  [1, 2]
std::vector<TraceRow> small_trace() {
  return {{10, 5, {1, 2, 3}}, {12, 7, {1, 2, 4}}, {6, 1, {5, 6}}, {9, 3, {}}, {8, 4, {1, 2}}};
}

TEST(TraceAnalysis, PrefixCountsAndReuse) {
  const TraceAnalysis a = analyze_trace(small_trace(), 4);
  EXPECT_EQ(a.total_requests, 5);
  // (1) x3, (1,2) x3, (1,2,3), (1,2,4), (5), (5,6).
  EXPECT_EQ(a.unique_prefixes, 6);
  EXPECT_DOUBLE_EQ(a.prefix_reuse_ratio, 6.0 / 10.0);
  // First id 1 starts three rows, 5 only one.
  EXPECT_EQ(a.num_prefix_groups, 1);
}

TEST(TraceAnalysis, ContextAndUniquePromptLengths) {
  const TraceAnalysis a = analyze_trace(small_trace(), 4);
  // r0, r1: two of three (position, id) pairs repeated -> 2 * 4; r2: none; r3: no ids;
  // r4: every pair repeated -> the whole ISL.
  EXPECT_EQ(a.context_lengths, (std::vector<double>{8, 8, 0, 0, 8}));
  EXPECT_EQ(a.unique_prompt_lengths, (std::vector<double>{2, 4, 6, 9, 0}));
  // The block size only scales the partly repeated rows.
  const TraceAnalysis b = analyze_trace(small_trace(), 5);
  EXPECT_EQ(b.context_lengths, (std::vector<double>{10, 10, 0, 0, 8}));
  EXPECT_EQ(b.unique_prompt_lengths, (std::vector<double>{0, 2, 6, 9, 0}));
}

TEST(TraceAnalysis, TheoreticalHitRatesInFileOrder) {
  const TraceAnalysis a = analyze_trace(small_trace(), 4);
  // r0 cold; r1 hits 1, 2 then misses 4; r2 cold; r3 has no ids (no entry); r4 all cached.
  ASSERT_EQ(a.hit_rates.size(), 4u);
  EXPECT_DOUBLE_EQ(a.hit_rates[0], 0.0);
  EXPECT_DOUBLE_EQ(a.hit_rates[1], 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(a.hit_rates[2], 0.0);
  EXPECT_DOUBLE_EQ(a.hit_rates[3], 1.0);
  EXPECT_DOUBLE_EQ(a.cache_hit_rate, 5.0 / 12.0);
}

TEST(TraceAnalysis, StatisticsAreNumpyLike) {
  const TraceAnalysis a = analyze_trace(small_trace(), 4);
  EXPECT_EQ(a.min_isl, 6);
  EXPECT_EQ(a.max_isl, 12);
  EXPECT_DOUBLE_EQ(a.avg_isl, 9.0);
  EXPECT_EQ(a.min_osl, 1);
  EXPECT_EQ(a.max_osl, 7);
  EXPECT_DOUBLE_EQ(a.avg_osl, 4.0);

  // ISL sorted 6 8 9 10 12: squared deviations 9+1+0+1+9 = 20 over 5 -> std 2.
  ASSERT_TRUE(a.isl_stats);
  EXPECT_DOUBLE_EQ(a.isl_stats->mean, 9.0);
  EXPECT_DOUBLE_EQ(a.isl_stats->std_dev, 2.0);
  EXPECT_DOUBLE_EQ(a.isl_stats->min, 6.0);
  EXPECT_DOUBLE_EQ(a.isl_stats->p25, 8.0);
  EXPECT_DOUBLE_EQ(a.isl_stats->median, 9.0);
  EXPECT_DOUBLE_EQ(a.isl_stats->p75, 10.0);
  EXPECT_DOUBLE_EQ(a.isl_stats->p90, 11.2);  // position 3.6: 10 + 0.6 * 2
  EXPECT_DOUBLE_EQ(a.isl_stats->max, 12.0);
  ASSERT_TRUE(a.p90_isl);
  EXPECT_DOUBLE_EQ(*a.p90_isl, 11.2);

  // OSL sorted 1 3 4 5 7.
  ASSERT_TRUE(a.osl_stats);
  EXPECT_DOUBLE_EQ(a.osl_stats->mean, 4.0);
  EXPECT_DOUBLE_EQ(a.osl_stats->std_dev, 2.0);
  EXPECT_DOUBLE_EQ(a.osl_stats->p25, 3.0);
  EXPECT_DOUBLE_EQ(a.osl_stats->median, 4.0);
  EXPECT_DOUBLE_EQ(a.osl_stats->p75, 5.0);
  EXPECT_DOUBLE_EQ(a.osl_stats->p90, 6.2);
  ASSERT_TRUE(a.p90_osl);
  EXPECT_DOUBLE_EQ(*a.p90_osl, 6.2);

  ASSERT_TRUE(a.context_length_stats);
  EXPECT_DOUBLE_EQ(a.context_length_stats->mean, 4.8);
  EXPECT_DOUBLE_EQ(a.context_length_stats->median, 8.0);
  ASSERT_TRUE(a.unique_prompt_length_stats);
  EXPECT_DOUBLE_EQ(a.unique_prompt_length_stats->mean, 4.2);
  EXPECT_DOUBLE_EQ(a.unique_prompt_length_stats->p25, 2.0);

  // Hit rates sorted 0 0 2/3 1: mean 5/12, variance 108/144/4.
  ASSERT_TRUE(a.hit_rate_stats);
  EXPECT_DOUBLE_EQ(a.hit_rate_stats->mean, 5.0 / 12.0);
  EXPECT_NEAR(a.hit_rate_stats->std_dev, std::sqrt(0.1875), 1e-15);
  EXPECT_DOUBLE_EQ(a.hit_rate_stats->p25, 0.0);
  EXPECT_DOUBLE_EQ(a.hit_rate_stats->median, 1.0 / 3.0);
  EXPECT_DOUBLE_EQ(a.hit_rate_stats->p75, 0.75);
  EXPECT_DOUBLE_EQ(a.hit_rate_stats->p90, 0.9);
  EXPECT_DOUBLE_EQ(a.hit_rate_stats->max, 1.0);
}

TEST(TraceAnalysis, TokensPerHashIdAndBlockReuse) {
  const TraceAnalysis a = analyze_trace(small_trace(), 4);
  // Rows with ids: (10 + 12 + 6 + 8) tokens over 3 + 3 + 2 + 2 ids.
  ASSERT_TRUE(a.tokens_per_hash_id);
  EXPECT_DOUBLE_EQ(*a.tokens_per_hash_id, 3.6);
  // Ids 1 and 2 are referenced by three rows (six references); 3, 4, 5, 6 by one row each.
  ASSERT_TRUE(a.block_reuse_ratio);
  EXPECT_DOUBLE_EQ(*a.block_reuse_ratio, 0.6);
}

TEST(TraceAnalysis, BlockReuseCountsRowsNotReferences) {
  // Id 7 twice in one row is not shared; id 2 at different positions in two rows is.
  const TraceAnalysis a = analyze_trace({{8, 1, {7, 7}}, {8, 1, {1, 2}}, {8, 1, {3, 2}}}, 4);
  ASSERT_TRUE(a.block_reuse_ratio);
  EXPECT_DOUBLE_EQ(*a.block_reuse_ratio, 2.0 / 6.0);
  // Prefixes (7) (7,7) (1) (1,2) (3) (3,2): the same id under another parent is another prefix.
  EXPECT_EQ(a.unique_prefixes, 6);
  EXPECT_DOUBLE_EQ(a.prefix_reuse_ratio, 0.0);
  EXPECT_EQ(a.num_prefix_groups, 0);
  // Id 2 at position 1 occurs in two rows: one repeated pair of two in rows 2 and 3.
  EXPECT_EQ(a.context_lengths, (std::vector<double>{0, 4, 4}));
  // Every row starts with an id not seen before.
  EXPECT_EQ(a.hit_rates, (std::vector<double>{0, 0, 0}));
}

TEST(TraceAnalysis, RowsWithoutHashIds) {
  const TraceAnalysis a = analyze_trace({{100, 10, {}}, {300, 30, {}}}, 512);
  EXPECT_EQ(a.unique_prefixes, 0);
  EXPECT_EQ(a.num_prefix_groups, 0);
  EXPECT_DOUBLE_EQ(a.cache_hit_rate, 0.0);
  EXPECT_DOUBLE_EQ(a.prefix_reuse_ratio, 0.0);
  EXPECT_EQ(a.context_lengths, (std::vector<double>{0, 0}));
  EXPECT_EQ(a.unique_prompt_lengths, (std::vector<double>{100, 300}));
  EXPECT_FALSE(a.hit_rate_stats);
  EXPECT_FALSE(a.tokens_per_hash_id);
  EXPECT_FALSE(a.block_reuse_ratio);
  ASSERT_TRUE(a.isl_stats);
  EXPECT_DOUBLE_EQ(a.isl_stats->std_dev, 100.0);
  EXPECT_DOUBLE_EQ(a.isl_stats->p25, 150.0);
}

TEST(TraceAnalysis, EmptyTrace) {
  const TraceAnalysis a = analyze_trace({}, 512);
  EXPECT_EQ(a.total_requests, 0);
  EXPECT_EQ(a.min_isl, 0);
  EXPECT_DOUBLE_EQ(a.avg_isl, 0.0);
  EXPECT_FALSE(a.isl_stats);
  EXPECT_FALSE(a.p90_isl);
  const auto j = trace_analysis_json(a);
  EXPECT_TRUE(j["isl_stats"].is_null());
  EXPECT_TRUE(j["p90_osl"].is_null());
  EXPECT_TRUE(j["tokens_per_hash_id"].is_null());
}

TEST(TraceAnalysis, JsonKeysInAiperfOrderThenOurs) {
  const auto j = trace_analysis_json(analyze_trace(small_trace(), 4));
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.items()) keys.push_back(k);
  EXPECT_EQ(keys, (std::vector<std::string>{"total_requests",
                                            "unique_prefixes",
                                            "num_prefix_groups",
                                            "cache_hit_rate",
                                            "min_isl",
                                            "max_isl",
                                            "avg_isl",
                                            "min_osl",
                                            "max_osl",
                                            "avg_osl",
                                            "prefix_reuse_ratio",
                                            "isl_stats",
                                            "osl_stats",
                                            "context_length_stats",
                                            "unique_prompt_length_stats",
                                            "hit_rate_stats",
                                            "p90_isl",
                                            "p90_osl",
                                            "tokens_per_hash_id",
                                            "block_reuse_ratio"}));
  std::vector<std::string> stat_keys;
  for (const auto& [k, v] : j["isl_stats"].items()) stat_keys.push_back(k);
  EXPECT_EQ(stat_keys, (std::vector<std::string>{"mean", "std_dev", "min", "p25", "median", "p75",
                                                 "max", "p90"}));
  EXPECT_TRUE(j["total_requests"].is_number_integer());
  EXPECT_TRUE(j["min_isl"].is_number_integer());
  EXPECT_TRUE(j["avg_isl"].is_number_float());
  EXPECT_TRUE(j["isl_stats"]["min"].is_number_float());
  EXPECT_EQ(j["max_osl"], 7);
  EXPECT_DOUBLE_EQ(j["block_reuse_ratio"].get<double>(), 0.6);
  EXPECT_DOUBLE_EQ(j["osl_stats"]["p90"].get<double>(), 6.2);
}

TEST(TraceRowFromJson, DefaultsAndExtraKeys) {
  auto r =
      trace_row_from_json(ojson::parse(R"({"timestamp": 5, "session_id": "s"})"), "t.jsonl", 3);
  ASSERT_TRUE(r.ok()) << r.error().describe();
  EXPECT_EQ(r->input_length, 0);
  EXPECT_EQ(r->output_length, 0);
  EXPECT_TRUE(r->hash_ids.empty());
  auto full = trace_row_from_json(
      ojson::parse(R"({"input_length": 1030, "output_length": 7, "hash_ids": [4, 0, 9]})"),
      "t.jsonl", 1);
  ASSERT_TRUE(full.ok()) << full.error().describe();
  EXPECT_EQ(full->input_length, 1030);
  EXPECT_EQ(full->output_length, 7);
  EXPECT_EQ(full->hash_ids, (std::vector<std::int64_t>{4, 0, 9}));
}

TEST(TraceRowFromJson, WrongTypesNameFileLineAndField) {
  struct Case {
    const char* line;
    const char* field;
    const char* says;
  };
  for (const Case& c : {
           Case{R"({"input_length": "12"})", "input_length", "got a string"},
           Case{R"({"input_length": 1.5})", "input_length", "got 1.5"},
           Case{R"({"input_length": -3})", "input_length", "got -3"},
           Case{R"({"output_length": null})", "output_length", "got null"},
           Case{R"({"hash_ids": 4})", "hash_ids", "must be a list of integers, got an integer"},
           Case{R"({"hash_ids": [1, "2"]})", "hash_ids", "item 1 must be an integer, got a string"},
           Case{R"({"hash_ids": [1, 2.5]})", "hash_ids", "item 1 must be an integer, got 2.5"},
       }) {
    auto r = trace_row_from_json(ojson::parse(c.line), "t.jsonl", 7);
    ASSERT_FALSE(r.ok()) << c.line;
    EXPECT_EQ(r.error().file, "t.jsonl");
    EXPECT_EQ(r.error().line, 7);
    EXPECT_EQ(r.error().field, c.field) << c.line;
    EXPECT_NE(r.error().describe().find(c.says), std::string::npos) << r.error().describe();
    EXPECT_NE(r.error().describe().find("t.jsonl:7: field '"), std::string::npos);
  }
}

}  // namespace
}  // namespace inferperf::dataset
