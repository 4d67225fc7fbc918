#include "dataset/synthetic_media.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <mutex>
#include <thread>
#include <vector>

#include "core/base64.hpp"
#include "core/byte_size.hpp"
#include "core/file_names.hpp"
#include "dataset/parallel_jobs.hpp"
#include "media/audio.hpp"
#include "media/image.hpp"
#include "media/video.hpp"

namespace inferperf::dataset {

namespace {

// One medium to make: what was drawn for it, and where it goes.
struct MediaJob {
  MediaItem::Kind kind = MediaItem::Kind::kImage;
  Turn* turn = nullptr;
  std::size_t slot = 0;       // index in turn->media
  std::uint64_t seed = 0;     // pixels, samples
  int width = 0, height = 0;  // images
  media::ImageFormat format = media::ImageFormat::kJpeg;
  int source = -1;     // index in the picture pool (-1 = noise)
  double seconds = 0;  // audio
  int sample_rate = 0, bits = 0;
};

// The pictures `assets` or a folder offers, decoded once (noise has none).
struct PicturePool {
  std::vector<media::RgbImage> owned;                  // a folder's pictures
  const std::vector<media::RgbImage>* pool = nullptr;  // the ones to draw from
};

// A folder's pictures are held decoded for the whole generation: together they must fit in the
// dataset memory budget, so a folder of huge photos is refused, not swapped to death.
core::Result<PicturePool> load_pictures(const config::ImageInputConfig& c, std::uint64_t budget) {
  PicturePool p;
  if (c.source == "noise") return p;
  if (c.source == "assets") {
    p.pool = &media::bundled_images();
    return p;
  }
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(c.source, ec)) {
    if (e.is_regular_file(ec) && core::has_image_extension(e.path().filename().string()))
      files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  std::uint64_t held = 0;
  for (const auto& f : files) {
    auto img = media::read_image_file(f);
    if (!img) continue;  // AIPerf drops unreadable files
    held += img->rgb.size();
    if (held > budget) {
      return core::Error{core::ErrorKind::kConfig,
                         fmt::format("the pictures up to {} decode to {}, over the dataset memory "
                                     "budget of {}: use fewer or smaller pictures or raise "
                                     "--max-dataset-memory",
                                     f.filename().string(), core::format_byte_size(held),
                                     core::format_byte_size(budget)),
                         c.source, 0, "--image-source"};
    }
    p.owned.push_back(std::move(*img));
  }
  if (p.owned.empty()) {
    return core::Error{core::ErrorKind::kInput, "no readable PNG or JPEG picture in the folder",
                       c.source, 0, "--image-source"};
  }
  p.pool = &p.owned;
  return p;
}

// Walks a finite pool the way --image-source-sampling says.
class PoolWalk {
 public:
  PoolWalk(std::string mode, std::size_t size, std::mt19937_64& rng)
      : mode_(std::move(mode)), size_(size), rng_(rng) {}
  int next() {
    if (mode_ == "sequential-cycle") return static_cast<int>(count_++ % size_);
    if (mode_ == "shuffle-cycle") {
      if (order_.empty() || at_ == order_.size()) {
        order_.resize(size_);
        for (std::size_t i = 0; i < size_; ++i) order_[i] = static_cast<int>(i);
        core::shuffle(order_, rng_);
        at_ = 0;
      }
      return order_[at_++];
    }
    return static_cast<int>(core::uniform_index(rng_, size_));
  }

