#include "endpoint/openai_common.hpp"

#include <algorithm>

#include "endpoint/decode_util.hpp"
#include "endpoint/server_timings.hpp"

namespace inferperf::endpoint {

void merge_extra(nlohmann::ordered_json& body, const BodyOptions& o) {
  if (o.extra) {
    for (const auto& [k, v] : *o.extra) body[k] = v;
  }
}

void finish_body(nlohmann::ordered_json& body, const BodyOptions& o) {
  if (o.streaming && o.include_usage) body["stream_options"] = {{"include_usage", true}};
  merge_extra(body, o);
}

std::string model_of(const std::vector<dataset::Turn>& history, const BodyOptions& o) {
  return history.empty() || history.back().model.empty() ? o.model : history.back().model;
}

std::vector<std::string> texts_of(const dataset::Turn& t) {
  std::vector<std::string> out;
  if (!t.text.empty() || t.more_texts.empty()) out.push_back(t.text);
  for (const auto& more : t.more_texts) out.push_back(more);
  return out;
}

std::vector<std::string> all_texts(const std::vector<dataset::Turn>& history) {
  std::vector<std::string> out;
  for (const auto& t : history) {
    for (auto& s : texts_of(t)) out.push_back(std::move(s));
  }
  return out;
}

std::optional<std::string> error_message_of(const simdjson::dom::object& obj) {
  simdjson::dom::element err;
  if (obj["error"].get(err) == simdjson::SUCCESS && !err.is_null()) {
    std::string_view m = string_or_empty(err, "message");
    if (!m.empty()) return std::string(m);
    // An empty string is reported as written ("") rather than as an empty message.
    std::string_view s;
    if (err.get_string().get(s) == simdjson::SUCCESS && !s.empty()) return std::string(s);
    return std::string(simdjson::to_string(err));
  }
  simdjson::dom::element detail;
  if (obj["detail"].get(detail) == simdjson::SUCCESS && !detail.is_null()) {
    std::string_view s;
    if (detail.get_string().get(s) == simdjson::SUCCESS && !s.empty()) return std::string(s);
    return std::string(simdjson::to_string(detail));
  }
  return std::nullopt;
}

bool read_choices_head(std::string_view payload, std::initializer_list<std::string_view> objects,
                       std::string_view what, simdjson::dom::parser& parser,
                       std::string_view& object, simdjson::dom::element& choice,
                       DecodedEvent& out) {
  simdjson::dom::object obj;
  if (!parse_object(payload, parser, obj, out)) return false;
  object = string_or_empty(obj, "object");
  if (std::find(objects.begin(), objects.end(), object) == objects.end()) {
    if (auto e = error_message_of(obj)) {
      out = error_event(*e);
    } else {
      out = error_event("unexpected " + std::string(what) + " response object '" +
                        std::string(object) + "'");
    }
    return false;
  }
  out.kind = DecodedEvent::Kind::kData;
  read_usage(obj, out);
  out.server_timings = decode_server_timings(obj);
  simdjson::dom::array choices;
  if (obj["choices"].get_array().get(choices) != simdjson::SUCCESS || choices.size() == 0) {
    return false;
  }
  choice = choices.at(0);
  return true;
}

DecodedEvent error_event(std::string message) {
  DecodedEvent e;
  e.kind = DecodedEvent::Kind::kError;
  e.error_message = std::move(message);
  return e;
}

bool data_list_of(const simdjson::dom::object& obj, std::string_view what,
                  simdjson::dom::array& data, DecodedEvent& out) {
  if (obj["data"].get_array().get(data) == simdjson::SUCCESS) return true;
  if (auto e = error_message_of(obj)) {
    out = error_event(*e);
  } else {
    out = error_event(std::string(what) + " response without a 'data' list");
  }
  return false;
}

DecodedEvent decode_image_data(const simdjson::dom::object& obj, std::string_view what) {
  DecodedEvent out;
  simdjson::dom::array data;
  if (!data_list_of(obj, what, data, out)) return out;
  for (simdjson::dom::element item : data) {
    if (!string_or_empty(item, "b64_json").empty() || !string_or_empty(item, "url").empty())
      ++out.outputs;
  }
  out.kind = DecodedEvent::Kind::kData;
  read_usage(obj, out);
  return out;
}

nlohmann::ordered_json build_request_body(const Endpoint& endpoint,
                                          const std::vector<dataset::Turn>& history,
                                          const BodyOptions& o) {
  const dataset::Turn& last = history.back();
  nlohmann::ordered_json body;
  if (last.payload) {
    body = *last.payload;
    if (last.max_tokens && body.is_object()) {
      // The payload's own max-tokens key gets the row's output length; otherwise the endpoint's.
      set_output_limit(body, endpoint.info().type, o.use_legacy_max_tokens, *last.max_tokens,
                       false);
    }
  } else {
    body = endpoint.build_body(history, o);
  }
  if (last.extra && body.is_object()) {
    for (const auto& [k, v] : last.extra->items()) body[k] = v;
  }
  return body;
}

bool set_output_limit(nlohmann::ordered_json& body, config::EndpointType type, bool legacy, int n,
                      bool cap) {
  using config::EndpointType;
  if (!body.is_object()) return false;
  auto put = [&](nlohmann::ordered_json& obj, const char* key) {
    auto it = obj.find(key);
    if (it != obj.end() && cap && it->is_number_integer() && it->get<std::int64_t>() <= n) return;
    obj[key] = n;
  };
  for (const char* key : {"max_tokens", "max_completion_tokens", "max_output_tokens"}) {
    if (body.contains(key)) {
      put(body, key);
      return true;
    }
  }
  if (auto p = body.find("parameters"); p != body.end() && p->is_object()) {
    put(*p, "max_new_tokens");
    return true;
  }
  switch (type) {
    case EndpointType::kChat:
      put(body, legacy || body.contains("prompt") ? "max_tokens" : "max_completion_tokens");
      return true;
    case EndpointType::kCompletions:
    case EndpointType::kMessages:
      put(body, "max_tokens");
      return true;
    case EndpointType::kResponses:
      put(body, "max_output_tokens");
      return true;
    case EndpointType::kHuggingfaceGenerate:
      body["parameters"] = nlohmann::ordered_json::object();
      put(body["parameters"], "max_new_tokens");
      return true;
    default:
      return false;
  }
}

std::string join_path(std::string_view base_path, std::string_view custom_endpoint,
                      std::string_view default_path) {
  std::string base(base_path);
  while (!base.empty() && base.back() == '/') base.pop_back();
  std::string_view path = custom_endpoint.empty() ? default_path : custom_endpoint;
  while (!path.empty() && path.front() == '/') path.remove_prefix(1);
  // No path to add (raw and template with the path in --url): the URL's own path as it is.
  if (path.empty() && !base.empty()) return base;
  if (base.ends_with("/v1") && path.starts_with("v1/")) path.remove_prefix(3);
  return base + "/" + std::string(path);
}

}  // namespace inferperf::endpoint
