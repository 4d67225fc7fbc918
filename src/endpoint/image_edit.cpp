// Image edit (/v1/images/edits, OpenAI's images edit API; SGLang, FLUX.2 serving): the turn's
// first text is the prompt and its first image the picture to edit, uploaded as a file part of a
// multipart/form-data body (an http(s) image goes as the `url` field instead). The answer is an
// image generation response: data[] items with b64_json or url.
#include <simdjson.h>

#include <array>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/multipart.hpp"
#include "endpoint/openai_common.hpp"

namespace inferperf::endpoint {

namespace {

// Base64 starts of the image formats AIPerf 0.11 recognises without a MIME type.
constexpr std::array<std::pair<std::string_view, std::string_view>, 6> kImageEditSniff = {{
    {"iVBORw0KGgo", "image/png"},
    {"/9j/", "image/jpeg"},
    {"R0lGODlh", "image/gif"},
    {"R0lGODdh", "image/gif"},
    {"UklGR", "image/webp"},
    {"Qk", "image/bmp"},
}};

bool image_edit_is_http_url(std::string_view s) {
  auto lower_starts = [&](std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i) {
      if (std::tolower(static_cast<unsigned char>(s[i])) != prefix[i]) return false;
    }
    return true;
  };
  return lower_starts("http://") || lower_starts("https://");
}

class ImageEditEndpoint final : public Endpoint {
 public:
  ImageEditEndpoint() : Endpoint(config::EndpointType::kImageEdit) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    const dataset::Turn& t = history.back();
    const dataset::MediaItem* image = first_image(t);
    if (image == nullptr) throw std::runtime_error(image_edit_needs_image());
    nlohmann::ordered_json body;
    body["prompt"] = t.text;
    body["model"] = model_of(history, o);
    body["response_format"] = "b64_json";
    body["n"] = 1;
    if (image_edit_is_http_url(image->url)) {
      body["url"] = image->url;
    } else {
      auto field = image_edit_file(image->url);
      if (!field) throw std::runtime_error(field.error().message);
      body["image"] = std::move(*field);
    }
    merge_extra(body, o);  // the reserved names were refused when the endpoint was made
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    DecodedEvent out;
    thread_local simdjson::dom::parser parser;
    simdjson::dom::object obj;
    if (!parse_object(payload, parser, obj, out)) return out;
    return decode_image_data(obj, "image edit");
  }

  static const dataset::MediaItem* first_image(const dataset::Turn& t) {
    for (const auto& m : t.media) {
      if (m.kind == dataset::MediaItem::Kind::kImage && !m.url.empty()) return &m;
    }
    return nullptr;
  }
};

}  // namespace

std::string image_edit_needs_image() {
  return "--endpoint-type image_edit edits an image: every turn needs one (an --input-file with "
         "'image' fields: a file path, a data: URL or an http(s) URL)";
}

core::Result<nlohmann::ordered_json> image_edit_file(std::string_view content) {
  std::string_view b64 = content;
  std::string mime;
  if (content.starts_with("data:")) {
    const std::size_t comma = content.find(',');
    if (comma == std::string_view::npos) {
      return core::Error{core::ErrorKind::kInput, "image data URL without a ',' before its data",
                         "", 0, "image"};
    }
    const std::string_view header = content.substr(5, comma - 5);
    b64 = content.substr(comma + 1);
    // Only an image/* type is taken from the URL; anything else is sniffed from the data.
    if (const std::size_t semi = header.find(';');
        semi != std::string_view::npos && header.starts_with("image/")) {
      mime = std::string(header.substr(0, semi));
    }
  }
  if (mime.empty()) {
    for (const auto& [prefix, type] : kImageEditSniff) {
      if (b64.starts_with(prefix)) {
        mime = std::string(type);
        break;
      }
    }
  }
  if (mime.empty()) {
    return core::Error{core::ErrorKind::kInput,
                       "the image is not a PNG, JPEG, WebP, GIF or BMP data URL or base64 image",
                       "", 0, "image"};
  }
  std::string ext = mime.substr(mime.find('/') + 1);
  ext = ext.substr(0, ext.find('+'));
  const std::string content_type = ext == "jpg" ? "image/jpeg" : mime;
  return file_field(std::string(b64), "image." + std::string(ext == "jpeg" ? "jpg" : ext),
                    content_type);
}

core::Result<std::unique_ptr<Endpoint>> make_image_edit_endpoint(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra) {
  for (const auto& [k, v] : extra) {
    if (k == "prompt" || k == "image" || k == "url" || k == "mask") {
      return core::Error{core::ErrorKind::kConfig,
                         "--extra-inputs " + k +
                             ": image_edit sets prompt, image and url from the dataset, and a "
                             "mask is a file upload, not a field",
                         "", 0, k};
    }
  }
  return std::unique_ptr<Endpoint>(std::make_unique<ImageEditEndpoint>());
}

}  // namespace inferperf::endpoint
