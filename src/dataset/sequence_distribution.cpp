#include "dataset/sequence_distribution.hpp"

#include <nlohmann/json.hpp>

#include <cmath>

#include "core/rng.hpp"

namespace inferperf::dataset {

namespace {

core::Error bad(const std::string& why) {
  return core::Error{core::ErrorKind::kConfig, "--seq-dist: " + why, "", 0, "seq-dist"};
}

std::string strip(std::string s, const std::string& chars) {
  while (!s.empty() && chars.find(s.front()) != std::string::npos) s.erase(s.begin());
  while (!s.empty() && chars.find(s.back()) != std::string::npos) s.pop_back();
  return s;
}

// "512|64" -> value 512, stddev 64.
bool number_with_stddev(const std::string& text, double& value, double& stddev) {
  try {
    const auto bar = text.find('|');
    std::size_t used = 0;
    value = std::stod(text.substr(0, bar), &used);
    if (used != strip(text.substr(0, bar), " ").size() && used != text.substr(0, bar).size())
      return false;
    stddev = bar == std::string::npos ? 0.0 : std::stod(text.substr(bar + 1));
    return std::isfinite(value) && std::isfinite(stddev);
  } catch (const std::exception&) {
    return false;
  }
}

core::Result<SequenceDistribution> parse_pairs(const std::string& body, char pair_sep) {
  SequenceDistribution d;
  std::size_t pos = 0;
  while (pos < body.size()) {
    std::size_t end = body.find(pair_sep, pos);
    // In the bracket form pairs are "(a,b):p" separated by commas after the probability.
    std::string item =
        strip(body.substr(pos, end == std::string::npos ? std::string::npos : end - pos), " ");
    pos = end == std::string::npos ? body.size() : end + 1;
    if (item.empty()) continue;
    const auto colon = item.rfind(':');
    if (colon == std::string::npos)
      return bad("'" + core::excerpt(item) + "' has no ':probability'");
    std::string lens = strip(item.substr(0, colon), " ()");
    const auto comma = lens.find(',');
    if (comma == std::string::npos) return bad("'" + core::excerpt(item) + "' needs ISL,OSL");
    SequencePair p;
    double isl = 0, osl = 0, unused = 0;
    if (!number_with_stddev(strip(lens.substr(0, comma), " "), isl, p.isl_stddev) ||
        !number_with_stddev(strip(lens.substr(comma + 1), " "), osl, p.osl_stddev) ||
        !number_with_stddev(strip(item.substr(colon + 1), " "), p.probability, unused)) {
      return bad("'" + core::excerpt(item) + "' is not ISL,OSL:P");
    }
    p.isl = static_cast<int>(std::lround(isl));
    p.osl = static_cast<int>(std::lround(osl));
    d.pairs.push_back(p);
  }
  return d;
}

}  // namespace

const SequencePair& SequenceDistribution::pick(std::mt19937_64& rng) const {
  double total = 0;
  for (const auto& p : pairs) total += p.probability;
  double x = core::uniform_unit(rng) * total;
  for (const auto& p : pairs) {
    if (x < p.probability) return p;
    x -= p.probability;
  }
  return pairs.back();
}

core::Result<SequenceDistribution> parse_sequence_distribution(const std::string& raw) {
  const std::string text = strip(raw, " ");
  core::Result<SequenceDistribution> parsed = bad("empty value");
  if (!text.empty() && text.front() == '{') {
    auto j = nlohmann::json::parse(text, nullptr, false);
    if (j.is_discarded() || !j.contains("pairs") || !j["pairs"].is_array())
      return bad("JSON form needs a \"pairs\" list");
    SequenceDistribution d;
    for (const auto& e : j["pairs"]) {
      if (!e.is_object() || !e.contains("isl") || !e.contains("osl") || !e.contains("prob")) {
        return bad("every JSON pair needs isl, osl and prob");
      }
      SequencePair p;
      p.isl = e["isl"].get<int>();
      p.osl = e["osl"].get<int>();
      p.probability = e["prob"].get<double>();
      p.isl_stddev = e.value("isl_stddev", 0.0);
      p.osl_stddev = e.value("osl_stddev", 0.0);
      d.pairs.push_back(p);
    }
    parsed = d;
  } else if (!text.empty() && text.front() == '[') {
    // "[(512,64):60,(1024,128):40]": split at the commas that follow a probability.
    std::string body = strip(text, "[] ");
    std::string normalized;
    int depth = 0;
    for (char c : body) {
      if (c == '(') ++depth;
      if (c == ')') --depth;
      normalized.push_back(c == ',' && depth == 0 ? ';' : c);
    }
    parsed = parse_pairs(normalized, ';');
  } else {
    parsed = parse_pairs(text, ';');
  }
  if (!parsed) return parsed;
  const auto& d = *parsed;
  if (d.pairs.empty()) return bad("no pairs given");
  double total = 0;
  for (const auto& p : d.pairs) {
    if (p.isl < 1 || p.osl < 1) return bad("ISL and OSL must be at least 1");
    if (p.probability <= 0) return bad("probabilities must be positive");
    if (p.isl_stddev < 0 || p.osl_stddev < 0) return bad("stddevs must not be negative");
    total += p.probability;
  }
  if (std::abs(total - 100.0) > 1e-6)
    return bad("probabilities must sum to 100 (got " + std::to_string(total) + ")");
  return parsed;
}

}  // namespace inferperf::dataset
