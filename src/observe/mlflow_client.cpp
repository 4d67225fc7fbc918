#include "observe/mlflow_client.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/base64.hpp"
#include "transport/http_get.hpp"

namespace inferperf::observe {

namespace {

using nlohmann::json;

json mlflow_pairs_json(const MlflowPairs& pairs) {
  json out = json::array();
  for (const auto& [k, v] : pairs) out.push_back({{"key", k}, {"value", v}});
  return out;
}

// Path segments percent-encoded ('/' kept between them).
std::string mlflow_encode_path(const std::string& path) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const unsigned char ch : path) {
    if (std::isalnum(ch) || ch == '-' || ch == '_' || ch == '.' || ch == '~' || ch == '/') {
      out += static_cast<char>(ch);
    } else {
      out += '%';
      out += kHex[ch >> 4];
      out += kHex[ch & 15];
    }
  }
  return out;
}

std::string mlflow_query_encode(const std::string& text) {
  std::string out = mlflow_encode_path(text);
  std::string slashless;
  for (const char ch : out) slashless += ch == '/' ? std::string("%2F") : std::string(1, ch);
  return slashless;
}

}  // namespace

json mlflow_run_create_body(const std::string& experiment_id, const std::string& run_name,
                            std::int64_t start_ms, const MlflowPairs& tags) {
  json body = {{"experiment_id", experiment_id}};
  if (!run_name.empty()) body["run_name"] = run_name;
  body["start_time"] = start_ms;
  body["tags"] = mlflow_pairs_json(tags);
  return body;
}

std::vector<json> mlflow_log_batch_bodies(const std::string& run_id,
                                          const std::vector<MlflowMetric>& metrics,
                                          const MlflowPairs& params, const MlflowPairs& tags,
                                          std::int64_t timestamp_ms) {
  std::vector<json> out;
  std::size_t m = 0, p = 0, t = 0;
  while (m < metrics.size() || p < params.size() || t < tags.size()) {
    json body = {{"run_id", run_id}};
    json ms = json::array(), ps = json::array(), ts = json::array();
    // Params and tags first (few), then metrics up to 1000 items in all.
    for (; p < params.size() && ps.size() < kMlflowBatchParams; ++p) {
      std::string value = params[p].second.substr(0, kMlflowParamValueMax);
      ps.push_back({{"key", params[p].first}, {"value", std::move(value)}});
    }
    for (; t < tags.size() && ts.size() < kMlflowBatchTags; ++t)
      ts.push_back({{"key", tags[t].first}, {"value", tags[t].second}});
    const std::size_t room = kMlflowBatchMetrics - ps.size() - ts.size();
    for (; m < metrics.size() && ms.size() < room; ++m) {
      ms.push_back({{"key", metrics[m].key},
                    {"value", metrics[m].value},
                    {"timestamp", timestamp_ms},
                    {"step", 0}});
    }
    if (!ms.empty()) body["metrics"] = std::move(ms);
    if (!ps.empty()) body["params"] = std::move(ps);
    if (!ts.empty()) body["tags"] = std::move(ts);
    out.push_back(std::move(body));
  }
  return out;
}

MlflowPairs mlflow_auth_headers_from_environment() {
  const char* token = std::getenv("MLFLOW_TRACKING_TOKEN");
  if (token && *token) return {{"Authorization", std::string("Bearer ") + token}};
  const char* user = std::getenv("MLFLOW_TRACKING_USERNAME");
  const char* password = std::getenv("MLFLOW_TRACKING_PASSWORD");
  if (user && *user) {
    const std::string pair = std::string(user) + ":" + (password ? password : "");
    return {{"Authorization", "Basic " + core::base64_encode(pair)}};
  }
  return {};
}

