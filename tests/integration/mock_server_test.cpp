// The mock server's own routes, answered over real HTTP.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

TEST(MockServer, ServesHealthModelsAndMetrics) {
  MockServerProcess mock({"--fast"});
  auto health = http_get(mock.port(), "/health");
  EXPECT_EQ(health.status, 200);
  EXPECT_EQ(nlohmann::json::parse(health.body)["status"], "healthy");
  auto models = nlohmann::json::parse(http_get(mock.port(), "/v1/models").body);
  EXPECT_EQ(models["data"][0]["id"], "mock-model");
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 0);
  EXPECT_EQ(mock.metric("inferperf_mock_max_in_flight"), 0);
  EXPECT_EQ(http_get(mock.port(), "/nope").status, 404);
}

TEST(MockServer, ReadsFlagsFromEnvironment) {
  setenv("MOCK_SERVER_MODEL_NAME", "env-model", 1);
  MockServerProcess mock({});
  unsetenv("MOCK_SERVER_MODEL_NAME");
  auto models = nlohmann::json::parse(http_get(mock.port(), "/v1/models").body);
  EXPECT_EQ(models["data"][0]["id"], "env-model");
}

long long prompt_tokens(const MockServerProcess& mock, const std::string& prompt) {
  const nlohmann::json body = {{"model", "mock-model"},
                               {"messages", {{{"role", "user"}, {"content", prompt}}}},
                               {"max_tokens", 3}};
  auto reply = http_post(mock.port(), "/v1/chat/completions", body.dump());
  EXPECT_EQ(reply.status, 200) << reply.body;
  return nlohmann::json::parse(reply.body)["usage"]["prompt_tokens"].get<long long>();
}

// The builtin tokenizer by default; --no-tokenizer switches to ~4-character chunks.
TEST(MockServer, CountsPromptTokensWithTheBuiltinTokenizerUnlessTold) {
  const std::string word = "internationalization";  // five 4-character chunks
  MockServerProcess chunker({"--fast", "--no-tokenizer"});
  EXPECT_EQ(prompt_tokens(chunker, word), 5);
  MockServerProcess builtin({"--fast"});
  const long long n = prompt_tokens(builtin, word);
  EXPECT_GE(n, 1);
  EXPECT_LT(n, 5);
  const auto bad = run_process(
      {INFERPERF_MOCK_SERVER_BIN, "--port", "0", "--tokenizer", "/nonexistent/tokenizer.json"},
      std::chrono::seconds(30));
  EXPECT_EQ(bad.exit_code, 2) << bad.out;
  EXPECT_NE(bad.out.find("/nonexistent/tokenizer.json"), std::string::npos) << bad.out;
}

// The value of the sample line that starts with `head` (metric name and labels as written).
double sample(const std::string& page, const std::string& head) {
  std::istringstream in(page);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > head.size() && line.rfind(head, 0) == 0 && line[head.size()] == ' ') {
      return std::stod(line.substr(head.size() + 1));
    }
  }
  ADD_FAILURE() << "no sample " << head << " in\n" << page;
  return -1;
}

// A fake DCGM reading of one GPU: the sample `field{gpu="N",...}`.
double gpu_value(const std::string& page, const std::string& field, int gpu) {
  const std::string head = field + "{gpu=\"" + std::to_string(gpu) + "\",";
  std::istringstream in(page);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(head, 0) == 0) return std::stod(line.substr(line.rfind(' ') + 1));
  }
  ADD_FAILURE() << "no " << head << " in\n" << page;
  return -1;
}

int count_lines_starting(const std::string& page, const std::string& head) {
  std::istringstream in(page);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) n += line.rfind(head, 0) == 0 ? 1 : 0;
  return n;
}

std::string chat_body(bool stream, int max_tokens, const std::string& prompt = "tell me a story") {
  nlohmann::json body = {{"model", "mock-model"},
                         {"messages", {{{"role", "user"}, {"content", prompt}}}},
                         {"max_tokens", max_tokens},
                         {"ignore_eos", true},
                         {"stream", stream}};
  if (stream) body["stream_options"] = {{"include_usage", true}};
  return body.dump();
}

