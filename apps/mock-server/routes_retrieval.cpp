// Embeddings (/v1/embeddings), rankings (NIM /v1/ranking, TEI /rerank, Cohere /v2/rerank) and NIM
// image retrieval (/v1/infer, /v1/image/infer).
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <numeric>
#include <set>

#include "routes.hpp"

namespace inferperf::mock {

namespace {

using nlohmann::json;

std::uint64_t next_splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double unit(std::uint64_t& state) {  // [0, 1)
  return static_cast<double>(next_splitmix64(state) >> 11) * 0x1.0p-53;
}

std::optional<json> parse_object(std::string_view body, std::optional<RouteError>& err) {
  auto j = json::parse(body, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    err = route_error(400, "request body is not a JSON object");
    return std::nullopt;
  }
  return j;
}

std::int64_t count_tokens(std::string_view text, const tokenizer::Tokenizer* tok) {
  if (!tok) return static_cast<std::int64_t>(chunk_tokens(text).size());
  return static_cast<std::int64_t>(tok->encode(text).size());
}

std::string hex_id(std::string_view prefix, std::string_view body) {
  return fmt::format("{}{:016x}", prefix, fnv1a(body));
}

std::set<std::string> words(std::string_view s) {
  std::set<std::string> out;
  std::string w;
  for (const char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      w.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
    } else if (!w.empty()) {
      out.insert(std::move(w));
      w.clear();
    }
  }
  if (!w.empty()) out.insert(std::move(w));
  return out;
}

// Indices of `scores` ordered by score descending (ties by index).
std::vector<std::size_t> order_desc(const std::vector<double>& scores) {
  std::vector<std::size_t> idx(scores.size());
  std::iota(idx.begin(), idx.end(), std::size_t{0});
  std::stable_sort(idx.begin(), idx.end(),
                   [&](std::size_t a, std::size_t b) { return scores[a] > scores[b]; });
  return idx;
}

// A passage as a string or {"text": string}.
std::optional<std::string> text_of(const json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_object()) {
    if (auto t = v.find("text"); t != v.end() && t->is_string()) return t->get<std::string>();
  }
  return std::nullopt;
}

}  // namespace

std::vector<float> embedding_vector(std::string_view text, std::size_t dim) {
  std::uint64_t state = fnv1a(text);
  std::vector<float> v(dim);
  double norm = 0;
  for (auto& x : v) {
    x = static_cast<float>(unit(state) * 2.0 - 1.0);
    norm += static_cast<double>(x) * x;
  }
  norm = std::sqrt(norm);
  if (norm > 0)
    for (auto& x : v) x = static_cast<float>(x / norm);
  return v;
}

