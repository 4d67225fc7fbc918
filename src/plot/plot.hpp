// `inferperf plot`: PNG charts, one self-contained HTML report and an optional local web server,
// from the artifact folders `inferperf profile` writes (one run, several runs, sweeps).
#pragma once
#include <string>
#include <vector>

namespace inferperf::plot {

struct PlotOptions {
  std::vector<std::string> paths;  // empty: ./artifacts
  std::string output;              // empty: <first path>/plots
  std::string theme = "light";     // light | dark
  std::string config;              // plot presets file: refused (not supported yet)
  bool verbose = false;
  bool dashboard = false;  // serve the output folder after writing it, until SIGINT/SIGTERM
  std::string host = "127.0.0.1";
  int port = 8050;  // 0: any free port (the one bound is printed)
  // --mlflow-upload: the charts drawn go to an MLflow run afterwards (the app's plot command does
  // it: docs/plots.md); the tracking URI and run, when not given, come from the run folder.
  bool mlflow_upload = false;
  std::string mlflow_tracking_uri;
  std::string mlflow_run_id;
};

// The folders plotted: the paths given, else ./artifacts.
std::vector<std::string> input_paths(const PlotOptions& options);
// Where the charts go: --output, else <first input path>/plots.
std::string output_folder(const PlotOptions& options);
// The plots.json manifest plot writes beside the charts (its "charts" list the PNGs drawn).
inline constexpr const char* kPlotManifest = "plots.json";

// Discovers the runs, writes the charts and report.html, serves them with `dashboard`; messages
// go to stdout (progress) and stderr (errors). Returns the process exit code: 0 written (and
// served), 1 rendering or writing failed, 2 bad options or input.
int run_plot(const PlotOptions& options);

}  // namespace inferperf::plot
