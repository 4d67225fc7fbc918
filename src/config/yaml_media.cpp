// A synthetic dataset's images, audio and video tables (AIPerf 0.11's ImageConfig, AudioConfig and
// VideoConfig) as the --image-*, --audio-* and --video-* flags. In a YAML file a medium's
// batch_size defaults to 0 (AIPerf's model default): a table without one makes nothing.
#include "config/yaml_support.hpp"

namespace inferperf::config::yaml {

namespace {

// A list key (`[16, 24]` or one scalar) as a comma list for `flag`.
void yaml_list_flag(Ctx& ctx, const At& parent, std::string_view key, const std::string& flag) {
  const YAML::Node n = Ctx::get(parent.node, key);
  if (!n || n.IsNull()) return;
  const At at = parent.child(n, key);
  std::string joined;
  if (n.IsSequence()) {
    for (std::size_t i = 0; i < n.size(); ++i) {
      auto v = ctx.number(at.child(n[i], std::to_string(i)));
      if (!v) return;
      joined += (joined.empty() ? "" : ",") + *v;
    }
  } else if (auto v = ctx.number(at)) {
    joined = *v;
  }
  if (!joined.empty()) ctx.emit(flag, {joined}, at);
}

// batch_size, or 0 when the table has none (so the flags that follow do not imply one).
void yaml_batch(Ctx& ctx, const At& at, const std::string& flag) {
  if (Ctx::get(at.node, "batch_size"))
    ctx.number_flag(at, "batch_size", flag);
  else
    ctx.emit(flag, {"0"}, at);
}

void yaml_images(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"batch_size", "width", "height", "format", "source", "source_sampling"}))
    return;
  yaml_batch(ctx, at, "--image-batch-size");
  if (const YAML::Node n = Ctx::get(at.node, "width"))
    ctx.distribution(at.child(n, "width"), "--image-width-mean", "--image-width-stddev");
  if (const YAML::Node n = Ctx::get(at.node, "height"))
    ctx.distribution(at.child(n, "height"), "--image-height-mean", "--image-height-stddev");
  ctx.text_flag(at, "format", "--image-format");
  ctx.text_flag(at, "source", "--image-source");
  ctx.text_flag(at, "source_sampling", "--image-source-sampling");
}

void yaml_audio(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"batch_size", "length", "format", "sample_rates", "depths", "channels"}))
    return;
  yaml_batch(ctx, at, "--audio-batch-size");
  if (const YAML::Node n = Ctx::get(at.node, "length"))
    ctx.distribution(at.child(n, "length"), "--audio-length-mean", "--audio-length-stddev");
  ctx.text_flag(at, "format", "--audio-format");
  yaml_list_flag(ctx, at, "sample_rates", "--audio-sample-rates");
  yaml_list_flag(ctx, at, "depths", "--audio-depths");
  ctx.number_flag(at, "channels", "--audio-num-channels");
}

void yaml_video(Ctx& ctx, const At& at) {
  if (!ctx.check_keys(at, {"batch_size", "duration", "fps", "width", "height", "format", "codec",
                           "synth_type", "audio"}))
    return;
  yaml_batch(ctx, at, "--video-batch-size");
  ctx.number_flag(at, "duration", "--video-duration");
  ctx.number_flag(at, "fps", "--video-fps");
  ctx.number_flag(at, "width", "--video-width");
  ctx.number_flag(at, "height", "--video-height");
  ctx.text_flag(at, "format", "--video-format");
  ctx.text_flag(at, "codec", "--video-codec");
  ctx.text_flag(at, "synth_type", "--video-synth-type");
  const YAML::Node a = Ctx::get(at.node, "audio");
  if (!a || a.IsNull()) return;
  const At track = at.child(a, "audio");
  if (!ctx.check_keys(track, {"sample_rate", "channels", "codec", "depth"})) return;
  ctx.number_flag(track, "sample_rate", "--video-audio-sample-rate");
  ctx.number_flag(track, "channels", "--video-audio-num-channels");
  ctx.text_flag(track, "codec", "--video-audio-codec");
  ctx.number_flag(track, "depth", "--video-audio-depth");
}

}  // namespace

void translate_media(Ctx& ctx, const At& ds) {
  const std::pair<const char*, void (*)(Ctx&, const At&)> media[] = {
      {"images", yaml_images}, {"audio", yaml_audio}, {"video", yaml_video}};
  for (const auto& [key, translate] : media) {
    const YAML::Node n = Ctx::get(ds.node, key);
    if (!n || n.IsNull()) continue;
    translate(ctx, ds.child(n, key));
  }
}

}  // namespace inferperf::config::yaml
