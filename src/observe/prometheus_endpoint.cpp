#include "observe/prometheus_endpoint.hpp"

#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <string_view>

#include "telemetry/prometheus.hpp"

namespace inferperf::observe {

namespace {

constexpr std::size_t kMaxRequestBytes = 8 << 10;

void prom_family(std::string& out, const std::string& name, const char* type, const char* help) {
  out += "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

std::string prom_phase_label(const PhaseMetrics& p) {
  return "phase=\"" + telemetry::escape_label_value(p.phase) + "\"";
}

void prom_int_family(std::string& out, const MetricsSnapshot& s, const std::string& name,
                     const char* type, const char* help, std::int64_t PhaseMetrics::*field) {
  prom_family(out, name, type, help);
  for (const PhaseMetrics& p : s.phases)
    out += name + "{" + prom_phase_label(p) + "} " + std::to_string(p.*field) + "\n";
}

void prom_histogram_family(std::string& out, const MetricsSnapshot& s, const std::string& name,
                           const char* help, FixedHistogram PhaseMetrics::*field) {
  prom_family(out, name, "histogram", help);
  for (const PhaseMetrics& p : s.phases) {
    const FixedHistogram& h = p.*field;
    const std::string phase = prom_phase_label(p);
    std::uint64_t cumulative = 0;
    for (std::size_t i = 0; i < h.bounds.size(); ++i) {
      cumulative += h.counts[i];
      out += name + "_bucket{" + phase + ",le=\"" + telemetry::format_number(h.bounds[i]) + "\"} " +
             std::to_string(cumulative) + "\n";
    }
    out += name + "_bucket{" + phase + ",le=\"+Inf\"} " + std::to_string(h.count) + "\n";
    out += name + "_sum{" + phase + "} " + telemetry::format_number(h.sum) + "\n";
    out += name + "_count{" + phase + "} " + std::to_string(h.count) + "\n";
  }
}

void prom_send_all(int fd, std::string_view data) {
  while (!data.empty()) {
    const ssize_t n = ::send(fd, data.data(), data.size(), MSG_NOSIGNAL);
    if (n <= 0) return;
    data.remove_prefix(static_cast<std::size_t>(n));
  }
}

void prom_reply(int fd, const char* status, const std::string& body) {
  std::string head = std::string("HTTP/1.1 ") + status +
                     "\r\nContent-Type: text/plain; version=0.0.4; charset=utf-8\r\n"
                     "Content-Length: " +
                     std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n";
  prom_send_all(fd, head + body);
}

}  // namespace

std::string render_prometheus_text(const MetricsSnapshot& s) {
  std::string out;
  prom_int_family(out, s, "inferperf_requests_sent_total", "counter",
                  "Requests sent, per benchmark phase", &PhaseMetrics::sent);
  prom_int_family(out, s, "inferperf_requests_completed_total", "counter",
                  "Requests finished with content", &PhaseMetrics::completed);
  prom_int_family(out, s, "inferperf_requests_errors_total", "counter",
                  "Requests finished without content (errors, cancellations included)",
                  &PhaseMetrics::errors);
  prom_int_family(out, s, "inferperf_requests_cancelled_total", "counter",
                  "Requests cancelled by the client", &PhaseMetrics::cancelled);
  prom_int_family(out, s, "inferperf_requests_in_flight", "gauge",
                  "Requests sent and not yet answered", &PhaseMetrics::in_flight);
  prom_int_family(out, s, "inferperf_input_tokens_total", "counter",
                  "Input tokens of the completed requests (server usage when reported)",
                  &PhaseMetrics::input_tokens);
  prom_int_family(out, s, "inferperf_output_tokens_total", "counter",
                  "Output tokens of the completed requests (server usage when reported)",
                  &PhaseMetrics::output_tokens);
  prom_histogram_family(out, s, "inferperf_time_to_first_token_seconds",
                        "Request start to the first content chunk", &PhaseMetrics::ttfc);
  prom_histogram_family(out, s, "inferperf_inter_token_latency_seconds",
                        "Gaps between consecutive content chunks", &PhaseMetrics::chunk_interval);
  prom_histogram_family(out, s, "inferperf_request_latency_seconds",
                        "Request start to the end of the response", &PhaseMetrics::duration);
  return out;
}

core::Result<std::unique_ptr<PrometheusEndpoint>> PrometheusEndpoint::open(
    const std::string& host, int port, std::function<std::string()> page) {
  const auto fail = [&](const std::string& why) {
    core::Error e;
    e.kind = core::ErrorKind::kConfig;
    e.message = "--prometheus-port " + std::to_string(port) + ": cannot listen on " + host + ":" +
                std::to_string(port) + ": " + why;
    return e;
  };

  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* found = nullptr;
  const std::string service = std::to_string(port);
  if (const int rc = ::getaddrinfo(host.c_str(), service.c_str(), &hints, &found); rc != 0)
    return fail(gai_strerror(rc));
  std::string why = "no address";
  int fd = -1;
  for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      why = std::strerror(errno);
      continue;
    }
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, 16) != 0) {
      why = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) return fail(why);
  sockaddr_storage bound{};
  socklen_t len = sizeof bound;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&bound), &len);
  const int actual =
      ntohs(bound.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&bound)->sin6_port
                                        : reinterpret_cast<sockaddr_in*>(&bound)->sin_port);
  return std::unique_ptr<PrometheusEndpoint>(new PrometheusEndpoint(fd, actual, std::move(page)));
}

PrometheusEndpoint::~PrometheusEndpoint() {
  stop();
  if (fd_ >= 0) ::close(fd_);
}

void PrometheusEndpoint::start() {
  thread_ = std::thread([this] { run(); });
}

void PrometheusEndpoint::stop() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
}

void PrometheusEndpoint::run() {
  while (!stop_.load()) {
    pollfd p{fd_, POLLIN, 0};
    if (::poll(&p, 1, 100) <= 0) continue;
    const int client = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (client < 0) continue;
    answer(client);
    ::close(client);
  }
}

void PrometheusEndpoint::answer(int client) {
  timeval tv{2, 0};  // a client that stops reading holds the answer at most this long
  ::setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  // The whole request within 2 s, however slowly it trickles in, and never past stop(): one slow
  // client can neither hold the endpoint nor the end of the run.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
  std::string request;
  char buf[2048];
  while (request.find("\r\n\r\n") == std::string::npos) {
    if (request.size() > kMaxRequestBytes) {
      prom_reply(client, "431 Request Header Fields Too Large", "request too large\n");
      return;
    }
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                          deadline - std::chrono::steady_clock::now())
                          .count();
    if (left <= 0 || stop_.load()) return;
    pollfd p{client, POLLIN, 0};
    const int ready = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 100)));
    if (ready < 0 && errno != EINTR) return;
    if (ready <= 0) continue;
    const ssize_t n = ::recv(client, buf, sizeof buf, MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return;
    if (n > 0) request.append(buf, static_cast<std::size_t>(n));
  }
  const std::string_view line = std::string_view(request).substr(0, request.find("\r\n"));
  if (!line.starts_with("GET ")) {
    prom_reply(client, "405 Method Not Allowed", "only GET /metrics\n");
    return;
  }
  std::string_view target = line.substr(4, line.find(' ', 4) - 4);
  target = target.substr(0, target.find('?'));
  if (target != "/metrics") {
    prom_reply(client, "404 Not Found", "see /metrics\n");
    return;
  }
  prom_reply(client, "200 OK", page_());
}

}  // namespace inferperf::observe
