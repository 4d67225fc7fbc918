// http_get redirects: credentials stay with the origin they were given for.
#include "transport/http_get.hpp"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace inferperf::transport {
namespace {

// A loopback HTTP/1.1 server answering each connection's one request with `reply(request)` and
// keeping every request's header block.
class ScriptedServer {
 public:
  explicit ScriptedServer(std::function<std::string(const std::string&)> reply)
      : reply_(std::move(reply)) {
    fd_ = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    if (bind(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || listen(fd_, 16) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0)
      throw std::runtime_error("cannot listen");
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] {
      for (;;) {
        const int c = accept(fd_, nullptr, nullptr);
        if (c < 0) return;
        std::string req;
        char buf[4096];
        while (req.find("\r\n\r\n") == std::string::npos) {
          const ssize_t n = read(c, buf, sizeof buf);
          if (n <= 0) break;
          req.append(buf, static_cast<std::size_t>(n));
        }
        {
          std::lock_guard lock(mu_);
          requests_.push_back(req);
        }
        const std::string out = reply_(req);
        (void)!write(c, out.data(), out.size());
        close(c);
      }
    });
  }
  ~ScriptedServer() {
    shutdown(fd_, SHUT_RDWR);
    close(fd_);
    thread_.join();
  }
  int port() const { return port_; }
  std::vector<std::string> requests() {
    std::lock_guard lock(mu_);
    return requests_;
  }

 private:
  std::function<std::string(const std::string&)> reply_;
  int fd_ = -1;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  std::vector<std::string> requests_;
};

std::string ok() {
  return "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok";
}
std::string redirect(const std::string& to) {
  return "HTTP/1.1 302 Found\r\nLocation: " + to +
         "\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
}

TEST(HttpGet, CredentialsAreDroppedOnCrossOriginRedirectsOnly) {
  ScriptedServer cdn([](const std::string&) { return ok(); });
  ScriptedServer hub([&](const std::string& req) {
    if (req.starts_with("GET /same ")) return redirect("/final");
    if (req.starts_with("GET /cross ")) {
      return redirect("http://127.0.0.1:" + std::to_string(cdn.port()) + "/blob");
    }
    return ok();
  });
  GetRequest r;
  r.headers = {
      {"Authorization", "Bearer secret"}, {"x-api-key", "key-secret"}, {"X-Other", "kept"}};
  r.timeout = std::chrono::seconds(10);
  r.url = "http://127.0.0.1:" + std::to_string(hub.port()) + "/same";
  auto same = http_get(r);
  ASSERT_TRUE(same.ok()) << same.error().describe();
  EXPECT_EQ(same->body, "ok");
  r.url = "http://127.0.0.1:" + std::to_string(hub.port()) + "/cross";
  auto cross = http_get(r);
  ASSERT_TRUE(cross.ok()) << cross.error().describe();
  EXPECT_EQ(cross->body, "ok");

  const auto at_hub = hub.requests();
  ASSERT_EQ(at_hub.size(), 3u);  // /same, /final, /cross
  for (const auto& req : at_hub) EXPECT_NE(req.find("Bearer secret"), std::string::npos) << req;
  const auto at_cdn = cdn.requests();
  ASSERT_EQ(at_cdn.size(), 1u);
  EXPECT_EQ(at_cdn[0].find("Bearer secret"), std::string::npos) << at_cdn[0];
  EXPECT_EQ(at_cdn[0].find("key-secret"), std::string::npos) << at_cdn[0];  // every credential
  EXPECT_NE(at_cdn[0].find("kept"), std::string::npos) << at_cdn[0];
}

}  // namespace
}  // namespace inferperf::transport
