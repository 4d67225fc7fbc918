#include "report/network_latency.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <utility>

namespace inferperf::report {

nlohmann::ordered_json network_probe_json(const NetworkProbe& p) {
  nlohmann::ordered_json j;
  j["timestamp_ns"] = p.timestamp_ns;
  j["target_url"] = p.target_url;
  j["target_host"] = p.target_host;
  j["target_port"] = p.target_port;
  j["probe_type"] = p.probe_type;
  j["rtt_ns"] = p.rtt_ns ? nlohmann::ordered_json(*p.rtt_ns) : nlohmann::ordered_json(nullptr);
  j["success"] = p.rtt_ns.has_value();
  if (!p.rtt_ns) j["error"] = p.error;
  return j;
}

std::string network_probes_jsonl(const std::vector<NetworkProbe>& probes) {
  std::string out;
  for (const auto& p : probes) {
    out += network_probe_json(p).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    out += '\n';
  }
  return out;
}

std::optional<double> mean_probe_rtt_ns(const std::vector<NetworkProbe>& probes) {
  double sum = 0;
  std::int64_t n = 0;
  for (const auto& p : probes) {
    if (!p.rtt_ns) continue;
    sum += static_cast<double>(*p.rtt_ns);
    ++n;
  }
  if (n == 0) return std::nullopt;
  return sum / static_cast<double>(n);
}

namespace {

std::size_t network_catalogue_position(const metrics::MetricInfo* info) {
  return static_cast<std::size_t>(info - metrics::catalogue().data());
}

}  // namespace

std::vector<std::string> add_network_adjusted_metrics(metrics::BenchmarkResult& result,
                                                      const ReportContext& ctx) {
  std::vector<std::string> warnings;
  if (!ctx.network_rtt_ns) return warnings;
  const double rtt = *ctx.network_rtt_ns;
  static constexpr std::array<std::pair<const char*, const char*>, 3> kPairs = {{
      {"request_latency", "network_adjusted_request_latency"},
      {"time_to_first_token", "network_adjusted_time_to_first_token"},
      {"time_to_first_output_token", "network_adjusted_time_to_first_output_token"},
  }};
  for (const auto& [source_tag, adjusted_tag] : kPairs) {
    const metrics::MetricInfo* source = metrics::find_metric(source_tag);
    const metrics::MetricInfo* adjusted = metrics::find_metric(adjusted_tag);
    std::vector<double> values;
    std::int64_t floored = 0;
    for (const auto& [info, column] : result.base_values) {
      if (info != source) continue;
      values.reserve(column.size());
      for (double x : column) {
        const double v = x - rtt;
        if (v < 0) ++floored;
        values.push_back(std::max(0.0, v) / adjusted->scale);
      }
    }
    if (values.empty()) continue;
    if (floored > 0) {
      warnings.push_back(fmt::format(
          "{}: {} of {} values were below the network round trip ({:.3f} ms) and count as 0",
          adjusted_tag, floored, values.size(), rtt / 1e6));
    }
    metrics::MetricResult m;
    m.info = adjusted;
    m.stats = core::compute_stats(std::move(values));
    result.metrics.push_back(std::move(m));
  }
  metrics::MetricResult m;
  m.info = metrics::find_metric("network_rtt");
  m.scalar = true;
  m.value = rtt / m.info->scale;
  result.metrics.push_back(m);
  std::stable_sort(result.metrics.begin(), result.metrics.end(), [](const auto& a, const auto& b) {
    return network_catalogue_position(a.info) < network_catalogue_position(b.info);
  });
  return warnings;
}

}  // namespace inferperf::report
