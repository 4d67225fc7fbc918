#include "app/plot/plot_command.hpp"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/exit_codes.hpp"
#include "config/observability_options.hpp"
#include "core/secrets.hpp"
#include "observe/mlflow_client.hpp"
#include "observe/mlflow_export.hpp"

namespace inferperf::app {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

struct UploadTarget {
  observe::MlflowClientOptions client;
  std::string run_id;
  std::string experiment_id;  // empty: asked of the server (runs/get)
};

std::string text_at(const json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// The mlflow_export.json that `profile --mlflow-tracking-uri` left in the first folder plotted,
// or an empty object.
json export_record(const plot::PlotOptions& o) {
  const fs::path dir = plot::input_paths(o).front();
  std::ifstream in(dir / observe::kMlflowExportFileName);
  if (!in) return json::object();
  json j = json::parse(in, nullptr, false);
  return j.is_object() ? j : json::object();
}

// The run (flag, else the export record's) and its tracking server: the flag, else the record's
// when the run is the record's (the server it was made on), else MLFLOW_TRACKING_URI, else the
// record's; or why there is none.
core::Result<UploadTarget> upload_target(const plot::PlotOptions& o) {
  const json record = export_record(o);
  const bool records_run = o.mlflow_run_id.empty();
  std::string uri = o.mlflow_tracking_uri;
  if (uri.empty() && records_run) uri = text_at(record, "tracking_uri");
  if (const char* env = std::getenv("MLFLOW_TRACKING_URI"); uri.empty() && env) uri = env;
  if (uri.empty()) uri = text_at(record, "tracking_uri");
  if (uri.empty()) {
    return core::Error{core::ErrorKind::kConfig,
                       "--mlflow-upload: no MLflow tracking server: give --mlflow-tracking-uri "
                       "(or MLFLOW_TRACKING_URI), or plot a run folder profiled with "
                       "--mlflow-tracking-uri (its mlflow_export.json)"};
  }
  auto normal = config::normalise_mlflow_uri(uri);
  if (!normal) return normal.error();
  UploadTarget t;
  t.client.tracking_uri = *normal;
  t.client.headers = observe::mlflow_auth_headers_from_environment();
  t.run_id = o.mlflow_run_id.empty() ? text_at(record, "run_id") : o.mlflow_run_id;
  if (t.run_id.empty()) {
    return core::Error{core::ErrorKind::kConfig,
                       "--mlflow-upload: no MLflow run: give --mlflow-run-id, or plot a run "
                       "folder profiled with --mlflow-tracking-uri (its mlflow_export.json)"};
  }
  if (text_at(record, "run_id") == t.run_id) t.experiment_id = text_at(record, "experiment_id");
  return t;
}

// The PNG files this plot drew, from its manifest.
std::vector<std::string> charts_drawn(const fs::path& out) {
  std::vector<std::string> pngs;
  std::ifstream in(out / plot::kPlotManifest);
  const json manifest = json::parse(in, nullptr, false);
  if (!manifest.is_object() || !manifest.contains("charts")) return pngs;
  for (const json& c : manifest["charts"]) {
    if (const std::string png = c.is_object() ? text_at(c, "png") : ""; !png.empty())
      pngs.push_back(png);
  }
  return pngs;
}

int upload_charts(UploadTarget t, const fs::path& out) {
  observe::MlflowClient client(t.client);
  const std::string where = core::redact_urls(t.client.tracking_uri);
  if (t.experiment_id.empty()) {
    auto experiment = client.run_experiment_id(t.run_id);
    if (!experiment) {
      std::cerr << "inferperf plot: MLflow run " << t.run_id << " at " << where << ": "
                << experiment.error().message << "\n";
      return kExitRunFailed;
    }
    t.experiment_id = *experiment;
  }
  int uploaded = 0;
  for (const std::string& png : charts_drawn(out)) {
    std::ifstream in(out / png, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) {
      std::cerr << "inferperf plot: cannot read " << (out / png).string() << "\n";
      return kExitRunFailed;
    }
    if (auto sent =
            client.upload_artifact(t.experiment_id, t.run_id, "plots/" + png, std::move(bytes));
        !sent) {
      std::cerr << "inferperf plot: uploading " << png << " to MLflow run " << t.run_id << ": "
                << sent.error().message << "\n";
      return kExitRunFailed;
    }
    ++uploaded;
  }
  std::cout << fmt::format("inferperf plot: {} chart{} uploaded to MLflow run {} at {} (plots/)\n",
                           uploaded, uploaded == 1 ? "" : "s", t.run_id, where);
  return 0;
}

}  // namespace

int run_plot_command(const plot::PlotOptions& options) {
  if (!options.mlflow_upload) return plot::run_plot(options);
  auto target = upload_target(options);
  if (!target) {
    std::cerr << "inferperf plot: " << target.error().message << "\n";
    return kExitBadConfig;
  }
  if (const int drawn = plot::run_plot(options); drawn != 0) return drawn;
  return upload_charts(*target, plot::output_folder(options));
}

}  // namespace inferperf::app