 private:
  std::string mode_;
  std::size_t size_;
  std::mt19937_64& rng_;
  std::vector<int> order_;
  std::size_t at_ = 0, count_ = 0;
};

template <typename T>
const T& pick(const std::vector<T>& v, std::mt19937_64& rng) {
  return v[static_cast<std::size_t>(core::uniform_index(rng, v.size()))];
}

// Every draw, in conversation and turn order, from one stream per quantity.
std::vector<MediaJob> plan_media(Dataset& ds, const config::MediaConfig& m,
                                 const core::RngFactory& rngs, const PicturePool& pictures) {
  auto dims = rngs.stream("dataset.image.dimensions");
  auto formats = rngs.stream("dataset.image.format");
  auto sources = rngs.stream("dataset.image.source");
  auto lengths = rngs.stream("dataset.audio.length");
  auto audio_picks = rngs.stream("dataset.audio.rate_depth");
  auto seeds = rngs.stream("dataset.media.content");
  std::optional<PoolWalk> walk;
  if (pictures.pool) walk.emplace(m.image.sampling, pictures.pool->size(), sources);
  std::vector<MediaJob> jobs;
  for (auto& conv : ds.conversations) {
    for (auto& turn : conv.turns) {
      for (int i = 0; m.image.enabled() && i < m.image.batch; ++i) {
        MediaJob j{MediaItem::Kind::kImage, &turn, turn.media.size(), seeds()};
        j.width = core::sample_positive_normal_int(dims, m.image.width_mean, m.image.width_stddev);
        j.height =
            core::sample_positive_normal_int(dims, m.image.height_mean, m.image.height_stddev);
        const bool png = m.image.format == "png" ||
                         (m.image.format == "random" && core::uniform_index(formats, 2) == 0);
        j.format = png ? media::ImageFormat::kPng : media::ImageFormat::kJpeg;
        if (walk) j.source = walk->next();
        turn.media.push_back({MediaItem::Kind::kImage});
        jobs.push_back(j);
      }
      for (int i = 0; m.audio.enabled() && i < m.audio.batch; ++i) {
        MediaJob j{MediaItem::Kind::kAudio, &turn, turn.media.size(), seeds()};
        j.seconds =
            std::max(0.01, core::normal(lengths, m.audio.length_mean, m.audio.length_stddev));
        j.sample_rate = pick(m.audio.sample_rates_hz, audio_picks);
        j.bits = pick(m.audio.depths, audio_picks);
        turn.media.push_back({MediaItem::Kind::kAudio});
        jobs.push_back(j);
      }
      for (int i = 0; m.video.enabled() && i < m.video.batch; ++i) {
        jobs.push_back({MediaItem::Kind::kVideo, &turn, turn.media.size(), seeds()});
        turn.media.push_back({MediaItem::Kind::kVideo});
      }
    }
  }
  return jobs;
}

media::VideoSpec video_spec(const config::VideoInputConfig& v) {
  media::VideoSpec s;
  s.width = v.width;
  s.height = v.height;
  s.fps = v.fps;
  s.duration_s = v.duration_s;
  s.synth = v.synth == "grid_clock" ? media::VideoSynth::kGridClock
            : v.synth == "noise"    ? media::VideoSynth::kNoise
                                    : media::VideoSynth::kMovingShapes;
  s.format = v.format;
  s.codec = v.codec;
  s.audio_channels = v.audio_channels;
  s.audio_sample_rate = v.audio_sample_rate_hz;
  s.audio_codec = v.audio_codec;
  s.audio_bits = v.audio_depth;
  return s;
}

core::Result<MediaItem> make_one(const MediaJob& j, const config::MediaConfig& m,
                                 const PicturePool& pictures, const media::VideoSpec& video) {
  std::mt19937_64 rng(j.seed);
  MediaItem out{j.kind};
  switch (j.kind) {
    case MediaItem::Kind::kImage: {
      const media::RgbImage img =
          j.source < 0 ? media::noise_image(j.width, j.height, rng)
                       : media::resize_image((*pictures.pool)[static_cast<std::size_t>(j.source)],
                                             j.width, j.height);
      const std::string bytes = media::encode_image(img, j.format);
      if (bytes.empty()) {  // libjpeg stops at 65,500 pixels a side
        return core::Error{core::ErrorKind::kConfig,
                           fmt::format("a {}x{} picture cannot be encoded as {}", j.width, j.height,
                                       media::image_format_name(j.format)),
                           "", 0, "--image-width-mean"};
      }
      out.url = fmt::format("data:{};base64,{}", media::image_mime_type(j.format),
                            core::base64_encode(bytes));
      return out;
    }
    case MediaItem::Kind::kAudio: {
      const auto clip = media::noise_clip(j.seconds, j.sample_rate, j.bits, m.audio.channels, rng);
      out.audio_format = m.audio.format;
      if (m.audio.format == "mp3") {
        auto mp3 = media::encode_mp3(clip);
        if (!mp3) return mp3.error();
        out.audio_data = core::base64_encode(*mp3);
      } else {
        out.audio_data = core::base64_encode(media::encode_wav(clip));
      }
      return out;
    }
    case MediaItem::Kind::kVideo: {
      auto bytes = media::encode_video(video, rng);
      if (!bytes) return bytes.error();
      out.url = fmt::format("data:{};base64,{}", media::video_mime_type(video.format),
                            core::base64_encode(*bytes));
      return out;
    }
  }
  return out;
}

}  // namespace

std::optional<core::Error> add_synthetic_media(Dataset& ds, const config::MediaConfig& m,
                                               const core::RngFactory& rngs,
                                               std::uint64_t memory_budget, int threads) {
  if (!m.any()) return std::nullopt;
  const media::VideoSpec video = video_spec(m.video);
  if (m.video.enabled()) {
    if (auto missing = media::missing_video_support(video))
      return core::Error{core::ErrorKind::kConfig, *missing, "", 0, ""};
  }
  PicturePool pictures;
  if (m.image.enabled()) {
    auto loaded = load_pictures(m.image, memory_budget);
    if (!loaded) return loaded.error();
    pictures = std::move(*loaded);
    if (!pictures.owned.empty()) pictures.pool = &pictures.owned;  // moved: point at ours
  }
  const std::vector<MediaJob> jobs = plan_media(ds, m, rngs, pictures);
  std::atomic<std::size_t> next{0};
  std::mutex mu;
  std::optional<core::Error> first_error;
  auto work = [&] {
    for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < jobs.size();) {
      auto item = make_one(jobs[i], m, pictures, video);
      if (!item) {
        const std::lock_guard lock(mu);
        if (!first_error) first_error = item.error();
        next.store(jobs.size());  // stop the others at their next job
        return;
      }
      jobs[i].turn->media[jobs[i].slot] = std::move(*item);
    }
  };
  if (threads <= 0) threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  run_on_threads(std::min<int>(threads, static_cast<int>(jobs.size()) + 1), work);
  return first_error;
}

