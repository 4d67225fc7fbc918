// The MLflow export end to end: a small fake MLflow tracking server in the test (the REST routes
// inferperf calls, answering as MLflow does): the run made before the benchmark, its live
// scalars, the params, metrics, tags and artifacts after it; and a dead tracking URI (one
// warning, exit 0).
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;

struct MlflowCall {
  std::string method, target, body;
};

int mlflow_fake_listen(int& port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 16) != 0) {
    ::close(fd);
    return -1;
  }
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  port = ntohs(a.sin_port);
  return fd;
}

// One request per connection; get-by-name answers RESOURCE_DOES_NOT_EXIST until the experiment
// is created.
class FakeMlflow {
 public:
  FakeMlflow() : fd_(mlflow_fake_listen(port_)) {
    thread_ = std::thread([this] { run(); });
  }
  ~FakeMlflow() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  std::vector<MlflowCall> calls() const {
    std::lock_guard lock(mu_);
    return calls_;
  }

 private:
  void run() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      serve(c);
      ::close(c);
    }
  }
  static std::size_t content_length(const std::string& head) {
    std::string lower = head;
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    const auto at = lower.find("content-length: ");
    return at == std::string::npos ? 0 : std::stoul(lower.substr(at + 16));
  }
  std::pair<int, json> answer(const MlflowCall& call) {
    const std::string api = "/api/2.0/mlflow/";
    if (call.target.starts_with(api + "experiments/get-by-name")) {
      if (experiment_made_) return {200, {{"experiment", {{"experiment_id", "17"}}}}};
      return {
          404,
          {{"error_code", "RESOURCE_DOES_NOT_EXIST"}, {"message", "Could not find experiment"}}};
    }
    if (call.target == api + "experiments/create") {
      experiment_made_ = true;
      return {200, {{"experiment_id", "17"}}};
    }
    if (call.target == api + "runs/create")
      return {200, {{"run", {{"info", {{"run_id", "run42"}, {"experiment_id", "17"}}}}}}};
    if (call.target == api + "runs/log-batch" || call.target == api + "runs/update" ||
        call.target.starts_with("/api/2.0/mlflow-artifacts/artifacts/17/run42/artifacts/"))
      return {200, json::object()};
    return {404, {{"error_code", "ENDPOINT_NOT_FOUND"}, {"message", "no route"}}};
  }
  void serve(int c) {
    std::string in;
    char buf[65536];
    std::size_t need = std::string::npos;
    for (;;) {
      const auto head_end = in.find("\r\n\r\n");
      if (head_end != std::string::npos && need == std::string::npos)
        need = head_end + 4 + content_length(in.substr(0, head_end));
      if (need != std::string::npos && in.size() >= need) break;
      const ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) return;
      in.append(buf, static_cast<std::size_t>(n));
    }
    const std::string line = in.substr(0, in.find("\r\n"));
    MlflowCall call;
    call.method = line.substr(0, line.find(' '));
    call.target = line.substr(line.find(' ') + 1, line.rfind(' ') - line.find(' ') - 1);
    call.body = in.substr(in.find("\r\n\r\n") + 4);
    const auto [status, body] = answer(call);
    {
      std::lock_guard lock(mu_);
      calls_.push_back(std::move(call));
    }
    const std::string text = body.dump();
    const std::string reply =
        "HTTP/1.1 " + std::to_string(status) + (status == 200 ? " OK" : " Not Found") +
        "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(text.size()) +
        "\r\nConnection: close\r\n\r\n" + text;
    ::send(c, reply.data(), reply.size(), MSG_NOSIGNAL);
  }

  int port_ = 0;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  bool experiment_made_ = false;  // the server thread's only
  mutable std::mutex mu_;
  std::vector<MlflowCall> calls_;
  std::thread thread_;
};

