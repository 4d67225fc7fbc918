// The profile's inputs.json: every turn's body built from the request plan (the first turn's
// exactly as sent; later turns built in isolation, as AIPerf), credentials redacted. The file's
// format and its streaming are artifacts::write_inputs_json's.
#pragma once
#include <filesystem>

#include "artifacts/inputs_json.hpp"
#include "core/error.hpp"
#include "dataset/conversation.hpp"
#include "worker/request_plan.hpp"

namespace inferperf::app {

// Writes inputs.json at `path`. Keeps each conversation's first body in `plan.bodies` unless its
// prompt is assembled per request.
core::Result<artifacts::InputsJsonStats> write_run_inputs(const std::filesystem::path& path,
                                                          const dataset::Dataset& ds,
                                                          worker::RequestPlan& plan);

}  // namespace inferperf::app
