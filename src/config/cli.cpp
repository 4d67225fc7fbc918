#include "config/cli.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <cstdlib>
#include <map>
#include <sstream>

#include "config/key_value.hpp"
#include "config/validate.hpp"
#include "core/byte_size.hpp"
#include "core/error.hpp"
#include "core/secrets.hpp"
#include "core/version.hpp"

namespace inferperf::config {

namespace {

// AIPerf flags that only tune its own internals: accepted with one warning.
const std::vector<std::string> kInternalFlags = {
    "--zmq-host",          "--zmq-ipc-path", "--record-processor-service-count",
    "--record-processors", "--api-port",     "--api-host"};

// AIPerf profile flags whose behaviour inferperf does not have yet: rejected by name (exit 2),
// never silently ignored.
const std::vector<std::string> kUnsupportedFlags = {"--image-width-mean",
                                                    "--image-height-mean",
                                                    "--audio-length-mean",
                                                    "--video-width",
                                                    "--video-height",
                                                    "--accuracy-benchmark",
                                                    "--synthesis-prefix-len-multiplier",
                                                    "--synthesis-prefix-root-multiplier",
                                                    "--synthesis-output-len-multiplier",
                                                    "--no-open-loop-replay",
                                                    "--open-loop-strict",
                                                    "--replay-speedup",
                                                    "--max-idle-gap-cap-seconds",
                                                    "--inter-turn-delay-cap-seconds",
                                                    "--trace-session-sample-ratio"};

std::string flag_name(const std::string& arg) {
  auto eq = arg.find('=');
  return eq == std::string::npos ? arg : arg.substr(0, eq);
}

// Space- or comma-separated list items, as AIPerf accepts both.
std::vector<std::string> split_items(const std::vector<std::string>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) {
    std::size_t start = 0;
    while (start <= item.size()) {
      auto comma = item.find(',', start);
      if (comma == std::string::npos) comma = item.size();
      if (comma > start) out.push_back(item.substr(start, comma - start));
      start = comma + 1;
    }
  }
  return out;
}

bool parse_ui(const std::string& s, UiType& out) {
  static const std::map<std::string, UiType> kMap = {
      {"none", UiType::kNone}, {"simple", UiType::kSimple}, {"dashboard", UiType::kDashboard}};
  auto it = kMap.find(s);
  if (it == kMap.end()) return false;
  out = it->second;
  return true;
}

}  // namespace