// The JSON objects of an SSE body's data lines, [DONE] left out.
std::vector<nlohmann::json> sse_events(const std::string& body) {
  std::vector<nlohmann::json> out;
  std::istringstream in(body);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("data: ", 0) != 0 || line == "data: [DONE]") continue;
    out.push_back(nlohmann::json::parse(line.substr(6)));
  }
  return out;
}

void stream_some(int port, int requests, int tokens) {
  for (int i = 0; i < requests; ++i) {
    const auto r = http_post(port, "/v1/chat/completions", chat_body(true, tokens));
    ASSERT_EQ(r.status, 200) << r.body;
    ASSERT_NE(r.body.find("data: [DONE]"), std::string::npos);
  }
}

TEST(MockServer, FakeDcgmUtilisationRisesUnderStreamingLoad) {
  // A 30 s window and a 1 token/s floor: any traffic is full load, however slow the machine.
  MockServerProcess mock({"--ttft", "0", "--itl", "1", "--no-tokenizer", "--dcgm-window-sec", "30",
                          "--dcgm-min-throughput", "1", "--dcgm-seed", "3"});
  const auto before = http_get(mock.port(), "/dcgm1/metrics");
  ASSERT_EQ(before.status, 200);
  EXPECT_NE(before.body.find("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"), std::string::npos);
  EXPECT_EQ(count_lines_starting(before.body, "DCGM_FI_DEV_GPU_UTIL{"), 2) << "two GPUs by default";
  EXPECT_NE(before.body.find(R"(modelName="NVIDIA H200",Hostname="localhost"})"),
            std::string::npos);
  stream_some(mock.port(), 6, 20);
  const auto after = http_get(mock.port(), "/dcgm1/metrics");
  ASSERT_EQ(after.status, 200);
  for (int g = 0; g < 2; ++g) {
    SCOPED_TRACE(g);
    EXPECT_LE(gpu_value(before.body, "DCGM_FI_DEV_GPU_UTIL", g), 6);
    EXPECT_GE(gpu_value(after.body, "DCGM_FI_DEV_GPU_UTIL", g), 90);
    EXPECT_LE(gpu_value(before.body, "DCGM_FI_DEV_POWER_USAGE", g), 80);  // H200 idles at 75 W
    EXPECT_GE(gpu_value(after.body, "DCGM_FI_DEV_POWER_USAGE", g), 600);
    EXPECT_GT(gpu_value(after.body, "DCGM_FI_DEV_FB_USED", g),
              gpu_value(before.body, "DCGM_FI_DEV_FB_USED", g));
    EXPECT_GT(gpu_value(after.body, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", g),
              gpu_value(before.body, "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION", g));
  }
  // Another node: its own GPUs (UUIDs), the same load.
  const auto node2 = http_get(mock.port(), "/dcgm2/metrics");
  ASSERT_EQ(node2.status, 200);
  const auto uuid_of = [](const std::string& page) {
    const auto at = page.find("UUID=\"");
    return page.substr(at + 6, page.find('"', at + 6) - at - 6);
  };
  EXPECT_NE(uuid_of(node2.body), uuid_of(after.body));
  EXPECT_EQ(uuid_of(http_get(mock.port(), "/dcgm1/metrics").body), uuid_of(before.body));
  EXPECT_GE(gpu_value(node2.body, "DCGM_FI_DEV_GPU_UTIL", 0), 90);
  EXPECT_EQ(http_get(mock.port(), "/dcgm0/metrics").status, 404);
  EXPECT_EQ(http_get(mock.port(), "/dcgm65/metrics").status, 404);
  EXPECT_EQ(http_get(mock.port(), "/dcgmx/metrics").status, 404);
}

TEST(MockServer, FakeDcgmAndTimingsFlagsFromEnvironment) {
  setenv("MOCK_SERVER_DCGM_GPU_NAME", "a100", 1);
  setenv("MOCK_SERVER_DCGM_NUM_GPUS", "3", 1);
  setenv("MOCK_SERVER_DCGM_AUTO_LOAD", "false", 1);
  setenv("MOCK_SERVER_DCGM_HOSTNAME", "gpu-node-7", 1);
  setenv("MOCK_SERVER_DCGM_MIN_THROUGHPUT", "1", 1);
  setenv("MOCK_SERVER_TIMINGS", "1", 1);
  MockServerProcess mock({"--fast", "--no-tokenizer"});
  for (const char* name :
       {"MOCK_SERVER_DCGM_GPU_NAME", "MOCK_SERVER_DCGM_NUM_GPUS", "MOCK_SERVER_DCGM_AUTO_LOAD",
        "MOCK_SERVER_DCGM_HOSTNAME", "MOCK_SERVER_DCGM_MIN_THROUGHPUT", "MOCK_SERVER_TIMINGS"}) {
    unsetenv(name);
  }
  stream_some(mock.port(), 3, 20);
  const auto page = http_get(mock.port(), "/dcgm1/metrics").body;
  EXPECT_EQ(count_lines_starting(page, "DCGM_FI_DEV_GPU_UTIL{"), 3);
  EXPECT_NE(page.find(R"(modelName="NVIDIA A100-SXM4-80GB",Hostname="gpu-node-7"})"),
            std::string::npos)
      << page;
  for (int g = 0; g < 3; ++g) EXPECT_EQ(gpu_value(page, "DCGM_FI_DEV_GPU_UTIL", g), 5) << "idle";
  const auto reply = http_post(mock.port(), "/v1/chat/completions", chat_body(false, 3));
  EXPECT_TRUE(nlohmann::json::parse(reply.body).contains("timings")) << reply.body;
}

TEST(MockServer, EnginePagesFollowServedRequests) {
  MockServerProcess mock({"--fast", "--no-tokenizer"});
  long long prompt = 0;
  for (int i = 0; i < 3; ++i) {
    const auto r = http_post(mock.port(), "/v1/chat/completions", chat_body(false, 4));
    ASSERT_EQ(r.status, 200) << r.body;
    prompt += nlohmann::json::parse(r.body)["usage"]["prompt_tokens"].get<long long>();
  }
  for (int i = 0; i < 2; ++i) {
    const nlohmann::json body = {
        {"model", "mock-model"}, {"prompt", "one two three"},
        {"max_tokens", 6},       {"ignore_eos", true},
        {"stream", true},        {"stream_options", {{"include_usage", true}}}};
    const auto r = http_post(mock.port(), "/v1/completions", body.dump());
    ASSERT_EQ(r.status, 200) << r.body;
    prompt += sse_events(r.body).back()["usage"]["prompt_tokens"].get<long long>();
  }
  EXPECT_EQ(http_post(mock.port(), "/v1/chat/completions", chat_body(false, 4),
                      {{"X-Mock-Fault", "status=503"}})
                .status,
            503);

  const std::string v = R"({model_name="mock-model",engine="0")";
  const auto vllm = http_get(mock.port(), "/vllm/metrics");
  ASSERT_EQ(vllm.status, 200);
  EXPECT_EQ(sample(vllm.body, "vllm:generation_tokens_total" + v + "}"), 3 * 4 + 2 * 6);
  EXPECT_EQ(sample(vllm.body, "vllm:prompt_tokens_total" + v + "}"), static_cast<double>(prompt));
  EXPECT_EQ(sample(vllm.body, "vllm:request_success_total" + v + R"(,finished_reason="length"})"),
            5);
  EXPECT_EQ(sample(vllm.body, "vllm:time_to_first_token_seconds_count" + v + "}"), 5);
  EXPECT_EQ(sample(vllm.body, "vllm:time_to_first_token_seconds_bucket" + v + R"(,le="+Inf"})"), 5);
  EXPECT_EQ(sample(vllm.body, "vllm:num_requests_running" + v + "}"), 0);
  EXPECT_EQ(sample(vllm.body, "vllm:request_generation_tokens_bucket" + v + R"(,le="5.0"})"), 3);

  const auto sglang = http_get(mock.port(), "/sglang/metrics").body;
  EXPECT_EQ(sample(sglang, R"(sglang:generation_tokens_total{model_name="mock-model"})"), 24);
  const auto trt = http_get(mock.port(), "/trtllm/metrics").body;
  EXPECT_EQ(sample(trt, R"(trtllm_request_success_total{model_name="mock-model",)"
                        R"(engine_type="trtllm",finished_reason="length"})"),
            5);
  const auto fe = http_get(mock.port(), "/dynamo_frontend/metrics").body;
  const std::string req = "dynamo_frontend_requests_total";
  EXPECT_EQ(sample(fe, req + R"({endpoint="chat_completions",model="mock-model",)"
                             R"(request_type="unary",status="success"})"),
            3);
  EXPECT_EQ(sample(fe, req + R"({endpoint="completions",model="mock-model",)"
                             R"(request_type="stream",status="success"})"),
            2);
  EXPECT_EQ(sample(fe, req + R"({endpoint="chat_completions",model="mock-model",)"
                             R"(request_type="unary",status="error"})"),
            1);
  EXPECT_EQ(sample(fe, R"(dynamo_frontend_output_sequence_tokens_count{model="mock-model"})"), 5);
  const std::string component =
      R"({dynamo_component="prefill",dynamo_endpoint="generate",dynamo_namespace="dynamo"})";
  const auto prefill = http_get(mock.port(), "/dynamo_component/prefill/metrics").body;
  EXPECT_EQ(sample(prefill, "dynamo_component_requests_total" + component), 5);
  const auto decode = http_get(mock.port(), "/dynamo_component/decode/metrics").body;
  EXPECT_EQ(sample(decode, R"(dynamo_component_requests_total{dynamo_component="decode",)"
                           R"(dynamo_endpoint="generate",dynamo_namespace="dynamo"})"),
            5);
  EXPECT_NE(vllm.body.find(R"(weights_path="C:\\models\\\"mock\"\\weights")"), std::string::npos);

  // The mock's own page keeps its counters and adds histograms.
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 6);
  const auto own = http_get(mock.port(), "/metrics").body;
  EXPECT_EQ(sample(own, "inferperf_mock_output_tokens_per_request_count"), 5);
  EXPECT_EQ(sample(own, "inferperf_mock_output_tokens_per_request_sum"), 24);
  EXPECT_EQ(sample(own, "inferperf_mock_time_to_first_token_seconds_count"), 5);
  EXPECT_EQ(sample(own, R"(inferperf_mock_inter_token_latency_seconds_bucket{le="+Inf"})"),
            3 * 3 + 2 * 5);

  const auto info = nlohmann::json::parse(http_get(mock.port(), "/").body);
  for (const char* route : {"/metrics", "/vllm/metrics", "/sglang/metrics", "/trtllm/metrics",
                            "/dynamo_frontend/metrics", "/dynamo_component/prefill/metrics",
                            "/dynamo_component/decode/metrics", "/dcgm{N}/metrics"}) {
    EXPECT_NE(std::find(info["routes"].begin(), info["routes"].end(), route), info["routes"].end())
        << route;
  }
}

void expect_timings(const nlohmann::json& t, long long prompt_n, long long predicted_n,
                    double min_prompt_ms) {
  ASSERT_TRUE(t.is_object());
  EXPECT_EQ(t["prompt_n"].get<long long>(), prompt_n);
  EXPECT_EQ(t["predicted_n"].get<long long>(), predicted_n);
  for (const char* k : {"prompt_ms", "prompt_per_token_ms", "prompt_per_second", "predicted_ms",
                        "predicted_per_token_ms", "predicted_per_second"}) {
    EXPECT_TRUE(t[k].is_number_float()) << k;
  }
  const double prompt_ms = t["prompt_ms"].get<double>();
  const double predicted_ms = t["predicted_ms"].get<double>();
  EXPECT_GE(prompt_ms, min_prompt_ms);
  EXPECT_LT(prompt_ms, 30000);
  EXPECT_GT(predicted_ms, 0);
  EXPECT_LT(predicted_ms, 30000);
  EXPECT_NEAR(t["prompt_per_token_ms"].get<double>(), prompt_ms / static_cast<double>(prompt_n),
              1e-9 * prompt_ms);
  EXPECT_NEAR(t["predicted_per_second"].get<double>(),
              1e3 * static_cast<double>(predicted_n) / predicted_ms,
              1e-9 * t["predicted_per_second"].get<double>());
}

TEST(MockServer, TimingsInStreamingAndWholeResponses) {
  MockServerProcess mock({"--ttft", "40", "--itl", "5", "--no-tokenizer", "--timings"});
  const auto whole = http_post(mock.port(), "/v1/chat/completions", chat_body(false, 5));
  ASSERT_EQ(whole.status, 200);
  const auto w = nlohmann::json::parse(whole.body);
  expect_timings(w["timings"], w["usage"]["prompt_tokens"].get<long long>(), 5, 40.0);

  const auto streamed = http_post(mock.port(), "/v1/chat/completions", chat_body(true, 5));
  ASSERT_EQ(streamed.status, 200);
  const auto events = sse_events(streamed.body);
  ASSERT_GE(events.size(), 3U);
  const nlohmann::json* final_chunk = nullptr;
  for (const auto& e : events) {
    const bool finishing = !e["choices"].empty() && !e["choices"][0]["finish_reason"].is_null();
    EXPECT_EQ(e.contains("timings"), finishing) << e.dump();
    if (finishing) final_chunk = &e;
  }
  ASSERT_NE(final_chunk, nullptr);
  expect_timings((*final_chunk)["timings"],
                 events.back()["usage"]["prompt_tokens"].get<long long>(), 5, 40.0);

  // Without --timings only the header asks for them.
  MockServerProcess plain({"--ttft", "2", "--itl", "1", "--no-tokenizer"});
  const auto none = nlohmann::json::parse(
      http_post(plain.port(), "/v1/chat/completions", chat_body(false, 3)).body);
  EXPECT_FALSE(none.contains("timings"));
  const auto asked = nlohmann::json::parse(http_post(plain.port(), "/v1/chat/completions",
                                                     chat_body(false, 3), {{"X-Mock-Timings", "1"}})
                                               .body);
  expect_timings(asked["timings"], asked["usage"]["prompt_tokens"].get<long long>(), 3, 2.0);
  const nlohmann::json completion = {{"model", "mock-model"},
                                     {"prompt", "alpha beta gamma"},
                                     {"max_tokens", 4},
                                     {"ignore_eos", true},
                                     {"stream", true}};
  const auto cs = sse_events(
      http_post(plain.port(), "/v1/completions", completion.dump(), {{"X-Mock-Timings", "1"}})
          .body);
  ASSERT_FALSE(cs.empty());
  ASSERT_TRUE(cs.back().contains("timings")) << cs.back().dump();
  // "alpha beta gamma" is five ~4-character chunks.
  expect_timings(cs.back()["timings"], 5, 4, 2.0);
}

}  // namespace
}  // namespace inferperf::testing

