#include "config/validate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include "config/local_address.hpp"
#include "core/secrets.hpp"
#include "metrics/compute.hpp"

namespace inferperf::config {

const std::vector<std::string>& endpoint_type_names() {
  static const std::vector<std::string> names = {"chat",
                                                 "completions",
                                                 "embeddings",
                                                 "chat_embeddings",
                                                 "nim_embeddings",
                                                 "nim_rankings",
                                                 "hf_tei_rankings",
                                                 "cohere_rankings",
                                                 "huggingface_generate",
                                                 "image_generation",
                                                 "image_retrieval",
                                                 "video_generation",
                                                 "solido_rag",
                                                 "template",
                                                 "responses",
                                                 "messages"};
  return names;
}

const char* to_string(EndpointType t) {
  return endpoint_type_names()[static_cast<std::size_t>(t)].c_str();
}

std::optional<EndpointType> endpoint_type_from(std::string_view name) {
  const auto& names = endpoint_type_names();
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i] == name) return static_cast<EndpointType>(i);
  }
  return std::nullopt;
}

const char* to_string(ExportLevel l) {
  switch (l) {
    case ExportLevel::kSummary:
      return "summary";
    case ExportLevel::kRaw:
      return "raw";
    case ExportLevel::kRecords:
      break;
  }
  return "records";
}

