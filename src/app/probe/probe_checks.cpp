#include "app/probe/probe_checks.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>

#include "app/tokenizer_setup.hpp"
#include "core/uuid.hpp"
#include "endpoint/endpoint.hpp"

namespace inferperf::app {

namespace {

using Extra = std::vector<std::pair<std::string, nlohmann::json>>;
using config::EndpointType;

// A prompt a model answers in a word or two: an output that reaches the limit then proves that
// ignore_eos / min_tokens held the model past its end of sequence.
constexpr const char* kShortPrompt = "inferperf probe: reply with the single word OK.";
constexpr int kEndpointMaxTokens = 4;
constexpr int kStreamMaxTokens = 16;
constexpr int kForcedLength = 12;
constexpr int kCapLength = 5;
// A server closes a kept connection within milliseconds of the response when it does so by habit
// (llama.cpp: right after each stream); an idle timeout takes seconds.
constexpr std::chrono::milliseconds kCloseWait{100};

struct Ask {
  const endpoint::Endpoint* endpoint = nullptr;
  std::string model;
  std::string prompt = kShortPrompt;
  int max_tokens = kEndpointMaxTokens;
  bool streaming = false;
  bool include_usage = false;
  bool legacy = false;
  Extra extra;
};

// The body exactly as a profile run builds it, through the project's endpoint code.
std::string body_of(const Ask& a) {
  dataset::Turn t;
  t.text = a.prompt;
  t.max_tokens = a.max_tokens;
  endpoint::BodyOptions bo;
  bo.model = a.model;
  bo.streaming = a.streaming;
  bo.include_usage = a.include_usage;
  bo.use_legacy_max_tokens = a.legacy;
  bo.extra = &a.extra;
  return endpoint::build_request_body(*a.endpoint, {t}, bo)
      .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

ProbeReply send(ProbeSession& s, const transport::BaseUrl& url, const Ask& a) {
  const std::string path = endpoint::join_path(url.base_path, "", a.endpoint->path(a.streaming));
  return s.post(*a.endpoint, path, body_of(a), a.streaming);
}

bool client_error(const ProbeReply& r) {
  return r.sent && !r.transport_error && r.record.status >= 400 && r.record.status < 500;
}

// A server that only knows the older name says so in a 400 that names the new one.
bool refuses_max_completion_tokens(const ProbeReply& r) {
  return client_error(r) && r.body.find("max_completion_tokens") != std::string::npos;
}

std::vector<std::string> model_ids(const std::string& body) {
  std::vector<std::string> ids;
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object() || !j.contains("data") || !j["data"].is_array()) return ids;
  for (const auto& m : j["data"])
    if (m.is_object() && m.contains("id") && m["id"].is_string())
      ids.push_back(m["id"].get<std::string>());
  return ids;
}

// OpenAI / vLLM / SGLang: usage.prompt_tokens_details.cached_tokens (the endpoint decoders do not
// record it: read from the body).
std::optional<std::int64_t> usage_cached_tokens(const std::string& body) {
  const auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object()) return std::nullopt;
  const auto usage = j.find("usage");
  if (usage == j.end() || !usage->is_object()) return std::nullopt;
  const auto details = usage->find("prompt_tokens_details");
  if (details == usage->end() || !details->is_object()) return std::nullopt;
  const auto cached = details->find("cached_tokens");
  if (cached == details->end() || !cached->is_number_integer()) return std::nullopt;
  return cached->get<std::int64_t>();
}

class Prober {
 public:
  Prober(const ProbeOptions& o, ProbeSession& s, transport::BaseUrl url)
      : o_(o), s_(s), url_(std::move(url)) {}

  bool models(ProbeFindings& f, std::string& unreachable);
  void endpoints(ProbeFindings& f);
  void stream(ProbeFindings& f);
  void output_length(ProbeFindings& f);
  void prefix_cache(ProbeFindings& f);

 private:
  Ask ask(const ProbeFindings& f, EndpointType type) const {
    Ask a;
    a.endpoint = type == EndpointType::kChat ? &chat_ : &completions_;
    a.model = f.model;
    a.legacy = legacy_;
    return a;
  }
  void endpoint(ProbeFindings& f, EndpointType type, EndpointFinding& out);
  LengthFinding length(const ProbeFindings& f, int max_tokens, Extra extra, bool at_most);

