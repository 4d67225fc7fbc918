#include "app/runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
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

#include "app/analyze.hpp"
#include "app/artifact_folder.hpp"
#include "app/dataset_setup.hpp"
#include "app/exit_codes.hpp"
#include "app/export_names.hpp"
#include "app/http_policy.hpp"
#include "app/input_config.hpp"
#include "app/inputs_json.hpp"
#include "app/live_view.hpp"
#include "app/logging.hpp"
#include "app/model_discovery.hpp"
#include "app/phase_plans.hpp"
#include "app/phase_runner.hpp"
#include "app/preflight.hpp"
#include "app/results.hpp"
#include "app/run_manifest.hpp"
#include "app/telemetry_setup.hpp"
#include "app/tokenizer_setup.hpp"
#include "core/clock.hpp"
#include "core/cpu_time.hpp"
#include "core/rlimit.hpp"
#include "core/rng.hpp"
#include "core/secrets.hpp"
#include "core/uuid.hpp"
#include "endpoint/endpoint.hpp"
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

// One target per --url: the request path, and what the run learns about that server.
std::vector<worker::Target> make_targets(const std::vector<transport::BaseUrl>& urls,
                                         const config::RunConfig& c,
                                         const endpoint::Endpoint& endpoint) {
  std::vector<worker::Target> out;
  for (const auto& u : urls) {
    worker::Target t{u, endpoint::join_path(u.base_path, c.endpoint.custom_endpoint,
                                            endpoint.path(c.endpoint.streaming))};
    if (!u.query.empty()) t.path += "?" + u.query;
    t.behaviour = std::make_shared<transport::ServerBehaviour>();
    t.behaviour->on_learned = [url = core::redact_urls(u.to_string())](const std::string& what) {
      // How the server behaves, handled: information, not a warning.
      spdlog::info("{}: {}", url, what);
    };
    out.push_back(std::move(t));
  }
  return out;
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
                      (c.input.sampling_strategy == "sequential" && !c.load.warmup_enabled);
  }
  return p;
}

// Errors may quote a URL the user gave: its credentials are never repeated.
void print_error(const core::Error& e) {
  std::cerr << "error: " << core::redact_urls(e.describe()) << "\n";
}

}  // namespace

