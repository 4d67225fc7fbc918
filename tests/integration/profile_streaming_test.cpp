// End-to-end: the real inferperf binary against the real mock server.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <sstream>
#include <thread>

#include "process.hpp"

namespace inferperf::testing {
namespace {

std::size_t count_lines(const std::string& path) {
  std::istringstream in(read_file(path));
  std::string line;
  std::size_t n = 0;
  while (std::getline(in, line)) n += !line.empty();
  return n;
}

// Sanitizer builds run the client several times slower; their timing bounds get this much slack.
constexpr double kSlack = INFERPERF_SANITIZER_BUILD ? 3.0 : 1.0;

TEST(ProfileStreaming, MatchesMockTimingModel) {
  MockServerProcess mock({"--ttft", "50", "--itl", "10"});
  const std::string dir = make_temp_dir("ip-stream-");
  // The test's own clock runs from the moment the server sees the first request to the moment the
  // process ends, so tokenizer loading and start-up are not part of it.
  ProcessResult r;
  std::thread runner([&] {
    r = run_process({INFERPERF_BIN,
                     "profile",
                     "-m",
                     "mock-model",
                     "-u",
                     mock.url(),
                     "--endpoint-type",
                     "chat",
                     "--streaming",
                     "--concurrency",
                     "4",
                     "--request-count",
                     "50",
                     "--osl",
                     "32",
                     "--extra-inputs",
                     "ignore_eos:true",
                     "--isl",
                     "64",
                     "--random-seed",
                     "7",
                     "--artifact-dir",
                     dir,
                     "--ui-type",
                     "none"},
                    std::chrono::seconds(120));
  });
  std::optional<std::chrono::steady_clock::time_point> first_request;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!first_request && std::chrono::steady_clock::now() < give_up) {
    if (mock.metric("inferperf_mock_requests_total") > 0)
      first_request = std::chrono::steady_clock::now();
    else
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  runner.join();
  const double own_wall_s =
      first_request
          ? std::chrono::duration<double>(std::chrono::steady_clock::now() - *first_request).count()
          : 0;
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = load_summary(dir);
  EXPECT_EQ(j["schema_version"], "1.3");
  EXPECT_EQ(j["aiperf_version"], "0.11.0");
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 50);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 50);
  EXPECT_LE(mock.metric("inferperf_mock_max_in_flight"), 4);
  EXPECT_FALSE(j.contains("error_request_count")) << j.dump(2);
  EXPECT_TRUE(j["error_summary"].empty());
  EXPECT_NEAR(j["time_to_first_token"]["avg"].get<double>(), 50.0, 5.0 * kSlack);
  EXPECT_NEAR(j["inter_token_latency"]["avg"].get<double>(), 10.0, 1.0 * kSlack);
  EXPECT_DOUBLE_EQ(j["output_sequence_length"]["avg"].get<double>(), 32.0);
  EXPECT_DOUBLE_EQ(j["output_sequence_length"]["min"].get<double>(), 32.0);
  EXPECT_DOUBLE_EQ(j["input_sequence_length"]["avg"].get<double>(), 64.0);
  EXPECT_EQ(j["time_to_first_token"]["count"].get<int>(), 50);
  // The benchmark spans first send to last token; the process adds only token counting and export.
  const double duration = j["benchmark_duration"]["avg"].get<double>();
  ASSERT_GT(own_wall_s, 0);
  EXPECT_NEAR(duration, own_wall_s, 0.10 * kSlack * own_wall_s) << "wall " << own_wall_s;
  const double expected_rps = 50.0 / duration;
  EXPECT_NEAR(j["request_throughput"]["avg"].get<double>(), expected_rps, 1e-6 * expected_rps);
  EXPECT_NEAR(j["output_token_throughput"]["avg"].get<double>(), 50.0 * 32.0 / duration, 1e-3);
  // Per-user throughput is 1/ITL.
  EXPECT_NEAR(j["output_token_throughput_per_user"]["avg"].get<double>(), 100.0, 12.0);
  // AIPerf 0.11's resolved body: the profiling phase carries the load.
  const auto phase = j["input_config"]["phases"].back();
  EXPECT_EQ(phase["name"], "profiling");
  EXPECT_EQ(phase["type"], "concurrency");
  EXPECT_EQ(phase["concurrency"], 4);
  EXPECT_EQ(phase["requests"], 50);
  EXPECT_EQ(j["input_config"]["models"]["items"][0]["name"], "mock-model");
  EXPECT_EQ(j["was_cancelled"], false);
  EXPECT_TRUE(j["cli_command"].is_null());  // lives in run_info
  EXPECT_EQ(j["run_info"]["benchmark_id"], j["benchmark_id"]);
  EXPECT_EQ(j["run_info"]["trial"], 0);
  EXPECT_FALSE(j["run_info"].contains("run_label")) << "a plain run has no run label";
  EXPECT_EQ(j["run_info"]["cli_command"].get<std::string>().rfind("inferperf profile", 0), 0u);

