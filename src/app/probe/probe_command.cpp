#include "app/probe/probe_command.hpp"

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include <chrono>
#include <iostream>

#include "app/exit_codes.hpp"
#include "app/probe/probe_checks.hpp"
#include "app/probe/probe_report.hpp"
#include "core/secrets.hpp"
#include "endpoint/endpoint.hpp"
#include "transport/connection.hpp"

#include "app/subcommand_words.hpp"

namespace inferperf::app {

namespace {

ProbeCommand usage_error(ProbeCommand cmd, const std::string& what) {
  cmd.exit_code = kExitBadConfig;
  cmd.message = usage_message("probe", what);
  return cmd;
}

// "K:V" (as profile's -H): the name up to the first ':', both sides trimmed.
bool parse_header(const std::string& text, std::pair<std::string, std::string>& out) {
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) return false;
  auto trim = [](std::string s) {
    const auto b = s.find_first_not_of(" \t");
    const auto e = s.find_last_not_of(" \t");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  out = {trim(text.substr(0, colon)), trim(text.substr(colon + 1))};
  return !out.first.empty();
}

core::Result<ProbeTransport> make_transport(const ProbeOptions& o) {
  ProbeTransport t;
  auto url = transport::parse_base_url(o.url);
  if (!url) return url.error();
  t.url = *url;
  if (t.url.scheme == "https") {
    transport::TransportOptions to;
    to.insecure = o.insecure;
    to.ssl_ca_file = o.ssl_ca_file;
    auto tls = transport::make_client_tls_context(to);
    if (!tls) return tls.error();
    t.tls = std::move(*tls);
  }
  t.unix_socket = o.unix_socket;
  t.headers = o.headers;
  for (auto& h : endpoint::protocol_headers(config::EndpointType::kChat, o.api_key, o.headers))
    t.headers.push_back(std::move(h));
  t.timeout_s = o.timeout_s;
  return t;
}

}  // namespace

ProbeCommand parse_probe_command(const std::vector<std::string>& args) {
  ProbeCommand cmd;
  ProbeOptions& o = cmd.options;
  CLI::App app(
      "Send a few small requests (at most 12, each with a timeout) and report how the server "
      "behaves and which inferperf flags fit it",
      "inferperf probe");
  app.add_option("URL", o.url, "The server's base URL, e.g. http://localhost:8000")
      ->required()
      ->type_name("");
  app.add_option("-m,--model", o.model, "Model to use (default: the first id of GET /v1/models)");
  std::string type;
  app.add_option("--endpoint-type", type,
                 "Probe only this endpoint: chat or completions (default: both, chat preferred)");
  app.add_option("--api-key", o.api_key, "Sent as Authorization: Bearer KEY");
  std::vector<std::string> headers;
  app.add_option("-H,--header", headers, "Extra request header K:V (repeatable)")
      ->allow_extra_args(false);
  app.add_option("--tokenizer", o.tokenizer,
                 "Tokenizer for the prompt token offset, resolved as by profile (default: the "
                 "model's)");
  app.add_option("--tokenizer-revision", o.tokenizer_revision, "Hugging Face revision");
  app.add_option("--timeout", o.timeout_s, "Seconds each request may take (default 10)");
  app.add_flag("--json", o.json, "Print one JSON object instead of the report");
  app.add_flag("--insecure", o.insecure, "https://: no certificate or host-name verification");
  app.add_option("--ssl-ca-file", o.ssl_ca_file, "https://: PEM CA bundle trusted as well");
  app.add_option("--unix-socket", o.unix_socket, "Connect to this Unix socket instead");
  if (auto stop = parse_subcommand_words(app, args, "probe")) {
    std::tie(cmd.exit_code, cmd.message) = *stop;
    return cmd;
  }
  if (!type.empty()) {
    o.endpoint = config::endpoint_type_from(type);
    if (o.endpoint != config::EndpointType::kChat &&
        o.endpoint != config::EndpointType::kCompletions)
      return usage_error(std::move(cmd),
                         "--endpoint-type: chat or completions, not '" + type + "'");
  }
  for (const auto& h : headers) {
    std::pair<std::string, std::string> kv;
    if (!parse_header(h, kv)) return usage_error(std::move(cmd), "-H " + h + ": not K:V");
    o.headers.push_back(std::move(kv));
  }
  if (!(o.timeout_s > 0 && o.timeout_s <= 3600))
    return usage_error(std::move(cmd), "--timeout: seconds, more than 0 and at most 3600");
  if (auto url = transport::parse_base_url(o.url); !url)
    return usage_error(std::move(cmd), core::redact_urls(url.error().message));
  cmd.run = true;
  return cmd;
}

int run_probe(const ProbeOptions& o) {
  const auto start = std::chrono::steady_clock::now();
  auto t = make_transport(o);
  if (!t) {
    std::cerr << "error: " << core::redact_urls(t.error().describe()) << "\n";
    return kExitBadConfig;
  }
  const transport::BaseUrl url = t->url;
  ProbeSession session(std::move(*t));
  std::string unreachable;
  auto f = run_probe_requests(o, url, session, unreachable);
  if (!f) {
    std::cerr << "error: cannot reach " << core::redact_urls(url.to_string())
              << (o.unix_socket.empty() ? "" : " (via " + o.unix_socket + ")") << ": "
              << core::redact_urls(unreachable) << "\n";
    return kExitRunFailed;
  }
  measure_prompt_offsets(o, *f);
  f->suggested_flags = suggest_flags(o, *f);
  f->seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  f->url = core::redact_urls(f->url);
  if (o.json)
    std::cout << probe_json(*f).dump(2, ' ', false, nlohmann::json::error_handler_t::replace)
              << "\n";
  else
    print_probe_report(std::cout, *f);
  std::cout.flush();
  return std::cout ? kExitOk : kExitRunFailed;
}

}  // namespace inferperf::app
