#include "observe/otlp_exporter.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>

#include "transport/http_get.hpp"

namespace inferperf::observe {

std::chrono::milliseconds otel_interval_from_environment() {
  if (const char* v = std::getenv("INFERPERF_OTEL_INTERVAL_MS")) {
    char* end = nullptr;
    const long long ms = std::strtoll(v, &end, 10);
    if (end != v && *end == '\0' && ms > 0 && ms <= 86'400'000)
      return std::chrono::milliseconds(ms);
  }
  return std::chrono::milliseconds(5000);
}

OtlpExporter::OtlpExporter(const LiveMetrics& metrics, OtlpExporterOptions options)
    : metrics_(metrics),
      options_(std::move(options)),
      start_unix_ns_(std::chrono::duration_cast<std::chrono::nanoseconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count()) {}

OtlpExporter::~OtlpExporter() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void OtlpExporter::start() {
  thread_ = std::thread([this] { run(); });
}

void OtlpExporter::finish() {
  {
    std::lock_guard lock(mu_);
    if (stopping_) return;
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::int64_t OtlpExporter::delivered() const {
  std::lock_guard lock(mu_);
  return delivered_;
}

std::int64_t OtlpExporter::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

void OtlpExporter::enqueue_snapshot() {
  queue_.push_back({encode_otlp_json(metrics_.snapshot(), options_.identity, start_unix_ns_), 0});
  while (queue_.size() > options_.max_pending) {
    queue_.pop_front();  // cumulative series: the newer push carries the same totals
    std::lock_guard lock(mu_);
    ++dropped_;
  }
}

void OtlpExporter::note_failure(const std::string& why) {
  if (warned_) return;
  warned_ = true;
  spdlog::warn(
      "OTLP metrics export to {} failed ({}); the benchmark goes on, further failures are not "
      "reported",
      options_.url, why);
}

bool OtlpExporter::drain(std::chrono::milliseconds timeout) {
  while (!queue_.empty()) {
    Pending& p = queue_.front();
    transport::PostRequest req;
    req.url = options_.url;
    req.body = p.body;
    req.timeout = timeout;
    req.verify_tls = options_.verify_tls;
    req.ssl_ca_file = options_.ssl_ca_file;
    req.body_limit = 64 << 10;
    const auto res = transport::http_post(req);
    std::string problem;
    if (!res) {
      problem = res.error().message;
    } else if (res->status < 200 || res->status >= 300) {
      problem = "HTTP " + std::to_string(res->status);
    }
    if (problem.empty()) {
      queue_.pop_front();
      std::lock_guard lock(mu_);
      ++delivered_;
      continue;
    }
    note_failure(problem);
    if (++p.attempts >= options_.max_attempts) {
      queue_.pop_front();
      std::lock_guard lock(mu_);
      ++dropped_;
    }
    return false;
  }
  return true;
}

void OtlpExporter::run() {
  using clock = std::chrono::steady_clock;
  auto next_push = clock::now() + options_.interval;
  std::chrono::milliseconds backoff{0};
  auto next_retry = clock::time_point::max();
  for (;;) {
    {
      std::unique_lock lock(mu_);
      wake_.wait_until(lock, std::min(next_push, next_retry), [this] { return stopping_; });
      if (stopping_) break;
    }
    const auto now = clock::now();
    if (now >= next_push) {
      enqueue_snapshot();
      next_push = now + options_.interval;
    }
    if (drain(options_.request_timeout)) {
      backoff = std::chrono::milliseconds(0);
      next_retry = clock::time_point::max();
    } else {
      // 250 ms, 500 ms, 1 s ... never beyond the interval.
      backoff = std::min<std::chrono::milliseconds>(
          options_.interval, backoff.count() ? backoff * 2 : std::chrono::milliseconds(250));
      next_retry = clock::now() + backoff;
    }
  }
  // The final push: the newest snapshot alone carries every total (the series are cumulative),
  // tried a few times under one overall deadline.
  enqueue_snapshot();
  {
    std::lock_guard lock(mu_);
    dropped_ += static_cast<std::int64_t>(queue_.size()) - 1;
  }
  queue_.erase(queue_.begin(), queue_.end() - 1);
  queue_.front().attempts = 0;
  const auto deadline = clock::now() + options_.final_wait;
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - clock::now());
    if (left.count() <= 0 || drain(std::min(left, options_.request_timeout)) || queue_.empty())
      break;
    std::this_thread::sleep_for(std::min(left, std::chrono::milliseconds(100)));
  }
  std::lock_guard lock(mu_);
  dropped_ += static_cast<std::int64_t>(queue_.size());
}

}  // namespace inferperf::observe
