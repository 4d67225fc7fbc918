// Hostile responses (issue 25, row 5): a body over --max-response-bytes or an SSE event over
// --max-sse-event-bytes is one error record naming the flag while the run goes on and measures
// every other request; an output too long to count exactly is estimated and flagged.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using json = nlohmann::json;

std::vector<std::string> profile_args(const MockServerProcess& mock, const std::string& dir,
                                      int count, bool streaming) {
  auto args = mock_profile_args(INFERPERF_BIN, mock, dir,
                                {"--concurrency", "2", "--request-count", std::to_string(count)});
  if (streaming) args.push_back("--streaming");
  return args;
}

struct CapCase {
  const char* name;
  bool streaming;
  const char* flag;
  const char* value;
  const char* type;
  const char* message;
};

class HostileResponses : public ::testing::TestWithParam<CapCase> {};

TEST_P(HostileResponses, OverTheCapIsOneErrorRecordAndTheRunGoesOn) {
  const CapCase& c = GetParam();
  // About a third of the requests get a 200 KB first token: one event (and body) that large.
  MockServerProcess mock(
      {"--fast", "--fault-rate", "35", "--fault-kinds", "big-event=200000", "--random-seed", "4"});
  const std::string dir = make_temp_dir("ip-hostile-");
  constexpr int kRequests = 24;
  auto args = profile_args(mock, dir, kRequests, c.streaming);
  args.push_back(c.flag);
  args.push_back(c.value);
  const auto r = run_process(args, std::chrono::seconds(90));
  // Some requests failed, some did not: a run with errors that still measured, exit 0.
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto summary = json::parse(read_file(dir + "/profile_export_aiperf.json"));
  const int ok = summary["request_count"]["avg"].get<int>();
  const int bad = summary["error_request_count"]["avg"].get<int>();
  EXPECT_EQ(ok + bad, kRequests);
  EXPECT_GT(bad, 2);
  EXPECT_GT(ok, 2);
  ASSERT_EQ(summary["error_summary"].size(), 1u) << summary["error_summary"].dump();
  const auto& details = summary["error_summary"][0]["error_details"];
  EXPECT_EQ(details["type"], c.type);
  EXPECT_EQ(details["message"], c.message);
  EXPECT_TRUE(details["code"].is_null());
  EXPECT_EQ(summary["error_summary"][0]["count"], bad);
  // Every record is in the per-record export: the failed ones with their error, the others
  // measured, none with an estimated token count.
  int errors = 0, measured = 0;
  for (const auto& rec : read_jsonl(dir + "/profile_export.jsonl")) {
    EXPECT_FALSE(rec["metadata"].contains("output_tokens_estimated"));
    if (rec.contains("error")) {
      ++errors;
      EXPECT_EQ(rec["error"]["type"], c.type);
    } else {
      ++measured;
      EXPECT_GT(rec["metrics"]["output_sequence_length"]["value"].get<double>(), 0);
    }
  }
  EXPECT_EQ(errors, bad);
  EXPECT_EQ(measured, ok);
  // A failed response's connection is closed, never reused: each failure costs a connection.
  EXPECT_GE(mock.metric("inferperf_mock_connections_total"), bad);
}

INSTANTIATE_TEST_SUITE_P(
    Caps, HostileResponses,
    ::testing::Values(
        CapCase{"SseEvent", true, "--max-sse-event-bytes", "64K", "SSEEventTooLargeError",
                "SSE event exceeded --max-sse-event-bytes (64.0 KiB)"},
        CapCase{"StreamBody", true, "--max-response-bytes", "128K", "ResponseTooLargeError",
                "response body exceeded --max-response-bytes (128.0 KiB)"},
        CapCase{"WholeBody", false, "--max-response-bytes", "128K", "ResponseTooLargeError",
                "response body exceeded --max-response-bytes (128.0 KiB)"}),
    [](const auto& param_info) { return std::string(param_info.param.name); });

TEST(HostileOutputs, AnOutputTooLongToCountExactlyIsEstimatedAndFlagged) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-estimate-");
  // A 9 MiB first token: over the 8 MiB exact-count limit, under every response cap.
  auto args = profile_args(mock, dir, 2, false);
  args.push_back("-H");
  args.push_back("X-Mock-Fault:big-event=9437184");
  const auto r = run_process(args, std::chrono::seconds(90));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto records = read_jsonl(dir + "/profile_export.jsonl");
  ASSERT_EQ(records.size(), 2u);
  for (const auto& rec : records) {
    EXPECT_FALSE(rec.contains("error")) << rec.dump();
    EXPECT_EQ(rec["metadata"]["output_tokens_estimated"], true);
    // o200k merges runs of "x" into multi-byte tokens: far fewer tokens than bytes, far more
    // than the 8 the request asked for.
    const double osl = rec["metrics"]["output_sequence_length"]["value"].get<double>();
    EXPECT_GT(osl, 9437184.0 / 64);
    EXPECT_LT(osl, 9437184.0);
  }
  for (const auto& line : read_jsonl(dir + "/inferperf_records.jsonl"))
    EXPECT_EQ(line["client_tokens"]["output_estimated"], true) << line.dump().substr(0, 300);
}

}  // namespace
}  // namespace inferperf::testing
