#include "media_check.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "core/base64.hpp"

namespace inferperf::mock {

namespace {

using nlohmann::json;

std::string mc_lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The content part types that carry media, and their kinds.
std::optional<MediaKind> mc_kind_of_part(std::string_view type) {
  if (type == "image_url") return MediaKind::kImage;
  if (type == "input_audio") return MediaKind::kAudio;
  if (type == "video_url") return MediaKind::kVideo;
  return std::nullopt;
}

// The format a MIME subtype (or input_audio's `format`) names for `kind`; nullopt when the kind
// has no such format.
std::optional<std::string> mc_declared_format(MediaKind kind, std::string_view name) {
  const std::string n = mc_lower(name);
  switch (kind) {
    case MediaKind::kImage:
      if (n == "png") return "png";
      if (n == "jpeg" || n == "jpg") return "jpeg";
      break;
    case MediaKind::kAudio:
      if (n == "wav" || n == "x-wav" || n == "wave") return "wav";
      if (n == "mp3" || n == "mpeg") return "mp3";
      break;
    case MediaKind::kVideo:
      if (n == "webm" || n == "mp4") return n;
      break;
  }
  return std::nullopt;
}

// Decodes the base64 `text` of `item` (whose kind and declared format are set) and checks it.
std::optional<std::string> mc_decode_item(MediaItem& item, std::string_view text) {
  const auto bytes = core::base64_decode_strict(text);
  if (!bytes) return std::string("invalid base64");
  item.bytes = bytes->size();
  auto info = media::inspect_media(*bytes);
  if (!info.ok())
    return "declared " + item.declared + " but does not decode (" + info.error().message + ")";
  if (info->container != item.declared)
    return "declared " + item.declared + " but the bytes are " + info->container;
  if (item.kind == MediaKind::kVideo && (info->width <= 0 || info->frames <= 0))
    return "declared " + item.declared + " but has no video frames";
  if (item.kind == MediaKind::kAudio && info->sample_rate <= 0)
    return "declared " + item.declared + " but has no audio";
  item.info = std::move(*info);
  return std::nullopt;
}

// image_url / video_url: {"url": data: URI | http(s) URL} (a bare string is taken too).
std::optional<std::string> mc_url_part(const json& part, const std::string& type, MediaItem& item) {
  const auto field = part.find(type);
  const json* url = nullptr;
  if (field != part.end() && field->is_string()) url = &*field;
  if (field != part.end() && field->is_object()) {
    if (auto u = field->find("url"); u != field->end() && u->is_string()) url = &*u;
  }
  if (url == nullptr) return type + " has no url";
  const std::string_view text = url->get_ref<const std::string&>();
  if (text.starts_with("http://") || text.starts_with("https://")) {
    item.url = true;
    return std::nullopt;
  }
  if (!text.starts_with("data:")) return std::string("url is neither a data: URI nor http(s)");
  const std::size_t comma = text.find(',');
  const std::string_view head =
      text.substr(5, comma == std::string_view::npos ? std::string_view::npos : comma - 5);
  if (comma == std::string_view::npos || !head.ends_with(";base64"))
    return std::string("data URI without ;base64,");
  const std::string mime = mc_lower(head.substr(0, head.find(';')));
  const std::size_t slash = mime.find('/');
  const std::string_view kind = media_kind_name(item.kind);
  if (slash == std::string::npos || std::string_view(mime).substr(0, slash) != kind)
    return "data URI of type '" + mime + "' is no " + std::string(kind);
  auto format = mc_declared_format(item.kind, std::string_view(mime).substr(slash + 1));
  if (!format) return "unsupported " + std::string(kind) + " type '" + mime + "'";
  item.declared = std::move(*format);
  return mc_decode_item(item, text.substr(comma + 1));
}

// input_audio: {"data": base64, "format": "wav" | "mp3"}.
std::optional<std::string> mc_audio_part(const json& part, MediaItem& item) {
  const auto field = part.find("input_audio");
  if (field == part.end() || !field->is_object()) return std::string("input_audio is no object");
  const auto data = field->find("data");
  const auto format = field->find("format");
  if (data == field->end() || !data->is_string()) return std::string("input_audio has no data");
  if (format == field->end() || !format->is_string())
    return std::string("input_audio has no format");
  const std::string& name = format->get_ref<const std::string&>();
  auto declared = mc_declared_format(MediaKind::kAudio, name);
  if (!declared) return "unsupported audio format '" + name + "'";
  item.declared = std::move(*declared);
  return mc_decode_item(item, data->get_ref<const std::string&>());
}

nlohmann::ordered_json mc_item_json(const MediaItem& it) {
  nlohmann::ordered_json o;
  o["kind"] = std::string(media_kind_name(it.kind));
  if (it.url) {
    o["url"] = true;
    return o;
  }
  const media::MediaInfo& m = it.info;
  o["declared"] = it.declared;
  o["container"] = m.container;
  o["codec"] = m.codec;
  if (it.kind != MediaKind::kAudio) {
    o["width"] = m.width;
    o["height"] = m.height;
  }
  if (it.kind == MediaKind::kAudio) {
    o["sample_rate"] = m.sample_rate;
    o["channels"] = m.channels;
    o["bits"] = m.bits;
  }
  if (it.kind == MediaKind::kVideo) o["frames"] = m.frames;
  if (it.kind != MediaKind::kImage) o["duration_s"] = m.duration_s;
  if (it.kind == MediaKind::kVideo) {
    o["audio_codec"] = m.audio_codec;
    if (!m.audio_codec.empty()) {
      o["sample_rate"] = m.sample_rate;
      o["channels"] = m.channels;
    }
  }
  o["bytes"] = it.bytes;
  return o;
}

}  // namespace

std::string_view media_kind_name(MediaKind k) {
  switch (k) {
    case MediaKind::kImage:
      return "image";
    case MediaKind::kAudio:
      return "audio";
    case MediaKind::kVideo:
      return "video";
  }
  return "image";
}

bool may_carry_media(std::string_view body) {
  return body.find("image_url") != std::string_view::npos ||
         body.find("input_audio") != std::string_view::npos ||
         body.find("video_url") != std::string_view::npos;
}

MediaReport check_chat_media(const json& body) {
  MediaReport r;
  if (!body.is_object()) return r;
  const auto msgs = body.find("messages");
  if (msgs == body.end() || !msgs->is_array()) return r;
  for (std::size_t i = 0; i < msgs->size(); ++i) {
    const json& m = (*msgs)[i];
    if (!m.is_object()) continue;
    const auto content = m.find("content");
    if (content == m.end() || !content->is_array()) continue;
    for (std::size_t k = 0; k < content->size(); ++k) {
      const json& part = (*content)[k];
      if (!part.is_object()) continue;
      const auto type = part.find("type");
      if (type == part.end() || !type->is_string()) continue;
      const std::string& name = type->get_ref<const std::string&>();
      const auto kind = mc_kind_of_part(name);
      if (!kind) continue;
      MediaItem item;
      item.kind = *kind;
      auto err =
          *kind == MediaKind::kAudio ? mc_audio_part(part, item) : mc_url_part(part, name, item);
      if (err) {
        r.error = fmt::format("messages[{}].content[{}] ({}): {}", i, k, name, *err);
        return r;
      }
      r.items.push_back(std::move(item));
    }
  }
  return r;
}

std::string media_log_line(std::int64_t request, const MediaReport& r,
                           std::optional<std::string_view> x_request_id) {
  nlohmann::ordered_json line;
  line["request"] = request;
  if (x_request_id) line["x_request_id"] = std::string(*x_request_id);
  auto items = nlohmann::ordered_json::array();
  for (const MediaItem& it : r.items) items.push_back(mc_item_json(it));
  line["items"] = std::move(items);
  return line.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::int64_t MediaCounters::count(const MediaReport& r) {
  if (r.items.empty()) return 0;
  std::lock_guard lock(mu_);
  for (const MediaItem& it : r.items) {
    if (it.url) {
      ++url_items_[static_cast<std::size_t>(it.kind)];
      continue;
    }
    const auto f = std::find(kFormats.begin(), kFormats.end(), it.info.container);
    if (f != kFormats.end()) ++items_[static_cast<std::size_t>(f - kFormats.begin())];
    bytes_ += static_cast<std::int64_t>(it.bytes);
    if (it.kind == MediaKind::kImage)
      pixels_ += static_cast<std::int64_t>(it.info.width) * it.info.height;
    if (it.kind == MediaKind::kAudio) audio_seconds_ += it.info.duration_s;
    if (it.kind == MediaKind::kVideo) video_frames_ += it.info.frames;
  }
  return ++requests_;
}

void MediaCounters::rejected() {
  std::lock_guard lock(mu_);
  ++rejected_;
}

std::string MediaCounters::page() const {
  std::lock_guard lock(mu_);
  static constexpr std::array<std::string_view, kFormats.size()> kKinds = {
      "image", "image", "audio", "audio", "video", "video"};
  std::string out =
      "# HELP inferperf_mock_media_items_total Chat media parts decoded and checked, by kind and "
      "container.\n"
      "# TYPE inferperf_mock_media_items_total counter\n";
  for (std::size_t i = 0; i < kFormats.size(); ++i) {
    out += fmt::format("inferperf_mock_media_items_total{{kind=\"{}\",format=\"{}\"}} {}\n",
                       kKinds[i], kFormats[i], items_[i]);
  }
  out +=
      "# HELP inferperf_mock_media_url_items_total Chat media parts given as http(s) URLs "
      "(counted, not fetched).\n"
      "# TYPE inferperf_mock_media_url_items_total counter\n";
  for (const MediaKind k : {MediaKind::kImage, MediaKind::kVideo}) {
    out += fmt::format("inferperf_mock_media_url_items_total{{kind=\"{}\"}} {}\n",
                       media_kind_name(k), url_items_[static_cast<std::size_t>(k)]);
  }
  const auto one = [&out](std::string_view name, std::string_view help, auto value) {
    out += fmt::format("# HELP {0} {1}\n# TYPE {0} counter\n{0} {2}\n", name, help, value);
  };
  one("inferperf_mock_media_requests_total", "Chat requests carrying at least one media part.",
      requests_);
  one("inferperf_mock_media_rejected_total",
      "Chat requests answered 400 for a malformed media part.", rejected_);
  one("inferperf_mock_media_bytes_total", "Decoded bytes of the media parts (base64 removed).",
      bytes_);
  one("inferperf_mock_image_pixels_total", "Pixels of the images decoded (width x height).",
      pixels_);
  one("inferperf_mock_audio_seconds_total", "Seconds of audio decoded.", audio_seconds_);
  one("inferperf_mock_video_frames_total", "Video frames decoded.", video_frames_);
  return out;
}

MediaLog::MediaLog(const std::string& path) : file_(std::fopen(path.c_str(), "a")) {
  if (file_ == nullptr) throw std::runtime_error("cannot open --media-log " + path);
}

MediaLog::~MediaLog() {
  std::fclose(file_);
}

void MediaLog::append(std::string_view line) {
  std::lock_guard lock(mu_);
  std::fwrite(line.data(), 1, line.size(), file_);
  std::fputc('\n', file_);
  std::fflush(file_);
}

std::optional<std::string> screen_chat_media(std::string_view body, MediaCounters* counters,
                                             MediaLog* log,
                                             std::optional<std::string_view> x_request_id) {
  if (!may_carry_media(body)) return std::nullopt;
  const json j = json::parse(body, nullptr, false);
  if (j.is_discarded()) return std::nullopt;  // the route's own parser answers that
  const MediaReport r = check_chat_media(j);
  if (!r.ok()) {
    if (counters != nullptr) counters->rejected();
    return r.error;
  }
  if (r.items.empty() || counters == nullptr) return std::nullopt;
  const std::int64_t n = counters->count(r);
  if (log != nullptr) log->append(media_log_line(n, r, x_request_id));
  return std::nullopt;
}

}  // namespace inferperf::mock
