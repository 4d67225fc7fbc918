#include "endpoint/decode_util.hpp"

#include <array>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <utility>

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

// A count the server sent: an integer, or a number with an integral value (some servers write
// 12.0); null, strings and fractions are not counts.
std::optional<std::int64_t> count_of(simdjson::dom::element e) {
  std::int64_t i = 0;
  if (e.get_int64().get(i) == simdjson::SUCCESS) return i;
  double d = 0;
  constexpr double kMaxCount = 9e15;  // well inside int64 and exact in a double
  if (e.get_double().get(d) == simdjson::SUCCESS && std::isfinite(d) && std::abs(d) < kMaxCount &&
      d == std::floor(d))
    return static_cast<std::int64_t>(d);
  return std::nullopt;
}

std::optional<std::int64_t> usage_int(const simdjson::dom::object& o, std::string_view key) {
  simdjson::dom::element e;
  if (o[key].get(e) != simdjson::SUCCESS) return std::nullopt;
  return count_of(e);
}

// An object's members read once, for the thirty-odd vendor names a usage object is searched for:
// at_key walks the document's tape on every call, and those walks were a third of decoding a
// non-streaming response. The first member of a name wins, as at_key finds it; an object with
// more members than fit is searched with at_key.
class Members {
 public:
  explicit Members(const simdjson::dom::object& o) : object_(o) {
    for (auto field : o) {
      if (n_ == items_.size()) {
        overflow_ = true;
        break;
      }
      items_[n_++] = {field.key, field.value};
      lengths_ |= length_bit(field.key);
    }
  }
  std::optional<simdjson::dom::element> find(std::string_view key) const {
    if (overflow_) {
      simdjson::dom::element e;
      if (object_[key].get(e) != simdjson::SUCCESS) return std::nullopt;
      return e;
    }
    // Most of the vendor names are absent: a name whose length no member has is not compared.
    if ((lengths_ & length_bit(key)) == 0) return std::nullopt;
    for (std::size_t i = 0; i < n_; ++i) {
      if (items_[i].first == key) return items_[i].second;
    }
    return std::nullopt;
  }
  std::optional<std::int64_t> count(std::string_view key) const {
    const auto e = find(key);
    return e ? count_of(*e) : std::nullopt;
  }
  std::optional<simdjson::dom::object> object(std::string_view key) const {
    const auto e = find(key);
    simdjson::dom::object o;
    if (!e || e->get_object().get(o) != simdjson::SUCCESS) return std::nullopt;
    return o;
  }

 private:
  simdjson::dom::object object_;
  std::array<std::pair<std::string_view, simdjson::dom::element>, 24> items_;
  std::size_t n_ = 0;
  bool overflow_ = false;
  std::uint64_t lengths_ = 0;  // bit (length % 64) set for every member's name

  static std::uint64_t length_bit(std::string_view name) {
    return std::uint64_t{1} << (name.size() % 64);
  }
};

// The usage fields as AIPerf 0.11 looks them up: each metric has a list of vendor names, the
// first one present wins. `tokens` is Cohere's inner object, searched after the outer one.
struct UsageView {
  Members outer;
  std::optional<Members> tokens;

  std::optional<std::int64_t> first(std::initializer_list<std::string_view> keys) const {
    for (std::string_view k : keys) {
      if (auto v = outer.count(k)) return v;
      if (tokens) {
        if (auto v = tokens->count(k)) return v;
      }
    }
    return std::nullopt;
  }
  // `field` of the first of the detail objects (`prompt_tokens_details`, ...) that has it.
  std::optional<std::int64_t> detail(std::span<const std::string_view> objects,
                                     std::string_view field) const {
    for (std::string_view name : objects) {
      const auto d = outer.object(name);
      if (!d) continue;
      if (auto v = usage_int(*d, field)) return v;
    }
    return std::nullopt;
  }
};

constexpr std::array<std::string_view, 2> kPromptDetails = {"prompt_tokens_details",
                                                            "input_tokens_details"};
constexpr std::array<std::string_view, 2> kCompletionDetails = {"completion_tokens_details",
                                                                "output_tokens_details"};

std::optional<double> prompt_audio_seconds(const Members& usage) {
  const auto e = usage.find("prompt_audio_seconds");
  double d = 0;
  if (e && e->get_double().get(d) == simdjson::SUCCESS && std::isfinite(d)) return d;
  return std::nullopt;
}

Usage usage_of(const UsageView& u) {
  Usage usage;
  usage.prompt_tokens = u.first(
      {"prompt_tokens", "input_tokens", "promptTokenCount", "inputTokens", "input_token_count"});
  usage.completion_tokens = u.first({"completion_tokens", "output_tokens", "candidatesTokenCount",
                                     "outputTokens", "generated_token_count"});
  usage.total_tokens = u.first({"total_tokens", "totalTokenCount", "totalTokens"});
  usage.reasoning_tokens = u.detail(kCompletionDetails, "reasoning_tokens");
  if (!usage.reasoning_tokens) usage.reasoning_tokens = u.first({"thoughtsTokenCount"});
  usage.prompt_cache_read_tokens = u.detail(kPromptDetails, "cached_tokens");
  if (!usage.prompt_cache_read_tokens) {
    usage.prompt_cache_read_tokens =
        u.first({"cache_read_input_tokens", "prompt_cache_hit_tokens", "cachedContentTokenCount",
                 "cacheReadInputTokens", "cached_tokens"});
  }
  usage.prompt_cache_write_tokens =
      u.first({"cache_creation_input_tokens", "cacheWriteInputTokens"});
  usage.prompt_cache_miss_tokens = u.first({"prompt_cache_miss_tokens"});
  usage.tool_use_prompt_tokens = u.first({"toolUsePromptTokenCount"});
  usage.prompt_audio_seconds = prompt_audio_seconds(u.outer);
  usage.prompt_audio_tokens = u.detail(kPromptDetails, "audio_tokens");
  usage.completion_audio_tokens = u.detail(kCompletionDetails, "audio_tokens");
  usage.accepted_prediction_tokens = u.detail(kCompletionDetails, "accepted_prediction_tokens");
  usage.rejected_prediction_tokens = u.detail(kCompletionDetails, "rejected_prediction_tokens");
  return usage;
}

}  // namespace

void read_usage(const simdjson::dom::object& obj, DecodedEvent& out) {
  // OpenAI-style `usage`, Gemini's `usageMetadata`, Cohere v1's `meta` (holding `tokens`).
  simdjson::dom::object u;
  for (std::string_view envelope : {"usage", "usageMetadata"}) {
    if (obj[envelope].get_object().get(u) == simdjson::SUCCESS) {
      read_usage_object(u, out);
      return;
    }
  }
  simdjson::dom::object meta, tokens;
  if (obj["meta"].get_object().get(meta) == simdjson::SUCCESS &&
      meta["tokens"].get_object().get(tokens) == simdjson::SUCCESS)
    read_usage_object(meta, out);
}

void read_usage_object(const simdjson::dom::object& u, DecodedEvent& out) {
  // A usage object that is itself an envelope (`{"usageMetadata": {...}}`) is unwrapped first.
  simdjson::dom::object inner;
  const simdjson::dom::object& outer =
      u["usageMetadata"].get_object().get(inner) == simdjson::SUCCESS ? inner : u;
  UsageView view{Members(outer), std::nullopt};
  if (const auto tokens = view.outer.object("tokens")) view.tokens.emplace(*tokens);
  Usage usage = usage_of(view);
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