core::Result<json> MlflowClient::call(const std::string& method, const std::string& api_path,
                                      std::string body, std::chrono::milliseconds timeout,
                                      std::string* error_code) {
  const std::string url = options_.tracking_uri + api_path;
  core::Result<transport::GetResponse> got = core::Error{};
  if (method == "GET") {
    transport::GetRequest g;
    g.url = url;
    g.headers = options_.headers;
    g.timeout = std::max(std::chrono::duration_cast<std::chrono::seconds>(timeout),
                         std::chrono::seconds(1));
    g.verify_tls = options_.verify_tls;
    g.ssl_ca_file = options_.ssl_ca_file;
    g.max_redirects = 0;
    g.body_limit = 1ull << 20;
    got = transport::http_get(g);
  } else {
    transport::PostRequest p;
    p.url = url;
    p.method = method;
    p.headers = options_.headers;
    p.content_type = method == "PUT" ? "application/octet-stream" : "application/json";
    p.body = std::move(body);
    p.timeout = timeout;
    p.verify_tls = options_.verify_tls;
    p.ssl_ca_file = options_.ssl_ca_file;
    got = transport::http_post(p);
  }
  if (!got) {
    // Asio's text ends with the source location of the failure: not for the user.
    std::string message = got.error().message;
    if (const auto at = message.find(" [system:"); at != std::string::npos) message.resize(at);
    return core::Error{core::ErrorKind::kNetwork, message};
  }
  const json answer = json::parse(got->body, nullptr, false);
  if (got->status < 200 || got->status >= 300) {
    std::string message = "HTTP " + std::to_string(got->status);
    if (answer.is_object()) {
      const std::string code = answer.value("error_code", std::string());
      if (error_code) *error_code = code;
      const std::string text = answer.value("message", std::string());
      if (!code.empty()) message += " " + code;
      if (!text.empty()) message += ": " + text;
    }
    return core::Error{core::ErrorKind::kNetwork, method + " " + api_path + ": " + message};
  }
  return answer.is_discarded() ? json::object() : answer;
}

core::Result<std::string> MlflowClient::experiment_id(const std::string& name) {
  std::string code;
  auto got = call(
      "GET", "/api/2.0/mlflow/experiments/get-by-name?experiment_name=" + mlflow_query_encode(name),
      {}, options_.timeout, &code);
  if (got) {
    const json id = got->value("experiment", json::object()).value("experiment_id", json());
    if (id.is_string()) return id.get<std::string>();
    return core::Error{core::ErrorKind::kNetwork, "experiments/get-by-name: no experiment_id"};
  }
  if (code != "RESOURCE_DOES_NOT_EXIST") return got.error();
  auto made = call("POST", "/api/2.0/mlflow/experiments/create",
                   json{{"name", name}}.dump(-1, ' ', false, json::error_handler_t::replace),
                   options_.timeout);
  if (!made) return made.error();
  const json id = made->value("experiment_id", json());
  if (id.is_string()) return id.get<std::string>();
  return core::Error{core::ErrorKind::kNetwork, "experiments/create: no experiment_id"};
}

core::Result<std::string> MlflowClient::create_run(const json& body) {
  auto got = call("POST", "/api/2.0/mlflow/runs/create",
                  body.dump(-1, ' ', false, json::error_handler_t::replace), options_.timeout);
  if (!got) return got.error();
  const json id =
      got->value("run", json::object()).value("info", json::object()).value("run_id", json());
  if (id.is_string()) return id.get<std::string>();
  return core::Error{core::ErrorKind::kNetwork, "runs/create: no run_id in the answer"};
}

core::Result<bool> MlflowClient::log_batch(const json& body) {
  auto got = call("POST", "/api/2.0/mlflow/runs/log-batch",
                  body.dump(-1, ' ', false, json::error_handler_t::replace), options_.timeout);
  if (!got) return got.error();
  return true;
}

core::Result<bool> MlflowClient::update_run(const std::string& run_id, const std::string& status,
                                            std::int64_t end_ms) {
  const json body = {{"run_id", run_id}, {"status", status}, {"end_time", end_ms}};
  auto got = call("POST", "/api/2.0/mlflow/runs/update",
                  body.dump(-1, ' ', false, json::error_handler_t::replace), options_.timeout);
  if (!got) return got.error();
  return true;
}

core::Result<std::string> MlflowClient::run_experiment_id(const std::string& run_id) {
  auto got = call("GET", "/api/2.0/mlflow/runs/get?run_id=" + mlflow_query_encode(run_id), {},
                  options_.timeout);
  if (!got) return got.error();
  const json id = got->value("run", json::object())
                      .value("info", json::object())
                      .value("experiment_id", json());
  if (id.is_string()) return id.get<std::string>();
  return core::Error{core::ErrorKind::kNetwork, "runs/get: no experiment_id in the answer"};
}

core::Result<bool> MlflowClient::upload_artifact(const std::string& experiment_id,
                                                 const std::string& run_id,
                                                 const std::string& relative_path,
                                                 std::string bytes) {
  const std::string path = "/api/2.0/mlflow-artifacts/artifacts/" +
                           mlflow_encode_path(experiment_id) + "/" + mlflow_encode_path(run_id) +
                           "/artifacts/" + mlflow_encode_path(relative_path);
  auto got = call("PUT", path, std::move(bytes), options_.upload_timeout);
  if (!got) return got.error();
  return true;
}

}  // namespace inferperf::observe
