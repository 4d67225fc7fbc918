// Audio clips for synthetic audio inputs (AIPerf 0.11 §1.13): Gaussian noise PCM, written as WAV
// or encoded as MP3 (LAME).
#pragma once
#include <random>
#include <string>
#include <vector>

#include "core/error.hpp"

namespace inferperf::media {

// Interleaved samples in [-1, 1] with the rate, channel count and bit depth they are written at.
struct PcmClip {
  int sample_rate = 16000;
  int channels = 1;
  int bits = 16;               // 8, 16, 24 or 32
  std::vector<float> samples;  // frames × channels, interleaved
  std::size_t frames() const { return channels > 0 ? samples.size() / channels : 0; }
};

// ⌊seconds × sample_rate⌋ frames of Gaussian noise (σ 0.3, clipped to ±1), drawn independently
// per channel.
PcmClip noise_clip(double seconds, int sample_rate, int bits, int channels, std::mt19937_64& rng);

// RIFF/WAVE, PCM: 8-bit unsigned, 16/24/32-bit signed little-endian, samples scaled to the
// integer range.
std::string encode_wav(const PcmClip& clip);

// The sample rates MPEG audio (and so LAME) can encode.
bool mp3_sample_rate_supported(int hz);

// MPEG-1/2 Layer III through LAME at its default quality; an unsupported rate is an error.
core::Result<std::string> encode_mp3(const PcmClip& clip);

}  // namespace inferperf::media
