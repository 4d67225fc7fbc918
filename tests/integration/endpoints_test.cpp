// One real run per --endpoint-type against the bundled mock server, with the metrics each
// endpoint family must (and must not) have; then the preflight failures.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using json = nlohmann::json;

struct EndpointCase {
  const char* name;
  std::vector<std::string> mock_flags;
  std::vector<std::string> args;  // after the common ones
  bool tokens;                    // token metrics expected (TTFT only when streaming)
  bool streaming;
  bool input_tokens;                 // ISL expected
  bool images;                       // image metrics expected
  std::int64_t outputs_per_request;  // non-text outputs each record carries (0: none)
  friend void PrintTo(const EndpointCase& c, std::ostream* os) { *os << c.name; }
};

// A single_turn file with one tiny PNG per line, for the image-consuming endpoints.
std::string image_file(const std::string& dir) {
  const std::string path = dir + "/images.jsonl";
  std::ofstream out(path);
  for (int i = 0; i < 3; ++i) {
    out << R"({"text":"find the chart","image":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="})"
        << "\n";
  }
  return path;
}

const std::vector<EndpointCase> kCases = {
    {"embeddings", {}, {"--endpoint-type", "embeddings"}, false, false, true, false, 1},
    {"chat_embeddings", {}, {"--endpoint-type", "chat_embeddings"}, false, false, true, false, 1},
    {"nim_embeddings",
     {},
     {"--endpoint-type", "nim_embeddings", "--extra-inputs", "input_type:query"},
     false,
     false,
     true,
     false,
     1},
    {"nim_rankings",
     {},
     {"--endpoint-type", "nim_rankings", "--rankings-passages-mean", "3",
      "--rankings-passages-prompt-token-mean", "8", "--rankings-query-prompt-token-mean", "8"},
     false,
     false,
     true,
     false,
     3},
    {"hf_tei_rankings",
     {},
     {"--endpoint-type", "hf_tei_rankings", "--rankings-passages-mean", "2",
      "--rankings-passages-prompt-token-mean", "8", "--rankings-query-prompt-token-mean", "8"},
     false,
     false,
     true,
     false,
     2},
    {"cohere_rankings",
     {},
     {"--endpoint-type", "cohere_rankings", "--rankings-passages-mean", "4",
      "--rankings-passages-prompt-token-mean", "8", "--rankings-query-prompt-token-mean", "8"},
     false,
     false,
     true,
     false,
     4},
    {"huggingface_generate_stream",
     {},
     {"--endpoint-type", "huggingface_generate", "--streaming", "--osl", "8"},
     true,
     true,
     true,
     false,
     0},
    {"huggingface_generate",
     {},
     {"--endpoint-type", "huggingface_generate", "--osl", "8"},
     true,
     false,
     true,
     false,
     0},
    {"image_generation", {}, {"--endpoint-type", "image_generation"}, false, false, true, true, 1},
    {"image_generation_stream",
     {},
     {"--endpoint-type", "image_generation", "--streaming", "--extra-inputs", "partial_images:2"},
     false,
     false,
     true,
     true,
     1},
    {"video_generation",
     {"--ttft", "5", "--itl", "1"},
     {"--endpoint-type", "video_generation"},
     false,
     false,
     true,
     false,
     1},
    {"solido_rag",
     {},
     {"--endpoint-type", "solido_rag", "--streaming"},
     true,
     true,
     true,
     false,
     0},
    {"responses_stream",
     {},
     {"--endpoint-type", "responses", "--streaming", "--osl", "8"},
     true,
     true,
     true,
     false,
     0},
    {"responses", {}, {"--endpoint-type", "responses", "--osl", "8"}, true, false, true, false, 0},
    {"messages_stream",
     {"--api-key", "sk-test", "--auth-header-name", "x-api-key"},
     {"--endpoint-type", "messages", "--streaming", "--osl", "8", "--api-key", "sk-test"},
     true,
     true,
     true,
     false,
     0},
    {"template_chat",
     {},
     {"--endpoint-type", "template", "--endpoint", "/v1/chat/completions", "--osl", "8",
      // The JSON-object form of --extra-inputs: the template itself has commas.
      "--extra-inputs",
      R"({"payload_template": "{\"model\": {{ model|tojson }}, \"messages\": [{\"role\": \"user\", \"content\": {{ text|tojson }}}], \"max_tokens\": {{ max_tokens }}}"})"},
     true,
     false,
     true,
     false,
     0},
};

