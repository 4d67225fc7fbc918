#include "dataset/input_file.hpp"

#include <fmt/format.h>

#include <fstream>
#include <sstream>

namespace inferperf::dataset {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;

namespace {

core::Error input_error(const std::string& file, int line, std::string message) {
  return core::Error{core::ErrorKind::kInput, std::move(message), file, line, ""};
}

// Length of the valid UTF-8 sequence starting at s[i], or 0 when it is not one.
std::size_t utf8_sequence(std::string_view s, std::size_t i) {
  const auto b = static_cast<unsigned char>(s[i]);
  if (b < 0x80) return 1;
  std::size_t n = 0;
  std::uint32_t cp = 0;
  if ((b & 0xE0) == 0xC0) {
    n = 2, cp = b & 0x1F;
  } else if ((b & 0xF0) == 0xE0) {
    n = 3, cp = b & 0x0F;
  } else if ((b & 0xF8) == 0xF0) {
    n = 4, cp = b & 0x07;
  } else {
    return 0;
  }
  if (i + n > s.size()) return 0;
  for (std::size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (c & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000)) return 0;
  if ((cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) return 0;
  return n;
}

bool blank(std::string_view line) {
  return line.find_first_not_of(" \t\r") == std::string_view::npos;
}

}  // namespace

bool is_lfs_pointer(std::string_view content) {
  return content.starts_with("version https://git-lfs.github.com/spec/");
}

std::optional<TextPosition> find_invalid_utf8(std::string_view s) {
  int line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence(s, i);
    if (n == 0) return TextPosition{line, static_cast<int>(i - line_start) + 1, i};
    if (s[i] == '\n') ++line, line_start = i + 1;
    i += n;
  }
  return std::nullopt;
}

namespace {

// "a mooncake_trace dataset", or "a dataset" when the type is not known yet.
std::string dataset_noun(std::string_view what) {
  return what == "dataset" || what.empty() ? std::string("a dataset")
                                           : fmt::format("a {} dataset", what);
}

}  // namespace

core::Result<std::string> read_input_file(const fs::path& path, std::string_view what) {
  const std::string file = path.string();
  std::error_code ec;
  if (!fs::exists(path, ec)) return input_error(file, 0, "the file does not exist");
  if (fs::is_directory(path, ec)) {
    return input_error(file, 0,
                       fmt::format("is a folder, but {} is a single file", dataset_noun(what)));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return input_error(file, 0, "cannot be opened for reading");
  std::ostringstream buf;
  buf << in.rdbuf();
  std::string content = std::move(buf).str();
  if (content.starts_with("\xEF\xBB\xBF")) content.erase(0, 3);  // a UTF-8 byte-order mark
  if (is_lfs_pointer(content)) {
    return input_error(
        file, 1,
        "is a Git LFS pointer, not the data it points at: fetch the real file with "
        "'git lfs pull' in its repository, or download it from the media URL "
        "(https://media.githubusercontent.com/media/<owner>/<repo>/<ref>/<path>) instead of "
        "raw.githubusercontent.com");
  }
  if (content.find_first_not_of(" \t\r\n") == std::string::npos)
    return input_error(file, 0,
                       fmt::format("is empty: {} needs at least one entry", dataset_noun(what)));
  if (auto bad = find_invalid_utf8(content)) {
    return input_error(file, bad->line,
                       fmt::format("invalid UTF-8 at column {} (byte 0x{:02x}); the file must be "
                                   "UTF-8 text",
                                   bad->column, static_cast<unsigned char>(content[bad->offset])));
  }
  return content;
}

core::Error json_syntax_error(const std::string& file, int line, std::string_view text,
                              std::size_t byte_position, std::string_view reason) {
  // nlohmann reports the 1-based byte it stopped at; show some text before and after it.
  const std::size_t at = byte_position == 0 ? 0 : std::min(byte_position - 1, text.size());
  const std::size_t from = at > 30 ? at - 30 : 0;
  std::string near(text.substr(from, std::min<std::size_t>(60, text.size() - from)));
  while (!near.empty() && (near.back() == '\r' || near.back() == '\n')) near.pop_back();
  return input_error(file, line,
                     fmt::format("invalid JSON at column {}: {} (near '{}')", at + 1,
                                 core::excerpt(reason), core::excerpt(near)));
}

std::string json_exception_reason(const nlohmann::json::exception& e) {
  std::string_view what = e.what();
  if (!what.empty() && what.front() == '[') {
    if (const auto close = what.find("] "); close != std::string_view::npos)
      what.remove_prefix(close + 2);
  }
  // nlohmann quotes the token it stopped in: an unterminated string is the rest of the line.
  return core::excerpt(what);
}

std::optional<core::Error> for_each_json_line(std::string_view content, const std::string& file,
                                              const JsonLineFn& fn) {
  int line_no = 0;
  std::size_t pos = 0;
  while (pos < content.size()) {
    std::size_t end = content.find('\n', pos);
    if (end == std::string_view::npos) end = content.size();
    const std::string_view line = content.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (blank(line)) continue;
    json value;
    try {
      value = json::parse(line);
    } catch (const json::parse_error& e) {
      std::string reason = e.what();
      // "[json.exception.parse_error.101] parse error at line 1, column 5: syntax error ..."
      if (auto colon = reason.find(": ", reason.find("column")); colon != std::string::npos)
        reason = reason.substr(colon + 2);
      return json_syntax_error(file, line_no, line, e.byte, reason);
    } catch (const json::exception& e) {
      return input_error(file, line_no, "invalid JSON: " + json_exception_reason(e));
    }
    if (!value.is_object()) {
      return input_error(file, line_no,
                         fmt::format("expected a JSON object, got {}", json_type_name(value)));
    }
    if (auto err = fn(line_no, value)) return err;
  }
  return std::nullopt;
}

core::Result<json> first_json_line(std::string_view content, const std::string& file) {
  std::optional<json> first;
  auto err = for_each_json_line(content, file, [&](int, json& v) -> std::optional<core::Error> {
    first = std::move(v);
    return core::Error{};  // stop after the first line
  });
  if (first) return std::move(*first);
  if (err) return *err;
  return input_error(file, 0, "holds no JSON line");
}

std::string json_type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "a list";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::number_float:
      return "a fractional number";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
      return "an integer";
    default:
      return "an unsupported value";
  }
}

}  // namespace inferperf::dataset
