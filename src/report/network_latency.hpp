// AIPerf 0.11's network-latency adjustment (#1066): the probes of the network round trip to each
// --url and the network_adjusted_* metrics (each latency less the round trip, floored at 0).
#pragma once
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "metrics/compute.hpp"
#include "report/report_context.hpp"

namespace inferperf::report {

// One probe: a fresh TCP connection to one endpoint, timed from connect to established.
struct NetworkProbe {
  std::int64_t timestamp_ns = 0;  // wall clock when the probe began
  std::string target_url;         // the --url, credentials stripped
  std::string target_host;
  int target_port = 0;
  std::string probe_type = "tcp_connect";
  std::optional<std::int64_t> rtt_ns;  // set when the connection was made
  std::string error;                   // why not, otherwise
};

// {"timestamp_ns","target_url","target_host","target_port","probe_type","rtt_ns" (null when the
// probe failed),"success","error" (only on failure)}, in that order.
nlohmann::ordered_json network_probe_json(const NetworkProbe& p);
// One line per probe, in the order given.
std::string network_probes_jsonl(const std::vector<NetworkProbe>& probes);
// The mean round trip of the successful probes; nullopt when none succeeded.
std::optional<double> mean_probe_rtt_ns(const std::vector<NetworkProbe>& probes);

// With ctx.network_rtt_ns: network_rtt (a scalar) and, for each of request_latency,
// time_to_first_token and time_to_first_output_token that has values, its network_adjusted_*
// twin with full statistics over the per-request values less the round trip, floored at 0. Keeps
// result.metrics in catalogue order; the originals stay. Returns a warning per metric where
// values were floored.
std::vector<std::string> add_network_adjusted_metrics(metrics::BenchmarkResult& result,
                                                      const ReportContext& ctx);

}  // namespace inferperf::report
