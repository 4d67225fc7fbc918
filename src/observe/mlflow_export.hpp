// The MLflow export after a run (docs/observability.md, "MLflow"): one MLflow run created in the
// experiment (made when missing), the run's configuration as params, every metric of the summary
// (profile_export_aiperf.json) as metrics, tags, the artifact files, the run updated to FINISHED
// (FAILED when the benchmark's exit code is not 0), and mlflow_export.json written in the artifact
// folder. A tracking server that is down or refuses costs one warning naming the URI and the step
// that failed; never the run's results or its exit code.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "observe/mlflow_client.hpp"
#include "observe/mlflow_live.hpp"

namespace inferperf::observe {

// The summary's metrics: a metric object with stats gives `<tag>.<stat>` for avg, p50, p90, p99,
// min, max, std (those present and finite); one with only `avg` gives `<tag>`; a top-level number
// gives `<tag>`.
std::vector<MlflowMetric> mlflow_metrics_from_summary(const nlohmann::json& summary);
// The summary's input_config flattened into dotted keys ("endpoint.type", "loadgen.concurrency");
// lists and other non-scalars are written as JSON. Already redacted by the writer.
MlflowPairs mlflow_params_from_summary(const nlohmann::json& summary);

// `*` (any run of characters but '/') and `?` (one character but '/').
bool mlflow_glob_match(std::string_view pattern, std::string_view path);

struct MlflowArtifact {
  std::string relative_path;  // '/'-separated
  std::uint64_t size = 0;
};
// The regular files under `dir` (symbolic links are not followed) whose relative path matches a
// pattern, in path order, up to `total_cap` bytes in all (`skipped` counts the rest). Empty
// `globs`: the defaults (profile_export*, server_info.json, logs/*, and inputs.json when under
// 10 MB). mlflow_export.json is never one of them.
std::vector<MlflowArtifact> mlflow_select_artifacts(const std::filesystem::path& dir,
                                                    const std::vector<std::string>& globs,
                                                    std::uint64_t total_cap, int& skipped);

struct MlflowExportOptions {
  MlflowClientOptions client;
  std::string experiment = "aiperf";
  std::string run_name;
  MlflowPairs tags;  // --mlflow-tag
  std::string parent_run_id;
  std::vector<std::string> artifact_globs;
  std::uint64_t artifact_cap = 256ull << 20;
  std::string version;  // tag inferperf.version
};

struct MlflowExportResult {
  std::string experiment_id, run_id;
  int artifacts_uploaded = 0;
};

// The experiment (created when missing) and a new run in it, tagged with the parent and the
// --mlflow-tag items; no warning (the caller's).
core::Result<MlflowRunRef> mlflow_open_run(MlflowClient& client,
                                           const MlflowExportOptions& options);

// Everything above, on `live_run` when the run was made before the benchmark (else a new one);
// the warning is logged here. `summary` may be null (no summary written).
std::optional<MlflowExportResult> export_to_mlflow(const MlflowExportOptions& options,
                                                   const nlohmann::json& summary,
                                                   const std::filesystem::path& artifact_dir,
                                                   bool run_succeeded,
                                                   const MlflowRunRef* live_run = nullptr);

inline constexpr const char* kMlflowExportFileName = "mlflow_export.json";

}  // namespace inferperf::observe
