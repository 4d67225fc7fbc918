#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "media/audio.hpp"
#include "media/inspect.hpp"

namespace inferperf::media {
namespace {

std::uint32_t at_le(const std::string& b, std::size_t at, int bytes) {
  std::uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(b[at + i]);
  return v;
}

std::int32_t at_le_signed(const std::string& b, std::size_t at, int bytes) {
  const std::uint32_t v = at_le(b, at, bytes);
  const int shift = 32 - 8 * bytes;
  return static_cast<std::int32_t>(v << shift) >> shift;
}

PcmClip at_fixed_clip(int bits, std::vector<float> samples) {
  PcmClip c;
  c.sample_rate = 8000;
  c.channels = 1;
  c.bits = bits;
  c.samples = std::move(samples);
  return c;
}

TEST(MediaAudio, NoiseClipHasFloorOfLengthTimesRateFrames) {
  std::mt19937_64 rng(1);
  const PcmClip a = noise_clip(0.5, 16000, 16, 2, rng);
  EXPECT_EQ(a.sample_rate, 16000);
  EXPECT_EQ(a.channels, 2);
  EXPECT_EQ(a.bits, 16);
  EXPECT_EQ(a.frames(), 8000u);
  EXPECT_EQ(a.samples.size(), 16000u);
  EXPECT_EQ(noise_clip(0.0333, 8000, 8, 1, rng).frames(), 266u);  // 266.4
  EXPECT_EQ(noise_clip(0.1, 44100, 24, 1, rng).frames(), 4410u);
  EXPECT_EQ(noise_clip(0.0, 44100, 24, 1, rng).frames(), 0u);
}

TEST(MediaAudio, NoiseIsSeededGaussianOfSigmaPointThree) {
  std::mt19937_64 a(5), b(5), c(6);
  const PcmClip clip = noise_clip(10.0, 16000, 16, 1, a);
  EXPECT_EQ(noise_clip(10.0, 16000, 16, 1, b).samples, clip.samples);
  EXPECT_NE(noise_clip(10.0, 16000, 16, 1, c).samples, clip.samples);
  double sum = 0, sq = 0;
  for (float s : clip.samples) {
    ASSERT_LE(std::abs(s), 1.0f);
    sum += s;
    sq += static_cast<double>(s) * s;
  }
  const double n = static_cast<double>(clip.samples.size());
  const double mean = sum / n;
  EXPECT_NEAR(mean, 0.0, 0.005);
  EXPECT_NEAR(std::sqrt(sq / n - mean * mean), 0.3, 0.005);
}

TEST(MediaAudio, WavHeaderForEveryDepthAndChannelCount) {
  for (int bits : {8, 16, 24, 32}) {
    for (int channels : {1, 2}) {
      std::mt19937_64 rng(2);
      const PcmClip clip = noise_clip(0.25, 22050, bits, channels, rng);
      const std::string wav = encode_wav(clip);
      SCOPED_TRACE(std::to_string(bits) + " bits, " + std::to_string(channels) + " channels");
      const std::uint32_t block = static_cast<std::uint32_t>(channels * bits / 8);
      const std::uint32_t data = 5512 * block;  // ⌊0.25 × 22050⌋ frames
      const std::uint32_t pad = data % 2;
      ASSERT_EQ(wav.size(), 44u + data + pad);
      EXPECT_EQ(wav.substr(0, 4), "RIFF");
      EXPECT_EQ(at_le(wav, 4, 4), 36u + data + pad);
      EXPECT_EQ(wav.substr(8, 8), "WAVEfmt ");
      EXPECT_EQ(at_le(wav, 16, 4), 16u);
      EXPECT_EQ(at_le(wav, 20, 2), 1u);  // PCM
      EXPECT_EQ(at_le(wav, 22, 2), static_cast<std::uint32_t>(channels));
      EXPECT_EQ(at_le(wav, 24, 4), 22050u);
      EXPECT_EQ(at_le(wav, 28, 4), 22050u * block);
      EXPECT_EQ(at_le(wav, 32, 2), block);
      EXPECT_EQ(at_le(wav, 34, 2), static_cast<std::uint32_t>(bits));
      EXPECT_EQ(wav.substr(36, 4), "data");
      EXPECT_EQ(at_le(wav, 40, 4), data);
    }
  }
}

TEST(MediaAudio, WavSamplesAreScaledToTheIntegerRange) {
  const std::string u8 = encode_wav(at_fixed_clip(8, {0.0f, 1.0f, -1.0f, 0.5f, -0.5f}));
  ASSERT_EQ(u8.size(), 44u + 5 + 1);  // odd data size: one pad byte
  EXPECT_EQ(at_le(u8, 4, 4), 36u + 6);
  EXPECT_EQ(at_le(u8, 40, 4), 5u);
  // Unsigned around 128: round(s × 127 + 128).
  EXPECT_EQ(at_le(u8, 44, 1), 128u);
  EXPECT_EQ(at_le(u8, 45, 1), 255u);
  EXPECT_EQ(at_le(u8, 46, 1), 1u);
  EXPECT_EQ(at_le(u8, 47, 1), 192u);
  EXPECT_EQ(at_le(u8, 48, 1), 65u);

  const std::vector<float> s = {1.0f, -1.0f, 0.5f, 0.0f};
  const std::string w16 = encode_wav(at_fixed_clip(16, s));
  EXPECT_EQ(at_le_signed(w16, 44, 2), 32767);
  EXPECT_EQ(at_le_signed(w16, 46, 2), -32767);
  EXPECT_EQ(at_le_signed(w16, 48, 2), 16384);
  EXPECT_EQ(at_le_signed(w16, 50, 2), 0);
  const std::string w24 = encode_wav(at_fixed_clip(24, s));
  EXPECT_EQ(at_le_signed(w24, 44, 3), 8388607);
  EXPECT_EQ(at_le_signed(w24, 47, 3), -8388607);
  EXPECT_EQ(at_le_signed(w24, 50, 3), 4194304);
  const std::string w32 = encode_wav(at_fixed_clip(32, s));
  EXPECT_EQ(at_le_signed(w32, 44, 4), 2147483647);
  EXPECT_EQ(at_le_signed(w32, 48, 4), -2147483647);
  EXPECT_EQ(at_le_signed(w32, 52, 4), 1073741824);
}

TEST(MediaAudio, EightBitNoiseIsCentredOn128) {
  std::mt19937_64 rng(9);
  const std::string wav = encode_wav(noise_clip(1.0, 16000, 8, 1, rng));
  double sum = 0;
  for (std::size_t i = 44; i < 44 + 16000; ++i) sum += static_cast<unsigned char>(wav[i]);
  EXPECT_NEAR(sum / 16000, 128.0, 1.0);
}

TEST(MediaAudio, WavDecodesWithFfmpeg) {
  std::mt19937_64 rng(3);
  const auto info = inspect_media(encode_wav(noise_clip(0.5, 24000, 24, 2, rng)));
  ASSERT_TRUE(info.ok()) << info.error().describe();
  EXPECT_EQ(info->container, "wav");
  EXPECT_EQ(info->sample_rate, 24000);
  EXPECT_EQ(info->channels, 2);
  EXPECT_EQ(info->bits, 24);
  EXPECT_DOUBLE_EQ(info->duration_s, 0.5);
}

TEST(MediaAudio, Mp3Rates) {
  for (int hz : {8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000}) {
    EXPECT_TRUE(mp3_sample_rate_supported(hz)) << hz;
  }
  for (int hz : {0, 7999, 44000, 96000}) EXPECT_FALSE(mp3_sample_rate_supported(hz)) << hz;
}

// The first MPEG audio frame header's version, sample rate and channel mode.
struct AtMp3Header {
  int sample_rate = 0;
  bool mono = false;
};

AtMp3Header at_first_mp3_header(const std::string& mp3) {
  static constexpr int kRates[3][3] = {{44100, 48000, 32000},  // MPEG-1
                                       {22050, 24000, 16000},  // MPEG-2
                                       {11025, 12000, 8000}};  // MPEG-2.5
  for (std::size_t i = 0; i + 4 <= mp3.size(); ++i) {
    const auto b0 = static_cast<unsigned char>(mp3[i]);
    const auto b1 = static_cast<unsigned char>(mp3[i + 1]);
    if (b0 != 0xFF || (b1 & 0xE0) != 0xE0) continue;
    const int version = (b1 >> 3) & 3;  // 3: MPEG-1, 2: MPEG-2, 0: MPEG-2.5
    const int rate_index = (static_cast<unsigned char>(mp3[i + 2]) >> 2) & 3;
    if (version == 1 || rate_index == 3) continue;
    const int row = version == 3 ? 0 : version == 2 ? 1 : 2;
    return {kRates[row][rate_index], (static_cast<unsigned char>(mp3[i + 3]) >> 6) == 3};
  }
  return {};
}

TEST(MediaAudio, Mp3CarriesTheRateChannelsAndLength) {
  struct Case {
    int rate, channels;
    double seconds;
  };
  for (const Case& c : {Case{16000, 1, 1.0}, Case{44100, 2, 0.5}, Case{8000, 2, 0.75}}) {
    SCOPED_TRACE(std::to_string(c.rate) + " Hz, " + std::to_string(c.channels) + " channels");
    std::mt19937_64 rng(4);
    const auto mp3 = encode_mp3(noise_clip(c.seconds, c.rate, 16, c.channels, rng));
    ASSERT_TRUE(mp3.ok()) << mp3.error().describe();
    const AtMp3Header h = at_first_mp3_header(*mp3);
    EXPECT_EQ(h.sample_rate, c.rate);
    EXPECT_EQ(h.mono, c.channels == 1);
    const auto info = inspect_media(*mp3);
    ASSERT_TRUE(info.ok()) << info.error().describe();
    EXPECT_EQ(info->container, "mp3");
    EXPECT_EQ(info->codec, "mp3");
    EXPECT_EQ(info->sample_rate, c.rate);
    EXPECT_EQ(info->channels, c.channels);
    // At 32 kHz and up the LAME tag tells the decoder how much to trim and the length comes out
    // exact; below, LAME's default bit rate makes frames too small for the tag, so the encoder's
    // delay (~1100 samples) and the last frame's padding stay in.
    EXPECT_GE(info->duration_s, c.seconds - 1e-9);
    EXPECT_LE(info->duration_s, c.seconds + (c.rate >= 32000 ? 1e-9 : 2400.0 / c.rate));
  }
}

TEST(MediaAudio, Mp3RefusesWhatMpegAudioCannotCarry) {
  std::mt19937_64 rng(4);
  const auto bad_rate = encode_mp3(noise_clip(0.1, 44000, 16, 1, rng));
  ASSERT_FALSE(bad_rate.ok());
  EXPECT_NE(bad_rate.error().message.find("44000"), std::string::npos);
  const auto bad_channels = encode_mp3(noise_clip(0.1, 44100, 16, 3, rng));
  ASSERT_FALSE(bad_channels.ok());
  EXPECT_NE(bad_channels.error().message.find("3"), std::string::npos);
}

}  // namespace
}  // namespace inferperf::media
