// The AIPerf 0.11 image, audio and video options (§1.4, §1.13): the synthetic media each turn
// carries. AIPerf 0.11 makes pictures when both size means are above 0 (any typed image option
// brings 512x512 pictures, batch 1), clips when the length mean is above 0 (any typed audio option
// brings 10 s clips, batch 1), videos only when --video-width and --video-height are given, and no
// medium with a batch size of 0. resolved_media() applies those rules; the ranges are checked on
// the typed text (numeric_ranges.cpp).
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "config/cli_areas.hpp"
#include "config/enum_token.hpp"
#include "config/validate.hpp"
#include "core/file_names.hpp"

namespace inferperf::config {

namespace {

const char* const kImageGroup = "Image Input";
const char* const kAudioGroup = "Audio Input";
const char* const kVideoGroup = "Video Input";

// AIPerf's rule for a rate: a value above 96 is already Hz, anything else kHz.
int rate_hz(double typed) {
  return static_cast<int>(std::lround(typed > 96 ? typed : typed * 1000.0));
}

// One --audio-sample-rates item: a finite positive number, else a CLI error naming the flag.
int parse_rate_item(const std::string& text) {
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v) || v <= 0 ||
      v > 384'000)
    throw CLI::ValidationError("--audio-sample-rates",
                               "each rate must be a number of kHz (or Hz above 96) up to 384000, "
                               "got '" +
                                   text + "'");
  return rate_hz(v);
}

void add_image_options(CLI::App* p, ImageInputConfig& m) {
  p->add_option("--image-width-mean", m.width_mean,
                "Mean picture width in pixels (default 512 once any image option is given)")
      ->group(kImageGroup);
  p->add_option("--image-width-stddev", m.width_stddev, "Standard deviation of the width")
      ->group(kImageGroup);
  p->add_option("--image-height-mean", m.height_mean,
                "Mean picture height in pixels (default 512 once any image option is given)")
      ->group(kImageGroup);
  p->add_option("--image-height-stddev", m.height_stddev, "Standard deviation of the height")
      ->group(kImageGroup);
  p->add_option("--image-batch-size,--batch-size-image", m.batch,
                "Pictures per turn (default 1 once any image option is given; 0 = none)")
      ->group(kImageGroup);
  p->add_option("--image-format", m.format,
                "png | jpeg | random (one pick per picture); default jpeg")
      ->transform(enum_choice({"png", "jpeg", "random"}))
      ->group(kImageGroup);
  p->add_option("--image-source", m.source,
                "noise (random pixels), assets (the bundled pictures) or a folder of PNG/JPEG "
                "files, resized to each drawn size")
      ->transform(
          [](std::string v) {
            // The two words in any case, as AIPerf's enum matching; anything else is a folder.
            const std::string word = normalise_enum_token(v);
            return word == "noise" || word == "assets" ? word : v;
          },
          "", "")
      ->group(kImageGroup);
  p->add_option("--image-source-sampling", m.sampling,
                "How assets or a folder are walked: random-with-replacement | shuffle-cycle | "
                "sequential-cycle")
      ->transform(enum_choice({"random-with-replacement", "shuffle-cycle", "sequential-cycle"}))
      ->group(kImageGroup);
}

void add_audio_options(CLI::App* p, AudioInputConfig& m) {
  p->add_option("--audio-batch-size,--batch-size-audio", m.batch,
                "Clips per turn (default 1 once any audio option is given; 0 = none)")
      ->group(kAudioGroup);
  p->add_option("--audio-length-mean", m.length_mean,
                "Mean clip length in seconds (default 10 once any audio option is given)")
      ->group(kAudioGroup);
  p->add_option("--audio-length-stddev", m.length_stddev, "Standard deviation of the length")
      ->group(kAudioGroup);
  p->add_option("--audio-format", m.format, "wav | mp3")
      ->transform(enum_choice({"wav", "mp3"}))
      ->group(kAudioGroup);
  // Lists are checked item by item here (the numeric range table holds single values).
  p->add_option("--audio-depths", m.depths, "Bit depths (8, 16, 24, 32), one drawn per clip")
      ->delimiter(',')
      ->type_name("BITS,...")
      ->group(kAudioGroup);
  p->add_option_function<std::vector<std::string>>(
       "--audio-sample-rates",
       [&m](const std::vector<std::string>& rates) {
         m.sample_rates_hz.clear();
         for (const auto& text : rates) m.sample_rates_hz.push_back(parse_rate_item(text));
       },
       "Sample rates in kHz (a value above 96 is Hz), one drawn per clip; default 16")
      ->delimiter(',')
      ->type_name("KHZ,...")
      ->group(kAudioGroup);
  p->add_option("--audio-num-channels", m.channels, "1 or 2")->group(kAudioGroup);
}

void add_video_options(CLI::App* p, VideoInputConfig& m) {
  p->add_option("--video-batch-size,--batch-size-video", m.batch,
                "Videos per turn (default 1 with --video-width and --video-height; 0 = none)")
      ->group(kVideoGroup);
  p->add_option("--video-width", m.width, "Frame width in pixels; videos need it and the height")
      ->group(kVideoGroup);
  p->add_option("--video-height", m.height, "Frame height in pixels")->group(kVideoGroup);
  p->add_option("--video-duration", m.duration_s, "Seconds per video (default 1)")
      ->group(kVideoGroup);
  p->add_option("--video-fps", m.fps, "Frames per second (default 4)")->group(kVideoGroup);
  p->add_option("--video-synth-type", m.synth, "moving_shapes | grid_clock | noise")
      ->transform(enum_choice({"moving_shapes", "grid_clock", "noise"}))
      ->group(kVideoGroup);
  p->add_option("--video-format", m.format, "Container: webm | mp4 (mp4 with fast start)")
      ->transform(enum_choice({"webm", "mp4"}))
      ->group(kVideoGroup);
  p->add_option("--video-codec", m.codec, "FFmpeg video encoder (default libvpx-vp9)")
      ->group(kVideoGroup);
  p->add_option_function<double>(
       "--video-audio-sample-rate", [&m](double r) { m.audio_sample_rate_hz = rate_hz(r); },
       "Audio track sample rate in kHz (a value above 96 is Hz); default 44100 Hz")
      ->group(kVideoGroup);
  p->add_option("--video-audio-num-channels", m.audio_channels,
                "Noise audio track channels: 0 (no track), 1 or 2")
      ->group(kVideoGroup);
  p->add_option("--video-audio-codec", m.audio_codec,
                "aac | libvorbis | libopus (default by container: mp4 aac, webm libvorbis)")
      ->transform(enum_choice({"aac", "libvorbis", "libopus"}))
      ->group(kVideoGroup);
  p->add_option("--video-audio-depth", m.audio_depth, "Audio track bit depth: 8, 16, 24 or 32")
      ->group(kVideoGroup);
}

bool typed_with_prefix(const RunConfig& c, std::string_view prefix) {
  return std::any_of(c.set_options.begin(), c.set_options.end(),
                     [&](const std::string& f) { return f.starts_with(prefix); });
}

bool depth_ok(int bits) {
  return bits == 8 || bits == 16 || bits == 24 || bits == 32;
}

void check_image_source(const ImageInputConfig& m, std::vector<std::string>& errors) {
  if (m.sampling != "random-with-replacement" && m.source == "noise") {
    errors.push_back("--image-source-sampling " + m.sampling +
                     " needs --image-source assets or a folder: noise has no finite pool");
  }
  if (m.source == "noise" || m.source == "assets") return;
  std::error_code ec;
  const std::filesystem::path dir(m.source);
  if (!std::filesystem::is_directory(dir, ec)) {
    errors.push_back("--image-source " + m.source +
                     ": not noise, assets or an existing folder of pictures");
    return;
  }
  bool any = false;
  for (const auto& e : std::filesystem::directory_iterator(dir, ec)) {
    if (e.is_regular_file(ec) && core::has_image_extension(e.path().filename().string()))
      any = true;
  }
  if (!any) errors.push_back("--image-source " + m.source + ": no .png, .jpg or .jpeg file in it");
}

void check_audio(const AudioInputConfig& a, std::vector<std::string>& errors) {
  if (!a.enabled()) return;
  if (a.depths.empty() || a.sample_rates_hz.empty())
    errors.push_back("--audio-depths and --audio-sample-rates need at least one value each");
  for (int d : a.depths) {
    if (!depth_ok(d))
      errors.push_back("--audio-depths: " + std::to_string(d) + " is not 8, 16, 24 or 32 bits");
  }
  static const std::set<int> kMp3Rates{8000,  11025, 12000, 16000, 22050,
                                       24000, 32000, 44100, 48000};
  for (int r : a.sample_rates_hz) {
    if (r < 1 || r > 384000) {
      errors.push_back("--audio-sample-rates: " + std::to_string(r) +
                       " Hz is outside 1 Hz to 384 kHz");
    } else if (a.format == "mp3" && !kMp3Rates.count(r)) {
      errors.push_back("--audio-sample-rates: MP3 cannot carry " + std::to_string(r) +
                       " Hz (8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100 or 48000)");
    }
  }
  if (a.length_mean < 0.01)
    errors.push_back("--audio-length-mean must be at least 0.01 s when clips are made");
}

void check_video(const RunConfig& c, const VideoInputConfig& v, std::vector<std::string>& errors) {
  const bool w = c.set_options.count("--video-width") > 0;
  const bool h = c.set_options.count("--video-height") > 0;
  if (w != h)
    errors.push_back("--video-width and --video-height go together: give both or neither");
  if (!v.audio_codec.empty() && v.audio_channels == 0)
    errors.push_back("--video-audio-codec " + v.audio_codec +
                     " is set but --video-audio-num-channels is 0 (no track): set 1 or 2");
  if (!depth_ok(v.audio_depth))
    errors.push_back("--video-audio-depth must be 8, 16, 24 or 32 bits (got " +
                     std::to_string(v.audio_depth) + ")");
  if (v.enabled() && c.set_options.count("--video-duration") && !(v.duration_s > 0))
    errors.push_back("--video-duration must be above 0 s when videos are made");
}

}  // namespace