  const ProbeOptions& o_;
  ProbeSession& s_;
  transport::BaseUrl url_;
  std::unique_ptr<endpoint::Endpoint> chat_owned_ = endpoint::make_endpoint(EndpointType::kChat);
  std::unique_ptr<endpoint::Endpoint> completions_owned_ =
      endpoint::make_endpoint(EndpointType::kCompletions);
  const endpoint::Endpoint& chat_ = *chat_owned_;
  const endpoint::Endpoint& completions_ = *completions_owned_;
  bool legacy_ = false;
};

bool Prober::models(ProbeFindings& f, std::string& unreachable) {
  const std::string path =
      url_.base_path.ends_with("/v1") ? url_.base_path + "/models" : url_.base_path + "/v1/models";
  const ProbeReply r = s_.get(path);
  if (r.transport_error) {
    unreachable = r.problem();
    return false;
  }
  f.models = model_ids(r.body);
  if (!transport::is_success_status(r.record.status))
    f.models_problem = r.problem();
  else if (f.models.empty())
    f.models_problem = "the answer lists no model (no data[].id)";
  f.model = !o_.model.empty() ? o_.model : f.models.empty() ? std::string() : f.models.front();
  return true;
}

void Prober::endpoint(ProbeFindings& f, EndpointType type, EndpointFinding& out) {
  Ask a = ask(f, type);
  out.tested = true;
  out.prompt = a.prompt;
  ProbeReply r = send(s_, url_, a);
  if (type == EndpointType::kChat && refuses_max_completion_tokens(r)) {
    a.legacy = true;
    ProbeReply legacy = send(s_, url_, a);
    if (legacy.ok()) {
      legacy_ = true;
      out.legacy_max_tokens = true;
      r = std::move(legacy);
    }
  }
  out.ok = r.ok();
  out.status = r.record.status;
  out.problem = r.problem();
  out.prompt_tokens = r.record.usage.prompt_tokens;
  if (out.ok && !f.closes_after_response)
    f.closes_after_response = s_.connection_closed_after(kCloseWait);
}

void Prober::endpoints(ProbeFindings& f) {
  if (!o_.endpoint || *o_.endpoint == EndpointType::kChat) endpoint(f, EndpointType::kChat, f.chat);
  if (!o_.endpoint || *o_.endpoint == EndpointType::kCompletions)
    endpoint(f, EndpointType::kCompletions, f.completions);
  if (f.chat.ok)
    f.served = EndpointType::kChat;
  else if (f.completions.ok)
    f.served = EndpointType::kCompletions;
}

void Prober::stream(ProbeFindings& f) {
  StreamFinding& out = f.streaming;
  Ask a = ask(f, *f.served);
  a.streaming = true;
  a.include_usage = true;
  a.max_tokens = kStreamMaxTokens;
  a.extra = {{"ignore_eos", true}};
  out.tested = true;
  ProbeReply r = send(s_, url_, a);
  if (client_error(r) && (r.record.status == 400 || r.record.status == 422)) {
    // Some servers refuse the stream_options field; a run then needs --no-stream-usage.
    a.include_usage = false;
    ProbeReply plain = send(s_, url_, a);
    if (plain.ok()) {
      out.stream_options_rejected = true;
      r = std::move(plain);
    }
  }
  out.ok = r.ok();
  out.status = r.record.status;
  out.problem = r.problem();
  out.content_events = static_cast<std::int64_t>(r.record.content_events.size());
  out.completion_tokens = r.record.usage.completion_tokens;
  out.usage = out.ok && r.record.usage.completion_tokens.has_value();
  out.timings = r.record.server_timings.has_value();
  if (out.usage && out.content_events > 0)
    out.tokens_per_event =
        static_cast<double>(*out.completion_tokens) / static_cast<double>(out.content_events);
  if (out.ok) {
    const std::optional<bool> closed = s_.connection_closed_after(kCloseWait);
    f.closes_after_stream =
        closed ? std::optional<bool>(*closed || s_.behaviour().closes_after_stream())
               : std::nullopt;
  }
}

LengthFinding Prober::length(const ProbeFindings& f, int max_tokens, Extra extra, bool at_most) {
  LengthFinding out;
  Ask a = ask(f, *f.served);
  a.max_tokens = max_tokens;
  a.extra = std::move(extra);
  const ProbeReply r = send(s_, url_, a);
  if (!r.ok()) {
    out.problem = r.problem();
    // A refused field (400, 422) is a clear "no"; anything else tells nothing.
    if (client_error(r)) out.honoured = false;
    return out;
  }
  out.completion_tokens = r.record.usage.completion_tokens;
  if (out.completion_tokens)
    out.honoured =
        at_most ? *out.completion_tokens <= max_tokens : *out.completion_tokens == max_tokens;
  return out;
}

void Prober::output_length(ProbeFindings& f) {
  f.ignore_eos = length(f, kForcedLength, {{"ignore_eos", true}}, false);
  f.min_tokens = length(f, kForcedLength, {{"min_tokens", kForcedLength}}, false);
  f.max_tokens = length(f, kCapLength, {}, true);
}

// ~300 tokens, begun by a fresh id so that no earlier request (this probe's or another's) shares
// a cached prefix with the first send.
std::string cache_prompt() {
  std::string p = "inferperf probe " + core::uuid4() + ": a prefix cache check.";
  for (int i = 0; i < 28; ++i) p += " The quick brown fox jumps over the lazy dog.";
  return p;
}

void Prober::prefix_cache(ProbeFindings& f) {
  Ask a = ask(f, *f.served);
  a.prompt = cache_prompt();
  f.cache_prompt = a.prompt;
  auto cached = [&f](const ProbeReply& r) -> std::optional<std::int64_t> {
    if (auto n = usage_cached_tokens(r.body)) {
      f.cache_source = "usage.prompt_tokens_details";
      return n;
    }
    if (r.record.server_timings) {
      // llama.cpp leaves cache_n out, or at 0, when nothing was reused.
      f.cache_source = "timings.cache_n";
      return r.record.server_timings->cached_tokens.value_or(0);
    }
    return std::nullopt;
  };
  const ProbeReply first = send(s_, url_, a);
  if (!first.ok()) {
    f.cache_problem = first.problem();
    return;
  }
  f.cache_prompt_tokens = first.record.usage.prompt_tokens;
  f.cached_first = cached(first);
  const ProbeReply repeat = send(s_, url_, a);
  if (!repeat.ok()) {
    f.cache_problem = repeat.problem();
    return;
  }
  f.cached_repeat = cached(repeat);
  // Servers that report no cache field at all when nothing was cached (llama.cpp without
  // cache_n, vLLM without details) still said it: the repeat found nothing.
  if (!f.cached_repeat && f.cache_source.empty()) f.cache_problem = "no cached-token field";
}

}  // namespace

