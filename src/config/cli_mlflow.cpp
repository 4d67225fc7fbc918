// The MLflow export options (observability_options.hpp, docs/observability.md).
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>

#include "config/cli_areas.hpp"
#include "config/observability_options.hpp"

namespace inferperf::config {

namespace {

core::Error mlflow_option_error(std::string message) {
  core::Error e;
  e.kind = core::ErrorKind::kConfig;
  e.message = std::move(message);
  return e;
}

std::string mlflow_trimmed(std::string_view text) {
  std::string s(text);
  const auto blank = [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; };
  while (!s.empty() && blank(s.back())) s.pop_back();
  s.erase(s.begin(), std::find_if_not(s.begin(), s.end(), blank));
  return s;
}

constexpr const char* kMlflowSecondary[] = {"--mlflow-experiment", "--mlflow-run-name",
                                            "--mlflow-tag", "--mlflow-parent-run-id",
                                            "--mlflow-artifact-glob"};

}  // namespace

core::Result<std::string> normalise_mlflow_uri(std::string_view given) {
  std::string uri = mlflow_trimmed(given);
  if (uri.empty()) return mlflow_option_error("--mlflow-tracking-uri: empty URI");
  if (uri == "databricks") uri = "databricks://";  // MLflow's word for a Databricks workspace
  std::string scheme = "http";
  if (const auto p = uri.find(':'); p != std::string::npos && uri.find("://") == p) {
    scheme = uri.substr(0, p);
    uri.erase(0, p + 3);
  } else if (p != std::string::npos && uri.find("://") == std::string::npos &&
             !std::all_of(uri.begin() + static_cast<std::ptrdiff_t>(p) + 1, uri.end(), [](char ch) {
               return std::isdigit(static_cast<unsigned char>(ch)) || ch == '/';
             })) {
    scheme = uri.substr(0, p);  // "databricks", "file:/x", "sqlite:..." and the like
  }
  for (auto& ch : scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  if (scheme != "http" && scheme != "https") {
    return mlflow_option_error(
        "--mlflow-tracking-uri " + std::string(given) + ": scheme '" + scheme +
        "' is not supported (inferperf speaks MLflow's REST API: give the tracking server's "
        "http:// or https:// address)");
  }
  const std::string authority = uri.substr(0, uri.find_first_of("/?#"));
  if (authority.empty() || authority.front() == ':')
    return mlflow_option_error("--mlflow-tracking-uri " + std::string(given) + ": no host");
  uri = uri.substr(0, uri.find_first_of("?#"));
  while (!uri.empty() && uri.back() == '/') uri.pop_back();
  return scheme + "://" + uri;
}

core::Result<std::vector<std::pair<std::string, std::string>>> parse_mlflow_tags(
    const std::vector<std::string>& items) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& raw : items) {
    const std::string item = mlflow_trimmed(raw);
    if (item.starts_with("{")) {
      const nlohmann::json j = nlohmann::json::parse(item, nullptr, false);
      if (!j.is_object())
        return mlflow_option_error("--mlflow-tag: '" + item + "' is not a JSON object");
      for (const auto& [k, v] : j.items()) {
        if (mlflow_trimmed(k).empty())
          return mlflow_option_error("--mlflow-tag: '" + item + "' has an empty key");
        out.emplace_back(k, v.is_string() ? v.get<std::string>() : v.dump());
      }
      continue;
    }
    std::size_t start = 0;
    while (start <= item.size()) {
      std::size_t comma = item.find(',', start);
      if (comma == std::string::npos) comma = item.size();
      const std::string one = mlflow_trimmed(item.substr(start, comma - start));
      start = comma + 1;
      if (one.empty()) continue;
      const auto colon = one.find(':');
      if (colon == std::string::npos)
        return mlflow_option_error("--mlflow-tag: '" + one + "' is not key:value");
      std::string key = mlflow_trimmed(one.substr(0, colon));
      if (key.empty()) return mlflow_option_error("--mlflow-tag: '" + one + "' has an empty key");
      out.emplace_back(std::move(key), mlflow_trimmed(one.substr(colon + 1)));
    }
  }
  return out;
}

void add_mlflow_options(CLI::App* profile, CliTargets& t) {
  MlflowConfig& m = t.outcome.config.observability.mlflow;
  profile
      ->add_option("--mlflow-tracking-uri", m.tracking_uri,
                   "Log the run to this MLflow tracking server (http(s)://host:port) through "
                   "MLflow's REST API: live scalars during it; params, metrics, tags and "
                   "artifacts after it")
      ->group("Observability");
  profile
      ->add_option("--mlflow-experiment", m.experiment,
                   "The MLflow experiment (created when missing; default aiperf)")
      ->group("Observability");
  profile->add_option("--mlflow-run-name", m.run_name, "The MLflow run's name")
      ->group("Observability");
  profile
      ->add_option("--mlflow-tag", t.mlflow_tags,
                   "Tags of the MLflow run: key:value items (a comma list each) or a JSON object")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->group("Observability");
  profile
      ->add_option("--mlflow-parent-run-id", m.parent_run_id,
                   "Make the MLflow run a child of this run (tag mlflow.parentRunId)")
      ->group("Observability");
  profile
      ->add_option("--mlflow-artifact-glob", m.artifact_globs,
                   "Which artifact files to upload: patterns (* and ?) on paths relative to the "
                   "artifact folder (default: profile_export*, server_info.json, logs/*, "
                   "inputs.json when under 10 MB)")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->group("Observability");
}

void apply_mlflow(CliTargets& t, const CLI::App& profile, std::vector<std::string>& errors) {
  MlflowConfig& m = t.outcome.config.observability.mlflow;
  const bool given = profile.count("--mlflow-tracking-uri") > 0;
  for (const char* flag : kMlflowSecondary) {
    if (profile.count(flag) > 0 && !given)
      errors.push_back(std::string(flag) + " applies only with --mlflow-tracking-uri");
  }
  if (!given) {
    m = MlflowConfig{};
    return;
  }
  if (auto uri = normalise_mlflow_uri(m.tracking_uri)) {
    m.tracking_uri = *uri;
  } else {
    errors.push_back(uri.error().message);
  }
  m.experiment = mlflow_trimmed(m.experiment);
  if (m.experiment.empty()) errors.push_back("--mlflow-experiment: empty name");
  if (auto tags = parse_mlflow_tags(t.mlflow_tags)) {
    m.tags = std::move(*tags);
  } else {
    errors.push_back(tags.error().message);
  }
  for (const auto& g : m.artifact_globs) {
    if (g.empty() || g.front() == '/' || g.find("..") != std::string::npos)
      errors.push_back("--mlflow-artifact-glob '" + g +
                       "': a pattern is relative to the artifact folder, without '..'");
  }
}

}  // namespace inferperf::config
