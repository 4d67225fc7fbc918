// The readiness wait (--wait-for-model-timeout/-mode/-interval, AIPerf 0.11 #841): before any other
// request of the run (model discovery, telemetry, preflight), every (URL, model) pair is probed
// until it is ready or the timeout has passed; then the run stops with exit 1.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "app/profile/preflight.hpp"
#include "app/profile/run_setup.hpp"
#include "config/run_config.hpp"
#include "endpoint/endpoint.hpp"

namespace inferperf::app {

// What one probe asks: GET {url}/v1/models, GET on the base URL (after a 404 there), or the
// canned 1-token POST to the endpoint's path.
enum class ReadinessStep { kModels, kBaseUrl, kInference };

// One probe's answer: no head at all (`error` says why), or the head and the start of the body.
struct ReadinessAnswer {
  AnswerHead head;    // head.status 0: no answer
  std::string body;   // the whole body, up to a limit (the model list)
  std::string error;  // a connection failure or timeout
};

enum class ReadinessVerdict {
  kReady,     // this step passed
  kRetry,     // not yet: ask again after the interval
  kFallBack,  // models: 404, ask the base URL instead (at once)
  kGiveUp,    // a web server answered the POST: no wait makes it an LLM API
};

// True when the body is a model list ({"data":[{"id":...}]}) naming `model`; an empty `model`
// (no -m: the run takes the first listed) is satisfied by any id.
bool model_listed(const std::string& body, const std::string& model);

// The rules: models: a 2xx listing the model is ready, a 404 falls back to the base URL, anything
// else retries; base URL: 2xx ready, else retry; inference: a web server's answer gives up (as
// the preflight), any status below 500 is ready, 5xx and no answer retry.
ReadinessVerdict judge_readiness(ReadinessStep step, const ReadinessAnswer& a,
                                 const std::string& model);

// The canned request body: chat {"messages":[{"role":"user","content":"Lo"}],"max_tokens":1,
// "model":M}, completions {"prompt":"Lo","max_tokens":1,"model":M}; other endpoint types get the
// body their module builds from a one-word turn, with a 1-token output limit where they have one.
nlohmann::ordered_json readiness_body(const endpoint::Endpoint& endpoint, const std::string& model,
                                      bool legacy_max_tokens);

// The wait, when --wait-for-model-timeout > 0 (else nothing): each --url, each -m (without -m: the
// model list must name one, whatever the mode), one probe per --wait-for-model-interval under one
// deadline, the last at the deadline. Uses the run's TLS settings, socket, source addresses and
// headers (-H, the API key). Each attempt is logged at info. Stops the run (exit 1) on timeout or
// when a web server answers.
StageExit wait_for_model_readiness(const ProfileSetup& s);

}  // namespace inferperf::app
