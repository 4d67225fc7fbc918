#include "telemetry/prometheus.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace inferperf::telemetry {

std::string_view to_string(MetricType t) {
  switch (t) {
    case MetricType::kCounter:
      return "counter";
    case MetricType::kGauge:
      return "gauge";
    case MetricType::kHistogram:
      return "histogram";
    case MetricType::kSummary:
      return "summary";
    case MetricType::kInfo:
      return "info";
    case MetricType::kUntyped:
      break;
  }
  // AIPerf 0.11 (and OpenMetrics) call a family without a usable TYPE "unknown".
  return "unknown";
}

const Family* Page::find(std::string_view name) const {
  for (const auto& f : families)
    if (f.name == name) return &f;
  return nullptr;
}

namespace {

bool name_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':';
}
bool name_char(char c) {
  return name_start(c) || (c >= '0' && c <= '9');
}

void skip_blanks(std::string_view s, std::size_t& i) {
  while (i < s.size() && (s[i] == ' ' || s[i] == '\t')) ++i;
}

std::string_view read_name(std::string_view s, std::size_t& i) {
  const std::size_t start = i;
  if (i < s.size() && name_start(s[i])) {
    ++i;
    while (i < s.size() && name_char(s[i])) ++i;
  }
  return s.substr(start, i - start);
}

std::optional<double> parse_number(std::string_view t) {
  if (t.empty()) return std::nullopt;
  if (t == "+Inf" || t == "Inf" || t == "+inf" || t == "inf")
    return std::numeric_limits<double>::infinity();
  if (t == "-Inf" || t == "-inf") return -std::numeric_limits<double>::infinity();
  if (t == "NaN" || t == "nan") return std::numeric_limits<double>::quiet_NaN();
  if (t.front() == '+') t.remove_prefix(1);
  double v = 0.0;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || p != t.data() + t.size()) return std::nullopt;
  return v;
}

// Reads `{a="x",b="y"}` starting at s[i] == '{'. Returns false on malformed text.
bool read_labels(std::string_view s, std::size_t& i, Labels& out, std::string& why) {
  ++i;  // '{'
  for (;;) {
    skip_blanks(s, i);
    if (i < s.size() && s[i] == '}') {
      ++i;
      break;
    }
    std::string_view key = read_name(s, i);
    if (key.empty()) {
      why = "bad label name";
      return false;
    }
    skip_blanks(s, i);
    if (i >= s.size() || s[i] != '=') {
      why = "missing '=' after label " + std::string(key);
      return false;
    }
    ++i;
    skip_blanks(s, i);
    if (i >= s.size() || s[i] != '"') {
      why = "label value of " + std::string(key) + " is not quoted";
      return false;
    }
    ++i;
    std::string value;
    bool closed = false;
    while (i < s.size()) {
      const char c = s[i++];
      if (c == '"') {
        closed = true;
        break;
      }
      if (c == '\\' && i < s.size()) {
        const char e = s[i++];
        value += e == 'n' ? '\n' : e;  // \\ and \" stand for themselves
      } else {
        value += c;
      }
    }
    if (!closed) {
      why = "unterminated label value of " + std::string(key);
      return false;
    }
    out.emplace_back(std::string(key), std::move(value));
    skip_blanks(s, i);
    if (i < s.size() && s[i] == ',') {
      ++i;
      continue;
    }
    if (i < s.size() && s[i] == '}') {
      ++i;
      break;
    }
    why = "expected ',' or '}' in labels";
    return false;
  }
  std::sort(out.begin(), out.end());
  return true;
}

std::string unescape_help(std::string_view h) {
  std::string out;
  out.reserve(h.size());
  for (std::size_t i = 0; i < h.size(); ++i) {
    if (h[i] == '\\' && i + 1 < h.size()) {
      const char e = h[++i];
      out += e == 'n' ? '\n' : e;
    } else {
      out += h[i];
    }
  }
  return out;
}

std::optional<MetricType> type_of(std::string_view t) {
  if (t == "counter") return MetricType::kCounter;
  if (t == "gauge") return MetricType::kGauge;
  if (t == "histogram") return MetricType::kHistogram;
  if (t == "gaugehistogram") return MetricType::kUntyped;  // not cumulative: no deltas apply
  if (t == "summary") return MetricType::kSummary;
  if (t == "untyped" || t == "unknown") return MetricType::kUntyped;
  if (t == "info") return MetricType::kInfo;
  if (t == "stateset") return MetricType::kGauge;
  return std::nullopt;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() > suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// The family a sample belongs to: the declared family whose name it is, or whose name it extends
// with the suffix its type allows.
std::string_view family_name_for(std::string_view sample,
                                 const std::map<std::string, MetricType, std::less<>>& types) {
  if (types.count(sample)) return sample;
  static constexpr std::string_view kSuffixes[] = {"_bucket", "_sum",     "_count", "_total",
                                                   "_info",   "_created", "_gsum",  "_gcount"};
  for (auto suffix : kSuffixes) {
    if (!ends_with(sample, suffix)) continue;
    const std::string_view base = sample.substr(0, sample.size() - suffix.size());
    auto it = types.find(base);
    if (it == types.end()) continue;
    const MetricType t = it->second;
    const bool fits = ((t == MetricType::kHistogram || t == MetricType::kSummary) &&
                       (suffix == "_bucket" || suffix == "_sum" || suffix == "_count" ||
                        suffix == "_created" || suffix == "_gsum" || suffix == "_gcount")) ||
                      (t == MetricType::kCounter && (suffix == "_total" || suffix == "_created")) ||
                      (t == MetricType::kInfo && suffix == "_info");
    if (fits) return base;
  }
  return sample;
}

// A counter declared with its sample name (`# TYPE x_total counter`, the Prometheus text format)
// is the family `x`, as OpenMetrics declares it and as AIPerf 0.11 keys it (Python's parser drops
// the suffix); the samples keep their names. Not when a family `x` exists already.
void name_counters_as_families(Page& page) {
  std::set<std::string, std::less<>> names;
  for (const auto& f : page.families) names.insert(f.name);
  for (auto& f : page.families) {
    if (f.type != MetricType::kCounter || !ends_with(f.name, "_total")) continue;
    std::string base = f.name.substr(0, f.name.size() - std::string_view("_total").size());
    if (names.count(base)) continue;
    names.insert(base);
    f.name = std::move(base);
  }
}

}  // namespace

