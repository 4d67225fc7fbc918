// nvml_probe: checks NvmlSource on a real machine. Opens libnvidia-ml.so.1, samples every GPU
// twice one second apart and prints each GPU's identity and every metric with its unit, plus the
// counters' change between the two samples. Exit 0 when at least one GPU gave a reading, else 1.
//
// Builds without the project's dependencies:
//   g++ -std=c++20 -O2 -Isrc tools/nvml_probe.cpp src/telemetry/nvml.cpp src/core/error.cpp -ldl
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "telemetry/nvml.hpp"

namespace {

using inferperf::telemetry::GpuSample;
using inferperf::telemetry::kGpuMetricCount;
using inferperf::telemetry::kGpuMetrics;

std::int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

std::string shown(const std::optional<double>& value) {
  if (!value) return "n/a";
  char text[64];
  std::snprintf(text, sizeof text, "%.6f", *value);
  return text;
}

std::string or_unknown(const std::string& text) {
  return text.empty() ? "(unknown)" : text;
}

bool has_reading(const GpuSample& s) {
  for (const auto& value : s.values) {
    if (value) return true;
  }
  return false;
}

}  // namespace

int main() {
  auto source = inferperf::telemetry::NvmlSource::open();
  if (!source) {
    std::fprintf(stderr, "nvml_probe: %s\n", source.error().message.c_str());
    return 1;
  }
  const auto& nvml = *source;
  std::printf("NVML library %s: %zu GPU(s)\n", nvml->library().c_str(), nvml->gpu_count());
  for (const std::string& note : nvml->notes()) std::printf("note: %s\n", note.c_str());

  const std::vector<GpuSample> first = nvml->sample(now_ns());
  std::this_thread::sleep_for(std::chrono::seconds(1));
  const std::vector<GpuSample> second = nvml->sample(now_ns());

  int read = 0;
  for (std::size_t g = 0; g < second.size(); ++g) {
    const GpuSample& a = g < first.size() ? first[g] : second[g];
    const GpuSample& b = second[g];
    if (has_reading(b)) ++read;
    std::printf("\nGPU %d\n", b.gpu.index);
    std::printf("  name        %s\n", or_unknown(b.gpu.model_name).c_str());
    std::printf("  uuid        %s\n", or_unknown(b.gpu.uuid).c_str());
    std::printf("  pci bus id  %s\n", or_unknown(b.gpu.pci_bus_id).c_str());
    std::printf("  device      %s\n", or_unknown(b.gpu.device).c_str());
    std::printf("  hostname    %s\n", or_unknown(b.gpu.hostname).c_str());
    std::printf("  source      %s\n", b.source.c_str());
    std::printf("  %-22s %18s %18s  %-6s %s\n", "metric", "sample 1", "sample 2", "unit",
                "change (counters)");
    for (int m = 0; m < kGpuMetricCount; ++m) {
      const auto& info = kGpuMetrics[static_cast<std::size_t>(m)];
      const auto& before = a.values[static_cast<std::size_t>(m)];
      const auto& after = b.values[static_cast<std::size_t>(m)];
      std::string change;
      if (info.counter && before && after) change = shown(*after - *before);
      std::printf("  %-22s %18s %18s  %-6s %s\n", std::string(info.tag).c_str(),
                  shown(before).c_str(), shown(after).c_str(), std::string(info.unit).c_str(),
                  change.c_str());
    }
  }
  std::printf("\n%d of %zu GPU(s) read\n", read, second.size());
  return read > 0 ? 0 : 1;
}
