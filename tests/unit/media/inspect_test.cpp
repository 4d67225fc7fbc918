#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "media/inspect.hpp"

namespace inferperf::media {
namespace {

void put_le(std::string& out, std::uint32_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

// A WAV file written byte by byte here, so the check does not lean on the encoder it checks.
std::string hand_wav(int rate, int channels, int bits, int frames) {
  const int block = channels * bits / 8;
  std::string w = "RIFF";
  put_le(w, static_cast<std::uint32_t>(36 + frames * block), 4);
  w += "WAVEfmt ";
  put_le(w, 16, 4);
  put_le(w, 1, 2);
  put_le(w, static_cast<std::uint32_t>(channels), 2);
  put_le(w, static_cast<std::uint32_t>(rate), 4);
  put_le(w, static_cast<std::uint32_t>(rate * block), 4);
  put_le(w, static_cast<std::uint32_t>(block), 2);
  put_le(w, static_cast<std::uint32_t>(bits), 2);
  w += "data";
  put_le(w, static_cast<std::uint32_t>(frames * block), 4);
  for (int i = 0; i < frames * block; ++i) w.push_back(static_cast<char>(i * 7));
  return w;
}

TEST(MediaInspect, AWavFileIsReadToItsRateChannelsDepthAndLength) {
  const auto info = inspect_media(hand_wav(16000, 2, 16, 8000));
  ASSERT_TRUE(info.ok()) << info.error().message;
  EXPECT_EQ(info->container, "wav");
  EXPECT_EQ(info->codec, "pcm_s16le");
  EXPECT_EQ(info->sample_rate, 16000);
  EXPECT_EQ(info->channels, 2);
  EXPECT_EQ(info->bits, 16);
  EXPECT_DOUBLE_EQ(info->duration_s, 0.5);
  EXPECT_EQ(info->width, 0);

  const auto u8 = inspect_media(hand_wav(8000, 1, 8, 800));
  ASSERT_TRUE(u8.ok()) << u8.error().message;
  EXPECT_EQ(u8->codec, "pcm_u8");
  EXPECT_EQ(u8->bits, 8);
  EXPECT_DOUBLE_EQ(u8->duration_s, 0.1);
}

TEST(MediaInspect, GarbageAndNothingAreErrors) {
  EXPECT_FALSE(inspect_media("").ok());
  EXPECT_FALSE(inspect_media("not a media file at all, just words").ok());
  // A PNG signature with nothing after it is no picture.
  EXPECT_FALSE(inspect_media(std::string("\x89PNG\r\n\x1a\n", 8)).ok());
}

}  // namespace
}  // namespace inferperf::media
