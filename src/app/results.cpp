#include "app/results.hpp"

#include "endpoint/endpoint.hpp"

#include "app/exit_codes.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <iostream>

#include "artifacts/export_names.hpp"
#include "artifacts/run_folder.hpp"
#include "metrics/timeslice.hpp"
#include "report/console_notes.hpp"
#include "report/console_table.hpp"
#include "report/exporters.hpp"
#include "report/gpu_energy.hpp"
#include "report/network_latency.hpp"
#include "report/telemetry_exports.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

// Label values from scraped pages may hold any bytes; one bad byte must not lose the report.
constexpr auto kReplaceInvalidUtf8 = nlohmann::json::error_handler_t::replace;

double env_double(const char* name, double fallback) {
  if (const char* v = std::getenv(name)) {
    try {
      return std::stod(v);
    } catch (const std::exception&) {
      spdlog::warn("ignoring {}={}: not a number", name, v);
    }
  }
  return fallback;
}

bool env_flag(const char* name) {
  const char* v = std::getenv(name);
  if (!v) return false;
  const std::string s = v;
  return s == "1" || s == "true" || s == "True" || s == "TRUE" || s == "yes" || s == "on";
}

}  // namespace

std::string goodput_problem(const config::RunConfig& c) {
  std::vector<metrics::GoodputObjective> objectives;
  return metrics::resolve_goodput(c.metrics.goodput_targets, objectives).value_or("");
}

metrics::MetricOptions metric_options_for(const config::RunConfig& c, bool client_tokenizer) {
  metrics::MetricOptions mo;
  mo.streaming = c.endpoint.streaming;
  const endpoint::EndpointInfo& info = endpoint::endpoint_info(c.endpoint.type);
  mo.produces_tokens = info.produces_tokens;
  mo.tokenizes_input = info.tokenizes_input;
  mo.images = info.output == endpoint::OutputKind::kImages;
  mo.token_source = client_tokenizer ? metrics::TokenSource::kClientTokenizer
                                     : metrics::TokenSource::kServerUsage;
  mo.osl_mismatch_pct_threshold = env_double("AIPERF_METRICS_OSL_MISMATCH_PCT_THRESHOLD", 5.0);
  mo.osl_mismatch_max_token_threshold =
      env_double("AIPERF_METRICS_OSL_MISMATCH_MAX_TOKEN_THRESHOLD", 50.0);
  mo.usage_pct_diff_threshold = env_double("AIPERF_METRICS_USAGE_PCT_DIFF_THRESHOLD", 10.0);
  // Checked before the run (goodput_problem); a failure here cannot happen.
  if (auto e = metrics::resolve_goodput(c.metrics.goodput_targets, mo.goodput))
    spdlog::error("{}", *e);
  mo.cross_tool = c.metrics.cross_tool;
  mo.experimental = env_flag("AIPERF_DEV_MODE") && env_flag("AIPERF_DEV_SHOW_EXPERIMENTAL_METRICS");
  return mo;
}

namespace {

health::Assessment assess_client(const metrics::BenchmarkResult& result,
                                 const std::optional<health::ClientLoad>& load) {
  health::WorkDone work;
  work.requests = result.profiling_requests;
  work.events = result.profiling_events;
  if (const auto* lag = result.find("schedule_lag"); lag && lag->stats.count > 0) {
    work.schedule_lag_p50_ms = lag->stats.percentile(50);
    work.schedule_lag_p99_ms = lag->stats.percentile(99);
  }
  return health::assess(load, work);
}

// Past the accumulators' memory budget their values went through a scratch file.
void log_column_spills(std::size_t spilled, bool failed, std::string_view which) {
  if (spilled > 0)
    spdlog::info("{}metric columns: {} values went through a scratch file to keep memory bounded",
                 which, spilled);
  if (failed)
    spdlog::warn(
        "{}metric columns: the scratch file could not be written (disk full?); the rest of "
        "the values stayed in memory",
        which);
}

}  // namespace

struct ReportPass::State {
  State(const artifacts::ExportSettings& s, const report::ReportContext& c)
      : settings(s), ctx(c), acc(s.metric_options) {}
  artifacts::ExportSettings settings;
  report::ReportContext ctx;
  metrics::MetricsAccumulator acc;
  std::optional<metrics::TimesliceAccumulator> slices;
  std::optional<report::WorkloadTally> tally;  // refers to ctx.workload_plan
  std::optional<report::AtomicFile> records_file, raw_file;
  const metrics::MetricInfo* good = nullptr;
  std::string line;
};

