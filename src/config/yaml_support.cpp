#include "config/yaml_support.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "config/cli_scan.hpp"

namespace inferperf::config::yaml {

std::string snake_key(std::string_view key) {
  std::string out;
  for (const char c : key) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (!out.empty()) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

std::string suggest_key(std::string_view typed, std::initializer_list<std::string_view> known) {
  std::string best;
  std::size_t best_distance = 100;
  const std::string t = snake_key(typed);
  for (const auto k : known) {
    std::size_t d = edit_distance(t, k, 4);
    const std::size_t limit = std::max<std::size_t>(2, k.size() / 3);
    // A cut-short name ("strem" for "streaming") is near too.
    if (d > limit && t.size() >= 3 && (k.starts_with(t.substr(0, 3)) && k.size() > t.size()))
      d = limit;
    if (d <= limit && d < best_distance) {
      best = std::string(k);
      best_distance = d;
    }
  }
  return best;
}

int line_of(const YAML::Node& n) {
  const YAML::Mark m = n.Mark();
  return m.line < 0 ? 0 : m.line + 1;
}

void Ctx::emit(const std::string& flag, std::vector<std::string> values, const At& at) {
  out.origins.push_back({flag, at.path, line_of(at.node)});
  values.insert(values.begin(), flag);
  groups.push_back(std::move(values));
}

void Ctx::error(const At& at, const std::string& problem) {
  const int line = line_of(at.node);
  out.errors.push_back(file_ + (line > 0 ? ":" + std::to_string(line) : "") + ": " +
                       (at.path.empty() ? "" : at.path + ": ") + problem);
}

void Ctx::warn(const At& at, const std::string& problem) {
  const int line = line_of(at.node);
  out.warnings.push_back(file_ + (line > 0 ? ":" + std::to_string(line) : "") + ": " + at.path +
                         ": " + problem);
}

void Ctx::refuse(const At& at, const std::string& reason) {
  error(at, "not supported by inferperf: " + reason);
}

YAML::Node Ctx::get(const YAML::Node& map, std::string_view key) {
  if (!map.IsMap()) return YAML::Node(YAML::NodeType::Undefined);
  for (const auto& kv : map) {
    if (kv.first.IsScalar() && snake_key(kv.first.Scalar()) == key) return kv.second;
  }
  return YAML::Node(YAML::NodeType::Undefined);
}

bool Ctx::check_keys(const At& at, std::initializer_list<std::string_view> known) {
  if (!at.node.IsMap()) {
    error(at, "expected a mapping of keys");
    return false;
  }
  for (const auto& kv : at.node) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : std::string("?");
    const std::string snake = snake_key(key);
    if (std::find(known.begin(), known.end(), snake) != known.end()) continue;
    const std::string near = suggest_key(key, known);
    error(at.child(kv.first, key),
          "unknown key" + (near.empty() ? std::string() : " (did you mean '" + near + "'?)"));
  }
  return true;
}

std::string Ctx::substitute(const std::string& raw, const At& at, bool& ok) {
  // ${VAR} and ${VAR:default} first, from the environment.
  std::string s;
  for (std::size_t i = 0; i < raw.size();) {
    if (raw.compare(i, 2, "${") != 0) {
      s += raw[i++];
      continue;
    }
    const std::size_t close = raw.find('}', i);
    if (close == std::string::npos) {
      s += raw.substr(i);
      break;
    }
    const std::string inner = raw.substr(i + 2, close - i - 2);
    const std::size_t colon = inner.find(':');
    const std::string name = inner.substr(0, colon);
    std::optional<std::string> v;
    if (env_) {
      v = env_(name);
    } else if (const char* e = std::getenv(name.c_str())) {
      v = std::string(e);
    }
    if (!v && colon != std::string::npos) v = inner.substr(colon + 1);
    if (!v) {
      error(at, "environment variable " + name + " is not set (write ${" + name +
                    ":default} to give a default)");
      ok = false;
      return {};
    }
    s += *v;
    i = close + 1;
  }
  // Then {{ expr }} over `variables`.
  std::string result;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "{{") != 0) {
      result += s[i++];
      continue;
    }
    const std::size_t close = s.find("}}", i);
    if (close == std::string::npos) {
      error(at, "'{{' without a closing '}}'");
      ok = false;
      return {};
    }
    std::string why;
    auto v = evaluate_expression(std::string_view(s).substr(i + 2, close - i - 2), variables, why);
    if (!v) {
      error(at, "{{" + s.substr(i + 2, close - i - 2) + "}}: " + why);
      ok = false;
      return {};
    }
    result += *v;
    i = close + 2;
  }
  return result;
}

