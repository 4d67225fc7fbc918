#include "endpoint/decode_util.hpp"

#include <string>

namespace inferperf::endpoint {

bool parse_object(std::string_view payload, simdjson::dom::parser& parser,
                  simdjson::dom::object& obj, DecodedEvent& out) {
  auto doc = parser.parse(payload.data(), payload.size(), true);
  if (doc.error() || doc.value().get_object().get(obj)) {
    out.kind = DecodedEvent::Kind::kError;
    std::string snippet(payload.substr(0, 200));
    out.error_message = "response is not a JSON object: " + snippet;
    return false;
  }
  return true;
}

namespace {
std::optional<std::int64_t> int_field(const simdjson::dom::object& o, std::string_view key) {
  std::int64_t v = 0;
  if (o[key].get_int64().get(v) == simdjson::SUCCESS) return v;
  return std::nullopt;
}
}  // namespace

void read_usage(const simdjson::dom::object& obj, DecodedEvent& out) {
  simdjson::dom::object u;
  if (obj["usage"].get_object().get(u) != simdjson::SUCCESS) return;
  read_usage_object(u, out);
}

void read_usage_object(const simdjson::dom::object& u, DecodedEvent& out) {
  // OpenAI chat/completions name the counts prompt/completion; the Responses API, Anthropic and
  // image generation name them input/output.
  auto first = [&](std::string_view a, std::string_view b) {
    auto v = int_field(u, a);
    return v ? v : int_field(u, b);
  };
  Usage usage;
  usage.prompt_tokens = first("prompt_tokens", "input_tokens");
  usage.completion_tokens = first("completion_tokens", "output_tokens");
  usage.total_tokens = int_field(u, "total_tokens");
  for (std::string_view key : {"completion_tokens_details", "output_tokens_details"}) {
    simdjson::dom::object details;
    if (!usage.reasoning_tokens && u[key].get_object().get(details) == simdjson::SUCCESS) {
      usage.reasoning_tokens = int_field(details, "reasoning_tokens");
    }
  }
  if (usage.any()) out.usage = usage;
}

std::string_view string_or_empty(simdjson::dom::element e, std::string_view key) {
  std::string_view s;
  if (e[key].get_string().get(s) == simdjson::SUCCESS) return s;
  return {};
}

std::string_view string_or_empty(const simdjson::dom::object& o, std::string_view key) {
  std::string_view s;
  if (o[key].get_string().get(s) == simdjson::SUCCESS) return s;
  return {};
}

}  // namespace inferperf::endpoint
