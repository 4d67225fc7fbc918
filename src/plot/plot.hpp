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
};

// Discovers the runs, writes the charts and report.html, serves them with `dashboard`; messages
// go to stdout (progress) and stderr (errors). Returns the process exit code: 0 written (and
// served), 1 rendering or writing failed, 2 bad options or input.
int run_plot(const PlotOptions& options);

}  // namespace inferperf::plot
