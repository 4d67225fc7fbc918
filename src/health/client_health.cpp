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
    if (w.run_delay_s) workers.back()["run_delay_s"] = *w.run_delay_s;
    if (w.involuntary_switches) workers.back()["involuntary_switches"] = *w.involuntary_switches;
  }
  j["workers"] = std::move(workers);
  j["issuer_cpu_s"] = load.issuer_cpu_s ? nlohmann::ordered_json(*load.issuer_cpu_s)
                                        : nlohmann::ordered_json(nullptr);
  j["process_user_s"] = load.process_user_s;
  j["process_system_s"] = load.process_system_s;
  if (load.host_steal_s) j["host_steal_s"] = *load.host_steal_s;
  j["host_cpus"] = load.host_cpus;
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
    if (w.contains("run_delay_s")) u.run_delay_s = w.at("run_delay_s").get<double>();
    if (w.contains("involuntary_switches"))
      u.involuntary_switches = w.at("involuntary_switches").get<double>();
    load.workers.push_back(u);
  }
  if (!j.at("issuer_cpu_s").is_null()) load.issuer_cpu_s = j.at("issuer_cpu_s").get<double>();
  load.process_user_s = j.at("process_user_s").get<double>();
  load.process_system_s = j.at("process_system_s").get<double>();
  if (j.contains("host_steal_s")) load.host_steal_s = j.at("host_steal_s").get<double>();
  load.host_cpus = j.value("host_cpus", 1);
  return load;
}

Assessment assess(const std::optional<ClientLoad>& load, const WorkDone& work,
                  const Thresholds& limits) {
  Assessment a;
  std::vector<std::string> causes;
  nlohmann::ordered_json workers = nlohmann::ordered_json::array();
  std::optional<double> cpu_max, lag_max, issuer_pct, process_s;
  std::optional<double> wait_max, switches_max, steal_pct;
  const WorkerUsage* busiest = nullptr;
  const WorkerUsage* laggiest = nullptr;
  const WorkerUsage* waitiest = nullptr;  // the worker most delayed by others, relative to its CPU
  if (load && load->window_s > 0) {
    for (const auto& w : load->workers) {
      const double pct = 100.0 * w.cpu_s / load->window_s;
      workers.push_back({{"id", w.id},
                         {"cpu_percent", round3(pct)},
                         {"loop_lag_p50_ms", round3(w.loop_lag_p50_ms)},
                         {"loop_lag_p99_ms", round3(w.loop_lag_p99_ms)},
                         {"loop_lag_max_ms", round3(w.loop_lag_max_ms)},
                         {"loop_lag_samples", w.loop_lag_samples}});
      if (w.run_delay_s) {
        const double wait = 100.0 * *w.run_delay_s / load->window_s;
        workers.back()["run_queue_wait_percent"] = round3(wait);
        if (!wait_max || wait > *wait_max) wait_max = wait;
        const bool others = wait >= limits.run_queue_wait_percent && 2.0 * wait >= pct;
        if (others && (!waitiest || *w.run_delay_s > *waitiest->run_delay_s)) waitiest = &w;
      }
      if (w.involuntary_switches) {
        const double rate = *w.involuntary_switches / load->window_s;
        workers.back()["involuntary_switches_per_s"] = round3(rate);
        if (!switches_max || rate > *switches_max) switches_max = rate;
      }
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
    if (load->host_steal_s)
      steal_pct = 100.0 * *load->host_steal_s / (load->window_s * std::max(1, load->host_cpus));
    process_s = load->process_user_s + load->process_system_s;
  }
  const bool busy = cpu_max && *cpu_max > limits.worker_cpu_percent;
  const bool waited = waitiest || (steal_pct && *steal_pct > limits.steal_percent);
  // Lateness with idle-ish threads that waited for CPUs is the host's doing, not the client's.
  const bool blame_host = !busy && waited;
  auto late = [&](const char* cause, std::string what) {
    if (blame_host) {
      a.contention.push_back(std::move(what));
    } else {
      causes.push_back(cause);
      a.warnings.push_back(std::move(what));
    }
  };
  if (laggiest && *lag_max > limits.loop_lag_p99_ms) {
    late("event_loop_lag",
         fmt::format("worker {} event-loop lag p99 {:.3f} ms exceeds {} ms: its reads were "
                     "stamped late",
                     laggiest->id, *lag_max, limits.loop_lag_p99_ms));
  }
  if (busy) {
    causes.push_back("worker_cpu");
    a.warnings.push_back(fmt::format("worker {} used {:.1f} % of a CPU (limit {} %)", busiest->id,
                                     *cpu_max, limits.worker_cpu_percent));
  }
  if (work.schedule_lag_p99_ms && *work.schedule_lag_p99_ms > limits.schedule_lag_p99_ms) {
    late("schedule_lag",
         fmt::format("schedule lag p99 {:.3f} ms exceeds {} ms: requests left later than the "
                     "schedule asked",
                     *work.schedule_lag_p99_ms, limits.schedule_lag_p99_ms));
  }
  if (!a.contention.empty()) {
    if (waitiest) {
      a.contention.push_back(fmt::format(
          "worker {} waited {:.1f} % of the window for a CPU while using {:.1f} %: another "
          "process shares inferperf's CPUs",
          waitiest->id, 100.0 * *waitiest->run_delay_s / load->window_s,
          100.0 * waitiest->cpu_s / load->window_s));
    }
    if (steal_pct && *steal_pct > limits.steal_percent)
      a.contention.push_back(fmt::format("the hypervisor stole {:.1f} % of the CPUs", *steal_pct));
  }
  a.saturated = !causes.empty();
  a.host_contended = !a.contention.empty();

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
  b["host_contended"] = a.host_contended;
  b["contention"] = a.contention;
  b["run_queue_wait_percent_max"] = optional_number(wait_max);
  b["involuntary_switches_per_s_max"] = optional_number(switches_max);
  b["host_steal_percent"] = optional_number(steal_pct);
  b["workers"] = std::move(workers);
  return a;
}

}  // namespace inferperf::health
