// Test helpers: start the real binaries as child processes and talk HTTP to the mock server.
#pragma once
#include <sys/types.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace inferperf::testing {

struct ProcessResult {
  int exit_code = -1;
  std::string out;  // stdout and stderr, interleaved
  double wall_s = 0;
};

// Runs `argv` to completion (killed after `timeout`), capturing output. `env` holds KEY=VALUE
// settings for the child, on top of the hermetic defaults (no server-metrics flush, no default
// DCGM endpoints).
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::seconds timeout,
                          const std::string& cwd = "", const std::vector<std::string>& env = {});

class MockServerProcess {
 public:
  // Starts inferperf-mock-server on --port 0 with extra flags and waits for its "listening" line
  // (with --unix-socket: "listening on unix:PATH", and port() is 0).
  // With `port` > 0 it listens there instead (restarting a server on the port of one killed).
  explicit MockServerProcess(const std::vector<std::string>& flags, int port = 0);
  ~MockServerProcess();
  MockServerProcess(const MockServerProcess&) = delete;
  MockServerProcess& operator=(const MockServerProcess&) = delete;

  int port() const { return port_; }
  const std::string& unix_socket() const { return unix_socket_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // Value of one metric line from the mock's /metrics page.
  long long metric(const std::string& name) const;
  // Waits until the mock has counted `n` inference requests (sanitizer start-ups are slow).
  bool wait_for_requests(long long n, std::chrono::seconds limit) const;
  // SIGKILL, as a crashed server: connections die without a FIN from the application.
  void kill_now();

 private:
  pid_t pid_ = -1;
  int port_ = 0;
  std::string unix_socket_;
};

// A child process left running while the test acts on it (signals, kill -9); its stdout and
// stderr go to `log_path`. Killed with SIGKILL when destroyed while still running.
class BackgroundProcess {
 public:
  BackgroundProcess(const std::vector<std::string>& argv, const std::string& log_path);
  ~BackgroundProcess();
  BackgroundProcess(const BackgroundProcess&) = delete;
  BackgroundProcess& operator=(const BackgroundProcess&) = delete;
  void signal(int sig) const;
  // The exit code (128 + signal when killed), or -1 when it is still running after `timeout`.
  int wait(std::chrono::milliseconds timeout);

 private:
  pid_t pid_ = -1;
};

struct HttpReply {
  int status = 0;
  std::string body;
};
using HttpHeaders = std::vector<std::pair<std::string, std::string>>;
HttpReply http_get(int port, const std::string& target);
HttpReply http_post(int port, const std::string& target, const std::string& json_body,
                    const HttpHeaders& headers = {});

// `inferperf profile` against `url` with the usual small workload (mock-model, ISL 16, OSL 8
// with ignore_eos) into `dir`, then `more`.
std::vector<std::string> small_profile_args(const std::string& inferperf_bin,
                                            const std::string& url, const std::string& dir,
                                            const std::vector<std::string>& more = {});
// A streaming run against the mock (mock-model, ISL 16, OSL 8) into `dir` that counts tokens
// from the server's usage: no client tokenizer, whose loading dominates an instrumented start.
std::vector<std::string> server_counted_profile_args(const MockServerProcess& mock,
                                                     const std::string& dir,
                                                     const std::vector<std::string>& extra);
// The same against the mock.
std::vector<std::string> mock_profile_args(const std::string& inferperf_bin,
                                           const MockServerProcess& mock, const std::string& dir,
                                           const std::vector<std::string>& more = {});

// A run's profile_export_aiperf.json.
nlohmann::json load_summary(const std::string& dir);
// The "avg" of one count in that summary (request_count, error_request_count...), 0 when absent.
long long summary_count(const nlohmann::json& summary, const char* key);

// In `dir`: ca.pem (a test CA), server.pem and server.key (signed by it, for 127.0.0.1 and
// localhost), made with the openssl command line; the result says why when it fails.
ProcessResult make_test_certificates(const std::string& dir, const std::string& ca_name);

// A bound, listening loopback TCP socket (fd, or -1) and its port in `port` (0 asks for a free
// one).
int listen_loopback(int& port);
// A loopback port nothing listens on (bound once, then closed).
int unused_loopback_port();

// One request a FakeHttpServer received, and its answer.
struct FakeHttpRequest {
  std::string method, target, body;
};
struct FakeHttpReply {
  int status = 200;
  std::string body = "{}";  // sent as application/json
};
// A small HTTP/1.1 server on a free loopback port for the exporters' tests (OTLP receiver, MLflow
// tracking server): one request per connection, answered by `answer` (called on the server's
// thread), every request kept in arrival order.
class FakeHttpServer {
 public:
  explicit FakeHttpServer(std::function<FakeHttpReply(const FakeHttpRequest&)> answer);
  ~FakeHttpServer();
  FakeHttpServer(const FakeHttpServer&) = delete;
  FakeHttpServer& operator=(const FakeHttpServer&) = delete;
  int port() const { return port_; }
  std::vector<FakeHttpRequest> requests() const;

 private:
  void run();
  void serve(int client);

  std::function<FakeHttpReply(const FakeHttpRequest&)> answer_;
  int port_ = 0;
  int fd_ = -1;
  std::atomic<bool> stop_{false};
  mutable std::mutex mu_;
  std::vector<FakeHttpRequest> requests_;
  std::thread thread_;
};

// A fresh empty folder under the system temp dir.
std::string make_temp_dir(const std::string& prefix);
std::string read_file(const std::string& path);
// The non-empty lines of a file (JSONL exports).
std::vector<std::string> read_lines(const std::string& path);
// Each non-empty line of a JSONL file parsed (throws on a line that is not JSON).
std::vector<nlohmann::json> read_jsonl(const std::string& path);

}  // namespace inferperf::testing
