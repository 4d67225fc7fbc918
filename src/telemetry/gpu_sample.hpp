// One GPU's readings at one scrape, in AIPerf's units, whichever source produced them (a DCGM
// exporter page or NVML). The metric table fixes names, headers, units and which are counters.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inferperf::telemetry {

enum class GpuMetric : int {
  kPowerUsage = 0,      // W
  kEnergyConsumption,   // MJ (counter)
  kGpuUtilization,      // %
  kMemoryUsed,          // GB
  kTemperature,         // °C
  kMemUtilization,      // %
  kSmUtilization,       // %
  kDecoderUtilization,  // %
  kEncoderUtilization,  // %
  kJpegUtilization,     // %
  kXidErrors,           // count (counter)
  kPowerViolation,      // µs (counter)
  kCount
};
inline constexpr int kGpuMetricCount = static_cast<int>(GpuMetric::kCount);

struct GpuMetricInfo {
  std::string_view tag;     // key in telemetry_data, e.g. "gpu_power_usage"
  std::string_view header;  // console / CSV header, e.g. "GPU Power Usage"
  std::string_view unit;    // display unit, e.g. "W"
  bool counter;             // summarised as last − first in the profiling window
};

// In AIPerf's display order.
inline constexpr std::array<GpuMetricInfo, kGpuMetricCount> kGpuMetrics = {{
    {"gpu_power_usage", "GPU Power Usage", "W", false},
    {"energy_consumption", "Energy Consumption", "MJ", true},
    {"gpu_utilization", "GPU Utilization", "%", false},
    {"gpu_memory_used", "GPU Memory Used", "GB", false},
    {"gpu_temperature", "GPU Temperature", "°C", false},
    {"mem_utilization", "Memory Utilization", "%", false},
    {"sm_utilization", "SM Utilization", "%", false},
    {"decoder_utilization", "Decoder Utilization", "%", false},
    {"encoder_utilization", "Encoder Utilization", "%", false},
    {"jpg_utilization", "JPEG Utilization", "%", false},
    {"xid_errors", "XID Errors", "count", true},
    {"power_violation", "Power Violation", "µs", true},
}};

inline const GpuMetricInfo& info(GpuMetric m) {
  return kGpuMetrics[static_cast<int>(m)];
}

// Identity of a GPU as its source labels it; empty strings when unknown.
struct GpuIdentity {
  int index = 0;
  std::string uuid;
  std::string model_name;
  std::string pci_bus_id;
  std::string device;  // e.g. "nvidia0"
  std::string hostname;
  std::string namespace_;  // Kubernetes, DCGM exporter labels
  std::string pod;
};

struct GpuSample {
  std::int64_t mono_ns = 0;  // core::SteadyClock time the scrape's answer arrived
  std::string source;        // the endpoint URL, or "nvml"
  GpuIdentity gpu;
  std::array<std::optional<double>, kGpuMetricCount> values{};  // scaled; nullopt = not reported
  // Fields from a --gpu-telemetry custom metrics CSV, by tag (see dcgm.hpp), unscaled.
  std::vector<std::pair<std::string, double>> custom;

  std::optional<double>& operator[](GpuMetric m) { return values[static_cast<int>(m)]; }
  const std::optional<double>& operator[](GpuMetric m) const { return values[static_cast<int>(m)]; }
};

}  // namespace inferperf::telemetry
