// The per-record half of the metrics: every value one record contributes.
#pragma once
#include "metrics/compute.hpp"

namespace inferperf::metrics {

struct RecordFlags {
  bool osl_mismatch = false;
  bool usage_compared = false;  // some usage count could be compared with the client's
  bool usage_discrepancy = false;
};

RecordValues record_values(const records::RequestRecord& r, const MetricOptions& o,
                           RecordFlags& flags);

// Token counts the AIPerf-named metrics use: the client tokenizer's, or the server's usage with
// --use-server-token-count.
struct TokenCounts {
  std::optional<double> output;     // non-reasoning output tokens
  std::optional<double> reasoning;  // reasoning tokens
  std::optional<double> input;
};
TokenCounts token_counts(const records::RequestRecord& r, TokenSource source);

}  // namespace inferperf::metrics
