// inferperf-mock-server settings (flags, each also readable from MOCK_SERVER_<NAME>).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace inferperf::mock {

struct MockOptions {
  std::string host = "127.0.0.1";
  int port = 8000;
  int workers = 1;  // threads serving connections
  double ttft_ms = 20.0;
  double itl_ms = 5.0;
  bool fast = false;  // all latencies 0
  // The capacity model (capacity.hpp): at most `slots` generations at once (0: no limit), the
  // first token later by prefill_ms_per_token per prompt token, each later token by
  // itl_ms_per_stream per other generation holding a slot.
  int slots = 0;
  double prefill_ms_per_token = 0.0;
  double itl_ms_per_stream = 0.0;
  double error_rate = 0.0;  // percent of inference requests answered 500
  // --fault-rate: percent of inference requests given one X-Mock-Fault kind drawn from
  // fault_kinds (a request's own header wins); the soak's mixed faults.
  double fault_rate = 0.0;
  std::vector<std::string> fault_kinds{"status=503", "reset",    "close",
                                       "malformed",  "truncate", "error-event"};
  // --close-after-response: every response says keep-alive, then the connection is closed.
  bool close_after_response = false;
  // --close-after-response-delay-ms: the same, this long after the response; a request the client
  // writes meanwhile is never read (it meets the close, as with llama.cpp's server).
  double close_after_response_delay_ms = -1;  // < 0: off
  // --close-only-after-streams: both of the above apply to streamed responses only (llama.cpp's
  // server keeps a connection after a non-streamed response).
  bool close_only_after_streams = false;
  std::optional<std::uint64_t> random_seed;
  int tokens_per_event = 1;
  std::string model_name = "mock-model";  // the id /v1/models lists
  bool access_logs = false;
  std::string tls_cert;  // PEM certificate chain; with tls_key, the server speaks HTTPS
  std::string tls_key;
  // When set, the server listens on this Unix domain socket instead of host:port (a stale socket
  // file is removed first).
  std::string unix_socket;
  // Hugging Face Hub emulation for tokenizer download tests: GET /ORG/NAME/resolve/REV/FILE serves
  // HUB_DIR/ORG/NAME/FILE with an X-Repo-Commit header; missing files are 404 EntryNotFound.
  std::string hub_dir;
  std::string hub_token;  // when set, hub requests need "Authorization: Bearer <token>"
  // Prompt tokenizer (--tokenizer, resolved as the client resolves it); empty with --no-tokenizer,
  // which selects the ~4-character chunker.
  std::string tokenizer = "builtin";
  std::string tokenizer_revision = "main";
  // Fake DCGM exporter pages /dcgmN/metrics (docs/mock-server.md, Fake DCGM exporter): GPU profile,
  // GPUs per node, whether the load follows the output-token rate (else the GPUs idle), the rate
  // that counts as full load at least, the rate's sliding window, the Hostname label and the noise
  // seed.
  std::string dcgm_gpu_name = "h200";
  int dcgm_num_gpus = 2;
  bool dcgm_auto_load = true;
  double dcgm_min_throughput = 100.0;  // tokens/s
  double dcgm_window_sec = 1.0;
  std::string dcgm_hostname = "localhost";
  std::optional<std::uint64_t> dcgm_seed;
  // llama.cpp-style "timings" in every chat/completions response (else per request with the
  // header X-Mock-Timings: 1).
  bool timings = false;
  // Fixed-latency routes: base + per-unit x units, ms (0 with --fast).
  double embedding_base_latency_ms = 10.0;
  double embedding_per_input_latency_ms = 2.0;
  double ranking_base_latency_ms = 10.0;
  double ranking_per_passage_latency_ms = 1.0;
  double image_retrieval_base_latency_ms = 10.0;
  double image_retrieval_per_image_latency_ms = 5.0;
  // Readiness and auth testing.
  double models_ready_delay_s = 0.0;     // GET /v1/models is 503 until this long after start
  bool disable_models_endpoint = false;  // GET /v1/models is 404
  double inference_ready_delay_s = 0.0;  // inference routes are 503 until this long after start
  std::string api_key;                   // when set, requests need it in auth_header_name
  std::string auth_header_name = "Authorization";
  bool strict_model = false;  // a request "model" other than model_name is 404
  // --token-log: append one JSONL line per streamed generation with the wall-clock ns of every
  // token event write (token_log.hpp); "" = off.
  std::string token_log;
  // --media-log: append one JSONL line per chat request that carried media, with what decoding
  // found in each item (media_check.hpp); "" = off.
  std::string media_log;
};

}  // namespace inferperf::mock
