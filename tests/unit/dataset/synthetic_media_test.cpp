// Synthetic media in a composed dataset: content-part order, counts, the draws a seed fixes, the
// picture sources and their walks, each item decoded back with FFmpeg.
#include "dataset/synthetic_media.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "core/base64.hpp"
#include "dataset/synthetic.hpp"
#include "media/image.hpp"
#include "media/inspect.hpp"

namespace inferperf::dataset {
namespace {

using Kind = MediaItem::Kind;
constexpr std::uint64_t kBudget = 1ull << 30;

Dataset composed(int conversations, double turns = 1) {
  SyntheticOptions o;
  o.num_conversations = conversations;
  o.isl_mean = 8;
  o.turn_mean = turns;
  o.threads = 1;
  return compose_synthetic(o, core::RngFactory(7));
}

// The bytes a data: URI or an input_audio part carries.
std::string payload(const MediaItem& m) {
  const std::string& text = m.kind == Kind::kAudio ? m.audio_data : m.url;
  const auto comma = text.find(',');
  auto bytes = core::base64_decode_strict(m.kind == Kind::kAudio ? text : text.substr(comma + 1));
  EXPECT_TRUE(bytes.has_value());
  return bytes.value_or("");
}

media::MediaInfo decoded(const MediaItem& m) {
  auto info = media::inspect_media(payload(m));
  EXPECT_TRUE(info.ok()) << (info.ok() ? "" : info.error().message);
  return info.ok() ? *info : media::MediaInfo{};
}

config::MediaConfig all_three() {
  config::MediaConfig m;
  m.image.batch = 2;
  m.image.width_mean = 40;
  m.image.width_stddev = 6;
  m.image.height_mean = 30;
  m.image.format = "random";
  m.audio.batch = 1;
  m.audio.length_mean = 0.25;
  m.audio.sample_rates_hz = {8000, 16000};
  m.audio.depths = {8, 24};
  m.audio.channels = 2;
  m.video.batch = 1;
  m.video.width = 32;
  m.video.height = 24;
  m.video.fps = 4;
  m.video.duration_s = 0.5;
  return m;
}

TEST(SyntheticMedia, EveryTurnCarriesPicturesThenClipsThenVideosThatDecode) {
  Dataset ds = composed(3, 2);
  ASSERT_FALSE(add_synthetic_media(ds, all_three(), core::RngFactory(7), kBudget, 2).has_value());
  std::set<std::string> formats;
  for (const auto& c : ds.conversations) {
    for (const auto& t : c.turns) {
      ASSERT_EQ(t.media.size(), 4u);
      EXPECT_EQ(t.media[0].kind, Kind::kImage);
      EXPECT_EQ(t.media[1].kind, Kind::kImage);
      EXPECT_EQ(t.media[2].kind, Kind::kAudio);
      EXPECT_EQ(t.media[3].kind, Kind::kVideo);
      for (int i = 0; i < 2; ++i) {
        const auto info = decoded(t.media[static_cast<std::size_t>(i)]);
        EXPECT_EQ(t.media[static_cast<std::size_t>(i)].url.rfind(
                      "data:image/" + info.container + ";base64,", 0),
                  0u);
        formats.insert(info.container);
        EXPECT_GE(info.width, 1);
        EXPECT_EQ(info.height, 30);
      }
      EXPECT_EQ(t.media[2].audio_format, "wav");
      const auto clip = decoded(t.media[2]);
      EXPECT_TRUE(clip.sample_rate == 8000 || clip.sample_rate == 16000) << clip.sample_rate;
      EXPECT_TRUE(clip.bits == 8 || clip.bits == 24) << clip.bits;
      EXPECT_EQ(clip.channels, 2);
      EXPECT_NEAR(clip.duration_s, 0.25, 1.0 / clip.sample_rate);
      EXPECT_EQ(t.media[3].url.rfind("data:video/webm;base64,", 0), 0u);
      const auto video = decoded(t.media[3]);
      EXPECT_EQ(video.codec, "vp9");
      EXPECT_EQ(video.width, 32);
      EXPECT_EQ(video.height, 24);
      EXPECT_EQ(video.frames, 2);
    }
  }
  // `random` picks png and jpeg per picture: 12 pictures show both.
  EXPECT_EQ(formats, (std::set<std::string>{"jpeg", "png"}));
}

// What a seed fixes: each picture's size and format, each clip's rate, depth and length.
std::vector<std::string> draws(const Dataset& ds) {
  std::vector<std::string> out;
  for (const auto& c : ds.conversations) {
    for (const auto& t : c.turns) {
      for (const auto& m : t.media) {
        const auto info = decoded(m);
        out.push_back(info.container + " " + std::to_string(info.width) + "x" +
                      std::to_string(info.height) + " " + std::to_string(info.sample_rate) + "/" +
                      std::to_string(info.bits) + " " + std::to_string(info.duration_s));
      }
    }
  }
  return out;
}

TEST(SyntheticMedia, OneSeedGivesTheSameDrawsWhateverTheThreads) {
  config::MediaConfig m = all_three();
  m.video.batch = 0;
  m.audio.length_stddev = 0.1;
  Dataset a = composed(4), b = composed(4), c = composed(4);
  ASSERT_FALSE(add_synthetic_media(a, m, core::RngFactory(11), kBudget, 1).has_value());
  ASSERT_FALSE(add_synthetic_media(b, m, core::RngFactory(11), kBudget, 3).has_value());
  ASSERT_FALSE(add_synthetic_media(c, m, core::RngFactory(12), kBudget, 1).has_value());
  EXPECT_EQ(draws(a), draws(b));
  EXPECT_NE(draws(a), draws(c));
  // Noise is seeded too: the same pixels for the same seed.
  EXPECT_EQ(a.conversations[0].turns[0].media[0].url, b.conversations[0].turns[0].media[0].url);
}

TEST(SyntheticMedia, NothingWithoutAMediumAndMp3ClipsWhenAsked) {
  Dataset none = composed(2);
  ASSERT_FALSE(
      add_synthetic_media(none, config::MediaConfig{}, core::RngFactory(1), kBudget).has_value());
  EXPECT_TRUE(none.conversations[0].turns[0].media.empty());
  config::MediaConfig m;
  m.audio.batch = 3;
  m.audio.length_mean = 0.5;
  m.audio.format = "mp3";
  m.audio.sample_rates_hz = {44100};
  Dataset ds = composed(1);
  ASSERT_FALSE(add_synthetic_media(ds, m, core::RngFactory(1), kBudget).has_value());
  ASSERT_EQ(ds.conversations[0].turns[0].media.size(), 3u);
  const auto& clip = ds.conversations[0].turns[0].media[2];
  EXPECT_EQ(clip.audio_format, "mp3");
  const auto info = decoded(clip);
  EXPECT_EQ(info.container, "mp3");
  EXPECT_EQ(info.sample_rate, 44100);
  EXPECT_EQ(info.channels, 1);
  EXPECT_NEAR(info.duration_s, 0.5, 0.05);
}

// Every video option reaches the encoder: container, codec, size, frames and the track's codec,
// rate and channels, read back from the bytes.
TEST(SyntheticMedia, VideoOptionsShapeTheFileAndItsTrack) {
  config::MediaConfig m;
  m.video.batch = 1;
  m.video.width = 32;
  m.video.height = 16;
  m.video.fps = 5;
  m.video.duration_s = 0.8;
  m.video.synth = "noise";
  m.video.format = "mp4";
  m.video.codec = "libx264";
  m.video.audio_channels = 2;
  m.video.audio_sample_rate_hz = 22050;
  m.video.audio_depth = 24;
  Dataset ds = composed(1);
  ASSERT_FALSE(add_synthetic_media(ds, m, core::RngFactory(3), kBudget).has_value());
  const MediaItem& v = ds.conversations[0].turns[0].media.at(0);
  EXPECT_EQ(v.url.rfind("data:video/mp4;base64,", 0), 0u);
  const auto info = decoded(v);
  EXPECT_EQ(info.container, "mp4");
  EXPECT_EQ(info.codec, "h264");
  EXPECT_EQ(info.width, 32);
  EXPECT_EQ(info.height, 16);
  EXPECT_EQ(info.frames, 4);
  EXPECT_EQ(info.audio_codec, "aac");  // mp4's default track codec
  EXPECT_EQ(info.sample_rate, 22050);
  EXPECT_EQ(info.channels, 2);
  m.video.audio_codec = "libopus";  // Opus runs at 48 kHz only
  Dataset opus = composed(1);
  ASSERT_FALSE(add_synthetic_media(opus, m, core::RngFactory(3), kBudget).has_value());
  const auto o = decoded(opus.conversations[0].turns[0].media.at(0));
  EXPECT_EQ(o.audio_codec, "opus");
  EXPECT_EQ(o.sample_rate, 48000);
}

TEST(SyntheticMedia, TheBundledPicturesAreResizedToTheDrawnSize) {
  config::MediaConfig m;
  m.image.batch = 4;
  m.image.width_mean = 50;
  m.image.height_mean = 20;
  m.image.format = "png";
  m.image.source = "assets";
  m.image.sampling = "sequential-cycle";
  Dataset ds = composed(1);
  ASSERT_FALSE(add_synthetic_media(ds, m, core::RngFactory(3), kBudget).has_value());
  std::set<std::string> pictures;
  for (const auto& item : ds.conversations[0].turns[0].media) {
    const auto info = decoded(item);
    EXPECT_EQ(info.container, "png");
    EXPECT_EQ(info.width, 50);
    EXPECT_EQ(info.height, 20);
    pictures.insert(item.url);
  }
  EXPECT_EQ(pictures.size(), 4u) << "sequential-cycle walks all four bundled pictures";
}

// A folder of three pictures of distinct widths, so each drawn picture tells its source.
class PictureFolder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("ip-media-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    for (int i = 0; i < 3; ++i) {
      media::RgbImage img{10 + i, 10,
                          std::vector<std::uint8_t>(static_cast<std::size_t>(30 * (10 + i)),
                                                    static_cast<std::uint8_t>(80 * i))};
      std::ofstream(dir_ / ("p" + std::to_string(i) + ".png"), std::ios::binary)
          << media::encode_image(img, media::ImageFormat::kPng);
    }
    std::ofstream(dir_ / "broken.jpg") << "not a picture";
    std::ofstream(dir_ / "notes.txt") << "ignored";
  }
  void TearDown() override {
    std::filesystem::remove_all(dir_);
    std::filesystem::remove(dir_.string() + "-decoded.png");
  }

