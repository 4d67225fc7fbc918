// inferperf-mock-server: OpenAI-compatible streaming server for tests, demos and benchmarks.
#include <CLI/CLI.hpp>

#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "core/rlimit.hpp"
#include "core/version.hpp"
#include "server.hpp"
#include "tokenizer/resolve.hpp"

namespace {

namespace mock = inferperf::mock;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

// What the command line sets: the server's options and the few choices main acts on itself.
struct MockCli {
  mock::MockOptions o;
  bool verbose = false;
  bool no_tokenizer = false;
  bool trust_remote_code = false;        // accepted, ignored
  CLI::Option* tokenizer_opt = nullptr;  // --tokenizer, to tell a named tokenizer from the default
};

// The option groups below are registered in --help order.

void add_serving_options(CLI::App& app, mock::MockOptions& o) {
  app.add_option("-p,--port", o.port, "TCP port (0 = any free port)")
      ->check(CLI::Range(0, 65535))
      ->envname("MOCK_SERVER_PORT");
  app.add_option("--host", o.host, "Bind address")->envname("MOCK_SERVER_HOST");
  app.add_option("-w,--workers", o.workers, "Serving threads")
      ->check(CLI::Range(1, 32))
      ->envname("MOCK_SERVER_WORKERS");
  app.add_option("-t,--ttft", o.ttft_ms, "Time to first token, ms")
      ->check(CLI::NonNegativeNumber)
      ->envname("MOCK_SERVER_TTFT");
  app.add_option("--itl", o.itl_ms, "Inter-token latency, ms")
      ->check(CLI::NonNegativeNumber)
      ->envname("MOCK_SERVER_ITL");
  app.add_flag("-f,--fast", o.fast, "All latencies 0")->envname("MOCK_SERVER_FAST");
}

// The capacity model (docs/mock-server.md, Capacity): a server whose latencies grow with load.
void add_capacity_options(CLI::App& app, mock::MockOptions& o) {
  app.add_option("--slots", o.slots,
                 "At most this many generations at once; the rest wait for a slot in arrival "
                 "order, the wait counting in their time to first token (0 = no limit)")
      ->check(CLI::Range(0, 1'000'000))
      ->envname("MOCK_SERVER_SLOTS");
  app.add_option("--prefill-ms-per-token", o.prefill_ms_per_token,
                 "Added to the time to first token per prompt token, ms")
      ->check(CLI::Range(0.0, 1000.0))
      ->envname("MOCK_SERVER_PREFILL_MS_PER_TOKEN");
  app.add_option("--itl-ms-per-stream", o.itl_ms_per_stream,
                 "Added to each inter-token gap per other generation holding a slot, ms")
      ->check(CLI::Range(0.0, 10000.0))
      ->envname("MOCK_SERVER_ITL_MS_PER_STREAM");
}

// Injected errors and faults, and connections closed under the client.
void add_fault_options(CLI::App& app, mock::MockOptions& o) {
  app.add_option("--error-rate", o.error_rate, "Percent of requests answered HTTP 500")
      ->check(CLI::Range(0.0, 100.0))
      ->envname("MOCK_SERVER_ERROR_RATE");
  app.add_option("--fault-rate", o.fault_rate,
                 "Percent of requests given a fault drawn from --fault-kinds")
      ->check(CLI::Range(0.0, 100.0))
      ->envname("MOCK_SERVER_FAULT_RATE");
  app.add_option("--fault-kinds", o.fault_kinds,
                 "X-Mock-Fault kinds --fault-rate draws from (comma list of KIND or KIND=N, "
                 "e.g. big-event=16777216 for a 16 MiB event)")
      ->delimiter(',')
      ->check(CLI::Validator(
          [](std::string& k) {
            return mock::valid_fault(k) ? std::string() : "unknown fault kind '" + k + "'";
          },
          "FAULT"))
      ->envname("MOCK_SERVER_FAULT_KINDS");
  app.add_flag("--close-after-response", o.close_after_response,
               "Close every connection after its response despite keep-alive")
      ->envname("MOCK_SERVER_CLOSE_AFTER_RESPONSE");
  app.add_option("--close-after-response-delay-ms", o.close_after_response_delay_ms,
                 "Close every connection this long after its response despite keep-alive, "
                 "leaving a request sent meanwhile unread")
      ->check(CLI::Range(0.0, 60000.0))
      ->envname("MOCK_SERVER_CLOSE_AFTER_RESPONSE_DELAY_MS");
  app.add_flag("--close-only-after-streams", o.close_only_after_streams,
               "The close-after-response flags apply to streamed responses only (as llama.cpp's "
               "server)")
      ->envname("MOCK_SERVER_CLOSE_ONLY_AFTER_STREAMS");
  app.add_option("--random-seed", o.random_seed, "Seed for error and fault injection")
      ->envname("MOCK_SERVER_RANDOM_SEED");
}

// What a stream carries, logging, and how the server is reached (TLS, Unix socket, Hub files).
void add_stream_and_transport_options(CLI::App& app, MockCli& cli) {
  mock::MockOptions& o = cli.o;
  app.add_option("--tokens-per-event", o.tokens_per_event, "Tokens carried by each streamed event")
      ->check(CLI::PositiveNumber)
      ->envname("MOCK_SERVER_TOKENS_PER_EVENT");
  app.add_option("--model-name", o.model_name, "Model id listed by /v1/models")
      ->envname("MOCK_SERVER_MODEL_NAME");
  app.add_flag("-v,--verbose", cli.verbose, "Verbose logging")->envname("MOCK_SERVER_VERBOSE");
  app.add_flag("--access-logs", o.access_logs, "Print one line per request to stderr")
      ->envname("MOCK_SERVER_ACCESS_LOGS");
  app.add_option("--tls-cert", o.tls_cert, "PEM certificate chain: serve HTTPS")
      ->envname("MOCK_SERVER_TLS_CERT");
  app.add_option("--tls-key", o.tls_key, "PEM private key for --tls-cert")
      ->envname("MOCK_SERVER_TLS_KEY");
  app.add_option("--unix-socket", o.unix_socket,
                 "Listen on this Unix domain socket instead of --host/--port")
      ->envname("MOCK_SERVER_UNIX_SOCKET");
  app.add_option("--hub-dir", o.hub_dir,
                 "Serve GET /ORG/NAME/resolve/REV/FILE from DIR/ORG/NAME/FILE (Hub emulation)")
      ->envname("MOCK_SERVER_HUB_DIR");
  app.add_option("--hub-token", o.hub_token, "Require this bearer token for hub requests")
      ->envname("MOCK_SERVER_HUB_TOKEN");
}

void add_dcgm_options(CLI::App& app, mock::MockOptions& o) {
  std::vector<std::string> gpu_names;
  for (const auto& p : mock::gpu_profiles()) gpu_names.emplace_back(p.key);
  app.add_option("--dcgm-gpu-name", o.dcgm_gpu_name, "Fake DCGM GPU profile")
      ->check(CLI::IsMember(gpu_names))
      ->envname("MOCK_SERVER_DCGM_GPU_NAME");
  app.add_option("--dcgm-num-gpus", o.dcgm_num_gpus, "GPUs per fake DCGM node (/dcgmN/metrics)")
      ->check(CLI::Range(1, 8))
      ->envname("MOCK_SERVER_DCGM_NUM_GPUS");
  app.add_flag("--dcgm-auto-load,!--no-dcgm-auto-load", o.dcgm_auto_load,
               "Fake GPU load follows the output-token rate (else the GPUs idle)")
      ->envname("MOCK_SERVER_DCGM_AUTO_LOAD");
  app.add_option("--dcgm-min-throughput", o.dcgm_min_throughput,
                 "Tokens/s that count as full load at least")
      ->check(CLI::PositiveNumber)
      ->envname("MOCK_SERVER_DCGM_MIN_THROUGHPUT");
  app.add_option("--dcgm-window-sec", o.dcgm_window_sec, "Sliding window of the token rate, s")
      ->check(CLI::PositiveNumber)
      ->envname("MOCK_SERVER_DCGM_WINDOW_SEC");
  app.add_option("--dcgm-hostname", o.dcgm_hostname, "Hostname label of the fake DCGM pages")
      ->envname("MOCK_SERVER_DCGM_HOSTNAME");
  app.add_option("--dcgm-seed", o.dcgm_seed, "Seed for the fake GPU readings' noise")
      ->envname("MOCK_SERVER_DCGM_SEED");
}

// Reported timings, the retrieval routes' latencies and the delays before routes become ready.
void add_timing_options(CLI::App& app, mock::MockOptions& o) {
  app.add_flag("--timings", o.timings,
               "llama.cpp-style timings in every chat/completions response "
               "(per request: header X-Mock-Timings: 1)")
      ->envname("MOCK_SERVER_TIMINGS");
  // The environment variable is the flag's name: --embedding-base-latency reads
  // MOCK_SERVER_EMBEDDING_BASE_LATENCY.
  const auto latency = [&](const char* name, double& field, const char* what) {
    std::string env_name = "MOCK_SERVER_";
    for (const char* c = name + 2; *c; ++c)
      env_name.push_back(*c == '-' ? '_' : static_cast<char>(std::toupper(*c)));
    app.add_option(name, field, what)->check(CLI::NonNegativeNumber)->envname(env_name);
  };
  latency("--embedding-base-latency", o.embedding_base_latency_ms, "Embeddings base latency, ms");
  latency("--embedding-per-input-latency", o.embedding_per_input_latency_ms,
          "Embeddings latency per input, ms");
  latency("--ranking-base-latency", o.ranking_base_latency_ms, "Rankings base latency, ms");
  latency("--ranking-per-passage-latency", o.ranking_per_passage_latency_ms,
          "Rankings latency per passage, ms");
  latency("--image-retrieval-base-latency", o.image_retrieval_base_latency_ms,
          "Image retrieval base latency, ms");
  latency("--image-retrieval-per-image-latency", o.image_retrieval_per_image_latency_ms,
          "Image retrieval latency per image, ms");
  latency("--models-ready-delay-seconds", o.models_ready_delay_s,
          "GET /v1/models answers 503 until this many seconds after start");
  latency("--inference-ready-delay-seconds", o.inference_ready_delay_s,
          "Inference routes answer 503 until this many seconds after start");
}

// Who may call the routes and for which model, the per-token log of what they streamed and the log
// of the media that chat requests carried.
void add_route_access_options(CLI::App& app, mock::MockOptions& o) {
  app.add_flag("--disable-models-endpoint", o.disable_models_endpoint, "GET /v1/models answers 404")
      ->envname("MOCK_SERVER_DISABLE_MODELS_ENDPOINT");
  // A server still loading its model, for the client's readiness wait (--wait-for-model-*).
  app.add_option_function<double>(
         "--ready-after",
         [&o](const double& s) {
           o.models_ready_delay_s = s;
           o.inference_ready_delay_s = s;
         },
         "Not ready for this many seconds after start: inference routes and GET /v1/models "
         "answer 503 (sets both --models-ready-delay-seconds and "
         "--inference-ready-delay-seconds)")
      ->check(CLI::NonNegativeNumber)
      ->envname("MOCK_SERVER_READY_AFTER");
  app.add_option("--api-key", o.api_key,
                 "Require this key on inference routes, /v1/models and /v1/videos (else 401)")
      ->envname("MOCK_SERVER_API_KEY");
  app.add_option("--auth-header-name", o.auth_header_name,
                 "Header carrying --api-key: 'Bearer KEY' for Authorization, else exactly KEY")
      ->envname("MOCK_SERVER_AUTH_HEADER_NAME");
  app.add_option("--token-log", o.token_log,
                 "Append one JSONL line per streamed generation: X-Request-ID, handler start and "
                 "the wall-clock ns of every token event write")
      ->envname("MOCK_SERVER_TOKEN_LOG");
  app.add_option("--media-log", o.media_log,
                 "Append one JSONL line per chat request carrying images, audio or video: what "
                 "decoding found in each item")
      ->envname("MOCK_SERVER_MEDIA_LOG");
  app.add_flag("--strict-model", o.strict_model,
               "Answer 404 (as vLLM) to requests whose model is not --model-name")
      ->envname("MOCK_SERVER_STRICT_MODEL");
}

void add_tokenizer_options(CLI::App& app, MockCli& cli) {
  cli.tokenizer_opt =
      app.add_option("--tokenizer", cli.o.tokenizer,
                     "Prompt tokenizer: builtin, a path or a Hugging Face cache name")
          ->envname("MOCK_SERVER_TOKENIZER");
  app.add_option("--tokenizer-revision", cli.o.tokenizer_revision, "Hugging Face revision")
      ->envname("MOCK_SERVER_TOKENIZER_REVISION");
  app.add_flag("--tokenizer-trust-remote-code", cli.trust_remote_code,
               "Accepted for compatibility; nothing is executed");
  app.add_flag("--no-tokenizer", cli.no_tokenizer, "Split prompts into ~4-character chunks instead")
      ->envname("MOCK_SERVER_NO_TOKENIZER");
}

// Resolved as the client resolves --tokenizer (local path, Hugging Face cache, builtin), without
// downloads. The builtin folder is looked for next to an installed binary and in the build tree.
inferperf::core::Result<std::unique_ptr<inferperf::tokenizer::Tokenizer>> load_mock_tokenizer(
    const mock::MockOptions& o) {
  namespace tk = inferperf::tokenizer;
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  tk::ResolveOptions ro;
  ro.name = o.tokenizer;
  ro.revision = o.tokenizer_revision;
  ro.builtin_dir = tk::builtin_dir_for(exe);
  if (!std::filesystem::exists(ro.builtin_dir))
    ro.builtin_dir = tk::builtin_dir_for(exe.parent_path());
  ro.hf_home = env("HF_HOME");
  ro.hf_hub_cache = env("HF_HUB_CACHE");
  ro.home = env("HOME");
  ro.xdg_cache_home = env("XDG_CACHE_HOME");
  ro.offline = true;
  auto resolved = tk::resolve_tokenizer(ro);
  if (!resolved) return resolved.error();
  return tk::load_tokenizer_file(resolved->file);
}

// The tokenizer prompts are counted with, warmed up; null for the 4-character chunker. An error
// only for a tokenizer the user named.
inferperf::core::Result<std::shared_ptr<const inferperf::tokenizer::Tokenizer>> serving_tokenizer(
    const MockCli& cli) {
  std::shared_ptr<const inferperf::tokenizer::Tokenizer> tokenizer;
  if (cli.no_tokenizer) return tokenizer;
  auto loaded = load_mock_tokenizer(cli.o);
  if (!loaded) {
    // The default falls back to the chunker (a build without the builtin vocabulary still
    // serves); a tokenizer the user named must load.
    if (cli.tokenizer_opt->count() > 0 || cli.o.tokenizer != "builtin") return loaded.error();
    std::cerr << "inferperf-mock-server: builtin tokenizer not found, using 4-character chunks\n";
    return tokenizer;
  }
  // Warm up before announcing the port: the first decode builds the per-id byte table and the
  // first encodes fill the word cache, which would otherwise land on the first requests' TTFT.
  const auto ids = (*loaded)->encode("Warm up the mock server's tokenizer before serving.");
  (*loaded)->decode(ids);
  tokenizer = std::move(*loaded);
  return tokenizer;
}

// Binds, announces where it listens (the line tests and scripts wait for), and serves until
// stopped.
int serve(const mock::MockOptions& o,
          const std::shared_ptr<const inferperf::tokenizer::Tokenizer>& tokenizer, bool verbose) {
  const auto fds = inferperf::core::raise_fd_limit();
  try {
    mock::MockServer server(o, tokenizer);
    const auto port = server.bind();
    if (!o.unix_socket.empty()) {
      std::cout << "inferperf-mock-server listening on unix:" << o.unix_socket << std::endl;
    } else {
      std::cout << "inferperf-mock-server listening on " << o.host << ":" << port << std::endl;
    }
    if (verbose) {
      std::cerr << "ttft " << o.ttft_ms << " ms, itl " << o.itl_ms << " ms, workers " << o.workers
                << ", open-file limit " << fds.soft << "\n";
    }
    server.run();
  } catch (const std::exception& e) {
    std::cerr << "inferperf-mock-server: " << e.what() << "\n";
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  MockCli cli;
  CLI::App app{"inferperf-mock-server - OpenAI-compatible mock inference server",
               "inferperf-mock-server"};
  app.set_version_flag("--version", std::string("inferperf-mock-server ") + inferperf::kVersion);
  add_serving_options(app, cli.o);
  add_capacity_options(app, cli.o);
  add_fault_options(app, cli.o);
  add_stream_and_transport_options(app, cli);
  add_dcgm_options(app, cli.o);
  add_timing_options(app, cli.o);
  add_route_access_options(app, cli.o);
  add_tokenizer_options(app, cli);
  CLI11_PARSE(app, argc, argv);

  auto tokenizer = serving_tokenizer(cli);
  if (!tokenizer) {
    std::cerr << "inferperf-mock-server: " << tokenizer.error().describe() << "\n";
    return 2;
  }
  return serve(cli.o, *tokenizer, cli.verbose);
}
