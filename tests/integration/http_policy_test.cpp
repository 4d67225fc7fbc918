// One HTTP client policy (issue 25, rows 6, 7 and 9): server-metrics scrapes honour --ssl-ca-file
// and --insecure as the requests do, the API key never goes to another host, a local --tokenizer
// path never reaches the network, and a web server that is not an LLM server fails the preflight
// in seconds. Servers that behave unlike the mock are small in-test servers on loopback.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <nlohmann/json.hpp>

#include <atomic>
#include <filesystem>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "process.hpp"

namespace inferperf::testing {
namespace {

namespace fs = std::filesystem;
using json = nlohmann::json;

bool has(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

// A one-connection-at-a-time HTTP/1.1 server on 127.0.0.1: `answer` turns each request head into
// the whole response (sent, then the connection is closed). Counts connections, keeps heads.
class TinyServer {
 public:
  using Answer = std::function<std::string(const std::string& head)>;
  explicit TinyServer(Answer answer) : answer_(std::move(answer)) {
    fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (::bind(fd_, reinterpret_cast<sockaddr*>(&a), len) != 0 || ::listen(fd_, 16) != 0 ||
        ::getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      throw std::runtime_error("cannot listen on 127.0.0.1");
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~TinyServer() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  int connections() const { return connections_.load(); }
  std::vector<std::string> heads() const {
    std::lock_guard lock(mu_);
    return heads_;
  }

 private:
  void serve() {
    while (!stop_) {
      pollfd p{fd_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      const int c = ::accept(fd_, nullptr, nullptr);
      if (c < 0) continue;
      ++connections_;
      timeval tv{2, 0};
      ::setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      const std::string head = read_request(c);
      {
        std::lock_guard lock(mu_);
        heads_.push_back(head);
      }
      const std::string out = answer_(head);
      for (std::size_t sent = 0; sent < out.size();) {
        const ssize_t n = ::send(c, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (n <= 0) break;
        sent += static_cast<std::size_t>(n);
      }
      ::shutdown(c, SHUT_WR);
      ::close(c);
    }
  }
  // The head, and the body read (not kept) so the close does not reset the connection.
  static std::string read_request(int c) {
    std::string data;
    char buf[4096];
    std::size_t end;
    while ((end = data.find("\r\n\r\n")) == std::string::npos) {
      const ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) return data;
      data.append(buf, static_cast<std::size_t>(n));
    }
    std::string head = data.substr(0, end + 4);
    std::string lower = head;
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    std::size_t length = 0;
    if (auto p = lower.find("content-length:"); p != std::string::npos)
      length = std::stoul(lower.substr(p + 15));
    std::size_t have = data.size() - head.size();
    while (have < length) {
      const ssize_t n = ::recv(c, buf, sizeof buf, 0);
      if (n <= 0) break;
      have += static_cast<std::size_t>(n);
    }
    return head;
  }

  Answer answer_;
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mu_;
  std::vector<std::string> heads_;
  std::thread thread_;
};

std::string response(int status, const std::string& reason, const std::string& server,
                     const std::string& type, const std::string& body) {
  return "HTTP/1.1 " + std::to_string(status) + " " + reason + "\r\nServer: " + server +
         "\r\nContent-Type: " + type + "\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\nConnection: close\r\n\r\n" + body;
}

std::vector<std::string> profile_args(const std::string& url, const std::string& dir,
                                      const std::vector<std::string>& extra) {
  auto a =
      small_profile_args(INFERPERF_BIN, url, dir,
                         {"--tokenizer", "builtin", "--concurrency", "1", "--request-count", "2"});
  a.insert(a.end(), extra.begin(), extra.end());
  return a;
}

// --- preflight: a web server is not an LLM server ----------------------------------------------

// As `python3 -m http.server` answers a POST.
std::string python_http_server_501(const std::string&) {
  const std::string body =
      "<!DOCTYPE HTML>\n<html lang=\"en\">\n    <head>\n        <meta charset=\"utf-8\">\n"
      "        <title>Error response</title>\n    </head>\n    <body>\n"
      "        <h1>Error response</h1>\n        <p>Error code: 501</p>\n"
      "        <p>Message: Unsupported method ('POST').</p>\n    </body>\n</html>\n";
  return response(501, "Unsupported method ('POST')", "SimpleHTTP/0.6 Python/3.12.3",
                  "text/html;charset=utf-8", body);
}

std::string nginx_404(const std::string&) {
  return response(
      404, "Not Found", "nginx/1.24.0", "text/html",
      "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 "
      "Not Found</h1></center>\r\n<hr><center>nginx/1.24.0</center>\r\n</body>\r\n"
      "</html>\r\n");
}

void expect_fails_fast_naming(TinyServer::Answer answer, const std::string& status,
                              const std::string& server) {
  TinyServer web(std::move(answer));
  const std::string dir = make_temp_dir("ip-web-") + "/run";
  // --wait-for-model-timeout would wait out a loading model: a web server's answer is not one.
  auto r = run_process(profile_args(web.url(), dir, {"--wait-for-model-timeout", "60"}),
                       std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_LT(r.wall_s, 15.0) << r.out;
  EXPECT_EQ(web.connections(), 1) << r.out;  // one attempt, no retries
  EXPECT_TRUE(has(r.out, "preflight failed")) << r.out;
  EXPECT_TRUE(has(r.out, "answered like a web server, not an LLM API: " + status)) << r.out;
  EXPECT_TRUE(has(r.out, "Server: " + server)) << r.out;
  EXPECT_TRUE(has(r.out, "Content-Type: text/html")) << r.out;
  EXPECT_TRUE(has(r.out, "the run was not started")) << r.out;
  EXPECT_FALSE(fs::exists(dir)) << "the artifact folder is made only after the preflight";
}

TEST(WebServerPreflight, PythonHttpServerFailsInSeconds) {
  expect_fails_fast_naming(python_http_server_501, "HTTP 501 Unsupported method ('POST')",
                           "SimpleHTTP/0.6 Python/3.12.3");
}

TEST(WebServerPreflight, Html404FailsInSeconds) {
  expect_fails_fast_naming(nginx_404, "HTTP 404 Not Found", "nginx/1.24.0");
}

TEST(WebServerPreflight, LoadingServer503StillWaits) {
  // A 503 is a model still loading: retried each second until the wait is over.
  TinyServer loading([](const std::string&) {
    return response(503, "Service Unavailable", "vllm", "application/json",
                    R"({"error":"loading"})");
  });
  const std::string dir = make_temp_dir("ip-web-503-") + "/run";
  auto r = run_process(profile_args(loading.url(), dir, {"--wait-for-model-timeout", "2"}),
                       std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_GE(loading.connections(), 2) << r.out;
  EXPECT_FALSE(has(r.out, "web server")) << r.out;
  EXPECT_TRUE(has(r.out, "HTTP 503")) << r.out;
}

TEST(WebServerPreflight, GatewayPageWhileTheServerStartsIsWaitedFor) {
  // nginx in front of a server that is not up yet: its 502 page is retried like a 503.
  TinyServer gateway([](const std::string&) {
    return response(502, "Bad Gateway", "nginx/1.24.0", "text/html",
                    "<html><head><title>502 Bad Gateway</title></head></html>");
  });
  const std::string dir = make_temp_dir("ip-web-502-") + "/run";
  auto r = run_process(profile_args(gateway.url(), dir, {"--wait-for-model-timeout", "1"}),
                       std::chrono::seconds(60));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_GE(gateway.connections(), 2) << r.out;
  EXPECT_TRUE(has(r.out, "answered HTTP 502")) << r.out;
  EXPECT_FALSE(fs::exists(dir));
}

// --- server-metrics scrapes honour the run's TLS options ---------------------------------------

class TlsScrapes : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = make_temp_dir("ip-policy-certs-");
    auto r = make_test_certificates(dir_, "inferperf policy test CA");
    ok_ = r.exit_code == 0 && fs::exists(dir_ + "/server.pem");
    log_ = r.out;
  }
  void SetUp() override { ASSERT_TRUE(ok_) << "openssl failed:\n" << log_; }

  // Runs against a TLS mock, naming its page by IP besides the one derived from the localhost URL;
  // returns the run's output and checks both pages were scraped.
  static void expect_both_pages_scraped(const std::vector<std::string>& tls_flags) {
    MockServerProcess mock(
        {"--fast", "--tls-cert", dir_ + "/server.pem", "--tls-key", dir_ + "/server.key"});
    const std::string port = std::to_string(mock.port());
    const std::string dir = make_temp_dir("ip-policy-tls-");
    std::vector<std::string> extra = {"--server-metrics", "https://127.0.0.1:" + port + "/metrics"};
    extra.insert(extra.end(), tls_flags.begin(), tls_flags.end());
    // SSL_CERT_FILE pins the store: the machine's own CAs cannot matter.
    auto r = run_process(profile_args("https://localhost:" + port, dir, extra),
                         std::chrono::seconds(60), "", {"SSL_CERT_FILE=" + dir_ + "/missing.pem"});
    ASSERT_EQ(r.exit_code, 0) << r.out;
    EXPECT_FALSE(has(r.out, "certificate verify failed")) << r.out;
    EXPECT_FALSE(has(r.out, "skipping it")) << r.out;
    const auto j = json::parse(read_file(dir + "/server_metrics_export.json"));
    const std::vector<std::string> expected = {"https://localhost:" + port + "/metrics",
                                               "https://127.0.0.1:" + port + "/metrics"};
    EXPECT_EQ(j["summary"]["endpoints_successful"].get<std::vector<std::string>>(), expected)
        << j["summary"].dump();
  }

  static inline std::string dir_;
  static inline bool ok_ = false;
  static inline std::string log_;
};

TEST_F(TlsScrapes, ServerMetricsTrustTheSslCaFile) {
  expect_both_pages_scraped({"--ssl-ca-file", dir_ + "/ca.pem"});
}

TEST_F(TlsScrapes, ServerMetricsFollowInsecure) {
  expect_both_pages_scraped({"--insecure"});
}

// --- credentials stay with the server under test -----------------------------------------------

TEST(Credentials, ApiKeyNeverGoesToAnotherHostsMetricsPage) {
  MockServerProcess mock({"--fast"});
  TinyServer metrics([](const std::string&) {
    return response(200, "OK", "exporter", "text/plain; version=0.0.4", "# TYPE up gauge\nup 1\n");
  });
  const std::string dir = make_temp_dir("ip-policy-key-");
  auto r = run_process(profile_args(mock.url(), dir,
                                    {"--api-key", "sk-policy-test", "-H", "X-Tenant-Key:t-secret",
                                     "--server-metrics", metrics.url() + "/metrics"}),
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  const auto heads = metrics.heads();
  ASSERT_GE(heads.size(), 2u) << r.out;  // baseline and final scrapes at least
  for (const auto& h : heads) {
    EXPECT_FALSE(has(h, "sk-policy-test")) << h;
    EXPECT_FALSE(has(h, "t-secret")) << h;
    EXPECT_TRUE(has(h, "GET /metrics HTTP/1.1")) << h;
  }
}

TEST(Credentials, ModelDiscoveryCarriesTheApiKey) {
  // The server under test guards GET /v1/models with the key its requests carry.
  MockServerProcess mock({"--fast", "--api-key", "sk-discovery"});
  const std::string dir = make_temp_dir("ip-policy-models-");
  auto r = run_process({INFERPERF_BIN, "profile", "-u", mock.url(), "--api-key", "sk-discovery",
                        "--tokenizer", "builtin", "--request-count", "1", "--artifact-dir", dir},
                       std::chrono::seconds(60));
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_TRUE(has(r.out, "no --model given; using")) << r.out;
}

// --- a local tokenizer path never goes to the network ------------------------------------------

TEST(TokenizerPath, MissingAbsolutePathIsRefusedWithoutAnyConnection) {
  TinyServer hub([](const std::string&) {
    return response(404, "Not Found", "hub", "application/json", "{}");
  });
  const std::string dir = make_temp_dir("ip-policy-tok-");
  const std::vector<std::string> env = {"HF_ENDPOINT=" + hub.url(), "HF_HUB_CACHE=" + dir + "/hub",
                                        "HF_TOKEN=hf_policy"};
  auto args = [&](const std::string& tokenizer) {
    // -u is never reached: the tokenizer is resolved before anything is sent.
    return std::vector<std::string>{
        INFERPERF_BIN,        "profile",     "-m",      "acme/model",     "-u",
        "http://127.0.0.1:9", "--tokenizer", tokenizer, "--artifact-dir", dir + "/run"};
  };
  for (const std::string path : {"/no/such/tokenizer-dir", "./no/such/dir", "~/no/such/dir"}) {
    auto r = run_process(args(path), std::chrono::seconds(30), "", env);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_TRUE(has(r.out, "--tokenizer " + path + ": the local path")) << r.out;
    EXPECT_TRUE(has(r.out, "does not exist")) << r.out;
  }
  EXPECT_EQ(hub.connections(), 0);
  // The listener is watched: a Hub id does reach it.
  auto hub_id = run_process(args("acme/not-cached"), std::chrono::seconds(30), "", env);
  EXPECT_EQ(hub_id.exit_code, 2) << hub_id.out;
  EXPECT_GE(hub.connections(), 1) << hub_id.out;
}

}  // namespace
}  // namespace inferperf::testing
