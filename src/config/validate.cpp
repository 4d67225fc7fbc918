#include "config/validate.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "config/local_address.hpp"
#include "config/readiness_options.hpp"
#include "config/request_options.hpp"
#include "config/resolve.hpp"
#include "core/error.hpp"
#include "core/goodput_target.hpp"
#include "core/http_token.hpp"
#include "core/secrets.hpp"

namespace inferperf::config {

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

// Streaming runs ask for usage unless --no-stream-usage; the server's counts need it.
void validate_stream_usage(const RunConfig& c, std::vector<std::string>& errors) {
  if (c.endpoint.no_stream_usage && c.endpoint.use_server_token_count && c.endpoint.streaming) {
    errors.push_back(
        "--no-stream-usage: --use-server-token-count takes the token counts from the usage that "
        "streaming responses carry only when asked; drop one of the two");
  }
}

// The shard options on their own; how each load splits is checked by the timing module's
// shard_plan (a share of zero is refused there, once the defaults are resolved).
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

// The floors shared by many flags; each flag's message names it.
template <class Int>
void validate_at_least_one(const std::optional<Int>& v, const char* flag,
                           std::vector<std::string>& errors) {
  if (v && *v < 1)
    errors.push_back(std::string(flag) + " must be at least 1 (got " + std::to_string(*v) + ")");
}

void validate_positive(const std::optional<double>& v, const char* flag,
                       std::vector<std::string>& errors) {
  if (v && !(*v > 0)) errors.push_back(std::string(flag) + " must be greater than 0");
}

bool uses_public_dataset(const RunConfig& c) {
  return !c.input.public_dataset.empty();
}

// Any --synthesis-* option away from its default asks to reshape a trace.
bool asks_trace_synthesis(const InputConfig& in) {
  return in.synthesis_speedup_ratio != 1.0 || in.synthesis_prompt_len_multiplier != 1.0 ||
         in.synthesis_max_isl || in.synthesis_max_osl ||
         in.synthesis_prefix_len_multiplier != 1.0 || in.synthesis_prefix_root_multiplier != 1 ||
         in.synthesis_output_len_multiplier != 1.0;
}

// The rankings composer only feeds the rankings endpoints (docs/endpoints.md, Request bodies).
void validate_rankings_options(const RunConfig& c, std::vector<std::string>& errors) {
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
}

// The profiling load's counts, durations and fractions, each on its own (and the slice duration,
// checked here so that its message keeps its place among the durations).
void validate_load_ranges(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& load = c.load;
  validate_at_least_one(load.request_count, "--request-count", errors);
  validate_at_least_one(load.num_sessions, "--num-sessions", errors);
  validate_derived(c, errors);
  validate_positive(load.duration_s, "--benchmark-duration", errors);
  validate_positive(load.concurrency_ramp_s, "--concurrency-ramp-duration", errors);
  validate_positive(load.prefill_ramp_s, "--prefill-concurrency-ramp-duration", errors);
  validate_positive(load.rate_ramp_s, "--request-rate-ramp-duration", errors);
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
}

// --user-centric-rate with --num-users: multi-turn users, each paced by its own turn gap.
void validate_user_centric(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& load = c.load;
  const bool user_centric = load.user_centric_rate.has_value();
  if (load.num_users && !user_centric) errors.push_back("--num-users needs --user-centric-rate");
  if (!user_centric) return;
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
  if (load.arrival_pattern || load.smoothness) {
    errors.push_back(
        "--user-centric-rate paces each user by its turn gap; it cannot be combined with "
        "--arrival-pattern or --arrival-smoothness");
  }
  if (load.fixed_schedule)
    errors.push_back("--user-centric-rate cannot be combined with --fixed-schedule");
  if (c.input.input_file.empty() && !uses_public_dataset(c) && c.input.turn_mean < 2) {
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

// --fixed-schedule replays a dataset's timestamps; its offsets mean nothing without it.
void validate_fixed_schedule(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& load = c.load;
  const bool offsets = load.fixed_schedule_auto_offset || load.fixed_schedule_start_offset_ms ||
                       load.fixed_schedule_end_offset_ms;
  // Without --fixed-schedule only a timestamped --input-file can make a fixed-schedule phase (its
  // promotion is checked when the file is read).
  if (offsets && !load.fixed_schedule && (c.input.input_file.empty() || load.no_fixed_schedule)) {
    errors.push_back(
        "--fixed-schedule-auto-offset/--fixed-schedule-start-offset/--fixed-schedule-end-offset "
        "need a fixed-schedule phase: --fixed-schedule, or an --input-file trace with timestamps");
  }
  if (load.fixed_schedule_auto_offset && load.fixed_schedule_start_offset_ms) {
    errors.push_back(
        "--fixed-schedule-auto-offset and --fixed-schedule-start-offset cannot be used together "
        "(the start offset is the schedule's zero)");
  }
  if (load.fixed_schedule_start_offset_ms && load.fixed_schedule_end_offset_ms &&
      *load.fixed_schedule_start_offset_ms > *load.fixed_schedule_end_offset_ms) {
    errors.push_back("--fixed-schedule-start-offset must not be after --fixed-schedule-end-offset");
  }
  if (!load.fixed_schedule) return;
  if (c.input.input_file.empty() && !uses_public_dataset(c))
    errors.push_back("--fixed-schedule needs --input-file (a dataset with timestamps)");
  if (load.request_rate) {
    errors.push_back(
        "--fixed-schedule replays the file's timestamps; it cannot be combined with "
        "--request-rate");
  }
  if (c.set_options.count("--dataset-sampling-strategy"))
    errors.push_back("--dataset-sampling-strategy cannot be used with --fixed-schedule");
  if (load.no_fixed_schedule)
    errors.push_back("--fixed-schedule and --no-fixed-schedule contradict each other");
}

// Where the dataset comes from: options that read or reshape a file need one, and a public
// dataset rules out the local-file options.
void validate_dataset_source(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& in = c.input;
  if (!in.custom_dataset_type.empty() && in.input_file.empty())
    errors.push_back("--custom-dataset-type needs --input-file");
  const bool synthesis = asks_trace_synthesis(in);
  if (synthesis && in.input_file.empty())
    errors.push_back("--synthesis-* options reshape a trace: they need --input-file");
  if (in.block_size && in.input_file.empty()) {
    errors.push_back(
        "--prompt-input-tokens-block-size sets the tokens per trace hash id: it needs "
        "--input-file");
  }
  // AIPerf 0.11 refuses the synthetic prompt's shape with a file (--osl stays: it fills the rows
  // without an output length).
  if (!in.input_file.empty() && !uses_public_dataset(c)) {
    for (const auto& [flag, spelled] :
         {std::pair{"--synthetic-input-tokens-mean", "--isl"},
          {"--synthetic-input-tokens-stddev", "--isl-stddev"},
          {"--prompt-batch-size", "--prompt-batch-size"},
          {"--seq-dist", "--seq-dist"},
          {"--prompt-prefix-pool-size", "--prompt-prefix-pool-size"},
          {"--prompt-prefix-length", "--prompt-prefix-length"},
          {"--shared-system-prompt-length", "--shared-system-prompt-length"},
          {"--user-context-prompt-length", "--user-context-prompt-length"}}) {
      if (c.set_options.count(flag))
        errors.push_back(std::string(spelled) +
                         " shapes synthetic prompts: it does not apply to --input-file (AIPerf "
                         "0.11 refuses it; the file's rows give the prompts)");
    }
  }
  if (!uses_public_dataset(c)) return;
  // --input-file with a public dataset is that dataset's file, read as the public format.
  const std::string flag = "--public-dataset " + in.public_dataset;
  if (!in.custom_dataset_type.empty()) {
    errors.push_back(flag + " cannot be combined with --custom-dataset-type (to read a local " +
                     in.public_dataset + " file, give it with --input-file)");
  }
  if (c.endpoint.use_server_token_count && c.tokenizer.name.empty()) {
    errors.push_back(flag +
                     " filters conversations by their token counts: with "
                     "--use-server-token-count it needs --tokenizer (the served model's, or "
                     "builtin)");
  }
  if (c.load.fixed_schedule) {
    errors.push_back("--fixed-schedule replays timestamps, which " + flag + " does not have");
  }
  if ((synthesis || in.block_size) && !in.input_file.empty()) {
    errors.push_back(
        "--synthesis-* and --prompt-input-tokens-block-size reshape traces: they do not apply "
        "to " +
        flag);
  }
}

// Each ramp needs the load it ramps; prefill concurrency is counted up to the first token.
void validate_ramps_and_prefill(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& load = c.load;
  if (load.rate_ramp_s && !load.request_rate) {
    errors.push_back("--request-rate-ramp-duration can only be used with --request-rate");
  }
  if (load.concurrency_ramp_s && !load.concurrency) {
    errors.push_back("--concurrency-ramp-duration needs --concurrency");
  }
  if (load.prefill_ramp_s && !load.prefill_concurrency) {
    errors.push_back("--prefill-concurrency-ramp-duration needs --prefill-concurrency");
  }
  if (!load.prefill_concurrency) return;
  if (!c.endpoint.streaming) {
    errors.push_back("--prefill-concurrency needs --streaming (the first token ends prefill)");
  }
  if (load.concurrency && *load.prefill_concurrency > *load.concurrency) {
    errors.push_back("--prefill-concurrency (" + std::to_string(*load.prefill_concurrency) +
                     ") must not exceed --concurrency (" + std::to_string(*load.concurrency) + ")");
  }
}

void validate_cancellation(const LoadConfig& load, std::vector<std::string>& errors) {
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
}

// The warmup options on their own; the other warmup options need a warmup stop condition.
void validate_warmup_options(const LoadConfig& load, std::vector<std::string>& errors) {
  const auto& w = load.warmup;
  validate_at_least_one(w.request_count, "--warmup-request-count", errors);
  validate_at_least_one(w.num_sessions, "--num-warmup-sessions", errors);
  validate_positive(w.duration_s, "--warmup-duration", errors);
  validate_at_least_one(w.concurrency, "--warmup-concurrency", errors);
  validate_at_least_one(w.prefill_concurrency, "--warmup-prefill-concurrency", errors);
  validate_positive(w.concurrency_ramp_s, "--warmup-concurrency-ramp-duration", errors);
  validate_positive(w.prefill_ramp_s, "--warmup-prefill-concurrency-ramp-duration", errors);
  validate_positive(w.rate_ramp_s, "--warmup-request-rate-ramp-duration", errors);
  if (w.request_count && w.num_sessions) {
    errors.push_back("--warmup-request-count and --num-warmup-sessions cannot be used together");
  }
  if (!has_warmup_stop(w) &&
      (w.concurrency || w.prefill_concurrency || w.request_rate || w.arrival_pattern ||
       w.grace_period_s || w.concurrency_ramp_s || w.prefill_ramp_s || w.rate_ramp_s)) {
    errors.push_back(
        "--warmup-* load options need a warmup stop condition (--warmup-request-count, "
        "--warmup-duration or --num-warmup-sessions)");
  }
  if (w.grace_period_s && !w.duration_s) {
    errors.push_back("--warmup-grace-period can only be used with --warmup-duration");
  }
}

// The synthetic prompts' shape (turns, ISL, prefixes, system and user context) and --goodput.
void validate_synthetic_input(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& in = c.input;
  if (in.turn_mean < 1) errors.push_back("--conversation-turn-mean must be at least 1");
  if (in.isl_mean < 1) {
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
    // The syntax only: the tags are checked against the metric catalogue before the run starts
    // (app::goodput_problem).
    std::vector<core::GoodputTarget> targets;
    if (auto e = core::parse_goodput_targets(c.metrics.goodput, targets)) errors.push_back(*e);
  }
}

// Request lines and Host headers are built from URLs and paths: nothing may split them.
bool holds_space_or_control(const std::string& s) {
  return std::any_of(s.begin(), s.end(), [](char ch) {
    const auto u = static_cast<unsigned char>(ch);
    return u <= 0x20 || u == 0x7F;
  });
}

void validate_url(const std::string& flag, const std::string& url,
                  std::vector<std::string>& errors) {
  if (core::url_has_userinfo(url)) {
    errors.push_back(
        flag + " " +
        core::redact_urls(url.find("://") == std::string::npos ? "http://" + url : url) +
        ": credentials in the URL (user:password@) are not supported; pass them "
        "with --header 'Authorization: Basic ...' or --api-key");
  } else if (holds_space_or_control(url)) {
    errors.push_back(flag + ": the URL holds a space, line break or control character");
  } else if (flag == "--url") {
    // Items without "://" were given "http://" when parsed; what is left is a foreign scheme.
    const std::size_t sep = url.find("://");
    std::string scheme = url.substr(0, sep == std::string::npos ? url.find(':') : sep);
    for (auto& ch : scheme) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (sep == std::string::npos || (scheme != "http" && scheme != "https"))
      errors.push_back("--url " + core::excerpt(core::redact_urls(url), 120) +
                       ": only http:// and https:// URLs are supported");
  }
}

// An HTTP field name is a token (RFC 9110 5.1): letters, digits and !#$%&'*+-.^_`|~. Names that
// frame the request or that inferperf sets itself are refused: the request would carry two.
void validate_session_header(const std::string& name, std::vector<std::string>& errors) {
  const bool token =
      !name.empty() && std::all_of(name.begin(), name.end(), core::is_http_token_char);
  if (!token) {
    errors.push_back("--session-header: '" + core::excerpt(name, 80) +
                     "' is not an HTTP header name (letters, digits and !#$%&'*+-.^_`|~ only)");
    return;
  }
  std::string lower = name;
  for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  for (std::string_view own : {"host", "user-agent", "x-request-id", "content-type",
                               "content-length", "accept", "transfer-encoding", "connection"}) {
    if (lower == own) {
      errors.push_back("--session-header: " + name +
                       " is a header inferperf sets itself; choose another name");
      return;
    }
  }
}

// Where requests go: the server and telemetry URLs, the path, TLS and the local sockets.
void validate_endpoint_addresses(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& ep = c.endpoint;
  if (ep.urls.empty()) errors.push_back("--url needs at least one value");
  for (const auto& u : ep.urls) validate_url("--url", u, errors);
  for (const auto& u : c.telemetry.server_urls) validate_url("--server-metrics", u, errors);
  for (const auto& u : c.telemetry.dcgm_urls) validate_url("--gpu-telemetry", u, errors);
  if (holds_space_or_control(ep.custom_endpoint))
    errors.push_back("--endpoint: the path holds a space, line break or control character");
  if (!ep.ssl_ca_file.empty() && !std::filesystem::is_regular_file(ep.ssl_ca_file))
    errors.push_back("--ssl-ca-file: no such file: " + ep.ssl_ca_file);
  if (!ep.unix_socket.empty() && ep.unix_socket.size() > 107)
    errors.push_back("--unix-socket: path longer than 107 bytes: " + ep.unix_socket);
  for (auto& e : check_local_addresses(ep.local_addresses, ep.unix_socket))
    errors.push_back(std::move(e));
  validate_session_header(ep.session_header, errors);
}

// The warmup load once it has fallen back to the profiling one.
void validate_warmup_load(const RunConfig& c, std::vector<std::string>& errors) {
  const auto& w = c.load.warmup;
  // The pattern is resolved already; resolving it again gives the error its options give.
  if (auto e =
          resolve_arrival_pattern(w.request_rate, w.arrival_pattern, w.smoothness, "warmup-").error;
      !e.empty()) {
    errors.push_back(e);
  }
  if (w.prefill_concurrency && !c.endpoint.streaming) {
    errors.push_back("--warmup-prefill-concurrency needs --streaming");
  }
  // A ramp given for a load the warmup phase does not have (inherited ramps never are: they are
  // taken only where the load exists).
  if (w.rate_ramp_s && !w.request_rate) {
    errors.push_back(
        "--warmup-request-rate-ramp-duration needs a warmup request rate (--warmup-request-rate "
        "or --request-rate)");
  }
  if (w.concurrency_ramp_s && !w.concurrency) {
    errors.push_back(
        "--warmup-concurrency-ramp-duration needs a warmup concurrency (--warmup-concurrency or "
        "--concurrency)");
  }
  if (w.prefill_ramp_s && !w.prefill_concurrency) {
    errors.push_back(
        "--warmup-prefill-concurrency-ramp-duration needs a warmup prefill concurrency "
        "(--warmup-prefill-concurrency or --prefill-concurrency)");
  }
}

// --inter-turn-delay-cap-seconds lowers the recorded delays of dag_jsonl and weka_trace files:
// without an --input-file (or with a public dataset) it has nothing to cap. The loader warns about
// a file of another type.
void warn_unused_delay_cap(RunConfig& c) {
  if (!c.input.inter_turn_delay_cap_s) return;
  if (!c.input.input_file.empty() && !uses_public_dataset(c)) return;
  c.warnings.push_back(
      "--inter-turn-delay-cap-seconds caps the recorded turn delays of an --input-file of type "
      "dag_jsonl or weka_trace; without one it is ignored");
}

}  // namespace

// The profiling arrival pattern's error comes after the user-centric checks (which read the
// pattern as given), so that its message keeps its place.
std::vector<std::string> validate_given_options(const RunConfig& c) {
  std::vector<std::string> errors;
  const auto& load = c.load;
  validate_at_least_one(load.concurrency, "--concurrency", errors);
  validate_at_least_one(load.prefill_concurrency, "--prefill-concurrency", errors);
  validate_rankings_options(c, errors);
  validate_load_ranges(c, errors);
  validate_user_centric(c, errors);
  if (auto e = resolve_arrival_pattern(load.request_rate, load.arrival_pattern, load.smoothness, "")
                   .error;
      !e.empty()) {
    errors.push_back(e);
  }
  validate_fixed_schedule(c, errors);
  validate_dataset_source(c, errors);
  validate_ramps_and_prefill(c, errors);
  validate_cancellation(load, errors);
  validate_warmup_options(load, errors);
  validate_synthetic_input(c, errors);
  validate_endpoint_addresses(c, errors);
  validate_request_options(c, errors);
  validate_shard(c, errors);
  validate_stream_usage(c, errors);
  validate_readiness_options(c, errors);
  validate_media_options(c, errors);
  validate_adaptive_scale(c, errors);
  return errors;
}

std::vector<std::string> validate_resolved_options(const RunConfig& c) {
  std::vector<std::string> errors;
  if (c.load.warmup_enabled) validate_warmup_load(c, errors);
  return errors;
}

std::vector<std::string> validate_and_resolve(RunConfig& c) {
  auto errors = validate_given_options(c);
  resolve_given_options(c);
  if (!errors.empty()) return errors;
  resolve_defaults(c);
  warn_unused_delay_cap(c);
  return validate_resolved_options(c);
}

}  // namespace inferperf::config
