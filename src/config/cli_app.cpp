#include "config/cli_app.hpp"

#include "config/numeric_ranges.hpp"
#include "config/validate.hpp"
#include "core/version.hpp"

namespace inferperf::config {

const std::vector<std::string> kInternalFlags = {
    "--zmq-host",          "--zmq-ipc-path", "--record-processor-service-count",
    "--record-processors", "--api-port",     "--api-host"};

namespace {

// Sweeps and repeated runs are taken off the command line by sweep::extract_sweep_args before this
// parser runs; they are declared here so that --help lists them, and they never reach `c`.
void add_sweep_options(CLI::App& profile) {
  static std::string ignored;
  static bool ignored_flag = false;
  const char* group = "Sweeps and repeated runs";
  const std::vector<std::pair<const char*, const char*>> options = {
      {"--num-profile-runs",
       "Run every point N times into profile_runs/run_NNNN/ and "
       "write aggregate/ confidence statistics"},
      {"--profile-run-cooldown-seconds", "Seconds to wait between repeated runs (0)"},
      {"--confidence-level", "Confidence level of the cross-run intervals (0.95)"},
      {"--sweep-type", "grid (every combination of the comma lists, default) | zip (item by item)"},
      {"--sweep-cooldown-seconds", "Seconds to wait between sweep points (0)"},
  };
  // Kept as text (the sweep module reads them), but numbers: the range check knows them by this.
  for (const auto& [name, help] : options) {
    CLI::Option* opt = profile.add_option(name, ignored, help)->group(group);
    if (const NumericRange* r = find_numeric_range(name))
      opt->type_name(r->kind == NumberKind::kWhole ? "INT" : "FLOAT");
  }
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

// -m, -u, the endpoint type and the connection options.
void add_endpoint_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile->add_option("-m,--model-names,--model", t.models, "Model name(s); comma list or repeated")
      ->delimiter(',')
      ->group("Endpoint");
  profile
      ->add_option("--endpoint-type", t.endpoint_type,
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
                   "Total timeout per request, seconds")
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
      ->group("Endpoint");
  profile
      ->add_flag("--no-preflight", t.no_preflight,
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
}

// Rankings, extra inputs, headers, sequence lengths, prefixes and conversations.
void add_input_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
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
    profile->add_option(f.name, *f.value, f.help)->group("Input");
  }
  profile
      ->add_option("--extra-inputs", t.extra_inputs,
                   "key:value pairs or a JSON object merged into every body")
      ->group("Input");
  profile->add_option("-H,--header", t.headers, "Header:Value pairs or a JSON object")
      ->group("Input");
  profile->add_option("--random-seed", c.input.random_seed, "Seed for every random stream")
      ->group("Input");
  profile
      ->add_option("--synthetic-input-tokens-mean,--prompt-input-tokens-mean,--isl",
                   c.input.isl_mean, "Mean input sequence length (tokens; a comma list sweeps)")
      ->group("Input Sequence Length");
  profile
      ->add_option("--synthetic-input-tokens-stddev,--prompt-input-tokens-stddev,--isl-stddev",
                   c.input.isl_stddev, "Input sequence length standard deviation")
      ->group("Input Sequence Length");
  profile
      ->add_option("--output-tokens-mean,--prompt-output-tokens-mean,--osl", c.input.osl_mean,
                   "Mean output sequence length (max tokens requested; a comma list sweeps)")
      ->group("Output Sequence Length");
  profile
      ->add_option("--output-tokens-stddev,--prompt-output-tokens-stddev,--osl-stddev",
                   c.input.osl_stddev, "Output sequence length standard deviation")
      ->group("Output Sequence Length");
  profile
      ->add_option("-b,--prompt-batch-size,--batch-size-text,--batch-size",
                   c.input.prompt_batch_size, "Texts per turn")
      ->group("Prompt");
  profile
      ->add_option("--prompt-prefix-pool-size,--prefix-prompt-pool-size,--num-prefix-prompts",
                   c.input.prefix_pool_size,
                   "Number of prefix prompts; each first turn starts with one of them")
      ->group("Prefix Prompt");
  profile
      ->add_option("--prompt-prefix-length,--prefix-prompt-length", c.input.prefix_length,
                   "Tokens per prefix prompt")
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
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-mean,--session-turn-delay-mean",
                   c.input.turn_delay_mean_ms, "Mean delay before each later turn, ms")
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-stddev,--session-turn-delay-stddev",
                   c.input.turn_delay_stddev_ms, "Turn delay standard deviation, ms")
      ->group("Conversation Input");
  profile
      ->add_option("--conversation-turn-delay-ratio,--session-delay-ratio",
                   c.input.turn_delay_ratio, "Multiplies every sampled turn delay")
      ->group("Conversation Input");
}

