// server_info.json in every run folder: the mock's model list and version route, asked once
// before the run on one connection, and the console line naming the server.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;

TEST(ServerInfo, EveryRunFolderSaysWhatAnswered) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-serverinfo-");
  const auto r = run_process(
      mock_profile_args(INFERPERF_BIN, mock, dir, {"--request-count", "2", "--no-server-metrics"}),
      60s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("server: inferperf-mock-server "), std::string::npos) << r.out;
  const json info = json::parse(read_file(dir + "/server_info.json"));
  EXPECT_EQ(info["url"], mock.url());
  EXPECT_EQ(info["engine"], "inferperf-mock-server");
  EXPECT_FALSE(info["engine_version"].get<std::string>().empty());
  EXPECT_EQ(info["models"], json::array({"mock-model"}));
  EXPECT_EQ(info["routes"]["/v1/models"]["status"], 200);
  EXPECT_EQ(info["routes"]["/props"]["status"], 404);
  EXPECT_FALSE(info["routes"]["/props"].contains("body")) << "a 404 page is not kept";
  EXPECT_LT(info["probe_seconds"].get<double>(), 3.0);
  // GETs only: the mock counted the run's two requests, nothing else.
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 2);
}

}  // namespace
}  // namespace inferperf::testing
