// The URL spellings a telemetry endpoint is fetched, exported and reported under.
#include "telemetry/endpoint_state.hpp"

#include <gtest/gtest.h>

namespace inferperf::telemetry {
namespace {

TEST(EndpointState, UrlsNormalisedAndNamed) {
  EXPECT_EQ(metrics_url("node:9400"), "http://node:9400/metrics");
  EXPECT_EQ(metrics_url("https://node:9400/"), "https://node:9400/metrics");
  EXPECT_EQ(metrics_url("http://h:1/dcgm1/metrics"), "http://h:1/dcgm1/metrics");
  EXPECT_EQ(server_metrics_url("http://h:8000/v1"), "http://h:8000/metrics");
  EXPECT_EQ(server_metrics_url("h:8000"), "http://h:8000/metrics");
  // A --url query (an api_key, say) is not part of the host, nor sent to /metrics.
  EXPECT_EQ(server_metrics_url("http://h:8000?api_key=s"), "http://h:8000/metrics");
  EXPECT_EQ(endpoint_name("http://h:9400/metrics"), "h:9400");
  EXPECT_EQ(endpoint_name("http://h:8000/dcgm2/metrics"), "h:8000/dcgm2");
  EXPECT_EQ(endpoint_name("http://h:8000/exporter"), "h:8000/exporter");
  EXPECT_EQ(endpoint_name("http://h:8000/"), "h:8000");
}

}  // namespace
}  // namespace inferperf::telemetry
