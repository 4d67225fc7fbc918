// The MLflow export of --mlflow-tracking-uri (observe/mlflow_export.hpp), after the exports are
// written: the summary read back from the artifact folder. Never changes the exit code.
#pragma once
#include <filesystem>
#include <string>

#include "config/run_config.hpp"
#include "observe/mlflow_export.hpp"

namespace inferperf::app {

// The export's options from the run's configuration (credentials from the environment).
observe::MlflowExportOptions mlflow_export_options(const config::RunConfig& c);

// `live_run`: the run LiveObservers made before the benchmark, or null.
void export_run_to_mlflow(const config::RunConfig& c, const std::filesystem::path& artifact_dir,
                          const std::string& summary_file_name, int exit_code,
                          const observe::MlflowRunRef* live_run);

}  // namespace inferperf::app
