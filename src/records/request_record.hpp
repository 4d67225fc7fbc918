// RequestRecord: the raw facts of one request, with monotonic timestamps. Metrics are computed
// from these afterwards, so they can be recomputed offline.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/clock.hpp"
#include "core/request_error.hpp"
#include "records/phase.hpp"

namespace inferperf::records {

// One SSE event (or whole non-streaming body) that carried content or reasoning text.
struct ContentEvent {
  core::MonoNs ts_ns = 0;
  std::uint32_t read_index = 0;  // which socket read delivered it; equal indices = coalesced
  std::string content;
  std::string reasoning;
};

// The server's token usage: the fields of the last response that carried a usage object.
struct UsageCounts {
  std::optional<std::int64_t> prompt_tokens;
  std::optional<std::int64_t> completion_tokens;
  std::optional<std::int64_t> total_tokens;
  std::optional<std::int64_t> reasoning_tokens;
  std::optional<std::int64_t> prompt_cache_read_tokens;
  std::optional<std::int64_t> prompt_cache_write_tokens;
  std::optional<std::int64_t> prompt_cache_miss_tokens;
  std::optional<std::int64_t> tool_use_prompt_tokens;
  std::optional<double> prompt_audio_seconds;
  std::optional<std::int64_t> prompt_audio_tokens;
  std::optional<std::int64_t> completion_audio_tokens;
  std::optional<std::int64_t> accepted_prediction_tokens;
  std::optional<std::int64_t> rejected_prediction_tokens;
};

// Per-request timings the server reported itself (llama.cpp's `timings`, ...), as decoded by
// endpoint/server_timings.hpp; `source` names the decoder.
struct ServerTimings {
  std::optional<double> prefill_ms;
  std::optional<double> decode_ms;
  std::optional<std::int64_t> prompt_tokens;
  std::optional<std::int64_t> predicted_tokens;
  std::optional<std::int64_t> cached_tokens;
  std::string source;
};

// Token counts from the client-side tokenizer, filled after the run (never on a worker thread).
struct ClientTokens {
  std::optional<std::int64_t> input;
  std::optional<std::int64_t> output;     // non-reasoning text
  std::optional<std::int64_t> reasoning;  // only when reasoning text was received
  // Tokens in each content event's own text (content + reasoning), in event order; empty when
  // not counted. Per-token ITL spreads each event's gap over these.
  std::vector<std::int64_t> per_event;
  // Some output count above was estimated from a sample (an output text over
  // tokenizer::kMaxExactCountBytes), not counted.
  bool output_estimated = false;
};

struct RawExchange;  // records/raw_exchange.hpp

struct ErrorInfo {
  std::optional<int> code;
  core::RequestErrorType type;  // exported as its AIPerf class name, type.name()
  std::string message;
};

struct RequestRecord {
  Phase phase = Phase::kProfiling;
  std::int64_t credit_num = 0;  // exported as session_num
  std::string x_request_id;
  std::string x_correlation_id;
  std::string conversation_id;
  int turn_index = 0;
  int worker_id = 0;

  core::MonoNs intended_ns = 0;  // when the schedule wanted the request sent
  core::MonoNs issued_ns = 0;    // when the credit was released to be sent (docs/glossary.md)
  core::MonoNs start_ns = 0;     // just before connection acquisition (AIPerf start_perf_ns)
  core::MonoNs connect_start_ns = 0;
  core::MonoNs connect_end_ns = 0;
  core::MonoNs tls_handshake_start_ns = 0;  // https:// on a new connection only, else 0
  core::MonoNs tls_handshake_end_ns = 0;
  core::MonoNs send_start_ns = 0;
  core::MonoNs send_end_ns = 0;
  core::MonoNs headers_ns = 0;
  core::MonoNs first_byte_ns = 0;
  core::MonoNs last_event_ns = 0;  // last raw response message of any kind ([DONE] included)
  core::MonoNs end_ns = 0;         // exchange finished (or failed)

  int status = 0;
  bool connection_reused = false;
  // 1 when the first send met a reused connection the server had just closed (no response byte)
  // and the request went again on a new connection; the timestamps are the second send's.
  std::uint32_t connection_retries = 0;
  std::int64_t bytes_sent = 0;
  std::int64_t bytes_received = 0;
  std::uint32_t reads = 0;
  std::uint32_t events = 0;  // SSE events (or bodies) received, all kinds

  std::vector<ContentEvent> content_events;
  UsageCounts usage;
  std::optional<ServerTimings> server_timings;  // the last timings the server sent, if any
  ClientTokens client_tokens;
  std::optional<int> requested_osl;
  std::string finish_reason;
  // Non-text results: images (generated or retrieved), embedding vectors, ranking results,
  // videos. Exported as num_images / num_outputs.
  std::int64_t outputs = 0;
  // Pictures the request's turn carried (chat image_url parts): num_images for image inputs.
  std::int64_t input_images = 0;
  std::optional<double> video_inference_time_s;  // server-reported (video_generation)
  std::optional<double> video_peak_memory_mb;
  std::optional<ErrorInfo> error;
  bool was_cancelled = false;
  // The request and response as sent and received; only with --export-level raw (profiling
  // phase), never written to inferperf_records.jsonl.
  std::shared_ptr<RawExchange> raw;
  // How many of `reads` carry the kernel's receive time (plain TCP); the rest carry the clock
  // read taken right after the read returned (TLS, Unix sockets). Written only when non-zero.
  std::uint32_t kernel_stamped_reads = 0;

  bool valid() const { return !error && !content_events.empty() && start_ns > 0; }
};

}  // namespace inferperf::records
