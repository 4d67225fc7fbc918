// The trace workload check: a clean run of the wrong workload is the worst failure, so after a
// trace run the measured ISL/OSL averages are compared with what the rows sent asked for.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

#include "metrics/compute.hpp"

namespace inferperf::report {

// What the sent rows declared, over the valid profiling requests (computed when the run ends,
// kept in the run manifest so `inferperf analyze` reproduces the check).
struct WorkloadExpectation {
  std::string dataset_type;
  std::size_t rows = 0;           // valid requests compared
  std::optional<double> isl_avg;  // declared input lengths (every compared row has one)
  std::optional<double> osl_avg;  // requested output lengths (every compared row has one)
  double tolerance_pct = 10.0;
};

nlohmann::ordered_json expectation_json(const WorkloadExpectation& e);
WorkloadExpectation expectation_from_json(const nlohmann::ordered_json& j);

// The `workload_check` block: expected and measured averages, deviations, verdict and the likely
// causes of a deviation. Null when nothing could be compared.
nlohmann::ordered_json workload_check_json(const metrics::BenchmarkResult& result,
                                           const WorkloadExpectation& e);
// The console warning for a failed check ("" when it passed or was not made).
std::string render_workload_warning(const nlohmann::ordered_json& check);

}  // namespace inferperf::report
