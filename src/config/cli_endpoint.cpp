// The Endpoint options: model names, endpoint type, URLs and the connection.
#include "config/cli_areas.hpp"
#include "config/run_config.hpp"

namespace inferperf::config {

// -m, -u, the endpoint type and the connection options.
void add_endpoint_options(CLI::App* profile, CliTargets& t) {
  RunConfig& c = t.outcome.config;
  profile->add_option("-m,--model-names,--model", t.models, "Model name(s); comma list or repeated")
      ->delimiter(',')
      ->transform(trimmed_item())
      ->group("Endpoint");
  profile
      ->add_option("--endpoint-type", t.endpoint_type,
                   "chat | completions | embeddings | chat_embeddings | nim_embeddings | "
                   "nim_rankings | hf_tei_rankings | cohere_rankings | huggingface_generate | "
                   "image_generation | image_retrieval | video_generation | solido_rag | template "
                   "| responses | messages | image_edit | raw")
      ->transform(enum_choice(endpoint_type_names()))
      ->group("Endpoint");
  profile
      ->add_option("--custom-endpoint,--endpoint", c.endpoint.custom_endpoint, "URL path override")
      ->group("Endpoint");
  profile->add_flag("--streaming", c.endpoint.streaming, "Stream responses (SSE)")
      ->group("Endpoint");
  profile
      ->add_option("-u,--url", c.endpoint.urls,
                   "Server URL(s); http:// is assumed when an item has no scheme")
      ->delimiter(',')
      ->transform(url_item())
      ->group("Endpoint");
  profile
      ->add_option("--url-strategy", t.url_strategy,
                   "How sessions spread over several --url: round_robin (each new session takes "
                   "the next URL; its later turns keep it)")
      ->transform(enum_choice({"round_robin"}))
      ->group("Endpoint");
  profile
      ->add_option("--transport,--transport-type", c.endpoint.transport,
                   "http (the only transport inferperf has; AIPerf 0.11 accepts the flag)")
      ->transform(transport_choice())
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
      ->transform(trimmed_item())
      ->group("Endpoint");
  profile
      ->add_flag("--use-legacy-max-tokens", c.endpoint.use_legacy_max_tokens,
                 "chat: send max_tokens instead of max_completion_tokens")
      ->group("Endpoint");
  profile
      ->add_option("--wait-for-model-timeout", c.endpoint.wait_for_model_timeout_s,
                   "Seconds to wait before the run until every --url and model is ready "
                   "(--wait-for-model-mode), also retrying the preflight request; 0: no wait, the "
                   "preflight tries once")
      ->group("Endpoint");
  profile
      ->add_flag("--no-preflight", t.no_preflight,
                 "Skip the one request that proves the server answers before the run")
      ->group("Endpoint");
  profile
      ->add_option("--session-header", c.endpoint.session_header,
                   "Header name the per-session correlation id is sent under (default "
                   "X-Correlation-ID)")
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

}  // namespace inferperf::config