std::optional<RouteError> embeddings_reply(std::string_view body, const tokenizer::Tokenizer* tok,
                                           FixedReply& out) {
  std::optional<RouteError> err;
  auto j = parse_object(body, err);
  if (!j) return err;
  std::vector<std::string> inputs;
  const auto in = j->find("input");
  const auto messages = j->find("messages");
  if (in == j->end() && messages != j->end() && messages->is_array() && !messages->empty()) {
    // Chat-style embeddings (vLLM's messages form): one vector for the conversation's text.
    std::string text;
    for (const auto& m : *messages) {
      const auto content = m.find("content");
      if (content == m.end()) continue;
      if (content->is_string()) {
        text += content->get<std::string>() + "\n";
      } else if (content->is_array()) {
        for (const auto& part : *content) {
          if (part.contains("text") && part["text"].is_string())
            text += part["text"].get<std::string>() + "\n";
        }
      }
    }
    inputs.push_back(std::move(text));
  } else if (in == j->end()) {
    return route_error(422, "'input' (or chat 'messages') is required");
  } else if (in->is_string()) {
    inputs.push_back(in->get<std::string>());
  } else if (in->is_array() && !in->empty()) {
    for (const auto& s : *in) {
      if (!s.is_string()) return route_error(422, "'input' must be a string or a list of strings");
      inputs.push_back(s.get<std::string>());
    }
  } else {
    return route_error(422, "'input' must be a string or a non-empty list of strings");
  }
  const auto model = j->find("model");
  const std::string model_name =
      model != j->end() && model->is_string() ? model->get<std::string>() : "";
  std::string b = R"({"object":"list","data":[)";
  b.reserve(inputs.size() * kEmbeddingDim * 10 + 256);
  std::int64_t tokens = 0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    tokens += count_tokens(inputs[i], tok);
    if (i) b.push_back(',');
    fmt::format_to(std::back_inserter(b), R"({{"object":"embedding","index":{},"embedding":[)", i);
    const auto v = embedding_vector(inputs[i]);
    for (std::size_t k = 0; k < v.size(); ++k) {
      if (k) b.push_back(',');
      fmt::format_to(std::back_inserter(b), "{:.6f}", v[k]);
    }
    b += "]}";
  }
  fmt::format_to(std::back_inserter(b),
                 R"(],"id":"{}","model":"{}","usage":{{"prompt_tokens":{},"total_tokens":{}}}}})",
                 hex_id("emb-", body), json_escape(model_name), tokens, tokens);
  out.body = std::move(b);
  out.units = static_cast<std::int64_t>(inputs.size());
  out.prompt_tokens = tokens;
  return std::nullopt;
}

double ranking_logit(std::string_view query, std::string_view passage) {
  std::uint64_t state = fnv1a(passage, fnv1a(query) ^ 0x5bd1e995ULL);
  const double noise = unit(state) * 10.0 - 8.0;  // [-8, 2)
  const auto q = words(query);
  const auto p = words(passage);
  std::size_t overlap = 0;
  for (const auto& w : q) overlap += p.count(w);
  const double logit = noise + 2.0 * static_cast<double>(overlap);
  return std::round(std::clamp(logit, -10.0, 10.0) * 1e6) / 1e6;
}

std::optional<RouteError> ranking_reply(std::string_view body, RankingFlavor flavor,
                                        const tokenizer::Tokenizer* tok, FixedReply& out) {
  std::optional<RouteError> err;
  auto j = parse_object(body, err);
  if (!j) return err;
  std::string query;
  std::vector<std::string> passages;
  const char* list_key = flavor == RankingFlavor::kNim   ? "passages"
                         : flavor == RankingFlavor::kTei ? "texts"
                                                         : "documents";
  const auto q = j->find("query");
  if (q == j->end()) return route_error(422, "'query' is required");
  if (flavor == RankingFlavor::kNim) {
    auto t = text_of(*q);
    if (!t || q->is_string()) return route_error(422, "'query' must be {\"text\": string}");
    query = *t;
  } else {
    if (!q->is_string()) return route_error(422, "'query' must be a string");
    query = q->get<std::string>();
  }
  const auto list = j->find(list_key);
  if (list == j->end() || !list->is_array() || list->empty())
    return route_error(422, fmt::format("'{}' must be a non-empty list", list_key));
  for (const auto& p : *list) {
    auto t = text_of(p);
    if (!t || (flavor == RankingFlavor::kNim && p.is_string()) ||
        (flavor == RankingFlavor::kTei && !p.is_string()))
      return route_error(422, fmt::format("invalid entry in '{}'", list_key));
    passages.push_back(std::move(*t));
  }
  std::vector<double> logits;
  std::int64_t tokens = count_tokens(query, tok);
  for (const auto& p : passages) {
    logits.push_back(ranking_logit(query, p));
    tokens += count_tokens(p, tok);
  }
  const auto order = order_desc(logits);
  const auto sigmoid = [](double x) { return std::round(1e6 / (1.0 + std::exp(-x))) / 1e6; };
  std::string b;
  if (flavor == RankingFlavor::kNim) {
    b = R"({"rankings":[)";
    for (std::size_t k = 0; k < order.size(); ++k)
      fmt::format_to(std::back_inserter(b), R"({}{{"index":{},"logit":{:.6f}}})", k ? "," : "",
                     order[k], logits[order[k]]);
    b += "]}";
  } else if (flavor == RankingFlavor::kTei) {
    b = "[";
    for (std::size_t k = 0; k < order.size(); ++k)
      fmt::format_to(std::back_inserter(b), R"({}{{"index":{},"score":{:.6f}}})", k ? "," : "",
                     order[k], sigmoid(logits[order[k]]));
    b += "]";
  } else {
    std::size_t top = order.size();
    if (auto t = j->find("top_n"); t != j->end()) {
      if (!t->is_number_integer() || t->get<std::int64_t>() < 1)
        return route_error(422, "'top_n' must be a positive integer");
      top = std::min(top, static_cast<std::size_t>(t->get<std::int64_t>()));
    }
    b = fmt::format(R"({{"id":"{}","results":[)", hex_id("rank-", body));
    for (std::size_t k = 0; k < top; ++k)
      fmt::format_to(std::back_inserter(b), R"({}{{"index":{},"relevance_score":{:.6f}}})",
                     k ? "," : "", order[k], sigmoid(logits[order[k]]));
    fmt::format_to(
        std::back_inserter(b),
        R"(],"meta":{{"api_version":{{"version":"2"}},"billed_units":{{"search_units":1}},)"
        R"("tokens":{{"input_tokens":{},"output_tokens":0}}}}}})",
        tokens);
  }
  out.body = std::move(b);
  out.units = static_cast<std::int64_t>(passages.size());
  out.prompt_tokens = tokens;
  return std::nullopt;
}

