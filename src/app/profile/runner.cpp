#include "app/profile/runner.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/exit_codes.hpp"
#include "app/logging.hpp"
#include "app/profile/adaptive_feed.hpp"
#include "app/profile/dataset_setup.hpp"
#include "app/profile/input_config.hpp"
#include "app/profile/live_view.hpp"
#include "app/profile/mlflow_setup.hpp"
#include "app/profile/network_prober.hpp"
#include "app/profile/observe_setup.hpp"
#include "app/profile/phase_plans.hpp"
#include "app/profile/phase_runner.hpp"
#include "app/profile/records_pass.hpp"
#include "app/profile/run_info.hpp"
#include "app/profile/run_setup.hpp"
#include "app/profile/telemetry_setup.hpp"
#include "app/results.hpp"
#include "app/tokenizer_setup.hpp"
#include "artifacts/export_names.hpp"
#include "artifacts/run_manifest.hpp"
#include "artifacts/run_records.hpp"
#include "core/clock.hpp"
#include "core/cpu_time.hpp"
#include "metrics/compute.hpp"
#include "records/collector.hpp"
#include "records/record_jsonl.hpp"
#include "records/record_line.hpp"
#include "report/console_table.hpp"
#include "report/exporters.hpp"
#include "timing/shard.hpp"
#include "ui/dashboard.hpp"
#include "ui/frontend.hpp"
#include "ui/live_stats.hpp"
#include "ui/log_buffer.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;
using namespace std::string_literals;

namespace {

std::int64_t wall_now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// --start-at: every shard starts its first phase at the same wall-clock instant. A stop (signal,
// q) ends the wait; a time already past starts at once, with the lateness in the log (merge
// compares the shards' actual starts).
void wait_for_start_at(double start_at, const std::atomic<bool>& cancelled) {
  const auto target = static_cast<std::int64_t>(start_at * 1e9);
  const double late_s = static_cast<double>(wall_now_ns() - target) / 1e9;
  if (late_s > 0) {
    spdlog::warn("--start-at {:.3f} was {:.3f} s ago; starting now", start_at, late_s);
    return;
  }
  spdlog::info("waiting {:.3f} s for --start-at {:.3f}", -late_s, start_at);
  for (;;) {
    const std::int64_t left = target - wall_now_ns();
    if (left <= 0 || cancelled.load()) return;
    // Slices of at most 50 ms, so a signal is answered promptly; the last one ends on time.
    std::this_thread::sleep_for(std::chrono::nanoseconds(std::min<std::int64_t>(left, 50'000'000)));
  }
}

int worker_count(const config::RunConfig& c) {
  // The CPUs this process may use: under taskset or a cpuset, more workers than those would
  // time-slice against each other.
  const int hw = core::usable_cpus();
  int n = hw;
  if (c.load.concurrency) n = std::min(n, *c.load.concurrency);
  if (c.load.workers_max) {
    int cap = *c.load.workers_max;
    if (cap > hw) {
      spdlog::warn("--workers-max {} exceeds the {} CPUs this process may use; using {}", cap, hw,
                   hw);
      cap = hw;
    }
    n = std::min(n, cap);
  }
  return std::max(1, n);
}

// Waits for SIGINT/SIGTERM on its own thread (the signals are blocked everywhere else).
class SignalWatcher {
 public:
  template <typename F>
  explicit SignalWatcher(F on_signal) {
    sigemptyset(&set_);
    sigaddset(&set_, SIGINT);
    sigaddset(&set_, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set_, nullptr);
    thread_ = std::thread([this, on_signal] {
      while (!done_.load()) {
        timespec ts{0, 100'000'000};
        int sig = sigtimedwait(&set_, nullptr, &ts);
        if (sig == SIGINT || sig == SIGTERM) {
          fired_.store(true);
          on_signal(sig);
        }
      }
    });
  }
  ~SignalWatcher() {
    done_.store(true);
    if (thread_.joinable()) thread_.join();
    pthread_sigmask(SIG_UNBLOCK, &set_, nullptr);
  }
  bool fired() const { return fired_.load(); }

