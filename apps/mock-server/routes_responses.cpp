// OpenAI Responses API (/v1/responses): request parsing, the response object and its event stream.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/uuid.hpp"
#include "routes.hpp"

namespace inferperf::mock {

namespace {
using nlohmann::json;

void append_text(std::string& out, const std::string& t) {
  if (t.empty()) return;
  if (!out.empty()) out.push_back(' ');
  out += t;
}

std::optional<RouteError> item_text(const json& item, std::string& out) {
  if (item.is_string()) {
    append_text(out, item.get<std::string>());
    return std::nullopt;
  }
  if (!item.is_object()) return route_error(422, "'input' items must be objects");
  const auto c = item.find("content");
  if (c == item.end()) return std::nullopt;  // e.g. a reasoning or function-call item
  if (c->is_string()) {
    append_text(out, c->get<std::string>());
  } else if (c->is_array()) {
    for (const auto& part : *c) {
      if (!part.is_object()) return route_error(422, "content parts must be objects");
      const std::string type = part.value("type", "");
      if ((type == "input_text" || type == "output_text" || type == "text") &&
          part.contains("text") && part["text"].is_string())
        append_text(out, part["text"].get<std::string>());
    }
  } else {
    return route_error(422, "'content' must be a string or a list of parts");
  }
  return std::nullopt;
}
}  // namespace

std::optional<RouteError> parse_responses_request(std::string_view body, GenerationRequest& out) {
  const auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return route_error(400, "request body is not a JSON object");
  out.chat = true;
  if (auto m = j.find("model"); m != j.end()) {
    if (!m->is_string()) return route_error(422, "'model' must be a string");
    out.model = m->get<std::string>();
  }
  if (auto ins = j.find("instructions"); ins != j.end() && !ins->is_null()) {
    if (!ins->is_string()) return route_error(422, "'instructions' must be a string");
    append_text(out.prompt_text, ins->get<std::string>());
  }
  const auto in = j.find("input");
  if (in == j.end()) return route_error(422, "'input' is required");
  if (in->is_string()) {
    append_text(out.prompt_text, in->get<std::string>());
  } else if (in->is_array()) {
    for (const auto& item : *in)
      if (auto e = item_text(item, out.prompt_text)) return e;
  } else {
    return route_error(422, "'input' must be a string or a list of items");
  }
  if (auto mt = j.find("max_output_tokens"); mt != j.end() && !mt->is_null()) {
    if (!mt->is_number_integer() || mt->get<std::int64_t>() < 1)
      return route_error(422, "'max_output_tokens' must be a positive integer");
    out.max_tokens = mt->get<std::int64_t>();
  }
  if (auto s = j.find("stream"); s != j.end() && !s->is_null()) {
    if (!s->is_boolean()) return route_error(422, "'stream' must be a boolean");
    out.stream = s->get<bool>();
  }
  if (auto r = j.find("reasoning"); r != j.end() && r->is_object()) {
    if (auto e = r->find("effort"); e != r->end() && e->is_string())
      out.reasoning_effort = e->get<std::string>();
  }
  return std::nullopt;
}

ResponsesStream::ResponsesStream(std::string id, std::string model, std::int64_t created,
                                 const GenerationPlan& plan)
    : id_(std::move(id)),
      msg_id_("msg_" + core::uuid4()),
      rs_id_("rs_" + core::uuid4()),
      model_(std::move(model)),
      created_(created),
      plan_(plan) {
  std::erase(msg_id_, '-');
  std::erase(rs_id_, '-');
}

std::string ResponsesStream::event(std::string_view type, std::string body_members) {
  return fmt::format("event: {}\ndata: {{\"type\":\"{}\",\"sequence_number\":{}{}}}\n\n", type,
                     type, seq_++, body_members);
}

std::string ResponsesStream::response_json(std::string_view status, bool with_output) const {
  std::string output;
  if (with_output) {
    if (!plan_.reasoning.empty()) {
      output += fmt::format(
          R"({{"type":"reasoning","id":"{}","summary":[],"content":[{{"type":"reasoning_text","text":"{}"}}],"status":"completed"}},)",
          rs_id_, json_escape(joined(plan_.reasoning)));
    }
    output += fmt::format(
        R"({{"type":"message","id":"{}","status":"completed","role":"assistant","content":[{{"type":"output_text","text":"{}","annotations":[]}}]}})",
        msg_id_, json_escape(joined(plan_.output)));
  }
  const std::size_t p = plan_.prompt_tokens.size();
  const std::size_t n = plan_.output.size() + plan_.reasoning.size();
  const std::string usage =
      with_output
          ? fmt::format(
                R"({{"input_tokens":{},"input_tokens_details":{{"cached_tokens":0}},"output_tokens":{},"output_tokens_details":{{"reasoning_tokens":{}}},"total_tokens":{}}})",
                p, n, plan_.reasoning.size(), p + n)
          : "null";
  return fmt::format(
      R"({{"id":"{}","object":"response","created_at":{},"status":"{}","error":null,"incomplete_details":null,"model":"{}","output":[{}],"usage":{}}})",
      id_, created_, status, json_escape(model_), output, usage);
}

std::string ResponsesStream::head() {
  std::string s = event("response.created", ",\"response\":" + response_json("in_progress", false));
  s += event("response.in_progress", ",\"response\":" + response_json("in_progress", false));
  if (!plan_.reasoning.empty()) {
    reasoning_open_ = true;
    s += event(
        "response.output_item.added",
        fmt::format(
            R"(,"output_index":0,"item":{{"type":"reasoning","id":"{}","summary":[],"content":[],"status":"in_progress"}})",
            rs_id_));
    s += event(
        "response.content_part.added",
        fmt::format(
            R"(,"item_id":"{}","output_index":0,"content_index":0,"part":{{"type":"reasoning_text","text":""}})",
            rs_id_));
  } else {
    s += open_message();
  }
  return s;
}

std::string ResponsesStream::open_message() {
  message_open_ = true;
  const int oi = plan_.reasoning.empty() ? 0 : 1;
  std::string s = event(
      "response.output_item.added",
      fmt::format(
          R"(,"output_index":{},"item":{{"type":"message","id":"{}","status":"in_progress","role":"assistant","content":[]}})",
          oi, msg_id_));
  s += event(
      "response.content_part.added",
      fmt::format(
          R"(,"item_id":"{}","output_index":{},"content_index":0,"part":{{"type":"output_text","text":"","annotations":[]}})",
          msg_id_, oi));
  return s;
}

std::string ResponsesStream::close_reasoning() {
  reasoning_open_ = false;
  const std::string text = json_escape(joined(plan_.reasoning));
  std::string s =
      event("response.reasoning_text.done",
            fmt::format(R"(,"item_id":"{}","output_index":0,"content_index":0,"text":"{}")", rs_id_,
                        text));
  s += event(
      "response.content_part.done",
      fmt::format(
          R"(,"item_id":"{}","output_index":0,"content_index":0,"part":{{"type":"reasoning_text","text":"{}"}})",
          rs_id_, text));
  s += event(
      "response.output_item.done",
      fmt::format(
          R"(,"output_index":0,"item":{{"type":"reasoning","id":"{}","summary":[],"content":[{{"type":"reasoning_text","text":"{}"}}],"status":"completed"}})",
          rs_id_, text));
  return s;
}

std::string ResponsesStream::delta(bool reasoning, std::string_view text) {
  if (reasoning) {
    return event("response.reasoning_text.delta",
                 fmt::format(R"(,"item_id":"{}","output_index":0,"content_index":0,"delta":"{}")",
                             rs_id_, json_escape(text)));
  }
  std::string s;
  if (reasoning_open_) s += close_reasoning();
  if (!message_open_) s += open_message();
  const int oi = plan_.reasoning.empty() ? 0 : 1;
  s +=
      event("response.output_text.delta",
            fmt::format(
                R"(,"item_id":"{}","output_index":{},"content_index":0,"delta":"{}","logprobs":[])",
                msg_id_, oi, json_escape(text)));
  return s;
}

std::string ResponsesStream::tail() {
  std::string s;
  if (reasoning_open_) s += close_reasoning();
  if (!message_open_) s += open_message();
  const int oi = plan_.reasoning.empty() ? 0 : 1;
  const std::string text = json_escape(joined(plan_.output));
  s += event("response.output_text.done",
             fmt::format(
                 R"(,"item_id":"{}","output_index":{},"content_index":0,"text":"{}","logprobs":[])",
                 msg_id_, oi, text));
  s += event(
      "response.content_part.done",
      fmt::format(
          R"(,"item_id":"{}","output_index":{},"content_index":0,"part":{{"type":"output_text","text":"{}","annotations":[]}})",
          msg_id_, oi, text));
  s += event(
      "response.output_item.done",
      fmt::format(
          R"(,"output_index":{},"item":{{"type":"message","id":"{}","status":"completed","role":"assistant","content":[{{"type":"output_text","text":"{}","annotations":[]}}]}})",
          oi, msg_id_, text));
  s += event("response.completed", ",\"response\":" + response_json("completed", true));
  return s;
}

}  // namespace inferperf::mock