  EXPECT_EQ(count_lines(dir + "/inferperf_records.jsonl"), 50u);
  EXPECT_EQ(count_lines(dir + "/profile_export.jsonl"), 50u);
  EXPECT_TRUE(std::filesystem::exists(dir + "/profile_export_aiperf.csv"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/inputs.json"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/logs/inferperf.log"));
  auto inputs = nlohmann::json::parse(read_file(dir + "/inputs.json"));
  ASSERT_FALSE(inputs["data"].empty());
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["max_completion_tokens"], 32);
  // Client-side counting (the builtin tokenizer for a placeholder model), and usage is still
  // requested (as AIPerf 0.11), so the server's counts are recorded beside the client's.
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["stream_options"]["include_usage"], true);
  EXPECT_NE(r.out.find("inferperf | LLM Metrics"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("token source: tokenizer builtin (o200k)"), std::string::npos) << r.out;
  EXPECT_EQ(j["token_source"], "tokenizer builtin (o200k)");
}

TEST(ProfileStreaming, CoalescedEventsShareTimestampsAndCountTokens) {
  MockServerProcess mock({"--ttft", "20", "--itl", "5", "--tokens-per-event", "4"});
  const std::string dir = make_temp_dir("ip-k4-");
  auto r = run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(),
                        "--streaming", "--concurrency", "2", "--request-count", "10", "--osl", "40",
                        "--extra-inputs", "ignore_eos:true", "--artifact-dir", dir, "--isl", "32"},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = load_summary(dir);
  EXPECT_DOUBLE_EQ(j["output_sequence_length"]["avg"].get<double>(), 40.0);
  // 40 tokens in 10 events, 5 ms apart: ITL per token is (9 * 5 ms) / 39.
  EXPECT_NEAR(j["inter_token_latency"]["avg"].get<double>(), 45.0 / 39.0, 0.5);
  EXPECT_NEAR(j["inter_chunk_latency"]["avg"].get<double>(), 5.0, 1.0);
  EXPECT_EQ(j["inter_chunk_latency"]["count"].get<int>(), 10 * 9);
}

TEST(ProfileStreaming, ServerTokenCountAsksForUsageAndUsesIt) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-usage-");
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--streaming",
                        "--concurrency",
                        "2",
                        "--request-count",
                        "6",
                        "--osl",
                        "12",
                        "--extra-inputs",
                        "ignore_eos:true",
                        "--isl",
                        "40",
                        "--use-server-token-count",
                        "--artifact-dir",
                        dir},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_EQ(j["token_source"], "server usage");
  EXPECT_DOUBLE_EQ(j["output_sequence_length"]["avg"].get<double>(), 12.0);
  EXPECT_DOUBLE_EQ(j["usage_completion_tokens"]["avg"].get<double>(), 12.0);
  auto inputs = nlohmann::json::parse(read_file(dir + "/inputs.json"));
  EXPECT_EQ(inputs["data"][0]["payloads"][0]["stream_options"]["include_usage"], true);
}

