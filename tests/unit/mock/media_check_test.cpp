// The mock's check of the media chat requests carry (apps/mock-server/media_check.hpp): items
// decoded in content-part order, declared formats held to what the bytes are, malformed items
// named, the counters and the --media-log line.
#include "media_check.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "core/base64.hpp"

#include <unistd.h>

#include "media/audio.hpp"
#include "media/image.hpp"
#include "media/video.hpp"
#include "routes.hpp"

namespace {

using namespace inferperf::mock;
using nlohmann::json;

void mc_test_put_le(std::string& out, std::uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xffU));
}

// A PCM WAV file written byte by byte (44-byte header), independent of any encoder.
std::string mc_test_wav(int rate, int channels, int bits, int frames) {
  const int block = channels * bits / 8;
  std::string w = "RIFF";
  mc_test_put_le(w, static_cast<std::uint32_t>(36 + frames * block), 4);
  w += "WAVEfmt ";
  mc_test_put_le(w, 16, 4);
  mc_test_put_le(w, 1, 2);
  mc_test_put_le(w, static_cast<std::uint32_t>(channels), 2);
  mc_test_put_le(w, static_cast<std::uint32_t>(rate), 4);
  mc_test_put_le(w, static_cast<std::uint32_t>(rate * block), 4);
  mc_test_put_le(w, static_cast<std::uint32_t>(block), 2);
  mc_test_put_le(w, static_cast<std::uint32_t>(bits), 2);
  w += "data";
  mc_test_put_le(w, static_cast<std::uint32_t>(frames * block), 4);
  for (int i = 0; i < frames * block; ++i) w.push_back(static_cast<char>(i * 7));
  return w;
}

std::string mc_test_jpeg(int w, int h) {
  inferperf::media::RgbImage img;
  img.width = w;
  img.height = h;
  img.rgb.assign(static_cast<std::size_t>(w) * h * 3, 0x80);
  return inferperf::media::encode_image(img, inferperf::media::ImageFormat::kJpeg);
}

json mc_test_image(const std::string& mime, const std::string& bytes) {
  return {{"type", "image_url"},
          {"image_url",
           {{"url", "data:" + mime + ";base64," + inferperf::core::base64_encode(bytes)}}}};
}

json mc_test_audio(const std::string& format, const std::string& bytes) {
  return {{"type", "input_audio"},
          {"input_audio", {{"data", inferperf::core::base64_encode(bytes)}, {"format", format}}}};
}

json mc_test_body(const std::vector<json>& parts) {
  return {{"model", "m"}, {"messages", {{{"role", "user"}, {"content", parts}}}}};
}

TEST(MediaCheck, ABodyWithoutMediaGivesAnEmptyReport) {
  const std::string plain = R"({"model":"m","messages":[{"role":"user","content":"hi"},)"
                            R"({"role":"user","content":[{"type":"text","text":"there"}]}]})";
  EXPECT_FALSE(may_carry_media(plain));
  EXPECT_EQ(screen_chat_media(plain, nullptr, nullptr, std::nullopt), std::nullopt);
  const MediaReport r = check_chat_media(json::parse(plain));
  EXPECT_TRUE(r.ok());
  EXPECT_TRUE(r.items.empty());
  EXPECT_TRUE(check_chat_media(json::array()).items.empty());
  EXPECT_TRUE(check_chat_media(json{{"messages", "x"}}).items.empty());
  EXPECT_TRUE(may_carry_media(R"({"type":"image_url"})"));
  EXPECT_TRUE(may_carry_media(R"({"type":"input_audio"})"));
  EXPECT_TRUE(may_carry_media(R"({"type":"video_url"})"));
}

