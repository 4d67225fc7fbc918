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

}  // namespace
}  // namespace inferperf::testing