TEST(MlflowExport, RunExportedToTheTrackingServer) {
  MockServerProcess mock({"--fast"});
  FakeMlflow fake;
  const std::string dir = make_temp_dir("ip-mlflow-");
  const auto r = run_process(server_counted_profile_args(
                                 mock, dir,
                                 {"--request-count", "20", "--mlflow-tracking-uri",
                                  "127.0.0.1:" + std::to_string(fake.port()), "--mlflow-experiment",
                                  "bench", "--mlflow-run-name", "nightly", "--mlflow-parent-run-id",
                                  "parent1", "--mlflow-tag", "team:perf"}),
                             90s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const json summary = load_summary(dir);
  const auto calls = fake.calls();
  const auto count = [&](const std::string& target) {
    return std::count_if(calls.begin(), calls.end(),
                         [&](const MlflowCall& c) { return c.target == target; });
  };
  EXPECT_EQ(count("/api/2.0/mlflow/experiments/create"), 1) << r.out;
  ASSERT_EQ(count("/api/2.0/mlflow/runs/create"), 1) << r.out;
  std::map<std::string, double> metrics;
  std::map<std::string, std::string> params, tags;
  std::vector<std::string> uploaded;
  json update;
  for (const auto& c : calls) {
    const json body = c.method == "PUT" ? json() : json::parse(c.body, nullptr, false);
    if (c.target == "/api/2.0/mlflow/experiments/create") {
      EXPECT_EQ(body.value("name", ""), "bench");
    }
    if (c.target == "/api/2.0/mlflow/runs/create") {
      EXPECT_EQ(body.value("experiment_id", ""), "17");
      EXPECT_EQ(body.value("run_name", ""), "nightly");
      for (const auto& t : body.value("tags", json::array()))
        tags[t["key"].get<std::string>()] = t["value"].get<std::string>();
    }
    if (c.target == "/api/2.0/mlflow/runs/log-batch") {
      EXPECT_EQ(body.value("run_id", ""), "run42");
      for (const auto& m : body.value("metrics", json::array()))
        metrics[m["key"].get<std::string>()] = m["value"].get<double>();
      for (const auto& p : body.value("params", json::array()))
        params[p["key"].get<std::string>()] = p["value"].get<std::string>();
      for (const auto& t : body.value("tags", json::array()))
        tags[t["key"].get<std::string>()] = t["value"].get<std::string>();
    }
    if (c.target == "/api/2.0/mlflow/runs/update") update = body;
    const std::string art = "/api/2.0/mlflow-artifacts/artifacts/17/run42/artifacts/";
    if (c.method == "PUT" && c.target.starts_with(art)) {
      const std::string rel = c.target.substr(art.size());
      uploaded.push_back(rel);
      if (rel == "profile_export_aiperf.json") {
        EXPECT_EQ(c.body, read_file(dir + "/profile_export_aiperf.json"));
      }
    }
  }
  EXPECT_EQ(tags["mlflow.parentRunId"], "parent1");
  EXPECT_EQ(tags["team"], "perf");
  EXPECT_EQ(tags["inferperf.benchmark_id"], summary["benchmark_id"].get<std::string>());
  EXPECT_FALSE(tags["inferperf.version"].empty());
  EXPECT_DOUBLE_EQ(metrics["request_throughput"],
                   summary["request_throughput"]["avg"].get<double>());
  EXPECT_DOUBLE_EQ(metrics["request_latency.p99"], summary["request_latency"]["p99"].get<double>());
  // The live scalars went to the same run; the last one holds every request.
  EXPECT_EQ(metrics["live.aiperf.timing.requests.completed"], 20);
  EXPECT_EQ(params["endpoint.streaming"], "true") << json(params).dump();
  EXPECT_NE(params["endpoint.urls"].find("127.0.0.1"), std::string::npos) << json(params).dump();
  EXPECT_NE(std::find(uploaded.begin(), uploaded.end(), "profile_export_aiperf.json"),
            uploaded.end());
  EXPECT_EQ(update["run_id"], "run42");
  EXPECT_EQ(update["status"], "FINISHED");
  EXPECT_EQ(calls.back().target, "/api/2.0/mlflow/runs/update");
  const json record = json::parse(read_file(dir + "/mlflow_export.json"));
  EXPECT_EQ(record["run_id"], "run42");
  EXPECT_EQ(record["experiment_name"], "bench");
  EXPECT_EQ(record["reused_live_run"], true);
  EXPECT_EQ(record["tracking_uri"], "http://127.0.0.1:" + std::to_string(fake.port()));
}

TEST(MlflowExport, DeadTrackingServerCostsOneWarning) {
  MockServerProcess mock({"--fast"});
  const std::string dir = make_temp_dir("ip-mlflow-dead-");
  int port = 0;
  ::close(mlflow_fake_listen(port));
  const auto r =
      run_process(server_counted_profile_args(mock, dir,
                                              {"--request-count", "10", "--mlflow-tracking-uri",
                                               "http://127.0.0.1:" + std::to_string(port)}),
                  90s);
  ASSERT_EQ(r.exit_code, 0) << r.out;
  std::size_t warnings = 0;
  for (auto at = r.out.find("MLflow export to"); at != std::string::npos;
       at = r.out.find("MLflow export to", at + 1))
    ++warnings;
  EXPECT_EQ(warnings, 1u) << r.out;
  EXPECT_NE(r.out.find("http://127.0.0.1:" + std::to_string(port)), std::string::npos) << r.out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/mlflow_export.json"));
  EXPECT_TRUE(std::filesystem::exists(dir + "/profile_export_aiperf.json"));
}

}  // namespace
}  // namespace inferperf::testing
