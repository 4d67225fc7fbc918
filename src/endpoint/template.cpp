// template: a payload template from --extra-inputs payload_template:<name|path|inline> rendered
// per request into the JSON body; response_field:<path> selects the response value, otherwise
// the response shape is detected (embeddings, rankings, then text).
//
// The template language is the subset of Jinja2 payload templates use: {{ variable }},
// attribute and index access ({{ texts[0] }}, {{ turn.role }}) and the tojson filter.
// Statements ({% ... %}) are refused at start-up rather than rendered wrongly.
#include <simdjson.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "endpoint/decode_util.hpp"
#include "endpoint/factories.hpp"
#include "endpoint/openai_common.hpp"
#include "endpoint/template_render.hpp"

namespace inferperf::endpoint {

namespace {

// Named templates shipped with the client.
const std::vector<std::pair<std::string, std::string>> kNamedTemplates = {
    {"nv-embedqa", R"({"text": {{ texts|tojson }}})"},
};

nlohmann::json variables(const std::vector<dataset::Turn>& history, const BodyOptions& o) {
  const dataset::Turn& t = history.back();
  nlohmann::json v;
  std::vector<std::string> texts = texts_of(t);
  std::vector<std::string> images, audios, videos;
  for (const auto& m : t.media) {
    if (m.kind == dataset::MediaItem::Kind::kImage) images.push_back(m.url);
    if (m.kind == dataset::MediaItem::Kind::kVideo) videos.push_back(m.url);
    if (m.kind == dataset::MediaItem::Kind::kAudio) {
      audios.push_back(m.audio_format + "," + m.audio_data);
    }
  }
  auto first = [](const std::vector<std::string>& xs) -> nlohmann::json {
    return xs.empty() ? nlohmann::json(nullptr) : nlohmann::json(xs.front());
  };
  v["text"] = first(texts);
  v["texts"] = texts;
  v["image"] = first(images);
  v["images"] = images;
  v["audio"] = first(audios);
  v["audios"] = audios;
  v["video"] = first(videos);
  v["videos"] = videos;
  v["query"] = t.text;
  v["queries"] = std::vector<std::string>{t.text};
  const auto& passages = t.passages.empty() ? t.more_texts : t.passages;
  v["passage"] = first(passages);
  v["passages"] = passages;
  v["model"] = model_of(history, o);
  v["max_tokens"] = t.max_tokens ? nlohmann::json(*t.max_tokens) : nlohmann::json(nullptr);
  v["role"] = t.role;
  v["turn"] = {{"role", t.role}, {"texts", texts}, {"images", images}};
  auto turns = nlohmann::json::array();
  for (const auto& h : history) turns.push_back({{"role", h.role}, {"texts", texts_of(h)}});
  v["turns"] = std::move(turns);
  v["stream"] = o.streaming;
  return v;
}

// The value at a field path; null when the response has no such value.
const simdjson::dom::element* select(simdjson::dom::element root, const std::vector<PathStep>& path,
                                     simdjson::dom::element& slot) {
  slot = root;
  for (const auto& step : path) {
    if (step.is_index) {
      simdjson::dom::array a;
      if (slot.get_array().get(a) != simdjson::SUCCESS || step.index >= a.size()) return nullptr;
      slot = a.at(step.index);
    } else if (slot[step.key].get(slot) != simdjson::SUCCESS) {
      return nullptr;
    }
  }
  return &slot;
}

// Text from a string or a list of strings (joined).
bool text_of(simdjson::dom::element e, std::string& out) {
  std::string_view s;
  if (e.get_string().get(s) == simdjson::SUCCESS) {
    out = std::string(s);
    return true;
  }
  simdjson::dom::array a;
  if (e.get_array().get(a) != simdjson::SUCCESS || a.size() == 0) return false;
  std::string joined;
  for (simdjson::dom::element x : a) {
    if (x.get_string().get(s) != simdjson::SUCCESS) return false;
    joined += s;
  }
  out = std::move(joined);
  return true;
}

// Auto-detection: embeddings, then rankings, then text fields.
void detect(simdjson::dom::element doc, DecodedEvent& out) {
  simdjson::dom::element e;
  simdjson::dom::array a;
  if (doc["data"].get_array().get(a) == simdjson::SUCCESS && a.size() > 0 &&
      string_or_empty(simdjson::dom::element(a.at(0)), "object") == "embedding") {
    out.outputs = static_cast<std::int64_t>(a.size());
    return;
  }
  for (const char* key : {"embeddings", "embedding", "rankings", "results"}) {
    if (doc[key].get(e) == simdjson::SUCCESS && e.is_array()) {
      out.outputs = std::max<std::int64_t>(1, static_cast<std::int64_t>(e.get_array().size()));
      return;
    }
  }
  for (const char* key : {"text", "content", "response", "output", "result"}) {
    if (doc[key].get(e) == simdjson::SUCCESS && text_of(e, out.content)) return;
  }
  static const std::vector<std::vector<PathStep>> kChoicePaths = {
      *parse_field_path("choices[0].text"), *parse_field_path("choices[0].message.content"),
      *parse_field_path("choices[0].delta.content")};
  for (const auto& path : kChoicePaths) {
    simdjson::dom::element slot;
    if (const auto* v = select(doc, path, slot); v && text_of(*v, out.content)) return;
  }
}

}  // namespace

DecodedEvent decode_detected(std::string_view payload,
                             const std::vector<PathStep>& response_field) {
  DecodedEvent out;
  out.kind = DecodedEvent::Kind::kData;
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element doc;
  if (parser.parse(payload.data(), payload.size(), true).get(doc) != simdjson::SUCCESS) {
    out.content = std::string(payload);  // a plain-text body is the text
    return out;
  }
  simdjson::dom::object obj;
  if (doc.get_object().get(obj) == simdjson::SUCCESS) {
    if (auto e = error_message_of(obj); e && obj["choices"].error()) return error_event(*e);
    read_usage(obj, out);
  }
  simdjson::dom::element slot;
  const auto* v = response_field.empty() ? nullptr : select(doc, response_field, slot);
  // As AIPerf's response_field: a path that selects nothing falls back to the detection.
  if (v == nullptr || v->is_null()) {
    detect(doc, out);
    return out;
  }
  if (!text_of(*v, out.content)) {
    if (v->is_array()) {
      out.outputs = static_cast<std::int64_t>(v->get_array().size());
    } else {
      out.content = simdjson::to_string(*v);
    }
  }
  return out;
}

core::Result<std::vector<PathStep>> response_field_path(std::string_view response_field) {
  if (response_field.empty()) return std::vector<PathStep>{};
  auto path = parse_field_path(response_field);
  if (!path) {
    return core::Error{core::ErrorKind::kConfig,
                       "response_field '" + std::string(response_field) +
                           "' is not a field path (names and [n] indices, e.g. "
                           "result.outputs[0].text; wildcards are not supported)",
                       "", 0, "response_field"};
  }
  return std::move(*path);
}

namespace {

class TemplateEndpoint final : public Endpoint {
 public:
  TemplateEndpoint(PayloadTemplate tmpl, std::vector<PathStep> response_field,
                   std::vector<std::pair<std::string, nlohmann::json>> extra)
      : Endpoint(config::EndpointType::kTemplate),
        template_(std::move(tmpl)),
        response_field_(std::move(response_field)),
        extra_(std::move(extra)) {}