MediaEstimate estimate_media(const config::MediaConfig& m) {
  constexpr double kBase64 = 4.0 / 3.0;
  MediaEstimate e;
  if (m.image.enabled()) {
    // Noise pictures do not compress: about 3 bytes a pixel whatever the format.
    const double w = m.image.width_mean + 3 * m.image.width_stddev;
    const double h = m.image.height_mean + 3 * m.image.height_stddev;
    e.per_turn += m.image.batch * m.image.width_mean * m.image.height_mean * 3 * kBase64;
    e.working = std::max(e.working, w * h * 3 * 2);  // the picture and its encoding
  }
  if (m.audio.enabled()) {
    const int rate =
        *std::max_element(m.audio.sample_rates_hz.begin(), m.audio.sample_rates_hz.end());
    const int bits = *std::max_element(m.audio.depths.begin(), m.audio.depths.end());
    const double clip = m.audio.length_mean * rate * m.audio.channels * bits / 8.0;
    e.per_turn += m.audio.batch * clip * kBase64;
    const double longest =
        (m.audio.length_mean + 3 * m.audio.length_stddev) * rate * m.audio.channels;
    e.working = std::max(e.working, longest * (sizeof(float) + bits / 8.0));
  }
  if (m.video.enabled()) {
    // A frame of noise costs about its raw size; synthetic shapes a fraction of it.
    const double frame = static_cast<double>(m.video.width) * m.video.height * 3;
    const double frames = std::max(1.0, std::floor(m.video.duration_s * m.video.fps));
    const double share = m.video.synth == "noise" ? 1.0 : 0.1;
    e.per_turn += m.video.batch * frame * frames * share * kBase64;
    e.working = std::max(e.working, frame * 4 + frame * frames * share);
  }
  return e;
}

}  // namespace inferperf::dataset
