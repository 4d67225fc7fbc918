#include "observe/mlflow_export.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>

#include "core/secrets.hpp"

namespace inferperf::observe {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kMlflowStats[] = {"avg", "p50", "p90", "p99", "min", "max", "std"};
constexpr std::uint64_t kMlflowInputsJsonMax = 10ull << 20;

void mlflow_flatten(const json& j, const std::string& prefix, MlflowPairs& out) {
  if (j.is_object() && !j.empty()) {
    for (const auto& [k, v] : j.items())
      mlflow_flatten(v, prefix.empty() ? k : prefix + "." + k, out);
    return;
  }
  if (prefix.empty() || j.is_null()) return;
  out.emplace_back(prefix.substr(0, 250),
                   j.is_string()
                       ? j.get<std::string>()
                       : j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

std::int64_t mlflow_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::optional<std::string> mlflow_read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

std::vector<MlflowMetric> mlflow_metrics_from_summary(const json& summary) {
  std::vector<MlflowMetric> out;
  if (!summary.is_object()) return out;
  for (const auto& [tag, m] : summary.items()) {
    if (m.is_number() && !m.is_boolean()) {
      const double v = m.get<double>();
      if (std::isfinite(v)) out.push_back({tag, v});
      continue;
    }
    if (!m.is_object() || !m.contains("avg") || !m.contains("unit")) continue;
    const bool single = !m.contains("p50") && !m.contains("min") && !m.contains("max");
    for (const char* stat : kMlflowStats) {
      const auto it = m.find(stat);
      if (it == m.end() || !it->is_number()) continue;
      const double v = it->get<double>();
      if (std::isfinite(v)) out.push_back({single ? tag : tag + "." + stat, v});
      if (single) break;
    }
  }
  return out;
}

MlflowPairs mlflow_params_from_summary(const json& summary) {
  MlflowPairs out;
  if (summary.is_object() && summary.contains("input_config"))
    mlflow_flatten(summary["input_config"], "", out);
  return out;
}

bool mlflow_glob_match(std::string_view pattern, std::string_view path) {
  std::size_t p = 0, s = 0, star = std::string_view::npos, mark = 0;
  while (s < path.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = s;
    } else if (p < pattern.size() && path[s] != '/' &&
               (pattern[p] == '?' || pattern[p] == path[s])) {
      ++p;
      ++s;
    } else if (p < pattern.size() && pattern[p] == '/' && path[s] == '/') {
      ++p;
      ++s;
    } else if (star != std::string_view::npos && path[mark] != '/') {
      p = star + 1;
      s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

std::vector<MlflowArtifact> mlflow_select_artifacts(const fs::path& dir,
                                                    const std::vector<std::string>& globs,
                                                    std::uint64_t total_cap, int& skipped) {
  skipped = 0;
  const bool defaults = globs.empty();
  const std::vector<std::string> patterns =
      defaults
          ? std::vector<std::string>{"profile_export*", "server_info.json", "logs/*", "inputs.json"}
          : globs;
  std::vector<MlflowArtifact> found;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::file_status st = it->symlink_status(ec);
    if (ec || !fs::is_regular_file(st)) continue;
    const std::string rel = it->path().lexically_relative(dir).generic_string();
    if (rel.empty() || rel.starts_with("..") || rel == kMlflowExportFileName) continue;
    if (std::none_of(patterns.begin(), patterns.end(),
                     [&](const std::string& g) { return mlflow_glob_match(g, rel); }))
      continue;
    const std::uint64_t size = it->file_size(ec);
    if (ec) continue;
    if (defaults && rel == "inputs.json" && size >= kMlflowInputsJsonMax) continue;
    found.push_back({rel, size});
  }
  std::sort(found.begin(), found.end(),
            [](const auto& a, const auto& b) { return a.relative_path < b.relative_path; });
  std::vector<MlflowArtifact> out;
  std::uint64_t total = 0;
  for (auto& a : found) {
    if (total + a.size > total_cap) {
      ++skipped;
      continue;
    }
    total += a.size;
    out.push_back(std::move(a));
  }
  return out;
}

namespace {

// The run's tags at creation: the parent, then --mlflow-tag.
MlflowPairs mlflow_create_tags(const MlflowExportOptions& o) {
  MlflowPairs tags;
  if (!o.parent_run_id.empty()) tags.emplace_back("mlflow.parentRunId", o.parent_run_id);
  tags.insert(tags.end(), o.tags.begin(), o.tags.end());
  return tags;
}

int mlflow_upload_artifacts(MlflowClient& client, const MlflowExportOptions& o,
                            const MlflowExportResult& r, const fs::path& dir,
                            std::string& failure) {
  int skipped = 0;
  const auto files = mlflow_select_artifacts(dir, o.artifact_globs, o.artifact_cap, skipped);
  if (skipped > 0) {
    spdlog::warn("MLflow export: {} artifact file(s) not uploaded: they would pass the {} MiB cap",
                 skipped, o.artifact_cap >> 20);
  }
  int uploaded = 0;
  for (const auto& f : files) {
    auto bytes = mlflow_read_file(dir / f.relative_path);
    if (!bytes) continue;
    if (auto u =
            client.upload_artifact(r.experiment_id, r.run_id, f.relative_path, std::move(*bytes));
        !u) {
      failure = "uploading " + f.relative_path + ": " + u.error().message;
      break;
    }
    ++uploaded;
  }
  return uploaded;
}

void mlflow_write_record(const MlflowExportOptions& o, const MlflowExportResult& r,
                         const fs::path& dir, bool reused) {
  json j = {{"tracking_uri", core::redact_urls(o.client.tracking_uri)},
            {"experiment_name", o.experiment},
            {"experiment_id", r.experiment_id},
            {"run_id", r.run_id},
            {"reused_live_run", reused},
            {"artifacts_uploaded", r.artifacts_uploaded}};
  if (!o.parent_run_id.empty()) j["parent_run_id"] = o.parent_run_id;
  std::ofstream out(dir / kMlflowExportFileName, std::ios::trunc);
  out << j.dump(2, ' ', false, json::error_handler_t::replace) << "\n";
  if (!out) spdlog::warn("MLflow export: cannot write {}", (dir / kMlflowExportFileName).string());
}

}  // namespace

core::Result<MlflowRunRef> mlflow_open_run(MlflowClient& client, const MlflowExportOptions& o) {
  MlflowRunRef r;
  auto exp = client.experiment_id(o.experiment);
  if (!exp) {
    return core::Error{core::ErrorKind::kNetwork,
                       "experiment '" + o.experiment + "': " + exp.error().message};
  }
  r.experiment_id = *exp;
  auto run = client.create_run(
      mlflow_run_create_body(r.experiment_id, o.run_name, mlflow_now_ms(), mlflow_create_tags(o)));
  if (!run) return core::Error{core::ErrorKind::kNetwork, "runs/create: " + run.error().message};
  r.run_id = *run;
  return r;
}

std::optional<MlflowExportResult> export_to_mlflow(const MlflowExportOptions& o,
                                                   const json& summary, const fs::path& dir,
                                                   bool run_succeeded,
                                                   const MlflowRunRef* live_run) {
  const std::string where = core::redact_urls(o.client.tracking_uri);
  MlflowClient client(o.client);
  const auto warn = [&](const std::string& why) {
    spdlog::warn("MLflow export to {} failed: {}; the run's results are in {}", where, why,
                 dir.string());
  };
  MlflowRunRef ref;
  if (live_run) {
    ref = *live_run;
  } else if (auto made = mlflow_open_run(client, o)) {
    ref = *made;
  } else {
    warn(made.error().message);
    return std::nullopt;
  }
  MlflowExportResult r;
  r.experiment_id = ref.experiment_id;
  r.run_id = ref.run_id;
  std::string failure;
  MlflowPairs tags = {{"inferperf.version", o.version}};
  if (summary.is_object() && summary.value("benchmark_id", json()).is_string())
    tags.emplace_back("inferperf.benchmark_id", summary["benchmark_id"].get<std::string>());
  for (const json& body :
       mlflow_log_batch_bodies(r.run_id, mlflow_metrics_from_summary(summary),
                               mlflow_params_from_summary(summary), tags, mlflow_now_ms())) {
    if (auto b = client.log_batch(body); !b) {
      failure = "runs/log-batch: " + b.error().message;
      break;
    }
  }
  if (failure.empty()) r.artifacts_uploaded = mlflow_upload_artifacts(client, o, r, dir, failure);
  const bool ok = failure.empty() && run_succeeded;
  if (auto u = client.update_run(r.run_id, ok ? "FINISHED" : "FAILED", mlflow_now_ms());
      !u && failure.empty())
    failure = "runs/update: " + u.error().message;
  mlflow_write_record(o, r, dir, live_run != nullptr);
  if (!failure.empty()) {
    warn("run " + r.run_id + ": " + failure);
  } else {
    spdlog::info("MLflow run {} in experiment '{}' at {} ({} artifact file(s))", r.run_id,
                 o.experiment, where, r.artifacts_uploaded);
  }
  return r;
}

}  // namespace inferperf::observe