std::optional<std::string> Ctx::text(const At& at) {
  if (!at.node.IsScalar()) {
    error(at, "expected a single value");
    return std::nullopt;
  }
  bool ok = true;
  std::string v = substitute(at.node.Scalar(), at, ok);
  if (!ok) return std::nullopt;
  return v;
}

std::optional<std::string> Ctx::number(const At& at) {
  auto v = text(at);
  if (!v) return v;
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0' || !std::isfinite(d)) {
    error(at, "'" + *v + "' is not a number");
    return std::nullopt;
  }
  return v;
}

std::optional<bool> Ctx::boolean(const At& at) {
  auto v = text(at);
  if (!v) return std::nullopt;
  std::string l = *v;
  std::transform(l.begin(), l.end(), l.begin(), [](unsigned char c) { return std::tolower(c); });
  if (l == "true" || l == "yes" || l == "on") return true;
  if (l == "false" || l == "no" || l == "off") return false;
  error(at, "'" + *v + "' is not true or false");
  return std::nullopt;
}

namespace {

std::string yaml_number_text(double d) {
  std::ostringstream o;
  o.precision(15);
  o << d;
  return o.str();
}

}  // namespace

std::optional<std::string> Ctx::duration(const At& at) {
  auto v = text(at);
  if (!v) return v;
  if (*v == "inf" || *v == "infinity") return std::string("inf");
  char* end = nullptr;
  const double d = std::strtod(v->c_str(), &end);
  const std::string unit = end;
  static const std::map<std::string, double> kUnits = {
      {"", 1}, {"s", 1}, {"ms", 0.001}, {"m", 60}, {"min", 60}, {"h", 3600}, {"d", 86400}};
  const auto it = kUnits.find(unit);
  if (end == v->c_str() || it == kUnits.end() || !std::isfinite(d) || d < 0) {
    error(at, "'" + *v + "' is not a duration (seconds, or 30s, 500ms, 5m, 2h, inf)");
    return std::nullopt;
  }
  if (unit.empty() || unit == "s") return std::string(v->substr(0, v->size() - unit.size()));
  return yaml_number_text(d * it->second);
}

std::optional<std::string> Ctx::ramp(const At& at) {
  if (!at.node.IsMap()) return duration(at);
  if (!check_keys(at, {"duration", "strategy"})) return std::nullopt;
  if (const YAML::Node s = get(at.node, "strategy")) {
    auto v = text(at.child(s, "strategy"));
    if (v && *v != "linear") {
      refuse(at.child(s, "strategy"), "ramps are linear in inferperf ('" + *v + "' ramps no)");
      return std::nullopt;
    }
  }
  const YAML::Node d = get(at.node, "duration");
  if (!d) {
    error(at, "a ramp needs a duration");
    return std::nullopt;
  }
  return duration(at.child(d, "duration"));
}

void Ctx::number_flag(const At& parent, std::string_view key, const std::string& flag) {
  const YAML::Node n = get(parent.node, key);
  if (!n || n.IsNull()) return;
  const At at = parent.child(n, key);
  if (auto v = number(at)) emit(flag, {*v}, at);
}