std::optional<ProbeFindings> run_probe_requests(const ProbeOptions& o,
                                                const transport::BaseUrl& url,
                                                ProbeSession& session, std::string& unreachable) {
  ProbeFindings f;
  f.url = url.to_string();
  Prober p(o, session, url);
  if (!p.models(f, unreachable)) return std::nullopt;
  p.endpoints(f);
  if (f.served) {
    p.stream(f);
    p.output_length(f);
    p.prefix_cache(f);
  }
  f.connection_retries = session.behaviour().connection_retries();
  f.requests = session.requests();
  return f;
}

void measure_prompt_offsets(const ProbeOptions& o, ProbeFindings& f) {
  const bool any = f.chat.prompt_tokens || f.completions.prompt_tokens || f.cache_prompt_tokens;
  if (!any) return;  // nothing to compare with: no tokenizer is loaded (it can take seconds)
  config::RunConfig c;
  c.tokenizer.name = o.tokenizer.empty() ? (f.model.empty() ? "builtin" : f.model) : o.tokenizer;
  c.tokenizer.revision = o.tokenizer_revision;
  c.endpoint.model_names = {f.model.empty() ? c.tokenizer.name : f.model};
  auto loaded = load_run_tokenizer(c);
  if (!loaded) {
    // The first line names the problem; the rest (places looked at, fixes) is profile's to tell.
    std::string first = loaded.error().message;
    first = first.substr(0, first.find('\n'));
    if (first.ends_with(" Looked at:")) first.resize(first.size() - 11);
    f.tokenizer = first;
    return;
  }
  f.tokenizer = loaded->description;
  f.tokenizer_loaded = true;
  const tokenizer::Tokenizer& tok = *loaded->tokenizer;
  auto offset = [&tok](const std::optional<std::int64_t>& server, const std::string& prompt) {
    return server
               ? std::optional<std::int64_t>(*server - static_cast<std::int64_t>(tok.count(prompt)))
               : std::nullopt;
  };
  f.chat.offset = offset(f.chat.prompt_tokens, f.chat.prompt);
  f.completions.offset = offset(f.completions.prompt_tokens, f.completions.prompt);
  f.cache_offset = offset(f.cache_prompt_tokens, f.cache_prompt);
  // The same endpoint's offset for a short and a ~300-token prompt: equal when the client and the
  // server tokenize alike (the difference is then template tokens only).
  const EndpointFinding& served = f.served == EndpointType::kCompletions ? f.completions : f.chat;
  if (served.offset && f.cache_offset) f.offset_constant = *served.offset == *f.cache_offset;
}

std::vector<std::string> suggest_flags(const ProbeOptions& o, const ProbeFindings& f) {
  std::vector<std::string> flags;
  if (!f.model.empty()) flags.push_back("-m " + f.model);
  if (f.served)
    flags.push_back(std::string("--endpoint-type ") + endpoint::endpoint_info(*f.served).name);
  if (f.streaming.ok) flags.push_back("--streaming");
  if (f.ignore_eos.honoured.value_or(false))
    flags.push_back("--extra-inputs ignore_eos:true");
  else if (f.min_tokens.honoured.value_or(false))
    flags.push_back("--extra-inputs min_tokens:<OSL>");
  if (f.streaming.usage) flags.push_back("--use-server-token-count");
  if (f.streaming.stream_options_rejected) flags.push_back("--no-stream-usage");
  if (f.chat.legacy_max_tokens) flags.push_back("--use-legacy-max-tokens");
  if (f.offset_constant == false && !f.model.empty()) flags.push_back("--tokenizer " + f.model);
  const bool unauthorized = f.chat.status == 401 || f.completions.status == 401;
  if (unauthorized && o.api_key.empty()) flags.push_back("--api-key <KEY>");
  return flags;
}

}  // namespace inferperf::app