// As AIPerf 0.11: usage is asked for on every streaming run, so the server's counts are recorded
// beside the client's; --no-stream-usage leaves the field out for servers that reject it.
TEST(ProfileStreaming, EveryStreamingRunAsksForUsageUnlessTold) {
  MockServerProcess mock({"--fast"});
  for (const bool off : {false, true}) {
    const std::string dir = make_temp_dir("ip-streamusage-");
    std::vector<std::string> args = {INFERPERF_BIN,
                                     "profile",
                                     "-m",
                                     "mock-model",
                                     "-u",
                                     mock.url(),
                                     "--streaming",
                                     "--request-count",
                                     "3",
                                     "--osl",
                                     "6",
                                     "--extra-inputs",
                                     "ignore_eos:true",
                                     "--isl",
                                     "20",
                                     "--ui-type",
                                     "none",
                                     "--artifact-dir",
                                     dir};
    if (off) args.push_back("--no-stream-usage");
    auto r = run_process(args, std::chrono::seconds(60));
    ASSERT_EQ(r.exit_code, 0) << r.out;
    const auto inputs = nlohmann::json::parse(read_file(dir + "/inputs.json"));
    const auto& payload = inputs["data"][0]["payloads"][0];
    EXPECT_EQ(payload.contains("stream_options"), !off) << payload.dump();
    const auto j = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
    EXPECT_EQ(j["token_source"].get<std::string>().rfind("tokenizer", 0), 0u);
    if (off) {
      EXPECT_FALSE(j.contains("usage_completion_tokens"));
    } else {
      EXPECT_DOUBLE_EQ(j["usage_completion_tokens"]["avg"].get<double>(), 6.0);
    }
  }
  const auto bad =
      run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--streaming",
                   "--use-server-token-count", "--no-stream-usage", "--dry-run"},
                  std::chrono::seconds(30));
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.out.find("--no-stream-usage"), std::string::npos) << bad.out;
}

TEST(ProfileStreaming, ExplicitTokenizerPathAndPromptOptions) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-tokpath-");
  const std::string llama3 = std::string(INFERPERF_SOURCE_DIR) + "/.cache/tokenizers/llama3";
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "my-served-name",
                        "--tokenizer",
                        llama3,
                        "-u",
                        mock.url(),
                        "--streaming",
                        "--concurrency",
                        "2",
                        "--request-count",
                        "6",
                        "--num-dataset-entries",
                        "3",
                        "--seq-dist",
                        "20,4:50;40,8:50",
                        "--shared-system-prompt-length",
                        "10",
                        "--user-context-prompt-length",
                        "5",
                        "--extra-inputs",
                        "ignore_eos:true",
                        "--random-seed",
                        "3",
                        "--artifact-dir",
                        dir},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_EQ(j["token_source"], "tokenizer " + llama3 + "/tokenizer.json");
  // ISL = system (10) + user context (5) + the turn (20 or 40), each exact for Llama 3.
  for (const char* k : {"min", "max"}) {
    const double isl = j["input_sequence_length"][k].get<double>();
    EXPECT_TRUE(isl == 35.0 || isl == 55.0) << k << " " << isl;
  }
  auto inputs = nlohmann::json::parse(read_file(dir + "/inputs.json"));
  const auto& messages = inputs["data"][0]["payloads"][0]["messages"];
  ASSERT_EQ(messages.size(), 3u);
  EXPECT_EQ(messages[0]["role"], "system");
  EXPECT_EQ(messages[1]["role"], "user");
  EXPECT_EQ(
      inputs["data"][0]["payloads"][0]["messages"][0]["content"],
      inputs["data"][1]["payloads"][0]["messages"][0]["content"]);  // one shared system prompt
  EXPECT_NE(
      inputs["data"][0]["payloads"][0]["messages"][1]["content"],
      inputs["data"][1]["payloads"][0]["messages"][1]["content"]);  // per-conversation context
  const int max_tokens = inputs["data"][0]["payloads"][0]["max_completion_tokens"];
  EXPECT_TRUE(max_tokens == 4 || max_tokens == 8) << max_tokens;
}

TEST(ProfileStreaming, UnknownTokenizerIsAConfigurationError) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-notok-");
  auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "some-org/real-model", "-u", mock.url(), "--streaming",
       "--concurrency", "1", "--request-count", "2", "--artifact-dir", dir},
      std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("no tokenizer found for 'some-org/real-model'"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Hugging Face cache"), std::string::npos) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
}

