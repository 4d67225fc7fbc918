#include "media/audio.hpp"

#include <lame/lame.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <memory>

#include "core/rng.hpp"

namespace inferperf::media {

namespace {

constexpr double kNoiseStddev = 0.3;

void aud_put_le(std::string& out, std::uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

// One sample at `bits` bits, little-endian: 8-bit WAV is unsigned around 128, wider depths are
// two's complement scaled by the largest positive value.
void aud_put_sample(std::string& out, float sample, int bits) {
  const double s = std::clamp(static_cast<double>(sample), -1.0, 1.0);
  if (bits == 8) {
    out.push_back(static_cast<char>(static_cast<std::uint8_t>(std::lround(s * 127.0 + 128.0))));
    return;
  }
  const double full_scale = std::ldexp(1.0, bits - 1) - 1.0;
  const auto v = static_cast<std::int64_t>(std::llround(s * full_scale));
  aud_put_le(out, static_cast<std::uint64_t>(v), bits / 8);
}

// LAME reports through printf-like hooks that default to stderr, which belongs to the user.
void aud_lame_quiet(const char*, va_list) {}

struct AudLameCloser {
  void operator()(lame_global_flags* gf) const { lame_close(gf); }
};
using AudLamePtr = std::unique_ptr<lame_global_flags, AudLameCloser>;

core::Error aud_mp3_error(std::string message) {
  return core::Error{core::ErrorKind::kRun, "MP3 encoding: " + std::move(message), ""};
}

}  // namespace

PcmClip noise_clip(double seconds, int sample_rate, int bits, int channels, std::mt19937_64& rng) {
  PcmClip clip;
  clip.sample_rate = sample_rate;
  clip.bits = bits;
  clip.channels = channels;
  // Truncation of the double product, as Python's int(duration * rate) does.
  const double product = std::max(0.0, seconds * sample_rate);
  const auto frames = static_cast<std::size_t>(product);
  clip.samples.resize(frames * static_cast<std::size_t>(std::max(0, channels)));
  for (float& s : clip.samples) {
    s = static_cast<float>(std::clamp(core::normal(rng, 0.0, kNoiseStddev), -1.0, 1.0));
  }
  return clip;
}

std::string encode_wav(const PcmClip& clip) {
  const int bytes_per_sample = clip.bits / 8;
  const std::uint64_t block = static_cast<std::uint64_t>(clip.channels) * bytes_per_sample;
  const std::uint64_t data_size =
      clip.samples.size() * static_cast<std::uint64_t>(bytes_per_sample);
  const std::uint64_t pad = data_size % 2;  // RIFF chunks are word-aligned
  std::string out;
  out.reserve(44 + data_size + pad);
  out += "RIFF";
  aud_put_le(out, 4 + (8 + 16) + (8 + data_size + pad), 4);
  out += "WAVE";
  out += "fmt ";
  aud_put_le(out, 16, 4);
  // Format tag 1 (integer PCM) at every depth, as most writers and every reader handle it.
  aud_put_le(out, 1, 2);
  aud_put_le(out, static_cast<std::uint64_t>(clip.channels), 2);
  aud_put_le(out, static_cast<std::uint64_t>(clip.sample_rate), 4);
  aud_put_le(out, static_cast<std::uint64_t>(clip.sample_rate) * block, 4);
  aud_put_le(out, block, 2);
  aud_put_le(out, static_cast<std::uint64_t>(clip.bits), 2);
  out += "data";
  aud_put_le(out, data_size, 4);
  for (float s : clip.samples) aud_put_sample(out, s, clip.bits);
  if (pad != 0) out.push_back('\0');
  return out;
}

bool mp3_sample_rate_supported(int hz) {
  static constexpr std::array<int, 9> kRates = {8000,  11025, 12000, 16000, 22050,
                                                24000, 32000, 44100, 48000};
  return std::find(kRates.begin(), kRates.end(), hz) != kRates.end();
}

core::Result<std::string> encode_mp3(const PcmClip& clip) {
  if (!mp3_sample_rate_supported(clip.sample_rate)) {
    return aud_mp3_error("MPEG audio cannot carry " + std::to_string(clip.sample_rate) +
                         " Hz (8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100 or 48000)");
  }
  if (clip.channels < 1 || clip.channels > 2) {
    return aud_mp3_error("MPEG audio carries 1 or 2 channels, not " +
                         std::to_string(clip.channels));
  }
  AudLamePtr gf(lame_init());
  if (!gf) return aud_mp3_error("lame_init failed");
  lame_set_errorf(gf.get(), aud_lame_quiet);
  lame_set_debugf(gf.get(), aud_lame_quiet);
  lame_set_msgf(gf.get(), aud_lame_quiet);
  lame_set_in_samplerate(gf.get(), clip.sample_rate);
  lame_set_out_samplerate(gf.get(), clip.sample_rate);
  lame_set_num_channels(gf.get(), clip.channels);
  lame_set_mode(gf.get(), clip.channels == 1 ? MONO : JOINT_STEREO);
  if (lame_init_params(gf.get()) < 0) return aud_mp3_error("LAME rejected the parameters");

  constexpr std::size_t kChunkFrames = 8192;
  // LAME's documented worst case for one call: 1.25 × samples + 7200 bytes.
  std::vector<unsigned char> buf(kChunkFrames * 5 / 4 + 7200);
  std::string out;
  const std::size_t frames = clip.frames();
  const auto channels = static_cast<std::size_t>(clip.channels);
  for (std::size_t at = 0; at < frames; at += kChunkFrames) {
    const std::size_t n = std::min(kChunkFrames, frames - at);
    const float* pcm = clip.samples.data() + at * channels;
    // The interleaved entry point always steps two samples per frame, so mono has its own.
    const int written =
        channels == 1
            ? lame_encode_buffer_ieee_float(gf.get(), pcm, pcm, static_cast<int>(n), buf.data(),
                                            static_cast<int>(buf.size()))
            : lame_encode_buffer_interleaved_ieee_float(gf.get(), pcm, static_cast<int>(n),
                                                        buf.data(), static_cast<int>(buf.size()));
    if (written < 0) return aud_mp3_error("LAME failed (" + std::to_string(written) + ")");
    out.append(reinterpret_cast<const char*>(buf.data()), static_cast<std::size_t>(written));
  }
  const int tail = lame_encode_flush(gf.get(), buf.data(), static_cast<int>(buf.size()));
  if (tail < 0) return aud_mp3_error("LAME failed to flush (" + std::to_string(tail) + ")");
  out.append(reinterpret_cast<const char*>(buf.data()), static_cast<std::size_t>(tail));
  // The first frame is a placeholder for the Xing/LAME tag (frame count, encoder delay and
  // padding), which LAME can only fill in now; decoders use it to trim the padding.
  const std::size_t tag = lame_get_lametag_frame(gf.get(), buf.data(), buf.size());
  if (tag > 0 && tag <= out.size()) std::copy_n(buf.data(), tag, out.begin());
  return out;
}

}  // namespace inferperf::media
