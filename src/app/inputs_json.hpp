// inputs.json (spec 3.6), streamed: one conversation's payloads at a time, so a trace whose
// prompts would not fit in memory together is still written in full.
#pragma once
#include <filesystem>

#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "worker/request_plan.hpp"

namespace inferperf::app {

struct InputsJsonStats {
  std::size_t conversations = 0;
  std::size_t payloads = 0;
  std::size_t bytes = 0;
};

// Writes every turn's payload (the first turn's exactly as sent; later turns built in isolation,
// as AIPerf) through a temporary file renamed into place. Keeps each conversation's first body in
// `plan.bodies` unless its prompt is assembled per request.
core::Result<InputsJsonStats> write_inputs_json(const std::filesystem::path& path,
                                                const dataset::Dataset& ds,
                                                worker::RequestPlan& plan);

}  // namespace inferperf::app
