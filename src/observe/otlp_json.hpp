// The OTLP/HTTP JSON encoding of a LiveMetrics snapshot (ExportMetricsServiceRequest, proto3 JSON
// mapping: 64-bit integers as strings, enums as numbers). Domain `metrics`: the GenAI semantic
// conventions' client histograms; domain `timing`: AIPerf's per-phase counters and gauges. Every
// series is cumulative from `start_unix_ns` (docs/observability.md).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "observe/live_metrics.hpp"

namespace inferperf::observe {

struct OtlpIdentity {
  std::string service_version;
  std::vector<std::pair<std::string, std::string>> resource_attributes;  // after service.*
  std::string operation_name = "chat";                                   // gen_ai.operation.name
  std::string provider_name = "openai";                                  // gen_ai.provider.name
  std::string request_model;                                             // gen_ai.request.model
  bool metrics = true;                                                   // the GenAI histograms
  bool timing = true;                                                    // aiperf.timing.*
};

std::string encode_otlp_json(const MetricsSnapshot& s, const OtlpIdentity& id,
                             std::int64_t start_unix_ns);

// gen_ai.operation.name for an endpoint type name (chat, completions, embeddings...).
std::string gen_ai_operation_name(const std::string& endpoint_type);

}  // namespace inferperf::observe
