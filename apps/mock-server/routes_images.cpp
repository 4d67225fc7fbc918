// Image generation (/v1/images/generations): OpenAI gpt-image style, whole or streamed.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <array>

#include "core/base64.hpp"
#include "multipart_form.hpp"
#include "routes.hpp"

namespace inferperf::mock {

namespace {
using nlohmann::json;

std::uint32_t crc32(std::string_view data) {
  static const auto table = [] {
    std::array<std::uint32_t, 256> t{};
    for (std::uint32_t n = 0; n < 256; ++n) {
      std::uint32_t c = n;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320U ^ (c >> 1) : c >> 1;
      t[n] = c;
    }
    return t;
  }();
  std::uint32_t c = 0xffffffffU;
  for (const unsigned char b : data) c = table[(c ^ b) & 0xff] ^ (c >> 8);
  return c ^ 0xffffffffU;
}

void put32(std::string& s, std::uint32_t v) {
  for (int sh = 24; sh >= 0; sh -= 8) s.push_back(static_cast<char>((v >> sh) & 0xff));
}

void png_chunk(std::string& out, std::string_view type, std::string_view data) {
  put32(out, static_cast<std::uint32_t>(data.size()));
  std::string td(type);
  td.append(data);
  out += td;
  put32(out, crc32(td));
}

std::string created_json(std::int64_t created) {
  return std::to_string(created);
}
}  // namespace

std::string png_image(std::uint64_t seed, int w, int h) {
  std::string out("\x89PNG\r\n\x1a\n", 8);
  std::string ihdr;
  put32(ihdr, static_cast<std::uint32_t>(w));
  put32(ihdr, static_cast<std::uint32_t>(h));
  ihdr += std::string("\x08\x02\x00\x00\x00", 5);  // 8-bit RGB, deflate, no filter, no interlace
  png_chunk(out, "IHDR", ihdr);
  std::string raw;
  for (int y = 0; y < h; ++y) {
    raw.push_back('\0');  // filter: none
    for (int x = 0; x < w; ++x) {
      raw.push_back(static_cast<char>(seed & 0xff));
      raw.push_back(static_cast<char>((seed >> 8) & 0xff));
      raw.push_back(static_cast<char>((seed >> 16) & 0xff));
    }
  }
  // zlib: one stored (uncompressed) deflate block; raw stays far below 65535 bytes.
  std::string z("\x78\x01\x01", 3);
  const auto len = static_cast<std::uint16_t>(raw.size());
  z.push_back(static_cast<char>(len & 0xff));
  z.push_back(static_cast<char>(len >> 8));
  z.push_back(static_cast<char>(~len & 0xff));
  z.push_back(static_cast<char>((~len >> 8) & 0xff));
  z += raw;
  std::uint32_t a = 1, b = 0;
  for (const unsigned char c : raw) {
    a = (a + c) % 65521;
    b = (b + a) % 65521;
  }
  put32(z, (b << 16) | a);
  png_chunk(out, "IDAT", z);
  png_chunk(out, "IEND", "");
  return out;
}

std::optional<RouteError> parse_image_request(std::string_view body, ImageRequest& out) {
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return route_error(400, "request body is not a JSON object");
  const auto p = j.find("prompt");
  if (p == j.end() || !p->is_string()) return route_error(422, "'prompt' must be a string");
  out.prompt = p->get<std::string>();
  for (auto [key, field] :
       {std::pair{"model", &out.model}, std::pair{"size", &out.size},
        std::pair{"quality", &out.quality}, std::pair{"output_format", &out.output_format}}) {
    const auto it = j.find(key);
    if (it == j.end() || it->is_null()) continue;
    if (!it->is_string()) return route_error(422, fmt::format("'{}' must be a string", key));
    *field = it->get<std::string>();
  }
  if (out.size == "auto") out.size = "1024x1024";
  if (out.quality == "auto") out.quality = "medium";
  if (auto n = j.find("n"); n != j.end() && !n->is_null()) {
    if (!n->is_number_integer() || n->get<std::int64_t>() < 1 || n->get<std::int64_t>() > 10)
      return route_error(422, "'n' must be an integer from 1 to 10");
    out.n = static_cast<int>(n->get<std::int64_t>());
  }
  if (auto s = j.find("stream"); s != j.end() && !s->is_null()) {
    if (!s->is_boolean()) return route_error(422, "'stream' must be a boolean");
    out.stream = s->get<bool>();
  }
  if (auto pi = j.find("partial_images"); pi != j.end() && !pi->is_null()) {
    if (!pi->is_number_integer() || pi->get<std::int64_t>() < 0 || pi->get<std::int64_t>() > 3)
      return route_error(422, "'partial_images' must be an integer from 0 to 3");
    out.partial_images = static_cast<int>(pi->get<std::int64_t>());
  }
  if (auto rf = j.find("response_format");
      rf != j.end() && !rf->is_null() && (!rf->is_string() || *rf != "b64_json"))
    return route_error(422, "only response_format b64_json is supported");
  return std::nullopt;
}

namespace {

// The picture formats an edit accepts, by their first bytes.
bool image_edit_bytes_ok(std::string_view b) {
  return b.starts_with("\x89PNG\r\n\x1a\n") || b.starts_with("\xff\xd8\xff") ||
         b.starts_with("GIF87a") || b.starts_with("GIF89a") ||
         (b.starts_with("RIFF") && b.substr(8, 4) == "WEBP") || b.starts_with("BM");
}

// The form's text fields as the JSON object the generation parser reads ("n" as a number).
std::optional<RouteError> image_edit_fields(const std::vector<FormPart>& parts, json& fields,
                                            ImageEditRequest& out) {
  for (const auto& p : parts) {
    if (p.name == "image" || p.name == "image[]") {
      if (!p.filename) return route_error(422, "'image' must be a file upload");
      if (!image_edit_bytes_ok(p.data))
        return route_error(400, "'image' is not a PNG, JPEG, WebP, GIF or BMP file");
      ++out.images;
    } else if (p.name == "mask") {
      if (!p.filename || !image_edit_bytes_ok(p.data))
        return route_error(400, "'mask' must be an image file");
    } else if (p.name == "url") {
      if (!p.data.starts_with("http://") && !p.data.starts_with("https://"))
        return route_error(422, "'url' must be an http(s) URL");
      out.url = true;
    } else if (p.filename) {
      return route_error(422, fmt::format("unexpected file field '{}'", p.name));
    } else if (p.name == "n" || p.name == "partial_images") {
      const auto v = json::parse(p.data, nullptr, false);
      if (v.is_discarded() || !v.is_number_integer())
        return route_error(422, fmt::format("'{}' must be an integer", p.name));
      fields[p.name] = v;
    } else if (p.name != "stream") {
      fields[p.name] = p.data;
    }
  }
  return std::nullopt;
}

}  // namespace

std::optional<RouteError> parse_image_edit_request(std::string_view content_type,
                                                   std::string_view body, ImageEditRequest& out) {
  if (!is_multipart_form(content_type))
    return route_error(400, "image edits take a multipart/form-data body");
  std::vector<FormPart> parts;
  if (auto e = parse_multipart_form(content_type, body, parts))
    return route_error(400, "malformed multipart body: " + *e);
  json fields = json::object();
  if (auto e = image_edit_fields(parts, fields, out)) return e;
  if (out.images == 0 && !out.url) return route_error(422, "'image' is required");
  return parse_image_request(fields.dump(), out.image);
}

std::int64_t image_output_tokens(const ImageRequest& r) {
  const std::int64_t per = r.quality == "low" ? 272 : r.quality == "high" ? 4160 : 1056;
  return per * r.n;
}

std::string image_usage_json(const ImageRequest& r, std::int64_t prompt_tokens) {
  const std::int64_t out = image_output_tokens(r);
  return fmt::format(
      R"({{"input_tokens":{},"input_tokens_details":{{"text_tokens":{},"image_tokens":0}},"output_tokens":{},"total_tokens":{}}})",
      prompt_tokens, prompt_tokens, out, prompt_tokens + out);
}

namespace {
std::string image_b64(const ImageRequest& r, int variant) {
  return core::base64_encode(png_image(fnv1a(r.prompt) + static_cast<std::uint64_t>(variant)));
}
}  // namespace

std::string image_whole_json(const ImageRequest& r, std::int64_t created,
                             std::int64_t prompt_tokens) {
  std::string data;
  for (int i = 0; i < r.n; ++i) {
    fmt::format_to(std::back_inserter(data), R"({}{{"b64_json":"{}","revised_prompt":"{}"}})",
                   i ? "," : "", image_b64(r, i * 16), json_escape(r.prompt));
  }
  return fmt::format(
      R"({{"created":{},"background":"opaque","data":[{}],"size":"{}","quality":"{}","output_format":"{}","usage":{}}})",
      created_json(created), data, json_escape(r.size), json_escape(r.quality),
      json_escape(r.output_format), image_usage_json(r, prompt_tokens));
}

std::string image_partial_event(const ImageRequest& r, int index, std::int64_t created) {
  return fmt::format(
      "event: image_generation.partial_image\ndata: "
      R"({{"type":"image_generation.partial_image","b64_json":"{}","created_at":{},"size":"{}","quality":"{}","background":"opaque","output_format":"{}","partial_image_index":{}}})"
      "\n\n",
      image_b64(r, index + 1), created, json_escape(r.size), json_escape(r.quality),
      json_escape(r.output_format), index);
}

std::string image_completed_event(const ImageRequest& r, std::int64_t created,
                                  std::int64_t prompt_tokens) {
  return fmt::format(
      "event: image_generation.completed\ndata: "
      R"({{"type":"image_generation.completed","b64_json":"{}","created_at":{},"size":"{}","quality":"{}","background":"opaque","output_format":"{}","usage":{}}})"
      "\n\n",
      image_b64(r, 0), created, json_escape(r.size), json_escape(r.quality),
      json_escape(r.output_format), image_usage_json(r, prompt_tokens));
}

}  // namespace inferperf::mock