std::optional<RouteError> image_retrieval_reply(std::string_view body, FixedReply& out) {
  std::optional<RouteError> err;
  auto j = parse_object(body, err);
  if (!j) return err;
  const auto in = j->find("input");
  if (in == j->end() || !in->is_array() || in->empty())
    return route_error(422, "'input' must be a non-empty list of image_url items");
  std::string b = R"({"data":[)";
  double bytes = 0;
  std::int64_t i = 0;
  for (const auto& item : *in) {
    const auto url = item.is_object() ? item.find("url") : item.end();
    if (!item.is_object() || url == item.end() || !url->is_string() ||
        item.value("type", "image_url") != "image_url")
      return route_error(422, "every 'input' item must be {\"type\":\"image_url\",\"url\":string}");
    const auto& u = url->get_ref<const std::string&>();
    const auto comma = u.find(',');
    const std::size_t payload = comma == std::string::npos ? u.size() : u.size() - comma - 1;
    bytes += static_cast<double>(payload) * 3.0 / 4.0;
    std::uint64_t state = fnv1a(u);
    const int boxes = 1 + static_cast<int>(next_splitmix64(state) % 2);
    fmt::format_to(std::back_inserter(b), R"({}{{"index":{},"bounding_boxes":{{"chart":[)",
                   i ? "," : "", i);
    for (int k = 0; k < boxes; ++k) {
      const double x0 = unit(state) * 0.5, y0 = unit(state) * 0.5;
      const double x1 = x0 + 0.1 + unit(state) * 0.4, y1 = y0 + 0.1 + unit(state) * 0.4;
      const double conf = 0.5 + unit(state) * 0.5;
      fmt::format_to(
          std::back_inserter(b),
          R"({}{{"x_min":{:.4f},"y_min":{:.4f},"x_max":{:.4f},"y_max":{:.4f},"confidence":{:.4f}}})",
          k ? "," : "", x0, y0, x1, y1, conf);
    }
    b += R"(],"table":[],"title":[]}})";
    ++i;
  }
  fmt::format_to(std::back_inserter(b), R"(],"usage":{{"images_size_mb":{:.6f}}}}})",
                 bytes / (1024.0 * 1024.0));
  out.body = std::move(b);
  out.units = i;
  return std::nullopt;
}

}  // namespace inferperf::mock
