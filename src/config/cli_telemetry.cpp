// The telemetry options, and the service ones: metrics, logging, the UI, AIPerf internals.
#include "config/cli_areas.hpp"

namespace inferperf::config {

// Telemetry, server metrics, metrics, logging and the UI.
void add_telemetry_and_service_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--gpu-telemetry", t.gpu_items,
                   "GPU telemetry: DCGM exporter URLs (host:port gets http:// and /metrics), "
                   "'nvml' (alias 'pynvml') for local NVML, 'dashboard', or a custom metrics .csv; "
                   "also prints the GPU summary. localhost:9400 and :9401 are always probed")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->group("Telemetry");
  profile->add_flag("--no-gpu-telemetry", c.telemetry.no_gpu, "Collect no GPU telemetry")
      ->group("Telemetry");
  profile
      ->add_option("--server-metrics", t.server_items,
                   "More Prometheus endpoints to scrape besides each --url's /metrics")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->group("Server Metrics");
  profile
      ->add_flag("--no-server-metrics", c.telemetry.no_server_metrics, "Scrape no server metrics")
      ->group("Server Metrics");
  profile
      ->add_option("--server-metrics-formats", t.server_formats,
                   "Server metrics files: json csv jsonl (default json csv)")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->group("Server Metrics");

  profile
      ->add_option("--goodput", t.goodput,
                   "Service-level objectives 'tag:value ...' in display units (e.g. "
                   "time_to_first_token:200 inter_token_latency:20); adds goodput and "
                   "good_request_count")
      ->group("Metrics");
  profile
      ->add_flag("--show-trace-timing", c.metrics.show_trace_timing,
                 "Print the HTTP phase timing table (http_req_*) on the console")
      ->group("Metrics");
  profile
      ->add_flag("--export-http-trace", c.metrics.export_http_trace,
                 "Add each request's HTTP timestamps as trace_data to profile_export.jsonl")
      ->group("Metrics");
  profile
      ->add_flag("--cross-tool-metrics", c.metrics.cross_tool,
                 "Also compute vllm_tpot, vllm_itl, guidellm_tpot and ntpot (docs/metrics.md)")
      ->group("Metrics");
  profile
      ->add_option("--log-level", t.log_level,
                   "TRACE|DEBUG|INFO|NOTICE|WARNING|SUCCESS|ERROR|CRITICAL")
      ->transform(enum_choice(
          {"TRACE", "DEBUG", "INFO", "NOTICE", "WARNING", "SUCCESS", "ERROR", "CRITICAL"}))
      ->group("Service");
  profile->add_flag("-v,--verbose", t.verbose, "DEBUG logging")->group("Service");
  profile->add_flag("--extra-verbose", t.extra_verbose, "TRACE logging (also -vv)")
      ->group("Service");
  profile
      ->add_option(
          "--ui-type,--ui", t.ui,
          "dashboard | simple | none. Default: dashboard when stdout is a terminal, simple "
          "with -v/-vv, none when stdout is not a terminal")
      ->transform(enum_choice({"dashboard", "simple", "none"}))
      ->group("Service");
  static bool internal_switch = false;
  for (std::size_t i = 0; i < kInternalFlags.size(); ++i) {
    if (is_internal_switch(kInternalFlags[i])) {
      profile->add_flag(kInternalFlags[i], internal_switch, "AIPerf internal tuning (ignored)")
          ->group("Ignored AIPerf internals");
      continue;
    }
    CLI::Option* o = profile
                         ->add_option(kInternalFlags[i], t.internal_values[i],
                                      "AIPerf internal tuning (ignored)")
                         ->group("Ignored AIPerf internals");
    // Ignored, but a port AIPerf 0.11 would refuse is refused here too.
    if (kInternalFlags[i] == "--api-port") o->check(CLI::Range(1, 65535));
  }
}

}  // namespace inferperf::config
