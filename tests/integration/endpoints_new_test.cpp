// image_edit, raw and --download-video-content against the bundled mock: what the server
// received is read back from its /metrics counters and from lengths only the sent bodies set.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using json = nlohmann::json;

std::vector<std::string> run_args(const std::string& url, const std::string& dir,
                                  std::vector<std::string> more) {
  std::vector<std::string> args = {
      INFERPERF_BIN, "profile",       "-m", "mock-model", "-u",  url, "--artifact-dir",
      dir,           "--concurrency", "1",  "--ui-type",  "none"};
  args.insert(args.end(), more.begin(), more.end());
  return args;
}

TEST(NewEndpoints, ImageEditUploadsTheFilesImagesAsForms) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ep-edit-");
  const std::string file = dir + "/edits.jsonl";
  {
    std::ofstream out(file);
    for (int i = 0; i < 3; ++i) {
      out << R"({"text":"make it blue","image":"data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="})"
          << "\n";
    }
  }
  auto r = run_process(run_args(mock.url(), dir + "/out",
                                {"--endpoint-type", "image_edit", "--input-file", file,
                                 "--custom-dataset-type", "single_turn", "--request-count", "3"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json j = load_summary(dir + "/out");
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 3);
  EXPECT_FALSE(j.contains("error_request_count") && j["error_request_count"]["avg"] != 0);
  EXPECT_EQ(j["image_throughput"]["unit"], "images/sec");
  EXPECT_EQ(j["input_config"]["endpoint"]["request_content_type"], "multipart/form-data");
  EXPECT_NE(r.out.find("Image Edit Metrics"), std::string::npos) << r.out;
  // The mock parsed three forms, each with a prompt and one PNG file part (preflight not counted).
  EXPECT_EQ(mock.metric("inferperf_mock_image_edits_total"), 3);
  EXPECT_EQ(mock.metric("inferperf_mock_image_edit_files_total"), 3);

  // Without images there is nothing to edit: refused before the run.
  auto none = run_process(run_args(mock.url(), dir + "/none",
                                   {"--endpoint-type", "image_edit", "--request-count", "1"}),
                          std::chrono::seconds(60));
  EXPECT_EQ(none.exit_code, 2) << none.out;
  EXPECT_NE(none.out.find("image_edit edits an image"), std::string::npos) << none.out;
}

TEST(NewEndpoints, RawSendsTheFilesBodiesVerbatimToTheUrlsPath) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-ep-raw-");
  const std::string file = dir + "/bodies.jsonl";
  {
    // ignore_eos with max_tokens 5: only these bodies make the mock answer exactly 5 tokens.
    std::ofstream out(file);
    for (int i = 0; i < 2; ++i) {
      out << R"({"model":"mock-model","messages":[{"role":"user","content":"hello )" << i
          << R"("}],"max_tokens":5,"ignore_eos":true,"stream":true})"
          << "\n";
    }
  }
  auto r = run_process(run_args(mock.url() + "/v1/chat/completions", dir + "/out",
                                {"--endpoint-type", "raw", "--streaming", "--input-file", file,
                                 "--custom-dataset-type", "raw_payload", "--request-count", "2"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json j = load_summary(dir + "/out");
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 2);
  EXPECT_EQ(j["output_sequence_length"]["avg"].get<double>(), 5.0) << j.dump();
  EXPECT_TRUE(j.contains("time_to_first_token"));  // the SSE stream was read as one
  EXPECT_EQ(mock.metric("inferperf_mock_requests_total"), 2);

  // Neither --endpoint nor a path in --url: refused.
  auto nopath = run_process(run_args(mock.url(), dir + "/nopath",
                                     {"--endpoint-type", "raw", "--input-file", file,
                                      "--custom-dataset-type", "raw_payload"}),
                            std::chrono::seconds(60));
  EXPECT_EQ(nopath.exit_code, 2) << nopath.out;
  EXPECT_NE(nopath.out.find("give the path with --endpoint or in --url"), std::string::npos)
      << nopath.out;
}

TEST(NewEndpoints, VideoDownloadIsPartOfTheRequest) {
  // Jobs queue for 50 ms and run 20 x 5 ms: every request lasts at least 150 ms.
  MockServerProcess mock({"--ttft", "50", "--itl", "5"});
  const std::string dir = make_temp_dir("ip-ep-video-dl-");
  auto r = run_process(run_args(mock.url(), dir + "/out",
                                {"--endpoint-type", "video_generation", "--download-video-content",
                                 "--request-count", "2"}),
                       std::chrono::seconds(60), "", {"AIPERF_HTTP_VIDEO_POLL_INTERVAL=0.01"});
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json j = load_summary(dir + "/out");
  EXPECT_EQ(j["request_count"]["avg"].get<int>(), 2);
  EXPECT_GE(j["request_latency"]["min"].get<double>(), 150.0) << j["request_latency"].dump();
  EXPECT_EQ(j["input_config"]["endpoint"]["download_video_content"], true);
  EXPECT_EQ(mock.metric("inferperf_mock_video_downloads_total"), 2);
  for (const auto& line : read_lines(dir + "/out/profile_export.jsonl")) {
    const json rec = json::parse(line);
    EXPECT_TRUE(!rec.contains("error") || rec["error"].is_null()) << line;
  }
}

}  // namespace
}  // namespace inferperf::testing