TEST(ProfileStreaming, CompletionsWithoutStreamingHasNoStreamingMetrics) {
  MockServerProcess mock({"--ttft", "5", "--itl", "1"});
  const std::string dir = make_temp_dir("ip-compl-");
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--endpoint-type",
                        "completions",
                        "--concurrency",
                        "3",
                        "--request-count",
                        "12",
                        "--osl",
                        "8",
                        "--extra-inputs",
                        "ignore_eos:true",
                        "--artifact-dir",
                        dir,
                        "--isl",
                        "16"},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = load_summary(dir);
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 12);
  EXPECT_FALSE(j.contains("time_to_first_token"));
  EXPECT_FALSE(j.contains("inter_token_latency"));
  EXPECT_DOUBLE_EQ(j["output_sequence_length"]["avg"].get<double>(), 8.0);
  // The mock answers after TTFT + 8 * ITL = 13 ms; a sanitizer build may add overhead but never
  // less.
  EXPECT_GE(j["request_latency"]["min"].get<double>(), 13.0);
  EXPECT_LT(j["request_latency"]["avg"].get<double>(), 13.0 + 50.0);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 12);
}

TEST(ProfileStreaming, DiscoversModelAndNamesArtifactFolder) {
  MockServerProcess mock({"--fast"});
  const std::string cwd = make_temp_dir("ip-disc-");
  auto r = run_process({INFERPERF_BIN, "profile", "-u", mock.url(), "--streaming", "--concurrency",
                        "2", "--request-count", "4", "--isl", "8"},
                       std::chrono::seconds(60), cwd);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("using 'mock-model'"), std::string::npos) << r.out;
  const std::string leaf = cwd + "/artifacts/mock-model-openai-chat-concurrency2";
  ASSERT_TRUE(std::filesystem::exists(leaf + "/profile_export_aiperf.json")) << r.out;
  auto j = load_summary(leaf);
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 4);
}

}  // namespace
}  // namespace inferperf::testing

namespace inferperf::testing {
namespace {

TEST(ProfileDuration, StopsIssuingAtDurationAndCancelsAfterGrace) {
  MockServerProcess mock({"--ttft", "5", "--itl", "20"});
  const std::string dir = make_temp_dir("ip-dur-");
  // Requests take ~400 ms; with no grace the ones in flight at 1.5 s are cancelled.
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--streaming",
                        "--concurrency",
                        "3",
                        "--benchmark-duration",
                        "1.5",
                        "--benchmark-grace-period",
                        "0",
                        "--osl",
                        "20",
                        "--extra-inputs",
                        "ignore_eos:true",
                        "--isl",
                        "8",
                        "--artifact-dir",
                        dir},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
  const int ok = j["request_count"]["avg"].get<int>();
  EXPECT_GE(ok, 6);
  EXPECT_LE(ok, 15);
  ASSERT_TRUE(j.contains("error_request_count")) << j.dump(2);
  EXPECT_EQ(j["error_request_count"]["avg"].get<int>(), 3);
  EXPECT_EQ(j["error_summary"][0]["error_details"]["type"], "RequestCancellationError");
  EXPECT_LT(j["benchmark_duration"]["avg"].get<double>(), 1.6);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), ok + 3);
}

TEST(ProfileDuration, GracePeriodLetsInFlightRequestsFinish) {
  MockServerProcess mock({"--ttft", "5", "--itl", "20"});
  const std::string dir = make_temp_dir("ip-grace-");
  auto r =
      run_process({INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--streaming",
                   "--concurrency", "3", "--benchmark-duration", "1", "--osl", "20",
                   "--extra-inputs", "ignore_eos:true", "--isl", "8", "--artifact-dir", dir},
                  std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(read_file(dir + "/profile_export_aiperf.json"));
  EXPECT_FALSE(j.contains("error_request_count"));
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), mock.metric("inferperf_mock_requests_total"));
  EXPECT_GT(j["benchmark_duration"]["avg"].get<double>(), 1.0);
}

}  // namespace
}  // namespace inferperf::testing
