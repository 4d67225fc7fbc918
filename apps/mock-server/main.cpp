// inferperf-mock-server: OpenAI-compatible streaming server for tests, demos and benchmarks.
#include <CLI/CLI.hpp>

#include <iostream>

#include "core/rlimit.hpp"
#include "core/version.hpp"
#include "server.hpp"

int main(int argc, char** argv) {
  inferperf::mock::MockOptions o;
  CLI::App app{"inferperf-mock-server - OpenAI-compatible mock inference server",
               "inferperf-mock-server"};
  app.set_version_flag("--version", std::string("inferperf-mock-server ") + inferperf::kVersion);
  bool verbose = false;
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
  app.add_option("--error-rate", o.error_rate, "Percent of requests answered HTTP 500")
      ->check(CLI::Range(0.0, 100.0))
      ->envname("MOCK_SERVER_ERROR_RATE");
  app.add_option("--random-seed", o.random_seed, "Seed for error injection")
      ->envname("MOCK_SERVER_RANDOM_SEED");
  app.add_option("--tokens-per-event", o.tokens_per_event, "Tokens carried by each streamed event")
      ->check(CLI::PositiveNumber)
      ->envname("MOCK_SERVER_TOKENS_PER_EVENT");
  app.add_option("--model-name", o.model_name, "Model id listed by /v1/models")
      ->envname("MOCK_SERVER_MODEL_NAME");
  app.add_flag("-v,--verbose", verbose, "Verbose logging")->envname("MOCK_SERVER_VERBOSE");
  app.add_flag("--access-logs", o.access_logs, "Print one line per request to stderr")
      ->envname("MOCK_SERVER_ACCESS_LOGS");
  app.add_option("--tls-cert", o.tls_cert, "PEM certificate chain: serve HTTPS")
      ->envname("MOCK_SERVER_TLS_CERT");
  app.add_option("--tls-key", o.tls_key, "PEM private key for --tls-cert")
      ->envname("MOCK_SERVER_TLS_KEY");
  app.add_option("--hub-dir", o.hub_dir,
                 "Serve GET /ORG/NAME/resolve/REV/FILE from DIR/ORG/NAME/FILE (Hub emulation)")
      ->envname("MOCK_SERVER_HUB_DIR");
  app.add_option("--hub-token", o.hub_token, "Require this bearer token for hub requests")
      ->envname("MOCK_SERVER_HUB_TOKEN");
  CLI11_PARSE(app, argc, argv);

  const auto fds = inferperf::core::raise_fd_limit();
  try {
    inferperf::mock::MockServer server(o);
    const auto port = server.bind();
    std::cout << "inferperf-mock-server listening on " << o.host << ":" << port << std::endl;
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