class Endpoints : public ::testing::TestWithParam<EndpointCase> {};

TEST_P(Endpoints, RunsWithTheRightMetrics) {
  const EndpointCase& c = GetParam();
  std::vector<std::string> flags = {"--fast"};
  if (!c.mock_flags.empty() && c.mock_flags.front() == "--ttft") flags.clear();
  flags.insert(flags.end(), c.mock_flags.begin(), c.mock_flags.end());
  MockServerProcess mock(flags);
  const std::string dir = make_temp_dir(std::string("ip-ep-") + c.name + "-");
  std::vector<std::string> args = {INFERPERF_BIN,
                                   "profile",
                                   "-m",
                                   "mock-model",
                                   "-u",
                                   mock.url(),
                                   "--concurrency",
                                   "2",
                                   "--request-count",
                                   "4",
                                   "--artifact-dir",
                                   dir + "/out",
                                   "--ui-type",
                                   "none"};
  // Rankings size their texts with --rankings-*; --isl does not apply to them.
  if (std::string(c.name).find("rankings") == std::string::npos) {
    args.insert(args.end(), {"--isl", "16"});
  }
  args.insert(args.end(), c.args.begin(), c.args.end());
  auto r =
      run_process(args, std::chrono::seconds(120), "", {"AIPERF_HTTP_VIDEO_POLL_INTERVAL=0.01"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json j = load_summary(dir + "/out");
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 4) << j.dump();
  EXPECT_FALSE(j.contains("error_request_count") && j["error_request_count"]["avg"] != 0);
  EXPECT_TRUE(j.contains("request_latency"));
  EXPECT_EQ(j.contains("time_to_first_token"), c.tokens && c.streaming) << j.dump();
  EXPECT_EQ(j.contains("output_sequence_length"), c.tokens) << j.dump();
  EXPECT_EQ(j.contains("input_sequence_length"), c.input_tokens);
  EXPECT_EQ(j.contains("image_throughput"), c.images);
  EXPECT_EQ(j.contains("image_latency"), c.images);
  if (c.tokens) {
    EXPECT_GT(j["output_sequence_length"]["avg"].get<double>(), 0);
  }
  // Every record carries what the endpoint delivers.
  const auto lines = read_lines(dir + "/out/profile_export.jsonl");
  ASSERT_EQ(lines.size(), 4u);
  for (const auto& line : lines) {
    const json rec = json::parse(line);
    ASSERT_FALSE(rec.contains("error") && !rec["error"].is_null()) << line;
    if (c.images) {
      EXPECT_EQ(rec["metrics"]["num_images"]["value"], 1) << line;
    }
  }
  if (c.outputs_per_request > 0) {
    for (const auto& line : read_lines(dir + "/out/inferperf_records.jsonl")) {
      const json rec = json::parse(line);
      if (rec.value("phase", "") == "profiling") {
        EXPECT_EQ(rec.value("outputs", 0), c.outputs_per_request) << line;
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Types, Endpoints, ::testing::ValuesIn(kCases),
                         [](const ::testing::TestParamInfo<EndpointCase>& i) {
                           return std::string(i.param.name);
                         });

TEST(Endpoints, ImageRetrievalSendsTheFilesImages) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ep-retrieval-");
  auto r = run_process({INFERPERF_BIN,
                        "profile",
                        "-m",
                        "mock-model",
                        "-u",
                        mock.url(),
                        "--endpoint-type",
                        "image_retrieval",
                        "--input-file",
                        image_file(dir),
                        "--custom-dataset-type",
                        "single_turn",
                        "--request-count",
                        "3",
                        "--concurrency",
                        "1",
                        "--artifact-dir",
                        dir + "/out",
                        "--ui-type",
                        "none"},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json j = load_summary(dir + "/out");
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 3);
  EXPECT_FALSE(j.contains("input_sequence_length"));  // image retrieval sends no text
  EXPECT_FALSE(j.contains("output_sequence_length"));
  EXPECT_EQ(j["image_throughput"]["unit"], "images/sec");
  EXPECT_NE(r.out.find("Image Retrieval Metrics"), std::string::npos) << r.out;
}

TEST(Endpoints, VideoJobsThatFailOrOutliveTheTimeoutAreErrorRecords) {
  const std::string dir = make_temp_dir("ip-ep-video-");
  {
    MockServerProcess mock({"--ttft", "5", "--itl", "1"});
    auto r = run_process(
        {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", mock.url(), "--endpoint-type",
         "video_generation", "--request-count", "2", "--concurrency", "1", "-H",
         "X-Mock-Fault:video-fail", "--artifact-dir", dir + "/failed", "--ui-type", "none"},
        std::chrono::seconds(60), "", {"AIPERF_HTTP_VIDEO_POLL_INTERVAL=0.01"});
    EXPECT_EQ(r.exit_code, 1) << r.out;  // no valid record
    const json j = load_summary(dir + "/failed");
    EXPECT_EQ(j["error_request_count"]["avg"].get<int>(), 2);
    EXPECT_NE(j["error_summary"][0]["error_details"]["message"].get<std::string>().find("failed"),
              std::string::npos)
        << j["error_summary"].dump();
  }
  // A job slower than --request-timeout-seconds: polling stops at the timeout.
  MockServerProcess slow({"--ttft", "3000", "--itl", "1"});
  auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "mock-model", "-u", slow.url(), "--endpoint-type",
       "video_generation", "--request-count", "1", "--concurrency", "1",
       "--request-timeout-seconds", "0.5", "--artifact-dir", dir + "/slow", "--ui-type", "none"},
      std::chrono::seconds(60), "", {"AIPERF_HTTP_VIDEO_POLL_INTERVAL=0.01"});
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_LT(r.wall_s, 30.0);
  const json j = load_summary(dir + "/slow");
  EXPECT_EQ(j["error_summary"][0]["error_details"]["type"], "TimeoutError")
      << j["error_summary"].dump();
}

TEST(Endpoints, TemplateWithoutPathOrTemplateIsABadConfig) {
  auto r = run_process(
      {INFERPERF_BIN, "profile", "-m", "m", "-u", "http://127.0.0.1:1", "--endpoint-type",
       "template", "--extra-inputs", R"(payload_template:{"t": {{ text|tojson }}})"},
      std::chrono::seconds(30));
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_NE(r.out.find("--endpoint"), std::string::npos) << r.out;
  auto r2 = run_process({INFERPERF_BIN, "profile", "-m", "m", "-u", "http://127.0.0.1:1",
                         "--endpoint-type", "template", "--endpoint", "/x"},
                        std::chrono::seconds(30));
  EXPECT_EQ(r2.exit_code, 2) << r2.out;
  EXPECT_NE(r2.out.find("payload_template"), std::string::npos) << r2.out;
}

// ---- preflight ---------------------------------------------------------------------------------

std::vector<std::string> small_run(const std::string& url, const std::string& dir) {
  return {INFERPERF_BIN,
          "profile",
          "-m",
          "mock-model",
          "-u",
          url,
          "--isl",
          "8",
          "--osl",
          "4",
          "--request-count",
          "2",
          "--concurrency",
          "1",
          "--artifact-dir",
          dir,
          "--ui-type",
          "none"};
}

TEST(Preflight, ConnectionRefusedFailsFastWithoutArtifacts) {
  const std::string dir = make_temp_dir("ip-pre-refused-") + "/out";
  auto r = run_process(small_run("http://127.0.0.1:1", dir), std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("preflight failed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("ConnectionRefusedError"), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir));
  EXPECT_LT(r.wall_s, 20.0);
}

TEST(Preflight, UnknownModelAndMissingKeyAreClearFailures) {
  MockServerProcess strict({"--fast", "--strict-model", "--model-name", "served-model"});
  const std::string dir = make_temp_dir("ip-pre-model-");
  auto r = run_process(small_run(strict.url(), dir + "/a"), std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("HTTP 404"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("does not exist"), std::string::npos) << r.out;
  EXPECT_EQ(strict.metric("inferperf_mock_requests_total"), 0);  // the run never started

  MockServerProcess keyed({"--fast", "--api-key", "secret"});
  auto r2 = run_process(small_run(keyed.url(), dir + "/b"), std::chrono::seconds(60));
  EXPECT_EQ(r2.exit_code, 1) << r2.out;
  EXPECT_NE(r2.out.find("HTTP 401"), std::string::npos) << r2.out;
  auto args = small_run(keyed.url(), dir + "/c");
  args.insert(args.end(), {"--api-key", "secret"});
  auto r3 = run_process(args, std::chrono::seconds(60));
  EXPECT_EQ(r3.exit_code, 0) << r3.out;
}

TEST(Preflight, WaitsForAModelThatIsStillLoading) {
  const std::string dir = make_temp_dir("ip-pre-wait-");
  {
    // Never ready within the test: without --wait-for-model-timeout the 503 fails the run.
    MockServerProcess loading({"--fast", "--inference-ready-delay-seconds", "600"});
    auto r = run_process(small_run(loading.url(), dir + "/a"), std::chrono::seconds(60));
    EXPECT_EQ(r.exit_code, 1) << r.out;
    EXPECT_NE(r.out.find("HTTP 503"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--wait-for-model-timeout"), std::string::npos) << r.out;
    EXPECT_FALSE(std::filesystem::exists(dir + "/a"));
  }
  // Ready a few seconds after it starts (longer than the client's start-up, also under the
  // sanitizers): the preflight keeps asking until it is.
  const std::string delay = INFERPERF_SANITIZER_BUILD ? "12" : "4";
  MockServerProcess mock({"--fast", "--inference-ready-delay-seconds", delay});
  auto args = small_run(mock.url(), dir + "/b");
  args.insert(args.end(), {"--wait-for-model-timeout", "60"});
  auto r2 = run_process(args, std::chrono::seconds(120));
  EXPECT_EQ(r2.exit_code, 0) << r2.out;
  EXPECT_EQ(load_summary(dir + "/b")["request_count"]["avg"].get<int>(), 2);
  // It waited: the server was still loading when the first preflight went out.
  EXPECT_GE(r2.wall_s, 1.0) << r2.out;
}

// The cached prompt tokens the mock reported for each profiling request, by session_num.
std::map<long long, long long> cached_by_request(const std::string& dir) {
  std::map<long long, long long> out;
  for (const auto& line : read_lines(dir + "/inferperf_records.jsonl")) {
    const auto j = nlohmann::json::parse(line);
    if (j["phase"] != "profiling") continue;
    long long cached = 0;
    if (j.contains("server_timings")) cached = j["server_timings"].value("cached_tokens", 0LL);
    out[j["session_num"].get<long long>()] = cached;
  }
  return out;
}

// The preflight proves the server answers without priming its prefix cache: its prompt is none of
// the run's prompts or prefixes (the shared system prompt included), so the first measured request
// is not served from cache. The same run again finds its prompts cached: the emulation works.
TEST(Preflight, PrimesNothingTheRunMeasures) {
  MockServerProcess mock({"--fast", "--timings"});
  const std::string dir = make_temp_dir("ip-pre-cache-");
  auto args = small_run(mock.url(), dir + "/a");
  *(std::find(args.begin(), args.end(), "--isl") + 1) = "64";
  args.insert(args.end(),
              {"--shared-system-prompt-length", "48", "--random-seed", "7", "--streaming"});
  auto r = run_process(args, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto first = cached_by_request(dir + "/a");
  ASSERT_EQ(first.size(), 2u);
  EXPECT_EQ(first.begin()->second, 0) << "the first measured request was served from cache";
  *(std::find(args.begin(), args.end(), "--artifact-dir") + 1) = dir + "/b";
  r = run_process(args, std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto again = cached_by_request(dir + "/b");
  ASSERT_EQ(again.size(), 2u);
  EXPECT_GE(again.begin()->second, 64) << "the repeated prompt is reported as cached";
}

TEST(Preflight, WrongEndpointTypeIsNamed) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-pre-type-");
  // A chat-shaped request on the chat path is answered, but not with embeddings.
  auto args = small_run(mock.url(), dir + "/a");
  args.insert(args.end(),
              {"--endpoint-type", "chat_embeddings", "--endpoint", "/v1/chat/completions"});
  auto r = run_process(args, std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("--endpoint-type chat_embeddings"), std::string::npos) << r.out;
}

}  // namespace
}  // namespace inferperf::testing
