#include "app/runner.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "app/input_config.hpp"
#include "app/logging.hpp"
#include "app/model_discovery.hpp"
#include "app/tokenizer_setup.hpp"
#include "core/clock.hpp"
#include "core/rlimit.hpp"
#include "core/rng.hpp"
#include "core/uuid.hpp"
#include "dataset/custom_loader.hpp"
#include "dataset/synthetic.hpp"
#include "endpoint/endpoint.hpp"
#include "metrics/compute.hpp"
#include "records/collector.hpp"
#include "records/record_jsonl.hpp"
#include "report/console_table.hpp"
#include "report/exporters.hpp"
#include "timing/issuer_loop.hpp"
#include "timing/scheduler.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;
using namespace std::string_literals;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRunFailed = 1;
constexpr int kExitBadConfig = 2;
constexpr int kExitSignal = 130;

// Python's float repr for the artifact folder name: 10 -> "10.0", 2.5 -> "2.5".
std::string python_float(double v) {
  return v == std::floor(v) && std::fabs(v) < 1e15 ? fmt::format("{:.1f}", v)
                                                   : fmt::format("{}", v);
}

std::string artifact_leaf(const config::RunConfig& c) {
  std::string model = c.endpoint.model_names.front();
  if (c.endpoint.model_names.size() > 1) model += "_multi";
  for (auto& ch : model) {
    if (ch == '/') ch = '_';
  }
  std::vector<std::string> stimulus;
  if (c.load.fixed_schedule) stimulus.push_back("fixed_schedule");
  if (c.load.concurrency && !c.load.fixed_schedule)
    stimulus.push_back(fmt::format("concurrency{}", *c.load.concurrency));
  if (c.load.request_rate) stimulus.push_back("request_rate" + python_float(*c.load.request_rate));
  return fmt::format("{}-openai-{}-{}", model, config::to_string(c.endpoint.type),
                     fmt::join(stimulus, "-"));
}

double env_double(const char* name, double fallback) {
  if (const char* v = std::getenv(name)) {
    try {
      return std::stod(v);
    } catch (const std::exception&) {
      spdlog::warn("ignoring {}={}: not a number", name, v);
    }
  }
  return fallback;
}

int worker_count(const config::RunConfig& c) {
  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  int n = hw;
  if (c.load.concurrency) n = std::min(n, *c.load.concurrency);
  if (c.load.workers_max) {
    int cap = *c.load.workers_max;
    if (cap > hw) {
      spdlog::warn("--workers-max {} exceeds the {} hardware threads; using {}", cap, hw, hw);
      cap = hw;
    }
    n = std::min(n, cap);
  }
  return std::max(1, n);
}

timing::ArrivalPattern pattern_of(const std::string& name) {
  if (name == "constant") return timing::ArrivalPattern::kConstant;
  if (name == "poisson") return timing::ArrivalPattern::kPoisson;
  if (name == "gamma") return timing::ArrivalPattern::kGamma;
  return timing::ArrivalPattern::kConcurrencyBurst;
}

timing::SamplingStrategy strategy_of(const std::string& name) {
  if (name == "sequential") return timing::SamplingStrategy::kSequential;
  if (name == "random") return timing::SamplingStrategy::kRandom;
  return timing::SamplingStrategy::kShuffle;
}

timing::PhasePlan profiling_plan(const config::RunConfig& c) {
  const auto& l = c.load;
  timing::PhasePlan p;
  p.phase = records::Phase::kProfiling;
  p.pattern = pattern_of(l.arrival_pattern);
  p.rate = l.request_rate.value_or(0.0);
  p.smoothness = l.smoothness.value_or(1.0);
  p.concurrency = l.concurrency;
  p.prefill_concurrency = l.prefill_concurrency;
  p.concurrency_ramp_s = l.concurrency_ramp_s.value_or(0.0);
  p.prefill_ramp_s = l.prefill_ramp_s.value_or(0.0);
  p.rate_ramp_s = l.rate_ramp_s.value_or(0.0);
  p.request_count = l.request_count;
  p.num_sessions = l.num_sessions;
  p.duration_s = l.benchmark_duration_s;
  p.cancel_rate_pct = l.cancellation_rate_pct.value_or(0.0);
  p.cancel_delay_s = l.cancellation_delay_s.value_or(0.0);
  return p;
}

