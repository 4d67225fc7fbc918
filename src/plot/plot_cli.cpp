#include "plot/plot_cli.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>

namespace inferperf::plot {

PlotCommand parse_plot_command(const std::vector<std::string>& args) {
  PlotCommand cmd;
  PlotOptions& o = cmd.options;
  CLI::App app("Charts and an HTML report from inferperf/AIPerf artifact folders",
               "inferperf plot");
  app.add_option("paths,--paths", o.paths,
                 "Run folders, or folders holding runs or sweeps (default ./artifacts); "
                 "positional or --paths");
  app.add_option("--output", o.output, "Output folder (default <first path>/plots)");
  app.add_option("--theme", o.theme, "Colour theme")
      ->check(CLI::IsMember({"light", "dark"}))
      ->default_str("light");
  app.add_option("--config", o.config, "Plot presets YAML (not supported yet)");
  app.add_flag("--verbose,-v,!--no-verbose", o.verbose, "Say which plots were skipped and why");
  app.add_flag("--dashboard,!--no-dashboard", o.dashboard,
               "Serve the report over HTTP until Ctrl-C");
  app.add_option("--host", o.host, "Dashboard address")->default_str("127.0.0.1");
  app.add_option("--port", o.port, "Dashboard port (0: any free port)")
      ->check(CLI::Range(0, 65535))
      ->default_str("8050");

  app.add_flag("--mlflow-upload,!--no-mlflow-upload", o.mlflow_upload,
               "Upload the charts drawn (PNG) to an MLflow run, under plots/ (not with "
               "--dashboard); the tracking URI and run default to the run folder's "
               "mlflow_export.json");
  app.add_option("--mlflow-tracking-uri", o.mlflow_tracking_uri,
                 "The MLflow tracking server (http(s)://host:port; default MLFLOW_TRACKING_URI, "
                 "else the one in mlflow_export.json)");
  app.add_option("--mlflow-run-id", o.mlflow_run_id,
                 "The MLflow run to upload to (default the run in mlflow_export.json)");

  // CLI11 wants the arguments last to first.
  std::vector<std::string> reversed(args.rbegin(), args.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    cmd.message = app.help();
    return cmd;
  } catch (const CLI::ParseError& e) {
    cmd.exit_code = 2;
    cmd.message = std::string("inferperf plot: ") + e.what() + "\nRun 'inferperf plot --help'.\n";
    return cmd;
  }
  if (!o.config.empty()) {
    cmd.exit_code = 2;
    cmd.message = "inferperf plot: --config " + o.config +
                  ": not supported yet (no plot presets); the default plots are always drawn\n";
    return cmd;
  }
  auto refuse = [&](const std::string& why) {
    cmd.exit_code = 2;
    cmd.message = "inferperf plot: " + why + "\n";
    return cmd;
  };
  if (o.mlflow_upload && o.dashboard)
    return refuse("--mlflow-upload and --dashboard do not go together: upload, then serve");
  if (!o.mlflow_upload && (!o.mlflow_tracking_uri.empty() || !o.mlflow_run_id.empty())) {
    return refuse(
        std::string(o.mlflow_run_id.empty() ? "--mlflow-tracking-uri" : "--mlflow-run-id") +
        " needs --mlflow-upload (nothing is uploaded without it)");
  }
  cmd.run = true;
  return cmd;
}

}  // namespace inferperf::plot
