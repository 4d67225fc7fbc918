#include "app/runner.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <atomic>
#include <csignal>
#include <filesystem>
#include <iostream>
#include <thread>

#include "app/input_config.hpp"
#include "app/logging.hpp"
#include "app/model_discovery.hpp"
#include "app/tokenizer_setup.hpp"
#include "core/clock.hpp"
#include "core/rlimit.hpp"
#include "core/rng.hpp"
#include "core/uuid.hpp"
#include "dataset/synthetic.hpp"
#include "endpoint/endpoint.hpp"
#include "metrics/compute.hpp"
#include "records/collector.hpp"
#include "records/record_jsonl.hpp"
#include "report/console_table.hpp"
#include "report/exporters.hpp"
#include "timing/concurrency_issuer.hpp"
#include "worker/worker_pool.hpp"

namespace inferperf::app {

namespace fs = std::filesystem;

namespace {

constexpr int kExitOk = 0;
constexpr int kExitRunFailed = 1;
constexpr int kExitBadConfig = 2;
constexpr int kExitSignal = 130;

std::string artifact_leaf(const config::RunConfig& c) {
  std::string model = c.endpoint.model_names.front();
  for (auto& ch : model) {
    if (ch == '/') ch = '_';
  }
  return fmt::format("{}-openai-{}-concurrency{}", model, config::to_string(c.endpoint.type),
                     *c.load.concurrency);
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
  const int hw = std::max(1u, std::thread::hardware_concurrency());
  int n = std::min(hw, *c.load.concurrency);
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
  const std::int64_t needed_fds = static_cast<std::int64_t>(*c.load.concurrency) + 64;
  if (fds.soft > 0 && needed_fds > static_cast<std::int64_t>(fds.soft)) {
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
  if (!c.input.sequence_distribution.empty()) {
    auto dist = dataset::parse_sequence_distribution(c.input.sequence_distribution);
    if (!dist) {
      std::cerr << "error: " << dist.error().describe() << "\n";
      return kExitBadConfig;
    }
    syn.sequence_distribution = *dist;
  }
  const dataset::Dataset ds = dataset::compose_synthetic(syn, rngs, tok.get());

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
  timing::ConcurrencyIssuer* issuer_ptr = nullptr;
  worker::WorkerPool pool(workers, plan, clock, queue,
                          [&issuer_ptr] { issuer_ptr->credit_returned(); });
  timing::ConcurrencyPlan cp;
  cp.concurrency = *c.load.concurrency;
  cp.request_count = c.load.request_count;
  cp.duration_s = c.load.benchmark_duration_s;
  timing::ConcurrencyIssuer issuer(
      clock, pool, cp,
      timing::ShuffleSampler(ds.conversations.size(), rngs.stream("dataset.sampler.shuffle")));
  issuer_ptr = &issuer;

  std::atomic<bool> cancelled{false};
  SignalWatcher signals([&](int sig) {
    if (cancelled.exchange(true)) return;
    spdlog::warn("received signal {}; stopping and exporting what was measured", sig);
    issuer.stop();
    pool.cancel_all("benchmark cancelled by signal");
  });

  spdlog::info("profiling: concurrency {}, {} worker thread(s), {}", *c.load.concurrency, workers,
               c.load.request_count ? fmt::format("{} requests", *c.load.request_count)
                                    : fmt::format("{} s", *c.load.benchmark_duration_s));
  collector.start();
  pool.start();
  std::thread issuer_thread([&] { issuer.run(); });

  const bool show_progress = c.set_options.count("--ui-type") ? c.ui == config::UiType::kSimple
                                                              : isatty(STDERR_FILENO) != 0;
  std::atomic<bool> run_done{false};
  std::thread progress;
  if (show_progress) {
    progress = std::thread([&] {
      while (!run_done.load()) {
        std::this_thread::sleep_for(std::chrono::seconds(1));
        if (run_done.load()) break;
        std::cerr << fmt::format(
                         "\r[profiling] sent {}{} completed {} errors {}   ", issuer.issued(),
                         c.load.request_count ? fmt::format("/{}", *c.load.request_count) : "",
                         collector.completed(), collector.errors())
                  << std::flush;
      }
      std::cerr << "\n";
    });
  }

  issuer_thread.join();
  std::optional<core::MonoNs> grace_deadline;
  if (c.load.benchmark_duration_s && std::isfinite(c.grace_period_s())) {
    grace_deadline = issuer.sending_end_ns() + static_cast<core::MonoNs>(c.grace_period_s() * 1e9);
  }
  if (!issuer.wait_all_returned(grace_deadline)) {
    spdlog::info("grace period over; cancelling {} request(s) still in flight",
                 issuer.issued() - issuer.returned());
    pool.cancel_all("benchmark grace period expired");
    issuer.wait_all_returned(std::nullopt);
  }
  const core::MonoNs phase_end = clock.now_ns();
  pool.stop();
  run_done.store(true);
  if (progress.joinable()) progress.join();
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
  ctx.phase_start_ns = issuer.phase_start_ns();
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
