// Opens NVML by its default name, libnvidia-ml.so.1, as `--gpu-telemetry nvml` does. CTest runs
// this with LD_LIBRARY_PATH pointing at the stub's folder, so the stub is found by the loader's
// search exactly as a driver's library would be. Exit 0 when the stub's GPU 0 reads as expected.
#include <iostream>

#include "telemetry/nvml.hpp"

int main() {
  using namespace inferperf::telemetry;
  auto source = NvmlSource::open();
  if (!source) {
    std::cerr << source.error().message << "\n";
    return 1;
  }
  const auto samples = (*source)->sample(0);
  if (samples.size() != 2 || samples[0][GpuMetric::kPowerUsage] != 123.456 ||
      samples[0].gpu.uuid != "GPU-0c0ffee0-0000-4000-8000-000000000000") {
    std::cerr << "libnvidia-ml.so.1 found, but it is not the test stub (or reads wrong)\n";
    return 1;
  }
  std::cout << "stub opened as " << (*source)->library() << ": GPU 0 at "
            << *samples[0][GpuMetric::kPowerUsage] << " W\n";
  return 0;
}