namespace inferperf::testing {
namespace {

TEST(MockServer, ServesTheOtherApiRoutes) {
  MockServerProcess mock({"--fast"});
  const int port = mock.port();
  auto emb = http_post(port, "/v1/embeddings", R"({"model":"e","input":["a b","c"]})");
  ASSERT_EQ(emb.status, 200) << emb.body;
  EXPECT_EQ(nlohmann::json::parse(emb.body)["data"][1]["embedding"].size(), 768u);
  auto rank =
      http_post(port, "/v1/ranking",
                R"({"model":"r","query":{"text":"q"},"passages":[{"text":"a"},{"text":"b"}]})");
  ASSERT_EQ(rank.status, 200) << rank.body;
  EXPECT_EQ(nlohmann::json::parse(rank.body)["rankings"].size(), 2u);
  EXPECT_EQ(http_post(port, "/v2/rerank", R"({"model":"r"})").status, 422);
  auto tgi = http_post(port, "/generate_stream",
                       R"({"inputs":"hello world","parameters":{"max_new_tokens":3}})");
  ASSERT_EQ(tgi.status, 200);
  EXPECT_NE(tgi.body.find("\"generated_tokens\":3"), std::string::npos) << tgi.body;
  EXPECT_EQ(tgi.body.find("[DONE]"), std::string::npos);
  auto resp =
      http_post(port, "/v1/responses", R"({"model":"m","input":"hi","max_output_tokens":2})");
  ASSERT_EQ(resp.status, 200) << resp.body;
  EXPECT_EQ(nlohmann::json::parse(resp.body)["usage"]["output_tokens"], 2);
  EXPECT_EQ(http_post(port, "/v1/messages", R"({"model":"m","max_tokens":2,"messages":[]})").status,
            400);
  auto msg =
      http_post(port, "/v1/messages",
                R"({"model":"m","max_tokens":2,"messages":[{"role":"user","content":"hi"}]})",
                {{"anthropic-version", "2023-06-01"}});
  ASSERT_EQ(msg.status, 200) << msg.body;
  EXPECT_EQ(nlohmann::json::parse(msg.body)["type"], "message");
  auto img = http_post(port, "/v1/images/generations", R"({"prompt":"a cat","n":1})");
  ASSERT_EQ(img.status, 200);
  EXPECT_FALSE(nlohmann::json::parse(img.body)["data"][0]["b64_json"].get<std::string>().empty());
  auto video = http_post(port, "/v1/videos", R"({"prompt":"a cat","model":"sora-2"})");
  ASSERT_EQ(video.status, 200);
  const std::string id = nlohmann::json::parse(video.body)["id"];
  EXPECT_EQ(nlohmann::json::parse(http_get(port, "/v1/videos/" + id).body)["status"], "completed");
  EXPECT_EQ(http_get(port, "/v1/videos/" + id + "/content").status, 200);
  EXPECT_EQ(http_get(port, "/v1/videos/video_nope").status, 404);
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 9);
}

TEST(MockServer, ReadinessDelayAndApiKey) {
  MockServerProcess mock({"--fast", "--inference-ready-delay-seconds", "1",
                          "--models-ready-delay-seconds", "1", "--api-key", "secret",
                          "--auth-header-name", "x-api-key", "--strict-model"});
  const int port = mock.port();
  const std::string body = R"({"model":"mock-model","input":"x"})";
  const auto start = std::chrono::steady_clock::now();
  EXPECT_EQ(http_post(port, "/v1/embeddings", body).status, 401);
  EXPECT_EQ(http_post(port, "/v1/embeddings", body, {{"x-api-key", "wrong"}}).status, 401);
  auto early = http_post(port, "/v1/embeddings", body, {{"x-api-key", "secret"}});
  if (std::chrono::steady_clock::now() - start < std::chrono::milliseconds(900)) {
    EXPECT_EQ(early.status, 503);
    EXPECT_EQ(nlohmann::json::parse(early.body)["detail"], "Model is loading");
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(http_post(port, "/v1/embeddings", body, {{"x-api-key", "secret"}}).status, 200);
  auto other = http_post(port, "/v1/embeddings", R"({"model":"other","input":"x"})",
                         {{"x-api-key", "secret"}});
  EXPECT_EQ(other.status, 404);
  EXPECT_EQ(nlohmann::json::parse(other.body)["error"]["code"], 404);
  EXPECT_EQ(http_get(port, "/v1/models").status, 401);  // http_get sends no key
  EXPECT_EQ(http_get(port, "/health").status, 200);
}

std::int64_t wall_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// --token-log: one line per streamed request, one wall-clock stamp per token event, written out
// by the time the server has exited on SIGTERM.
TEST(MockServer, TokenLogStampsEveryTokenWrite) {
  const std::string dir = make_temp_dir("mock-token-log");
  const std::string path = dir + "/tokens.jsonl";
  const std::int64_t before = wall_now_ns();
  {
    MockServerProcess mock({"--ttft", "50", "--itl", "20", "--no-tokenizer", "--token-log", path});
    const auto r = http_post(mock.port(), "/v1/chat/completions", chat_body(true, 5),
                             {{"X-Request-ID", "req-\"one\""}});
    ASSERT_EQ(r.status, 200) << r.body;
    // Not streamed: no line. Streamed without an id: "x_request_id": null.
    ASSERT_EQ(http_post(mock.port(), "/v1/chat/completions", chat_body(false, 2)).status, 200);
    ASSERT_EQ(http_post(mock.port(), "/v1/chat/completions", chat_body(true, 2)).status, 200);
  }  // SIGTERM
  const std::int64_t after = wall_now_ns();
  const auto lines = read_lines(path);
  ASSERT_EQ(lines.size(), 2U) << read_file(path);
  const auto first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first["x_request_id"], "req-\"one\"");
  const auto received = first["received_ns"].get<std::int64_t>();
  const auto writes = first["writes_ns"].get<std::vector<std::int64_t>>();
  ASSERT_EQ(writes.size(), 5U);
  EXPECT_GT(received, before);  // wall-clock ns, comparable with the client's records
  EXPECT_LT(writes.back(), after);
  const double slack_ms = INFERPERF_SANITIZER_BUILD ? 60.0 : 15.0;
  const double ttft_ms = static_cast<double>(writes[0] - received) / 1e6;
  EXPECT_GE(ttft_ms, 50.0);
  EXPECT_LT(ttft_ms, 50.0 + slack_ms);
  // Absolute deadlines: event j is due at received + 50 + 20j ms, never earlier.
  for (std::size_t j = 1; j < writes.size(); ++j) {
    SCOPED_TRACE(j);
    const double gap_ms = static_cast<double>(writes[j] - writes[j - 1]) / 1e6;
    EXPECT_GT(gap_ms, 20.0 - slack_ms);
    EXPECT_LT(gap_ms, 20.0 + slack_ms);
    const double due_ms = static_cast<double>(writes[j] - received) / 1e6;
    EXPECT_GE(due_ms, 50.0 + 20.0 * static_cast<double>(j));
  }
  const double spacing_ms = static_cast<double>(writes.back() - writes.front()) / 4e6;
  EXPECT_NEAR(spacing_ms, 20.0, INFERPERF_SANITIZER_BUILD ? 10.0 : 2.0);
  const auto second = nlohmann::json::parse(lines[1]);
  EXPECT_TRUE(second["x_request_id"].is_null());
  EXPECT_EQ(second["writes_ns"].size(), 2U);

  // MOCK_SERVER_TOKEN_LOG, appending to the same file.
  setenv("MOCK_SERVER_TOKEN_LOG", path.c_str(), 1);
  {
    MockServerProcess mock({"--fast", "--no-tokenizer"});
    unsetenv("MOCK_SERVER_TOKEN_LOG");
    ASSERT_EQ(http_post(mock.port(), "/v1/chat/completions", chat_body(true, 3),
                        {{"X-Request-ID", "env"}})
                  .status,
              200);
  }
  const auto all = read_lines(path);
  ASSERT_EQ(all.size(), 3U);
  const auto third = nlohmann::json::parse(all[2]);
  EXPECT_EQ(third["x_request_id"], "env");
  EXPECT_EQ(third["writes_ns"].size(), 3U);
}

TEST(MockServer, ModelsEndpointCanBeDisabledOrLate) {
  MockServerProcess off({"--fast", "--disable-models-endpoint"});
  EXPECT_EQ(http_get(off.port(), "/v1/models").status, 404);
  MockServerProcess late({"--fast", "--models-ready-delay-seconds", "30"});
  EXPECT_EQ(http_get(late.port(), "/v1/models").status, 503);
  EXPECT_EQ(http_post(late.port(), "/v1/embeddings", R"({"input":"x"})").status, 200);
}

// A mono 16-bit PCM WAV file written byte by byte, and base64 written here, so the check below
// leans on neither the client's encoders nor the mock's.
std::string media_test_wav(int rate, int frames) {
  const auto le = [](std::string& out, std::uint32_t v, int bytes) {
    for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffU));
  };
  const auto data = static_cast<std::uint32_t>(frames * 2);
  std::string w = "RIFF";
  le(w, 36 + data, 4);
  w += "WAVEfmt ";
  le(w, 16, 4);
  le(w, 1, 2);  // PCM
  le(w, 1, 2);  // mono
  le(w, static_cast<std::uint32_t>(rate), 4);
  le(w, static_cast<std::uint32_t>(rate * 2), 4);
  le(w, 2, 2);
  le(w, 16, 2);
  w += "data";
  le(w, data, 4);
  for (std::uint32_t i = 0; i < data; ++i) w.push_back(static_cast<char>(i * 13));
  return w;
}

