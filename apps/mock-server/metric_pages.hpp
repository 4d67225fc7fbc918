// Prometheus text pages shaped like the metrics of real inference engines (vLLM, SGLang,
// TensorRT-LLM, Dynamo frontend and workers), filled from what the mock served. Pure functions of
// a ServedSnapshot, so their format is unit-tested without sockets.
#pragma once
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "served_stats.hpp"

namespace inferperf::mock {

using PromLabels = std::vector<std::pair<std::string, std::string>>;

// Label value escaping of the text format: backslash, double quote and newline.
std::string prom_escape_label(std::string_view value);
// HELP text escaping: backslash and newline.
std::string prom_escape_help(std::string_view text);
// A sample value as Python's prometheus_client writes it: "1.0", "0.005", "1.7e+09", "+Inf".
std::string python_float(double v);
// A sample value as Rust's client writes it: shortest digits without an exponent, "1" for 1.0,
// "0.000053741", "+Inf".
std::string plain_float(double v);

// Builds one page. kPython: labels in the given order, counters and histograms also get a
// `_created` sample and histograms end with _count, _sum; kRust: labels sorted by name,
// histograms end with _sum, _count, no `_created`.
class PromWriter {
 public:
  enum class Style { kPython, kRust };
  PromWriter(Style style, double created_unix_s) : style_(style), created_(created_unix_s) {}

  void gauge(std::string_view name, std::string_view help, const PromLabels& labels, double v);
  // `name` ends in _total; several label sets may follow with more_counter().
  void counter(std::string_view name, std::string_view help, const PromLabels& labels, double v);
  void more_counter(std::string_view name, const PromLabels& labels, double v);
  void histogram(std::string_view name, std::string_view help, const PromLabels& labels,
                 const Distribution::Snapshot& d, const std::vector<double>& bounds);
  std::string take() { return std::move(out_); }

 private:
  void family(std::string_view name, std::string_view type, std::string_view help);
  void sample(std::string_view name, PromLabels labels, double v);
  std::string value(double v) const;

  Style style_;
  double created_;
  std::string out_;
};

struct EnginePageInfo {
  std::string model_name;   // the served model (--model-name)
  double start_unix_s = 0;  // server start, for prometheus_client's `_created` samples
};

// The fake KV cache the engine pages report on: 8192 blocks of 16 tokens.
inline constexpr int kKvBlockSize = 16;
inline constexpr int kKvBlocks = 8192;
double kv_cache_usage(const ServedSnapshot& s);  // 0..1

std::string vllm_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info);
std::string sglang_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info);
std::string trtllm_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info);
std::string dynamo_frontend_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info);
// A Dynamo worker: the prefill one sees requests up to their first token, the decode one after.
std::string dynamo_component_metrics_page(const ServedSnapshot& s, const EnginePageInfo& info,
                                          bool prefill);
// The histograms appended to the mock's own /metrics page.
std::string mock_histograms_page(const ServedSnapshot& s);

}  // namespace inferperf::mock
