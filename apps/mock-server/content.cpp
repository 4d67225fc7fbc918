#include "content.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>

namespace inferperf::mock {

std::vector<std::string> chunk_tokens(std::string_view text) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (i < text.size()) {
    bool had_space = false;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i]))) {
      had_space = true;
      ++i;
    }
    std::size_t start = i;
    while (i < text.size() && !std::isspace(static_cast<unsigned char>(text[i]))) ++i;
    std::string_view word = text.substr(start, i - start);
    for (std::size_t p = 0; p < word.size(); p += 4) {
      std::string piece = (p == 0 && had_space) ? " " : "";
      piece.append(word.substr(p, 4));
      out.push_back(std::move(piece));
    }
  }
  return out;
}

namespace {

std::string message_text(const nlohmann::json& content) {
  if (content.is_string()) return content.get<std::string>();
  std::string out;
  if (content.is_array()) {
    for (const auto& part : content) {
      if (part.is_object() && part.value("type", "") == "text" && part.contains("text") &&
          part["text"].is_string()) {
        if (!out.empty()) out.push_back(' ');
        out += part["text"].get<std::string>();
      }
    }
  }
  return out;
}

std::optional<std::int64_t> int_field(const nlohmann::json& j, const char* key) {
  auto it = j.find(key);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<std::int64_t>();
}

bool has_warmup_prefix(std::string_view text) {
  return text == "warmup" || text.starts_with("warmup\n");
}

// Whether a chat body's messages start with the warmup system message.
bool chat_warmup_marked(const nlohmann::json& messages) {
  if (messages.empty() || !messages[0].is_object()) return false;
  const auto& first = messages[0];
  if (first.value("role", "") != "system" || !first.contains("content")) return false;
  const auto& content = first["content"];
  if (content.is_string()) return has_warmup_prefix(content.get<std::string>());
  if (!content.is_array() || content.empty() || !content[0].is_object()) return false;
  const auto text = content[0].find("text");
  return text != content[0].end() && text->is_string() && *text == "warmup";
}

}  // namespace

namespace {
std::optional<std::string> parse_generation_request_or_throw(std::string_view body, bool chat,
                                                             GenerationRequest& out) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) return "request body is not a JSON object";
  out.chat = chat;
  out.model = j.value("model", "");
  out.stream = j.value("stream", false);
  if (auto so = j.find("stream_options"); so != j.end() && so->is_object()) {
    out.include_usage = so->value("include_usage", false);
  }
  out.max_tokens = int_field(j, "max_completion_tokens");
  if (!out.max_tokens) out.max_tokens = int_field(j, "max_tokens");
  out.min_tokens = int_field(j, "min_tokens");
  out.ignore_eos = j.value("ignore_eos", false);
  if (auto re = j.find("reasoning_effort"); re != j.end() && re->is_string()) {
    out.reasoning_effort = re->get<std::string>();
  }
  if (chat) {
    auto msgs = j.find("messages");
    if (msgs == j.end() || !msgs->is_array()) return "'messages' must be a list";
    out.warmup_marked = chat_warmup_marked(*msgs);
    for (const auto& m : *msgs) {
      if (!m.is_object() || !m.contains("content")) continue;
      std::string t = message_text(m["content"]);
      if (t.empty()) continue;
      if (!out.prompt_text.empty()) out.prompt_text.push_back(' ');
      out.prompt_text += t;
    }
  } else {
    auto p = j.find("prompt");
    if (p == j.end()) return "'prompt' is required";
    if (p->is_string()) {
      out.prompt_text = p->get<std::string>();
      out.warmup_marked = out.prompt_text.starts_with("warmup\n");
    } else if (p->is_array()) {
      out.warmup_marked =
          !p->empty() && (*p)[0].is_string() && (*p)[0].get<std::string>().starts_with("warmup\n");
      for (const auto& s : *p) {
        if (!s.is_string()) continue;
        if (!out.prompt_text.empty()) out.prompt_text.push_back(' ');
        out.prompt_text += s.get<std::string>();
      }
    } else {
      return "'prompt' must be a string or a list of strings";
    }
  }
  if (out.max_tokens && *out.max_tokens < 1) return "max tokens must be at least 1";
  return std::nullopt;
}
}  // namespace

std::optional<std::string> parse_generation_request(std::string_view body, bool chat,
                                                    GenerationRequest& out) {
  try {
    return parse_generation_request_or_throw(body, chat, out);
  } catch (const nlohmann::json::exception& e) {
    // A field of the wrong type (e.g. "stream": "yes") is the client's mistake: a 400, not a crash.
    return std::string("invalid request field: ") + e.what();
  }
}

std::vector<std::string> tokenize_pieces(std::string_view text, const tokenizer::Tokenizer* tok) {
  if (!tok) return chunk_tokens(text);
  const std::vector<std::int32_t> ids = tok->encode(text);
  std::vector<std::string> pieces;
  pieces.reserve(ids.size());
  for (const std::int32_t id : ids) pieces.push_back(tok->decode(std::span(&id, 1)));
  return pieces;
}