  // The grey level of each picture in order (the source's index times 80), read at one pixel.
  std::vector<int> walk(const std::string& sampling, int pictures) {
    config::MediaConfig m;
    m.image.batch = pictures;
    m.image.width_mean = 4;
    m.image.height_mean = 4;
    m.image.format = "png";
    m.image.source = dir_.string();
    m.image.sampling = sampling;
    Dataset ds = composed(1);
    EXPECT_FALSE(add_synthetic_media(ds, m, core::RngFactory(3), kBudget, 1).has_value());
    std::vector<int> out;
    for (const auto& item : ds.conversations[0].turns[0].media) {
      const std::string bytes = payload(item);
      const std::filesystem::path path = dir_.string() + "-decoded.png";  // not in the pool
      std::ofstream(path, std::ios::binary) << bytes;
      auto img = media::read_image_file(path);
      EXPECT_TRUE(img.ok());
      if (img.ok()) out.push_back(img->rgb[0] / 80);
    }
    return out;
  }
  std::filesystem::path dir_;
};

TEST_F(PictureFolder, SamplingWalksTheSortedReadablePictures) {
  EXPECT_EQ(walk("sequential-cycle", 7), (std::vector<int>{0, 1, 2, 0, 1, 2, 0}));
  const auto shuffled = walk("shuffle-cycle", 6);
  ASSERT_EQ(shuffled.size(), 6u);
  EXPECT_EQ(std::set<int>(shuffled.begin(), shuffled.begin() + 3), (std::set<int>{0, 1, 2}));
  EXPECT_EQ(std::set<int>(shuffled.begin() + 3, shuffled.end()), (std::set<int>{0, 1, 2}));
  for (int v : walk("random-with-replacement", 12)) EXPECT_TRUE(v >= 0 && v <= 2) << v;
}

