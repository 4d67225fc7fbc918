// What a media file really is, read by decoding it with FFmpeg: the mock server checks every
// image, audio clip and video a request carries with this, and the tests check the encoders.
#pragma once
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace inferperf::media {

struct MediaInfo {
  std::string container;  // png | jpeg | wav | mp3 | webm | mp4 | the demuxer's name otherwise
  std::string codec;      // the first stream's codec (png, mjpeg, pcm_s16le, mp3, vp9, h264, ...)
  int width = 0, height = 0;  // images and videos
  int frames = 0;             // decoded video frames (images: 1)
  int sample_rate = 0;        // audio (a video's audio track too)
  int channels = 0;
  int bits = 0;             // PCM bit depth (0 for compressed audio)
  double duration_s = 0;    // audio: decoded samples ÷ rate; video: frames ÷ frame rate
  std::string audio_codec;  // a video's audio track ("" = none)
};

// Decodes `bytes` completely (every frame and sample), so a truncated or corrupt file is an error.
core::Result<MediaInfo> inspect_media(std::string_view bytes);

}  // namespace inferperf::media
