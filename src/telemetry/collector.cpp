#include "telemetry/collector.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "core/secrets.hpp"
#include "transport/http_policy.hpp"

namespace inferperf::telemetry {

namespace {

std::chrono::seconds whole_seconds(double s) {
  return std::chrono::seconds(std::max<long long>(1, std::llround(std::ceil(s))));
}

}  // namespace

TelemetryCollector::TelemetryCollector(const core::Clock& clock, CollectorOptions options)
    : clock_(clock), opts_(std::move(options)) {
  auto add = [](std::vector<EndpointState>& to, const std::string& url, bool user_given) {
    for (const auto& e : to)
      if (e.fetch_url == url) return false;
    EndpointState e;
    // A secret in the URL (?token=...) is sent, never shown, logged or exported.
    e.fetch_url = url;
    e.url = core::redact_urls(url);
    e.name = endpoint_name(e.url);
    e.user_given = user_given;
    to.push_back(std::move(e));
    return true;
  };
  if (!opts_.gpu_sampler) {
    for (const auto& u : opts_.dcgm_urls) add(gpu_endpoints_, metrics_url(u), true);
    for (const auto& u : opts_.default_dcgm_urls) add(gpu_endpoints_, metrics_url(u), false);
  }
  // The pages derived from --url first (the export order), each one the user also named counting
  // as named.
  auto named = [&](const std::string& page) {
    return std::any_of(opts_.server_urls.begin(), opts_.server_urls.end(),
                       [&](const std::string& u) { return metrics_url(u) == page; });
  };
  for (const auto& u : opts_.default_server_urls) {
    const std::string page = metrics_url(u);
    if (add(server_, page, named(page))) server_logs_.emplace_back(server_.back().url);
  }
  for (const auto& u : opts_.server_urls) {
    if (add(server_, metrics_url(u), true)) server_logs_.emplace_back(server_.back().url);
  }
}

TelemetryCollector::~TelemetryCollector() {
  stop();
}

void TelemetryCollector::start() {
  if (!active() || thread_.joinable()) return;
  thread_ = std::thread([this] { loop(); });
}

void TelemetryCollector::scrape_now() {
  std::unique_lock lock(mu_);
  if (!thread_.joinable() || stopping_) return;
  // A round already under way may have read some endpoints before this call: wait for the next.
  const std::int64_t target = rounds_started_ + 1;
  wanted_now_ = true;
  cv_.notify_all();
  cv_.wait(lock, [&] { return rounds_done_ >= target || stopping_; });
}

void TelemetryCollector::stop() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void TelemetryCollector::loop() {
  const auto interval =
      std::chrono::nanoseconds(static_cast<std::int64_t>(std::max(0.01, opts_.interval_s) * 1e9));
  auto next = std::chrono::steady_clock::now();
  for (;;) {
    {
      std::unique_lock lock(mu_);
      cv_.wait_until(lock, next, [&] { return stopping_ || wanted_now_; });
      if (stopping_) break;
      explicit_round_ = wanted_now_;
      wanted_now_ = false;
      ++rounds_started_;
    }
    next = std::chrono::steady_clock::now() + interval;
    try {
      round(explicit_round_);
    } catch (const std::exception& e) {
      // Telemetry is side data: losing a round must never end the benchmark.
      spdlog::warn("telemetry scrape failed: {}", e.what());
    }
    {
      std::lock_guard lock(mu_);
      ++rounds_done_;
    }
    cv_.notify_all();
  }
  cv_.notify_all();
}

bool TelemetryCollector::fetch(EndpointState& e, bool patient, std::string& body,
                               std::int64_t& sent, std::int64_t& done) {
  const bool probing = e.reach == Reach::kUnknown;
  transport::GetRequest req = opts_.http.get(e.fetch_url, transport::Peer::kNamedHost);
  req.max_redirects = 2;
  req.body_limit = 64ull << 20;
  // Probes and the baseline/final rounds wait longer than a periodic scrape, which must not hold
  // up the next one.
  req.timeout =
      whole_seconds(probing ? (e.user_given ? opts_.probe_timeout_s : opts_.default_probe_timeout_s)
                    : patient ? opts_.probe_timeout_s
                              : std::max(1.0, 3 * opts_.interval_s));
  sent = clock_.now_ns();
  auto res = transport::http_get(req);
  done = clock_.now_ns();
  ++e.fetches;
  std::string problem;
  if (!res) {
    problem = core::redact_urls(res.error().message);
  } else if (res->status != 200) {
    problem = "HTTP " + std::to_string(res->status);
  } else {
    body = std::move(res->body);
    return true;
  }
  ++e.failed_fetches;
  if (probing) e.problem = problem;
  return false;
}

std::vector<std::string> TelemetryCollector::live_lines() const {
  std::lock_guard lock(live_mu_);
  return live_lines_;
}

void TelemetryCollector::update_live_lines(std::size_t first_new_gpu_sample) {
  std::vector<std::string> lines;
  auto value = [](const GpuSample& s, GpuMetric m, const char* fmt_unit) -> std::string {
    const auto& v = s[m];
    return v ? fmt::format(fmt::runtime(fmt_unit), *v) : std::string("-");
  };
  for (std::size_t i = first_new_gpu_sample; i < gpu_samples_.size(); ++i) {
    const GpuSample& s = gpu_samples_[i];
    lines.push_back(fmt::format("GPU {} {}: {} power, {} util, {} memory, {} temperature",
                                s.gpu.index, s.gpu.model_name.empty() ? s.source : s.gpu.model_name,
                                value(s, GpuMetric::kPowerUsage, "{:.0f} W"),
                                value(s, GpuMetric::kGpuUtilization, "{:.0f} %"),
                                value(s, GpuMetric::kMemoryUsed, "{:.1f} GB"),
                                value(s, GpuMetric::kTemperature, "{:.0f} C")));
  }
  for (std::size_t i = 0; i < server_.size(); ++i) {
    const auto& e = server_[i];
    const char* reach = e.reach == Reach::kReachable     ? "reachable"
                        : e.reach == Reach::kUnreachable ? "unreachable"
                                                         : "probing";
    lines.push_back(fmt::format("server metrics {}: {}, {} scrapes ({} failed)", e.name, reach,
                                e.fetches, e.failed_fetches));
  }
  std::lock_guard lock(live_mu_);
  live_lines_ = std::move(lines);
}

void TelemetryCollector::round(bool patient) {
  const std::size_t first_new_gpu_sample = gpu_samples_.size();
  // Whatever the round did, the live lines show its outcome.
  struct Publish {
    TelemetryCollector& self;
    std::size_t first;
    ~Publish() {
      try {
        self.update_live_lines(first);
      } catch (...) {
        // Only the live view loses a line; the measurement goes on.
      }
    }
  } publish{*this, first_new_gpu_sample};
  std::string body;
  std::int64_t sent = 0, done = 0;
  // Each source on its own: one that throws (a page too big to hold, say) costs only itself.
  auto guarded = [](const std::string& what, auto&& step) {
    try {
      step();
    } catch (const std::exception& e) {
      spdlog::warn("telemetry: {}: {}", what, e.what());
    }
  };
  if (opts_.gpu_sampler) {
    guarded("NVML", [&] {
      auto samples = opts_.gpu_sampler(clock_.now_ns());
      for (auto& s : samples) gpu_samples_.push_back(std::move(s));
    });
  }
  // The user's endpoints first, so the default probes never delay a baseline they take part in.
  for (auto& e : gpu_endpoints_) {
    if (e.reach == Reach::kUnreachable) continue;
    guarded(e.url, [&] {
      const bool probing = e.reach == Reach::kUnknown;
      if (!fetch(e, patient, body, sent, done)) {
        if (probing) {
          e.reach = Reach::kUnreachable;
          if (e.user_given) {
            spdlog::warn("GPU telemetry endpoint {} is unreachable ({}); skipping it", e.url,
                         e.problem);
          } else {
            spdlog::debug("default DCGM endpoint {} not reachable: {}", e.url, e.problem);
          }
        }
        return;
      }
      e.reach = Reach::kReachable;
      const Page page = parse_prometheus(body);
      auto samples = gpu_samples_from_page(page, e.url, done, opts_.custom_fields);
      if (probing && samples.empty()) spdlog::warn("{} answered but has no DCGM GPU fields", e.url);
      for (auto& s : samples) gpu_samples_.push_back(std::move(s));
    });
  }
  for (std::size_t i = 0; i < server_.size(); ++i) {
    auto& e = server_[i];
    if (e.reach == Reach::kUnreachable) continue;
    guarded(e.url, [&] {
      const bool probing = e.reach == Reach::kUnknown;
      if (!fetch(e, patient, body, sent, done)) {
        if (probing) {
          e.reach = Reach::kUnreachable;
          // The server answered, only not with metrics, where the user named no page: a fact of
          // the server (llama.cpp without --metrics), not a problem of the run.
          if (!e.user_given && e.problem.rfind("HTTP ", 0) == 0) {
            spdlog::info(
                "the server publishes no metrics at {} ({}); server metrics are not "
                "collected",
                e.url, e.problem);
          } else {
            spdlog::warn("server metrics endpoint {} is unreachable ({}); skipping it", e.url,
                         e.problem);
          }
        }
        return;
      }
      e.reach = Reach::kReachable;
      server_reachable_.store(true);
      const Page page = parse_prometheus(body);
      if (page.skipped_lines > 0 && probing) {
        spdlog::warn("{}: {} unreadable line(s) skipped, first at {}", e.url, page.skipped_lines,
                     page.first_problem);
      }
      server_logs_[i].add(page, sent, done);
    });
  }
}

}  // namespace inferperf::telemetry