// Warmup: its own stop conditions and load, no cancellation (as AIPerf).
timing::PhasePlan warmup_plan(const config::RunConfig& c) {
  const auto& w = c.load.warmup;
  timing::PhasePlan p;
  p.phase = records::Phase::kWarmup;
  p.pattern = pattern_of(w.arrival_pattern);
  p.rate = w.request_rate.value_or(0.0);
  p.smoothness = w.smoothness.value_or(1.0);
  p.concurrency = w.concurrency;
  p.prefill_concurrency = w.prefill_concurrency;
  p.request_count = w.request_count;
  p.num_sessions = w.num_sessions;
  p.duration_s = w.duration_s;
  return p;
}

std::string describe(const timing::PhasePlan& p) {
  std::vector<std::string> parts;
  if (p.fixed_schedule) parts.push_back("fixed schedule");
  if (p.rate > 0) {
    parts.push_back(fmt::format("{} req/s {}", p.rate,
                                p.pattern == timing::ArrivalPattern::kConstant ? "constant"
                                : p.pattern == timing::ArrivalPattern::kGamma  ? "gamma"
                                                                               : "poisson"));
  }
  if (p.concurrency) parts.push_back(fmt::format("concurrency {}", *p.concurrency));
  if (p.prefill_concurrency)
    parts.push_back(fmt::format("prefill concurrency {}", *p.prefill_concurrency));
  if (p.request_count) parts.push_back(fmt::format("{} requests", *p.request_count));
  if (p.num_sessions) parts.push_back(fmt::format("{} sessions", *p.num_sessions));
  if (p.duration_s) parts.push_back(fmt::format("{} s", *p.duration_s));
  return fmt::format("{}", fmt::join(parts, ", "));
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

}  // namespace

