// MlflowClient: the handful of MLflow REST API 2.0 calls the export needs (experiments
// get-by-name/create, runs create/log-batch/update, the tracking server's proxied artifact PUT),
// blocking, each under a deadline. The request bodies are built by the free functions below, so
// they are tested without a server. An error answer ({"error_code", "message"}) becomes an error
// holding its message. Credentials (MLFLOW_TRACKING_TOKEN, or MLFLOW_TRACKING_USERNAME and
// MLFLOW_TRACKING_PASSWORD) go in the Authorization header only, never in a message or a file.
#pragma once
#include <chrono>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace inferperf::observe {

using MlflowPairs = std::vector<std::pair<std::string, std::string>>;

struct MlflowMetric {
  std::string key;
  double value = 0;
};

// MLflow's log-batch limits: per call at most 1000 metrics, 100 params, 100 tags (1000 items in
// all); a param value at most 6000 characters (longer ones are cut), a key at most 250.
inline constexpr std::size_t kMlflowBatchMetrics = 1000;
inline constexpr std::size_t kMlflowBatchParams = 100;
inline constexpr std::size_t kMlflowBatchTags = 100;
inline constexpr std::size_t kMlflowParamValueMax = 6000;

// POST runs/create: {experiment_id, run_name (when given), start_time, tags:[{key,value}]}.
nlohmann::json mlflow_run_create_body(const std::string& experiment_id, const std::string& run_name,
                                      std::int64_t start_ms, const MlflowPairs& tags);
// POST runs/log-batch bodies, as few as the limits allow; every metric gets `timestamp_ms` and
// step 0. Nothing to send gives no body.
std::vector<nlohmann::json> mlflow_log_batch_bodies(const std::string& run_id,
                                                    const std::vector<MlflowMetric>& metrics,
                                                    const MlflowPairs& params,
                                                    const MlflowPairs& tags,
                                                    std::int64_t timestamp_ms);
// The Authorization header from the environment, or none.
MlflowPairs mlflow_auth_headers_from_environment();

struct MlflowClientOptions {
  std::string tracking_uri;  // http(s)://host[:port][/path], no trailing '/'
  MlflowPairs headers;       // Authorization, when credentials are set
  std::chrono::milliseconds timeout{10000};
  std::chrono::milliseconds upload_timeout{120000};
  bool verify_tls = true;
  std::string ssl_ca_file;
};

class MlflowClient {
 public:
  explicit MlflowClient(MlflowClientOptions options) : options_(std::move(options)) {}

  // The experiment's id, created when get-by-name answers RESOURCE_DOES_NOT_EXIST.
  core::Result<std::string> experiment_id(const std::string& name);
  // The new run's id.
  core::Result<std::string> create_run(const nlohmann::json& body);
  core::Result<bool> log_batch(const nlohmann::json& body);
  core::Result<bool> update_run(const std::string& run_id, const std::string& status,
                                std::int64_t end_ms);
  // The experiment of an existing run (GET runs/get).
  core::Result<std::string> run_experiment_id(const std::string& run_id);
  // PUT mlflow-artifacts/artifacts/<experiment>/<run>/artifacts/<relative path>.
  core::Result<bool> upload_artifact(const std::string& experiment_id, const std::string& run_id,
                                     const std::string& relative_path, std::string bytes);

 private:
  // A call's answer as JSON; an HTTP error status is an error with MLflow's message.
  core::Result<nlohmann::json> call(const std::string& method, const std::string& api_path,
                                    std::string body, std::chrono::milliseconds timeout,
                                    std::string* error_code = nullptr);
  const MlflowClientOptions options_;
};

}  // namespace inferperf::observe
