// Pieces shared by the summary exporters and the timeslice exporters, so both print metrics
// identically.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "metrics/compute.hpp"

namespace inferperf::report {

// One metric as AIPerf's JsonMetricResult: unit, avg, percentiles, min, max, std, count, sum
// (scalars: unit and avg). Display units. Defined in summary_json.cpp.
nlohmann::ordered_json metric_object(const metrics::MetricResult& m);

// The rest is defined in summary_csv.cpp.
// A CSV cell as Python's csv.writer writes it: quoted only when it holds a comma, quote or
// newline.
std::string csv_field(std::string_view text);
// Integers bare (when `integral`), everything else %.2f.
std::string csv_number(double v, bool integral);
// The metrics of `r` in CSV row order: AIPerf tags sorted by name, then inferperf's own, so AIPerf
// rows keep their relative order. `records` / `scalars` choose which kinds are included.
std::vector<const metrics::MetricResult*> csv_order(const metrics::BenchmarkResult& r, bool records,
                                                    bool scalars);

}  // namespace inferperf::report