Page parse_prometheus(std::string_view text) {
  Page page;
  std::map<std::string, MetricType, std::less<>> types;
  std::map<std::string, std::size_t, std::less<>> index;  // family name -> page.families slot
  auto family = [&](std::string_view name) -> Family& {
    auto it = index.find(name);
    if (it != index.end()) return page.families[it->second];
    Family f;
    f.name = std::string(name);
    if (auto t = types.find(name); t != types.end()) f.type = t->second;
    index.emplace(f.name, page.families.size());
    page.families.push_back(std::move(f));
    return page.families.back();
  };
  auto skip = [&](int line_no, const std::string& why) {
    if (page.skipped_lines++ == 0)
      page.first_problem = "line " + std::to_string(line_no) + ": " + why;
  };

  int line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = text.substr(pos, eol - pos);
    pos = eol + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    std::size_t i = 0;
    skip_blanks(line, i);
    if (i == line.size()) {
      if (eol == text.size()) break;
      continue;
    }
    if (line[i] == '#') {
      ++i;
      skip_blanks(line, i);
      const std::size_t kw_start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      const std::string_view keyword = line.substr(kw_start, i - kw_start);
      if (keyword != "TYPE" && keyword != "HELP") continue;  // a plain comment, or # EOF
      skip_blanks(line, i);
      const std::string_view name = read_name(line, i);
      if (name.empty()) {
        skip(line_no, "no metric name after # " + std::string(keyword));
        continue;
      }
      skip_blanks(line, i);
      std::string_view rest = line.substr(i);
      while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\t')) rest.remove_suffix(1);
      if (keyword == "TYPE") {
        auto t = type_of(rest);
        if (!t) {
          skip(line_no, "unknown metric type '" + std::string(rest) + "'");
          continue;
        }
        types[std::string(name)] = *t;
        family(name).type = *t;
      } else {
        family(name).help = unescape_help(rest);
      }
      continue;
    }
    Sample s;
    const std::string_view name = read_name(line, i);
    if (name.empty()) {
      skip(line_no, "not a metric name");
      continue;
    }
    s.name = std::string(name);
    skip_blanks(line, i);
    if (i < line.size() && line[i] == '{') {
      std::string why;
      if (!read_labels(line, i, s.labels, why)) {
        skip(line_no, why);
        continue;
      }
    }
    skip_blanks(line, i);
    std::size_t v_start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    auto value = parse_number(line.substr(v_start, i - v_start));
    if (!value) {
      skip(line_no, "bad sample value for " + s.name);
      continue;
    }
    s.value = *value;
    skip_blanks(line, i);
    if (i < line.size()) {
      std::size_t t_start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      const std::string_view ts = line.substr(t_start, i - t_start);
      std::int64_t ms = 0;
      auto [p, ec] = std::from_chars(ts.data(), ts.data() + ts.size(), ms);
      if (ec == std::errc() && p == ts.data() + ts.size()) {
        s.timestamp_ms = ms;
      } else if (auto d = parse_number(ts); d && std::isfinite(*d) && std::abs(*d) < 9e15) {
        s.timestamp_ms = static_cast<std::int64_t>(*d * 1000.0);  // OpenMetrics: seconds
      } else {
        skip(line_no, "bad timestamp for " + s.name);
        continue;
      }
    }
    family(family_name_for(s.name, types)).samples.push_back(std::move(s));
  }
  name_counters_as_families(page);
  return page;
}

std::vector<Histogram> histograms_of(const Family& family) {
  std::vector<Histogram> out;
  auto series = [&](const Labels& with_le) -> Histogram& {
    Labels key;
    for (const auto& kv : with_le)
      if (kv.first != "le") key.push_back(kv);
    for (auto& h : out)
      if (h.labels == key) return h;
    out.push_back(Histogram{std::move(key), {}, 0.0, 0.0});
    return out.back();
  };
  for (const auto& s : family.samples) {
    if (ends_with(s.name, "_bucket")) {
      std::optional<double> le;
      for (const auto& [k, v] : s.labels)
        if (k == "le") le = parse_number(v);
      if (!le || std::isnan(*le)) continue;
      series(s.labels).buckets.emplace_back(*le, s.value);
    } else if (ends_with(s.name, "_sum")) {
      series(s.labels).sum = s.value;
    } else if (ends_with(s.name, "_count")) {
      series(s.labels).count = s.value;
    }
  }
  for (auto& h : out) std::sort(h.buckets.begin(), h.buckets.end());
  return out;
}

std::string escape_label_value(std::string_view v) {
  std::string out;
  out.reserve(v.size());
  for (char c : v) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string format_number(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  char buf[32];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, p) : std::string("NaN");
}

}  // namespace inferperf::telemetry
