#include "app/profile/telemetry_setup.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "app/http_policy.hpp"
#include "artifacts/run_folder.hpp"
#include "report/exporters.hpp"
#include "report/telemetry_exports.hpp"
#include "telemetry/nvml.hpp"

namespace inferperf::app {

namespace {

double env_seconds(const char* name, double fallback) {
  if (const char* v = std::getenv(name)) {
    try {
      const double d = std::stod(v);
      if (std::isfinite(d) && d >= 0 && d <= 3600) return d;
    } catch (const std::exception&) {
    }
    spdlog::warn("ignoring {}={}: not a number of seconds", name, v);
  }
  return fallback;
}

std::vector<std::string> env_list(const char* name, std::vector<std::string> fallback) {
  const char* v = std::getenv(name);
  if (!v) return fallback;
  std::vector<std::string> out;
  std::string s = v;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto comma = s.find(',', start);
    if (comma == std::string::npos) comma = s.size();
    if (comma > start) out.push_back(s.substr(start, comma - start));
    start = comma + 1;
  }
  return out;
}

}  // namespace

core::Result<RunTelemetry> setup_telemetry(const config::RunConfig& c,
                                           const std::vector<transport::BaseUrl>& urls,
                                           const core::Clock& clock) {
  RunTelemetry t;
  const auto& tc = c.telemetry;
  telemetry::CollectorOptions o;
  o.http = make_http_policy(c);
  o.probe_timeout_s = static_cast<double>(o.http.setup_timeout.count());
  o.interval_s = std::min(env_seconds("AIPERF_GPU_COLLECTION_INTERVAL", 0.333),
                          env_seconds("AIPERF_SERVER_METRICS_COLLECTION_INTERVAL", 0.333));
  t.interval_s = o.interval_s;
  // 0 by default: the final scrape follows the last response at once, so a run ends within
  // ~100 ms of it (AIPerf waits 2 s; set the variable to wait for late histograms).
  t.flush_s = env_seconds("AIPERF_SERVER_METRICS_COLLECTION_FLUSH_PERIOD", 0.0);
  if (!tc.no_gpu) {
    for (const auto& u : tc.dcgm_urls) {
      // AIPerf 0.11's AMD collector is addressed as amdsmi://HOST; it needs the AMD SMI library,
      // which this build does not have. Refused before any traffic rather than probed as a URL.
      std::string scheme = u.substr(0, std::min<std::size_t>(u.size(), 9));
      for (auto& ch : scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      if (scheme == "amdsmi://")
        return core::Error{core::ErrorKind::kConfig,
                           "--gpu-telemetry " + u +
                               ": AMD GPUs (amdsmi) are not supported; use a DCGM exporter URL "
                               "or nvml"};
    }
    if (!tc.custom_metrics_csv.empty()) {
      auto fields = telemetry::load_custom_gpu_fields(tc.custom_metrics_csv);
      if (!fields) return fields.error();
      t.custom_fields = *fields;
      o.custom_fields = *fields;
    }
    if (tc.nvml) {
      t.nvml = true;
      t.gpu_configured = {"nvml"};
      auto source = telemetry::NvmlSource::open();
      if (!source) {
        spdlog::warn("GPU telemetry: {}; continuing without it", source.error().message);
      } else {
        for (const auto& note : (*source)->notes()) spdlog::warn("GPU telemetry (NVML): {}", note);
        std::shared_ptr<telemetry::NvmlSource> shared(std::move(*source));
        t.nvml_source = shared;
        o.gpu_sampler = [shared](std::int64_t mono_ns) { return shared->sample(mono_ns); };
      }
    } else {
      o.dcgm_urls = tc.dcgm_urls;
      o.default_dcgm_urls =
          env_list("AIPERF_GPU_DEFAULT_DCGM_ENDPOINTS",
                   {"http://localhost:9400/metrics", "http://localhost:9401/metrics"});
      for (const auto& u : o.dcgm_urls) t.gpu_configured.push_back(telemetry::metrics_url(u));
      for (const auto& u : o.default_dcgm_urls) {
        const auto full = telemetry::metrics_url(u);
        if (std::find(t.gpu_configured.begin(), t.gpu_configured.end(), full) ==
            t.gpu_configured.end())
          t.gpu_configured.push_back(full);
      }
    }
  }
  if (!tc.no_server_metrics) {
    for (const auto& u : urls)
      o.default_server_urls.push_back(telemetry::server_metrics_url(u.to_string()));
    for (const auto& u : tc.server_urls) o.server_urls.push_back(u);
  }
  t.collector = std::make_unique<telemetry::TelemetryCollector>(clock, std::move(o));
  return t;
}

void finish_telemetry(RunTelemetry& t, const std::atomic<bool>& cancelled) {
  if (!t.collector) return;
  if (t.collector->any_server_reachable() && t.flush_s > 0 && !cancelled.load()) {
    // Servers publish some histograms late; keep scraping a little after the last response.
    const auto until = std::chrono::steady_clock::now() +
                       std::chrono::milliseconds(static_cast<long long>(t.flush_s * 1000));
    while (std::chrono::steady_clock::now() < until && !cancelled.load())
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  t.collector->scrape_now();
  t.collector->stop();
}

void summarise_gpu_telemetry(const RunTelemetry& t, const config::RunConfig& c,
                             report::ReportContext& ctx) {
  ctx.show_gpu_telemetry = c.telemetry.gpu_flag_given;
  if (!t.collector) return;
  report::GpuTelemetryInput in;
  in.samples = &t.collector->gpu_samples();
  in.endpoints_configured = t.gpu_configured;
  if (t.nvml) {
    if (!t.collector->gpu_samples().empty()) in.endpoints_successful = {"nvml"};
  } else {
    for (const auto& e : t.collector->gpu_endpoints())
      if (e.reach == telemetry::Reach::kReachable) in.endpoints_successful.push_back(e.url);
  }
  in.custom_fields = t.custom_fields;
  in.window = {ctx.phase_start_ns, ctx.phase_end_ns};
  in.anchor = ctx.anchor;
  ctx.telemetry_data = report::telemetry_data_json(in);
  if (ctx.telemetry_data.is_null() && ctx.show_gpu_telemetry) {
    const std::size_t configured = in.endpoints_configured.size();
    const std::size_t reachable = in.endpoints_successful.size();
    ctx.gpu_telemetry_note =
        reachable == 0 ? fmt::format("GPU telemetry: 0/{} {} reachable; no GPU data", configured,
                                     t.nvml ? "NVML sources" : "DCGM endpoints")
                       : fmt::format(
                             "GPU telemetry: {}/{} {} reachable, but no sample fell inside the "
                             "{:.3f} s profiling window (one sample every {:.3f} s); see {}",
                             reachable, configured, t.nvml ? "NVML sources" : "DCGM endpoints",
                             in.window.seconds(), t.interval_s, artifacts::kGpuTelemetryFileName);
  }
}

bool write_telemetry_exports(const RunTelemetry& t, const config::RunConfig& c,
                             const report::ReportContext& ctx,
                             const artifacts::ExportNames& names) {
  if (!t.collector) return true;
  bool ok = true;
  auto done = [&](const std::filesystem::path& p, const core::Result<bool>& w, const char* label) {
    if (!w) {
      spdlog::error("{}", w.error().describe());
      ok = false;
    } else {
      std::cout << label << ": " << p.string() << "\n";
    }
  };
  const auto& dir = ctx.artifact_dir;
  if (!t.collector->gpu_samples().empty()) {
    const auto p = dir / names.gpu_telemetry_jsonl;
    done(p,
         report::write_atomically(p,
                                  [&](std::ostream& out) {
                                    report::write_gpu_telemetry_jsonl(t.collector->gpu_samples(),
                                                                      ctx.anchor, out);
                                  }),
         "GPU Telemetry Export");
  }
  bool scraped = false;
  for (const auto& log : t.collector->server_logs()) scraped = scraped || !log.scrapes().empty();
  if (scraped) {
    report::ServerMetricsInput in;
    in.logs = &t.collector->server_logs();
    in.endpoints = &t.collector->server_endpoints();
    in.window = {ctx.phase_start_ns, ctx.phase_end_ns};
    in.anchor = ctx.anchor;
    in.benchmark_id = ctx.benchmark_id;
    in.input_config = ctx.input_config;
    in.slice_duration_s = c.output.slice_duration_s;
    const auto& formats = c.telemetry.server_formats;
    auto wants = [&](const char* f) {
      return std::find(formats.begin(), formats.end(), f) != formats.end();
    };
    const auto json = report::server_metrics_json(in);
    if (wants("json")) {
      const auto p = dir / names.server_metrics_json;
      done(p,
           report::write_atomically(
               p, json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace)),
           "Server Metrics JSON Export");
    }
    if (wants("csv")) {
      const auto p = dir / names.server_metrics_csv;
      done(p, report::write_atomically(p, report::server_metrics_csv(json)),
           "Server Metrics CSV Export");
    }
    if (wants("jsonl")) {
      const auto p = dir / names.server_metrics_jsonl;
      done(p,
           report::write_atomically(
               p, [&](std::ostream& out) { report::write_server_metrics_jsonl(in, out); }),
           "Server Metrics JSONL Export");
    }
  }
  std::cout.flush();
  return ok;
}

}  // namespace inferperf::app
