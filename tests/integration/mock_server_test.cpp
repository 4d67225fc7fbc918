// The mock server's own routes, answered over real HTTP.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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

}  // namespace
}  // namespace inferperf::testing
