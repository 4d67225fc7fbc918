#include "app/profile/mlflow_setup.hpp"

#include <spdlog/spdlog.h>

#include <fstream>

#include "core/version.hpp"

namespace inferperf::app {

observe::MlflowExportOptions mlflow_export_options(const config::RunConfig& c) {
  const config::MlflowConfig& m = c.observability.mlflow;
  observe::MlflowExportOptions o;
  o.client.tracking_uri = m.tracking_uri;
  o.client.headers = observe::mlflow_auth_headers_from_environment();
  o.client.verify_tls = !c.endpoint.insecure;
  o.client.ssl_ca_file = c.endpoint.ssl_ca_file;
  o.experiment = m.experiment;
  o.run_name = m.run_name;
  o.tags = m.tags;
  o.parent_run_id = m.parent_run_id;
  o.artifact_globs = m.artifact_globs;
  o.version = kVersion;
  return o;
}

void export_run_to_mlflow(const config::RunConfig& c, const std::filesystem::path& artifact_dir,
                          const std::string& summary_file_name, int exit_code,
                          const observe::MlflowRunRef* live_run) {
  if (!c.observability.mlflow.enabled()) return;
  nlohmann::json summary;
  if (std::ifstream in(artifact_dir / summary_file_name); in) {
    summary = nlohmann::json::parse(in, nullptr, false);
    if (summary.is_discarded()) summary = nullptr;
  }
  if (summary.is_null())
    spdlog::warn("MLflow export: no summary ({}) to read; no metrics are logged",
                 summary_file_name);
  observe::export_to_mlflow(mlflow_export_options(c), summary, artifact_dir, exit_code == 0,
                            live_run);
}

}  // namespace inferperf::app