std::string media_test_base64(const std::string& bytes) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < bytes.size(); i += 3) {
    std::uint32_t n = static_cast<std::uint8_t>(bytes[i]) << 16;
    if (i + 1 < bytes.size())
      n |= static_cast<std::uint32_t>(static_cast<std::uint8_t>(bytes[i + 1])) << 8;
    if (i + 2 < bytes.size()) n |= static_cast<std::uint8_t>(bytes[i + 2]);
    for (std::size_t k = 0; k < 4; ++k)
      out.push_back(i + k <= bytes.size() ? kAlphabet[(n >> (18 - 6 * k)) & 63] : '=');
  }
  return out;
}

// Chat media are decoded and checked (docs/mock-server.md, Media in chat requests): counted on
// /metrics, one --media-log line per request (in the file while the server runs), and a declared
// format the bytes are not is a 400.
TEST(MockServer, ChatMediaIsDecodedCountedAndLogged) {
  const std::string dir = make_temp_dir("mock-media-log");
  const std::string path = dir + "/media.jsonl";
  MockServerProcess mock({"--fast", "--no-tokenizer", "--media-log", path});
  // 1 x 1 RGBA PNG.
  const std::string png =
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAC"
      "hwGA60e6kgAAAABJRU5ErkJggg==";
  const std::string wav = media_test_wav(16000, 4000);  // 0.25 s
  const auto body = [&](const std::string& format) {
    const nlohmann::json content = {
        {{"type", "text"}, {"text", "what is this"}},
        {{"type", "image_url"}, {"image_url", {{"url", png}}}},
        {{"type", "input_audio"},
         {"input_audio", {{"data", media_test_base64(wav)}, {"format", format}}}}};
    return nlohmann::json{{"model", "mock-model"},
                          {"max_tokens", 3},
                          {"messages", {{{"role", "user"}, {"content", content}}}}}
        .dump();
  };
  const auto ok =
      http_post(mock.port(), "/v1/chat/completions", body("wav"), {{"X-Request-ID", "media-1"}});
  ASSERT_EQ(ok.status, 200) << ok.body;
  const auto bad = http_post(mock.port(), "/v1/chat/completions", body("mp3"));
  EXPECT_EQ(bad.status, 400) << bad.body;
  EXPECT_EQ(nlohmann::json::parse(bad.body)["error"]["message"],
            "messages[0].content[2] (input_audio): declared mp3 but the bytes are wav");

  const std::string page = http_get(mock.port(), "/metrics").body;
  EXPECT_EQ(sample(page, R"(inferperf_mock_media_items_total{kind="image",format="png"})"), 1);
  EXPECT_EQ(sample(page, R"(inferperf_mock_media_items_total{kind="audio",format="wav"})"), 1);
  EXPECT_EQ(sample(page, "inferperf_mock_media_requests_total"), 1);
  EXPECT_EQ(sample(page, "inferperf_mock_media_rejected_total"), 1);
  EXPECT_EQ(sample(page, "inferperf_mock_image_pixels_total"), 1);
  EXPECT_DOUBLE_EQ(sample(page, "inferperf_mock_audio_seconds_total"), 0.25);
  EXPECT_EQ(sample(page, "inferperf_mock_media_bytes_total"), static_cast<double>(70 + wav.size()));

  const auto lines = read_jsonl(path);
  ASSERT_EQ(lines.size(), 1U) << read_file(path);
  EXPECT_EQ(lines[0]["request"], 1);
  EXPECT_EQ(lines[0]["x_request_id"], "media-1");
  const auto& items = lines[0]["items"];
  ASSERT_EQ(items.size(), 2U) << lines[0].dump();
  EXPECT_EQ(items[0]["kind"], "image");
  EXPECT_EQ(items[0]["container"], "png");
  EXPECT_EQ(items[0]["width"], 1);
  EXPECT_EQ(items[0]["bytes"], 70);
  EXPECT_EQ(items[1]["kind"], "audio");
  EXPECT_EQ(items[1]["declared"], "wav");
  EXPECT_EQ(items[1]["sample_rate"], 16000);
  EXPECT_EQ(items[1]["channels"], 1);
  EXPECT_EQ(items[1]["bits"], 16);
  EXPECT_DOUBLE_EQ(items[1]["duration_s"].get<double>(), 0.25);
}

}  // namespace
}  // namespace inferperf::testing
