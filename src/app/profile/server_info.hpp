// What the run measured: the server's model list, the headers that name it and the version or
// properties routes the engines serve, asked once before the run (GETs only, one keep-alive
// connection, time-boxed) and kept as server_info.json in the artifact folder.
#pragma once
#include <nlohmann/json.hpp>

#include <string>

#include "worker/request_plan.hpp"

namespace inferperf::app {

// The routes asked, in order: OpenAI's model list, then vLLM/SGLang (/version), SGLang
// (/get_server_info), llama.cpp (/props), TGI (/info), NIM (/v1/version, /v1/metadata), Triton
// (/v2) and Ollama (/api/version).
inline constexpr const char* kServerInfoRoutes[] = {"/v1/models",   "/version", "/get_server_info",
                                                    "/props",       "/info",    "/v1/version",
                                                    "/v1/metadata", "/v2",      "/api/version"};

// Asks the first target's server; never fails: what did not answer is recorded as such. Stops
// asking once `budget_s` is spent.
nlohmann::ordered_json probe_server_info(const worker::RequestPlan& plan, double budget_s);

// The engine and its version as far as the answers tell ("vllm", "0.6.3"); empty when unknown.
struct ServerIdentity {
  std::string engine, version;
};
ServerIdentity identify_server(const nlohmann::ordered_json& info);

// One console line: "vllm 0.6.3 serving m (server: uvicorn)" or what is known.
std::string server_info_summary(const nlohmann::ordered_json& info);

}  // namespace inferperf::app