// Files, public datasets, trace synthesis and sampling.
void add_dataset_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
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
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-prompt-len-multiplier", c.input.synthesis_prompt_len_multiplier,
                   "Scale every trace row's input_length")
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-max-isl", c.input.synthesis_max_isl,
                   "Drop trace rows whose input_length exceeds this")
      ->group("Synthesis");
  profile
      ->add_option("--synthesis-max-osl", c.input.synthesis_max_osl,
                   "Cap every trace row's output_length at this")
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
      ->group("Conversation Input");
}

// Tokenizer, load generator, warmup, sweeps and the run's length.
void add_load_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
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
      ->group("Workers");
}

// --max-*, artifacts, shards and timeslices.
void add_limits_and_output_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--max-dataset-memory", t.max_dataset_memory,
                   "Refuse a dataset whose estimated size (prompts, payloads, inputs.json) is "
                   "above this many bytes (default: half the physical memory)")
      ->type_name("BYTES")
      ->group("Limits");
  profile
      ->add_option("--max-response-bytes", t.max_response_bytes,
                   "A response body longer than this is cut and counted as an error record "
                   "(default 256M)")
      ->type_name("BYTES")
      ->group("Limits");
  profile
      ->add_option("--max-sse-event-bytes", t.max_sse_event_bytes,
                   "An SSE event longer than this ends the request as an error record (default "
                   "16M)")
      ->type_name("BYTES")
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
          "--export-level,--profile-export-level", t.export_level,
          "summary | records (adds profile_export.jsonl) | raw (adds profile_export_raw.jsonl too)")
      ->check(CLI::IsMember({"summary", "records", "raw"}))
      ->group("Output");
  profile
      ->add_option("--slice-duration", c.output.slice_duration_s,
                   "Seconds per timeslice; also writes per-slice metrics "
                   "(profile_export_aiperf_timeslices.csv/.json)")
      ->group("Output");
}

// Telemetry, server metrics, metrics, logging and the UI.
void add_telemetry_and_service_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile
      ->add_option("--gpu-telemetry", t.gpu_items,
                   "GPU telemetry: DCGM exporter URLs (host:port gets http:// and /metrics), "
                   "'nvml' (alias 'pynvml') for local NVML, 'dashboard', or a custom metrics .csv; "
                   "also prints the GPU summary. localhost:9400 and :9401 are always probed")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->group("Telemetry");
  profile->add_flag("--no-gpu-telemetry", c.telemetry.no_gpu, "Collect no GPU telemetry")
      ->group("Telemetry");
  profile
      ->add_option("--server-metrics", t.server_items,
                   "More Prometheus endpoints to scrape besides each --url's /metrics")
      ->expected(0, CLI::detail::expected_max_vector_size)
      ->group("Server Metrics");
  profile
      ->add_flag("--no-server-metrics", c.telemetry.no_server_metrics, "Scrape no server metrics")
      ->group("Server Metrics");
  profile
      ->add_option("--server-metrics-formats", t.server_formats,
                   "Server metrics files: json csv jsonl (default json csv)")
      ->expected(1, CLI::detail::expected_max_vector_size)
      ->group("Server Metrics");

  profile
      ->add_option("--goodput", t.goodput,
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
  profile->add_flag("-v,--verbose", t.verbose, "DEBUG logging")->group("Service");
  profile->add_flag("--extra-verbose", t.extra_verbose, "TRACE logging (also -vv)")
      ->group("Service");
  profile
      ->add_option(
          "--ui-type,--ui", t.ui,
          "dashboard | simple | none. Default: dashboard when stdout is a terminal, simple "
          "with -v/-vv, none when stdout is not a terminal")
      ->check(CLI::IsMember({"dashboard", "simple", "none"}))
      ->group("Service");
  for (std::size_t i = 0; i < kInternalFlags.size(); ++i) {
    profile->add_option(kInternalFlags[i], t.internal_values[i], "AIPerf internal tuning (ignored)")
        ->group("Ignored AIPerf internals");
  }
}