  nlohmann::ordered_json build_body(const std::vector<dataset::Turn>& history,
                                    const BodyOptions& o) const override {
    const std::string text = template_.render(variables(history, o));
    nlohmann::ordered_json body = nlohmann::ordered_json::parse(text, nullptr, false);
    if (body.is_discarded()) {
      throw std::runtime_error("payload template rendered invalid JSON: " + text.substr(0, 200));
    }
    if (body.is_object()) {
      for (const auto& [k, v] : extra_) body[k] = v;
    }
    return body;
  }

  DecodedEvent decode(std::string_view payload) const override {
    return decode_detected(payload, response_field_);
  }

 private:
  PayloadTemplate template_;
  std::vector<PathStep> response_field_;  // empty: detect the response's shape
  std::vector<std::pair<std::string, nlohmann::json>> extra_;
};

}  // namespace

core::Result<std::unique_ptr<Endpoint>> make_template_endpoint(
    const std::vector<std::pair<std::string, nlohmann::json>>& extra) {
  std::string source, response_field;
  std::vector<std::pair<std::string, nlohmann::json>> rest;
  for (const auto& [k, v] : extra) {
    if (k == "payload_template" && v.is_string()) {
      source = v.get<std::string>();
    } else if (k == "response_field" && v.is_string()) {
      response_field = v.get<std::string>();
    } else {
      rest.emplace_back(k, v);
    }
  }
  if (source.empty()) {
    return core::Error{core::ErrorKind::kConfig,
                       "--endpoint-type template needs --extra-inputs payload_template:<name, "
                       "file or inline template> (named: nv-embedqa)",
                       "", 0, "payload_template"};
  }
  std::string origin = "inline template";
  for (const auto& [name, text] : kNamedTemplates) {
    if (source == name) {
      origin = "template " + name;
      source = text;
      break;
    }
  }
  std::error_code ec;
  if (source.find('{') == std::string::npos && std::filesystem::is_regular_file(source, ec)) {
    std::ifstream in(source, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    origin = source;
    source = ss.str();
  } else if (source.find('{') == std::string::npos) {
    return core::Error{core::ErrorKind::kConfig,
                       "payload_template '" + source +
                           "' is neither a named template (nv-embedqa), a readable file nor an "
                           "inline template",
                       "", 0, "payload_template"};
  }
  auto parsed = PayloadTemplate::parse(source);
  if (!parsed) {
    return core::Error{core::ErrorKind::kConfig, parsed.error().message, origin, 0,
                       "payload_template"};
  }
  // Rendered once with sample values so a template that cannot give JSON fails before the run.
  dataset::Turn sample;
  sample.text = "sample";
  sample.max_tokens = 16;
  BodyOptions o;
  o.model = "model";
  const nlohmann::json known = variables({sample}, o);
  for (const auto& name : parsed->variables()) {
    if (!known.contains(name)) {
      std::string names;
      for (const auto& item : known.items()) names += (names.empty() ? "" : ", ") + item.key();
      return core::Error{core::ErrorKind::kConfig,
                         "payload template variable '" + name + "' is not one of: " + names, origin,
                         0, "payload_template"};
    }
  }
  auto field = response_field_path(response_field);
  if (!field) return field.error();
  const std::string rendered = parsed->render(known);
  if (nlohmann::json::parse(rendered, nullptr, false).is_discarded()) {
    return core::Error{core::ErrorKind::kConfig,
                       "payload template does not render JSON (use |tojson for values): " +
                           rendered.substr(0, 200),
                       origin, 0, "payload_template"};
  }
  return std::unique_ptr<Endpoint>(
      std::make_unique<TemplateEndpoint>(std::move(*parsed), std::move(*field), std::move(rest)));
}

}  // namespace inferperf::endpoint
