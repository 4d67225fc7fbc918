#include "config/key_value.hpp"

#include <cctype>

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
    std::string_view item, std::string_view flag, bool coerce) {
  std::vector<std::pair<std::string, nlohmann::json>> out;
  std::string_view t = trim(item);
  if (!t.empty() && t.front() == '{') {
    // ordered_json keeps the keys in the order the user wrote them.
    auto j = nlohmann::ordered_json::parse(t, nullptr, false);
    if (j.is_discarded() || !j.is_object()) {
      return core::Error{core::ErrorKind::kConfig,
                         std::string(flag) + ": invalid JSON object '" + std::string(t) + "'"};
    }
    for (auto& [k, v] : j.items()) {
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
    if (colon == std::string_view::npos || colon == 0) {
      return core::Error{
          core::ErrorKind::kConfig,
          std::string(flag) + ": expected key:value, got '" + std::string(part) + "'"};
    }
    std::string key(trim(part.substr(0, colon)));
    std::string_view value = trim(part.substr(colon + 1));
    out.emplace_back(key, coerce ? coerce_value(value) : nlohmann::json(std::string(value)));
  }
  return out;
}

}  // namespace inferperf::config
