#include "endpoint/template_render.hpp"

#include <cctype>
#include <charconv>

namespace inferperf::endpoint {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

core::Error bad(std::string message) {
  return core::Error{core::ErrorKind::kConfig, std::move(message), "", 0, "payload_template"};
}

}  // namespace

std::optional<std::vector<PathStep>> parse_field_path(std::string_view var) {
  std::vector<PathStep> steps;
  std::size_t k = 0;
  var = trim(var);
  while (k < var.size()) {
    if (var[k] == '.' && !steps.empty()) {
      ++k;
      continue;
    }
    if (var[k] == '[') {
      const std::size_t close = var.find(']', k);
      if (close == std::string_view::npos) return std::nullopt;
      std::string_view inner = trim(var.substr(k + 1, close - k - 1));
      PathStep step;
      if (inner.size() >= 2 && (inner.front() == '\'' || inner.front() == '"') &&
          inner.back() == inner.front()) {
        step.key = std::string(inner.substr(1, inner.size() - 2));
      } else {
        const auto [end, ec] =
            std::from_chars(inner.data(), inner.data() + inner.size(), step.index);
        if (ec != std::errc() || end != inner.data() + inner.size() || inner.empty())
          return std::nullopt;
        step.is_index = true;
      }
      steps.push_back(std::move(step));
      k = close + 1;
      continue;
    }
    std::size_t e = k;
    while (e < var.size() && ident_char(var[e])) ++e;
    if (e == k) return std::nullopt;
    steps.push_back(PathStep{std::string(var.substr(k, e - k)), 0, false});
    k = e;
  }
  if (steps.empty() || steps.front().is_index) return std::nullopt;
  return steps;
}

std::vector<std::string> PayloadTemplate::variables() const {
  std::vector<std::string> out;
  for (const auto& p : pieces_) {
    if (!p.path.empty()) out.push_back(p.path.front().key);
  }
  return out;
}

core::Result<PayloadTemplate> PayloadTemplate::parse(std::string_view source) {
  PayloadTemplate t;
  Piece current;
  std::size_t i = 0;
  while (i < source.size()) {
    if (source.compare(i, 2, "{%") == 0) {
      return bad(
          "payload templates support {{ expressions }} only; statements ({% ... %}) "
          "are not supported");
    }
    if (source.compare(i, 2, "{#") == 0) {
      const std::size_t end = source.find("#}", i + 2);
      if (end == std::string_view::npos) return bad("unterminated {# comment in payload template");
      i = end + 2;
      continue;
    }
    if (source.compare(i, 2, "{{") != 0) {
      current.literal += source[i++];
      continue;
    }
    const std::size_t end = source.find("}}", i + 2);
    if (end == std::string_view::npos) return bad("unterminated {{ in payload template");
    std::string_view expr = trim(source.substr(i + 2, end - i - 2));
    i = end + 2;
    // Filters after '|'.
    std::string_view var = expr;
    if (const auto bar = expr.find('|'); bar != std::string_view::npos) {
      var = trim(expr.substr(0, bar));
      std::string_view filters = expr.substr(bar + 1);
      while (!filters.empty()) {
        const auto next = filters.find('|');
        std::string_view f = trim(filters.substr(0, next));
        if (f == "tojson") {
          current.tojson = true;
        } else {
          return bad("payload template filter '" + std::string(f) +
                     "' is not supported (only tojson)");
        }
        filters = next == std::string_view::npos ? "" : filters.substr(next + 1);
      }
    }
    auto path = parse_field_path(var);
    if (!path) return bad("cannot read expression '" + std::string(var) + "'");
    current.path = std::move(*path);
    if (current.path.empty()) return bad("empty {{ }} in payload template");
    t.pieces_.push_back(std::move(current));
    current = Piece{};
  }
  t.pieces_.push_back(std::move(current));
  return t;
}

std::string PayloadTemplate::render(const nlohmann::json& variables) const {
  std::string out;
  static const nlohmann::json kNull;
  for (const auto& p : pieces_) {
    out += p.literal;
    if (p.path.empty()) continue;
    const nlohmann::json* v = &variables;
    for (const auto& s : p.path) {
      if (!s.is_index && v->is_object() && v->contains(s.key)) {
        v = &(*v)[s.key];
      } else if (s.is_index && v->is_array() && s.index < v->size()) {
        v = &(*v)[s.index];
      } else {
        v = &kNull;
        break;
      }
    }
    if (v->is_string() && !p.tojson) {
      out += v->get<std::string>();
    } else {
      out += v->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
  }
  return out;
}

}  // namespace inferperf::endpoint
