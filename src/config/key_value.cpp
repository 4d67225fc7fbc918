#include "config/key_value.hpp"

#include <cctype>

#include "core/http_token.hpp"

namespace inferperf::config {

namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool is_int_literal(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  if (i >= s.size()) return false;
  if (s[i] == '0' && s.size() - i > 1) return false;
  for (std::size_t k = i; k < s.size(); ++k)
    if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
  return true;
}

bool is_decimal_literal(std::string_view s) {
  std::size_t i = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  int dots = 0, digits = 0;
  for (std::size_t k = i; k < s.size(); ++k) {
    if (s[k] == '.') {
      ++dots;
    } else if (std::isdigit(static_cast<unsigned char>(s[k]))) {
      ++digits;
    } else {
      return false;
    }
  }
  return dots == 1 && digits > 0;
}
}  // namespace

nlohmann::json coerce_value(std::string_view text) {
  std::string lower;
  for (char c : text)
    lower.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  if (lower == "true") return true;
  if (lower == "false") return false;
  if (lower == "none" || lower == "null") return nullptr;
  if (is_int_literal(text)) {
    try {
      return std::stoll(std::string(text));
    } catch (const std::out_of_range&) {
      return std::string(text);
    }
  }
  if (is_decimal_literal(text)) return std::stod(std::string(text));
  return std::string(text);
}

core::Result<std::vector<std::pair<std::string, nlohmann::json>>> parse_key_values(
    std::string_view item, std::string_view flag, bool coerce, bool hide_values) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  auto fail = [&](const std::string& why) {
    return core::Error{core::ErrorKind::kConfig, std::string(flag) + ": " + why};
  };
  // What an error may show of the user's text.
  auto shown = [&](std::string_view text) {
    std::string s(text);
    if (hide_values) {
      const auto cut = s.find_first_of(" \t:");
      if (cut != std::string::npos && cut + 1 < s.size()) s = s.substr(0, cut + 1) + "...";
    }
    return "'" + s + "'";
  };
  std::string_view t = trim(item);
  if (!t.empty() && (t.front() == '{' || t.front() == '[' || t.front() == '"')) {
    // ordered_json keeps the keys in the order the user wrote them.
    nlohmann::ordered_json j;
    try {
      j = nlohmann::ordered_json::parse(t);
    } catch (const nlohmann::json::parse_error& e) {
      std::string reason = e.what();
      if (auto p = reason.find("parse error"); p != std::string::npos) reason = reason.substr(p);
      return fail("invalid JSON object " + shown(t) + ": " + reason);
    }
    if (!j.is_object()) {
      return fail("expected a JSON object or key:value pairs, got a JSON " +
                  std::string(j.type_name()) + " " + shown(t));
    }
    for (auto& [k, v] : j.items()) {
      if (trim(k).empty()) return fail("empty key in the JSON object");
      out.emplace_back(k, coerce ? nlohmann::json::parse(v.dump())
                                 : nlohmann::json(v.is_string() ? v.get<std::string>() : v.dump()));
    }
    return out;
  }
  std::size_t pos = 0;
  while (pos <= t.size()) {
    std::size_t comma = t.find(',', pos);
    std::string_view part =
        trim(t.substr(pos, comma == std::string_view::npos ? t.npos : comma - pos));
    pos = comma == std::string_view::npos ? t.size() + 1 : comma + 1;
    if (part.empty()) continue;
    auto colon = part.find(':');
    if (colon == std::string_view::npos)
      return fail("expected key:value, got " + shown(part) + " (no ':')");
    std::string key(trim(part.substr(0, colon)));
    std::string_view value = trim(part.substr(colon + 1));
    if (key.empty()) return fail("expected key:value, got " + shown(part) + " (empty key)");
    if (value.empty()) {
      return fail("expected key:value, got " + shown(part) +
                  " (empty value; a JSON object such as {\"" + key +
                  "\": \"\"} gives an empty string)");
    }
    out.emplace_back(key, coerce ? coerce_value(value) : nlohmann::json(std::string(value)));
  }
  return out;
}

std::string header_problem(std::string_view name, std::string_view value) {
  if (name.empty()) return "empty header name";
  for (char ch : name) {
    if (!core::is_http_token_char(ch)) {
      std::string shown;
      for (char n : name) shown += std::isprint(static_cast<unsigned char>(n)) ? n : '?';
      return "header name '" + shown +
             "' may only hold letters, digits and !#$%&'*+-.^_`|~ (no spaces or control "
             "characters)";
    }
  }
  for (char ch : value) {
    const auto c = static_cast<unsigned char>(ch);
    if (c == '\r' || c == '\n' || c == 0) {
      return "the value of header " + std::string(name) +
             " holds a line break or NUL (it could inject headers or requests); refused";
    }
    if ((c < 0x20 && c != '\t') || c == 0x7F)
      return "the value of header " + std::string(name) + " holds a control character";
  }
  return "";
}

}  // namespace inferperf::config
