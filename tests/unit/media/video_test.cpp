#include <gtest/gtest.h>

extern "C" {
#include <libavformat/avformat.h>
}

#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include "../test_files.hpp"
#include "media/inspect.hpp"
#include "media/video.hpp"

namespace inferperf::media {
namespace {

VideoSpec vt_small_spec(std::string format, std::string codec) {
  VideoSpec s;
  s.width = 64;
  s.height = 48;
  s.fps = 4;
  s.duration_s = 1.0;
  s.format = std::move(format);
  s.codec = std::move(codec);
  return s;
}

struct VtRgb {
  int r, g, b;
};

VtRgb vt_pixel(const RgbImage& img, int x, int y) {
  const std::uint8_t* p = img.rgb.data() + (static_cast<std::size_t>(y) * img.width + x) * 3;
  return {p[0], p[1], p[2]};
}

std::uint32_t vt_be32(const std::string& b, std::size_t at) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

// The top-level box types of an ISO BMFF (mp4) file, in order.
std::vector<std::string> vt_mp4_boxes(const std::string& mp4) {
  std::vector<std::string> types;
  for (std::size_t at = 0; at + 8 <= mp4.size();) {
    const std::uint32_t size = vt_be32(mp4, at);
    types.push_back(mp4.substr(at + 4, 4));
    if (size < 8) break;  // 0 (to the end) or 1 (64-bit size) do not occur at this scale
    at += size;
  }
  return types;
}

// Where the audio packets end, in seconds, read with libavformat from a file.
double vt_audio_end_seconds(const std::filesystem::path& p) {
  AVFormatContext* fmt = nullptr;
  if (avformat_open_input(&fmt, p.string().c_str(), nullptr, nullptr) < 0) return -1;
  double end = -1;
  if (avformat_find_stream_info(fmt, nullptr) >= 0) {
    AVPacket* pkt = av_packet_alloc();
    while (pkt != nullptr && av_read_frame(fmt, pkt) >= 0) {
      const AVStream* st = fmt->streams[pkt->stream_index];
      if (st->codecpar->codec_type == AVMEDIA_TYPE_AUDIO && pkt->pts != AV_NOPTS_VALUE) {
        end = std::max(end, static_cast<double>(pkt->pts + pkt->duration) * av_q2d(st->time_base));
      }
      av_packet_unref(pkt);
    }
    av_packet_free(&pkt);
  }
  avformat_close_input(&fmt);
  return end;
}

TEST(MediaVideo, FrameCountIsFloorOfDurationTimesFpsAtLeastOne) {
  VideoSpec s;
  s.fps = 4;
  s.duration_s = 1.0;
  EXPECT_EQ(s.frame_count(), 4);
  s.duration_s = 0.1;
  EXPECT_EQ(s.frame_count(), 1);
  s.duration_s = 0;
  EXPECT_EQ(s.frame_count(), 1);
  s.fps = 5;
  s.duration_s = 2.6;
  EXPECT_EQ(s.frame_count(), 13);
  s.fps = 30;
  s.duration_s = 1.99;
  EXPECT_EQ(s.frame_count(), 59);
}

TEST(MediaVideo, MimeTypes) {
  EXPECT_EQ(video_mime_type("webm"), "video/webm");
  EXPECT_EQ(video_mime_type("mp4"), "video/mp4");
}

TEST(MediaVideo, MovingShapesAreRedGreenAndBlueOnBlackAndMove) {
  VideoSpec s = vt_small_spec("webm", "libvpx-vp9");
  s.width = 160;
  s.height = 120;
  std::mt19937_64 rng(1);
  const auto count_colours = [](const RgbImage& img) {
    std::vector<int> n(4, 0);  // black, red, green, blue
    for (int y = 0; y < img.height; ++y) {
      for (int x = 0; x < img.width; ++x) {
        const VtRgb p = vt_pixel(img, x, y);
        if (p.r == 0 && p.g == 0 && p.b == 0) ++n[0];
        if (p.r > 200 && p.g < 80 && p.b < 80) ++n[1];
        if (p.g > 150 && p.r < 80 && p.b < 80) ++n[2];
        if (p.b > 200 && p.r < 80 && p.g < 100) ++n[3];
      }
    }
    return n;
  };
  const RgbImage first = video_frame(s, 0, rng);
  ASSERT_EQ(first.width, 160);
  ASSERT_EQ(first.height, 120);
  ASSERT_EQ(first.rgb.size(), 160u * 120 * 3);
  const std::vector<int> n0 = count_colours(first);
  EXPECT_EQ(n0[0] + n0[1] + n0[2] + n0[3], 160 * 120);  // nothing but the four colours
  EXPECT_GT(n0[0], 160 * 120 / 2);
  for (int c = 1; c <= 3; ++c) EXPECT_GT(n0[c], 100) << c;
  // Far along, every shape has wrapped around several times and is still whole.
  const RgbImage later = video_frame(s, 37, rng);
  EXPECT_NE(later.rgb, first.rgb);
  EXPECT_NE(video_frame(s, 1, rng).rgb, first.rgb);
  const std::vector<int> n37 = count_colours(later);
  for (int c = 1; c <= 3; ++c) EXPECT_NEAR(n37[c], n0[c], n0[c] / 10 + 40) << c;
  EXPECT_EQ(video_frame(s, 37, rng).rgb, later.rgb);  // a function of the index alone
}

TEST(MediaVideo, GridClockHasGridLinesEvery32AndATurningMinuteHand) {
  VideoSpec s = vt_small_spec("webm", "libvpx-vp9");
  s.synth = VideoSynth::kGridClock;
  s.width = 256;
  s.height = 192;
  s.duration_s = 2.0;  // 8 frames: frame 2 is a quarter turn
  std::mt19937_64 rng(1);
  const RgbImage f0 = video_frame(s, 0, rng);
  // Away from the hands (the top-left quarter): lines on multiples of 32, black between.
  for (int x = 0; x < 96; ++x) {
    for (int y = 0; y < 64; ++y) {
      const VtRgb p = vt_pixel(f0, x, y);
      const bool line = x % 32 == 0 || y % 32 == 0;
      EXPECT_EQ(p.r, line ? 64 : 0) << x << "," << y;
      EXPECT_EQ(p.r, p.g);
      EXPECT_EQ(p.g, p.b);
    }
  }
  const auto bright = [](VtRgb p) { return p.r > 200 && p.g > 200 && p.b > 200; };
  // The minute hand (white, 0.4 × the short side long) points up at the start ...
  EXPECT_TRUE(bright(vt_pixel(f0, 128, 96 - 60)));
  EXPECT_FALSE(bright(vt_pixel(f0, 128 + 60, 96)));
  // ... and right a quarter of the way through the clip.
  const RgbImage f2 = video_frame(s, 2, rng);
  EXPECT_TRUE(bright(vt_pixel(f2, 128 + 60, 96)));
  EXPECT_FALSE(bright(vt_pixel(f2, 128, 96 - 60)));
}

TEST(MediaVideo, NoiseFramesAreTheSeededNoiseImage) {
  VideoSpec s = vt_small_spec("webm", "libvpx-vp9");
  s.synth = VideoSynth::kNoise;
  std::mt19937_64 a(3), b(3);
  EXPECT_EQ(video_frame(s, 0, a).rgb, noise_image(64, 48, b).rgb);
  EXPECT_EQ(video_frame(s, 1, a).rgb, noise_image(64, 48, b).rgb);
}

TEST(MediaVideo, WebmVp9) {
  std::mt19937_64 rng(1);
  const auto webm = encode_video(vt_small_spec("webm", "libvpx-vp9"), rng);
  ASSERT_TRUE(webm.ok()) << webm.error().describe();
  ASSERT_GT(webm->size(), 4u);
  EXPECT_EQ(webm->substr(0, 4), "\x1A\x45\xDF\xA3");  // EBML
  const auto info = inspect_media(*webm);
  ASSERT_TRUE(info.ok()) << info.error().describe();
  EXPECT_EQ(info->container, "webm");
  EXPECT_EQ(info->codec, "vp9");
  EXPECT_EQ(info->width, 64);
  EXPECT_EQ(info->height, 48);
  EXPECT_EQ(info->frames, 4);
  EXPECT_DOUBLE_EQ(info->duration_s, 1.0);
  EXPECT_EQ(info->audio_codec, "");
}

TEST(MediaVideo, Mp4H264WithItsIndexFirst) {
  std::mt19937_64 rng(1);
  VideoSpec s = vt_small_spec("mp4", "libx264");
  s.synth = VideoSynth::kGridClock;
  s.fps = 5;
  const auto mp4 = encode_video(s, rng);
  ASSERT_TRUE(mp4.ok()) << mp4.error().describe();
  const std::vector<std::string> boxes = vt_mp4_boxes(*mp4);
  ASSERT_FALSE(boxes.empty());
  EXPECT_EQ(boxes.front(), "ftyp");
  const auto moov = std::find(boxes.begin(), boxes.end(), "moov");
  const auto mdat = std::find(boxes.begin(), boxes.end(), "mdat");
  ASSERT_NE(moov, boxes.end());
  ASSERT_NE(mdat, boxes.end());
  EXPECT_LT(moov, mdat);  // fast start
  const auto info = inspect_media(*mp4);
  ASSERT_TRUE(info.ok()) << info.error().describe();
  EXPECT_EQ(info->container, "mp4");
  EXPECT_EQ(info->codec, "h264");
  EXPECT_EQ(info->width, 64);
  EXPECT_EQ(info->height, 48);
  EXPECT_EQ(info->frames, 5);
}

TEST(MediaVideo, OneSeedOneFile) {
  for (const auto& [format, codec] : {std::pair{"webm", "libvpx-vp9"}, {"mp4", "libx264"}}) {
    VideoSpec s = vt_small_spec(format, codec);
    s.synth = VideoSynth::kNoise;
    s.audio_channels = 1;
    std::mt19937_64 a(9), b(9), c(10);
    const auto first = encode_video(s, a);
    ASSERT_TRUE(first.ok()) << first.error().describe();
    EXPECT_EQ(*encode_video(s, b), *first) << format;
    EXPECT_NE(*encode_video(s, c), *first) << format;
  }
}

TEST(MediaVideo, AudioTracksByContainerAndCodec) {
  struct Case {
    const char* format;
    const char* codec;
    const char* audio;  // "" = the container's default
    int channels, rate, bits;
    const char* want_codec;
    int want_rate;
  };
  const Case cases[] = {
      {"webm", "libvpx-vp9", "", 2, 44100, 16, "vorbis", 44100},
      {"mp4", "libx264", "", 1, 22050, 24, "aac", 22050},
      {"webm", "libvpx-vp9", "libopus", 2, 44100, 8, "opus", 48000},  // Opus: 48 kHz
      {"mp4", "libx264", "aac", 2, 16000, 32, "aac", 16000},
  };
  test_files::ScratchDir dir("media-video-audio");
  for (const Case& c : cases) {
    SCOPED_TRACE(std::string(c.format) + " " + c.want_codec);
    VideoSpec s = vt_small_spec(c.format, c.codec);
    s.audio_codec = c.audio;
    s.audio_channels = c.channels;
    s.audio_sample_rate = c.rate;
    s.audio_bits = c.bits;
    s.duration_s = 1.3;  // 5 frames at 4 fps: the picture ends at 1.25 s, the sound with it
    std::mt19937_64 rng(2);
    const auto video = encode_video(s, rng);
    ASSERT_TRUE(video.ok()) << video.error().describe();
    const auto info = inspect_media(*video);
    ASSERT_TRUE(info.ok()) << info.error().describe();
    EXPECT_EQ(info->frames, 5);
    EXPECT_EQ(info->audio_codec, c.want_codec);
    EXPECT_EQ(info->sample_rate, c.want_rate);
    EXPECT_EQ(info->channels, c.channels);
    const auto file = dir / (std::string("v.") + c.format);
    std::ofstream(file, std::ios::binary) << *video;
    // Cut at the picture's end (1.3 s of sound were made); the last packet may run on by a few
    // milliseconds of the encoder's frame padding.
    EXPECT_NEAR(vt_audio_end_seconds(file), 1.25, 0.02);
  }
}

TEST(MediaVideo, MissingSupportNamesTheOption) {
  VideoSpec s = vt_small_spec("webm", "libvpx-vp9");
  EXPECT_EQ(missing_video_support(s), std::nullopt);
  s.codec = "no-such-codec";
  EXPECT_EQ(missing_video_support(s),
            "--video-codec no-such-codec: this FFmpeg build has no such encoder");
  s = vt_small_spec("webm", "libx264");
  ASSERT_TRUE(missing_video_support(s).has_value());
  EXPECT_NE(missing_video_support(s)->find("cannot carry h264"), std::string::npos);
  s = vt_small_spec("no-such-format", "libvpx-vp9");
  ASSERT_TRUE(missing_video_support(s).has_value());
  EXPECT_EQ(missing_video_support(s)->rfind("--video-format no-such-format", 0), 0u);
  s = vt_small_spec("mp4", "libx264");
  s.audio_channels = 1;
  s.audio_codec = "no-such-audio";
  ASSERT_TRUE(missing_video_support(s).has_value());
  EXPECT_EQ(missing_video_support(s)->rfind("--video-audio-codec no-such-audio", 0), 0u);
  s.audio_channels = 0;  // no track, no audio encoder needed
  EXPECT_EQ(missing_video_support(s), std::nullopt);
}

TEST(MediaVideo, EncodeErrorsAreValuesNamingTheProblem) {
  std::mt19937_64 rng(1);
  const auto bogus = encode_video(vt_small_spec("webm", "no-such-codec"), rng);
  ASSERT_FALSE(bogus.ok());
  EXPECT_EQ(bogus.error().kind, core::ErrorKind::kConfig);
  EXPECT_NE(bogus.error().message.find("no-such-codec"), std::string::npos);
  VideoSpec empty = vt_small_spec("webm", "libvpx-vp9");
  empty.width = 0;
  ASSERT_FALSE(encode_video(empty, rng).ok());
  VideoSpec odd = vt_small_spec("mp4", "libx264");
  odd.width = 65;
  const auto refused = encode_video(odd, rng);
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, core::ErrorKind::kConfig);
  EXPECT_NE(refused.error().message.find("even width and height, not 65x48"), std::string::npos)
      << refused.error().message;
  // VP9 takes odd sizes in its stride.
  VideoSpec odd_vp9 = vt_small_spec("webm", "libvpx-vp9");
  odd_vp9.width = 65;
  odd_vp9.height = 49;
  const auto ok = encode_video(odd_vp9, rng);
  ASSERT_TRUE(ok.ok()) << ok.error().describe();
  const auto info = inspect_media(*ok);
  ASSERT_TRUE(info.ok()) << info.error().describe();
  EXPECT_EQ(info->width, 65);
  EXPECT_EQ(info->height, 49);
}

}  // namespace
}  // namespace inferperf::media