ReportPass::ReportPass(const artifacts::ExportSettings& settings, const report::ReportContext& ctx,
                       std::size_t expected_records)
    : s_(std::make_unique<State>(settings, ctx)) {
  State& s = *s_;
  s.acc.reserve(expected_records);
  if (s.ctx.network_rtt_ns) s.acc.keep_base_values(metrics::network_sources());
  if (settings.slice_duration_s)
    s.slices.emplace(*settings.slice_duration_s, s.ctx.anchor, settings.metric_options);
  if (s.ctx.workload_plan) s.tally.emplace(*s.ctx.workload_plan);
  // With --goodput, every valid record says whether it met every objective (AIPerf 0.11: 0/1).
  s.good = report::goodput_metric(!settings.metric_options.goodput.empty());
  const artifacts::ExportNames names = artifacts::export_names(settings.export_prefix);
  if (settings.export_level != config::ExportLevel::kSummary)
    s.records_file.emplace(s.ctx.artifact_dir / names.records_jsonl);
  if (settings.export_level == config::ExportLevel::kRaw)
    s.raw_file.emplace(s.ctx.artifact_dir / names.raw_jsonl);
}

ReportPass::~ReportPass() = default;

void ReportPass::add(const records::RequestRecord& r) {
  State& s = *s_;
  if (s.tally) s.tally->add(r);
  if (s.slices) s.slices->add(r);
  const metrics::RecordValues* rv = s.acc.add(r);
  if (!rv) return;
  if (s.records_file && s.records_file->is_open() &&
      report::records_jsonl_line(*rv, s.good, s.ctx, s.line))
    s.records_file->append(s.line);
  if (s.raw_file && s.raw_file->is_open() && r.raw) {
    s.raw_file->append(report::raw_jsonl_line(r, s.ctx));
    s.raw_file->append("\n");
  }
}

int report_results(const std::vector<records::RequestRecord>& records,
                   const artifacts::ExportSettings& settings, const report::ReportContext& ctx) {
  ReportPass pass(settings, ctx, records.size());
  for (const auto& r : records) pass.add(r);
  return pass.finish();
}

void ReportPass::set_workload(report::WorkloadExpectation workload) {
  s_->ctx.workload = std::move(workload);
}

