// The readiness wait and network-latency options (AIPerf 0.11: --wait-for-model-mode/-interval,
// #841; --network-latency-*, #1066). --wait-for-model-timeout itself is in cli_endpoint.cpp.
#include "config/cli_areas.hpp"
#include "config/readiness_options.hpp"
#include "config/run_config.hpp"

namespace inferperf::config {

const char* to_string(ReadinessMode v) {
  switch (v) {
    case ReadinessMode::kModels:
      return "models";
    case ReadinessMode::kBoth:
      return "both";
    case ReadinessMode::kInference:
      break;
  }
  return "inference";
}

std::optional<ReadinessMode> readiness_mode_from(std::string_view name) {
  for (const ReadinessMode m :
       {ReadinessMode::kModels, ReadinessMode::kInference, ReadinessMode::kBoth}) {
    if (name == to_string(m)) return m;
  }
  return std::nullopt;
}

void add_readiness_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option_function<std::string>(
          "--wait-for-model-mode",
          [&c](const std::string& v) {
            c.readiness.mode = readiness_mode_from(v).value_or(ReadinessMode::kInference);
          },
          "With --wait-for-model-timeout: models (GET /v1/models lists the model), inference "
          "(a 1-token request answers below 500) or both, in that order (default inference)")
      ->transform(enum_choice({"models", "inference", "both"}))
      ->group("Endpoint");
  profile
      ->add_option("--wait-for-model-interval", c.readiness.interval_s,
                   "Seconds between readiness probes (default 5.0)")
      ->group("Endpoint");
  profile
      ->add_flag("--network-latency-automatic", c.network_latency.automatic,
                 "Probe the TCP handshake time to each --url during profiling and report "
                 "network_adjusted_* latencies (the round trip taken off)")
      ->group("Network Latency");
  profile
      ->add_option_function<double>(
          "--network-latency-mean", [&c](const double& v) { c.network_latency.mean_ms = v; },
          "A fixed network round trip in ms taken off the latencies instead of probing")
      ->group("Network Latency");
  profile
      ->add_option("--network-latency-ping-interval", c.network_latency.ping_interval_s,
                   "Seconds between probes with --network-latency-automatic (default 1.0)")
      ->group("Network Latency");
}

void validate_readiness_options(const RunConfig& c, std::vector<std::string>& errors) {
  // The ranges of the three numbers are checked with every numeric option (numeric_ranges.cpp).
  const NetworkLatencyConfig& n = c.network_latency;
  if (n.automatic && n.mean_ms) {
    errors.push_back(
        "--network-latency-automatic and --network-latency-mean exclude each other: probe the "
        "round trip or give it, not both");
  }
  if (c.set_options.count("--network-latency-ping-interval") && !n.automatic) {
    errors.push_back(
        "--network-latency-ping-interval applies only with --network-latency-automatic");
  }
}

}  // namespace inferperf::config