namespace {

// "-H Authorization:Bearer x" and "--extra-inputs api_key:x" keep the name and hide the value; in
// a JSON object every secret key's value is hidden.
std::string redact_key_values(const std::string& value) {
  if (!value.empty() && value.front() == '{') {
    auto j = nlohmann::ordered_json::parse(value, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return value;
    for (auto& [k, v] : j.items()) {
      if (core::is_secret_name(k)) v = std::string(core::kRedacted);
    }
    return j.dump();
  }
  std::string out;
  std::size_t start = 0;
  while (start <= value.size()) {
    std::size_t comma = value.find(',', start);
    if (comma == std::string::npos) comma = value.size();
    const std::string item = value.substr(start, comma - start);
    const auto colon = item.find(':');
    if (start > 0) out += ',';
    if (colon != std::string::npos && core::is_secret_name(item.substr(0, colon))) {
      out += item.substr(0, colon + 1);
      out += core::kRedacted;
    } else {
      out += item;
    }
    start = comma + 1;
  }
  return out;
}

// Sweeps and repeated runs are taken off the command line by sweep::extract_sweep_args before this
// parser runs; they are declared here so that --help lists them, and they never reach `c`.
void add_sweep_options(CLI::App& profile) {
  static std::string ignored;
  static bool ignored_flag = false;
  const char* group = "Sweeps and repeated runs";
  const std::vector<std::pair<const char*, const char*>> options = {
      {"--num-profile-runs",
       "Run every point N times (1-10) into profile_runs/run_NNNN/ and "
       "write aggregate/ confidence statistics"},
      {"--profile-run-cooldown-seconds", "Seconds to wait between repeated runs (0)"},
      {"--confidence-level", "Confidence level of the cross-run intervals (0.95)"},
      {"--sweep-type", "grid (every combination of the comma lists, default) | zip (item by item)"},
      {"--sweep-cooldown-seconds", "Seconds to wait between sweep points (0)"},
  };
  for (const auto& [name, help] : options) profile.add_option(name, ignored, help)->group(group);
  const std::vector<std::pair<const char*, const char*>> flags = {
      {"--profile-run-disable-warmup-after-first,!--no-profile-run-disable-warmup-after-first",
       "Warmup only in the first of the repeated runs (default on)"},
      {"--set-consistent-seed,!--no-set-consistent-seed",
       "The same --random-seed in every repeated run (default on; one is chosen when not given)"},
      {"--cache-salt-per-run",
       "Send a fresh random hex cache_salt extra input in every run, so the server's prefix cache "
       "cannot carry results from one run or point to the next"},
      {"--auto-plot", "Run `inferperf plot` over the results at the end"},
      {"--dry-run",
       "Check the whole command line (every point and run of a sweep) and print what would run; "
       "nothing is sent, no file or folder is read or written"},
  };
  for (const auto& [name, help] : flags) profile.add_flag(name, ignored_flag, help)->group(group);
}

// A Kubernetes Indexed Job gives each pod JOB_COMPLETION_INDEX; the shard count comes from the
// manifest's INFERPERF_SHARD_COUNT. The flags win over both.
void shard_from_environment(RunConfig& c, std::vector<std::string>& errors) {
  auto whole = [&](const char* var, int& out) {
    const char* v = std::getenv(var);
    if (!v || !*v) return false;
    char* end = nullptr;
    errno = 0;
    const long n = std::strtol(v, &end, 10);
    if (errno != 0 || *end != '\0' || n < 0 || n > 1'000'000) {
      errors.push_back(std::string(var) + "=" + v + ": not a whole number");
      return false;
    }
    out = static_cast<int>(n);
    return true;
  };
  if (!c.set_options.count("--shard-count") && whole("INFERPERF_SHARD_COUNT", c.shard.count))
    c.set_options.insert("--shard-count");
  // An index alone (any Indexed Job) means nothing without a shard count above 1.
  if (!c.set_options.count("--shard-index") && c.shard.count > 1 &&
      whole("JOB_COMPLETION_INDEX", c.shard.index))
    c.set_options.insert("--shard-index");
}

bool is_key_value_flag(const std::string& a) {
  return a == "-H" || a == "--header" || a == "--extra-inputs";
}

}  // namespace

std::string build_cli_command(const std::vector<std::string>& args) {
  std::string out = "inferperf";
  // A -H/--header/--extra-inputs option takes every value up to the next option.
  enum class Next { kPlain, kSecret, kKeyValues } next = Next::kPlain;
  for (const auto& raw : args) {
    std::string a = raw;
    if (next == Next::kKeyValues && a.starts_with("-")) next = Next::kPlain;
    if (next == Next::kSecret) {
      a = std::string(core::kRedacted);
      next = Next::kPlain;
    } else if (next == Next::kKeyValues) {
      a = redact_key_values(a);
    } else if (a == "--api-key") {
      next = Next::kSecret;
    } else if (is_key_value_flag(a)) {
      next = Next::kKeyValues;
    } else if (a.starts_with("--api-key=")) {
      a = "--api-key=" + std::string(core::kRedacted);
    } else if (const auto eq = a.find('='); a.starts_with("--") && eq != std::string::npos &&
                                            is_key_value_flag(a.substr(0, eq))) {
      a = a.substr(0, eq + 1) + redact_key_values(a.substr(eq + 1));
    } else if (a.starts_with("-H") && a.size() > 2) {
      a = "-H" + redact_key_values(a.substr(2));
    }
    a = core::redact_urls(a);
    out.push_back(' ');
    auto v = coerce_value(a);
    if (v.is_string() && !a.starts_with("-") && a != "profile") {
      out += "'" + a + "'";
    } else {
      out += a;
    }
  }
  return out;
}

CliOutcome parse_command_line(const std::vector<std::string>& args) {
  CliOutcome outcome;
  RunConfig& c = outcome.config;

  CLI::App app{"inferperf - native LLM inference benchmarking client (AIPerf-compatible)",
               "inferperf"};
  app.set_version_flag("--version", std::string("inferperf ") + kVersion);
  app.require_subcommand(1);
  CLI::App* profile = app.add_subcommand("profile", "Run a benchmark against an inference server");
  CLI::App* analyze = app.add_subcommand(
      "analyze", "Rebuild a run's reports from its artifact folder (records file and manifest)");
  analyze->add_option("artifact_dir", outcome.analyze_dir, "The run's artifact folder")->required();
  // `inferperf plot` is parsed by plot::parse_plot_command before this parser runs (main); it is
  // declared here so that `inferperf --help` lists it.
  app.add_subcommand("plot", "Charts and a self-contained HTML report from artifact folders")
      ->allow_extras();
  // So is `inferperf merge` (app::parse_merge_command).
  app.add_subcommand("merge",
                     "Join the artifact folders of one benchmark's shards into one artifact folder")
      ->allow_extras();
  // So are `inferperf tokenize` (app::parse_tokenize_command) and `inferperf probe`
  // (app::parse_probe_command).
  app.add_subcommand("tokenize",
                     "Count or list a text's tokens with the tokenizer profile would use")
      ->allow_extras();
  app.add_subcommand("probe",
                     "Tell in a few seconds how a server behaves and which inferperf flags fit")
      ->allow_extras();
  CLI::App* analyze_trace = app.add_subcommand("analyze-trace",
                                               "Statistics of a Mooncake-style trace: lengths, "
                                               "prefix sharing, cache hit rates, block reuse");
  std::string trace_positional;
  analyze_trace->add_option("INPUT_FILE", trace_positional, "The trace (JSONL)");
  analyze_trace->add_option("--input-file", outcome.analyze_trace.input_file,
                            "The trace (JSONL), instead of INPUT_FILE");
  analyze_trace
      ->add_option("--block-size", outcome.analyze_trace.block_size,
                   "Tokens per hash_id block (only affects context lengths)")
      ->check(CLI::Range(std::int64_t{1}, std::int64_t{1} << 30))
      ->capture_default_str();
  analyze_trace->add_option("--output-file", outcome.analyze_trace.output_file,
                            "Also write the statistics as indented JSON to this file");

  std::string endpoint_type = "chat";
  std::string export_level = "records";
  std::string ui = "";
  std::vector<std::string> extra_inputs, headers, models;
  std::vector<std::string> internal_values(kInternalFlags.size());
  bool verbose = false, extra_verbose = false;

  profile->add_option("-m,--model-names,--model", models, "Model name(s); comma list or repeated")
      ->delimiter(',')
      ->group("Endpoint");
  profile
      ->add_option("--endpoint-type", endpoint_type,
                   "chat | completions | embeddings | chat_embeddings | nim_embeddings | "
                   "nim_rankings | hf_tei_rankings | cohere_rankings | huggingface_generate | "
                   "image_generation | image_retrieval | video_generation | solido_rag | template "
                   "| responses | messages")
      ->check(CLI::IsMember(endpoint_type_names()))
      ->group("Endpoint");
  profile
      ->add_option("--custom-endpoint,--endpoint", c.endpoint.custom_endpoint, "URL path override")
      ->group("Endpoint");
  profile->add_flag("--streaming", c.endpoint.streaming, "Stream responses (SSE)")
      ->group("Endpoint");
  profile->add_option("-u,--url", c.endpoint.urls, "Server URL(s)")
      ->delimiter(',')
      ->group("Endpoint");
  profile
      ->add_option("--url-strategy", c.endpoint.url_strategy,
                   "How sessions spread over several --url: round_robin (each new session takes "
                   "the next URL; its later turns keep it)")
      ->check(CLI::IsMember({"round_robin"}))
      ->group("Endpoint");
  profile
      ->add_option("--request-timeout-seconds", c.endpoint.request_timeout_s,
                   "Total timeout per request (above 0, at most 365 days; checked in validation)")
      ->group("Endpoint");
  profile->add_option("--api-key", c.endpoint.api_key, "Sent as Authorization: Bearer <key>")
      ->group("Endpoint");
  profile
      ->add_option("--ssl-ca-file", c.endpoint.ssl_ca_file,
                   "https://: PEM CA bundle trusted on top of the system store")
      ->group("Endpoint");
  profile
      ->add_flag("--insecure", c.endpoint.insecure,
                 "https://: skip certificate and host-name verification")
      ->group("Endpoint");
  profile
      ->add_option("--unix-socket", c.endpoint.unix_socket,
                   "Connect to this Unix domain socket; --url still gives the Host header and path")
      ->group("Endpoint");
  profile
      ->add_option("--local-address", c.endpoint.local_addresses,
                   "Source IP addresses to spread connections over (comma list or repeated); each "
                   "address has its own ephemeral ports towards the server")
      ->delimiter(',')
      ->group("Endpoint");
  profile
      ->add_flag("--use-legacy-max-tokens", c.endpoint.use_legacy_max_tokens,
                 "chat: send max_tokens instead of max_completion_tokens")
      ->group("Endpoint");
  profile
      ->add_option("--wait-for-model-timeout", c.endpoint.wait_for_model_timeout_s,
                   "Seconds to keep polling until the server answers the preflight request (a "
                   "model still loading); 0 tries once")
      ->check(CLI::NonNegativeNumber)
      ->group("Endpoint");
  bool no_preflight = false;
  profile
      ->add_flag("--no-preflight", no_preflight,
                 "Skip the one request that proves the server answers before the run")
      ->group("Endpoint");
  profile
      ->add_flag("--use-server-token-count", c.endpoint.use_server_token_count,
                 "Token metrics from the server's usage")
      ->group("Endpoint");
  profile
      ->add_flag("--no-stream-usage", c.endpoint.no_stream_usage,
                 "Do not ask streaming chat/completions requests for usage "
                 "(stream_options.include_usage), for servers that reject the field")
      ->group("Endpoint");

  struct RankingFlag {
    const char* name;
    double* value;
    const char* help;
  };
  for (const RankingFlag& f :
       {RankingFlag{"--rankings-passages-mean", &c.input.rankings.passages_mean,
                    "rankings endpoints: passages per query, mean"},
        RankingFlag{"--rankings-passages-stddev", &c.input.rankings.passages_stddev,
                    "rankings endpoints: passages per query, standard deviation"},
        RankingFlag{"--rankings-passages-prompt-token-mean", &c.input.rankings.passage_tokens_mean,
                    "rankings endpoints: tokens per passage, mean"},
        RankingFlag{"--rankings-passages-prompt-token-stddev",
                    &c.input.rankings.passage_tokens_stddev,
                    "rankings endpoints: tokens per passage, standard deviation"},
        RankingFlag{"--rankings-query-prompt-token-mean", &c.input.rankings.query_tokens_mean,
                    "rankings endpoints: tokens per query, mean"},
        RankingFlag{"--rankings-query-prompt-token-stddev", &c.input.rankings.query_tokens_stddev,
                    "rankings endpoints: tokens per query, standard deviation"}}) {
    profile->add_option(f.name, *f.value, f.help)->check(CLI::NonNegativeNumber)->group("Input");
  }
  profile
      ->add_option("--extra-inputs", extra_inputs,
                   "key:value pairs or a JSON object merged into every body")
      ->group("Input");
  profile->add_option("-H,--header", headers, "Header:Value pairs or a JSON object")
      ->group("Input");
  profile->add_option("--random-seed", c.input.random_seed, "Seed for every random stream")
      ->group("Input");
  profile
      ->add_option("--synthetic-input-tokens-mean,--prompt-input-tokens-mean,--isl",
                   c.input.isl_mean, "Mean input sequence length (tokens; a comma list sweeps)")
      ->check(CLI::NonNegativeNumber)
      ->group("Input Sequence Length");
  profile
      ->add_option("--synthetic-input-tokens-stddev,--prompt-input-tokens-stddev,--isl-stddev",
                   c.input.isl_stddev, "Input sequence length standard deviation")
      ->check(CLI::NonNegativeNumber)
      ->group("Input Sequence Length");
  profile
      ->add_option("--output-tokens-mean,--prompt-output-tokens-mean,--osl", c.input.osl_mean,
                   "Mean output sequence length (max tokens requested; a comma list sweeps)")
      ->check(CLI::PositiveNumber)
      ->group("Output Sequence Length");
  profile
      ->add_option("--output-tokens-stddev,--prompt-output-tokens-stddev,--osl-stddev",
                   c.input.osl_stddev, "Output sequence length standard deviation")
      ->check(CLI::NonNegativeNumber)
      ->group("Output Sequence Length");
  profile
      ->add_option("-b,--prompt-batch-size,--batch-size-text,--batch-size",
                   c.input.prompt_batch_size, "Texts per turn")
      ->check(CLI::PositiveNumber)
      ->group("Prompt");
  profile
      ->add_option("--prompt-prefix-pool-size,--prefix-prompt-pool-size,--num-prefix-prompts",
                   c.input.prefix_pool_size,
                   "Number of prefix prompts; each first turn starts with one of them")
      ->check(CLI::NonNegativeNumber)
      ->group("Prefix Prompt");
  profile
      ->add_option("--prompt-prefix-length,--prefix-prompt-length", c.input.prefix_length,
                   "Tokens per prefix prompt")
      ->check(CLI::NonNegativeNumber)
      ->group("Prefix Prompt");
  profile
      ->add_option("--shared-system-prompt-length", c.input.shared_system_prompt_length,
                   "Tokens of one system prompt shared by every conversation")
      ->group("Prefix Prompt");
  profile
      ->add_option("--user-context-prompt-length", c.input.user_context_prompt_length,
                   "Tokens of a per-conversation user context prompt (needs --num-dataset-entries)")
      ->group("Prefix Prompt");
  profile
      ->add_option("--seq-dist,--sequence-distribution", c.input.sequence_distribution,
                   "ISL,OSL:P;ISL,OSL:P pairs (percent), optional |stddev per number, or JSON")
      ->group("Input Sequence Length");
  profile
      ->add_option("--conversation-turn-mean,--session-turns-mean", c.input.turn_mean,
                   "Mean turns per conversation")
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-stddev,--session-turns-stddev", c.input.turn_stddev,
                   "Turns per conversation standard deviation")
      ->check(CLI::NonNegativeNumber)
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-mean,--session-turn-delay-mean",
                   c.input.turn_delay_mean_ms, "Mean delay before each later turn, ms")
      ->check(CLI::NonNegativeNumber)
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-stddev,--session-turn-delay-stddev",
                   c.input.turn_delay_stddev_ms, "Turn delay standard deviation, ms")
      ->check(CLI::NonNegativeNumber)
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-ratio,--session-delay-ratio",
                   c.input.turn_delay_ratio, "Multiplies every sampled turn delay")
      ->check(CLI::NonNegativeNumber)
      ->group("Conversation Input");
  profile
      ->add_option("--connection-reuse-strategy", c.endpoint.connection_reuse,
                   "pooled (keep-alive, shared) | never (a connection per request) | "
                   "sticky-user-sessions (a connection per session)")
      ->check(CLI::IsMember({"pooled", "never", "sticky-user-sessions"}))
      ->group("Endpoint");
  profile
      ->add_option("--model-selection-strategy", c.endpoint.model_selection,
                   "Which of several -m models each turn targets: round_robin | random")
      ->check(CLI::IsMember({"round_robin", "random"}))
      ->group("Endpoint");
  profile
      ->add_option("--input-file", c.input.input_file,
                   "Dataset file or folder (see --custom-dataset-type) instead of synthetic "
                   "prompts")
      ->group("Input");
  profile
      ->add_option("--custom-dataset-type", c.input.custom_dataset_type,
                   "single_turn | multi_turn | random_pool | mooncake_trace | bailian_trace | "
                   "burst_gpt_trace | raw_payload | inputs_json | baseten_trace (JSONL) "
                   "(default: detected from the file)")
      ->check(CLI::IsMember({"single_turn", "multi_turn", "random_pool", "mooncake_trace",
                             "bailian_trace", "burst_gpt_trace", "raw_payload", "inputs_json",
                             "weka_trace", "baseten_trace"}))
      ->group("Input");
  profile
      ->add_option("--public-dataset", c.input.public_dataset,
                   "Public dataset to replay: sharegpt (ShareGPT_V3_unfiltered_cleaned_split.json "
                   "from --input-file, the cache .cache/aiperf/datasets/, or downloaded from the "
                   "Hugging Face Hub; needs a tokenizer)")
      ->check(CLI::IsMember({"sharegpt"}))
      ->group("Input");
  profile
      ->add_option(
          "--prompt-input-tokens-block-size,--synthetic-input-tokens-block-size,"
          "--isl-block-size",
          c.input.block_size,
          "Tokens per trace hash id (default: the format's, 512 mooncake, 16 bailian)")
      ->check(CLI::Range(1, 65536))
      ->group("Input Sequence Length");
  profile
      ->add_flag("--no-force-min-tokens", c.input.no_force_min_tokens,
                 "baseten_trace: do not send min_tokens = output_tokens")
      ->group("Input");
  profile
      ->add_flag("--omit-kv-hints", c.input.omit_kv_hints,
                 "baseten_trace: do not send the rows' hash_ids and block_size")
      ->group("Input");
  profile
      ->add_option("--synthesis-speedup-ratio", c.input.synthesis_speedup_ratio,
                   "Trace replay speed: timestamps and delays are divided by it")
      ->check(CLI::PositiveNumber)
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-prompt-len-multiplier", c.input.synthesis_prompt_len_multiplier,
                   "Scale every trace row's input_length")
      ->check(CLI::PositiveNumber)
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-max-isl", c.input.synthesis_max_isl,
                   "Drop trace rows whose input_length exceeds this")
      ->check(CLI::PositiveNumber)
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-max-osl", c.input.synthesis_max_osl,
                   "Cap every trace row's output_length at this")
      ->check(CLI::PositiveNumber)
      ->group("Synthesis");
  profile
      ->add_flag("--fixed-schedule", c.load.fixed_schedule,
                 "Send every first turn at its file timestamp (ms)")
      ->group("Input");
  profile
      ->add_flag("--fixed-schedule-auto-offset", c.load.fixed_schedule_auto_offset,
                 "Start the schedule at the first timestamp")
      ->group("Input");
  profile
      ->add_option("--fixed-schedule-start-offset", c.load.fixed_schedule_start_offset_ms,
                   "Skip entries before this timestamp (ms); the schedule starts here")
      ->group("Input");
  profile
      ->add_option("--fixed-schedule-end-offset", c.load.fixed_schedule_end_offset_ms,
                   "Skip entries after this timestamp (ms)")
      ->group("Input");
  profile
      ->add_flag("--no-fixed-schedule", c.load.no_fixed_schedule,
                 "Never switch to a fixed schedule automatically")
      ->group("Input");
  profile
      ->add_option("--dataset-sampling-strategy", c.input.sampling_strategy,
                   "sequential | random | shuffle (default)")
      ->check(CLI::IsMember({"sequential", "random", "shuffle"}))
      ->group("Input");
  profile
      ->add_option("--num-dataset-entries,--num-prompts", c.input.num_dataset_entries,
                   "Number of unique synthetic conversations")
      ->check(CLI::PositiveNumber)
      ->group("Conversation Input");

  profile
      ->add_option("--tokenizer", c.tokenizer.name,
                   "tokenizer.json / .model file or folder, Hugging Face id (from the local "
                   "cache), or builtin; "
                   "default: the model name")
      ->group("Tokenizer");
  profile
      ->add_option("--tokenizer-revision", c.tokenizer.revision,
                   "Hugging Face cache revision (default main)")
      ->group("Tokenizer");
  profile
      ->add_flag("--tokenizer-trust-remote-code", c.tokenizer.trust_remote_code,
                 "Accepted for compatibility; inferperf never executes tokenizer code")
      ->group("Tokenizer");

  profile
      ->add_option("--concurrency", c.load.concurrency,
                   "Concurrent sessions kept in flight (a comma list sweeps: 1,2,4,8)")
      ->group("Load Generator");
  profile
      ->add_option("--prefill-concurrency", c.load.prefill_concurrency,
                   "Requests without a first token yet (needs --streaming)")
      ->group("Load Generator");
  profile
      ->add_option(
          "--request-rate", c.load.request_rate,
          "Requests per second (open loop; --concurrency becomes a ceiling; a comma list sweeps)")
      ->group("Load Generator");
  profile
      ->add_option("--arrival-pattern,--request-rate-mode", c.load.arrival_pattern,
                   "constant | poisson (default with a rate) | gamma | concurrency_burst")
      ->check(CLI::IsMember({"constant", "poisson", "gamma", "concurrency_burst"}))
      ->group("Load Generator");
  profile
      ->add_option("--arrival-smoothness,--vllm-burstiness", c.load.smoothness,
                   "Gamma shape: 1 is Poisson, < 1 burstier, > 1 smoother (selects gamma)")
      ->group("Load Generator");
  profile
      ->add_option("--user-centric-rate", c.load.user_centric_rate,
                   "Requests per second spread over --num-users users, each sending its next "
                   "turn num_users/rate seconds after its previous one (KV-cache benchmarking)")
      ->group("Load Generator");
  profile->add_option("--num-users", c.load.num_users, "Simulated users for --user-centric-rate")
      ->group("Load Generator");
  profile
      ->add_option("--concurrency-ramp-duration", c.load.concurrency_ramp_s,
                   "Seconds to step concurrency up from 1")
      ->group("Load Generator");
  profile
      ->add_option("--prefill-concurrency-ramp-duration", c.load.prefill_ramp_s,
                   "Seconds to step prefill concurrency up from 1")
      ->group("Load Generator");
  profile
      ->add_option("--request-rate-ramp-duration", c.load.rate_ramp_s,
                   "Seconds to raise the request rate linearly to its target")
      ->group("Load Generator");
  profile->add_option("--request-count,--num-requests", c.load.request_count, "Requests to send")
      ->group("Load Generator");
  profile
      ->add_option("--num-sessions,--num-conversations,--conversation-num", c.load.num_sessions,
                   "Sessions to start (a stop condition)")
      ->group("Conversation Input");
  profile
      ->add_option("--request-cancellation-rate", c.load.cancellation_rate_pct,
                   "Percent of requests cancelled after --request-cancellation-delay")
      ->group("Load Generator");
  profile
      ->add_option("--request-cancellation-delay", c.load.cancellation_delay_s,
                   "Seconds after the request is written before it is cancelled")
      ->group("Load Generator");
  profile
      ->add_option("--warmup-request-count,--num-warmup-requests", c.load.warmup.request_count,
                   "Warmup requests (excluded from results)")
      ->group("Warmup");
  profile->add_option("--warmup-duration", c.load.warmup.duration_s, "Warmup seconds")
      ->group("Warmup");
  profile->add_option("--num-warmup-sessions", c.load.warmup.num_sessions, "Warmup sessions")
      ->group("Warmup");
  profile
      ->add_option("--warmup-concurrency", c.load.warmup.concurrency,
                   "Warmup concurrency (default: the profiling one)")
      ->group("Warmup");
  profile
      ->add_option("--warmup-prefill-concurrency", c.load.warmup.prefill_concurrency,
                   "Warmup prefill concurrency")
      ->group("Warmup");
  profile
      ->add_option("--warmup-request-rate", c.load.warmup.request_rate,
                   "Warmup request rate (default: the profiling one)")
      ->group("Warmup");
  profile
      ->add_option("--warmup-arrival-pattern", c.load.warmup.arrival_pattern,
                   "Warmup arrival pattern")
      ->check(CLI::IsMember({"constant", "poisson", "gamma", "concurrency_burst"}))
      ->group("Warmup");
  profile
      ->add_option("--warmup-grace-period", c.load.warmup.grace_period_s,
                   "Seconds to wait for warmup responses after --warmup-duration (default inf)")
      ->group("Warmup");
  profile
      ->add_flag("--no-warmup", c.load.no_warmup,
                 "Skip the warmup phase (repeated runs pass it to every run after the first)")
      ->group("Warmup");
  add_sweep_options(*profile);
  profile->add_option("--benchmark-duration", c.load.duration_s, "Seconds to keep issuing requests")
      ->group("Load Generator");
  profile
      ->add_option("--benchmark-grace-period", c.load.grace_period_s,
                   "Seconds to wait for in-flight responses after the duration or a first "
                   "SIGINT/SIGTERM")
      ->group("Load Generator");
  profile
      ->add_flag("--fail-on-incomplete-workload", c.load.fail_on_incomplete_workload,
                 "Exit 1 when any planned request is missing from the results (failed or never "
                 "sent); the run still exports everything")
      ->group("Load Generator");
  profile
      ->add_option("--failed-request-threshold", c.load.failed_request_threshold,
                   "Stop the run when failed requests exceed this fraction of finished ones "
                   "(0-1; checked once max(concurrency, 10) have finished)")
      ->group("Load Generator");
  profile->add_option("--workers-max,--max-workers", c.load.workers_max, "Cap on worker threads")
      ->check(CLI::PositiveNumber)
      ->group("Workers");

  std::string max_dataset_memory, max_response_bytes, max_sse_event_bytes;
  profile
      ->add_option("--max-dataset-memory", max_dataset_memory,
                   "Refuse a dataset whose estimated size (prompts, payloads, inputs.json) is "
                   "above this many bytes (K/M/G/T suffixes; default: half the physical memory)")
      ->group("Limits");
  profile
      ->add_option("--max-response-bytes", max_response_bytes,
                   "A response body longer than this is cut and counted as an error record "
                   "(K/M/G/T suffixes; default 256M)")
      ->group("Limits");
  profile
      ->add_option("--max-sse-event-bytes", max_sse_event_bytes,
                   "An SSE event longer than this ends the request as an error record (K/M/G/T "
                   "suffixes; default 16M)")
      ->group("Limits");

  profile
      ->add_option("--output-artifact-dir,--artifact-dir", c.output.artifact_dir, "Artifact folder")
      ->group("Output");
  profile
      ->add_option("--shard-count", c.shard.count,
                   "This run is one of N load generators of one benchmark (default: "
                   "$INFERPERF_SHARD_COUNT, else 1); `inferperf merge` joins their folders")
      ->group("Scale Out");
  profile
      ->add_option("--shard-index", c.shard.index,
                   "Which of the --shard-count shards this is, 0 to N-1 (default: "
                   "$JOB_COMPLETION_INDEX, a Kubernetes Indexed Job's)")
      ->group("Scale Out");
  profile
      ->add_option("--start-at", c.shard.start_at,
                   "Unix time in seconds (fractional) at which the first phase starts; give every "
                   "shard the same value")
      ->group("Scale Out");
  profile
      ->add_option("--profile-export-prefix,--profile-export-file", c.output.export_prefix,
                   "Name the export files <prefix>.json, <prefix>.csv, <prefix>.jsonl, "
                   "<prefix>_raw.jsonl, <prefix>_timeslices.* (inside the artifact folder)")
      ->group("Output");
  profile
      ->add_option(
          "--export-level,--profile-export-level", export_level,
          "summary | records (adds profile_export.jsonl) | raw (adds profile_export_raw.jsonl too)")
      ->check(CLI::IsMember({"summary", "records", "raw"}))
      ->group("Output");
  profile
      ->add_option("--slice-duration", c.output.slice_duration_s,
                   "Seconds per timeslice; also writes per-slice metrics "
                   "(profile_export_aiperf_timeslices.csv/.json)")
      ->group("Output");

  std::vector<std::string> gpu_items, server_items, server_formats;
  profile
      ->add_option("--gpu-telemetry", gpu_items,
                   "GPU telemetry: DCGM exporter URLs (host:port gets http:// and /metrics), "
                   "'nvml' (alias 'pynvml') for local NVML, 'dashboard', or a custom metrics .csv; "
                   "also prints the GPU summary. localhost:9400 and :9401 are always probed")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->group("Telemetry");
  profile->add_flag("--no-gpu-telemetry", c.telemetry.no_gpu, "Collect no GPU telemetry")
      ->group("Telemetry");
  profile
      ->add_option("--server-metrics", server_items,
                   "More Prometheus endpoints to scrape besides each --url's /metrics")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->group("Server Metrics");
  profile
      ->add_flag("--no-server-metrics", c.telemetry.no_server_metrics, "Scrape no server metrics")
      ->group("Server Metrics");
  profile
      ->add_option("--server-metrics-formats", server_formats,
                   "Server metrics files: json csv jsonl (default json csv)")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->group("Server Metrics");

  std::vector<std::string> goodput;
  profile
      ->add_option("--goodput", goodput,
                   "Service-level objectives 'tag:value ...' in display units (e.g. "
                   "time_to_first_token:200 inter_token_latency:20); adds goodput and "
                   "good_request_count")
      ->group("Metrics");
  profile
      ->add_flag("--show-trace-timing", c.metrics.show_trace_timing,
                 "Print the HTTP phase timing table (http_req_*) on the console")
      ->group("Metrics");
  profile
      ->add_flag("--export-http-trace", c.metrics.export_http_trace,
                 "Add each request's HTTP timestamps as trace_data to profile_export.jsonl")
      ->group("Metrics");
  profile
      ->add_flag("--cross-tool-metrics", c.metrics.cross_tool,
                 "Also compute vllm_tpot, vllm_itl, guidellm_tpot and ntpot (docs/metrics.md)")
      ->group("Metrics");
  profile
      ->add_option("--log-level", c.log_level,
                   "TRACE|DEBUG|INFO|NOTICE|WARNING|SUCCESS|ERROR|CRITICAL")
      ->check(CLI::IsMember(
          {"TRACE", "DEBUG", "INFO", "NOTICE", "WARNING", "SUCCESS", "ERROR", "CRITICAL"},
          CLI::ignore_case))
      ->group("Service");
  profile->add_flag("-v,--verbose", verbose, "DEBUG logging")->group("Service");
  profile->add_flag("--extra-verbose", extra_verbose, "TRACE logging (also -vv)")->group("Service");
  profile
      ->add_option(
          "--ui-type,--ui", ui,
          "dashboard | simple | none. Default: dashboard when stdout is a terminal, simple "
          "with -v/-vv, none when stdout is not a terminal")
      ->check(CLI::IsMember({"dashboard", "simple", "none"}))
      ->group("Service");
  for (std::size_t i = 0; i < kInternalFlags.size(); ++i) {
    profile->add_option(kInternalFlags[i], internal_values[i], "AIPerf internal tuning (ignored)")
        ->group("Ignored AIPerf internals");
  }

  // Reject AIPerf flags that inferperf does not implement before CLI11 reports them as unknown,
  // so the message names the flag and says why.
  std::vector<std::string> errors;
  for (const auto& a : args) {
    const std::string name = flag_name(a);
    for (const auto& u : kUnsupportedFlags) {
      if (name == u)
        errors.push_back("option " + u +
                         " is an AIPerf option that inferperf does not support yet");
    }
  }
  if (!errors.empty()) {
    outcome.exit_code = 2;
    for (const auto& e : errors) outcome.message += "error: " + e + "\n";
    return outcome;
  }

  std::vector<std::string> reversed(args.rbegin(), args.rend());
  // CLI11 cannot name a two-letter short flag; AIPerf's -vv means --extra-verbose.
  for (auto& a : reversed) {
    if (a == "-vv") a = "--extra-verbose";
  }
  try {
    app.parse(reversed);
  } catch (const CLI::CallForHelp&) {
    const auto parsed = app.get_subcommands();
    outcome.message = parsed.empty() ? app.help() : parsed.front()->help();
    return outcome;
  } catch (const CLI::CallForVersion&) {
    outcome.message = std::string("inferperf ") + kVersion + "\n";
    return outcome;
  } catch (const CLI::ParseError& e) {
    outcome.exit_code = 2;
    const std::string sub = analyze_trace->parsed() ? "analyze-trace" : "profile";
    outcome.message = std::string("error: ") + e.what() + "\nRun 'inferperf " + sub +
                      " --help' for the options.\n";
    return outcome;
  }

  if (analyze->parsed()) {
    outcome.action = CliOutcome::Action::kAnalyze;
    return outcome;
  }
  if (analyze_trace->parsed()) {
    std::string& file = outcome.analyze_trace.input_file;
    if (!file.empty() && !trace_positional.empty() && file != trace_positional) {
      outcome.exit_code = 2;
      outcome.message = "error: analyze-trace takes one trace: INPUT_FILE or --input-file\n";
    } else if (file.empty() && trace_positional.empty()) {
      outcome.exit_code = 2;
      outcome.message = "error: analyze-trace needs the trace: INPUT_FILE or --input-file\n";
    } else {
      if (file.empty()) file = trace_positional;
      outcome.action = CliOutcome::Action::kAnalyzeTrace;
    }
    return outcome;
  }
  for (const CLI::Option* opt : profile->get_options()) {
    // Keyed by the first long name, e.g. "--url" for "-u,--url".
    if (opt->count() > 0 && !opt->get_lnames().empty())
      c.set_options.insert("--" + opt->get_lnames().front());
  }
  c.endpoint.model_names = models;
  for (const auto& g : goodput) {
    if (!c.metrics.goodput.empty()) c.metrics.goodput += ' ';
    c.metrics.goodput += g;
  }
  c.endpoint.type = endpoint_type_from(endpoint_type).value_or(EndpointType::kChat);
  c.endpoint.preflight = !no_preflight;
  c.output.export_level = export_level == "summary" ? ExportLevel::kSummary
                          : export_level == "raw"   ? ExportLevel::kRaw
                                                    : ExportLevel::kRecords;
  c.output.artifact_dir_explicit = profile->count("--output-artifact-dir") > 0;
  for (auto& ch : c.log_level) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (verbose) c.log_level = "DEBUG";
  if (extra_verbose) c.log_level = "TRACE";
  c.verbose = verbose || extra_verbose;
  if (!ui.empty()) {
    parse_ui(ui, c.ui);
  } else {
    c.ui = UiType::kNone;  // chosen by the runner from the terminal when not given
    c.set_options.erase("--ui-type");
  }
  for (std::size_t i = 0; i < kInternalFlags.size(); ++i) {
    if (profile->count(kInternalFlags[i]) > 0) {
      c.warnings.push_back("option " + kInternalFlags[i] +
                           " tunes AIPerf internals that inferperf does not have; ignored");
    }
  }
  c.telemetry.gpu_flag_given = profile->count("--gpu-telemetry") > 0;
  if (c.telemetry.gpu_flag_given && c.telemetry.no_gpu)
    errors.push_back("--gpu-telemetry and --no-gpu-telemetry cannot be used together");
  for (const auto& item : split_items(gpu_items)) {
    std::string lower = item;
    for (auto& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (lower == "nvml" || lower == "pynvml") {
      c.telemetry.nvml = true;
    } else if (lower == "dashboard") {
      c.telemetry.dashboard = true;
    } else if (lower == "amdsmi") {
      errors.push_back(
          "--gpu-telemetry amdsmi: AMD GPUs are not supported yet (use nvml or "
          "DCGM exporter URLs)");
    } else if (lower.size() > 4 && lower.ends_with(".csv")) {
      if (!c.telemetry.custom_metrics_csv.empty())
        errors.push_back("--gpu-telemetry: only one custom metrics .csv file may be given");
      c.telemetry.custom_metrics_csv = item;
    } else {
      c.telemetry.dcgm_urls.push_back(item);
    }
  }
  if (c.telemetry.nvml && !c.telemetry.dcgm_urls.empty())
    errors.push_back("--gpu-telemetry: nvml cannot be combined with DCGM URLs");
  if (profile->count("--server-metrics") > 0 && c.telemetry.no_server_metrics)
    errors.push_back("--server-metrics and --no-server-metrics cannot be used together");
  c.telemetry.server_urls = split_items(server_items);
  if (!server_formats.empty()) {
    c.telemetry.server_formats.clear();
    for (const auto& f : split_items(server_formats)) {
      if (f == "parquet") {
        errors.push_back(
            "--server-metrics-formats parquet: inferperf has no Parquet writer (no Debian library "
            "writes Parquet); use json, csv or jsonl and convert, e.g. with pandas "
            "(pd.read_json(path, lines=True).to_parquet(...))");
      } else if (f != "json" && f != "csv" && f != "jsonl") {
        errors.push_back("--server-metrics-formats: unknown format '" + f + "' (json, csv, jsonl)");
      } else {
        c.telemetry.server_formats.push_back(f);
      }
    }
  }
  for (const auto& item : extra_inputs) {
    auto kv = parse_key_values(item, "--extra-inputs", true);
    if (!kv) {
      errors.push_back(kv.error().message);
      continue;
    }
    for (auto& p : *kv) c.input.extra.push_back(std::move(p));
  }
  for (const auto& item : headers) {
    auto kv = parse_key_values(item, "--header", false, true);
    if (!kv) {
      errors.push_back(kv.error().message);
      continue;
    }
    for (auto& [k, v] : *kv) {
      const std::string problem = header_problem(k, v.get<std::string>());
      if (!problem.empty()) {
        errors.push_back("--header: " + problem);
        continue;
      }
      c.input.headers.emplace_back(k, v.get<std::string>());
    }
  }
  // The key is sent in a header (Authorization: Bearer KEY or x-api-key: KEY).
  if (const std::string problem = header_problem("Authorization", c.endpoint.api_key);
      !problem.empty()) {
    errors.push_back("--api-key holds a line break or control character; refused");
  }

  const auto byte_limit = [&](const char* flag, const std::string& text, std::uint64_t& out,
                              std::uint64_t floor) {
    if (text.empty()) return;
    const auto bytes = core::parse_byte_size(text);
    if (!bytes || *bytes < floor) {
      errors.push_back(std::string(flag) + " must be a whole number of bytes, at least " +
                       core::format_byte_size(floor) +
                       ", optionally with a K, M, G or T suffix (got '" + core::excerpt(text) + "')");
      return;
    }
    out = *bytes;
  };
  byte_limit("--max-dataset-memory", max_dataset_memory, c.limits.max_dataset_memory, 1 << 20);
  byte_limit("--max-response-bytes", max_response_bytes, c.limits.max_response_bytes, 1 << 10);
  byte_limit("--max-sse-event-bytes", max_sse_event_bytes, c.limits.max_sse_event_bytes, 1 << 10);
  shard_from_environment(c, errors);
  auto more = validate_and_resolve(c);
  errors.insert(errors.end(), more.begin(), more.end());
  if (!errors.empty()) {
    outcome.exit_code = 2;
    for (const auto& e : errors) outcome.message += "error: " + e + "\n";
    return outcome;
  }
  c.cli_command = build_cli_command(args);
  outcome.action = CliOutcome::Action::kProfile;
  return outcome;
}

}  // namespace inferperf::config
