// Prometheus text exposition format (version 0.0.4, and the OpenMetrics forms servers mix into it):
// families with TYPE and HELP, samples with escaped labels, optional timestamps. Lines that cannot
// be read are skipped and counted; a page is never rejected as a whole.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace inferperf::telemetry {

enum class MetricType { kUntyped, kCounter, kGauge, kHistogram, kSummary, kInfo };
std::string_view to_string(MetricType t);

// Sorted by name, so equal label sets compare equal.
using Labels = std::vector<std::pair<std::string, std::string>>;

struct Sample {
  std::string name;  // full sample name, e.g. "x_bucket" of family "x"
  Labels labels;
  double value = 0.0;
  std::optional<std::int64_t> timestamp_ms;
};

struct Family {
  std::string name;
  MetricType type = MetricType::kUntyped;
  std::string help;
  std::vector<Sample> samples;
};

struct Page {
  std::vector<Family> families;  // in page order
  int skipped_lines = 0;
  std::string first_problem;  // "line N: why", for the log

  const Family* find(std::string_view name) const;
};

Page parse_prometheus(std::string_view text);

// A histogram family's series: one per label set without "le".
struct Histogram {
  Labels labels;
  std::vector<std::pair<double, double>> buckets;  // (le, cumulative count), ascending le
  double sum = 0.0;
  double count = 0.0;
};
std::vector<Histogram> histograms_of(const Family& family);

// Label value as written in the exposition format (backslash, quote and newline escaped).
std::string escape_label_value(std::string_view v);
// Prometheus number text: "+Inf", "-Inf", "NaN" or the shortest round-tripping decimal.
std::string format_number(double v);

}  // namespace inferperf::telemetry