namespace {

std::string num(double v) {
  std::string s = std::to_string(v);
  s.erase(s.find_last_not_of('0') + 1);
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s;
}

// A value in an error as a person reads it: 1e+11, 1e+300, inf, nan (num() spells every digit).
std::string short_num(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

// Resolves the arrival pattern of one phase; returns an error message or "".
std::string resolve_pattern(std::optional<double> rate, std::string& pattern,
                            std::optional<double> smoothness, const std::string& prefix) {
  if (smoothness) {
    if (!(*smoothness > 0)) return "--" + prefix + "arrival-smoothness must be greater than 0";
    if (pattern.empty()) pattern = "gamma";
    if (pattern != "gamma") {
      return "--arrival-smoothness applies only to --" + prefix + "arrival-pattern gamma (got " +
             pattern + ")";
    }
  }
  if (rate) {
    if (!(*rate > 0)) return "--" + prefix + "request-rate must be greater than 0";
    if (pattern == "concurrency_burst") {
      return "--" + prefix + "arrival-pattern concurrency_burst cannot be combined with --" +
             prefix + "request-rate";
    }
    if (pattern.empty()) pattern = "poisson";
  } else {
    if (!pattern.empty() && pattern != "concurrency_burst") {
      return "--" + prefix + "arrival-pattern " + pattern + " needs --" + prefix + "request-rate";
    }
    pattern = "concurrency_burst";
  }
  return "";
}

// Quantities derived from several flags, each within its own range (docs/limits.md): the run's
// token total must stay exact in a double (the metrics' sums), and a user's turn gap must stay
// below the 365 days every duration is held to.
void validate_derived(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& load = c.load;
  const auto& in = c.input;
  constexpr double kExactInDouble = 9007199254740992.0;  // 2^53
  const double requests =
      load.request_count  ? static_cast<double>(*load.request_count)
      : load.num_sessions ? static_cast<double>(*load.num_sessions) * std::max(1.0, in.turn_mean)
                          : 0.0;
  const double per_request =
      (static_cast<double>(in.isl_mean) + static_cast<double>(in.osl_mean.value_or(0))) *
      std::max(1, in.prompt_batch_size);
  if (requests * per_request > kExactInDouble) {
    errors.push_back(
        "--isl/--osl x --request-count (or --num-sessions): " + short_num(requests * per_request) +
        " tokens in all, more than 2^53 (9,007,199,254,740,992), the most the token "
        "totals count exactly; lower one of them");
  }
  if (load.user_centric_rate && load.num_users && *load.user_centric_rate > 0 &&
      *load.num_users / *load.user_centric_rate > 365.0 * 86400.0) {
    errors.push_back("--num-users / --user-centric-rate: each user would wait " +
                     short_num(*load.num_users / *load.user_centric_rate) +
                     " s between turns, more than 31,536,000 (365 days)");
  }
}

// The shard options on their own; how each load splits is checked by the timing module's
// shard_plan (a share of zero is refused there, once the defaults are resolved).
// Upper bounds whose derived quantities stay representable (issue: a rate of 1e11 gave 0 ns
// intervals and a spinning issuer; a count beyond 2^63 arrives from the parser as INT64_MAX, an
// unbounded run). The lower bounds and NaN are each flag's own check.
void validate_magnitudes(const RunConfig& c, std::vector<std::string>& errors) {
  constexpr double kMaxRate = 1e7;  // requests per second: intervals of at least 100 ns
  constexpr std::int64_t kMaxPlannedCount = 1'000'000'000'000;
  constexpr double kMaxTimeoutS = 365.0 * 86400.0;
  auto rate = [&](const std::optional<double>& v, const char* flag) {
    if (v && *v > 0 && !(*v <= kMaxRate)) {
      errors.push_back(std::string(flag) +
                       " must be a finite number of requests per second, at most 10,000,000 "
                       "(got " +
                       short_num(*v) + ")");
    }
  };
  auto count = [&](const std::optional<std::int64_t>& v, const char* flag) {
    if (v && *v > kMaxPlannedCount) {
      errors.push_back(std::string(flag) + " must be at most 1,000,000,000,000 (got " +
                       std::to_string(*v) + (*v == INT64_MAX ? " or more" : "") + ")");
    }
  };
  rate(c.load.request_rate, "--request-rate");
  rate(c.load.user_centric_rate, "--user-centric-rate");
  rate(c.load.warmup.request_rate, "--warmup-request-rate");
  count(c.load.request_count, "--request-count");
  count(c.load.num_sessions, "--num-sessions");
  count(c.load.warmup.request_count, "--warmup-request-count");
  count(c.load.warmup.num_sessions, "--num-warmup-sessions");
  validate_derived(c, errors);
  const double t = c.endpoint.request_timeout_s;
  if (!(std::isfinite(t) && t > 0 && t <= kMaxTimeoutS)) {
    errors.push_back(
        "--request-timeout-seconds must be a finite number of seconds above 0, at most "
        "31,536,000 (365 days) (got " +
        short_num(t) + ")");
  }
}

// Streaming runs ask for usage unless --no-stream-usage; the server's counts need it.
void validate_stream_usage(const RunConfig& c, std::vector<std::string>& errors) {
  if (c.endpoint.no_stream_usage && c.endpoint.use_server_token_count && c.endpoint.streaming) {
    errors.push_back(
        "--no-stream-usage: --use-server-token-count takes the token counts from the usage that "
        "streaming responses carry only when asked; drop one of the two");
  }
}

void validate_shard(const RunConfig& c, std::vector<std::string>& errors) {
  const ShardConfig& s = c.shard;
  if (s.count < 1) {
    errors.push_back("--shard-count must be at least 1 (got " + std::to_string(s.count) + ")");
    return;
  }
  if (s.index < 0 || s.index >= s.count) {
    errors.push_back("--shard-index must be between 0 and --shard-count - 1 = " +
                     std::to_string(s.count - 1) + " (got " + std::to_string(s.index) + ")");
  }
  if (s.start_at && !(std::isfinite(*s.start_at) && *s.start_at > 0)) {
    errors.push_back("--start-at must be a Unix time in seconds (got " + num(*s.start_at) + ")");
  }
  if (s.sharded() && !c.input.random_seed) {
    errors.push_back(
        "--shard-count " + std::to_string(s.count) +
        ": give every shard the same --random-seed, so that they all build the same dataset "
        "and share it out without overlap");
  }
}

}  // namespace

std::vector<std::string> validate_and_resolve(RunConfig& c) {
  std::vector<std::string> errors;
  auto& load = c.load;
  const bool public_dataset = !c.input.public_dataset.empty();
  auto at_least_one = [&](const std::optional<int>& v, const char* flag) {
    if (v && *v < 1)
      errors.push_back(std::string(flag) + " must be at least 1 (got " + std::to_string(*v) + ")");
  };
  auto at_least_one64 = [&](const std::optional<std::int64_t>& v, const char* flag) {
    if (v && *v < 1)
      errors.push_back(std::string(flag) + " must be at least 1 (got " + std::to_string(*v) + ")");
  };
  auto positive = [&](const std::optional<double>& v, const char* flag) {
    if (v && !(*v > 0)) errors.push_back(std::string(flag) + " must be greater than 0");
  };
  at_least_one(load.concurrency, "--concurrency");
  at_least_one(load.prefill_concurrency, "--prefill-concurrency");
  // The rankings composer only feeds the rankings endpoints (spec 3.x).
  const std::string type_name = to_string(c.endpoint.type);
  const bool rankings = type_name.find("rankings") != std::string::npos;
  for (const auto& flag : c.set_options) {
    if (flag.starts_with("--rankings-") && !rankings) {
      errors.push_back(flag + " applies only to a rankings --endpoint-type (got " + type_name +
                       ")");
    }
  }
  if (rankings && (c.set_options.count("--synthetic-input-tokens-mean") ||
                   c.set_options.count("--synthetic-input-tokens-stddev"))) {
    errors.push_back(
        "a rankings --endpoint-type sizes its texts with --rankings-*; --isl does not "
        "apply");
  }
  at_least_one64(load.request_count, "--request-count");
  at_least_one64(load.num_sessions, "--num-sessions");
  validate_magnitudes(c, errors);
  positive(load.duration_s, "--benchmark-duration");
  positive(load.concurrency_ramp_s, "--concurrency-ramp-duration");
  positive(load.prefill_ramp_s, "--prefill-concurrency-ramp-duration");
  positive(load.rate_ramp_s, "--request-rate-ramp-duration");
  if (const auto& slice = c.output.slice_duration_s;
      slice && !(*slice > 0 && std::isfinite(*slice))) {
    errors.push_back("--slice-duration must be a finite number of seconds greater than 0 (got " +
                     num(*slice) + ")");
  }
  if (load.request_count && load.num_sessions) {
    errors.push_back("--request-count and --num-sessions cannot be used together");
  }
  // Unlike AIPerf, the grace period is accepted in every mode: it also bounds the wait for
  // in-flight requests after a first SIGINT/SIGTERM (docs/decisions.md, Reliability).
  if (load.grace_period_s && (*load.grace_period_s < 0 || std::isnan(*load.grace_period_s))) {
    errors.push_back("--benchmark-grace-period must be >= 0");
  }
  if (const auto& t = load.failed_request_threshold; t && !(*t >= 0 && *t <= 1)) {
    errors.push_back("--failed-request-threshold must be a fraction between 0 and 1 (got " +
                     num(*t) + ")");
  }
  const bool user_centric = load.user_centric_rate.has_value();
  if (load.num_users && !user_centric) errors.push_back("--num-users needs --user-centric-rate");
  if (user_centric) {
    if (!(*load.user_centric_rate > 0))
      errors.push_back("--user-centric-rate must be greater than 0");
    if (!load.num_users) {
      errors.push_back("--user-centric-rate needs --num-users");
    } else if (*load.num_users < 1) {
      errors.push_back("--num-users must be at least 1 (got " + std::to_string(*load.num_users) +
                       ")");
    }
    if (load.request_rate)
      errors.push_back("--user-centric-rate cannot be combined with --request-rate");
    if (!load.arrival_pattern.empty() || load.smoothness) {
      errors.push_back(
          "--user-centric-rate paces each user by its turn gap; it cannot be combined with "
          "--arrival-pattern or --arrival-smoothness");
    }
    if (load.fixed_schedule)
      errors.push_back("--user-centric-rate cannot be combined with --fixed-schedule");
    if (c.input.input_file.empty() && !public_dataset && c.input.turn_mean < 2) {
      errors.push_back(
          "--user-centric-rate simulates multi-turn users: --session-turns-mean must be at least "
          "2 (got " +
          num(c.input.turn_mean) + ")");
    }
    if (load.num_users && load.num_sessions && *load.num_users > *load.num_sessions) {
      errors.push_back("--num-users (" + std::to_string(*load.num_users) +
                       ") must not exceed --num-sessions (" + std::to_string(*load.num_sessions) +
                       ")");
    }
    if (load.num_users && load.request_count && *load.num_users > *load.request_count) {
      errors.push_back("--num-users (" + std::to_string(*load.num_users) +
                       ") must not exceed --request-count (" + std::to_string(*load.request_count) +
                       ")");
    }
    if (!load.request_count && !load.num_sessions && !load.duration_s) {
      errors.push_back(
          "--user-centric-rate needs a stop condition: --request-count, --num-sessions or "
          "--benchmark-duration");
    }
  }
  if (auto e = resolve_pattern(load.request_rate, load.arrival_pattern, load.smoothness, "");
      !e.empty()) {
    errors.push_back(e);
  }
  const bool rate_mode = load.request_rate.has_value();
  const bool fixed = load.fixed_schedule;
  if (!fixed && (load.fixed_schedule_auto_offset || load.fixed_schedule_start_offset_ms ||
                 load.fixed_schedule_end_offset_ms)) {
    errors.push_back(
        "--fixed-schedule-auto-offset/--fixed-schedule-start-offset/--fixed-schedule-end-offset "
        "need --fixed-schedule");
  }
  if (fixed) {
    if (c.input.input_file.empty() && !public_dataset)
      errors.push_back("--fixed-schedule needs --input-file (a dataset with timestamps)");
    if (rate_mode) {
      errors.push_back(
          "--fixed-schedule replays the file's timestamps; it cannot be combined with "
          "--request-rate");
    }
    if (c.set_options.count("--dataset-sampling-strategy"))
      errors.push_back("--dataset-sampling-strategy cannot be used with --fixed-schedule");
    if (load.no_fixed_schedule)
      errors.push_back("--fixed-schedule and --no-fixed-schedule contradict each other");
  }
  if (!c.input.custom_dataset_type.empty()) {
    if (c.input.input_file.empty()) errors.push_back("--custom-dataset-type needs --input-file");
  }
  const bool synthesis = c.input.synthesis_speedup_ratio != 1.0 ||
                         c.input.synthesis_prompt_len_multiplier != 1.0 ||
                         c.input.synthesis_max_isl || c.input.synthesis_max_osl;
  if (synthesis && c.input.input_file.empty())
    errors.push_back("--synthesis-* options reshape a trace: they need --input-file");
  if (c.input.block_size && c.input.input_file.empty()) {
    errors.push_back(
        "--prompt-input-tokens-block-size sets the tokens per trace hash id: it needs "
        "--input-file");
  }
  if (public_dataset) {
    // --input-file with a public dataset is that dataset's file, read as the public format.
    const std::string flag = "--public-dataset " + c.input.public_dataset;
    if (!c.input.custom_dataset_type.empty()) {
      errors.push_back(flag + " cannot be combined with --custom-dataset-type (to read a local " +
                       c.input.public_dataset + " file, give it with --input-file)");
    }
    if (c.endpoint.use_server_token_count && c.tokenizer.name.empty()) {
      errors.push_back(flag +
                       " filters conversations by their token counts: with "
                       "--use-server-token-count it needs --tokenizer (the served model's, or "
                       "builtin)");
    }
    if (fixed) {
      errors.push_back("--fixed-schedule replays timestamps, which " + flag + " does not have");
    }
    if ((synthesis || c.input.block_size) && !c.input.input_file.empty()) {
      errors.push_back(
          "--synthesis-* and --prompt-input-tokens-block-size reshape traces: they do not apply "
          "to " +
          flag);
    }
  }
  if (load.rate_ramp_s && !rate_mode) {
    errors.push_back("--request-rate-ramp-duration can only be used with --request-rate");
  }
  if (load.concurrency_ramp_s && !load.concurrency) {
    errors.push_back("--concurrency-ramp-duration needs --concurrency");
  }
  if (load.prefill_ramp_s && !load.prefill_concurrency) {
    errors.push_back("--prefill-concurrency-ramp-duration needs --prefill-concurrency");
  }
  if (load.prefill_concurrency) {
    if (!c.endpoint.streaming) {
      errors.push_back("--prefill-concurrency needs --streaming (the first token ends prefill)");
    }
    if (load.concurrency && *load.prefill_concurrency > *load.concurrency) {
      errors.push_back("--prefill-concurrency (" + std::to_string(*load.prefill_concurrency) +
                       ") must not exceed --concurrency (" + std::to_string(*load.concurrency) +
                       ")");
    }
  }
  if (load.cancellation_rate_pct) {
    const double r = *load.cancellation_rate_pct;
    if (!(r > 0 && r <= 100)) {
      errors.push_back("--request-cancellation-rate must be in (0, 100] percent (got " + num(r) +
                       ")");
    }
  }
  if (load.cancellation_delay_s) {
    if (!load.cancellation_rate_pct) {
      errors.push_back("--request-cancellation-delay needs --request-cancellation-rate");
    } else if (*load.cancellation_delay_s < 0) {
      errors.push_back("--request-cancellation-delay must be >= 0");
    }
  }

  // Warmup: any warmup stop condition enables it; the other warmup options need one.
  auto& w = load.warmup;
  at_least_one64(w.request_count, "--warmup-request-count");
  at_least_one64(w.num_sessions, "--num-warmup-sessions");
  positive(w.duration_s, "--warmup-duration");
  at_least_one(w.concurrency, "--warmup-concurrency");
  at_least_one(w.prefill_concurrency, "--warmup-prefill-concurrency");
  load.warmup_enabled = w.request_count || w.duration_s || w.num_sessions;
  if (w.request_count && w.num_sessions) {
    errors.push_back("--warmup-request-count and --num-warmup-sessions cannot be used together");
  }
  if (!load.warmup_enabled && (w.concurrency || w.prefill_concurrency || w.request_rate ||
                               !w.arrival_pattern.empty() || w.grace_period_s)) {
    errors.push_back(
        "--warmup-* load options need a warmup stop condition (--warmup-request-count, "
        "--warmup-duration or --num-warmup-sessions)");
  }
  if (w.grace_period_s && !w.duration_s) {
    errors.push_back("--warmup-grace-period can only be used with --warmup-duration");
  }
  if (load.no_warmup) load.warmup_enabled = false;

  const auto& in = c.input;
  if (in.turn_mean < 1) errors.push_back("--conversation-turn-mean must be at least 1");
  if (c.input.isl_mean < 1) {
    errors.push_back(
        "All synthetic data are disabled: --synthetic-input-tokens-mean must be at least 1");
  }
  if ((in.prefix_pool_size > 0) != (in.prefix_length > 0)) {
    errors.push_back("--prompt-prefix-pool-size and --prompt-prefix-length must be given together");
  }
  if (in.shared_system_prompt_length && *in.shared_system_prompt_length < 1) {
    errors.push_back("--shared-system-prompt-length must be at least 1");
  }
  if (in.user_context_prompt_length && *in.user_context_prompt_length < 1) {
    errors.push_back("--user-context-prompt-length must be at least 1");
  }
  if ((in.prefix_pool_size > 0 || in.prefix_length > 0) &&
      (in.shared_system_prompt_length || in.user_context_prompt_length)) {
    errors.push_back(
        "--prompt-prefix-pool-size/--prompt-prefix-length cannot be combined with "
        "--shared-system-prompt-length/--user-context-prompt-length");
  }
  if (in.user_context_prompt_length && !c.set_options.count("--num-dataset-entries")) {
    errors.push_back("--user-context-prompt-length needs an explicit --num-dataset-entries");
  }
  if (!in.sequence_distribution.empty() && (c.set_options.count("--synthetic-input-tokens-mean") ||
                                            c.set_options.count("--output-tokens-mean"))) {
    errors.push_back("--seq-dist sets ISL and OSL itself; do not combine it with --isl or --osl");
  }
  if (c.set_options.count("--goodput")) {
    std::vector<metrics::GoodputObjective> objectives;
    if (auto e = metrics::parse_goodput(c.metrics.goodput, objectives)) errors.push_back(*e);
  }
  if (c.endpoint.urls.empty()) errors.push_back("--url needs at least one value");
  // Request lines and Host headers are built from these: nothing may split them.
  auto has_space_or_control = [](const std::string& s) {
    return std::any_of(s.begin(), s.end(), [](char ch) {
      const auto u = static_cast<unsigned char>(ch);
      return u <= 0x20 || u == 0x7F;
    });
  };
  auto check_url = [&](const std::string& flag, const std::string& url) {
    if (core::url_has_userinfo(url)) {
      errors.push_back(
          flag + " " +
          core::redact_urls(url.find("://") == std::string::npos ? "http://" + url : url) +
          ": credentials in the URL (user:password@) are not supported; pass them "
          "with --header 'Authorization: Basic ...' or --api-key");
    } else if (has_space_or_control(url)) {
      errors.push_back(flag + ": the URL holds a space, line break or control character");
    }
  };
  for (const auto& u : c.endpoint.urls) check_url("--url", u);
  for (const auto& u : c.telemetry.server_urls) check_url("--server-metrics", u);
  for (const auto& u : c.telemetry.dcgm_urls) check_url("--gpu-telemetry", u);
  if (has_space_or_control(c.endpoint.custom_endpoint))
    errors.push_back("--endpoint: the path holds a space, line break or control character");
  if (!c.endpoint.ssl_ca_file.empty() && !std::filesystem::is_regular_file(c.endpoint.ssl_ca_file))
    errors.push_back("--ssl-ca-file: no such file: " + c.endpoint.ssl_ca_file);
  if (!c.endpoint.unix_socket.empty() && c.endpoint.unix_socket.size() > 107)
    errors.push_back("--unix-socket: path longer than 107 bytes: " + c.endpoint.unix_socket);
  for (auto& e : check_local_addresses(c.endpoint.local_addresses, c.endpoint.unix_socket))
    errors.push_back(std::move(e));
  validate_shard(c, errors);
  validate_stream_usage(c, errors);
  if (!errors.empty()) return errors;

  if (c.input.sampling_strategy.empty())
    c.input.sampling_strategy =
        c.input.input_file.empty() && !public_dataset ? "shuffle" : "sequential";
  // A fixed schedule ends with its file; a request count or session count may stop it earlier.
  const bool has_stop = fixed || load.request_count || load.num_sessions || load.duration_s;
  if (fixed || user_centric) {
    // --concurrency, when given, is a blocking ceiling; no defaults are added.
  } else if (rate_mode) {
    if (!has_stop) {
      load.request_count = 10;
      c.warnings.push_back("no stop condition given; using --request-count 10");
    }
  } else {
    if (!load.concurrency && !load.prefill_concurrency) {
      load.concurrency = 1;
      c.warnings.push_back("no --concurrency given; using concurrency 1");
    }
    if (!has_stop) {
      load.request_count =
          std::max<std::int64_t>(10, 2 * static_cast<std::int64_t>(load.concurrency.value_or(1)));
      c.warnings.push_back("no stop condition given; using --request-count " +
                           std::to_string(*load.request_count));
    }
  }
  if (load.concurrency) {
    if (load.num_sessions && *load.concurrency > *load.num_sessions) {
      errors.push_back("--concurrency (" + std::to_string(*load.concurrency) +
                       ") must not exceed --num-sessions (" + std::to_string(*load.num_sessions) +
                       ")");
    } else if (!load.num_sessions && load.request_count &&
               *load.concurrency > *load.request_count) {
      errors.push_back("--concurrency (" + std::to_string(*load.concurrency) +
                       ") must not exceed --request-count (" + std::to_string(*load.request_count) +
                       ")");
    }
  }
  if (load.warmup_enabled) {
    // Unset warmup load options fall back to the profiling ones.
    if (!w.request_rate && w.arrival_pattern.empty()) {
      w.request_rate = load.request_rate;
      w.arrival_pattern = load.arrival_pattern;
      if (!w.smoothness) w.smoothness = load.smoothness;
    }
    if (!w.concurrency) w.concurrency = load.concurrency;
    if (!w.prefill_concurrency) w.prefill_concurrency = load.prefill_concurrency;
    if (auto e = resolve_pattern(w.request_rate, w.arrival_pattern, w.smoothness, "warmup-");
        !e.empty()) {
      errors.push_back(e);
    }
    if (!w.request_rate && !w.concurrency && !w.prefill_concurrency) w.concurrency = 1;
    if (w.prefill_concurrency && !c.endpoint.streaming) {
      errors.push_back("--warmup-prefill-concurrency needs --streaming");
    }
  }
  return errors;
}

}  // namespace inferperf::config
