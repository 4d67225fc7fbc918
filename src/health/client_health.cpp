#include "health/client_health.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace inferperf::health {

namespace {

double ms(std::int64_t ns) {
  return static_cast<double>(ns) / 1e6;
}

// Rounded so the block reads well and stays stable in golden comparisons of its shape.
double round3(double v) {
  return std::round(v * 1000.0) / 1000.0;
}

nlohmann::ordered_json optional_number(const std::optional<double>& v) {
  return v ? nlohmann::ordered_json(round3(*v)) : nlohmann::ordered_json(nullptr);
}

}  // namespace

WorkerUsage worker_usage(int id, double cpu_s, const core::HistogramSnapshot& lag) {
  WorkerUsage w;
  w.id = id;
  w.cpu_s = cpu_s;
  w.loop_lag_samples = lag.total;
  w.loop_lag_p50_ms = ms(lag.percentile_ns(50));
  w.loop_lag_p99_ms = ms(lag.percentile_ns(99));
  w.loop_lag_max_ms = ms(lag.percentile_ns(100));
  return w;
}

nlohmann::ordered_json load_to_json(const ClientLoad& load) {
  nlohmann::ordered_json j;
  j["window_s"] = load.window_s;
  auto workers = nlohmann::ordered_json::array();
  for (const auto& w : load.workers) {
    workers.push_back({{"id", w.id},
                       {"cpu_s", w.cpu_s},
                       {"loop_lag_p50_ms", w.loop_lag_p50_ms},
                       {"loop_lag_p99_ms", w.loop_lag_p99_ms},
                       {"loop_lag_max_ms", w.loop_lag_max_ms},
                       {"loop_lag_samples", w.loop_lag_samples}});
  }
  j["workers"] = std::move(workers);
  j["issuer_cpu_s"] = load.issuer_cpu_s ? nlohmann::ordered_json(*load.issuer_cpu_s)
                                        : nlohmann::ordered_json(nullptr);
  j["process_user_s"] = load.process_user_s;
  j["process_system_s"] = load.process_system_s;
  return j;
}

ClientLoad load_from_json(const nlohmann::json& j) {
  ClientLoad load;
  load.window_s = j.at("window_s").get<double>();
  for (const auto& w : j.at("workers")) {
    WorkerUsage u;
    u.id = w.at("id").get<int>();
    u.cpu_s = w.at("cpu_s").get<double>();
    u.loop_lag_p50_ms = w.at("loop_lag_p50_ms").get<double>();
    u.loop_lag_p99_ms = w.at("loop_lag_p99_ms").get<double>();
    u.loop_lag_max_ms = w.at("loop_lag_max_ms").get<double>();
    u.loop_lag_samples = w.at("loop_lag_samples").get<std::uint64_t>();
    load.workers.push_back(u);
  }
  if (!j.at("issuer_cpu_s").is_null()) load.issuer_cpu_s = j.at("issuer_cpu_s").get<double>();
  load.process_user_s = j.at("process_user_s").get<double>();
  load.process_system_s = j.at("process_system_s").get<double>();
  return load;
}

Assessment assess(const std::optional<ClientLoad>& load, const WorkDone& work,
                  const Thresholds& limits) {
  Assessment a;
  std::vector<std::string> causes;
  nlohmann::ordered_json workers = nlohmann::ordered_json::array();
  std::optional<double> cpu_max, lag_max, issuer_pct, process_s;
  if (load && load->window_s > 0) {
    const WorkerUsage* busiest = nullptr;
    const WorkerUsage* laggiest = nullptr;
    for (const auto& w : load->workers) {
      const double pct = 100.0 * w.cpu_s / load->window_s;
      workers.push_back({{"id", w.id},
                         {"cpu_percent", round3(pct)},
                         {"loop_lag_p50_ms", round3(w.loop_lag_p50_ms)},
                         {"loop_lag_p99_ms", round3(w.loop_lag_p99_ms)},
                         {"loop_lag_max_ms", round3(w.loop_lag_max_ms)},
                         {"loop_lag_samples", w.loop_lag_samples}});
      if (!cpu_max || pct > *cpu_max) {
        cpu_max = pct;
        busiest = &w;
      }
      // A worker with no probe sample in the window tells nothing about lag.
      if (w.loop_lag_samples > 0 && (!lag_max || w.loop_lag_p99_ms > *lag_max)) {
        lag_max = w.loop_lag_p99_ms;
        laggiest = &w;
      }
    }
    if (load->issuer_cpu_s) issuer_pct = 100.0 * *load->issuer_cpu_s / load->window_s;
    process_s = load->process_user_s + load->process_system_s;
    if (laggiest && *lag_max > limits.loop_lag_p99_ms) {
      causes.push_back("event_loop_lag");
      a.warnings.push_back(fmt::format(
          "worker {} event-loop lag p99 {:.3f} ms exceeds {} ms: its reads were stamped late",
          laggiest->id, *lag_max, limits.loop_lag_p99_ms));
    }
    if (busiest && *cpu_max > limits.worker_cpu_percent) {
      causes.push_back("worker_cpu");
      a.warnings.push_back(fmt::format("worker {} used {:.1f} % of a CPU (limit {} %)", busiest->id,
                                       *cpu_max, limits.worker_cpu_percent));
    }
  }
  if (work.schedule_lag_p99_ms && *work.schedule_lag_p99_ms > limits.schedule_lag_p99_ms) {
    causes.push_back("schedule_lag");
    a.warnings.push_back(fmt::format(
        "schedule lag p99 {:.3f} ms exceeds {} ms: requests left later than the schedule asked",
        *work.schedule_lag_p99_ms, limits.schedule_lag_p99_ms));
  }
  a.saturated = !causes.empty();

  auto& b = a.block;
  b["saturated"] = a.saturated;
  b["causes"] = causes;
  b["warnings"] = a.warnings;
  b["measured"] = load.has_value();
  b["thresholds"] = {{"loop_lag_p99_ms", limits.loop_lag_p99_ms},
                     {"worker_cpu_percent", limits.worker_cpu_percent},
                     {"schedule_lag_p99_ms", limits.schedule_lag_p99_ms}};
  b["window_s"] = load ? nlohmann::ordered_json(round3(load->window_s)) : nullptr;
  b["worker_count"] = load ? nlohmann::ordered_json(load->workers.size()) : nullptr;
  b["worker_cpu_percent_max"] = optional_number(cpu_max);
  b["loop_lag_p99_ms_max"] = optional_number(lag_max);
  b["schedule_lag_p50_ms"] = optional_number(work.schedule_lag_p50_ms);
  b["schedule_lag_p99_ms"] = optional_number(work.schedule_lag_p99_ms);
  b["issuer_cpu_percent"] = optional_number(issuer_pct);
  b["process_cpu_user_s"] = load ? nlohmann::ordered_json(round3(load->process_user_s)) : nullptr;
  b["process_cpu_system_s"] =
      load ? nlohmann::ordered_json(round3(load->process_system_s)) : nullptr;
  b["requests"] = work.requests;
  b["events"] = work.events;
  auto per = [&](std::int64_t n) -> std::optional<double> {
    if (!process_s || n <= 0) return std::nullopt;
    return *process_s * 1e6 / static_cast<double>(n);
  };
  b["cpu_us_per_request"] = optional_number(per(work.requests));
  b["cpu_us_per_event"] = optional_number(per(work.events));
  b["workers"] = std::move(workers);
  return a;
}

}  // namespace inferperf::health
