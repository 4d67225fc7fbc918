// AIPerf 0.11's usage-detail and end-to-end throughput metrics, end to end: the mock's prefix-cache
// emulation reports prompt_tokens_details.cached_tokens, inferperf exports it.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "process.hpp"

namespace inferperf::testing {
namespace {

// One prompt sent four times, one at a time: the first finds the mock's prefix cache empty (the
// preflight's prompt is none of the run's), the other three find the prompt's whole 16-token
// blocks cached.
TEST(UsageMetrics, CacheReadTokensAndE2eThroughput) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-usage-");
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--endpoint-type",
                        "chat",
                        "--streaming",
                        "--concurrency",
                        "1",
                        "--request-count",
                        "4",
                        "--num-dataset-entries",
                        "1",
                        "--isl",
                        "64",
                        "--osl",
                        "8",
                        "--extra-inputs",
                        "ignore_eos:true",
                        "--random-seed",
                        "7",
                        "--artifact-dir",
                        dir,
                        "--ui-type",
                        "none"},
                       std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto j = load_summary(dir);
  ASSERT_TRUE(j.contains("usage_prompt_cache_read_tokens")) << j.dump(1);
  const auto& read = j["usage_prompt_cache_read_tokens"];
  EXPECT_EQ(read["unit"], "tokens");
  EXPECT_EQ(read["count"].get<int>(), 3) << "only the responses that sent cached_tokens";
  const double prompt = j["usage_prompt_tokens"]["min"].get<double>();
  EXPECT_EQ(j["usage_prompt_tokens"]["max"].get<double>(), prompt) << "one prompt, one length";
  // Whole blocks of 16 tokens, at least the 64-token prompt's first three.
  const double cached = read["min"].get<double>();
  EXPECT_EQ(read["max"].get<double>(), cached);
  EXPECT_GE(cached, 48.0);
  EXPECT_LE(cached, prompt);
  EXPECT_EQ(static_cast<long long>(cached) % 16, 0);
  const double total = j["total_usage_prompt_cache_read_tokens"]["avg"].get<double>();
  EXPECT_EQ(total, 3 * cached);
  const double total_prompt = j["total_usage_prompt_tokens"]["avg"].get<double>();
  EXPECT_EQ(total_prompt, 4 * prompt);
  EXPECT_EQ(j["overall_usage_prompt_cache_read_pct"]["unit"], "%");
  EXPECT_NEAR(j["overall_usage_prompt_cache_read_pct"]["avg"].get<double>(),
              100.0 * total / total_prompt, 1e-9);
  EXPECT_FALSE(j.contains("usage_prompt_cache_write_tokens")) << "the mock never sends it";

  // Per record: OSL / latency in seconds, from the record's own values.
  const auto lines = read_lines(dir + "/profile_export.jsonl");
  ASSERT_EQ(lines.size(), 4u);
  int with_cache = 0;
  for (const auto& line : lines) {
    const auto m = nlohmann::json::parse(line)["metrics"];
    ASSERT_TRUE(m.contains("e2e_output_token_throughput")) << line;
    EXPECT_EQ(m["e2e_output_token_throughput"]["unit"], "tokens/sec/user");
    const double osl = m["output_sequence_length"]["value"].get<double>();
    const double latency_s = m["request_latency"]["value"].get<double>() / 1000.0;
    ASSERT_GT(latency_s, 0);
    EXPECT_NEAR(m["e2e_output_token_throughput"]["value"].get<double>(), osl / latency_s,
                1e-9 * osl / latency_s)
        << line;
    if (m.contains("usage_prompt_cache_read_tokens")) {
      ++with_cache;
      EXPECT_EQ(m["usage_prompt_cache_read_tokens"]["value"].get<double>(), cached);
    }
  }
  EXPECT_EQ(with_cache, 3);
}

}  // namespace
}  // namespace inferperf::testing
