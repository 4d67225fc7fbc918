// The frozen configuration of one run: plain structs, defaults in member initialisers.
#pragma once
#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "config/endpoint_type.hpp"
#include "core/goodput_target.hpp"

namespace inferperf::config {

enum class ExportLevel { kSummary, kRecords, kRaw };
enum class UiType { kNone, kSimple, kDashboard };

const char* to_string(ExportLevel l);

// The enumerated options held as text before: each parsed once (from the spelling CLI11 has
// already checked), and turned back into exactly that spelling where it is written out.
enum class ModelSelection { kRoundRobin, kRandom };                   // --model-selection-strategy
enum class ConnectionReuse { kPooled, kNever, kStickyUserSessions };  // --connection-reuse-strategy
enum class UrlStrategy { kRoundRobin };                               // --url-strategy
enum class SamplingStrategy { kSequential, kRandom, kShuffle };       // --dataset-sampling-strategy
// --log-level (upper case; -v and -vv give DEBUG and TRACE).
enum class LogLevel { kTrace, kDebug, kInfo, kNotice, kWarning, kSuccess, kError, kCritical };
// --arrival-pattern / --warmup-arrival-pattern.
enum class ArrivalPattern { kConstant, kPoisson, kGamma, kConcurrencyBurst };

const char* to_string(ModelSelection v);
const char* to_string(ConnectionReuse v);
const char* to_string(UrlStrategy v);
const char* to_string(SamplingStrategy v);
const char* to_string(LogLevel v);
const char* to_string(ArrivalPattern v);
// The value of a spelling; nullopt for one the option does not accept (log levels: upper case).
std::optional<ModelSelection> model_selection_from(std::string_view name);
std::optional<ConnectionReuse> connection_reuse_from(std::string_view name);
std::optional<UrlStrategy> url_strategy_from(std::string_view name);
std::optional<SamplingStrategy> sampling_strategy_from(std::string_view name);
std::optional<LogLevel> log_level_from(std::string_view name);
std::optional<ArrivalPattern> arrival_pattern_from(std::string_view name);

struct EndpointConfig {
  std::vector<std::string> model_names;  // empty: discovered from GET /v1/models
  ModelSelection model_selection = ModelSelection::kRoundRobin;
  ConnectionReuse connection_reuse = ConnectionReuse::kPooled;
  EndpointType type = EndpointType::kChat;
  std::string custom_endpoint;
  bool streaming = false;
  std::vector<std::string> urls{"http://localhost:8000"};  // AIPerf 0.11's default
  UrlStrategy url_strategy = UrlStrategy::kRoundRobin;     // how sessions spread over --url
  std::string transport = "http";  // --transport: the only value accepted (AIPerf 0.11 flag)
  double request_timeout_s = 21600.0;
  std::string api_key;
  bool use_legacy_max_tokens = false;
  bool use_server_token_count = false;
  // --no-stream-usage: streaming requests do not carry stream_options.include_usage (asked on
  // every streaming run otherwise, as AIPerf 0.11, so server counts sit beside client counts).
  bool no_stream_usage = false;
  std::string ssl_ca_file;  // --ssl-ca-file: PEM CA bundle trusted on top of the system store
  bool insecure = false;    // --insecure: no TLS certificate or host-name verification
  std::string unix_socket;  // --unix-socket: connect here; the URL still gives Host and path
  // --local-address: source addresses the connections are spread over (empty: the kernel's
  // choice). One address has about 28,000 ephemeral ports towards one server address and port.
  std::vector<std::string> local_addresses;
  // Preflight: how long to poll until the server answers one request (0: one try).
  double wait_for_model_timeout_s = 0.0;
  bool preflight = true;  // --no-preflight skips the check
  // --session-header: the header each request's per-session correlation id goes under (AIPerf
  // 0.11, #945); X-Request-ID keeps its name.
  std::string session_header = "X-Correlation-ID";
  // --request-content-type (unset: the endpoint type's own, see requires_form_data) and
  // --download-video-content (video_generation: the finished video is fetched within the request).
  std::optional<RequestContentType> request_content_type;
  bool download_video_content = false;
};

// --rankings-*: the synthetic query-and-passages composer of the rankings endpoints. The defaults
// are AIPerf 0.11's RankingsConfig: 10 passages of 128 tokens and a 32-token query (0.6 sent one
// 550-token passage and a 550-token query).
struct RankingsConfig {
  double passages_mean = 10.0, passages_stddev = 0.0;
  double passage_tokens_mean = 128.0, passage_tokens_stddev = 0.0;
  double query_tokens_mean = 32.0, query_tokens_stddev = 0.0;
};

struct InputConfig {
  RankingsConfig rankings;
  // --extra-inputs, in the order given; values already type-coerced.
  std::vector<std::pair<std::string, nlohmann::json>> extra;
  std::vector<std::pair<std::string, std::string>> headers;
  int isl_mean = 550;
  double isl_stddev = 0.0;
  std::optional<int> osl_mean;  // unset: no max-tokens field is sent
  double osl_stddev = 0.0;
  std::optional<std::uint64_t> random_seed;
  int num_dataset_entries = 100;
  int prompt_batch_size = 1;
  int prefix_pool_size = 0;
  int prefix_length = 0;
  std::optional<int> shared_system_prompt_length;
  std::optional<int> user_context_prompt_length;
  std::string sequence_distribution;  // --seq-dist, parsed by the dataset module
  double turn_mean = 1.0;             // --conversation-turn-mean
  double turn_stddev = 0.0;
  double turn_delay_mean_ms = 0.0;  // --conversation-turn-delay-mean
  double turn_delay_stddev_ms = 0.0;
  double turn_delay_ratio = 1.0;
  // --dataset-sampling-strategy; resolved: shuffle for synthetic data, sequential for files and
  // public datasets.
  std::optional<SamplingStrategy> sampling_strategy;
  std::string input_file;           // --input-file (file or folder, any --custom-dataset-type)
  std::string custom_dataset_type;  // --custom-dataset-type ("" = inferred)
  std::optional<int> block_size;    // --prompt-input-tokens-block-size (hash-id blocks)
  // --synthesis-*: trace reshaping (trace datasets only).
  double synthesis_speedup_ratio = 1.0;
  double synthesis_prompt_len_multiplier = 1.0;
  std::optional<int> synthesis_max_isl;
  std::optional<int> synthesis_max_osl;
  bool no_force_min_tokens = false;  // baseten_trace: no min_tokens = output_length
  bool omit_kv_hints = false;        // baseten_trace: no hash_ids / block_size in bodies
  // --public-dataset ("" = none; "sharegpt"). With --input-file, that file is the dataset's JSON.
  std::string public_dataset;
  // --hf-subset: the Hugging Face subset (config) read instead of the dataset's default.
  std::optional<std::string> hf_subset;
  // --dataset-filter KEY=VALUE items, in the order given (keys unique; cli_public.cpp).
  std::vector<std::pair<std::string, std::string>> dataset_filters;
  // cli_dataset_types.cpp: the trace-synthesis multipliers AIPerf 0.11 added (trace datasets only)
  // and the cap on recorded per-turn delays (dag_jsonl, weka_trace; seconds, unset = none).
  double synthesis_prefix_len_multiplier = 1.0;
  int synthesis_prefix_root_multiplier = 1;
  double synthesis_output_len_multiplier = 1.0;
  std::optional<double> inter_turn_delay_cap_s;
};

// The load of one phase. Warmup fields fall back to the profiling values where unset.
struct PhaseLoad {
  std::optional<int> concurrency;
  std::optional<int> prefill_concurrency;
  std::optional<double> request_rate;
  std::optional<ArrivalPattern> arrival_pattern;  // unset until resolved
  std::optional<double> smoothness;               // --arrival-smoothness / --vllm-burstiness
  std::optional<std::int64_t> request_count;
  std::optional<std::int64_t> num_sessions;
  std::optional<double> duration_s;
  std::optional<double> grace_period_s;
  std::optional<double> concurrency_ramp_s;
  std::optional<double> prefill_ramp_s;
  std::optional<double> rate_ramp_s;
};

// The profiling phase's load (the PhaseLoad part: --concurrency, --request-rate,
// --benchmark-duration, ...; the pattern is resolved by validation, concurrency_burst without a
// rate; the grace period defaults to 30 s) and everything that applies to the whole run.
struct LoadConfig : PhaseLoad {
  std::optional<double> cancellation_rate_pct;
  std::optional<double> cancellation_delay_s;
  std::optional<int> workers_max;
  // --failed-request-threshold: stop when failed / finished exceeds this ratio (armed after
  // max(concurrency, 10) finished requests of the phase).
  std::optional<double> failed_request_threshold;
  // --fail-on-incomplete-workload: exit 1 when the workload_integrity block is not complete.
  bool fail_on_incomplete_workload = false;
  // --user-centric-rate / --num-users: simulated users with a fixed gap between their turns.
  std::optional<double> user_centric_rate;
  std::optional<int> num_users;
  // --fixed-schedule: replay the input file's first-turn timestamps.
  bool fixed_schedule = false;
  bool fixed_schedule_auto_offset = false;
  std::optional<double> fixed_schedule_start_offset_ms;
  std::optional<double> fixed_schedule_end_offset_ms;
  bool no_fixed_schedule = false;
  // Warmup: present when any warmup stop condition is given (resolved by validation).
  PhaseLoad warmup;
  bool warmup_enabled = false;
  // --no-warmup: skip the warmup phase whatever the --warmup-* options say (repeated runs give it
  // to every run after the first).
  bool no_warmup = false;
  // --adaptive-scale (AIPerf 0.11): the profiling phase's concurrency limit starts at 1 and is
  // raised while every --adaptive-scale-sla filter holds on each assessment window, then held at
  // the boundary for the sustain duration (timing/adaptive_scale.hpp).
  bool adaptive_scale = false;
  std::optional<double> adaptive_sustain_s;
  std::optional<double> adaptive_assessment_s;  // unset: kDefaultAdaptiveAssessmentS
  std::vector<std::string> adaptive_scale_sla;  // tag:stat:op:threshold, as typed
};

// The assessment window when --adaptive-assessment-period is not given.
inline constexpr double kDefaultAdaptiveAssessmentS = 5.0;

struct TokenizerConfig {
  std::string name;  // --tokenizer; empty means the model name
  std::string revision = "main";
  bool trust_remote_code = false;  // accepted for compatibility; nothing is ever executed
};

struct OutputConfig {
  std::string artifact_dir = "artifacts";
  bool artifact_dir_explicit = false;
  ExportLevel export_level = ExportLevel::kRecords;
  std::string export_prefix;               // --profile-export-prefix / --profile-export-file
  std::optional<double> slice_duration_s;  // --slice-duration: per-slice metrics exports
};

// What the analysis computes and shows besides the default catalogue.
struct MetricsConfig {
  std::string goodput;  // --goodput "tag:value ...", display units, as given
  // --goodput parsed (by resolve_defaults); the metrics module checks the tags.
  std::vector<core::GoodputTarget> goodput_targets;
  bool show_trace_timing = false;  // --show-trace-timing: the HTTP phase table on the console
  bool export_http_trace = false;  // --export-http-trace: trace_data in profile_export.jsonl
  bool cross_tool = false;         // --cross-tool-metrics: vLLM/GuideLLM/inference-perf metrics
};

// GPU telemetry and server metrics collection (docs/telemetry.md).
struct TelemetryConfig {
  bool gpu_flag_given = false;           // --gpu-telemetry present: print the console summary
  bool no_gpu = false;                   // --no-gpu-telemetry
  bool nvml = false;                     // --gpu-telemetry nvml | pynvml
  bool dashboard = false;                // --gpu-telemetry dashboard (live UI GPU panel)
  std::vector<std::string> dcgm_urls;    // --gpu-telemetry URLs
  std::string custom_metrics_csv;        // --gpu-telemetry FILE.csv
  bool no_server_metrics = false;        // --no-server-metrics
  std::vector<std::string> server_urls;  // --server-metrics URLs, besides each --url's /metrics
  std::vector<std::string> server_formats{"json", "csv"};  // --server-metrics-formats
};

// Live observability (docs/observability.md): the OTLP/HTTP metrics push (AIPerf 0.11 --otel-url
// and its options) and the client's own Prometheus endpoint (--prometheus-port, inferperf's own).
// --mlflow-*: the MLflow export after the run (observe/mlflow_export.hpp, docs/observability.md).
struct MlflowConfig {
  std::string tracking_uri;  // http(s)://host[:port][/path]; empty: no export
  std::string experiment = "aiperf";
  std::string run_name;                                   // empty: MLflow picks one
  std::vector<std::pair<std::string, std::string>> tags;  // --mlflow-tag, in order
  std::string parent_run_id;                              // tag mlflow.parentRunId
  std::vector<std::string> artifact_globs;                // empty: the defaults
  bool enabled() const { return !tracking_uri.empty(); }
};

struct ObservabilityConfig {
  std::string otel_url;        // normalised (scheme, /v1/metrics); empty: no push
  bool stream_metrics = true;  // --stream metrics: the gen_ai.client.* histograms
  bool stream_timing = true;   // --stream timing: the aiperf.timing.* counters and gauges
  std::vector<std::pair<std::string, std::string>> otel_resource_attributes;
  std::string gen_ai_provider;         // empty: "openai"
  std::optional<int> prometheus_port;  // 0: any free port
  std::string prometheus_host = "127.0.0.1";
  MlflowConfig mlflow;
  bool otel_enabled() const { return !otel_url.empty() && (stream_metrics || stream_timing); }
};

// --shard-index / --shard-count / --start-at: this process is one of `count` load generators of
// one benchmark (docs/scale-out.md). Every shard builds the same dataset from the same seed and
// sends a disjoint share of the load; `inferperf merge` joins their artifact folders.
struct ShardConfig {
  int index = 0;
  int count = 1;
  std::optional<double> start_at;  // Unix seconds: the first phase starts then, on every shard
  bool sharded() const { return count > 1; }
};

// --max-*: the ceilings that keep hostile input and hostile servers from exhausting the host
// (docs/limits.md). Sizes in bytes; 0 for max_dataset_memory means "half the physical memory".
struct LimitsConfig {
  std::uint64_t max_dataset_memory = 0;  // --max-dataset-memory: the dataset's estimated size
  std::uint64_t max_response_bytes = 256ull << 20;  // --max-response-bytes: one response body
  std::uint64_t max_sse_event_bytes = 16ull << 20;  // --max-sse-event-bytes: one SSE event
};

// --wait-for-model-mode / --wait-for-model-interval: how the readiness wait before the run
// probes each (URL, model) pair while --wait-for-model-timeout (EndpointConfig) lasts.
enum class ReadinessMode { kModels, kInference, kBoth };
const char* to_string(ReadinessMode v);
std::optional<ReadinessMode> readiness_mode_from(std::string_view name);
struct ReadinessConfig {
  ReadinessMode mode = ReadinessMode::kInference;
  double interval_s = 5.0;
};

// --network-latency-*: the network round trip taken off the latency metrics (AIPerf 0.11, #1066).
struct NetworkLatencyConfig {
  bool automatic = false;         // probe the TCP handshake time during profiling
  std::optional<double> mean_ms;  // a fixed round trip instead of probing
  double ping_interval_s = 1.0;   // between probes (automatic only)
  bool enabled() const { return automatic || mean_ms.has_value(); }
};

// --image-*: the pictures each synthetic turn carries (AIPerf 0.11 §1.13; resolve_media fills
// the implicit values: any typed image option brings 512x512 pictures, batch 1).
struct ImageInputConfig {
  int batch = 0;  // pictures per turn; 0 = none
  double width_mean = 512, width_stddev = 0, height_mean = 512, height_stddev = 0;
  std::string format = "jpeg";                       // png | jpeg | random (one pick per picture)
  std::string source = "noise";                      // noise | assets | a folder of pictures
  std::string sampling = "random-with-replacement";  // | shuffle-cycle | sequential-cycle
  bool enabled() const { return batch > 0 && width_mean > 0 && height_mean > 0; }
};

// --audio-*: the clips each synthetic turn carries (any typed audio option brings 10 s clips).
struct AudioInputConfig {
  int batch = 0;
  double length_mean = 10, length_stddev = 0;  // seconds
  std::string format = "wav";                  // wav | mp3
  std::vector<int> depths{16};                 // bits, one drawn per clip
  std::vector<int> sample_rates_hz{16000};     // one drawn per clip (typed in kHz, or Hz > 96)
  int channels = 1;
  bool enabled() const { return batch > 0 && length_mean > 0; }
};

// --video-*: the videos each synthetic turn carries, made only with a width and a height.
struct VideoInputConfig {
  int batch = 0;
  int width = 0, height = 0;
  int fps = 4;
  double duration_s = 1.0;
  std::string synth = "moving_shapes";  // | grid_clock | noise
  std::string format = "webm";          // | mp4
  std::string codec = "libvpx-vp9";     // an FFmpeg encoder
  int audio_channels = 0;               // noise track: 0 = none
  int audio_sample_rate_hz = 44100;
  std::string audio_codec;  // aac | libvorbis | libopus; "" = by container
  int audio_depth = 16;
  bool enabled() const { return batch > 0 && width > 0 && height > 0; }
};

struct MediaConfig {
  ImageInputConfig image;
  AudioInputConfig audio;
  VideoInputConfig video;
  bool any() const { return image.enabled() || audio.enabled() || video.enabled(); }
};

struct RunConfig {
  EndpointConfig endpoint;
  LimitsConfig limits;
  ShardConfig shard;
  InputConfig input;
  LoadConfig load;
  OutputConfig output;
  MetricsConfig metrics;
  TelemetryConfig telemetry;
  TokenizerConfig tokenizer;
  LogLevel log_level = LogLevel::kInfo;
  UiType ui = UiType::kNone;
  bool verbose = false;  // -v / -vv given (the default UI is then `simple`, so logs stay readable)
  std::string cli_command;            // reproduction line, "inferperf profile ..."
  std::set<std::string> set_options;  // long names of the options the user gave
  std::vector<std::string> warnings;  // notices produced while resolving defaults
  ReadinessConfig readiness;
  NetworkLatencyConfig network_latency;
  ObservabilityConfig observability;
  MediaConfig media;  // synthetic images, audio and video (cli_media.cpp)

  // Default 30 s; user-centric runs wait for every user's reply (docs/architecture.md, Credit
  // flow).
  double grace_period_s() const {
    return load.grace_period_s.value_or(load.user_centric_rate ? INFINITY : 30.0);
  }
};

}  // namespace inferperf::config
