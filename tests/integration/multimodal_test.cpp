// Multimodal runs end to end: inferperf makes the pictures, clips and videos; the mock decodes
// every one (inspect_media), answers 400 to anything it cannot, and logs what it got
// (--media-log), so the checks read the server's side, not the client's.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;

struct MediaRun {
  json summary;
  std::vector<json> log;  // one line per request the mock received with media
};

MediaRun run_with_media(const std::string& tag, const std::vector<std::string>& media_flags) {
  const std::string dir = make_temp_dir("ip-mm-" + tag + "-");
  const std::string log = dir + "/media.jsonl";
  MediaRun out;
  {
    MockServerProcess mock({"--fast", "--media-log", log});
    std::vector<std::string> more = {"--request-count", "6", "--concurrency",      "2",
                                     "--random-seed",   "5", "--no-server-metrics"};
    more.insert(more.end(), media_flags.begin(), media_flags.end());
    const auto r = run_process(mock_profile_args(INFERPERF_BIN, mock, dir + "/run", more), 120s);
    EXPECT_EQ(r.exit_code, 0) << r.out;
    out.summary = load_summary(dir + "/run");
  }
  out.log = read_jsonl(log);
  return out;
}

TEST(Multimodal, AVlmRunSendsPicturesTheServerDecodesAtTheDrawnSizes) {
  const auto run = run_with_media(
      "vlm", {"--image-batch-size", "2", "--image-width-mean", "96", "--image-width-stddev", "8",
              "--image-height-mean", "64", "--image-format", "random"});
  EXPECT_EQ(summary_count(run.summary, "request_count"), 6);
  EXPECT_EQ(summary_count(run.summary, "error_request_count"), 0);
  // One line per request (the mock leaves inferperf's preflight request out).
  ASSERT_EQ(run.log.size(), 6u);
  std::set<std::string> formats;
  std::set<int> widths;
  for (const auto& line : run.log) {
    ASSERT_EQ(line["items"].size(), 2u) << line.dump();
    for (const auto& item : line["items"]) {
      EXPECT_EQ(item["kind"], "image");
      EXPECT_EQ(item["declared"], item["container"]);
      formats.insert(item["container"].get<std::string>());
      widths.insert(item["width"].get<int>());
      EXPECT_EQ(item["height"], 64);
      EXPECT_NEAR(item["width"].get<int>(), 96, 8 * 5);
    }
  }
  EXPECT_EQ(formats, (std::set<std::string>{"jpeg", "png"}));
  EXPECT_GT(widths.size(), 1u) << "the widths are drawn, not fixed";
  // AIPerf's image metrics: two pictures a request.
  EXPECT_DOUBLE_EQ(run.summary["num_images"]["avg"].get<double>(), 2.0);
  EXPECT_GT(run.summary["image_throughput"]["avg"].get<double>(), 0.0);
}

TEST(Multimodal, ASpeechRunSendsClipsOfTheAskedRatesDepthsAndLength) {
  const auto run = run_with_media(
      "speech", {"--audio-length-mean", "0.5", "--audio-sample-rates", "16,22.05", "--audio-depths",
                 "16", "--audio-num-channels", "2", "--audio-format", "mp3"});
  EXPECT_EQ(summary_count(run.summary, "error_request_count"), 0);
  ASSERT_EQ(run.log.size(), 6u);
  std::set<int> rates;
  for (const auto& line : run.log) {
    ASSERT_EQ(line["items"].size(), 1u);
    const json& clip = line["items"][0];
    EXPECT_EQ(clip["kind"], "audio");
    EXPECT_EQ(clip["declared"], "mp3");
    EXPECT_EQ(clip["container"], "mp3");
    EXPECT_EQ(clip["channels"], 2);
    rates.insert(clip["sample_rate"].get<int>());
    // LAME's encoder delay and padding lengthen a short clip by up to a few frames.
    EXPECT_NEAR(clip["duration_s"].get<double>(), 0.5, 0.12);
  }
  EXPECT_EQ(rates, (std::set<int>{16000, 22050}));
}

TEST(Multimodal, AVideoRunSendsClipsWithTheirFramesAndTrack) {
  const auto run =
      run_with_media("video", {"--video-width", "48", "--video-height", "32", "--video-fps", "6",
                               "--video-duration", "0.5", "--video-synth-type", "grid_clock",
                               "--video-audio-num-channels", "1", "--audio-length-mean", "0.2"});
  EXPECT_EQ(summary_count(run.summary, "error_request_count"), 0);
  ASSERT_EQ(run.log.size(), 6u);
  for (const auto& line : run.log) {
    // Content-part order: the clip, then the video.
    ASSERT_EQ(line["items"].size(), 2u);
    EXPECT_EQ(line["items"][0]["kind"], "audio");
    EXPECT_EQ(line["items"][0]["container"], "wav");
    const json& v = line["items"][1];
    EXPECT_EQ(v["kind"], "video");
    EXPECT_EQ(v["container"], "webm");
    EXPECT_EQ(v["codec"], "vp9");
    EXPECT_EQ(v["width"], 48);
    EXPECT_EQ(v["height"], 32);
    EXPECT_EQ(v["frames"], 3);
    EXPECT_EQ(v["audio_codec"], "vorbis");
  }
}

}  // namespace
}  // namespace inferperf::testing