// Help texts end with the accepted range, taken from the same table the check uses.
void add_ranges_to_help(CLI::App& sub) {
  for (CLI::Option* opt : sub.get_options()) {
    if (opt->get_lnames().empty()) continue;
    if (const NumericRange* r = find_numeric_range("--" + opt->get_lnames().front()))
      opt->description(opt->get_description() + " [" + std::string(r->range) + "]");
  }
}

}  // namespace

bool is_numeric_type_name(const std::string& type_name) {
  return type_name == "INT" || type_name == "UINT" || type_name == "FLOAT" ||
         type_name == "NUMBER" || type_name == "BYTES";
}

CliApp build_cli_app(CliTargets& t) {
  CliApp out;
  out.app = std::make_unique<CLI::App>(
      "inferperf - native LLM inference benchmarking client (AIPerf-compatible)", "inferperf");
  CLI::App& app = *out.app;
  app.set_version_flag("--version", std::string("inferperf ") + kVersion);
  app.require_subcommand(1);
  CLI::App* profile = app.add_subcommand("profile", "Run a benchmark against an inference server");
  CLI::App* analyze = app.add_subcommand(
      "analyze", "Rebuild a run's reports from its artifact folder (records file and manifest)");
  analyze->add_option("artifact_dir", t.outcome.analyze_dir, "The run's artifact folder")
      ->required();
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
  analyze_trace->add_option("INPUT_FILE", t.trace_positional, "The trace (JSONL)");
  analyze_trace->add_option("--input-file", t.outcome.analyze_trace.input_file,
                            "The trace (JSONL), instead of INPUT_FILE");
  analyze_trace
      ->add_option("--block-size", t.outcome.analyze_trace.block_size,
                   "Tokens per hash_id block (only affects context lengths)")
      ->capture_default_str();
  analyze_trace->add_option("--output-file", t.outcome.analyze_trace.output_file,
                            "Also write the statistics as indented JSON to this file");
  add_endpoint_options(profile, t);
  add_input_options(profile, t);
  add_dataset_options(profile, t);
  add_load_options(profile, t);
  add_limits_and_output_options(profile, t);
  add_telemetry_and_service_options(profile, t);
  add_ranges_to_help(*profile);
  add_ranges_to_help(*analyze_trace);
  out.profile = profile;
  out.analyze = analyze;
  out.analyze_trace = analyze_trace;
  return out;
}

std::vector<CliOptionInfo> cli_options() {
  CliTargets t;
  const CliApp cli = build_cli_app(t);
  std::vector<CliOptionInfo> out;
  for (const CLI::App* sub : {cli.profile, cli.analyze_trace}) {
    for (const CLI::Option* opt : sub->get_options()) {
      if (opt->get_lnames().empty()) continue;  // positionals and -h
      CliOptionInfo info{sub->get_name(),
                         "--" + opt->get_lnames().front(),
                         {},
                         opt->get_type_name(),
                         is_numeric_type_name(opt->get_type_name())};
      for (const auto& l : opt->get_lnames()) info.names.push_back("--" + l);
      for (const auto& s : opt->get_snames()) info.names.push_back("-" + s);
      out.push_back(std::move(info));
    }
  }
  return out;
}

}  // namespace inferperf::config
