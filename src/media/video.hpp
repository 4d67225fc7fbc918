// Videos for synthetic video inputs (AIPerf 0.11 §1.13): moving shapes, a grid clock or noise,
// encoded with Debian's FFmpeg libraries, optionally with a noise audio track.
#pragma once
#include <cstdint>
#include <optional>
#include <random>
#include <string>
#include <string_view>

#include "core/error.hpp"
#include "media/image.hpp"

namespace inferperf::media {

enum class VideoSynth { kMovingShapes, kGridClock, kNoise };

struct VideoSpec {
  int width = 0, height = 0;
  int fps = 4;
  double duration_s = 1.0;
  VideoSynth synth = VideoSynth::kMovingShapes;
  std::string format = "webm";       // container: webm | mp4
  std::string codec = "libvpx-vp9";  // an FFmpeg encoder name
  // Optional noise audio track (0 channels = none), muxed with the shortest-stream rule.
  int audio_channels = 0;
  int audio_sample_rate = 44100;
  // aac | libvorbis | libopus; "" = by container (mp4 aac, webm libvorbis).
  std::string audio_codec;
  int audio_bits = 16;
  // ⌊duration × fps⌋, at least 1.
  int frame_count() const;
};

// "video/webm" | "video/mp4".
std::string_view video_mime_type(std::string_view format);

// Frame `index` of the clip. moving_shapes: black background, a red circle, a green square and a
// blue circle moving linearly and wrapping at the edges; grid_clock: a dark grid every 32 px and
// clock hands that turn once over the clip; noise: uniform random RGB from `rng`.
RgbImage video_frame(const VideoSpec& spec, int index, std::mt19937_64& rng);

// An error naming the encoder or container this FFmpeg build lacks, checked before any traffic.
std::optional<std::string> missing_video_support(const VideoSpec& spec);

// The whole clip, encoded yuv420p (mp4 with its index at the front: "fast start").
core::Result<std::string> encode_video(const VideoSpec& spec, std::mt19937_64& rng);

}  // namespace inferperf::media