int ReportPass::finish() {
  State& s = *s_;
  const artifacts::ExportSettings& settings = s.settings;
  metrics::BenchmarkResult result = s.acc.finish();
  log_column_spills(s.acc.spilled_values(), s.acc.spill_failed(), "");
  report::ReportContext& ctx = s.ctx;
  report::add_gpu_energy_metrics(result, ctx);
  for (const auto& w : report::add_network_adjusted_metrics(result, ctx)) spdlog::warn("{}", w);
  const health::Assessment health = assess_client(result, ctx.client_load);
  if (s.tally) ctx.workload_integrity = s.tally->json(ctx.was_cancelled);
  ctx.client_health = health.block;
  for (const auto& w : health.warnings) {
    spdlog::warn("client saturated: {}; the numbers may measure inferperf, not the server", w);
  }
  for (const auto& w : health.contention) {
    // A fact of the host (the server on the same cores, most often), said under the results too.
    spdlog::info("host contended: {}; the timings include waits for a CPU", w);
  }
  if (result.records_without_usage > 0) {
    spdlog::warn("{} of {} valid responses have no token counts; their token metrics are missing",
                 result.records_without_usage, result.valid_count);
  }
  const fs::path& dir = ctx.artifact_dir;
  bool export_ok = true;
  auto written = [&](const fs::path& p, const core::Result<bool>& w, const char* label) {
    if (!w) {
      spdlog::error("{}", w.error().describe());
      export_ok = false;
      return;
    }
    if (label) std::cout << label << ": " << p.string() << "\n";
  };
  auto write = [&](const fs::path& p, const std::string& content, const char* label) {
    written(p, report::write_atomically(p, content), label);
  };

  std::cout << "\n" << report::render_metrics_table(result, ctx);
  std::cout << "token source: " << ctx.token_source << "\n";
  if (const auto& sb = ctx.server_behaviour; !sb.is_null()) {
    std::vector<std::string> said;
    if (const auto n = sb.value("connection_retry_count", std::int64_t{0}); n > 0) {
      said.push_back(fmt::format(
          "{} request(s) met a connection the server had just closed and were sent again on a "
          "new one (not errors)",
          n));
    }
    if (sb.value("closes_connection_after_stream", false))
      said.push_back("the server closes connections after streamed responses");
    std::cout << "connections: " << fmt::format("{}", fmt::join(said, "; ")) << "\n";
  }
  if (auto errors = report::render_error_table(result); !errors.empty())
    std::cout << "\n" << errors;
  if (auto advice = report::render_error_advice(result); !advice.empty())
    std::cout << "\n" << advice;
  if (settings.show_trace_timing) {
    if (auto trace = report::render_trace_table(result); !trace.empty()) std::cout << "\n" << trace;
  }
  if (auto server = report::render_server_timings_table(result); !server.empty())
    std::cout << "\n" << server;
  if (ctx.show_gpu_telemetry) {
    if (auto gpu = report::render_gpu_telemetry(ctx.telemetry_data); !gpu.empty())
      std::cout << "\n" << gpu;
    else if (!ctx.gpu_telemetry_note.empty())
      std::cout << "\n" << ctx.gpu_telemetry_note << "\n";
  }
  if (auto warnings = report::render_token_warnings(result, settings.metric_options, ctx);
      !warnings.empty())
    std::cout << "\n" << warnings;
  if (ctx.workload) {
    if (auto w =
            report::render_workload_warning(report::workload_check_json(result, *ctx.workload));
        !w.empty())
      std::cout << "\n" << w;
  }
  if (auto w = report::render_workload_integrity(ctx.workload_integrity); !w.empty())
    std::cout << "\n" << w;
  std::cout << "\nCLI Command: " << ctx.cli_command << "\n";
  if (const auto* d = result.find("benchmark_duration")) {
    std::cout << fmt::format("Benchmark Duration: {:.2f} sec\n", d->value);
  }
  const artifacts::ExportNames names = artifacts::export_names(settings.export_prefix);
  write(dir / names.summary_csv,
        report::summary_csv(result) + report::gpu_telemetry_csv(ctx.telemetry_data), "CSV Export");
  write(dir / names.summary_json,
        report::summary_json(result, ctx).dump(2, ' ', false, kReplaceInvalidUtf8), "JSON Export");
  if (s.slices) {
    log_column_spills(s.slices->spilled_values(), s.slices->spill_failed(), "timeslice ");
    const auto slices = s.slices->finish();
    write(dir / names.timeslices_csv, report::timeslices_csv(slices), "Timeslice CSV Export");
    write(dir / names.timeslices_json,
          report::timeslices_json(slices, ctx).dump(2, ' ', false, kReplaceInvalidUtf8),
          "Timeslice JSON Export");
  }
  if (s.records_file)
    written(dir / names.records_jsonl, s.records_file->commit(), "Records Export");
  if (s.raw_file) written(dir / names.raw_jsonl, s.raw_file->commit(), "Raw Export");
  std::cout << "Raw Records: " << (dir / artifacts::kRecordsFileName).string() << "\n";
  std::cout << "Log File: " << (dir / artifacts::kLogsFolderName / artifacts::kLogFileName).string()
            << "\n";
  if (health.saturated) {
    std::cout << "Client health: SATURATED (" << fmt::format("{}", fmt::join(health.warnings, "; "))
              << ")\n";
  }
  if (health.host_contended) {
    std::cout << "Host: CONTENDED, inferperf's threads waited for CPUs another process held ("
              << fmt::format("{}", fmt::join(health.contention, "; "))
              << "); the client was not saturated, but its timestamps include those waits\n";
  }
  if (ctx.failure_threshold_exceeded) {
    std::cout << "The benchmark was stopped early: failed requests exceeded "
                 "--failed-request-threshold.\n";
  } else if (ctx.was_cancelled) {
    std::cout << "The benchmark was cancelled early; results may be incomplete.\n";
  }
  std::cout.flush();
  spdlog::default_logger()->flush();

  if (ctx.failure_threshold_exceeded) return kExitRunFailed;
  if (ctx.was_cancelled) return kExitSignal;
  if (!export_ok) return kExitRunFailed;
  if (result.valid_count == 0) {
    spdlog::error("no request produced a valid record ({} errors)", result.error_count);
    return kExitRunFailed;
  }
  if (ctx.fail_on_incomplete_workload && !ctx.workload_integrity.value("complete", true)) {
    spdlog::error("--fail-on-incomplete-workload: the workload was not measured completely");
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace inferperf::app