int run_profile(config::RunConfig c, fs::path* artifact_dir_out) {
  init_console_logging(c.log_level);
  for (const auto& w : c.warnings) spdlog::warn("{}", w);
  const core::FdLimit fds = core::raise_fd_limit();

  // ---- output names and folder: checked before anything is sent --------------------------------
  std::string prefix_warning;
  if (const std::string e = check_export_prefix(c.output.export_prefix, prefix_warning);
      !e.empty()) {
    std::cerr << "error: " << e << "\n";
    return kExitBadConfig;
  }
  if (!prefix_warning.empty()) spdlog::warn("{}", prefix_warning);
  const ExportNames names = export_names(c.output.export_prefix);
  // Without --artifact-dir the leaf needs the model name, which may come from the server: its
  // parent is checked now, the whole path once the model is known.
  if (const std::string e = check_artifact_folder(c.output.artifact_dir, names); !e.empty()) {
    std::cerr << "error: " << e << "\n";
    return kExitBadConfig;
  }

  std::vector<transport::BaseUrl> urls;
  for (const auto& u : c.endpoint.urls) {
    auto parsed = transport::parse_base_url(u);
    if (!parsed) {
      print_error(parsed.error());
      return kExitBadConfig;
    }
    urls.push_back(std::move(*parsed));
  }
  // One client TLS context for every worker (and the model discovery), when any URL is https://.
  const transport::HttpPolicy http_policy = make_http_policy(c);  // every client's TLS and keys
  const transport::TransportOptions transport_options{c.endpoint.ssl_ca_file, http_policy.insecure,
                                                      c.endpoint.unix_socket,
                                                      c.endpoint.local_addresses};
  std::shared_ptr<boost::asio::ssl::context> tls_context;
  if (std::any_of(urls.begin(), urls.end(), [](const auto& u) { return u.scheme == "https"; })) {
    if (http_policy.insecure)
      spdlog::warn("--insecure: TLS certificates and host names are not verified");
    auto made = transport::make_client_tls_context(transport_options);
    if (!made) {
      print_error(made.error());
      return kExitBadConfig;
    }
    tls_context = std::move(*made);
  }
  auto created = endpoint::create_endpoint(c.endpoint.type, c.input.extra);
  if (!created) {
    print_error(created.error());
    return kExitBadConfig;
  }
  const std::unique_ptr<endpoint::Endpoint> endpoint = std::move(*created);
  const endpoint::EndpointInfo& info = endpoint->info();
  if (info.path[0] == '\0' && c.endpoint.custom_endpoint.empty()) {
    std::cerr << "error: --endpoint-type " << info.name
              << " has no default path; give the path with --endpoint\n";
    return kExitBadConfig;
  }
  if (c.endpoint.streaming && !info.streams) {
    spdlog::warn("--endpoint-type {} does not stream; --streaming is ignored", info.name);
    c.endpoint.streaming = false;
  }
  if (c.endpoint.model_names.empty()) {
    auto model = discover_model(urls.front(), static_cast<int>(http_policy.setup_timeout.count()),
                                tls_context, c.endpoint.unix_socket, http_policy.credentials);
    if (!model) {
      print_error(model.error());
      return kExitBadConfig;
    }
    spdlog::info("no --model given; using '{}' from {}/v1/models", *model,
                 urls.front().to_string());
    c.endpoint.model_names.push_back(*model);
  }
  const std::int64_t needed_fds = static_cast<std::int64_t>(c.load.concurrency.value_or(0)) + 64;
  if (c.load.concurrency && fds.soft > 0 && needed_fds > static_cast<std::int64_t>(fds.soft)) {
    std::cerr << fmt::format(
        "error: concurrency {} needs about {} file descriptors but the limit is {} (hard limit "
        "{}); "
        "raise it with 'ulimit -n'\n",
        *c.load.concurrency, needed_fds, fds.soft, fds.hard);
    return kExitBadConfig;
  }

  // Telemetry set-up can fail on bad input (a custom metrics CSV): before any artifact is written.
  core::SteadyClock clock;
  auto tel = setup_telemetry(c, urls, clock);
  if (!tel) {
    print_error(tel.error());
    return kExitBadConfig;
  }

  // ---- tokenizer: resolved and loaded before anything is sent ----------------------------------
  std::unique_ptr<tokenizer::Tokenizer> tok;
  std::string tokenizer_file;
  std::string token_source = "server usage";
  // With server token counts a tokenizer is still loaded when one is named: trace prompts are
  // then synthesized exactly for the served model's vocabulary.
  // Endpoints that neither produce tokens nor send text (image retrieval) need no tokenizer.
  const bool needs_tokenizer = info.produces_tokens || info.tokenizes_input;
  if (needs_tokenizer && (!c.endpoint.use_server_token_count || !c.tokenizer.name.empty())) {
    auto loaded = load_run_tokenizer(c);
    if (!loaded) {
      print_error(loaded.error());
      return kExitBadConfig;
    }
    if (!loaded->notice.empty()) spdlog::info("{}", loaded->notice);
    tok = std::move(loaded->tokenizer);
    tokenizer_file = loaded->file;
    if (!c.endpoint.use_server_token_count) token_source = "tokenizer " + loaded->description;
    spdlog::info("tokenizer: {} ({} tokens)", loaded->description, tok->vocab_size());
  }

  // ---- plan: dataset (bad input exits 2 before any artifact exists), folder, bodies -------
  core::RngFactory rngs(c.input.random_seed);
  auto id_rng = rngs.stream("run.benchmark_id");
  const std::string benchmark_id = c.input.random_seed ? core::uuid4(id_rng) : core::uuid4();
  // Client-side token counts (the metrics' default); a tokenizer loaded only for prompt synthesis
  // under --use-server-token-count does not count.
  const bool client_counts = tok && !c.endpoint.use_server_token_count;
  auto prepared = prepare_dataset(c, rngs, tok.get());
  if (!prepared) {
    print_error(prepared.error());
    return kExitBadConfig;
  }
  const dataset::Dataset& ds = prepared->dataset;
  if (prepared->promoted_fixed_schedule) {
    // The defaults validation added for a closed-loop run do not apply to a replay.
    c.load.fixed_schedule = true;
    if (!c.set_options.count("--concurrency")) c.load.concurrency.reset();
    if (!c.set_options.count("--request-count")) c.load.request_count.reset();
  }
  if (const std::string e = shard_problem(c); !e.empty()) {
    std::cerr << "error: " << e << "\n";
    return kExitBadConfig;
  }

  endpoint::BodyOptions bo;
  bo.model = c.endpoint.model_names.front();
  bo.streaming = c.endpoint.streaming;
  // As AIPerf 0.11: every streaming run asks for usage, so the server's counts are recorded beside
  // the client's (--no-stream-usage for servers that reject stream_options).
  bo.include_usage = !c.endpoint.no_stream_usage;
  bo.use_legacy_max_tokens = c.endpoint.use_legacy_max_tokens;
  bo.extra = &c.input.extra;

  worker::RequestPlan plan;
  plan.targets = make_targets(urls, c, *endpoint);
  plan.headers = c.input.headers;
  for (auto& h : endpoint::protocol_headers(c.endpoint.type, c.endpoint.api_key, c.input.headers))
    plan.headers.push_back(std::move(h));
  plan.streaming = c.endpoint.streaming;
  plan.request_timeout_s = c.endpoint.request_timeout_s;
  plan.endpoint = endpoint.get();
  plan.dataset = &ds;
  bo.system_message = ds.system_message;
  plan.body_options = bo;
  plan.connection_reuse = c.endpoint.connection_reuse;
  plan.capture_raw = c.output.export_level == config::ExportLevel::kRaw;
  plan.max_response_bytes = c.limits.max_response_bytes;
  plan.max_sse_event_bytes = c.limits.max_sse_event_bytes;
  plan.transport = transport_options;
  plan.tls_context = tls_context;
  if (const char* poll = std::getenv("AIPERF_HTTP_VIDEO_POLL_INTERVAL")) {
    const double s = std::atof(poll);
    if (s > 0) plan.video_poll_interval_s = s;
  }
  fs::path artifact_dir = c.output.artifact_dir;
  if (!c.output.artifact_dir_explicit) {
    artifact_dir /= artifact_leaf(c);
    if (const std::string e = check_artifact_folder(artifact_dir, names); !e.empty()) {
      std::cerr << "error: " << e << "\n";
      return kExitBadConfig;
    }
  }

  // Shards of one benchmark share the folder: each writes its own shard-<i> inside it.
  if (c.shard.sharded()) artifact_dir /= fmt::format("shard-{}", c.shard.index);

  if (c.endpoint.preflight && !ds.conversations.empty()) {
    const PreflightResult pf = run_preflight(plan, c.endpoint.wait_for_model_timeout_s);
    if (!pf.ok) {
      std::cerr << "error: preflight failed: " << core::redact_urls(pf.message)
                << "\n(the run was not started; --no-preflight skips this check)\n";
      return kExitRunFailed;
    }
    if (!pf.message.empty()) spdlog::warn("{}", pf.message);
  }

  // ---- artifact folder: only once the inputs are known to be good ------------------------
  std::error_code ec;
  fs::create_directories(artifact_dir / "logs", ec);
  if (ec) {
    std::cerr << "error: cannot create artifact folder " << artifact_dir << ": " << ec.message()
              << "\n";
    return kExitBadConfig;
  }
  artifact_dir = fs::absolute(artifact_dir);
  if (artifact_dir_out) *artifact_dir_out = artifact_dir;
  add_log_file(artifact_dir / "logs" / "inferperf.log");
  std::vector<std::string> url_names;
  for (const auto& u : urls) url_names.push_back(u.to_string());
  spdlog::info("{} -> {}", c.cli_command, fmt::join(url_names, ", "));

  auto inputs = write_inputs_json(artifact_dir / "inputs.json", ds, plan);
  if (!inputs) {
    print_error(inputs.error());
    return kExitRunFailed;
  }
  spdlog::info("inputs.json: {} payloads of {} conversations ({:.1f} MB)", inputs->payloads,
               inputs->conversations, static_cast<double>(inputs->bytes) / 1e6);

  // ---- run ------------------------------------------------------------------------------------
  const core::WallAnchor anchor = core::WallAnchor::capture();
  records::RecordQueue queue;
  records::Collector collector(queue, anchor);
  if (auto o = collector.open(artifact_dir / records::kRecordsFileName); !o) {
    print_error(o.error());
    return kExitRunFailed;
  }
  report::ReportContext ctx;
  ctx.benchmark_id = benchmark_id;
  ctx.cli_command = c.cli_command;
  ctx.token_source = token_source;
  ctx.title = info.title;
  ctx.input_config = build_input_config(c, artifact_dir.string(), benchmark_id);
  ctx.secret_body_keys = secret_extra_keys(c.input.extra);
  ctx.anchor = anchor;
  ctx.artifact_dir = artifact_dir;
  ctx.export_http_trace = c.metrics.export_http_trace;
  if (c.shard.sharded()) {
    ctx.shard = {{"index", c.shard.index}, {"count", c.shard.count}};
    if (c.shard.start_at) ctx.shard["start_at"] = *c.shard.start_at;
  }
  ExportSettings settings;
  settings.export_level = c.output.export_level;
  settings.metric_options = metric_options_for(c, client_counts);
  settings.show_trace_timing = c.metrics.show_trace_timing;
  settings.slice_duration_s = c.output.slice_duration_s;
  settings.export_prefix = c.output.export_prefix;
  // Written now so a run that never finishes can still be analysed from its records, its client
  // token counts made by `analyze` from inputs.json and this tokenizer.
  std::optional<TokenRecount> recount;
  if (client_counts) recount = TokenRecount{tokenizer_file, context_mode_name(ds)};
  if (auto m = write_manifest(artifact_dir, ctx, settings, false, recount); !m) {
    print_error(m.error());
    return kExitRunFailed;
  }

  const int workers = worker_count(c);
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
  if (c.shard.sharded() && timing::root_indices(shapes).empty()) {
    std::cerr << fmt::format(
        "error: shard {} of {} has none of the dataset's {} conversations (sessions are shared "
        "out by a hash of their id); use more --num-dataset-entries or fewer shards\n",
        c.shard.index, c.shard.count, ds.conversations.size());
    return kExitBadConfig;
  }
  PhaseRunnerOptions pro;
  pro.shapes = std::move(shapes);
  pro.sampling = sampling_strategy_of(c.input.sampling_strategy);
  pro.workers = workers;
  pro.stop_grace_s = c.grace_period_s();
  pro.failed_request_threshold = c.load.failed_request_threshold;
  pro.threshold_arm_after = std::max<std::int64_t>(10, c.load.concurrency.value_or(1));
  PhaseRunner phases(clock, rngs, collector, std::move(pro));
  worker::WorkerEvents events;
  events.returned = [&phases](std::int64_t id, std::int64_t session) {
    phases.returned(id, session);
  };
  if (c.load.prefill_concurrency || c.load.warmup.prefill_concurrency) {
    events.first_token = [&phases](std::int64_t id) { phases.first_token(id); };
  }
  worker::WorkerPool pool(workers, plan, clock, queue, events);

  // First SIGINT/SIGTERM (or the dashboard's q): no more sending; what is in flight has the
  // grace period to finish. Second: cancel it. Third: leave at once (the records file already
  // holds what finished). One function for every source, so q is exactly a first Ctrl-C.
  std::atomic<bool> cancelled{false};
  std::atomic<bool> stop_requested{false};
  std::atomic<int> stop_count{0};
  const double stop_grace_s = c.grace_period_s();
  auto request_stop = [&](const std::string& what) {
    const int n = ++stop_count;
    cancelled.store(true);
    stop_requested.store(true);
    if (n == 1) {
      spdlog::warn(
          "{}: no more requests are sent; waiting {} for those in flight, then "
          "exporting (send it again to cancel them now)",
          what,
          std::isfinite(stop_grace_s) ? fmt::format("up to {} s", stop_grace_s) : "without limit"s);
      phases.stop();
    } else if (n == 2) {
      spdlog::warn("{} again: cancelling the requests in flight, then exporting", what);
      pool.cancel_all("benchmark cancelled by signal");
    } else {
      ui::emergency_restore_terminal();
      std::cerr << "inferperf: third signal, exiting without exporting (the records file holds "
                   "every finished request)\n";
      std::_Exit(130);
    }
  };
  SignalWatcher signals([&](int sig) { request_stop(fmt::format("received {}", strsignal(sig))); });
  // A failed write to the records file (a full disk) is said at once and stops the run as a first
  // signal would (in-flight requests get the grace period); the exit code is then 1.
  collector.set_on_write_failure([&phases](const std::string& error, std::int64_t kept) {
    spdlog::error("{}; stopping the run (the {} record(s) written before it are kept)", error,
                  kept);
    phases.stop();
  });

  // ---- live view (spec 6.10): an explicit --ui-type wins; otherwise none when stdout is not
  // a terminal, simple with -v/-vv, else the dashboard.
  const config::UiType ui_type =
      choose_ui(c.set_options.count("--ui-type") > 0, c.ui, c.verbose, isatty(STDOUT_FILENO) != 0);
  if (ui_type != c.ui && c.set_options.count("--ui-type") > 0) {
    spdlog::warn("--ui-type dashboard needs a terminal on stdout; showing simple progress lines");
  }
  ui::LiveStats live(clock.now_ns());
  if (ui_type != config::UiType::kNone) {
    // Only the collector thread writes; without a view nobody reads, so nothing is fed.
    collector.set_observer([&live](const records::RequestRecord& r) { live.add(r); });
  }
  auto log_pane = std::make_shared<ui::LogBuffer>();
  LiveView view(clock, phases, live, pool, tel->collector.get(), log_pane);
  std::unique_ptr<ui::Frontend> frontend;
  ConsoleLogRoute console_route;  // declared before the UI thread: restored after it is gone
  if (ui_type == config::UiType::kDashboard) {
    try {
      ui::DashboardOptions o;
      o.on_quit = [&] { request_stop("q pressed"); };
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
  ui::UiThread ui_thread(std::move(frontend), [&view] { return view.snapshot(); });

  collector.start();
  pool.start();
  tel->collector->start();
  ui_thread.start();
  if (c.shard.start_at) wait_for_start_at(*c.shard.start_at, cancelled);
  // When this shard began sending: merge compares the shards' starts (their clock skew).
  if (c.shard.sharded()) ctx.shard["started_wall_ns"] = anchor.to_wall(clock.now_ns());
  if (c.load.warmup_enabled && !cancelled.load()) {
    phases.run(warmup_plan(c), c.load.warmup.grace_period_s.value_or(INFINITY), pool);
  }
  const timing::PhasePlan profiling = profiling_plan(c, prepared->schedule_zero_ms);
  tel->collector->scrape_now();  // the baseline counters and histograms are measured from
  const PhaseOutcome outcome = phases.run(profiling, c.grace_period_s(), pool);
  pool.stop();
  std::vector<records::RequestRecord> recs = collector.finish();
  finish_telemetry(*tel, cancelled);
  // The last frame shows every record; then the terminal is restored and the report printed.
  ui_thread.finish();
  route_console_logging(nullptr);

  // ---- analyse and export -----------------------------------------------------------------------
  // Exact counts after the run, so no worker ever waited on a tokenizer.
  if (client_counts) count_tokens(*tok, ds, recs);
  const bool records_failed = collector.write_failed();
  ctx.was_cancelled =
      stop_requested.load() || phases.failure_threshold_exceeded() || records_failed;
  // A signal (or q) wins: the user stopped the run (130) whatever its failures.
  ctx.failure_threshold_exceeded = phases.failure_threshold_exceeded() && !stop_requested.load();
  ctx.phase_start_ns = outcome.start_ns;
  if (profiling.rate > 0 && profiling.num_users == 0) ctx.dropped_arrivals = outcome.dropped;
  ctx.phase_end_ns = outcome.end_ns;
  ctx.client_load = outcome.load;
  ctx.server_behaviour = server_behaviour_json(plan.targets);
  ctx.fail_on_incomplete_workload = c.load.fail_on_incomplete_workload;
  ctx.workload_plan = workload_plan(c, profiling, ds,
                                    !c.input.input_file.empty() || !c.input.public_dataset.empty());
  summarise_gpu_telemetry(*tel, c, ctx);
  if (prepared->is_trace) ctx.workload = expected_workload(ds, recs, prepared->type_name);
  // The records file gains the client token counts, the manifest the phase window: together
  // they let `inferperf analyze` rebuild every report.
  // After a failed write the records file keeps what reached the disk; it is not rewritten (the
  // manifest then says so, and `analyze` counts the tokens itself).
  bool saved = !records_failed;
  if (client_counts && !records_failed) {
    if (auto w = save_records(artifact_dir / records::kRecordsFileName, recs, anchor); !w) {
      spdlog::error("{}", w.error().describe());
      saved = false;
    }
  }
  // Records without their client counts keep the tokenizer named, so `analyze` can count them.
  if (auto m = write_manifest(artifact_dir, ctx, settings, saved, saved ? std::nullopt : recount);
      !m) {
    spdlog::error("{}", m.error().describe());
  }
  int code = report_results(recs, settings, ctx);
  if (!write_telemetry_exports(*tel, c, ctx, export_names(settings.export_prefix)) && code == 0)
    code = kExitRunFailed;
  if (records_failed) {
    // Said again under the report, which has scrolled the first message away.
    spdlog::error(
        "the run was stopped early: {}; the records file holds the {} record(s) written before "
        "that ('inferperf analyze {}' rebuilds the reports from them once there is room)",
        collector.write_error(), collector.records_written(), artifact_dir.string());
    code = kExitRunFailed;
  }
  return code;
}

}  // namespace inferperf::app
