// AIPerf 0.11 warmup marker (#1040) end to end: a short run with 2 warmup and 3 profiling requests
// against the mock. The mock counts the requests whose body carries the marker
// (inferperf_mock_warmup_marked_total); the raw export holds the 3 profiling bodies, unmarked and
// equal to the prebuilt bodies in inputs.json.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;

void run_and_check(const std::vector<std::string>& endpoint_args, const char* tag) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir(std::string("ip-warmmark-") + tag + "-");
  std::vector<std::string> more = {"--warmup-request-count", "2", "--request-count", "3",
                                   "--concurrency",          "1", "--export-level",  "raw",
                                   "--no-server-metrics"};
  more.insert(more.end(), endpoint_args.begin(), endpoint_args.end());
  auto r = run_process(mock_profile_args(INFERPERF_BIN, mock, dir, more), 120s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_EQ(mock.metric("inferperf_mock_warmup_marked_total"), 2) << tag;

  const json inputs = json::parse(read_file(dir + "/inputs.json"));
  std::map<std::string, json> prebuilt;  // conversation id -> first turn's body
  for (const auto& d : inputs["data"]) prebuilt[d["session_id"]] = d["payloads"][0];
  const auto raw = read_lines(dir + "/profile_export_raw.jsonl");
  ASSERT_EQ(raw.size(), 3u) << tag;
  for (const auto& text : raw) {
    const json line = json::parse(text);
    ASSERT_EQ(line["metadata"]["benchmark_phase"], "profiling");
    const json& payload = line["payload"];
    EXPECT_EQ(payload, prebuilt.at(line["metadata"]["conversation_id"])) << tag;
    EXPECT_EQ(payload.dump().find("warmup"), std::string::npos) << payload.dump();
  }
}

TEST(WarmupMarker, ChatWarmupBodiesCarryTheSystemMarkerProfilingOnesDoNot) {
  run_and_check({"--endpoint-type", "chat"}, "chat");
}

TEST(WarmupMarker, CompletionsWarmupPromptsArePrefixedProfilingOnesAreNot) {
  run_and_check({"--endpoint-type", "completions"}, "completions");
}

}  // namespace
}  // namespace inferperf::testing
