// Telemetry text formats: the custom GPU metrics CSV (--gpu-telemetry FILE.csv) and the
// Prometheus pages servers and DCGM exporters answer with. Bad CSV rows are refused with the
// line; bad page lines are skipped and counted, a page never fails as a whole.
//
// Input: [mode byte] CONTENT; mode odd: a custom metrics CSV, even: a metrics page.
#include <cstdint>
#include <string>
#include <vector>

#include "fuzz_input.hpp"
#include "scratch_file.hpp"
#include "telemetry/dcgm.hpp"
#include "telemetry/prometheus.hpp"

namespace telemetry = inferperf::telemetry;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  inferperf::fuzz::FuzzInput in(data, size);
  if ((in.byte() & 1) != 0) {
    const auto path = inferperf::fuzz::write_scratch_file("custom_metrics.csv", in.rest());
    auto fields = telemetry::load_custom_gpu_fields(path.string());
    if (!fields) FUZZ_CHECK(!fields.error().message.empty());
    return 0;
  }
  const telemetry::Page page = telemetry::parse_prometheus(in.rest());
  FUZZ_CHECK(page.skipped_lines >= 0);
  FUZZ_CHECK(page.skipped_lines == 0 || !page.first_problem.empty());
  for (const auto& family : page.families) {
    if (family.type == telemetry::MetricType::kHistogram) (void)telemetry::histograms_of(family);
  }
  static const std::vector<telemetry::CustomGpuField> kCustom = {
      {"DCGM_FI_DEV_SM_CLOCK", "sm_clock", "SM clock", false},
      {"DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "pipe_tensor_active", "tensor", true}};
  (void)telemetry::gpu_samples_from_page(page, "http://fuzz/metrics", 0, kCustom);
  return 0;
}
