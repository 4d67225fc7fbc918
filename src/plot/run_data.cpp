#include "plot/run_data.hpp"

#include <cmath>
#include <fstream>
#include <limits>
#include <regex>
#include <sstream>

#include "plot/discovery.hpp"
#include "plot/plot_error.hpp"
#include "plot/run_files.hpp"

namespace inferperf::plot {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<double> number_at(const json& j, std::initializer_list<const char*> keys) {
  const json* cur = &j;
  for (const char* k : keys) {
    if (!cur->is_object() || !cur->contains(k)) return std::nullopt;
    cur = &(*cur)[k];
  }
  if (!cur->is_number()) return std::nullopt;
  return cur->get<double>();
}

int count_gpus(const json& summary) {
  const auto it = summary.find("telemetry_data");
  if (it == summary.end() || !it->is_object()) return 0;
  const auto eps = it->find("endpoints");
  if (eps == it->end() || !eps->is_object()) return 0;
  int n = 0;
  for (const auto& ep : *eps) {
    const auto gpus = ep.find("gpus");
    if (gpus != ep.end() && (gpus->is_object() || gpus->is_array()))
      n += static_cast<int>(gpus->size());
  }
  return n;
}

}  // namespace

std::optional<double> RunData::stat(std::string_view tag, std::string_view name) const {
  const auto m = summary.find(std::string(tag));
  if (m == summary.end() || !m->is_object()) return std::nullopt;
  const auto v = m->find(std::string(name));
  if (v == m->end() || !v->is_number()) return std::nullopt;
  const double d = v->get<double>();
  if (!std::isfinite(d)) return std::nullopt;
  return d;
}

// The profiling phase of AIPerf 0.11's input_config (phases[] entry named "profiling").
const json* profiling_phase(const json& ic) {
  const auto phases = ic.find("phases");
  if (phases == ic.end() || !phases->is_array()) return nullptr;
  for (const auto& p : *phases) {
    if (p.is_object() && p.value("name", "") == "profiling") return &p;
  }
  return nullptr;
}

// 0.11's body: models.items[0].name, phases[profiling].{concurrency,rate}, datasets[0].prompts.
RunParams params_from_resolved_config(const json& ic) {
  RunParams p;
  if (const json* phase = profiling_phase(ic)) {
    p.concurrency = number_at(*phase, {"concurrency"});
    if (phase->value("type", "") != "concurrency") p.request_rate = number_at(*phase, {"rate"});
  }
  const auto datasets = ic.find("datasets");
  if (datasets != ic.end() && datasets->is_array() && !datasets->empty()) {
    p.isl = number_at((*datasets)[0], {"prompts", "isl", "mean"});
    p.osl = number_at((*datasets)[0], {"prompts", "osl", "mean"});
  }
  const auto items = ic.find("models");
  if (items != ic.end() && items->is_object() && items->contains("items")) {
    const auto& list = (*items)["items"];
    if (list.is_array() && !list.empty() && list[0].is_object() && list[0].contains("name") &&
        list[0]["name"].is_string())
      p.model = list[0]["name"].get<std::string>();
  }
  return p;
}

RunParams params_from_input_config(const json& ic) {
  RunParams p;
  if (!ic.is_object()) return p;
  if (ic.contains("phases")) return params_from_resolved_config(ic);
  // Runs written before AIPerf 0.11's shape (0.6's UserConfig echo).
  p.concurrency = number_at(ic, {"loadgen", "concurrency"});
  p.request_rate = number_at(ic, {"loadgen", "request_rate"});
  p.isl = number_at(ic, {"input", "prompt", "input_tokens", "mean"});
  p.osl = number_at(ic, {"input", "prompt", "output_tokens", "mean"});
  if (const auto ep = ic.find("endpoint"); ep != ic.end() && ep->is_object()) {
    const auto names = ep->find("model_names");
    if (names != ep->end() && names->is_array() && !names->empty() && (*names)[0].is_string())
      p.model = (*names)[0].get<std::string>();
  }
  return p;
}

RunParams params_from_folder_name(const std::string& name) {
  RunParams p;
  // inferperf's earlier names (concurrency_8-isl_128) and AIPerf 0.11's (the config path's last
  // part: concurrency_8, rate_5.0, mean_512, joined by "__"); mean/stddev/requests/... name
  // parameters a point is not labelled by.
  static const std::regex part(
      R"((prefill_concurrency|concurrency|request_rate|rate|isl|osl|requests|duration|sessions|)"
      R"(users|mean|stddev|turns)_([0-9]+(?:\.[0-9]+)?))");
  static const std::regex short_c(R"(c([0-9]+))");
  std::smatch m;
  if (std::regex_match(name, m, short_c)) {
    p.concurrency = std::stod(m[1].str());
    return p;
  }
  std::string joined = name;
  for (std::size_t at = joined.find("__"); at != std::string::npos; at = joined.find("__", at))
    joined.replace(at, 2, "-");
  std::stringstream ss(joined);
  std::string piece;
  RunParams found;
  while (std::getline(ss, piece, '-')) {
    if (!std::regex_match(piece, m, part)) return p;  // not a sweep folder name at all
    const double v = std::stod(m[2].str());
    const std::string key = m[1].str();
    if (key == "concurrency") found.concurrency = v;
    if (key == "request_rate" || key == "rate") found.request_rate = v;
    if (key == "isl") found.isl = v;
    if (key == "osl") found.osl = v;
  }
  return found;
}

RunData load_run(const fs::path& dir) {
  RunData run;
  run.dir = dir;
  const fs::path summary_path = dir / kSummaryFile;
  std::ifstream in(summary_path);
  if (!in) throw input_error("inferperf plot: " + summary_path.string() + ": cannot be read");
  try {
    run.summary = json::parse(in);
  } catch (const json::parse_error& e) {
    throw input_error("inferperf plot: " + summary_path.string() + ": not valid JSON (" + e.what() +
                      ")");
  }
  if (!run.summary.is_object())
    throw input_error("inferperf plot: " + summary_path.string() + ": not a JSON object");

  // A point's configuration: what the run says it ran with, else what its folder is called
  // (a sweep's point folder when the run sits in profile_runs/).
  const auto ic = run.summary.find("input_config");
  run.params = params_from_input_config(ic == run.summary.end() ? json() : *ic);
  fs::path named = dir;
  if (dir.parent_path().filename() == artifacts::kProfileRunsFolderName)
    named = dir.parent_path().parent_path();
  const RunParams from_name = params_from_folder_name(named.filename().string());
  if (!run.params.concurrency) run.params.concurrency = from_name.concurrency;
  if (!run.params.request_rate) run.params.request_rate = from_name.request_rate;
  if (!run.params.isl) run.params.isl = from_name.isl;
  if (!run.params.osl) run.params.osl = from_name.osl;
  run.gpu_count = count_gpus(run.summary);

  load_requests(run);
  load_dispatch(run);
  load_timeslices(run);
  load_gpu_telemetry(run);
  load_server_metrics(run);
  return run;
}

}  // namespace inferperf::plot
