// DCGM exporter pages to GPU samples: AIPerf's field mapping and units, the labels that identify a
// GPU, and the custom metrics CSV (`DCGM_FIELD, type, help` rows) that adds fields to collect.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "telemetry/gpu_sample.hpp"
#include "telemetry/prometheus.hpp"

namespace inferperf::telemetry {

struct CustomGpuField {
  std::string field;  // e.g. DCGM_FI_DEV_SM_CLOCK
  std::string tag;    // e.g. sm_clock: the field without its DCGM_FI_DEV_/DCGM_FI_PROF_ prefix
  std::string help;
  bool counter = false;
};

// Reads a dcgm-exporter custom metrics CSV: '#' comments and blank lines skipped; each row
// `DCGM_FIELD, type, help` with type gauge or counter. Errors name the file and line.
core::Result<std::vector<CustomGpuField>> load_custom_gpu_fields(const std::string& path);

// One sample per GPU found on the page (keyed by the `gpu` label, else UUID). Fields that are not
// on the page stay unset.
std::vector<GpuSample> gpu_samples_from_page(const Page& page, const std::string& source,
                                             std::int64_t mono_ns,
                                             const std::vector<CustomGpuField>& custom = {});

}  // namespace inferperf::telemetry
