// The AIPerf 0.11 image, audio and video options. inferperf makes no media (issue "Multimodal"),
// so each is accepted only at the values with which AIPerf 0.11 makes none either, and the
// ranges of AIPerf 0.11 are checked for all of them (numeric_ranges.cpp).
//
// AIPerf 0.11 makes images only when both the width and height means are above 0 (a typed image
// option otherwise brings 512x512 images with batch 1), audio only when the length mean is above 0
// (a typed audio option otherwise brings 10 s clips), video only when both --video-width and
// --video-height are given, and no medium with a batch size of 0.
#include <algorithm>

#include "config/cli_areas.hpp"
#include "config/validate.hpp"

namespace inferperf::config {

namespace {

struct MediaTextSink {
  std::string text;
  std::vector<std::string> list;
};

// Values only kept for CLI11 (their option's presence is what counts; set_options records it).
MediaTextSink& media_sink() {
  static MediaTextSink sink;
  return sink;
}

const char* const kImageGroup = "Image Input (AIPerf 0.11; inferperf makes no images)";
const char* const kAudioGroup = "Audio Input (AIPerf 0.11; inferperf makes no audio)";
const char* const kVideoGroup = "Video Input (AIPerf 0.11; inferperf makes no video)";
// Accepted only where AIPerf 0.11 makes none either.
const char* const kNoImages =
    "Accepted only when no images are made: with --image-width-mean 0, --image-height-mean 0 or "
    "--image-batch-size 0";
const char* const kNoAudio =
    "Accepted only when no audio is made: with --audio-length-mean 0 or --audio-batch-size 0";

void add_media_text(CLI::App* p, const char* name, const char* help, const char* group,
                    std::vector<std::string> choices = {}) {
  CLI::Option* o = p->add_option(name, media_sink().text, help)->group(group);
  if (!choices.empty()) o->transform(enum_choice(std::move(choices)));
}

void add_image_options(CLI::App* p, MediaNoOpInput& m) {
  p->add_option("--image-width-mean", m.image_width_mean, kNoImages)->group(kImageGroup);
  p->add_option("--image-width-stddev", media_sink().text, kNoImages)
      ->type_name("FLOAT")
      ->group(kImageGroup);
  p->add_option("--image-height-mean", m.image_height_mean, kNoImages)->group(kImageGroup);
  p->add_option("--image-height-stddev", media_sink().text, kNoImages)
      ->type_name("FLOAT")
      ->group(kImageGroup);
  p->add_option("--image-batch-size,--batch-size-image", m.image_batch, kNoImages)
      ->group(kImageGroup);
  add_media_text(
      p, "--image-format",
      "png | jpeg | random. As --image-width-mean: accepted only when no images are made",
      kImageGroup, {"png", "jpeg", "random"});
  add_media_text(p, "--image-source", "noise | assets | DIR; refused unless no images are made",
                 kImageGroup);
  add_media_text(p, "--image-source-sampling",
                 "random-with-replacement | shuffle-cycle | sequential-cycle; refused unless no "
                 "images are made",
                 kImageGroup, {"random_with_replacement", "shuffle_cycle", "sequential_cycle"});
}

void add_audio_options(CLI::App* p, MediaNoOpInput& m) {
  p->add_option("--audio-batch-size,--batch-size-audio", m.audio_batch, kNoAudio)
      ->group(kAudioGroup);
  p->add_option("--audio-length-mean", m.audio_length_mean, kNoAudio)->group(kAudioGroup);
  p->add_option("--audio-length-stddev", media_sink().text, kNoAudio)
      ->type_name("FLOAT")
      ->group(kAudioGroup);
  add_media_text(p, "--audio-format", "wav | mp3; refused unless no audio is made", kAudioGroup,
                 {"wav", "mp3"});
  p->add_option("--audio-depths", media_sink().list, "Bit depths; refused unless no audio is made")
      ->group(kAudioGroup);
  p->add_option("--audio-sample-rates", media_sink().list,
                "Sample rates (kHz); refused unless no audio is made")
      ->group(kAudioGroup);
  p->add_option("--audio-num-channels", media_sink().text,
                "1 or 2; refused unless no audio is made")
      ->type_name("INT")
      ->group(kAudioGroup);
}

void add_video_options(CLI::App* p, MediaNoOpInput& m) {
  p->add_option(
       "--video-batch-size,--batch-size-video", m.video_batch,
       "0 makes no video (any other value with --video-width and --video-height is refused)")
      ->group(kVideoGroup);
  p->add_option("--video-width", media_sink().text,
                "Refused with --video-height unless --video-batch-size 0")
      ->type_name("INT")
      ->group(kVideoGroup);
  p->add_option("--video-height", media_sink().text,
                "Refused with --video-width unless --video-batch-size 0")
      ->type_name("INT")
      ->group(kVideoGroup);
  const char* noop = "No effect: AIPerf 0.11 makes no video without --video-width/--video-height";
  p->add_option("--video-duration", media_sink().text, noop)
      ->type_name("FLOAT")
      ->group(kVideoGroup);
  p->add_option("--video-fps", media_sink().text, noop)->type_name("INT")->group(kVideoGroup);
  add_media_text(p, "--video-synth-type", noop, kVideoGroup,
                 {"moving_shapes", "grid_clock", "noise"});
  add_media_text(p, "--video-format", noop, kVideoGroup, {"webm", "mp4"});
  add_media_text(p, "--video-codec", noop, kVideoGroup);
  p->add_option("--video-audio-sample-rate", media_sink().text, noop)
      ->type_name("FLOAT")
      ->group(kVideoGroup);
  p->add_option("--video-audio-num-channels", media_sink().text, noop)
      ->type_name("INT")
      ->group(kVideoGroup);
  add_media_text(p, "--video-audio-codec", noop, kVideoGroup, {"aac", "libvorbis", "libopus"});
  p->add_option("--video-audio-depth", m.video_audio_depth, noop)->group(kVideoGroup);
}

bool media_typed(const RunConfig& c, std::string_view prefix) {
  return std::any_of(c.set_options.begin(), c.set_options.end(),
                     [&](const std::string& f) { return f.starts_with(prefix); });
}

std::string typed_list(const RunConfig& c, std::string_view prefix) {
  std::string out;
  for (const auto& f : c.set_options) {
    if (!f.starts_with(prefix)) continue;
    if (!out.empty()) out += ", ";
    out += f;
  }
  return out;
}

std::string media_refusal(const std::string& flags, const char* what, const char* noop) {
  return flags + ": with these values AIPerf 0.11 would send " + what +
         ", which inferperf does not make yet (roadmap: \"Multimodal\"); " + noop;
}

}  // namespace

void add_media_options(CLI::App* profile, CliTargets& t) {
  MediaNoOpInput& m = t.outcome.config.media;
  add_image_options(profile, m);
  add_audio_options(profile, m);
  add_video_options(profile, m);
}

void validate_media_options(const RunConfig& c, std::vector<std::string>& errors) {
  const MediaNoOpInput& m = c.media;
  const auto zero = [](const auto& v) { return v && *v == 0; };
  if (media_typed(c, "--image-") && !zero(m.image_width_mean) && !zero(m.image_height_mean) &&
      !zero(m.image_batch)) {
    errors.push_back(media_refusal(typed_list(c, "--image-"), "images",
                                   "accepted only with --image-width-mean 0, --image-height-mean "
                                   "0 or --image-batch-size 0"));
  }
  if (media_typed(c, "--audio-") && !zero(m.audio_length_mean) && !zero(m.audio_batch)) {
    errors.push_back(media_refusal(typed_list(c, "--audio-"), "audio clips",
                                   "accepted only with --audio-length-mean 0 or "
                                   "--audio-batch-size 0"));
  }
  if (const auto d = m.video_audio_depth; d && *d != 8 && *d != 16 && *d != 24 && *d != 32)
    errors.push_back("--video-audio-depth must be 8, 16, 24 or 32 bits (got " + std::to_string(*d) +
                     ")");
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
  const bool video_size =
      c.set_options.count("--video-width") || c.set_options.count("--video-height");
  if (video_size && !zero(m.video_batch)) {
    errors.push_back(media_refusal(typed_list(c, "--video-"), "videos",
                                   "without --video-width/--video-height (or with "
                                   "--video-batch-size 0) the other --video-* options are "
                                   "accepted"));
  }
}

}  // namespace inferperf::config
