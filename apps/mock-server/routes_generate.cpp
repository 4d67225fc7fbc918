// Hugging Face TGI (/generate, /generate_stream) and SOLIDO RAG (/rag/api/prompt): other request
// shapes for the chat/completions generator.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "routes.hpp"

namespace inferperf::mock {

namespace {
using nlohmann::json;

std::optional<RouteError> positive_int(const json& j, const char* key,
                                       std::optional<std::int64_t>& out) {
  const auto it = j.find(key);
  if (it == j.end() || it->is_null()) return std::nullopt;
  if (!it->is_number_integer() || it->get<std::int64_t>() < 1)
    return route_error(422, fmt::format("'{}' must be a positive integer", key));
  out = it->get<std::int64_t>();
  return std::nullopt;
}
}  // namespace

std::optional<RouteError> parse_tgi_request(std::string_view body, GenerationRequest& out) {
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return route_error(400, "request body is not a JSON object");
  const auto in = j.find("inputs");
  if (in == j.end() || !in->is_string()) return route_error(422, "'inputs' must be a string");
  out.chat = false;
  out.prompt_text = in->get<std::string>();
  if (auto m = j.find("model"); m != j.end() && m->is_string()) out.model = m->get<std::string>();
  if (auto p = j.find("parameters"); p != j.end() && !p->is_null()) {
    if (!p->is_object()) return route_error(422, "'parameters' must be an object");
    if (auto e = positive_int(*p, "max_new_tokens", out.max_tokens)) return e;
  }
  return std::nullopt;
}

std::int64_t tgi_token_id(std::string_view text) {
  return static_cast<std::int64_t>(fnv1a(text) % 32000);
}

std::string tgi_finish_reason(std::string_view chat_finish) {
  return chat_finish == "length" ? "length" : "eos_token";
}

std::string tgi_stream_event(std::size_t index, std::string_view text, bool last,
                             std::string_view generated_text, std::string_view finish_reason,
                             std::size_t generated_tokens) {
  const std::string tail =
      last
          ? fmt::format(
                R"("generated_text":"{}","details":{{"finish_reason":"{}","generated_tokens":{},"seed":null}})",
                json_escape(generated_text), finish_reason, generated_tokens)
          : std::string(R"("generated_text":null,"details":null)");
  return fmt::format(
      R"({{"index":{},"token":{{"id":{},"text":"{}","logprob":-0.1,"special":false}},{}}})", index,
      tgi_token_id(text), json_escape(text), tail);
}

std::optional<RouteError> parse_rag_request(std::string_view body, GenerationRequest& out) {
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return route_error(400, "request body is not a JSON object");
  const auto q = j.find("query");
  if (q == j.end()) return route_error(422, "'query' is required");
  out.chat = true;
  if (q->is_string()) {
    out.prompt_text = q->get<std::string>();
  } else if (q->is_array()) {
    for (const auto& s : *q) {
      if (!s.is_string()) return route_error(422, "'query' must be a list of strings");
      if (!out.prompt_text.empty()) out.prompt_text.push_back(' ');
      out.prompt_text += s.get<std::string>();
    }
  } else {
    return route_error(422, "'query' must be a list of strings");
  }
  if (auto f = j.find("filters"); f != j.end() && !f->is_null() && !f->is_object())
    return route_error(422, "'filters' must be an object");
  for (const char* key : {"inference_model", "model"}) {
    if (auto m = j.find(key); m != j.end() && m->is_string()) {
      out.model = m->get<std::string>();
      break;
    }
  }
  if (auto s = j.find("stream"); s != j.end()) {
    if (!s->is_boolean()) return route_error(422, "'stream' must be a boolean");
    out.stream = s->get<bool>();
  }
  if (auto so = j.find("stream_options"); so != j.end() && so->is_object()) {
    out.include_usage = so->value("include_usage", false);
  }
  if (auto e = positive_int(j, "max_tokens", out.max_tokens)) return e;
  return std::nullopt;
}

}  // namespace inferperf::mock