 private:
  sigset_t set_{};
  std::atomic<bool> done_{false};
  std::atomic<bool> fired_{false};
  std::thread thread_;
};

// Puts the console log back on stderr when the dashboard goes, whichever way the run ends.
struct ConsoleLogRoute {
  ~ConsoleLogRoute() { route_console_logging(nullptr); }
};

// How long the dashboard's last frame stays up (q closes it sooner): INFERPERF_UI_LINGER_S,
// default 1 s, so the final counts can be read before the report replaces the screen.
double dashboard_linger_s() {
  if (const char* v = std::getenv("INFERPERF_UI_LINGER_S")) {
    char* end = nullptr;
    const double s = std::strtod(v, &end);
    if (end != v && std::isfinite(s) && s >= 0) return std::min(s, 3600.0);
  }
  return 1.0;
}

// The server_behaviour block: null unless some server closed connections under requests.
nlohmann::ordered_json server_behaviour_json(const std::vector<worker::Target>& targets) {
  std::int64_t retries = 0;
  bool closes_after_stream = false;
  for (const auto& t : targets) {
    if (!t.behaviour) continue;
    retries += t.behaviour->connection_retries();
    closes_after_stream = closes_after_stream || t.behaviour->closes_after_stream();
  }
  if (retries == 0 && !closes_after_stream) return nullptr;
  return {{"closes_connection_after_stream", closes_after_stream},
          {"connection_retry_count", retries}};
}

// What the profiling phase set out to send, for the workload_integrity block.
report::WorkloadPlan workload_plan(const config::RunConfig& c, const timing::PhasePlan& profiling,
                                   const dataset::Dataset& ds, bool file_dataset) {
  report::WorkloadPlan p;
  std::int64_t turns = 0;
  for (const auto& conv : ds.conversations) turns += static_cast<std::int64_t>(conv.turns.size());
  if (profiling.fixed_schedule) {
    p.planned_requests = turns;
  } else if (profiling.request_count && !profiling.duration_s) {
    p.planned_requests = *profiling.request_count;
  }
  if (file_dataset && !c.shard.sharded()) {
    for (const auto& conv : ds.conversations)
      p.conversations.emplace_back(conv.session_id, static_cast<int>(conv.turns.size()));
    // Sequential sampling starts at row 0 unless a warmup phase took the first rows.
    p.rows_in_order = profiling.fixed_schedule ||
                      (c.input.sampling_strategy == config::SamplingStrategy::kSequential &&
                       !c.load.warmup_enabled);
  }
  return p;
}

// The records' way from the workers to the disk, and the report context they end in.
struct ProfileRecords {
  explicit ProfileRecords(core::WallAnchor anchor) : collector(queue, anchor) {
    ctx.anchor = anchor;
  }
  report::ReportContext ctx;  // ctx.anchor: the run's one wall-clock anchor
  artifacts::ExportSettings settings;
  // Written now so a run that never finishes can still be analysed from its records, its client
  // token counts made by `analyze` from inputs.json and this tokenizer.
  std::optional<artifacts::TokenRecount> recount;
  records::RecordQueue queue;
  records::Collector collector;
};

// The records file opened, and the manifest written before the first request.
StageExit open_records(const ProfileSetup& s, ProfileRecords& r) {
  const config::RunConfig& c = s.c;
  if (auto o = r.collector.open(s.artifact_dir / artifacts::kRecordsFileName); !o) {
    return stage_error(kExitRunFailed, o.error());
  }
  report::ReportContext& ctx = r.ctx;
  ctx.benchmark_id = s.benchmark_id;
  ctx.cli_command = c.cli_command;
  ctx.token_source = s.token_source;
  ctx.title = s.info().title;
  ctx.input_config = build_input_config(c, s.artifact_dir.string());
  ctx.agent_depths = agent_depths(s.ds());
  ctx.run_info =
      build_run_info(s.benchmark_id, c.input.random_seed, c.cli_command, std::getenv(kRunInfoEnv));
  ctx.secret_body_keys = secret_extra_keys(c.input.extra);
  ctx.artifact_dir = s.artifact_dir;
  ctx.export_http_trace = c.metrics.export_http_trace;
  if (c.shard.sharded()) {
    ctx.shard = {{"index", c.shard.index}, {"count", c.shard.count}};
    if (c.shard.start_at) ctx.shard["start_at"] = *c.shard.start_at;
  }
  r.settings.export_level = c.output.export_level;
  r.settings.metric_options = metric_options_for(c, s.client_counts());
  r.settings.show_trace_timing = c.metrics.show_trace_timing;
  r.settings.slice_duration_s = c.output.slice_duration_s;
  r.settings.export_prefix = c.output.export_prefix;
  if (s.client_counts())
    r.recount = artifacts::TokenRecount{s.tokenizer_file, context_mode_name(s.ds())};
  if (auto m = artifacts::write_manifest(s.artifact_dir, ctx, r.settings, false, r.recount); !m) {
    return stage_error(kExitRunFailed, m.error());
  }
  return std::nullopt;
}

// Each conversation's shape for the scheduler: turns, delays, timestamps, subagents, shard.
std::vector<timing::SessionShape> session_shapes(const config::RunConfig& c,
                                                 const dataset::Dataset& ds) {
  std::vector<timing::SessionShape> shapes;
  shapes.reserve(ds.conversations.size());
  for (const auto& conv : ds.conversations) {
    timing::SessionShape shape;
    shape.turns = static_cast<int>(conv.turns.size());
    for (const auto& t : conv.turns) {
      shape.delay_ms.push_back(t.delay_ms.value_or(0.0));
      shape.timestamp_ms.push_back(c.load.fixed_schedule ? t.timestamp_ms : std::nullopt);
    }
    // Subagents: a child joined on parent turn j counts toward join group j.
    shape.root = !conv.child;
    for (const auto& link : conv.spawns) {
      shape.spawns.push_back({link.after_turn, link.child, link.offset_ms, link.join_turn});
      if (link.join_turn &&
          std::none_of(shape.joins.begin(), shape.joins.end(),
                       [&](const timing::Join& j) { return j.turn == *link.join_turn; }))
        shape.joins.push_back({*link.join_turn, *link.join_turn});
    }
    // Sharded: a session belongs to one shard by a hash of its id (children follow their parent).
    if (c.shard.sharded() && !conv.child)
      shape.elsewhere = timing::shard_of(conv.session_id, c.shard.count) != c.shard.index;
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

PhaseRunnerOptions phase_runner_options(const config::RunConfig& c,
                                        std::vector<timing::SessionShape> shapes, int workers) {
  PhaseRunnerOptions pro;
  pro.shapes = std::move(shapes);
  pro.sampling = sampling_strategy_of(*c.input.sampling_strategy);
  pro.workers = workers;
  pro.stop_grace_s = c.grace_period_s();
  pro.failed_request_threshold = c.load.failed_request_threshold;
  pro.threshold_arm_after = std::max<std::int64_t>(10, c.load.concurrency.value_or(1));
  return pro;
}

// The workers tell the phase runner of each reply, and of first tokens when prefill concurrency
// is limited.
worker::WorkerEvents phase_worker_events(const config::RunConfig& c, PhaseRunner& phases) {
  worker::WorkerEvents events;
  events.returned = [&phases](std::span<const timing::ReturnedCredit> credits) {
    phases.returned(credits);
  };
  if (c.load.prefill_concurrency || c.load.warmup.prefill_concurrency) {
    events.first_token = [&phases](std::int64_t id) { phases.first_token(id); };
  }
  return events;
}

// First SIGINT/SIGTERM (or the dashboard's q): no more sending; what is in flight has the grace
// period to finish. Second: cancel it. Third: leave at once (the records file already holds what
// finished). One function for every source, so q is exactly a first Ctrl-C.
class RunStopper {
 public:
  RunStopper(double grace_s, PhaseRunner& phases, worker::WorkerPool& pool)
      : grace_s_(grace_s), phases_(phases), pool_(pool) {}

  void request(const std::string& what) {
    const int n = ++count_;
    requested_.store(true);
    if (n == 1) {
      spdlog::warn(
          "{}: no more requests are sent; waiting {} for those in flight, then "
          "exporting (send it again to cancel them now)",
          what, std::isfinite(grace_s_) ? fmt::format("up to {} s", grace_s_) : "without limit"s);
      phases_.stop();
    } else if (n == 2) {
      spdlog::warn("{} again: cancelling the requests in flight, then exporting", what);
      pool_.cancel_all("benchmark cancelled by signal");
    } else {
      ui::emergency_restore_terminal();
      std::cerr << "inferperf: third signal, exiting without exporting (the records file holds "
                   "every finished request)\n";
      std::_Exit(130);
    }
  }
  // Set by the first stop: ends the --start-at wait and the telemetry flush early.
  const std::atomic<bool>& requested() const { return requested_; }

 private:
  const double grace_s_;
  PhaseRunner& phases_;
  worker::WorkerPool& pool_;
  std::atomic<bool> requested_{false};
  std::atomic<int> count_{0};
};

// Live view (docs/decisions.md, The live view): an explicit --ui-type wins; otherwise none when
// stdout is not a terminal, simple with -v/-vv, else the dashboard.
config::UiType live_view_type(const config::RunConfig& c) {
  const config::UiType ui_type =
      choose_ui(c.set_options.count("--ui-type") > 0, c.ui, c.verbose, isatty(STDOUT_FILENO) != 0);
  if (ui_type != c.ui && c.set_options.count("--ui-type") > 0) {
    spdlog::warn("--ui-type dashboard needs a terminal on stdout; showing simple progress lines");
  }
  return ui_type;
}

// The dashboard (its log pane then takes the console log), or the simple progress lines when it
// cannot start or was not chosen; none for --ui-type none.
std::unique_ptr<ui::Frontend> make_live_frontend(config::UiType ui_type,
                                                 const std::shared_ptr<ui::LogBuffer>& log_pane,
                                                 RunStopper& stop) {
  std::unique_ptr<ui::Frontend> frontend;
  if (ui_type == config::UiType::kDashboard) {
    try {
      ui::DashboardOptions o;
      o.on_quit = [&stop] { stop.request("q pressed"); };
      o.log = log_pane;
      o.linger_s = dashboard_linger_s();
      frontend = ui::make_dashboard(std::move(o));
      route_console_logging(ui::make_log_sink(log_pane));
    } catch (const std::exception& e) {
      spdlog::warn("{}; showing the simple progress lines instead", e.what());
    }
  }
  if (!frontend && ui_type != config::UiType::kNone) {
    std::shared_ptr<spdlog::sinks::sink> above;
    frontend = ui::make_simple_frontend(stderr, isatty(STDERR_FILENO) != 0, &above);
    if (above) route_console_logging(above);
  }
  return frontend;
}

// What the phases leave for the analysis.
struct PhasesDone {
  timing::PhasePlan profiling;
  PhaseOutcome outcome;
  // Every record, or with `streamed` only those the records file does not hold (after a failed
  // write): the analysis then reads the file back.
  std::vector<records::RequestRecord> recs;
  bool streamed = false;
};

// The collector keeps no records (memory flat in the request count) unless the analysis needs
// what the records file lacks: the raw exchanges of --export-level raw.
bool stream_analysis(const ProfileRecords& r) {
  return r.settings.export_level != config::ExportLevel::kRaw;
}

// Warmup and profiling with the live view up, until every record is collected and the terminal
// is restored.
PhasesDone run_phases(ProfileSetup& s, ProfileRecords& r, PhaseRunner& phases,
                      worker::WorkerPool& pool, RunStopper& stop, LiveObservers& observers) {
  const config::RunConfig& c = s.c;
  const config::UiType ui_type = live_view_type(c);
  ui::LiveStats live(s.clock.now_ns());
  const bool view_fed = ui_type != config::UiType::kNone;
  AdaptiveFeed* adaptive = phases.adaptive_feed();
  const bool observed = observers.active();  // --otel-url, --prometheus-port
  if (view_fed || adaptive || observed) {
    // Only the collector thread writes; without a reader nothing is fed.
    r.collector.set_observer(
        [&live, view_fed, adaptive, &observers, observed](const records::RequestRecord& rec) {
          if (view_fed) live.add(rec);
          if (observed) observers.add(rec);
          if (adaptive) adaptive->on_record(rec);
        });
  }
  auto log_pane = std::make_shared<ui::LogBuffer>();
  LiveView view(s.clock, phases, live, pool, s.tel->collector.get(), log_pane);
  ConsoleLogRoute console_route;  // declared before the UI thread: restored after it is gone
  ui::UiThread ui_thread(make_live_frontend(ui_type, log_pane, stop),
                         [&view] { return view.snapshot(); });

  const bool streamed = stream_analysis(r);
  r.collector.set_keep_records(!streamed);
  r.collector.start();
  pool.start();
  observers.start();
  s.tel->collector->start();
  ui_thread.start();
  if (c.shard.start_at) wait_for_start_at(*c.shard.start_at, stop.requested());
  // When this shard began sending: merge compares the shards' starts (their clock skew).
  if (c.shard.sharded()) r.ctx.shard["started_wall_ns"] = r.ctx.anchor.to_wall(s.clock.now_ns());
  if (c.load.warmup_enabled && !stop.requested().load()) {
    phases.run(warmup_plan(c), c.load.warmup.grace_period_s.value_or(INFINITY), pool);
  }
  const timing::PhasePlan profiling = profiling_plan(c, s.prepared->schedule_zero_ms);
  s.tel->collector->scrape_now();  // the baseline counters and histograms are measured from
  NetworkLatencyProber network(c.network_latency, s.urls, c.endpoint.unix_socket);  // idle if off
  network.start();
  const PhaseOutcome outcome = phases.run(profiling, c.grace_period_s(), pool);
  r.ctx.network_rtt_ns = network.finish(s.artifact_dir / s.names.network_latency_jsonl);
  pool.stop();
  std::vector<records::RequestRecord> recs = r.collector.finish();
  observers.finish();  // the final push holds every record
  finish_telemetry(*s.tel, stop.requested());
  // The last frame shows every record; then the terminal is restored and the report printed.
  ui_thread.finish();
  route_console_logging(nullptr);
  return {profiling, outcome, std::move(recs), streamed};
}

int finish_export(ProfileSetup& s, ProfileRecords& r, int code);

// The analysis when the collector kept no records: one pass over the records file (client counts
// made and written back, the report fed), then the manifest, the report and the exports.
int analyse_streamed(ProfileSetup& s, ProfileRecords& r, PhasesDone& done) {
  const bool records_failed = r.collector.write_failed();
  std::optional<ClientTokenCounter> counter;
  if (s.client_counts()) counter.emplace(*s.tok, s.ds());
  const bool rewrite = s.client_counts() && !records_failed;
  ReportPass pass(r.settings, wall_clock_context(r.ctx),
                  static_cast<std::size_t>(std::max<std::int64_t>(r.collector.completed(), 0)));
  std::optional<ExpectedWorkload> workload;
  if (s.prepared->is_trace) workload.emplace(s.ds(), s.prepared->type_name);
  auto passed = pass_records_file(s.artifact_dir / artifacts::kRecordsFileName, done.recs,
                                  r.ctx.anchor, counter ? &*counter : nullptr, rewrite, pass,
                                  workload ? &*workload : nullptr);
  done.recs = {};
  if (!passed) spdlog::error("{}", passed.error().describe());
  if (workload) {
    r.ctx.workload = workload->result();  // the manifest keeps it for `analyze`
    pass.set_workload(*r.ctx.workload);
  }
  // Without the rewrite the records keep the tokenizer named, so `analyze` can count them.
  const bool saved = passed && (*passed || !rewrite) && !records_failed;
  if (auto m = artifacts::write_manifest(s.artifact_dir, r.ctx, r.settings, saved,
                                         saved ? std::nullopt : r.recount);
      !m) {
    spdlog::error("{}", m.error().describe());
  }
  const int code = pass.finish();
  return finish_export(s, r, !passed && code == 0 ? kExitRunFailed : code);
}

// Analyse and export: the run's outcome into the report context, the records file and manifest
// completed, the reports, and the exit code.
int analyse_and_export(ProfileSetup& s, ProfileRecords& r, PhasesDone& done,
                       const PhaseRunner& phases, bool stop_requested) {
  const config::RunConfig& c = s.c;
  const dataset::Dataset& ds = s.ds();
  report::ReportContext& ctx = r.ctx;
  // Exact counts after the run, so no worker ever waited on a tokenizer.
  if (s.client_counts() && !done.streamed) count_tokens(*s.tok, ds, done.recs);
  const bool records_failed = r.collector.write_failed();
  ctx.was_cancelled = stop_requested || phases.failure_threshold_exceeded() || records_failed;
  // A signal (or q) wins: the user stopped the run (130) whatever its failures.
  ctx.failure_threshold_exceeded = phases.failure_threshold_exceeded() && !stop_requested;
  ctx.phase_start_ns = done.outcome.start_ns;
  if (done.profiling.rate > 0 && done.profiling.num_users == 0)
    ctx.dropped_arrivals = done.outcome.dropped;
  ctx.phase_end_ns = done.outcome.end_ns;
  ctx.client_load = done.outcome.load;
  ctx.server_behaviour = server_behaviour_json(s.plan.targets);
  ctx.fail_on_incomplete_workload = c.load.fail_on_incomplete_workload;
  ctx.workload_plan = workload_plan(c, done.profiling, ds,
                                    !c.input.input_file.empty() || !c.input.public_dataset.empty());
  summarise_gpu_telemetry(*s.tel, c, ctx);
  if (s.prepared->is_trace && !done.streamed)
    ctx.workload = expected_workload(ds, done.recs, s.prepared->type_name);
  // The records file gains the client token counts, the manifest the phase window: together
  // they let `inferperf analyze` rebuild every report.
  // After a failed write the records file keeps what reached the disk; it is not rewritten (the
  // manifest then says so, and `analyze` counts the tokens itself).
  if (done.streamed) return analyse_streamed(s, r, done);
  bool saved = !records_failed;
  if (s.client_counts() && !records_failed) {
    if (auto w = artifacts::save_records(s.artifact_dir / artifacts::kRecordsFileName, done.recs,
                                         ctx.anchor);
        !w) {
      spdlog::error("{}", w.error().describe());
      saved = false;
    }
  }
  // Records without their client counts keep the tokenizer named, so `analyze` can count them.
  if (auto m = artifacts::write_manifest(s.artifact_dir, ctx, r.settings, saved,
                                         saved ? std::nullopt : r.recount);
      !m) {
    spdlog::error("{}", m.error().describe());
  }
  return finish_export(s, r, report_results(done.recs, r.settings, ctx));
}

// The telemetry exports, and the records file's failure said again; the exit code.
int finish_export(ProfileSetup& s, ProfileRecords& r, int code) {
  if (!write_telemetry_exports(*s.tel, s.c, r.ctx,
                               artifacts::export_names(r.settings.export_prefix)) &&
      code == 0)
    code = kExitRunFailed;
  if (r.collector.write_failed()) {
    // Said again under the report, which has scrolled the first message away.
    spdlog::error(
        "the run was stopped early: {}; the records file holds the {} record(s) written before "
        "that ('inferperf analyze {}' rebuilds the reports from them once there is room)",
        r.collector.write_error(), r.collector.records_written(), s.artifact_dir.string());
    code = kExitRunFailed;
  }
  return code;
}

// From the records file opened to the exit code. The phase runner, the workers and the signal
// watcher stay up until the export is done.
int run_and_export(ProfileSetup& s) {
  const config::RunConfig& c = s.c;
  // Before the records: the collector's observer feeds it until the collector is gone.
  const std::unique_ptr<AdaptiveFeed> adaptive = make_adaptive_feed(c, s.artifact_dir);
  ProfileRecords r(core::WallAnchor::capture());
  if (const StageExit stop = open_records(s, r)) return print_stage_stop(*stop);
  const int workers = worker_count(c);
  std::vector<timing::SessionShape> shapes = session_shapes(c, s.ds());
  if (c.shard.sharded() && timing::root_indices(shapes).empty()) {
    std::cerr << fmt::format(
        "error: shard {} of {} has none of the dataset's {} conversations (sessions are shared "
        "out by a hash of their id); use more --num-dataset-entries or fewer shards\n",
        c.shard.index, c.shard.count, s.ds().conversations.size());
    return kExitBadConfig;
  }
  PhaseRunnerOptions pro = phase_runner_options(c, std::move(shapes), workers);
  pro.adaptive = adaptive.get();
  PhaseRunner phases(s.clock, s.rngs, r.collector, std::move(pro));
  worker::WorkerPool pool(workers, s.plan, s.clock, r.queue, phase_worker_events(c, phases));
  RunStopper stop(c.grace_period_s(), phases, pool);
  SignalWatcher signals(
      [&stop](int sig) { stop.request(fmt::format("received {}", strsignal(sig))); });
  // A failed write to the records file (a full disk) is said at once and stops the run as a first
  // signal would (in-flight requests get the grace period); the exit code is then 1.
  r.collector.set_on_write_failure([&phases](const std::string& error, std::int64_t kept) {
    spdlog::error("{}; stopping the run (the {} record(s) written before it are kept)", error,
                  kept);
    phases.stop();
  });
  // Before any traffic: a --prometheus-port that cannot be bound is a configuration error.
  auto observers = LiveObservers::open(c, phases, s.ds());
  if (!observers) {
    std::cerr << "error: " << observers.error().message << "\n";
    return kExitBadConfig;
  }
  PhasesDone done = run_phases(s, r, phases, pool, stop, **observers);
  const bool inputs_written = finish_run_inputs(s);  // inputs.json, when written beside the run
  int code = analyse_and_export(s, r, done, phases, stop.requested().load());
  if (code == 0 && !inputs_written) code = kExitRunFailed;
  // After every export is written; a tracking server that fails costs a warning, not the code.
  export_run_to_mlflow(c, s.artifact_dir,
                       artifacts::export_names(r.settings.export_prefix).summary_json, code,
                       (*observers)->mlflow_run());
  return code;
}

}  // namespace

int run_profile(config::RunConfig c, fs::path* artifact_dir_out) {
  init_console_logging(config::to_string(c.log_level));
  for (const auto& w : c.warnings) spdlog::warn("{}", w);
  ProfileSetup s(c);
  if (const StageExit stop = set_up_profile(s, artifact_dir_out)) return print_stage_stop(*stop);
  return run_and_export(s);
}

}  // namespace inferperf::app
