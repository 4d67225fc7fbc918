#include "observe/mlflow_live.hpp"

#include <spdlog/spdlog.h>

#include <cstdlib>

#include "core/secrets.hpp"

namespace inferperf::observe {

namespace {

std::int64_t mlflow_live_now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

}  // namespace

std::vector<MlflowMetric> mlflow_live_metrics(const MetricsSnapshot& s) {
  std::vector<MlflowMetric> out;
  for (const PhaseMetrics& p : s.phases) {
    if (p.phase != "profiling") continue;
    const auto add = [&](const std::string& name, double v) { out.push_back({"live." + name, v}); };
    const auto d = [](std::int64_t v) { return static_cast<double>(v); };
    add("aiperf.timing.requests.sent", d(p.sent));
    add("aiperf.timing.requests.completed", d(p.completed));
    add("aiperf.timing.requests.cancelled", d(p.cancelled));
    add("aiperf.timing.requests.errors", d(p.errors));
    add("aiperf.timing.requests.in_flight", d(p.in_flight));
    add("aiperf.timing.sessions.sent", d(p.sessions_sent));
    add("aiperf.timing.sessions.completed", d(p.sessions_completed));
    add("aiperf.timing.sessions.cancelled", d(p.sessions_cancelled));
    add("aiperf.timing.sessions.in_flight", d(p.sessions_in_flight()));
    add("aiperf.timing.sessions.turns_total", d(p.turns_total));
    const auto hist = [&](const std::string& name, const FixedHistogram& h) {
      add(name + ".count", static_cast<double>(h.count));
      add(name + ".sum", h.sum);
    };
    hist("gen_ai.client.operation.duration", p.duration);
    hist("gen_ai.client.operation.time_to_first_chunk", p.ttfc);
    hist("gen_ai.client.operation.time_per_output_chunk", p.chunk_interval);
    add("gen_ai.client.token.usage.input", d(p.input_tokens));
    add("gen_ai.client.token.usage.output", d(p.output_tokens));
  }
  return out;
}

std::chrono::milliseconds mlflow_interval_from_environment() {
  if (const char* v = std::getenv("INFERPERF_MLFLOW_INTERVAL_MS")) {
    char* end = nullptr;
    const long long ms = std::strtoll(v, &end, 10);
    if (end != v && *end == '\0' && ms > 0 && ms <= 86'400'000)
      return std::chrono::milliseconds(ms);
  }
  return std::chrono::milliseconds(10000);
}

MlflowLiveLogger::MlflowLiveLogger(const LiveMetrics& metrics, MlflowClientOptions client,
                                   MlflowRunRef run, std::chrono::milliseconds interval)
    : metrics_(metrics),
      client_(client),
      options_(std::move(client)),
      run_(std::move(run)),
      interval_(interval) {}

MlflowLiveLogger::~MlflowLiveLogger() {
  finish();
}

void MlflowLiveLogger::start() {
  if (thread_.joinable()) return;
  thread_ = std::thread([this] { run(); });
}

void MlflowLiveLogger::finish() {
  {
    std::lock_guard lock(mu_);
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

bool MlflowLiveLogger::log_once(long step) {
  const std::vector<MlflowMetric> metrics = mlflow_live_metrics(metrics_.snapshot());
  if (metrics.empty()) return true;
  for (nlohmann::json body :
       mlflow_log_batch_bodies(run_.run_id, metrics, {}, {}, mlflow_live_now_ms())) {
    for (auto& m : body["metrics"]) m["step"] = step;
    if (auto got = client_.log_batch(body); !got) {
      spdlog::warn("MLflow live scalars to {} stopped: {}; the run's export follows at its end",
                   core::redact_urls(options_.tracking_uri), got.error().message);
      return false;
    }
  }
  return true;
}

void MlflowLiveLogger::run() {
  long step = 0;
  std::unique_lock lock(mu_);
  for (;;) {
    const bool last = wake_.wait_for(lock, interval_, [this] { return stopping_; });
    lock.unlock();
    const bool ok = log_once(step++);
    if (last || !ok) return;
    lock.lock();
  }
}

}  // namespace inferperf::observe