void Ctx::text_flag(const At& parent, std::string_view key, const std::string& flag) {
  const YAML::Node n = get(parent.node, key);
  if (!n || n.IsNull()) return;
  const At at = parent.child(n, key);
  if (auto v = text(at)) emit(flag, {*v}, at);
}

void Ctx::duration_flag(const At& parent, std::string_view key, const std::string& flag) {
  const YAML::Node n = get(parent.node, key);
  if (!n || n.IsNull()) return;
  const At at = parent.child(n, key);
  auto v = duration(at);
  if (!v) return;
  if (*v == "inf") {
    error(at, "inf is not accepted here; give a number of seconds");
    return;
  }
  emit(flag, {*v}, at);
}

void Ctx::switch_flag(const At& parent, std::string_view key, const std::string& flag) {
  pair_flag(parent, key, flag, "");
}

void Ctx::pair_flag(const At& parent, std::string_view key, const std::string& on_flag,
                    const std::string& off_flag) {
  const YAML::Node n = get(parent.node, key);
  if (!n || n.IsNull()) return;
  const At at = parent.child(n, key);
  const auto v = boolean(at);
  if (!v) return;
  if (*v) {
    emit(on_flag, {}, at);
  } else if (!off_flag.empty()) {
    emit(off_flag, {}, at);
  }
}

void Ctx::distribution(const At& at, const std::string& mean_flag, const std::string& stddev_flag) {
  if (!at.node.IsMap()) {
    if (auto v = number(at)) emit(mean_flag, {*v}, at);
    return;
  }
  if (!check_keys(at, {"mean", "stddev", "median", "peaks", "points", "min", "max"})) return;
  for (const char* form : {"median", "peaks", "points", "min", "max"}) {
    if (const YAML::Node n = get(at.node, form))
      refuse(at.child(n, form),
             "inferperf draws normal lengths only: give a number or {mean, stddev}");
  }
  const YAML::Node mean = get(at.node, "mean");
  if (!mean) {
    error(at, "a distribution needs a mean");
    return;
  }
  number_flag(at, "mean", mean_flag);
  if (stddev_flag.empty()) {
    if (const YAML::Node sd = get(at.node, "stddev"))
      refuse(at.child(sd, "stddev"), "this value has no spread in inferperf");
    return;
  }
  number_flag(at, "stddev", stddev_flag);
}

void Ctx::refuse_unless_noop(const At& parent, std::string_view key, const std::string& reason) {
  const YAML::Node n = get(parent.node, key);
  if (!n || n.IsNull()) return;
  if (n.IsMap() && n.size() == 0) return;
  if (n.IsScalar()) {
    const std::string s = n.Scalar();
    if (s == "false" || s == "0" || s == "False" || s == "") return;
  }
  refuse(parent.child(n, key), reason);
}

std::string to_json_text(const YAML::Node& n) {
  const std::function<nlohmann::ordered_json(const YAML::Node&)> conv =
      [&](const YAML::Node& x) -> nlohmann::ordered_json {
    if (x.IsMap()) {
      nlohmann::ordered_json j = nlohmann::ordered_json::object();
      for (const auto& kv : x) j[kv.first.Scalar()] = conv(kv.second);
      return j;
    }
    if (x.IsSequence()) {
      nlohmann::ordered_json j = nlohmann::ordered_json::array();
      for (const auto& e : x) j.push_back(conv(e));
      return j;
    }
    if (!x.IsScalar()) return nullptr;
    if (x.Tag() == "!") return x.Scalar();  // quoted: a string whatever it holds
    auto parsed = nlohmann::ordered_json::parse(x.Scalar(), nullptr, false);
    if (!parsed.is_discarded() && (parsed.is_number() || parsed.is_boolean())) return parsed;
    if (x.Scalar() == "null" || x.Scalar() == "~") return nullptr;
    return x.Scalar();
  };
  return conv(n).dump();
}

}  // namespace inferperf::config::yaml