TEST_F(PictureFolder, AFolderWithoutAReadablePictureIsAnError) {
  for (int i = 0; i < 3; ++i) std::filesystem::remove(dir_ / ("p" + std::to_string(i) + ".png"));
  config::MediaConfig m;
  m.image.batch = 1;
  m.image.source = dir_.string();
  Dataset ds = composed(1);
  const auto err = add_synthetic_media(ds, m, core::RngFactory(3), kBudget);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->file, dir_.string());
  EXPECT_EQ(err->field, "--image-source");
  EXPECT_NE(err->message.find("no readable PNG or JPEG"), std::string::npos);
}

// The three pictures decode to 30 x (10 + 11 + 12) = 990 bytes: a 700-byte budget stops at the
// third, naming it.
TEST_F(PictureFolder, PicturesThatDecodeOverTheBudgetAreAnError) {
  config::MediaConfig m;
  m.image.batch = 1;
  m.image.source = dir_.string();
  Dataset ds = composed(1);
  const auto err = add_synthetic_media(ds, m, core::RngFactory(3), 700);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->field, "--image-source");
  EXPECT_NE(err->message.find("the pictures up to p2.png decode to 990 B, over the dataset memory "
                              "budget of 700 B"),
            std::string::npos)
      << err->message;
  EXPECT_FALSE(add_synthetic_media(ds, m, core::RngFactory(3), 990).has_value());
}

TEST(SyntheticMedia, APictureJpegCannotHoldIsAnErrorNotAnEmptyPart) {
  config::MediaConfig m;
  m.image.batch = 1;
  m.image.width_mean = 70000;  // JPEG's limit is 65,500 pixels a side
  m.image.height_mean = 1;
  m.image.format = "jpeg";
  Dataset ds = composed(1);
  const auto err = add_synthetic_media(ds, m, core::RngFactory(3), kBudget);
  ASSERT_TRUE(err.has_value());
  EXPECT_EQ(err->message, "a 70000x1 picture cannot be encoded as jpeg");
}

TEST(SyntheticMedia, AnEncoderThisFfmpegLacksIsAnErrorBeforeAnythingIsMade) {
  config::MediaConfig m;
  m.video.batch = 1;
  m.video.width = 16;
  m.video.height = 16;
  m.video.codec = "no-such-encoder";
  Dataset ds = composed(1);
  const auto err = add_synthetic_media(ds, m, core::RngFactory(3), kBudget);
  ASSERT_TRUE(err.has_value());
  EXPECT_NE(err->message.find("no-such-encoder"), std::string::npos) << err->message;
  EXPECT_TRUE(ds.conversations[0].turns[0].media.empty());
}

}  // namespace
}  // namespace inferperf::dataset
