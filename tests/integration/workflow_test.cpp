// The reference workflow (a concurrency sweep read back by a script, as the NIM benchmarking
// guide does) and the accuracy of TTFT / ITL / per-token ITL against the mock's known timing.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;

// Sanitizer builds run the client and the mock several times slower: their bounds get this slack.
constexpr double kSlack = INFERPERF_SANITIZER_BUILD ? 3.0 : 1.0;

json summary(const std::string& dir) {
  return json::parse(read_file(dir + "/profile_export_aiperf.json"));
}

TEST(Workflow, ConcurrencySweepArtifactsReadAsTheGuideReadsThem) {
  // Mock: TTFT 30 ms, 3 ms per token; 16 output tokens with ignore_eos.
  MockServerProcess mock({"--ttft", "30", "--itl", "3"});
  const std::string root = make_temp_dir("ip-sweep-");
  // A small single_turn "trace", replayed exactly once per point, in order.
  const std::string trace = root + "/trace.jsonl";
  {
    std::ofstream f(trace);
    for (int i = 0; i < 8; ++i) {
      f << R"({"text": "Summarise the following request number )" << i
        << R"( in three short sentences, then list its risks."})"
        << "\n";
    }
  }
  for (int c : {1, 4}) {
    const std::string dir = root + "/artifacts/c" + std::to_string(c);
    auto r = run_process({INFERPERF_BIN,
                          "profile",
                          "--ui",
                          "none",
                          "-m",
                          "mock-model",
                          "--tokenizer",
                          "builtin",
                          "--tokenizer-trust-remote-code",
                          "--url",
                          mock.url(),
                          "--endpoint-type",
                          "chat",
                          "--streaming",
                          "--concurrency",
                          std::to_string(c),
                          "--workers-max",
                          std::to_string(c),
                          "--input-file",
                          trace,
                          "--custom-dataset-type",
                          "single_turn",
                          "--no-fixed-schedule",
                          "--dataset-sampling-strategy",
                          "sequential",
                          "--use-server-token-count",
                          "--osl",
                          "16",
                          "--extra-inputs",
                          "ignore_eos:true",
                          "--extra-inputs",
                          "cache_salt:salt_0a1b2c",
                          "--num-requests",
                          "8",
                          "--artifact-dir",
                          dir},
                         std::chrono::seconds(120));
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const json d = summary(dir);
    // The guide's validation script.
    EXPECT_GT(d["input_sequence_length"]["avg"].get<double>(), 10.0);
    EXPECT_DOUBLE_EQ(d["output_sequence_length"]["avg"].get<double>(), 16.0);
    EXPECT_EQ(d.value("osl_mismatch_count", json{{"avg", 0}})["avg"].get<int>(), 0);
    // The guide's results table.
    const double itl = d["inter_token_latency"]["avg"].get<double>();
    EXPECT_NEAR(itl, 3.0, 0.5 * kSlack) << "c" << c;
    for (const char* p : {"p50", "p95", "p99"}) EXPECT_TRUE(d["inter_token_latency"].contains(p));
    EXPECT_NEAR(d["output_token_throughput_per_user"]["avg"].get<double>(), 1000.0 / itl,
                150.0 * kSlack);
    EXPECT_GT(d["output_token_throughput"]["avg"].get<double>(), 0.0);
    EXPECT_NEAR(d["time_to_first_token"]["avg"].get<double>(), 30.0, 5.0 * kSlack);
    EXPECT_NEAR(d["request_latency"]["avg"].get<double>(), 30.0 + 15 * 3.0, 8.0 * kSlack);
    // input_config is the record of what was accepted.
    const json& ic = d["input_config"];
    EXPECT_EQ(ic["phases"].back()["concurrency"].get<int>(), c);
    EXPECT_EQ(ic["phases"].back()["requests"].get<int>(), 8);
    EXPECT_EQ(ic["endpoint"]["streaming"], true);
    EXPECT_EQ(ic["datasets"][0]["type"], "file");
    EXPECT_EQ(ic["datasets"][0]["path"], trace);
    EXPECT_EQ(ic["endpoint"]["extra"]["cache_salt"], "salt_0a1b2c") << ic["endpoint"];
    EXPECT_EQ(ic["artifacts"]["dir"], dir);
  }
}

// 64 streams in the release build. Under ASan/TSan both the client and the mock are instrumented
// and share 2 cores with a second test: 64 streams saturate them (measured: TTFT +65 ms, events
// coalescing as reads fall behind), which says nothing about inferperf's accuracy, so those builds
// check the same shape with 8 streams.
constexpr int kStreams = INFERPERF_SANITIZER_BUILD ? 8 : 64;

TEST(Accuracy, TtftAndItlAtConcurrency64MatchTheMock) {
  // Mock: TTFT 100 ms, ITL 10 ms per event of 2 tokens; 20 tokens per request. The warmup opens
  // the connections, so the measured requests do not include the connection storm.
  MockServerProcess mock({"--ttft", "100", "--itl", "10", "--tokens-per-event", "2"});
  const std::string dir = make_temp_dir("ip-accuracy-");
  const int requests = 2 * kStreams;
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--streaming",
                        "--concurrency",
                        std::to_string(kStreams),
                        "--request-count",
                        std::to_string(requests),
                        "--osl",
                        "20",
                        "--extra-inputs",
                        "ignore_eos:true",
                        "--isl",
                        "32",
                        "--warmup-request-count",
                        std::to_string(kStreams),
                        "--artifact-dir",
                        dir},
                       std::chrono::seconds(120));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_GE(mock.metric("inferperf_mock_max_in_flight"), kStreams / 2) << "the streams overlapped";
  const json d = summary(dir);
  EXPECT_EQ(d["request_count"]["avg"].get<int>(), requests);
  // 10 events of 2 tokens, 10 ms apart: ITL = 9 * 10 ms / 19 tokens.
  const double itl = 90.0 / 19.0;
  EXPECT_NEAR(d["time_to_first_token"]["avg"].get<double>(), 100.0, 5.0 * kSlack);
  EXPECT_NEAR(d["inter_token_latency"]["avg"].get<double>(), itl, 1.0 * kSlack);
  EXPECT_NEAR(d["inter_chunk_latency"]["avg"].get<double>(), 10.0, 1.0 * kSlack);
  // Per-token ITL: every event gap spread over its 2 tokens, plus one zero for the first event's
  // second token: 19 values per request whose mean is the request's ITL.
  EXPECT_EQ(d["per_token_itl"]["count"].get<int>(), requests * 19);
  EXPECT_NEAR(d["per_token_itl"]["avg"].get<double>(), itl, 1.0 * kSlack);
  EXPECT_NEAR(d["per_token_itl"]["p50"].get<double>(), 5.0, 1.0 * kSlack);
  EXPECT_DOUBLE_EQ(d["per_token_itl"]["min"].get<double>(), 0.0);
  // Events 10 ms apart rarely share a read (only when the client fell 10 ms behind, which a
  // neighbouring test can cause once or twice), and no gap comes near a 100 ms stall.
  EXPECT_LT(d["coalesced_event_count"]["avg"].get<double>(), 0.25);
  EXPECT_DOUBLE_EQ(d["stream_stall_count"]["max"].get<double>(), 0.0);
}

}  // namespace
}  // namespace inferperf::testing
