#include "dataset/media.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "core/base64.hpp"

namespace inferperf::dataset {

namespace fs = std::filesystem;

namespace {

const std::map<std::string, std::string> kMime = {
    {"png", "image/png"}, {"jpg", "image/jpeg"},  {"jpeg", "image/jpeg"},
    {"gif", "image/gif"}, {"webp", "image/webp"}, {"bmp", "image/bmp"},
    {"mp4", "video/mp4"}, {"webm", "video/webm"}, {"mov", "video/quicktime"},
    {"wav", "audio/wav"}, {"mp3", "audio/mpeg"},  {"flac", "audio/flac"},
    {"ogg", "audio/ogg"}};

std::string lower(std::string s) {
  for (auto& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

bool is_remote(std::string_view v) {
  return v.starts_with("http://") || v.starts_with("https://") || v.starts_with("data:");
}

// "wav,UklGR..." / "png,iVBOR...": a format and base64 data in one string.
std::optional<std::pair<std::string, std::string>> format_and_data(const std::string& v) {
  const auto comma = v.find(',');
  if (comma == std::string::npos || comma > 5) return std::nullopt;
  const std::string format = lower(v.substr(0, comma));
  if (!kMime.count(format)) return std::nullopt;
  return std::make_pair(format, v.substr(comma + 1));
}

std::optional<core::Error> read_local(const std::string& value, const fs::path& dataset_dir,
                                      const LineContext& at, const std::string& field,
                                      std::string& format, std::string& bytes) {
  fs::path p = value;
  std::error_code ec;
  if (p.is_relative() && !fs::exists(p, ec) && fs::exists(dataset_dir / p, ec)) p = dataset_dir / p;
  if (!fs::is_regular_file(p, ec)) {
    return at.error(field, "'" + core::excerpt(value) +
                               "' is not a URL, a data: URI or a readable file (relative paths "
                               "are tried from the working directory, then the dataset's folder)");
  }
  format = lower(p.extension().string());
  if (!format.empty()) format.erase(0, 1);
  if (!kMime.count(format))
    return at.error(field, "'" + core::excerpt(value) + "' has an unknown media type (extension '" +
                               core::excerpt(format) + "')");
  std::ifstream in(p, std::ios::binary);
  std::ostringstream buf;
  if (!in || !(buf << in.rdbuf()) || in.bad())
    return at.error(field, "'" + core::excerpt(value) + "' cannot be read");
  bytes = std::move(buf).str();
  return std::nullopt;
}

std::optional<core::Error> add_item(const std::string& value, MediaItem::Kind kind,
                                    const fs::path& dataset_dir, const LineContext& at,
                                    const std::string& field, Turn& out) {
  MediaItem item;
  item.kind = kind;
  std::string format, data;
  if (kind != MediaItem::Kind::kAudio && is_remote(value)) {
    item.url = value;
  } else if (auto fd = format_and_data(value)) {
    format = fd->first;
    data = fd->second;
  } else if (kind == MediaItem::Kind::kAudio && value.starts_with("data:")) {
    // data:audio/wav;base64,XXXX
    const auto slash = value.find('/'), semi = value.find(';'), comma = value.find(',');
    if (slash == std::string::npos || semi == std::string::npos || comma == std::string::npos)
      return at.error(field, "malformed data: URI");
    format = slash < semi ? lower(value.substr(slash + 1, semi - slash - 1)) : std::string();
    if (format == "mpeg") format = "mp3";
    if (!kMime.count(format) || !kMime.at(format).starts_with("audio/"))
      return at.error(
          field, "unknown audio type in data: URI '" + core::excerpt(value.substr(0, comma)) + "'");
    data = value.substr(comma + 1);
  } else if (kind == MediaItem::Kind::kAudio && is_remote(value)) {
    return at.error(field, "audio must be a local file or base64 data (\"wav,<base64>\")");
  } else {
    std::string bytes;
    if (auto e = read_local(value, dataset_dir, at, field, format, bytes)) return e;
    data = core::base64_encode(bytes);
  }
  if (item.url.empty()) {
    if (kind == MediaItem::Kind::kAudio) {
      item.audio_format = format;
      item.audio_data = std::move(data);
    } else {
      item.url = "data:" + kMime.at(format) + ";base64," + data;
    }
  }
  out.media.push_back(std::move(item));
  return std::nullopt;
}

}  // namespace

std::optional<core::Error> parse_media(const ojson& j, const LineContext& at,
                                       const std::string& where, const fs::path& dataset_dir,
                                       Turn& out) {
  struct Field {
    const char* one;
    const char* many;
    MediaItem::Kind kind;
  };
  for (const Field f : {Field{"image", "images", MediaItem::Kind::kImage},
                        Field{"audio", "audios", MediaItem::Kind::kAudio},
                        Field{"video", "videos", MediaItem::Kind::kVideo}}) {
    const bool one = j.contains(f.one), many = j.contains(f.many);
    if (one && many) {
      return at.error(where + f.one,
                      std::string("'") + f.one + "' and '" + f.many + "' are mutually exclusive");
    }
    if (one) {
      if (!j[f.one].is_string())
        return at.error(where + f.one, std::string("'") + f.one + "' must be a string");
      if (auto e =
              add_item(j[f.one].get<std::string>(), f.kind, dataset_dir, at, where + f.one, out))
        return e;
    } else if (many) {
      const ojson& list = j[f.many];
      if (!list.is_array())
        return at.error(where + f.many, std::string("'") + f.many + "' must be a list of strings");
      for (std::size_t i = 0; i < list.size(); ++i) {
        const std::string field = where + f.many + "[" + std::to_string(i) + "]";
        if (!list[i].is_string()) return at.error(field, "must be a string");
        if (auto e = add_item(list[i].get<std::string>(), f.kind, dataset_dir, at, field, out))
          return e;
      }
    }
  }
  if (j.contains("image_uuids")) {
    const ojson& ids = j["image_uuids"];
    std::vector<MediaItem*> images;
    for (auto& m : out.media)
      if (m.kind == MediaItem::Kind::kImage) images.push_back(&m);
    if (!ids.is_array() || ids.size() != images.size()) {
      return at.error(where + "image_uuids", "must be a list with one string per image (" +
                                                 std::to_string(images.size()) + " images)");
    }
    for (std::size_t i = 0; i < images.size(); ++i) {
      if (!ids[i].is_string()) return at.error(where + "image_uuids", "must hold strings");
      images[i]->uuid = ids[i].get<std::string>();
    }
  }
  return std::nullopt;
}

}  // namespace inferperf::dataset