GenerationPlan plan_generation(const GenerationRequest& req, const tokenizer::Tokenizer* tok) {
  GenerationPlan plan;
  plan.prompt_tokens = tokenize_pieces(req.prompt_text, tok);
  // FNV-1a: stable across standard libraries, so output lengths never change between builds.
  std::uint64_t h = 1469598103934665603ULL;
  for (unsigned char ch : req.prompt_text) h = (h ^ ch) * 1099511628211ULL;
  const auto p = static_cast<std::int64_t>(plan.prompt_tokens.size());
  std::int64_t n = 0;
  if (req.max_tokens) {
    const std::int64_t max = *req.max_tokens;
    if (req.ignore_eos) {
      n = max;
    } else {
      std::int64_t lo = req.min_tokens ? std::clamp<std::int64_t>(*req.min_tokens, 1, max)
                                       : std::max<std::int64_t>(
                                             1, static_cast<std::int64_t>(std::ceil(0.8 * max)));
      n = lo + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(max - lo + 1));
    }
    plan.finish_reason = n >= max ? "length" : "stop";
  } else {
    const std::int64_t lo = std::max<std::int64_t>(1, static_cast<std::int64_t>(0.8 * p));
    const std::int64_t hi = std::max(lo, std::min(static_cast<std::int64_t>(std::ceil(1.2 * p)),
                                                  std::max<std::int64_t>(2 * p, 16)));
    n = lo + static_cast<std::int64_t>(h % static_cast<std::uint64_t>(hi - lo + 1));
    plan.finish_reason = "stop";
  }
  static const std::vector<std::string> kFallback = {" mock", " token"};
  const auto& source = plan.prompt_tokens.empty() ? kFallback : plan.prompt_tokens;
  // Later cycles through the prompt must not glue its first word to the last one (a real tokenizer
  // would count the glued word differently): with a tokenizer they use the tokens of the prompt
  // after a space; the chunker's first piece just gets the space it lacks.
  std::vector<std::string> spaced;
  if (tok && !plan.prompt_tokens.empty() && n > p)
    spaced = tokenize_pieces(" " + req.prompt_text, tok);
  plan.output.reserve(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    const auto cycle = static_cast<std::size_t>(i) / source.size();
    if (cycle > 0 && !spaced.empty()) {
      const std::size_t j = static_cast<std::size_t>(i) - source.size();
      plan.output.push_back(spaced[j % spaced.size()]);
      continue;
    }
    std::string piece = source[static_cast<std::size_t>(i) % source.size()];
    if (cycle > 0 && static_cast<std::size_t>(i) % source.size() == 0 && !piece.empty() &&
        piece[0] != ' ') {
      piece.insert(piece.begin(), ' ');
    }
    plan.output.push_back(std::move(piece));
  }

  std::string model = req.model;
  std::transform(model.begin(), model.end(), model.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (req.chat &&
      (model.find("gpt-oss") != std::string::npos || model.find("qwen") != std::string::npos)) {
    std::size_t r = req.reasoning_effort == "low"    ? 100
                    : req.reasoning_effort == "high" ? 500
                                                     : 250;
    for (std::size_t i = 0; i < r; ++i) plan.reasoning.push_back(source[(i + 1) % source.size()]);
  }
  return plan;
}

std::string json_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size() + 2);
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", c);
          out += buf;
        } else {
          out.push_back(c);
        }
    }
  }
  return out;
}

namespace {
// Always a JSON number with a fraction or exponent, so parsers read a double.
std::string json_double(double v) {
  if (!std::isfinite(v)) return "0.0";
  std::string s = fmt::format("{}", v);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}
}  // namespace

std::string timings_json(const Timings& t) {
  const auto per_token = [](double ms, std::int64_t n) {
    return n > 0 ? ms / static_cast<double>(n) : 0.0;
  };
  const auto per_second = [](double ms, std::int64_t n) {
    return ms > 0 ? 1e3 / ms * static_cast<double>(n) : 0.0;
  };
  // cache_n only when the prefix cache served some of the prompt, so uncached responses stay as
  // they were; prompt_n counts the whole prompt either way.
  return (t.cache_n > 0 ? fmt::format(R"({{"cache_n":{},)", t.cache_n) : std::string("{")) +
         fmt::format(
             R"("prompt_n":{},"prompt_ms":{},"prompt_per_token_ms":{},"prompt_per_second":{},)"
             R"("predicted_n":{},"predicted_ms":{},"predicted_per_token_ms":{},"predicted_per_second":{}}})",
             t.prompt_n, json_double(t.prompt_ms), json_double(per_token(t.prompt_ms, t.prompt_n)),
             json_double(per_second(t.prompt_ms, t.prompt_n)), t.predicted_n,
             json_double(t.predicted_ms), json_double(per_token(t.predicted_ms, t.predicted_n)),
             json_double(per_second(t.predicted_ms, t.predicted_n)));
}

std::string joined(const std::vector<std::string>& pieces) {
  std::string s;
  for (const auto& t : pieces) s += t;
  return s;
}

}  // namespace inferperf::mock
