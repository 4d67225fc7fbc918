// The live observability options (observability_options.hpp).
#include <algorithm>
#include <cctype>

#include "config/cli_areas.hpp"
#include "config/enum_token.hpp"
#include "config/observability_options.hpp"

namespace inferperf::config {

namespace {

std::vector<std::string> observe_split_items(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    std::size_t start = 0;
    while (start <= item.size()) {
      std::size_t comma = item.find(',', start);
      if (comma == std::string::npos) comma = item.size();
      std::string one = item.substr(start, comma - start);
      const auto blank = [](unsigned char ch) { return std::isspace(ch) != 0; };
      while (!one.empty() && blank(static_cast<unsigned char>(one.back()))) one.pop_back();
      one.erase(one.begin(), std::find_if_not(one.begin(), one.end(), [&](char ch) {
                  return blank(static_cast<unsigned char>(ch));
                }));
      if (!one.empty()) out.push_back(std::move(one));
      start = comma + 1;
    }
  }
  return out;
}

core::Error observe_error(std::string message) {
  core::Error e;
  e.kind = core::ErrorKind::kConfig;
  e.message = std::move(message);
  return e;
}

}  // namespace

core::Result<std::string> normalise_otel_url(std::string_view given) {
  std::string url(given);
  while (!url.empty() && std::isspace(static_cast<unsigned char>(url.back()))) url.pop_back();
  url.erase(0, url.find_first_not_of(" \t"));
  if (url.empty()) return observe_error("--otel-url: empty URL");
  std::string scheme = "http";
  if (const auto p = url.find("://"); p != std::string::npos) {
    scheme = url.substr(0, p);
    for (auto& ch : scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    url.erase(0, p + 3);
  }
  if (scheme != "http" && scheme != "https") {
    return observe_error("--otel-url " + std::string(given) + ": scheme '" + scheme +
                         "' is not supported (OTLP/HTTP takes http:// or https://)");
  }
  const auto slash = url.find_first_of("/?#");
  const std::string authority = url.substr(0, slash);
  std::string path = slash == std::string::npos ? "" : url.substr(slash);
  path = path.substr(0, path.find_first_of("?#"));
  if (authority.empty() || authority.front() == ':')
    return observe_error("--otel-url " + std::string(given) + ": no host");
  while (!path.empty() && path.back() == '/') path.pop_back();
  if (!path.ends_with("/v1/metrics")) path += "/v1/metrics";
  return scheme + "://" + authority + path;
}

core::Result<std::pair<bool, bool>> parse_stream_domains(const std::vector<std::string>& items) {
  const std::vector<std::string> words = observe_split_items(items);
  if (words.empty()) return std::pair{true, true};
  bool metrics = false, timing = false, none = false;
  for (const auto& w : words) {
    const std::string word = normalise_enum_token(w);
    if (word == "metrics") {
      metrics = true;
    } else if (word == "timing") {
      timing = true;
    } else if (word == "default") {
      metrics = timing = true;
    } else if (word == "none") {
      none = true;
    } else {
      return observe_error("--stream: unknown domain '" + w + "' (metrics, timing, default, none)");
    }
  }
  if (none) return std::pair{false, false};
  return std::pair{metrics, timing};
}

core::Result<std::vector<std::pair<std::string, std::string>>> parse_resource_attributes(
    const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& item : observe_split_items(items)) {
    const auto eq = item.find('=');
    if (eq == std::string::npos)
      return observe_error("--otel-resource-attributes: '" + item + "' is not key=value");
    std::string key = item.substr(0, eq), value = item.substr(eq + 1);
    while (!key.empty() && key.back() == ' ') key.pop_back();
    value.erase(0, value.find_first_not_of(' '));
    if (key.empty() || value.empty())
      return observe_error("--otel-resource-attributes: '" + item + "' has an empty key or value");
    out.emplace_back(std::move(key), std::move(value));
  }
  return out;
}

void add_observability_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--otel-url", t.otel_url,
                   "Push live client metrics over OTLP/HTTP (JSON) to this collector: host[:port] "
                   "(gets http://) or an http(s) URL; the path is made to end in /v1/metrics")
      ->group("Observability");
  profile
      ->add_option("--stream", t.otel_streams,
                   "Which OTel domains to push: metrics (gen_ai.client.* histograms), timing "
                   "(aiperf.timing.* counters), default (both) or none")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->group("Observability");
  profile
      ->add_option("--otel-resource-attributes", t.otel_attributes,
                   "Extra OTel resource attributes, key=value items")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->group("Observability");
  profile
      ->add_option("--gen-ai-provider", c.observability.gen_ai_provider,
                   "The gen_ai.provider.name attribute of the pushed metrics (default openai)")
      ->group("Observability");
  profile
      ->add_option_function<int>(
          "--prometheus-port", [&c](const int& v) { c.observability.prometheus_port = v; },
          "Serve the client's live metrics at http://HOST:PORT/metrics during the run "
          "(Prometheus text format; 0 picks a free port and logs it)")
      ->group("Observability");
  profile
      ->add_option("--prometheus-host", c.observability.prometheus_host,
                   "The address --prometheus-port listens on (default 127.0.0.1)")
      ->group("Observability");
  add_mlflow_options(profile, t);
}

void apply_observability(CliTargets& t, const CLI::App& profile, std::vector<std::string>& errors) {
  ObservabilityConfig& o = t.outcome.config.observability;
  const bool url_given = profile.count("--otel-url") > 0;
  if (url_given) {
    if (auto url = normalise_otel_url(t.otel_url)) {
      o.otel_url = *url;
    } else {
      errors.push_back(url.error().message);
    }
  }
  for (const char* flag : {"--stream", "--otel-resource-attributes", "--gen-ai-provider"}) {
    if (profile.count(flag) > 0 && !url_given)
      errors.push_back(std::string(flag) + " applies only with --otel-url");
  }
  if (auto domains = parse_stream_domains(t.otel_streams)) {
    o.stream_metrics = domains->first;
    o.stream_timing = domains->second;
  } else {
    errors.push_back(domains.error().message);
  }
  if (auto attrs = parse_resource_attributes(t.otel_attributes)) {
    o.otel_resource_attributes = std::move(*attrs);
  } else {
    errors.push_back(attrs.error().message);
  }
  if (profile.count("--gen-ai-provider") > 0 && o.gen_ai_provider.empty())
    errors.push_back("--gen-ai-provider: empty name");
  if (profile.count("--prometheus-host") > 0 && !o.prometheus_port)
    errors.push_back("--prometheus-host applies only with --prometheus-port");
  apply_mlflow(t, profile, errors);
}

}  // namespace inferperf::config