int run_profile(config::RunConfig c) {
  init_console_logging(c.log_level);
  for (const auto& w : c.warnings) spdlog::warn("{}", w);
  const core::FdLimit fds = core::raise_fd_limit();

  auto url = transport::parse_base_url(c.endpoint.urls.front());
  if (!url) {
    std::cerr << "error: " << url.error().describe() << "\n";
    return kExitBadConfig;
  }
  if (c.endpoint.model_names.empty()) {
    auto model = discover_model(*url, 10);
    if (!model) {
      std::cerr << "error: " << model.error().describe() << "\n";
      return kExitBadConfig;
    }
    spdlog::info("no --model given; using '{}' from {}/v1/models", *model, url->to_string());
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

  // ---- tokenizer: resolved and loaded before anything is sent ----------------------------------
  std::unique_ptr<tokenizer::Tokenizer> tok;
  std::string token_source = "server usage";
  if (!c.endpoint.use_server_token_count) {
    auto loaded = load_run_tokenizer(c);
    if (!loaded) {
      std::cerr << "error: " << loaded.error().describe() << "\n";
      return kExitBadConfig;
    }
    if (!loaded->notice.empty()) spdlog::info("{}", loaded->notice);
    tok = std::move(loaded->tokenizer);
    token_source = "tokenizer " + loaded->description;
    spdlog::info("tokenizer: {} ({} tokens)", loaded->description, tok->vocab_size());
  }

  // ---- plan: artifact folder, dataset, request bodies --------------------------------------
  fs::path artifact_dir = c.output.artifact_dir;
  if (!c.output.artifact_dir_explicit) artifact_dir /= artifact_leaf(c);
  std::error_code ec;
  fs::create_directories(artifact_dir / "logs", ec);
  if (ec) {
    std::cerr << "error: cannot create artifact folder " << artifact_dir << ": " << ec.message()
              << "\n";
    return kExitBadConfig;
  }
  artifact_dir = fs::absolute(artifact_dir);
  add_log_file(artifact_dir / "logs" / "inferperf.log");
  spdlog::info("{} -> {}", c.cli_command, url->to_string());

  core::RngFactory rngs(c.input.random_seed);
  auto id_rng = rngs.stream("run.benchmark_id");
  const std::string benchmark_id = c.input.random_seed ? core::uuid4(id_rng) : core::uuid4();
  dataset::SyntheticOptions syn;
  syn.num_conversations = c.input.num_dataset_entries;
  syn.isl_mean = c.input.isl_mean;
  syn.isl_stddev = c.input.isl_stddev;
  syn.osl_mean = c.input.osl_mean;
  syn.osl_stddev = c.input.osl_stddev;
  syn.prompt_batch_size = c.input.prompt_batch_size;
  syn.prefix_pool_size = c.input.prefix_pool_size;
  syn.prefix_length = c.input.prefix_length;
  syn.shared_system_length = c.input.shared_system_prompt_length.value_or(0);
  syn.user_context_length = c.input.user_context_prompt_length.value_or(0);
  syn.turn_mean = c.input.turn_mean;
  syn.turn_stddev = c.input.turn_stddev;
  syn.turn_delay_mean = c.input.turn_delay_mean_ms;
  syn.turn_delay_stddev = c.input.turn_delay_stddev_ms;
  syn.turn_delay_ratio = c.input.turn_delay_ratio;
  if (!c.input.sequence_distribution.empty()) {
    auto dist = dataset::parse_sequence_distribution(c.input.sequence_distribution);
    if (!dist) {
      std::cerr << "error: " << dist.error().describe() << "\n";
      return kExitBadConfig;
    }
    syn.sequence_distribution = *dist;
  }
  std::optional<double> schedule_zero_ms;
  dataset::Dataset loaded_ds;
  if (!c.input.input_file.empty()) {
    dataset::CustomLoadOptions lo;
    lo.path = c.input.input_file;
    if (!c.input.custom_dataset_type.empty()) lo.type = c.input.custom_dataset_type;
    if (c.load.fixed_schedule) {
      lo.start_offset_ms = c.load.fixed_schedule_start_offset_ms;
      lo.end_offset_ms = c.load.fixed_schedule_end_offset_ms;
    }
    auto session_rng = rngs.stream("dataset.session_id");
    auto custom = dataset::load_custom_dataset(lo, session_rng);
    if (!custom) {
      std::cerr << "error: " << custom.error().describe() << "\n";
      return kExitBadConfig;
    }
    if (c.load.fixed_schedule) {
      for (const auto& conv : custom->dataset.conversations) {
        if (!conv.turns.front().timestamp_ms) {
          std::cerr << "error: " << c.input.input_file << ": first turn of session "
                    << conv.session_id << " has no 'timestamp' (--fixed-schedule needs one)\n";
          return kExitBadConfig;
        }
      }
      schedule_zero_ms = c.load.fixed_schedule_auto_offset
                             ? custom->first_timestamp_ms.value_or(0)
                             : c.load.fixed_schedule_start_offset_ms.value_or(0.0);
    }
    // Files carry texts; --osl still sets max tokens per turn (spec 3.3).
    auto osl_rng = rngs.stream("composer.turn.max_tokens");
    for (auto& conv : custom->dataset.conversations) {
      for (auto& t : conv.turns) {
        if (c.input.osl_mean)
          t.max_tokens =
              core::sample_positive_normal_int(osl_rng, *c.input.osl_mean, c.input.osl_stddev);
      }
    }
    spdlog::info("dataset: {} ({} conversations from {} lines)", c.input.input_file,
                 custom->dataset.conversations.size(), custom->lines);
    loaded_ds = std::move(custom->dataset);
  } else {
    loaded_ds = dataset::compose_synthetic(syn, rngs, tok.get());
  }
  if (c.endpoint.model_names.size() > 1) {
    // --model-selection-strategy: every turn targets one of the models, round robin by turn or
    // uniformly at random (named stream composer.turn.model_selection).
    auto pick_rng = rngs.stream("composer.turn.model_selection");
    std::size_t next_model = 0;
    for (auto& conv : loaded_ds.conversations) {
      for (auto& t : conv.turns) {
        const std::size_t k = c.endpoint.model_selection == "random"
                                  ? static_cast<std::size_t>(core::uniform_index(
                                        pick_rng, c.endpoint.model_names.size()))
                                  : next_model++ % c.endpoint.model_names.size();
        t.model = c.endpoint.model_names[k];
      }
    }
  }
  const dataset::Dataset& ds = loaded_ds;

  const auto endpoint = endpoint::make_endpoint(c.endpoint.type);
  endpoint::BodyOptions bo;
  bo.model = c.endpoint.model_names.front();
  bo.streaming = c.endpoint.streaming;
  // As AIPerf: streaming usage is requested only when the server's counts are the token source.
  bo.include_usage = c.endpoint.use_server_token_count;
  bo.use_legacy_max_tokens = c.endpoint.use_legacy_max_tokens;
  bo.extra = &c.input.extra;

  worker::RequestPlan plan;
  plan.url = *url;
  plan.target =
      endpoint::join_path(url->base_path, c.endpoint.custom_endpoint, endpoint->default_path());
  if (!url->query.empty()) plan.target += "?" + url->query;
  plan.headers = c.input.headers;
  if (!c.endpoint.api_key.empty())
    plan.headers.emplace_back("Authorization", "Bearer " + c.endpoint.api_key);
  plan.streaming = c.endpoint.streaming;
  plan.request_timeout_s = c.endpoint.request_timeout_s;
  plan.endpoint = endpoint.get();
  plan.dataset = &ds;
  nlohmann::ordered_json inputs;
  inputs["data"] = nlohmann::ordered_json::array();
  bo.system_message = ds.system_message;
  plan.body_options = bo;
  plan.connection_reuse = c.endpoint.connection_reuse;
  for (const auto& conv : ds.conversations) {
    bo.user_context = conv.user_context;
    auto body = endpoint->build_body({conv.turns.front()}, bo);
    plan.bodies.push_back(body.dump());
    inputs["data"].push_back({{"session_id", conv.session_id}, {"payloads", {body}}});
  }
  if (auto w = report::write_atomically(artifact_dir / "inputs.json", inputs.dump(2)); !w) {
    std::cerr << "error: " << w.error().describe() << "\n";
    return kExitRunFailed;
  }

  // ---- run ------------------------------------------------------------------------------------
  core::SteadyClock clock;
  const core::WallAnchor anchor = core::WallAnchor::capture();
  records::RecordQueue queue;
  records::Collector collector(queue, anchor);
  if (auto o = collector.open(artifact_dir / records::kRecordsFileName); !o) {
    std::cerr << "error: " << o.error().describe() << "\n";
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
    shapes.push_back(std::move(shape));
  }
  // Workers report to whichever phase's issuer is running (phases never overlap).
  std::atomic<timing::IssuerLoop*> current{nullptr};
  std::mutex current_mu;  // the signal thread must not stop a loop that is being destroyed
  worker::WorkerEvents events;
  events.returned = [&current](std::int64_t id, std::int64_t session) {
    current.load()->credit_returned(id, session);
  };
  if (c.load.prefill_concurrency || c.load.warmup.prefill_concurrency) {
    events.first_token = [&current](std::int64_t id) { current.load()->first_token(id); };
  }
  worker::WorkerPool pool(workers, plan, clock, queue, events);

  std::atomic<bool> cancelled{false};
  SignalWatcher signals([&](int sig) {
    if (cancelled.exchange(true)) return;
    spdlog::warn("received signal {}; stopping and exporting what was measured", sig);
    std::lock_guard lock(current_mu);
    if (auto* loop = current.load()) loop->stop();
    pool.cancel_all("benchmark cancelled by signal");
  });

  const bool show_progress = c.set_options.count("--ui-type") ? c.ui == config::UiType::kSimple
                                                              : isatty(STDERR_FILENO) != 0;
  struct PhaseOutcome {
    core::MonoNs start_ns = 0, end_ns = 0;
    std::int64_t dropped = 0;
  };
  // Runs one phase to completion: sending, then waiting for what is in flight (up to the grace
  // period after a duration ends, then the rest is cancelled).
  auto run_phase = [&](const timing::PhasePlan& pp, double grace_s) {
    const std::string name = records::to_string(pp.phase);
    const std::string prefix = pp.phase == records::Phase::kWarmup ? "warmup." : "";
    const char* interval_stream = pp.pattern == timing::ArrivalPattern::kGamma
                                      ? "timing.request.gamma_interval"
                                      : "timing.request.poisson_interval";
    timing::Scheduler sched(
        pp, shapes,
        timing::ConversationSampler(strategy_of(c.input.sampling_strategy), ds.conversations.size(),
                                    rngs.stream(prefix + "dataset.sampler"s)),
        rngs.stream(prefix + interval_stream), rngs.stream(prefix + "timing.request.cancellation"s),
        clock.now_ns());
    timing::PreciseWaiter waiter;
    timing::IssuerLoop loop(clock, waiter, sched, pool);
    {
      std::lock_guard lock(current_mu);
      current.store(&loop);
    }
    if (cancelled.load()) loop.stop();
    spdlog::info("{}: {}, {} worker thread(s)", name, describe(pp), workers);
    std::thread issuer_thread([&] { loop.run(); });
    std::atomic<bool> phase_done{false};
    std::thread progress;
    if (show_progress) {
      progress = std::thread([&] {
        while (!phase_done.load()) {
          std::this_thread::sleep_for(std::chrono::milliseconds(250));
          if (phase_done.load()) break;
          std::cerr << fmt::format("\r[{}] sent {}{} completed {} errors {}   ", name,
                                   loop.issued(),
                                   pp.request_count ? fmt::format("/{}", *pp.request_count) : "",
                                   collector.completed(), collector.errors())
                    << std::flush;
        }
        std::cerr << "\n";
      });
    }
    issuer_thread.join();
    std::optional<core::MonoNs> grace_deadline;
    if (pp.duration_s && std::isfinite(grace_s)) {
      grace_deadline = loop.sending_end_ns() + static_cast<core::MonoNs>(grace_s * 1e9);
    }
    if (!loop.wait_all_returned(grace_deadline)) {
      spdlog::info("{} grace period over; cancelling {} request(s) still in flight", name,
                   loop.issued() - loop.returned());
      pool.cancel_all("benchmark grace period expired");
      loop.wait_all_returned(std::nullopt);
    }
    phase_done.store(true);
    if (progress.joinable()) progress.join();
    PhaseOutcome out{sched.start_ns(), clock.now_ns(), loop.dropped_arrivals()};
    {
      std::lock_guard lock(current_mu);
      current.store(nullptr);
    }
    return out;
  };

  collector.start();
  pool.start();
  if (c.load.warmup_enabled && !cancelled.load()) {
    run_phase(warmup_plan(c), c.load.warmup.grace_period_s.value_or(INFINITY));
  }
  timing::PhasePlan profiling = profiling_plan(c);
  if (c.load.fixed_schedule) {
    profiling.fixed_schedule = true;
    profiling.schedule_zero_ms = schedule_zero_ms.value_or(0.0);
  }
  const PhaseOutcome outcome = run_phase(profiling, c.grace_period_s());
  const core::MonoNs phase_end = outcome.end_ns;
  pool.stop();
  std::vector<records::RequestRecord> recs = collector.finish();

  // ---- analyse and export -----------------------------------------------------------------------
  // Exact counts after the run, so no worker ever waited on a tokenizer.
  if (tok) count_tokens(*tok, ds, recs);
  metrics::MetricOptions mo;
  mo.streaming = c.endpoint.streaming;
  mo.token_source =
      tok ? metrics::TokenSource::kClientTokenizer : metrics::TokenSource::kServerUsage;
  mo.osl_mismatch_pct_threshold = env_double("AIPERF_METRICS_OSL_MISMATCH_PCT_THRESHOLD", 5.0);
  mo.osl_mismatch_max_token_threshold =
      env_double("AIPERF_METRICS_OSL_MISMATCH_MAX_TOKEN_THRESHOLD", 50.0);
  const metrics::BenchmarkResult result = metrics::compute_metrics(recs, mo);
  if (result.records_without_usage > 0) {
    spdlog::warn("{} of {} valid responses have no token counts; their token metrics are missing",
                 result.records_without_usage, result.valid_count);
  }

  report::ReportContext ctx;
  ctx.benchmark_id = benchmark_id;
  ctx.cli_command = c.cli_command;
  ctx.token_source = token_source;
  ctx.input_config = build_input_config(c, artifact_dir.string(), benchmark_id);
  ctx.was_cancelled = signals.fired();
  ctx.anchor = anchor;
  ctx.phase_start_ns = outcome.start_ns;
  if (profiling.rate > 0) ctx.dropped_arrivals = outcome.dropped;
  ctx.phase_end_ns = phase_end;
  ctx.artifact_dir = artifact_dir;

  bool export_ok = true;
  auto write = [&](const fs::path& p, const std::string& content, const char* label) {
    if (auto w = report::write_atomically(p, content); !w) {
      spdlog::error("{}", w.error().describe());
      export_ok = false;
      return;
    }
    if (label) std::cout << label << ": " << p.string() << "\n";
  };

  std::cout << "\n" << report::render_metrics_table(result, ctx);
  std::cout << "token source: " << ctx.token_source << "\n";
  if (auto errors = report::render_error_table(result); !errors.empty())
    std::cout << "\n" << errors;
  std::cout << "\nCLI Command: " << c.cli_command << "\n";
  if (const auto* d = result.find("benchmark_duration")) {
    std::cout << fmt::format("Benchmark Duration: {:.2f} sec\n", d->value);
  }
  write(artifact_dir / "profile_export_aiperf.csv", report::summary_csv(result), "CSV Export");
  write(artifact_dir / "profile_export_aiperf.json", report::summary_json(result, ctx).dump(2),
        "JSON Export");
  if (c.output.export_level != config::ExportLevel::kSummary) {
    write(artifact_dir / "profile_export.jsonl", report::records_jsonl(result, ctx),
          "Records Export");
  }
  std::cout << "Raw Records: " << (artifact_dir / records::kRecordsFileName).string() << "\n";
  std::cout << "Log File: " << (artifact_dir / "logs" / "inferperf.log").string() << "\n";
  if (ctx.was_cancelled) {
    std::cout << "The benchmark was cancelled early; results may be incomplete.\n";
  }
  std::cout.flush();
  spdlog::default_logger()->flush();

  if (ctx.was_cancelled) return kExitSignal;
  if (!export_ok) return kExitRunFailed;
  if (result.valid_count == 0) {
    spdlog::error("no request produced a valid record ({} errors)", result.error_count);
    return kExitRunFailed;
  }
  return kExitOk;
}

}  // namespace inferperf::app