TEST(MediaCheck, ItemsAreDecodedAndCountedInContentPartOrder) {
  const std::string png = png_image(7, 12, 9);
  const std::string wav = mc_test_wav(16000, 1, 16, 8000);
  const std::string jpeg = mc_test_jpeg(20, 10);
  json body = mc_test_body({{{"type", "text"}, {"text", "look"}},
                            mc_test_image("image/png", png),
                            mc_test_audio("wav", wav),
                            {{"type", "image_url"}, {"image_url", {{"url", "https://x/y.png"}}}}});
  body["messages"].push_back({{"role", "user"}, {"content", {mc_test_image("image/jpeg", jpeg)}}});
  const MediaReport r = check_chat_media(body);
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.items.size(), 4U);

  EXPECT_EQ(r.items[0].kind, MediaKind::kImage);
  EXPECT_EQ(r.items[0].declared, "png");
  EXPECT_EQ(r.items[0].info.container, "png");
  EXPECT_EQ(r.items[0].info.width, 12);
  EXPECT_EQ(r.items[0].info.height, 9);
  EXPECT_EQ(r.items[0].bytes, png.size());

  EXPECT_EQ(r.items[1].kind, MediaKind::kAudio);
  EXPECT_EQ(r.items[1].declared, "wav");
  EXPECT_EQ(r.items[1].info.sample_rate, 16000);
  EXPECT_EQ(r.items[1].info.channels, 1);
  EXPECT_EQ(r.items[1].info.bits, 16);
  EXPECT_DOUBLE_EQ(r.items[1].info.duration_s, 0.5);
  EXPECT_EQ(r.items[1].bytes, wav.size());

  // The URL image is counted but neither fetched nor decoded.
  EXPECT_EQ(r.items[2].kind, MediaKind::kImage);
  EXPECT_TRUE(r.items[2].url);
  EXPECT_EQ(r.items[2].bytes, 0U);
  EXPECT_TRUE(r.items[2].info.container.empty());

  EXPECT_EQ(r.items[3].declared, "jpeg");
  EXPECT_EQ(r.items[3].info.container, "jpeg");
  EXPECT_EQ(r.items[3].info.width, 20);
  EXPECT_EQ(r.items[3].info.height, 10);
}

// Videos and MP3 from the media library's encoders (their own tests check them; here only what
// the mock makes of them).
TEST(MediaCheck, VideosAndMp3FromTheEncodersAreDecodedToTheirFramesAndTracks) {
  namespace media = inferperf::media;
  std::mt19937_64 rng(5);
  media::VideoSpec webm;
  webm.width = 64;
  webm.height = 48;
  webm.fps = 4;
  webm.duration_s = 1.0;
  webm.audio_channels = 1;
  webm.audio_sample_rate = 16000;
  media::VideoSpec mp4 = webm;
  mp4.format = "mp4";
  mp4.codec = "libx264";
  mp4.audio_channels = 0;
  for (const media::VideoSpec* spec : {&webm, &mp4}) {
    if (auto missing = media::missing_video_support(*spec)) GTEST_SKIP() << *missing;
  }
  const auto webm_bytes = media::encode_video(webm, rng);
  const auto mp4_bytes = media::encode_video(mp4, rng);
  const auto mp3 = media::encode_mp3(media::noise_clip(0.5, 16000, 16, 1, rng));
  ASSERT_TRUE(webm_bytes.ok()) << webm_bytes.error().message;
  ASSERT_TRUE(mp4_bytes.ok()) << mp4_bytes.error().message;
  ASSERT_TRUE(mp3.ok()) << mp3.error().message;
  const auto video = [](const std::string& mime, const std::string& bytes) {
    return json{{"type", "video_url"},
                {"video_url",
                 {{"url", "data:" + mime + ";base64," + inferperf::core::base64_encode(bytes)}}}};
  };
  const MediaReport r =
      check_chat_media(mc_test_body({video("video/webm", *webm_bytes),
                                     video("video/mp4", *mp4_bytes), mc_test_audio("mp3", *mp3)}));
  ASSERT_TRUE(r.ok()) << r.error;
  ASSERT_EQ(r.items.size(), 3U);
  EXPECT_EQ(r.items[0].info.container, "webm");
  EXPECT_EQ(r.items[0].info.codec, "vp9");
  EXPECT_EQ(r.items[0].info.width, 64);
  EXPECT_EQ(r.items[0].info.height, 48);
  EXPECT_EQ(r.items[0].info.frames, 4);
  EXPECT_EQ(r.items[0].info.audio_codec, "vorbis");
  EXPECT_EQ(r.items[1].info.container, "mp4");
  EXPECT_EQ(r.items[1].info.codec, "h264");
  EXPECT_EQ(r.items[1].info.frames, 4);
  EXPECT_EQ(r.items[1].info.audio_codec, "");
  EXPECT_EQ(r.items[2].kind, MediaKind::kAudio);
  EXPECT_EQ(r.items[2].info.container, "mp3");
  EXPECT_EQ(r.items[2].info.sample_rate, 16000);

  // A video declared as the other container, and an MP3 declared as WAV.
  EXPECT_EQ(check_chat_media(mc_test_body({video("video/mp4", *webm_bytes)})).error,
            "messages[0].content[0] (video_url): declared mp4 but the bytes are webm");
  EXPECT_EQ(check_chat_media(mc_test_body({mc_test_audio("wav", *mp3)})).error,
            "messages[0].content[0] (input_audio): declared wav but the bytes are mp3");
  MediaCounters counters;
  counters.count(r);
  EXPECT_NE(counters.page().find("inferperf_mock_video_frames_total 8\n"), std::string::npos)
      << counters.page();
}

