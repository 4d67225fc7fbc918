#include "faults.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>
#include <set>

#include "http_text.hpp"
#include "server.hpp"

namespace inferperf::mock {

namespace detail {

namespace {
// big-event=N: up to 1 GiB, enough to pass any client limit without exhausting the mock's host.
constexpr std::int64_t kMaxBigEventBytes = std::int64_t{1} << 30;
}  // namespace

Fault parse_fault(std::string_view spec) {
  Fault f;
  std::string v(spec);
  auto eq = v.find('=');
  f.kind = v.substr(0, eq);
  if (eq != std::string::npos) {
    f.has_value = true;
    try {
      const long long n = std::stoll(v.substr(eq + 1));
      if (f.kind == "big-event") {
        if (n < 1 || n > kMaxBigEventBytes) f.kind = "invalid";
        f.big_bytes = static_cast<std::size_t>(std::max(n, 1LL));
      } else if (n < INT_MIN || n > INT_MAX) {
        f.kind = "invalid";
      } else if (f.kind == "status") {
        f.status = static_cast<int>(n);
      } else {
        f.delay_ms = static_cast<int>(n);
      }
    } catch (const std::exception&) {
      f.kind = "invalid";
    }
  }
  if (f.kind == "status" && (f.status < 100 || f.status > 599)) f.kind = "invalid";
  return f;
}

Fault request_fault(Exchange& x) {
  if (x.preflight) return {};
  Fault f;
  if (auto it = x.req.find("X-Mock-Fault"); it != x.req.end()) {
    f = parse_fault(it->value());
  } else if (const std::string drawn = x.server.draw_fault(); !drawn.empty()) {
    f = parse_fault(drawn);
  }
  if (f.kind == "close-after") {
    x.close_after = true;
    x.close_after_delay_ms = f.has_value ? std::max(0, f.delay_ms) : 0;
  }
  return f;
}

boost::asio::awaitable<std::optional<bool>> fault_gate(Exchange& x, const Fault& fault,
                                                       Clock::time_point start) {
  static const std::function<void()> no_callback;
  return fault_gate(x, fault, start, no_callback);
}

boost::asio::awaitable<std::optional<bool>> fault_gate(Exchange& x, const Fault& fault,
                                                       Clock::time_point start,
                                                       const std::function<void()>& on_reject) {
  if (!x.preflight && x.server.inject_error()) {
    if (on_reject) on_reject();
    co_return co_await fail_status(x, 500, R"({"detail":"Simulated error"})");
  }
  if (fault.kind == "status" && fault.status >= 200 && fault.status <= 299) {
    // A success other than 200 (a gateway's 201/202): a normal, short completion under that
    // status, readable by the chat and the completions decoders alike. Not an injected error.
    const std::string body = fmt::format(
        R"({{"id":"mock-status-{}","object":"chat.completion","created":{},"model":"mock",)"
        R"("choices":[{{"index":0,"message":{{"role":"assistant","content":"status {} answer"}},)"
        R"("text":"status {} answer","finish_reason":"stop"}}],)"
        R"("usage":{{"prompt_tokens":1,"completion_tokens":3,"total_tokens":4}}}})",
        fault.status, static_cast<long long>(x.created), fault.status, fault.status);
    co_await x.conn.send(plain_response(fault.status, "application/json", body, x.keep));
    co_return x.keep;
  }
  if (fault.kind == "status" || fault.kind == "reset" || fault.kind == "close") {
    if (on_reject) on_reject();
  }
  if (fault.kind == "status") {
    co_return co_await fail_status(
        x, fault.status,
        fmt::format(
            R"({{"error":{{"message":"mock fault status {}","type":"mock_fault","code":{}}}}})",
            fault.status, fault.status));
  }
  if (fault.kind == "reset" || fault.kind == "close") {
    x.server.counters.errors_injected.fetch_add(1);
    x.conn.close(fault.kind == "reset");
    co_return false;
  }
  if (fault.kind == "slow-headers")
    co_await x.conn.sleep_until(start + std::chrono::milliseconds(fault.delay_ms));
  co_return std::nullopt;
}

boost::asio::awaitable<bool> fail_status(Exchange& x, int status, std::string body) {
  x.server.counters.errors_injected.fetch_add(1);
  co_await x.conn.send(plain_response(status, "application/json", body, x.keep));
  co_return x.keep;
}

}  // namespace detail

bool valid_fault(std::string_view spec) {
  static const std::set<std::string, std::less<>> kKinds = {
      "reset", "close",        "malformed", "error-event", "truncate",   "truncate-reset",
      "stall", "slow-headers", "big-event", "status",      "video-fail", "close-after"};
  const detail::Fault f = detail::parse_fault(spec);
  return kKinds.contains(f.kind);
}

}  // namespace inferperf::mock
