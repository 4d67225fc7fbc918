// The media a chat request carries (OpenAI content parts: image_url, input_audio, video_url),
// decoded with FFmpeg (media/inspect.hpp) and checked against what the request declares, so the
// client's synthetic images, audio and video are proven end to end. A bad item makes the request a
// 400; good ones are counted on /metrics and, with --media-log, written one JSONL line per request.
// The walk is a pure function, unit-tested without sockets.
#pragma once
#include <nlohmann/json_fwd.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "media/inspect.hpp"

namespace inferperf::mock {

enum class MediaKind { kImage, kAudio, kVideo };
// "image" | "audio" | "video".
std::string_view media_kind_name(MediaKind k);

// One content part that carries media, in request order.
struct MediaItem {
  MediaKind kind = MediaKind::kImage;
  bool url = false;       // an http(s) URL: counted, never fetched nor decoded
  std::string declared;   // png | jpeg | wav | mp3 | webm | mp4 (the MIME type or `format`)
  std::size_t bytes = 0;  // the decoded (base64-free) size
  media::MediaInfo info;  // what decoding found (container == declared)
};

struct MediaReport {
  std::vector<MediaItem> items;  // the items checked before any error, in content-part order
  std::string error;             // "" when every item is well-formed; else names the bad one
  bool ok() const { return error.empty(); }
};

// Whether the body text may carry media parts at all (a substring check): bodies without any are
// never parsed nor walked.
bool may_carry_media(std::string_view body);

// Walks messages[*].content arrays of a parsed chat body. A data: URI must say ";base64,"; its
// base64 must be strict (RFC 4648 alphabet and padding); the declared format must be one of
// the kind's (image png|jpeg, audio wav|mp3, video webm|mp4) and what decoding finds; the bytes
// must decode completely. The first bad item stops the walk. A body that is not an object, or
// carries no media, gives an empty report.
MediaReport check_chat_media(const nlohmann::json& body);

// {"request":N,["x_request_id":ID,]"items":[{"kind":..,"declared":..,"container":..,...},...]}
// (no trailing newline); each item has the fields of its kind (docs/mock-server.md, Media).
std::string media_log_line(std::int64_t request, const MediaReport& r,
                           std::optional<std::string_view> x_request_id = std::nullopt);

// The /metrics counters of checked media. Thread-safe.
class MediaCounters {
 public:
  // Counts a request's items (one with none counts nothing); returns the request's number among
  // those that carried media (1, 2, ...), 0 when it carried none.
  std::int64_t count(const MediaReport& r);
  void rejected();
  // The Prometheus text of every counter (HELP and TYPE lines included).
  std::string page() const;

 private:
  static constexpr std::array<std::string_view, 6> kFormats = {"png", "jpeg", "wav",
                                                               "mp3", "webm", "mp4"};
  mutable std::mutex mu_;
  std::array<std::int64_t, kFormats.size()> items_{};  // decoded items by container
  std::array<std::int64_t, 3> url_items_{};            // URL items by kind
  std::int64_t requests_ = 0, rejected_ = 0, bytes_ = 0, pixels_ = 0, video_frames_ = 0;
  double audio_seconds_ = 0;
};

// --media-log: lines appended whole under a mutex and flushed at once, so the file is complete
// while the server still runs.
class MediaLog {
 public:
  // Opens `path` for appending; throws std::runtime_error when it cannot.
  explicit MediaLog(const std::string& path);
  ~MediaLog();
  MediaLog(const MediaLog&) = delete;
  MediaLog& operator=(const MediaLog&) = delete;
  // Writes `line` and a newline.
  void append(std::string_view line);

 private:
  std::mutex mu_;
  std::FILE* file_ = nullptr;
};

// The chat route's check: nullopt when the body carries no media or only good media, else the
// error for the 400. `counters` (null for inferperf's preflight, which is never counted) counts
// the items or the rejection; `log` (null without --media-log) gets the request's line.
std::optional<std::string> screen_chat_media(std::string_view body, MediaCounters* counters,
                                             MediaLog* log,
                                             std::optional<std::string_view> x_request_id);

}  // namespace inferperf::mock