// The error names the item (message and part index, part type) and what is wrong with it.
std::string mc_test_error(const std::vector<json>& parts) {
  const MediaReport r = check_chat_media(mc_test_body(parts));
  EXPECT_FALSE(r.ok());
  return r.error;
}

TEST(MediaCheck, ADeclaredFormatOtherThanTheBytesIsAnErrorNamingTheItem) {
  const std::string png = png_image(1, 4, 4);
  const std::string jpeg = mc_test_jpeg(8, 8);
  const std::string wav = mc_test_wav(8000, 1, 16, 800);
  const json text = {{"type", "text"}, {"text", "a"}};
  EXPECT_EQ(mc_test_error({text, mc_test_image("image/png", jpeg)}),
            "messages[0].content[1] (image_url): declared png but the bytes are jpeg");
  EXPECT_EQ(mc_test_error({mc_test_image("image/jpeg", png)}),
            "messages[0].content[0] (image_url): declared jpeg but the bytes are png");
  EXPECT_EQ(mc_test_error({mc_test_image("image/png", png), mc_test_audio("mp3", wav)}),
            "messages[0].content[1] (input_audio): declared mp3 but the bytes are wav");
  const json video = {
      {"type", "video_url"},
      {"video_url", {{"url", "data:video/webm;base64," + inferperf::core::base64_encode(png)}}}};
  EXPECT_EQ(mc_test_error({video}),
            "messages[0].content[0] (video_url): declared webm but the bytes are png");
}

TEST(MediaCheck, MalformedItemsAreErrors) {
  const std::string png = png_image(2, 4, 4);
  const auto has = [](const std::string& error, const std::string& part) {
    return error.find(part) != std::string::npos;
  };
  const json bad_b64 = {{"type", "image_url"},
                        {"image_url", {{"url", "data:image/png;base64,iVBO$w0KGgo="}}}};
  EXPECT_TRUE(has(mc_test_error({bad_b64}), "(image_url): invalid base64"));
  const json no_b64 = {{"type", "image_url"}, {"image_url", {{"url", "data:image/png,abcd"}}}};
  EXPECT_TRUE(has(mc_test_error({no_b64}), "data URI without ;base64,"));
  // Only the signature: the bytes do not decode.
  EXPECT_TRUE(has(mc_test_error({mc_test_image("image/png", png.substr(0, 8))}),
                  "declared png but does not decode"));
  EXPECT_TRUE(has(mc_test_error({mc_test_image("image/png", png.substr(0, png.size() - 20))}),
                  "does not decode"));
  EXPECT_TRUE(has(mc_test_error({mc_test_image("image/gif", png)}), "unsupported image type"));
  EXPECT_TRUE(has(mc_test_error({mc_test_image("audio/wav", png)}), "is no image"));
  const json no_format = {{"type", "input_audio"}, {"input_audio", {{"data", "UklGRg=="}}}};
  EXPECT_TRUE(has(mc_test_error({no_format}), "input_audio has no format"));
  EXPECT_TRUE(has(mc_test_error({mc_test_audio("flac", "x")}), "unsupported audio format 'flac'"));
  const json ftp = {{"type", "image_url"}, {"image_url", {{"url", "ftp://x/y.png"}}}};
  EXPECT_TRUE(has(mc_test_error({ftp}), "neither a data: URI nor http(s)"));
  const json no_url = {{"type", "video_url"}, {"video_url", json::object()}};
  EXPECT_TRUE(has(mc_test_error({no_url}), "video_url has no url"));
}

