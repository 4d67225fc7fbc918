// Preflight: one real request before the run proves the server answers, so a wrong URL, an
// unknown model or a rejected body fails in seconds (exit 1) instead of a run full of errors.
#pragma once
#include <string>

#include "worker/request_plan.hpp"

namespace inferperf::app {

struct PreflightResult {
  bool ok = false;
  std::string message;  // why it failed, or a warning when it passed with a server error
  int attempts = 0;
};

// Sends the first conversation's first turn (max tokens capped small) to the first target.
// Connection failures, 404 and 503 are retried every second until `wait_s` has passed (a model
// still loading); a 4xx fails at once; a 5xx passes with a warning (the server answers; its
// errors are measured by the run).
PreflightResult run_preflight(const worker::RequestPlan& plan, double wait_s);

}  // namespace inferperf::app