void add_media_options(CLI::App* profile, CliTargets& t) {
  MediaConfig& m = t.outcome.config.media;
  add_image_options(profile, m.image);
  add_audio_options(profile, m.audio);
  add_video_options(profile, m.video);
}

MediaConfig resolved_media(const RunConfig& c) {
  MediaConfig m = c.media;
  const auto typed = [&](const char* flag) { return c.set_options.count(flag) > 0; };
  if (!typed("--image-batch-size")) m.image.batch = typed_with_prefix(c, "--image-") ? 1 : 0;
  if (!typed("--audio-batch-size")) m.audio.batch = typed_with_prefix(c, "--audio-") ? 1 : 0;
  if (!typed("--video-batch-size"))
    m.video.batch = typed("--video-width") && typed("--video-height") ? 1 : 0;
  if (!typed("--video-width") || !typed("--video-height")) m.video.width = m.video.height = 0;
  return m;
}

void validate_media_options(const RunConfig& c, std::vector<std::string>& errors) {
  const MediaConfig m = resolved_media(c);
  if (typed_with_prefix(c, "--image-")) check_image_source(m.image, errors);
  check_audio(m.audio, errors);
  check_video(c, m.video, errors);
  // AIPerf 0.11 refuses these with a file, whatever their value.
  if (!c.input.input_file.empty() && c.input.public_dataset.empty()) {
    for (const char* flag : {"--image-batch-size", "--image-source", "--image-source-sampling",
                             "--audio-batch-size", "--video-batch-size"}) {
      if (c.set_options.count(flag))
        errors.push_back(std::string(flag) +
                         " does not apply to --input-file: the file's rows carry their media "
                         "(AIPerf 0.11 refuses it)");
    }
  }
}

}  // namespace inferperf::config