TEST(MediaCheck, LogLineListsWhatEachItemDecodedTo) {
  const std::string png = png_image(3, 5, 6);
  const std::string wav = mc_test_wav(22050, 2, 16, 2205);
  const MediaReport r = check_chat_media(
      mc_test_body({mc_test_image("image/png", png),
                    mc_test_audio("wav", wav),
                    {{"type", "video_url"}, {"video_url", {{"url", "http://host/v.mp4"}}}}}));
  ASSERT_TRUE(r.ok()) << r.error;
  const json line = json::parse(media_log_line(4, r, "req-1"));
  EXPECT_EQ(line["request"], 4);
  EXPECT_EQ(line["x_request_id"], "req-1");
  ASSERT_EQ(line["items"].size(), 3U);
  const json& img = line["items"][0];
  EXPECT_EQ(img["kind"], "image");
  EXPECT_EQ(img["declared"], "png");
  EXPECT_EQ(img["container"], "png");
  EXPECT_EQ(img["codec"], "png");
  EXPECT_EQ(img["width"], 5);
  EXPECT_EQ(img["height"], 6);
  EXPECT_EQ(img["bytes"], png.size());
  const json& aud = line["items"][1];
  EXPECT_EQ(aud["kind"], "audio");
  EXPECT_EQ(aud["container"], "wav");
  EXPECT_EQ(aud["codec"], "pcm_s16le");
  EXPECT_EQ(aud["sample_rate"], 22050);
  EXPECT_EQ(aud["channels"], 2);
  EXPECT_EQ(aud["bits"], 16);
  EXPECT_DOUBLE_EQ(aud["duration_s"].get<double>(), 0.1);
  EXPECT_FALSE(aud.contains("width"));
  EXPECT_EQ(line["items"][2], json({{"kind", "video"}, {"url", true}}));
  EXPECT_FALSE(json::parse(media_log_line(1, r))["x_request_id"].is_string());
}

TEST(MediaCheck, ScreeningCountsLogsAndRejects) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("media-log-" + std::to_string(::getpid()) + ".jsonl");
  std::filesystem::remove(path);
  MediaCounters counters;
  {
    MediaLog log(path.string());
    const std::string good = mc_test_body({mc_test_image("image/png", png_image(4, 10, 10)),
                                           mc_test_audio("wav", mc_test_wav(16000, 1, 16, 4000))})
                                 .dump();
    EXPECT_EQ(screen_chat_media(good, &counters, &log, "a"), std::nullopt);
    EXPECT_EQ(screen_chat_media(good, &counters, &log, std::nullopt), std::nullopt);
    // Preflight: checked, neither counted nor logged.
    EXPECT_EQ(screen_chat_media(good, nullptr, nullptr, std::nullopt), std::nullopt);
    const std::string bad =
        mc_test_body({mc_test_image("image/jpeg", png_image(4, 10, 10))}).dump();
    const auto err = screen_chat_media(bad, &counters, &log, std::nullopt);
    ASSERT_TRUE(err.has_value());
    EXPECT_NE(err->find("declared jpeg but the bytes are png"), std::string::npos) << *err;
    // No media parts at all (the substring alone): nothing counted.
    EXPECT_EQ(screen_chat_media(R"({"messages":[{"content":"image_url"}]})", &counters, &log,
                                std::nullopt),
              std::nullopt);
  }
  std::ifstream in(path);
  std::vector<json> lines;
  for (std::string l; std::getline(in, l);) lines.push_back(json::parse(l));
  ASSERT_EQ(lines.size(), 2U);
  EXPECT_EQ(lines[0]["request"], 1);
  EXPECT_EQ(lines[0]["x_request_id"], "a");
  EXPECT_EQ(lines[1]["request"], 2);
  EXPECT_EQ(lines[1]["items"].size(), 2U);
  std::filesystem::remove(path);

  const std::string page = counters.page();
  const auto has = [&page](const std::string& line) {
    return page.find(line + "\n") != std::string::npos;
  };
  EXPECT_TRUE(has(R"(inferperf_mock_media_items_total{kind="image",format="png"} 2)")) << page;
  EXPECT_TRUE(has(R"(inferperf_mock_media_items_total{kind="audio",format="wav"} 2)")) << page;
  EXPECT_TRUE(has(R"(inferperf_mock_media_items_total{kind="video",format="webm"} 0)")) << page;
  EXPECT_TRUE(has(R"(inferperf_mock_media_url_items_total{kind="image"} 0)")) << page;
  EXPECT_TRUE(has("inferperf_mock_media_requests_total 2")) << page;
  EXPECT_TRUE(has("inferperf_mock_media_rejected_total 1")) << page;
  EXPECT_TRUE(has("inferperf_mock_image_pixels_total 200")) << page;
  EXPECT_TRUE(has("inferperf_mock_audio_seconds_total 0.5")) << page;
  EXPECT_TRUE(has("inferperf_mock_video_frames_total 0")) << page;
  EXPECT_TRUE(has("# TYPE inferperf_mock_media_bytes_total counter")) << page;
}

}  // namespace
